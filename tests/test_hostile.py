"""Every hostile input named in the "Hostile input" issue: a one-line
HkcoreError naming the field or TOML path, in Python and on the command line
(exit 2, nothing on stdout, no traceback), quickly."""
from __future__ import annotations

import array
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

import hkcore
from hkcore.errors import SHOWN
from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern
from hkcore.payments import PaymentScheme, SchemeParams

GOOD = "123m456p789s11122z win:2z"
HUGE = 10**5000


def refused(f: Any, cls: type = hkcore.HkcoreError) -> hkcore.HkcoreError:
    start = time.perf_counter()
    with pytest.raises(cls) as info:
        f()
    assert time.perf_counter() - start < 2.0
    message = str(info.value)
    assert "\n" not in message and len(message) < 12 * SHOWN + 400, message[:500]
    return info.value


# ---------------------------------------------------------------- hands

@pytest.mark.parametrize(("given", "field"), [
    (GOOD + " flowers:²", "notation"),                      # a superscript digit passes str.isdigit
    ({"tiles": "123m456p789s11122z", "win_tile": "2z", "kong_replacement": HUGE}, "kong_replacement"),
    ({"tiles": "123m456p789s11122z", "win_tile": "2z", "flowers": [HUGE]}, "flowers"),
    ({"tiles": HUGE, "win_tile": "2z"}, "tiles"),
    ({"tiles": "123m456p789s11122z", "win_tile": "2z", "seat_wind": HUGE}, "seat_wind"),
    (GOOD + " " + "x" * 300, "notation"),                   # a notation word over 255 characters
    (GOOD + " self-draw kong-replacement", "kong_replacement"),          # no kong declared
    (GOOD + " self-draw first-turn:deal last-tile", "first_turn"),
    ("22z 1111m [2222p] 333s:W 444z:S win:2z self-draw first-turn:deal kong-replacement", "first_turn"),
    ({"tiles": "123m456p789s1122z", "flowers": [1, 2, 3, 4], "seasons": [1, 2, 3], "robbing_kong": True},
     "robbing_kong"),
    ({"tiles": "123m456p789s1122z", "flowers": [1, 2, 3, 4], "seasons": [1, 2, 3], "discarder": "S"}, "discarder"),
    ('{"tiles": "123m456p789s11122z", "win_tile": "2z", "win_tile": "1z"}', "win_tile"),   # a key given twice
    ({"tiles": "123m456p789s11122z", "win_tile": "2z", "flowers": list(range(100_000))}, "flowers"),
    (GOOD + " self-draw" * 100_000, "notation"),             # a megabyte of notation
    ({"tiles": "1m" * 500_000, "win_tile": "2z"}, "tiles"),
])
def test_bad_hands_are_named(given: Any, field: str) -> None:
    err = refused(lambda: hkcore.score(given), hkcore.HandError)
    assert err.field == field or (err.field or "").startswith(field), str(err)[:300]


def test_core_functions_refuse_anything_else() -> None:
    for f in (hkcore.is_complete, hkcore.readings, hkcore.tiles_away, hkcore.waits):
        for bad in (None, 5, 1.5, object(), [HUGE] * 34, "x" * 5000):
            err = refused(lambda f=f, bad=bad: f(bad), hkcore.HandError)
            assert err.field and err.field.startswith("tiles"), str(err)


def test_an_array_of_ints_reads_like_a_list() -> None:
    fourteen = [1] * 14
    counts = [0] * 34
    for t in (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4):
        counts[t] += 1
    for container in (list, tuple, lambda xs: array.array("b", xs)):
        err = refused(lambda c=container: hkcore.is_complete(c(fourteen)), hkcore.HandError)
        assert "is an int" in str(err)
        assert hkcore.is_complete(container(counts)) is True  # 111 222 333 444m 55m as 34 counts


# ---------------------------------------------------------------- presets

B = 'extends = "bga-old-style"\n'


