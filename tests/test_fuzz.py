"""Fuzz: hostile input of every kind gets an HkcoreError naming its field, fast.

Hypothesis generates malformed notation, mutated hand JSON, mutated built-in
preset TOML and faulty plugins. For every input: only ``HkcoreError``
subclasses escape; each names its field (or TOML path, or plugin); no call
takes more than ``SLOW`` seconds; messages stay short; and every hand that is
accepted scores the same through notation and JSON.

CI runs a bounded number of examples per test (the ``ci`` profile). The long
local run (docs/fuzzing.md) sets ``HKCORE_FUZZ_EXAMPLES``::

    HKCORE_FUZZ_EXAMPLES=200000 pytest tests/test_fuzz.py -p no:cacheprovider
"""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
import math
import os
import sys
import time
import tomllib
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings, strategies as st

import hkcore
from helpers.fuzzing import JSON_VALUES, TOKENS, WEIRD_INTS, WEIRD_STRINGS, Faulty, mutated_hands
from helpers.strategies import hands
from hkcore.errors import SHOWN
from hkcore.notation import format_hand
from hkcore.preset import _builtin_root as builtin_root  # the installed preset files, or presets/

EXAMPLES = int(os.environ.get("HKCORE_FUZZ_EXAMPLES", "0")) or None
#: the longest any single call may take (generous: the machine is shared)
SLOW = 2.0
#: the longest error message (a value is shown in at most ~SHOWN characters, and a message names a few)
LONGEST = 12 * SHOWN + 400
PRESETS = hkcore.presets()


