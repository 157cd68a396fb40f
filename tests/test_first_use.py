"""What a new user trips on (issue 23): answers that agree, command-line habits, typing.

The command line runs as a subprocess from outside the source tree (the installed hkcore).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import hkcore
from hkcore.errors import HandError

OUTSIDE = tempfile.gettempdir()


def cli(*argv: str, stdin: str | None = None, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m hkcore ARGV`` run outside the source tree, this environment passed through."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, "-m", "hkcore", *argv], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=OUTSIDE, env=env)


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hkscore: error: "), proc.stderr
    return lines[0]


# --------------------------------------------------------------------------
# a short hand with no declared sets: one rule (docs/rules.md, "A short hand")

FOUR_PUNGS = [{"kind": "pung", "tiles": t} for t in ("111p", "222p", "333p", "444p")]


def test_a_short_hand_counts_its_missing_sets_as_declared_in_the_shape_questions() -> None:
    # 13m: two tiles, so four sets declared; discarding either leaves a pair wait
    assert hkcore.tiles_away("13m") == 0
    assert hkcore.tiles_away("13m", ["111p", "222p", "333p", "444p"]) == 0
    assert [str(t) for t in hkcore.waits("1m")] == ["1m"]


def test_analyse_refuses_a_short_hand_without_its_sets_and_says_how_many() -> None:
    with pytest.raises(HandError) as caught:
        hkcore.analyse("13m")
    assert "no declared sets" in str(caught.value) and "4 declared sets" in str(caught.value)
    with pytest.raises(HandError, match="1 declared set in"):
        hkcore.analyse("123m456p789s1z")   # 10 tiles: one set missing
    given = hkcore.analyse({"tiles": "13m", "melds": FOUR_PUNGS})
    assert given.tiles_away == 0
    assert {(o.discard, tuple(w.tile for w in o.waits)) for o in given.discards} == {("1m", ("3m",)),
                                                                                      ("3m", ("1m",))}


def test_the_command_line_agrees_on_a_short_hand() -> None:
    assert "4 declared sets" in one_error(cli("waits", "13m"))
    proc = cli("decompose", "13m", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["tiles_away"], data["declared_sets"], data["waits"]) == (0, 4, None)
    assert data["status"] == "a discard from waiting"
    text = cli("decompose", "13m").stdout
    assert "status   a discard from waiting" in text and "4 declared, not given" in text
    waiting = cli("decompose", "1112345678999m").stdout
    assert "status   waiting" in waiting and "declared, not given" not in waiting


def test_one_set_holds_the_winning_tile_even_beside_a_set_alike() -> None:
    # 11 123 123 234 234 m, won on 4m: the 4m sits in one of the two 234m chows
    result = hkcore.score("11112222333344m win:4m", preset="bga-old-style")
    won = [(p.kind, p.tiles) for p in result.reading if p.winning]
    assert won == [("chow", "234m")]
    proc = cli("score", "11112222333344m", "win:4m", "-p", "all", "--json")
    assert proc.returncode == 0, proc.stderr
    for entry in json.loads(proc.stdout):
        assert [p["tiles"] for p in entry["reading"] if p["winning"]] == ["234m"], entry["preset"]
    text = cli("score", "11112222333344m", "win:4m").stdout
    assert text.count("(chow, won)") == 1


# --------------------------------------------------------------------------
# a pattern that needs a shape the preset leaves off

SEVEN_PAIRS_OFF = 'extends = "bga-old-style"\nid = "pairs-off"\n[patterns]\nseven_pairs = 4\n'
SEVEN_PAIRS_ON = ('extends = "bga-old-style"\nid = "pairs-on"\nshapes = ["standard", "thirteen_orphans", '
                  '"seven_pairs"]\n[patterns]\nseven_pairs = 4\n')
#: seven pairs and no other reading: 11m 22m 33p 44p 55s 66s 77z
PAIRS_HAND = "1122m3344p5566s77z win:7z"


def test_a_pattern_whose_shape_is_off_is_warned_about_and_the_reason_names_the_shape(tmp_path: Path) -> None:
    from hkcore.registry import PresetWarning

    off = tmp_path / "off.toml"
    off.write_text(SEVEN_PAIRS_OFF)
    with pytest.warns(PresetWarning, match=r"patterns\.seven_pairs.*'seven_pairs' shape"):
        result = hkcore.score(PAIRS_HAND, preset=hkcore.load_preset(off))
    assert not result.complete and result.faan == 0
    assert result.reason is not None and result.reason.startswith("not a complete hand")
    assert "complete as seven_pairs" in result.reason and "add 'seven_pairs' to shapes" in result.reason
    # a hand that is not seven pairs either keeps the plain reason
    plain = hkcore.score("1122m3344p5566s17z win:7z", preset=hkcore.load_preset(off))  # warned once, above
    assert plain.reason == "not a complete hand"


def test_with_the_shape_on_nothing_is_warned_and_seven_pairs_scores(tmp_path: Path) -> None:
    import warnings

    on = tmp_path / "on.toml"
    on.write_text(SEVEN_PAIRS_ON)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = hkcore.score(PAIRS_HAND, preset=hkcore.load_preset(on))
    # concealed 1 + no bonus 1 + seven pairs 4 (bga-old-style values, docs/rules.md)
    assert result.complete and result.faan == 6


def test_the_command_line_shows_the_warning_on_one_line(tmp_path: Path) -> None:
    off = tmp_path / "off.toml"
    off.write_text(SEVEN_PAIRS_OFF)
    proc = cli("score", *PAIRS_HAND.split(), "-p", str(off))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("hkscore: warning: ") and "patterns.seven_pairs" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "complete as seven_pairs" in proc.stdout