@pytest.mark.parametrize(("body", "path"), [
    (B + "[patterns]\nself_draw = -99\n", "patterns.self_draw"),
    (B + "[payments]\ndiscarder = -5\n", "payments.discarder"),
    (B + "[patterns]\nself_draw = 2147483648\n", "patterns.self_draw"),
    (B + "cap = 1073741824\n", "cap"),
    (B + "cap = 2\nminimum = 3\n", "minimum"),
    (B + "minimum = 11\ncap = 10\n", "minimum"),
    (B + "[payments]\ntable = [1, 2]\n", "payments"),          # a 9-faan hand would be paid as 1
    (B + '[payments]\nscheme = ["x"]\n', "payments.scheme"),
    (B + 'requires = [""]\n', "requires[0]"),
    ('extends = "just-cards"\n[plugins.liability]\nwind_set = 5\n', "plugins.liability.wind_set"),
    ('extends = "hk-classic"\n[payments]\ntable = [1, 2]\n', "payments.scheme"),
    (B + "[patterns]\nself_draw = { valeu = 2 }\n", "patterns.self_draw.valeu"),
])
def test_bad_presets_are_named(tmp_path: Path, body: str, path: str) -> None:
    f = tmp_path / "house.toml"
    f.write_text(body)
    err = refused(lambda: hkcore.load_preset(f), hkcore.PresetError)
    assert err.path == path and str(f) in str(err), str(err)