def fuzz(n: int) -> Callable[[Any], Any]:
    """Hypothesis settings for a fuzz test: ``n`` examples in CI, more on request."""
    return settings(max_examples=EXAMPLES or n, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def call(f: Callable[[], Any]) -> tuple[Any, hkcore.HkcoreError | None]:
    """Run ``f``: its result or the HkcoreError it raised (anything else fails the test), timed."""
    start = time.perf_counter()
    try:
        return f(), None
    except hkcore.HkcoreError as exc:
        message = str(exc)
        assert message and "\n" not in message, repr(message)
        assert len(message) <= LONGEST, f"{len(message)} characters: {message[:300]}"
        return None, exc
    finally:
        took = time.perf_counter() - start
        assert took < SLOW, f"{took:.2f} s"


def names_its_field(err: hkcore.HkcoreError) -> bool:
    field = getattr(err, "field", None) or getattr(err, "path", None) or getattr(err, "plugin", None)
    return bool(field) or str(err).split(":", 1)[0].strip() != ""


# ---------------------------------------------------------------- values that break naive code



# ---------------------------------------------------------------- hands

@fuzz(300)
@given(st.lists(TOKENS, min_size=0, max_size=12), st.sampled_from(PRESETS))
def test_malformed_notation(tokens: list[str], preset: str) -> None:
    text = " ".join(tokens)
    result, err = call(lambda: hkcore.score(text, preset))
    if err is not None:
        assert names_its_field(err), str(err)
    else:
        assert result.faan >= 0


@fuzz(200)
@given(st.text(max_size=80))
def test_arbitrary_text(text: str) -> None:
    for f in (lambda: hkcore.score(text), lambda: hkcore.analyse(text), lambda: hkcore.is_complete(text),
              lambda: hkcore.tiles_away(text), lambda: hkcore.Hand.parse(text)):
        call(f)


@fuzz(400)
@given(mutated_hands(), st.sampled_from(PRESETS))
def test_mutated_hand_json(data: Any, preset: str) -> None:
    try:
        text = json.dumps(data)
    except ValueError:  # an int json cannot print: the dict alone
        text = "{}"
    for f in (lambda: hkcore.score(data, preset), lambda: hkcore.score(text, preset)):
        _result, err = call(f)
        if err is not None:
            assert names_its_field(err), str(err)


@fuzz(100)
@given(hands(), st.sampled_from(["win_tile", "tiles", "self_draw", "seat_wind"]))
def test_a_key_given_twice_in_json_is_refused(data: dict[str, Any], key: str) -> None:
    body = json.dumps(data)[1:-1]
    text = "{" + body + (", " if body else "") + f'"{key}": {json.dumps(data.get(key))}' + "}"
    _, err = call(lambda: hkcore.score(text))
    assert err is not None and key in str(err)


@fuzz(300)
@given(hands(), st.sampled_from(PRESETS))
def test_accepted_hands_round_trip_through_notation_and_json(data: dict[str, Any], preset: str) -> None:
    hand, err = call(lambda: hkcore.Hand.parse(data))
    if err is not None:
        return
    by_json, _ = call(lambda: hkcore.Hand.parse(hand.to_json()))
    by_notation, _ = call(lambda: hkcore.Hand.parse(format_hand(hand)))
    assert by_json == hand == by_notation
    results = [call(lambda h=h: hkcore.score(h, preset)) for h in (hand, by_json, by_notation)]
    dumps = [r.model_dump() if r is not None else str(e) for r, e in results]
    assert dumps[0] == dumps[1] == dumps[2]


@fuzz(200)
@given(st.one_of(JSON_VALUES, st.lists(WEIRD_INTS, max_size=40), st.binary(max_size=40)))
def test_core_functions_take_anything(tiles: Any) -> None:
    for f in (hkcore.is_complete, hkcore.readings, hkcore.tiles_away, hkcore.waits):
        call(lambda f=f: f(tiles))
        call(lambda f=f: f("123m456p789s11z", tiles))


# ---------------------------------------------------------------- presets

def _builtin_data(pid: str) -> dict[str, Any]:
    return tomllib.loads((builtin_root() / f"{pid}.toml").read_text(encoding="utf-8"))


TOML_VALUES = st.recursive(
    st.booleans() | st.sampled_from([-1, 0, 1, 3, 13, 2**31, 2**62]) | WEIRD_STRINGS.filter(lambda s: "\x00" not in s)
    | st.floats(allow_nan=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(
        ["value", "valeu", "limit", "by_count", "includes", "scheme", "table", "cap", "x", "wait", "on"]),
        inner, max_size=3),
    max_leaves=8,
)


@st.composite
def mutated_presets(draw: st.DrawFn) -> dict[str, Any]:
    data = _builtin_data(draw(st.sampled_from(PRESETS)))
    for _ in range(draw(st.integers(1, 3))):
        table = draw(st.sampled_from(["", "patterns", "payments", "claims"]))
        target = data if not table else data.get(table)
        if not isinstance(target, dict):
            continue
        keys = sorted(target)
        key = draw(st.sampled_from(keys + ["extends", "unknown_key", "minimum", "cap"])) if keys else "minimum"
        if draw(st.booleans()) and key in target:
            del target[key]
        else:
            target[key] = draw(TOML_VALUES)
    data.pop("extends", None) if draw(st.booleans()) else None
    return data


def _hand_sample() -> list[str]:
    return ["234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N", "123m456p789s11122z win:2z self-draw",
            "19m19p19s12345677z win:7z", "123m456p789s1122z flowers:1234 seasons:123",
            "11123456789999m win:9m self-draw first-turn:deal"]


@fuzz(250)
@given(mutated_presets())
def test_mutated_preset_toml(tmp_path_factory: pytest.TempPathFactory, data: dict[str, Any]) -> None:
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "house.toml"
    try:
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
    except (TypeError, ValueError):  # not representable as TOML
        return
    preset, err = call(lambda: hkcore.load_preset(path, root=folder))
    if err is not None:
        assert isinstance(err, hkcore.PresetError) and err.path, str(err)
        return
    for text in _hand_sample():
        result, err = call(lambda t=text: hkcore.score(t, preset))
        if result is not None:
            assert result.faan >= 0 and result.uncapped >= result.faan
            assert preset.cap is None or result.faan <= preset.cap
            if result.payments is not None:
                assert sum(result.payments.values()) == 0 and set(result.payments) == {"E", "S", "W", "N"}


@fuzz(60)
@given(st.binary(max_size=200))
def test_preset_file_bytes(tmp_path_factory: pytest.TempPathFactory, raw: bytes) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "house.toml"
    path.write_bytes(b'extends = "bga-old-style"\n' + raw)
    call(lambda: hkcore.load_preset(path))


# ---------------------------------------------------------------- faulty plugins

@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Any:
    plugin = Faulty()
    hkcore.register_plugin(plugin, "faulty")
    folder = tmp_path_factory.mktemp("faulty")
    files = {
        "pattern": 'extends = "bga-old-style"\n[patterns]\nfuzz_pattern = 1\n',
        "shape": 'extends = "bga-old-style"\nshapes = ["standard", "fuzz_shape"]\n',
        "scheme": 'extends = "hk-classic"\n[payments]\nscheme = "fuzz_scheme"\n',
        "adjustment": 'extends = "bga-old-style"\nplugins = ["fuzz_adjustment"]\n',
    }
    for name, body in files.items():
        (folder / f"{name}.toml").write_text(body)
    yield {name: str(folder / f"{name}.toml") for name in files}
    hkcore.unregister_plugin("faulty")


ANSWERS = st.one_of(
    st.just(0), st.just(1), WEIRD_INTS, st.floats(allow_nan=True), st.just(math.inf), WEIRD_STRINGS, st.none(),
    st.lists(st.integers(-3, 200), max_size=5).map(tuple), st.lists(st.tuples(st.integers(0, 140)), max_size=3),
    st.dictionaries(st.sampled_from(["E", "S", "W", "N", "X"]), WEIRD_INTS, max_size=5),
    st.sampled_from([ZeroDivisionError("boom"), RuntimeError("x" * 500), KeyError("k"), RecursionError(),
                     ValueError("bad"), TypeError("t")]),
)


@fuzz(300)
@given(ANSWERS, st.sampled_from(["pattern", "shape", "scheme", "adjustment"]),
       st.sampled_from(_hand_sample()))
def test_faulty_plugins_are_named(faulty: dict[str, str], answer: Any, where: str, text: str) -> None:
    Faulty.answer[0] = answer
    try:
        preset, err = call(lambda: hkcore.load_preset(faulty[where]))
        if err is not None:  # the scheme's role table is built when the preset is compiled
            assert isinstance(err, hkcore.PluginError) and "faulty" in str(err)
            return
        for f in (lambda: hkcore.score(text, preset),
                  lambda: hkcore.analyse("123m456p789s1112z", preset),
                  lambda: hkcore.tiles_away("123m456p789s1112z", shapes=preset)):
            result, err = call(f)
            if err is not None and isinstance(err, hkcore.PluginError):
                assert "faulty" in str(err) and where in str(err), str(err)
            elif isinstance(result, hkcore.ScoreResult) and result.payments is not None:
                assert sum(result.payments.values()) == 0
        # a detector's count out of contract is never used silently
        if where == "pattern" and not (type(answer) is bool or (type(answer) is int and 0 <= answer <= 64)):
            _, err = call(lambda: hkcore.score("123m456p789s11122z win:2z self-draw", preset))
            assert isinstance(err, hkcore.PluginError), err
    finally:
        Faulty.answer[0] = 0


# ---------------------------------------------------------------- plugin scopes, compressed lines, Ctrl-C

SCOPES = ("sets", "hand", "bonus", "instant")


@fuzz(120)
@given(st.one_of(st.sampled_from(SCOPES), WEIRD_STRINGS, JSON_VALUES))
def test_a_plugin_pattern_of_any_scope_is_taken_or_refused_naming_the_plugin(scope: Any) -> None:
    from hkcore.hookspecs import hookimpl
    from hkcore.patterns import Pattern
    from hkcore.registry import PluginWarning

    class Scoped:
        @hookimpl
        def hkcore_patterns(self) -> list[Pattern]:
            return [Pattern("fuzz_scoped", "Fuzz scoped", "測", lambda s, o: 1, scope=scope)]

    plugin = Scoped()
    known = isinstance(scope, str) and scope in SCOPES
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hkcore.register_plugin(plugin, "fuzz-scope")
    try:
        said = [str(w.message) for w in caught if issubclass(w.category, PluginWarning)]
        preset, err = call(lambda: hkcore.load_preset('extends = "hk-classic"\n[patterns]\nfuzz_scoped = 1\n'))
        if known:
            assert not said and err is None, (said, err)
            result, err = call(lambda: hkcore.score("123m456p789s11122z win:2z self-draw", preset))
            assert err is None and result is not None
            assert ("fuzz_scoped" in [p.id for p in result.patterns]) == (scope != "instant"), result.patterns
        else:
            assert len(said) == 1 and "plugin 'fuzz-scope'" in said[0] and "fuzz_scoped" in said[0], said
            assert err is not None and "fuzz_scoped" in str(err)
    finally:
        hkcore.unregister_plugin(plugin)


LINE_PARTS = st.one_of(st.sampled_from([b"", b"  ", b"\r", b"x" * 65538, b"{}", b"[1, 2"]),
                       st.binary(max_size=30), st.sampled_from(_hand_sample()).map(str.encode))
PACK = {"": lambda b: b, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


@fuzz(150)
@given(st.lists(LINE_PARTS, max_size=8), st.sampled_from(["", ".gz", ".bz2", ".xz", ".zip", ".zst", ".Z"]),
       st.one_of(st.none(), st.floats(0, 1)))
def test_json_lines_plain_or_compressed_read_as_their_bytes(tmp_path_factory: pytest.TempPathFactory,
                                                            parts: list[bytes], suffix: str, cut: float | None) -> None:
    from hkcore.lines import block_lines, file_blocks, file_lines

    data = b"\n".join(parts)
    path = tmp_path_factory.mktemp("lines") / f"hands.jsonl{suffix}"
    packed = PACK.get(suffix, lambda b: b)(data)
    broken = suffix in (".gz", ".bz2", ".xz") and cut is not None
    path.write_bytes(packed[:int(cut * len(packed))] if broken and cut is not None else packed)
    got, err = call(lambda: list(file_lines(str(path), "--jsonl")))
    blocks, err2 = call(lambda: [x for first, block in file_blocks(str(path), "--jsonl", size=3)
                                 for x in block_lines(block, first)])
    assert (err is None) == (err2 is None), (err, err2)
    if suffix in (".zip", ".zst", ".Z"):  # another compression's name: refused by the name, nothing read
        assert err is not None and "--jsonl" in str(err) and "not read" in str(err), err
    elif err is None:
        assert got == blocks
        if not broken:
            assert got == block_lines(data)
    else:  # only a compressed file cut short is refused
        assert broken and "--jsonl" in str(err), err


#: Ctrl-C rounds per CI run (HKCORE_FUZZ_INTERRUPTS raises it)
INTERRUPTS = int(os.environ.get("HKCORE_FUZZ_INTERRUPTS", "0")) or 6


@pytest.mark.io
@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_at_any_moment_is_one_line_and_130(tmp_path: Path) -> None:
    import importlib.util
    import random
    from collections import Counter

    from helpers.interrupts import Interrupted, interrupt_round

    rnd = random.Random(31)
    tally: Counter[str] = Counter()
    have_report = importlib.util.find_spec("matplotlib") is not None
    try:
        for _ in range(INTERRUPTS):
            # from 0.5 s on: a signal while the command line is loading was once lost (docs/fuzzing.md)
            interrupt_round(rnd, tmp_path, tally, have_report)
    except Interrupted as exc:
        pytest.fail(str(exc))
    assert sum(n for k, n in tally.items() if k.endswith(": 130")) > 0, tally


# ---------------------------------------------------------------- the service (a real hkscore serve on loopback)

#: hostile requests per CI run of the service area (HKCORE_FUZZ_SERVICE raises it)
SERVICE_INPUTS = int(os.environ.get("HKCORE_FUZZ_SERVICE", "0")) or 150


@pytest.mark.io
def test_the_service_under_hostile_clients() -> None:
    import random
    from collections import Counter

    from helpers.service_fuzz import Failure, service_round, slow_round
    from helpers.serving import missing_server_deps, server_process

    if missing_server_deps():
        pytest.skip(str(missing_server_deps()))
    tally: Counter[str] = Counter()
    rnd = random.Random(22)
    with server_process("--head-time-limit", "1") as (base, proc):
        rss = _rss(proc.pid)
        try:
            for _ in range(SERVICE_INPUTS):
                service_round(base, rnd, tally)
            slow_round(base, 12, 1.0)
        except Failure as exc:
            pytest.fail(str(exc))
        assert proc.poll() is None  # nothing took the server down
        assert _rss(proc.pid) - rss < 300 << 20, (rss, _rss(proc.pid))  # bounded memory for what it was sent
    assert sum(n for k, n in tally.items() if k.startswith("service TOML bomb")) > 0, tally


def _rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0