def test_typo_in_an_entry_suggests_the_key(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text(B + "[patterns]\nself_draw = { valeu = 2 }\n")
    assert "did you mean 'value'" in str(refused(lambda: hkcore.load_preset(f)))


def test_a_short_table_is_accepted_when_it_says_so(tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text(B + "[payments]\ntable = [1, 2]\nshort_table = true\n")
    # 123m 456p 789s chows, 111z pung of East (seat and round E), 22z: self_draw 1 + concealed 1
    # + seat_wind 1 + round_wind 1 + no_bonus 1 = 5 faan, paid the table's last entry: each other seat 2 x 2
    r = hkcore.score(GOOD + " self-draw", hkcore.load_preset(f))
    assert r.faan == 5 and r.payments == {"E": 12, "S": -4, "W": -4, "N": -4}


def test_unreadable_presets(tmp_path: Path) -> None:
    f = tmp_path / "latin1.toml"
    f.write_bytes(b'extends = "bga-old-style"\nname = "caf\xe9"\n')
    assert "UTF-8" in str(refused(lambda: hkcore.load_preset(f), hkcore.PresetError))
    refused(lambda: hkcore.load_preset("x" * 300), hkcore.PresetError)
    refused(lambda: hkcore.load_preset("/tmp/" + "x" * 300 + ".toml"), hkcore.PresetError)
    refused(lambda: hkcore.load_preset(str(tmp_path / "nul\x00.toml")), hkcore.PresetError)


def test_a_long_extends_chain_stops(tmp_path: Path) -> None:
    for i in range(1000):
        (tmp_path / f"c{i}.toml").write_text(f'extends = "c{i + 1}.toml"\n' if i < 999 else B)
    err = refused(lambda: hkcore.load_preset(tmp_path / "c0.toml"), hkcore.PresetError)
    assert err.path == "extends" and "32" in str(err)


def test_root_keeps_extends_inside_and_tells_nothing(tmp_path: Path) -> None:
    inside = tmp_path / "club"
    inside.mkdir()
    (tmp_path / "secret.toml").write_text("x = 1\n")
    messages = []
    for target in (str(tmp_path / "secret.toml"), str(tmp_path / "missing.toml"), "../secret.toml", "/etc/passwd"):
        (inside / "house.toml").write_text(f'extends = "{target}"\n')
        err = refused(lambda: hkcore.load_preset(inside / "house.toml", root=inside), hkcore.PresetError)
        messages.append(str(err).replace(target, "TARGET"))
    assert len(set(messages)) == 1, messages  # the same words whether or not the file exists
    (inside / "house.toml").write_text(B + "minimum = 0\n")
    assert hkcore.load_preset(inside / "house.toml", root=inside).minimum == 0


# ---------------------------------------------------------------- plugins

class Broken:
    """A detector that raises, one that answers a string, a scheme whose payments do not sum to zero."""

    @hookimpl
    def hkcore_patterns(self) -> list[Pattern]:
        return [Pattern("zero_division", "Broken", "壞", lambda s, o: 1 // 0),
                Pattern("says_yes", "Broken", "壞", lambda s, o: "yes"),
                Pattern("self_draw", "Duplicate", "重", lambda s, o: 1)]

    @hookimpl
    def hkcore_payment_schemes(self) -> list[PaymentScheme]:
        return [PaymentScheme("lopsided", "pays from nowhere", SchemeParams,
                              lambda win, p: {"E": 1, "S": 0, "W": 0, "N": 0}),
                PaymentScheme("empty", "pays nothing at all", SchemeParams, lambda win, p: {})]


@pytest.fixture
def broken(tmp_path: Path) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hkcore.register_plugin(Broken(), "broken")
    yield tmp_path, caught
    hkcore.unregister_plugin("broken")


@pytest.mark.parametrize(("body", "item"), [
    (B + "[patterns]\nzero_division = 1\n", "zero_division"),
    (B + "[patterns]\nsays_yes = 1\n", "says_yes"),
    ('extends = "hk-classic"\n[payments]\nscheme = "lopsided"\n', "lopsided"),
    ('extends = "hk-classic"\n[payments]\nscheme = "empty"\n', "empty"),
])
def test_plugin_faults_name_the_plugin(broken: Any, body: str, item: str) -> None:
    tmp_path, _ = broken
    f = tmp_path / "house.toml"
    f.write_text(body)
    err = refused(lambda: hkcore.score(GOOD + " self-draw", hkcore.load_preset(f)), hkcore.PluginError)
    assert "'broken'" in str(err) and item in str(err), str(err)


def test_a_duplicate_id_is_reported(broken: Any) -> None:
    _, caught = broken
    assert any("self_draw" in str(w.message) and "broken" in str(w.message) for w in caught)
    assert "self_draw" in hkcore.registry.catalogue().broken_plugins["broken"]


# ---------------------------------------------------------------- the command line

def _cli(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "hkcore.cli", *args], input=stdin, capture_output=True,
                          timeout=120, cwd=tempfile.gettempdir())
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


@pytest.mark.parametrize("args", [
    ["score", GOOD, "flowers:²"],
    ["score", GOOD, "x" * 300],
    ["score", GOOD, "-p", "x" * 300],
    ["score", "x" * 300],
    ["presets", "show", "/tmp/" + "y" * 300 + ".toml"],
])
def test_cli_errors_are_one_line(args: list[str]) -> None:
    code, out, err = _cli(*args)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("hkscore: error:"), (code, out, err)
    assert "Traceback" not in err


def test_cli_unreadable_files(tmp_path: Path) -> None:
    hand = tmp_path / "hand.json"
    hand.write_bytes(b'{"tiles": "caf\xe9"}')
    preset = tmp_path / "p.toml"
    preset.write_bytes(b'name = "caf\xe9"\n')
    for args in (["score", str(hand)], ["score", GOOD, "-p", str(preset)],
                 ["presets", "export", "bga-old-style", "-o", str(tmp_path / "missing" / "x.toml")]):
        code, out, err = _cli(*args)
        assert code == 2 and out == "" and err.count("\n") == 1, (args, code, out, err)


def test_cli_models_bound_matches() -> None:
    import hkcore.cli.common
    import hkcore.models

    assert hkcore.cli.common.MAX_JSON == hkcore.models.MAX_JSON
