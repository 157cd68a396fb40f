"""The ``hkscore`` command line: ``hkcore.cli.main`` with captured output,
and a few runs of the installed script."""
from __future__ import annotations

import argparse
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import hkcore
from helpers.cli import check_schema, run
from hkcore.cli import EXAMPLE_HAND, build_parser, main

BUILTINS = ("bga-old-style", "hk-classic", "just-cards", "mistboard", "playingcards-io")

# The RULES.md example hand (South wins on North's discard: 234m, pair 55z
# won, pungs 666z and 777z claimed, concealed kong 1111m; round East):
# - bga-old-style: no_bonus 1 + dragon_pung 2 + half_flush 3 + little_three_dragons 3 = 9;
#   b(9) = 96: North pays 2b = 192, East and West b = 96 each; South +384
# - hk-classic: half_flush 3 + little_three_dragons 5 (incl. dragon_pung) = 8; no payments
# - just-cards: dragon_pung 2 + half_flush 3 + little_three_dragons 3 = 8 (no no_bonus at 136 tiles);
#   t(8) = 128, the discarder alone pays 2t = 256
# - mistboard: no_bonus 1 + half_flush 3 + little_three_dragons 5 (incl. dragon_pung) = 9; no payments
# - playingcards-io: two dragon pungs = 6 points (no seat-wind pung: seat South);
#   the discarder pays 8 + 6, the others 8
EXAMPLE_TOTALS = {"bga-old-style": (9, "faan"), "hk-classic": (8, "faan"), "just-cards": (8, "faan"),
                  "mistboard": (9, "faan"), "playingcards-io": (6, "points")}
EXAMPLE_PATTERNS = {
    "bga-old-style": {"no_bonus": 1, "dragon_pung": 2, "half_flush": 3, "little_three_dragons": 3},
    "hk-classic": {"half_flush": 3, "little_three_dragons": 5},
    "just-cards": {"dragon_pung": 2, "half_flush": 3, "little_three_dragons": 3},
    "mistboard": {"no_bonus": 1, "half_flush": 3, "little_three_dragons": 5},
    "playingcards-io": {"dragon_pung": 6},
}
EXAMPLE_PAYMENTS = {
    "bga-old-style": {"E": -96, "S": 384, "W": -96, "N": -192},
    "hk-classic": None,
    "just-cards": {"E": 0, "S": 256, "W": 0, "N": -256},
    "mistboard": None,
    "playingcards-io": {"E": -8, "S": 30, "W": -8, "N": -14},
}
EXAMPLE_NOTATION = ["234m55z", "666z:W", "777z:E", "1111m:concealed", "win:5z", "seat:S", "from:N"]
BRACKETED_NOTATION = ["234m55z", "666z:W", "777z:E", "[1111m]", "win:5z", "seat:S", "from:N"]
FLOWER_HAND = ["123m456p789s234s55p", "win:5p", "self-draw", "flowers:1"]


def one(out: str) -> dict[str, Any]:
    """The one entry of a --json list (score, waits: a list whatever the number of presets)."""
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 1, data
    return data[0]


def assert_one_error_line(code: int, err: str) -> None:
    assert code == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("hkscore: error: "), err
    assert "Traceback" not in err


def totals(text: str) -> dict[str, tuple[int, str]]:
    """preset id -> (total, unit) from the human-readable score output."""
    found: dict[str, tuple[int, str]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^(\S+) \(.*\)$", line)
        if m:
            current = m.group(1)
        m = re.match(r"^  total\s+(\d+) (faan|points)", line)
        if m and current:
            found[current] = (int(m.group(1)), m.group(2))
    return found


# --------------------------------------------------------------------------
# example | score --preset all -


def test_example_prints_the_rules_md_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "example")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data == EXAMPLE_HAND
    assert data["tiles"] == "234m55z" and data["win_tile"] == "5z" and data["discarder"] == "N"
    assert hkcore.Hand.parse(data).seat_wind == "S"


def test_example_piped_into_score_all(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, example, _ = run(capsys, "example")
    monkeypatch.setattr(sys, "stdin", io.StringIO(example))
    code, out, err = run(capsys, "score", "--preset", "all", "-")
    assert code == 0 and err == ""
    assert totals(out) == EXAMPLE_TOTALS
    assert "payments  E -96  S +384  W -96  N -192" in out
    assert out.count("payments  none at this table") == 2   # hk-classic, mistboard


def test_score_all_json(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(EXAMPLE_HAND)))
    code, out, _ = run(capsys, "score", "-p", "all", "--json", "-")
    assert code == 0
    results = json.loads(out)
    assert [r["preset"] for r in results] == list(BUILTINS)
    for r in results:
        pid = r["preset"]
        assert (r["faan"], r["unit"]) == EXAMPLE_TOTALS[pid]
        assert {p["id"]: p["faan"] for p in r["patterns"]} == EXAMPLE_PATTERNS[pid]
        assert r["payments"] == EXAMPLE_PAYMENTS[pid]
        assert r["winnable"] is True and r["complete"] is True


def test_score_json_fields(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(EXAMPLE_HAND), encoding="utf-8")
    code, out, err = run(capsys, "score", str(f), "--json")   # default preset bga-old-style
    assert code == 0 and err == ""
    r = one(out)
    assert {"preset", "unit", "faan", "uncapped", "winnable", "complete", "limit", "shape", "patterns",
            "reading", "payments", "reason"} <= set(r)
    assert (r["preset"], r["unit"], r["faan"], r["uncapped"]) == ("bga-old-style", "faan", 9, 9)
    assert (r["winnable"], r["complete"], r["limit"], r["shape"]) == (True, True, False, "standard")
    dragon = next(p for p in r["patterns"] if p["id"] == "dragon_pung")
    assert dragon == {"id": "dragon_pung", "faan": 2, "count": 2, "name_en": "Dragon Pung", "name_zh": "三元牌"}
    assert sum(p["faan"] for p in r["patterns"]) == r["uncapped"]
    assert r["payments"] == EXAMPLE_PAYMENTS["bga-old-style"] and sum(r["payments"].values()) == 0
    won = [part for part in r["reading"] if part["winning"]]
    assert len(won) == 1 and won[0]["kind"] == "pair" and won[0]["tiles"] == "55z"
    assert hkcore.ScoreResult.model_validate(r).faan == 9


def test_score_compact_notation(capsys: pytest.CaptureFixture[str]) -> None:
    for pid, (total, unit) in EXAMPLE_TOTALS.items():
        code, out, _ = run(capsys, "score", *EXAMPLE_NOTATION, "--preset", pid, "--json")
        assert code == 0
        r = one(out)
        assert (r["preset"], r["faan"], r["unit"]) == (pid, total, unit)


def test_score_notation_in_one_argument(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", " ".join(EXAMPLE_NOTATION), "-p", "mistboard")
    assert code == 0
    assert totals(out) == {"mistboard": (9, "faan")}
    assert "hand  234m55z 666z:W 777z:E 1111m:concealed win:5z from:N seat:S" in out


def test_score_a_self_drawn_notation_hand(capsys: pytest.CaptureFixture[str]) -> None:
    # all_chows 1 + concealed 1 + self_draw 1 + no_bonus 1 = 4; b = 16, each pays 32
    code, out, _ = run(capsys, "score", "123m456p789s234s55p", "win:5p", "self-draw", "--json")
    assert code == 0
    r = one(out)
    assert r["faan"] == 4 and r["payments"] == {"E": 96, "S": -32, "W": -32, "N": -32}


def test_score_json_file_argument(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "example.json"
    f.write_text(json.dumps(EXAMPLE_HAND), encoding="utf-8")
    code, out, _ = run(capsys, "score", str(f), "-p", "hk-classic", "-p", "playingcards-io")
    assert code == 0
    assert totals(out) == {"hk-classic": (8, "faan"), "playingcards-io": (6, "points")}
    # a file without the .json suffix is read too
    g = tmp_path / "hand.txt"
    g.write_text(json.dumps(EXAMPLE_HAND), encoding="utf-8")
    code, out, _ = run(capsys, "score", str(g), "-p", "just-cards", "--json")
    assert code == 0 and one(out)["faan"] == 8


def test_score_with_a_preset_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "house.toml"
    f.write_text('extends = "mistboard"\n[patterns]\nhalf_flush = 1\n', encoding="utf-8")
    code, out, _ = run(capsys, "score", *EXAMPLE_NOTATION, "-p", str(f), "--json")
    assert code == 0
    r = one(out)
    # mistboard's 9 with half_flush 1 instead of 3
    assert (r["preset"], r["faan"]) == ("house", 7)


def test_score_several_presets_one_rejects_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", *FLOWER_HAND, "-p", "bga-old-style", "-p", "just-cards", "--json")
    assert code == 1  # some preset failed: the others' answers are still printed
    assert err == "hkscore: 1 of 2 presets failed\n"
    results = json.loads(out)
    assert results[0]["preset"] == "bga-old-style" and results[0]["faan"] == 4
    assert results[1]["preset"] == "just-cards" and "bonus tiles" in results[1]["error"]
    assert (results[1]["type"], results[1]["field"]) == ("HandError", "flowers")


# --------------------------------------------------------------------------
# compare


def test_compare_table_with_flowers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "compare", *FLOWER_HAND)
    assert code == 1 and err == "hkscore: 2 of 5 presets failed\n"
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("pattern"))
    assert header.split() == ["pattern", *BUILTINS]
    total = next(line for line in lines if line.startswith("total"))
    # bga/mistboard: all_chows + concealed + self_draw + seat_flower = 4;
    # playingcards-io: all_chows 2 + self_draw 1 + bonus_tile 1 = 4 points
    assert total.split() == ["total", "4", "faan", "error", "error", "4", "faan", "4", "points"]
    errors = [line for line in lines if line.startswith("error under ")]
    assert len(errors) == 2
    assert errors[0].startswith("error under hk-classic: ") and "bonus tiles" in errors[0]
    assert errors[1].startswith("error under just-cards: ") and "bonus tiles" in errors[1]
    seat_flower = next(line for line in lines if line.startswith("seat_flower"))
    assert seat_flower.split() == ["seat_flower", "1", "1"]


def test_compare_example_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", *EXAMPLE_NOTATION)
    assert code == 0
    lines = out.splitlines()
    total = next(line for line in lines if line.startswith("total")).split()
    assert total == ["total", "9", "faan", "8", "faan", "8", "faan", "9", "faan", "6", "points"]
    assert not any(line.startswith("error under") for line in lines)
    pays_n = next(line for line in lines if line.startswith("pays N")).split()
    assert pays_n == ["pays", "N", "-192", "-", "-256", "-", "-14"]


def test_compare_json_and_chosen_presets(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", *FLOWER_HAND, "-p", "mistboard", "-p", "hk-classic", "--json")
    assert code == 1  # hk-classic rejects the hand
    data = json.loads(out)
    cols = data["presets"]
    assert [c["preset"] for c in cols] == ["mistboard", "hk-classic"]
    assert cols[0]["result"]["faan"] == 4 and "error" not in cols[0]
    assert "bonus tiles" in cols[1]["error"] and "result" not in cols[1]
    assert data["hand"]["flowers"] == [1]


# --------------------------------------------------------------------------
# presets


def test_presets_lists_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["id", "name", "unit", "minimum", "cap", "tiles"]
    assert [line.split()[0] for line in lines[1:]] == list(BUILTINS)
    by_id = {line.split()[0]: line.split()[-4:] for line in lines[1:]}
    assert by_id["mistboard"] == ["faan", "3", "10", "144"]
    assert by_id["hk-classic"] == ["faan", "3", "13", "136"]
    assert by_id["playingcards-io"] == ["points", "0", "none", "144"]


def test_presets_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "show", "mistboard")
    assert code == 0
    assert out.splitlines()[0] == "mistboard: Mistboard"
    assert "minimum 3, cap 10, 144 tiles" in out
    kok = next(line for line in out.splitlines() if line.split()[:1] == ["kong_on_kong"])
    assert kok.split()[1] == "8" and "incl. kong_replacement, self_draw" in kok
    eight = next(line for line in out.splitlines() if line.split()[:1] == ["eight_bonus"])
    assert "limit 8" in eight
    assert "payments  none" in out
    code, out, _ = run(capsys, "presets", "show", "playingcards-io")
    dragon = next(line for line in out.splitlines() if line.split()[:1] == ["dragon_pung"])
    assert "by count 0/2/6/6" in dragon
    code, out, _ = run(capsys, "presets", "show", "just-cards")
    assert "plugins   liability" in out and "scheme=faan_table" in out


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_presets_show_prints_the_table_section(capsys: pytest.CaptureFixture[str], preset_id: str) -> None:
    """``presets show`` ends with the preset's ``[table]``: every key of the file's section (presets/*.toml), as
    ``key=value`` (true/false, a list as JSON, false for off), as the claims line shows its section."""
    code, out, _ = run(capsys, "presets", "show", preset_id)
    assert code == 0
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  table     "))
    assert all(line.startswith(" " * 12) for line in lines[start + 1:])  # the last block, wrapped
    shown = " ".join(line.strip() for line in lines[start:]).removeprefix("table").strip()
    section = tomllib.loads((resources.files("hkcore.preset_files") / f"{preset_id}.toml").read_text(
        encoding="utf-8"))["table"]
    words = {True: "true", False: "false"}
    expected = [f"{k}={words[v] if isinstance(v, bool) else json.dumps(v) if isinstance(v, list) else v}"
                for k, v in section.items()]
    assert sorted(re.split(r", (?=\w+=)", shown)) == sorted(expected)
    assert all(len(line) <= 100 for line in lines[start:])


def test_presets_show_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "beginner.toml"
    f.write_text('extends = "bga-old-style"\nminimum = 0\n', encoding="utf-8")
    code, out, _ = run(capsys, "presets", "show", str(f))
    assert code == 0
    assert out.startswith("beginner: ") and "minimum 0, cap 13" in out


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_presets_export_to_a_file_loads_back(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                             preset_id: str) -> None:
    out_file = tmp_path / f"{preset_id}-export.toml"
    code, out, err = run(capsys, "presets", "export", preset_id, "-o", str(out_file))
    assert code == 0 and out == "" and err == ""
    text = out_file.read_text(encoding="utf-8")
    assert "extends" not in tomllib.loads(text)
    assert hkcore.load_preset(str(out_file)) == hkcore.load_preset(preset_id)


def test_presets_export_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "export", "playingcards-io")
    assert code == 0
    data = tomllib.loads(out)
    assert data["id"] == "playingcards-io" and data["cap"] is False
    assert data["patterns"]["dragon_pung"] == {"by_count": [0, 2, 6, 6]}
    assert data["payments"] == {"scheme": "points", "fixed": 8}


def test_presets_diff(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "diff", "mistboard", "bga-old-style")
    assert code == 1  # as diff(1): the presets differ
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()}
    assert rows["rule"] == ["mistboard", "bga-old-style"]  # a header names the columns
    widths = {line.index(cells[0]) for line in out.splitlines()[:3] for cells in [line.split()[1:]]}
    assert len(widths) == 1  # the second column is aligned
    assert rows["cap"] == ["10", "13"]
    assert rows["patterns.eight_bonus.limit"] == ["8", "13"]
    assert rows["patterns.earthly_hand.on"] == ["first_draw", "first_discard"]
    assert "minimum" not in rows


def test_presets_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "diff", "mistboard", "bga-old-style", "--json")
    data = json.loads(out)
    assert code == 1 and (data["a"], data["b"]) == ("mistboard", "bga-old-style")
    assert {"path": "cap", "a": 10, "b": 13} in data["differences"]
    code, out, _ = run(capsys, "presets", "--json")
    listed = {p["id"]: p for p in json.loads(out)}
    assert code == 0 and listed["just-cards"]["tiles"] == 136 and listed["playingcards-io"]["cap"] is False
    code, out, _ = run(capsys, "presets", "show", "hk-classic", "--json")
    assert code == 0 and json.loads(out)["minimum"] == 3


def test_presets_diff_same(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "diff", "hk-classic", "hk-classic")
    assert code == 0
    assert out.strip() == "hk-classic and hk-classic have the same rules"


# --------------------------------------------------------------------------
# schema


def test_schema_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "hand")
    assert code == 0
    schema = json.loads(out)
    check_schema(schema)
    assert set(schema["required"]) == {"tiles"}
    assert set(EXAMPLE_HAND) <= set(schema["properties"])   # every field of the example is described
    # the default is the hand schema
    code, out2, _ = run(capsys, "schema")
    assert json.loads(out2) == schema


def test_schema_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "meld")
    assert code == 0
    schema = json.loads(out)
    check_schema(schema)
    assert schema["properties"]["kind"]["enum"] == ["chow", "pung", "kong"]
    assert "from" in schema["properties"] and "from_" not in schema["properties"]
    assert set(schema["required"]) == {"kind", "tiles"}


def test_schema_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "result")
    assert code == 0
    schema = json.loads(out)
    check_schema(schema)
    assert {"faan", "patterns", "payments", "winnable", "complete"} <= set(schema["properties"])
    assert schema["properties"]["unit"]["enum"] == ["faan", "points"]


# --------------------------------------------------------------------------
# decompose


def test_decompose_complete(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "decompose", "11123456789999m")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("hand     11123456789999m")
    assert "status   complete" in lines
    readings = [line for line in lines if line.startswith("reading ")]
    assert readings == ["reading 1: 11m  123m (chow)  456m (chow)  789m (chow)  999m (pung)"]


def test_decompose_waits(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "decompose", "1112345678999m")
    assert code == 0
    assert "status   waiting" in out
    waits = next(line for line in out.splitlines() if line.startswith("waits"))
    assert waits.split()[1::2] == [f"{n}m" for n in range(1, 10)]   # the nine-gates wait


def test_decompose_with_a_meld(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "decompose", "23m456p789s55z", "--meld", "777z")
    assert code == 0
    assert "waiting" in out
    waits = next(line for line in out.splitlines() if line.startswith("waits"))
    assert waits.split()[1::2] == ["1m", "4m"]


def test_decompose_tiles_away(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "decompose", "1359m1359p1359s1z")
    assert code == 0
    assert re.search(r"status   \d+ tiles away", out)


# --------------------------------------------------------------------------
# error paths: exit 2, one line on stderr, no traceback

ERROR_CASES = [
    ("bad-tile", ["score", "234m55x", "666z:W", "777z:E", "[1111m]", "win:5z", "seat:S", "from:N"], "55x"),
    ("unknown-preset", ["score", *EXAMPLE_NOTATION, "-p", "mistbored"], "mistboard"),
    ("missing-file", ["score", "no-such-hand.json"], "no-such-hand.json"),
    ("bad-notation-token", ["score", "234m55z", "666z:W", "777z:E", "bogus", "[1111m]", "win:5z"], "bogus"),
    ("bad-seat-in-notation", ["score", "234m55z", "666z:X", "777z:E", "[1111m]", "win:5z", "seat:S"], "666z:X"),
    ("unknown-preset-in-compare", ["compare", *EXAMPLE_NOTATION, "-p", "nosuch"], "nosuch"),
    ("show-unknown", ["presets", "show", "nosuch"], "nosuch"),
    ("show-without-id", ["presets", "show"], "presets show"),
    ("diff-one-preset", ["presets", "diff", "mistboard"], "presets diff"),
    ("decompose-bad-tile", ["decompose", "123x"], "123x"),
    ("decompose-bad-meld", ["decompose", "11123456789m", "--meld", "55z"], "55z"),
    ("fifth-tile", ["score", "1111m234m55z", "111m:W", "777z:W", "win:5z"], "1m"),
]


@pytest.mark.parametrize(("name", "argv", "word"), ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_errors_are_one_line(capsys: pytest.CaptureFixture[str], name: str, argv: list[str], word: str) -> None:
    code, out, err = run(capsys, *argv)
    assert_one_error_line(code, err)
    assert word in err
    if argv[0] == "score":   # nothing printed before the hand is known (decompose echoes its input first)
        assert out == ""


def test_bad_preset_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('extends = "bga-old-style"\nminimun = 0\n', encoding="utf-8")
    code, _, err = run(capsys, "score", *EXAMPLE_NOTATION, "-p", str(f))
    assert_one_error_line(code, err)
    assert "bad.toml" in err and "minimun" in err and "did you mean 'minimum'?" in err
    # under -p all too: the bad file stops the command with one line
    code, _, err = run(capsys, "score", *EXAMPLE_NOTATION, "-p", "all", "-p", str(f))
    assert_one_error_line(code, err)
    # and in presets show / compare
    for argv in (["presets", "show", str(f)], ["compare", *EXAMPLE_NOTATION, "-p", str(f)]):
        code, _, err = run(capsys, *argv)
        assert_one_error_line(code, err)
        assert "minimun" in err


def test_invalid_toml_preset_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "broken.toml"
    f.write_text("minimum = = 3\n[patterns\n", encoding="utf-8")
    code, _, err = run(capsys, "presets", "show", str(f))
    assert_one_error_line(code, err)
    assert "broken.toml" in err and "TOML" in err


def test_missing_preset_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "score", *EXAMPLE_NOTATION, "-p", str(tmp_path / "nowhere.toml"))
    assert_one_error_line(code, err)
    assert "nowhere.toml" in err


def test_bad_json_on_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"tiles": "234m55z", "win_tile": '))
    code, _, err = run(capsys, "score", "-")
    assert_one_error_line(code, err)


def test_a_hand_with_bonus_tiles_under_one_136_tile_preset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run(capsys, "score", *FLOWER_HAND, "-p", "hk-classic")
    assert_one_error_line(code, err)
    assert "flowers" in err and "hk-classic" in err


# --------------------------------------------------------------------------
# the installed script, for real


def hkscore() -> str:
    found = shutil.which("hkscore") or str(Path(sys.executable).parent / "hkscore")
    if not Path(found).is_file():
        pytest.fail(f"the hkscore script is not installed next to {sys.executable}")
    return found


def script_env() -> dict[str, str]:
    """This environment, with PYTHONPATH made absolute (the scripts run in another folder)."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    return env


def script(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run the installed hkcore script outside the source tree (PYTHONPATH passed through)."""
    return subprocess.run([hkscore(), *argv], input=stdin, capture_output=True, text=True, timeout=60,
                          cwd=tempfile.gettempdir(), env=script_env())


def test_script_example_piped_into_score_all() -> None:
    example = script("example")
    assert example.returncode == 0, example.stderr
    assert json.loads(example.stdout) == EXAMPLE_HAND
    scored = script("score", "--preset", "all", "-", stdin=example.stdout)
    assert scored.returncode == 0, scored.stderr
    assert totals(scored.stdout) == EXAMPLE_TOTALS


def test_script_json_output() -> None:
    proc = script("score", *EXAMPLE_NOTATION, "-p", "just-cards", "--json")
    assert proc.returncode == 0, proc.stderr
    r = one(proc.stdout)
    assert (r["faan"], r["payments"]) == (8, EXAMPLE_PAYMENTS["just-cards"])


@pytest.mark.parametrize("argv", [
    ["score", "234m55x", "win:5z"],
    ["score", *EXAMPLE_NOTATION, "-p", "nosuch"],
    ["score", "/nonexistent/hand.json"],
    ["score", "234m55z", "666z:W", "777z:E", "bogus", "win:5z"],
], ids=["bad-tile", "unknown-preset", "missing-file", "bad-token"])
def test_script_errors(argv: list[str]) -> None:
    proc = script(*argv)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hkscore: error: "), proc.stderr
    assert "Traceback" not in proc.stderr


def test_script_bad_preset_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.toml"
    f.write_text('extends = "bga-old-style"\n[patterns]\nnine_gates = { limit = 10, wiat = "pure" }\n',
                 encoding="utf-8")
    proc = script("presets", "show", str(f))
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("hkscore: error: ")
    assert "patterns.nine_gates.wiat" in lines[0] and "did you mean 'wait'?" in lines[0]


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_script_notation_needs_no_quoting(shell: str, tmp_path: Path) -> None:
    """The README's command line, typed as is into a shell, in a folder holding a file named ``m``:
    ``1111m:concealed`` reaches hkscore whole; ``[1111m]`` is a glob there (bash gives ``m``)."""
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    (tmp_path / "m").write_text("", encoding="utf-8")
    line = 'cd "$1" && "$0" score 234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N -p just-cards --json'
    proc = subprocess.run([shell, "-c", line, hkscore(), str(tmp_path)], capture_output=True, text=True,
                          timeout=60, cwd=tempfile.gettempdir(), env=script_env())
    assert proc.returncode == 0, proc.stderr
    r = one(proc.stdout)
    assert (r["faan"], r["payments"]) == (8, EXAMPLE_PAYMENTS["just-cards"])
    kong = [part for part in r["reading"] if part["kind"] == "kong"]
    assert len(kong) == 1 and kong[0]["tiles"] == "1111m" and kong[0]["concealed"] and kong[0]["declared"]
    if shell == "bash":
        globbed = subprocess.run([shell, "-c", line.replace("1111m:concealed", "[1111m]"), hkscore(),
                                  str(tmp_path)], capture_output=True, text=True, timeout=60,
                                 cwd=tempfile.gettempdir(), env=script_env())
        assert globbed.returncode == 2 and "token 4 'm'" in globbed.stderr


# --------------------------------------------------------------------------
# --json on every command, one shape each

WAITING = ["123m456p23s55z", "789s:E", "seat:S"]
# RULES.md values, worked by hand: 123m 456p 789s(claimed from E) 55z pair, waiting on 23s -> 1s or 4s.
# A discard win: all_chows 1 + no_bonus 1 = 2 (bga-old-style, mistboard; minimum 3: cannot win);
# hk-classic and just-cards (136 tiles, no no_bonus): all_chows 1; playingcards-io: all_chows 2 points,
# no minimum. A self-draw adds self_draw 1 everywhere.
WAITS_BY_PRESET = {"bga-old-style": (2, False, 3, True), "hk-classic": (1, False, 2, False),
                   "just-cards": (1, False, 2, False), "mistboard": (2, False, 3, True),
                   "playingcards-io": (2, True, 3, True)}
PRESET_KEYS = {"id", "name", "source", "requires", "unit", "minimum", "cap", "tiles", "shapes", "plugins",
               "limit_adds", "claims", "patterns", "payments", "table"}


def test_every_command_takes_json() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(commands.choices) == {"score", "compare", "waits", "example", "presets", "plugins", "schema",
                                     "decompose", "sample", "report", "serve", "claims", "play", "replay",
                                     "simulate", "bots", "arena", "dataset"}
    for name, sub in commands.choices.items():
        if name == "serve":  # runs the HTTP service: it prints no data
            continue
        options = {o for action in sub._actions for o in action.option_strings}
        assert "--json" in options, name
        assert ("--format" in options) == (name in ("score", "compare", "waits", "claims", "presets")), name


def test_the_commands_are_the_one_list_in_its_order() -> None:
    """``hkcore.cli.COMMANDS`` is the command list: the parser has those commands, in that order, each with its
    line of help (``hkscore --help`` lists them so)."""
    from hkcore.cli import COMMANDS

    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(commands.choices) == [name for name, _, _ in COMMANDS]
    assert [(c.dest, c.help) for c in commands._choices_actions] == [(name, text) for name, text, _ in COMMANDS]
    assert len({options for _, _, options in COMMANDS}) == len(COMMANDS)  # one function for each command


def test_bots_lists_the_built_in_bots_with_a_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "bots", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and {"random", "simple", "efficiency", "value"} <= set(rows)
    assert all(rows[n]["source"] == "built in" and rows[n]["description"].endswith(".")
               for n in ("random", "simple", "efficiency", "value"))
    code, out, _ = run(capsys, "bots")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(rows)
    assert any(line.startswith("value ") and rows["value"]["description"] in line for line in lines)


def test_the_readme_shows_every_command() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    readme = (Path(__file__).resolve().parent.parent / "README.md")
    if not readme.is_file():
        pytest.skip("README.md is not beside tests/ (an installed copy of the tests)")
    block = readme.read_text(encoding="utf-8").split("## The command line", 1)[1].split("```")[1]
    shown = {line.split()[1] for line in block.splitlines() if line.startswith("hkscore ")}
    assert set(commands.choices) <= shown, set(commands.choices) - shown


JSON_SHAPES = [
    (["score", *EXAMPLE_NOTATION], list, 1),
    (["score", *EXAMPLE_NOTATION, "-p", "all"], list, 5),
    (["waits", *WAITING], list, 1),
    (["waits", *WAITING, "-p", "all"], list, 5),
    (["compare", *EXAMPLE_NOTATION, "-p", "mistboard"], dict, 1),
    (["compare", *EXAMPLE_NOTATION], dict, 5),
    (["presets"], list, 5),
    (["presets", "show", "mistboard"], dict, None),
    (["presets", "export", "mistboard"], dict, None),
    (["presets", "diff", "mistboard", "hk-classic"], dict, None),
    (["plugins"], list, None),
    (["bots"], list, None),
    (["schema", "result"], dict, None),
    (["example"], dict, None),
    (["decompose", "11123456789999m"], dict, None),
]


@pytest.mark.parametrize(("argv", "kind", "entries"), JSON_SHAPES, ids=lambda v: "-".join(v) if isinstance(v, list)
                         else None)
def test_json_shape(capsys: pytest.CaptureFixture[str], argv: list[str], kind: type, entries: int | None) -> None:
    code, out, _ = run(capsys, *argv, "--json")
    assert code in (0, 1)  # 1: presets diff found differences
    data = json.loads(out)
    assert type(data) is kind
    if entries is not None:
        assert len(data if kind is list else data["presets"]) == entries
    if argv[0] in ("compare", "waits", "presets"):
        code2, out2, _ = run(capsys, *argv, "--format", "json")
        assert (code2, out2) == (code, out)  # --json is --format json


def test_score_json_is_a_list_for_one_preset_and_for_several(capsys: pytest.CaptureFixture[str]) -> None:
    _, one_out, _ = run(capsys, "score", *EXAMPLE_NOTATION, "-p", "mistboard", "--json")
    _, all_out, _ = run(capsys, "score", *EXAMPLE_NOTATION, "-p", "all", "--json")
    single, every = json.loads(one_out), json.loads(all_out)
    assert single == [r for r in every if r["preset"] == "mistboard"]
    assert len({frozenset(r) for r in every}) == 1  # every result has the same fields
    assert [(r["faan"], r["unit"]) for r in every] == [EXAMPLE_TOTALS[pid] for pid in BUILTINS]


def test_waits_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", *WAITING, "-p", "all", "--json")
    assert code == 0
    for a in json.loads(out):
        assert (a["tiles_away"], a["waiting"]) == (0, True)
        assert [w["tile"] for w in a["waits"]] == ["1s", "4s"]
        w = a["waits"][0]
        assert (w["on_discard"]["faan"], w["on_discard"]["winnable"], w["on_self_draw"]["faan"],
                w["on_self_draw"]["winnable"]) == WAITS_BY_PRESET[a["preset"]]


def test_presets_show_json_has_every_key(capsys: pytest.CaptureFixture[str]) -> None:
    for pid in BUILTINS:
        code, out, _ = run(capsys, "presets", "show", pid, "--json")
        data = json.loads(out)
        assert code == 0 and set(data) == PRESET_KEYS, pid
        assert data["id"] == pid
    _, out, _ = run(capsys, "presets", "export", "playingcards-io", "--json")
    assert json.loads(out)["cap"] is False and json.loads(out)["payments"] == {"scheme": "points", "fixed": 8}


def test_decompose_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "decompose", "11123456789999m", "--json")
    data = json.loads(out)
    assert code == 0 and (data["tiles_away"], data["status"], data["waits"]) == (-1, "complete", None)
    assert data["readings"] == [{"shape": "standard", "pair": "11m", "sets": [
        {"kind": "chow", "tiles": "123m"}, {"kind": "chow", "tiles": "456m"}, {"kind": "chow", "tiles": "789m"},
        {"kind": "pung", "tiles": "999m"}]}]
    _, out, _ = run(capsys, "decompose", "1112345678999m", "--json")
    data = json.loads(out)
    assert (data["tiles_away"], data["readings"]) == (0, None)
    assert data["waits"] == [f"{n}m" for n in range(1, 10)]
    _, out, _ = run(capsys, "decompose", "19m19p19s12345677z", "--json")
    assert json.loads(out)["readings"] == [{"shape": "thirteen_orphans", "pair": "77z", "sets": []}]
    _, out, _ = run(capsys, "decompose", "23m456p789s55z", "--meld", "777z", "--json")
    assert json.loads(out)["melds"] == ["777z"] and json.loads(out)["waits"] == ["1m", "4m"]


# --------------------------------------------------------------------------
# --format table|json|csv|markdown


def csv_rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def markdown_rows(text: str) -> list[list[str]]:
    """Cells of a GitHub table; checks the header rule and that every row has the header's columns."""
    lines = text.splitlines()
    assert all(line.startswith("| ") and line.endswith(" |") for line in [lines[0], *lines[2:]]), text
    split = [[c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    assert lines[1] == "|" + "---|" * len(split[0])
    assert all(len(row) == len(split[0]) for row in split[2:])
    return [split[0], *split[2:]]


def test_compare_csv_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt, parse in (("csv", csv_rows), ("markdown", markdown_rows)):
        code, out, _ = run(capsys, "compare", *EXAMPLE_NOTATION, "--format", fmt)
        assert code == 0
        rows = {row[0]: row[1:] for row in parse(out)}
        assert rows["pattern"] == list(BUILTINS)
        # dragon_pung: 1 each under bga/just-cards; inside little_three_dragons under hk-classic and mistboard;
        # playingcards-io: two dragon pungs 6 points
        assert rows["dragon_pung"] == ["2", "", "2", "", "6"]
        assert rows["total"] == ["9 faan", "8 faan", "8 faan", "9 faan", "6 points"]
        assert rows["pays N"] == ["-192", "-", "-256", "-", "-14"]
        assert "error" not in rows and "----" not in rows


def test_compare_csv_with_an_error_row(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "compare", *FLOWER_HAND, "--format", "csv")
    assert code == 1 and err == "hkscore: 2 of 5 presets failed\n"
    rows = {row[0]: row[1:] for row in csv_rows(out)}
    assert rows["total"] == ["4 faan", "error", "error", "4 faan", "4 points"]
    assert [bool(cell) for cell in rows["error"]] == [False, True, True, False, False]
    assert "bonus tiles" in rows["error"][1]


def test_presets_list_diff_formats(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "--format", "csv")
    rows = csv_rows(out)
    assert code == 0 and rows[0] == ["id", "name", "unit", "minimum", "cap", "tiles"]
    assert rows[1:] == [[pid, hkcore.load_preset(pid).name, *cells] for pid, cells in zip(BUILTINS, (
        ["faan", "3", "13", "144"], ["faan", "3", "13", "136"], ["faan", "3", "10", "136"],
        ["faan", "3", "10", "144"], ["points", "0", "none", "144"]))]
    assert markdown_rows(run(capsys, "presets", "--format", "markdown")[1]) == rows
    code, out, _ = run(capsys, "presets", "diff", "mistboard", "bga-old-style", "--format", "csv")
    rows = csv_rows(out)
    assert code == 1 and rows[0] == ["rule", "mistboard", "bga-old-style"]
    assert ["cap", "10", "13"] in rows and ["patterns.eight_bonus.limit", "8", "13"] in rows
    code, out, _ = run(capsys, "presets", "diff", "mistboard", "bga-old-style", "--format", "markdown")
    assert code == 1 and markdown_rows(out) == rows
    code, out, _ = run(capsys, "presets", "diff", "mistboard", "mistboard", "--format", "csv")
    assert code == 0 and csv_rows(out) == [["rule", "mistboard", "mistboard"]]


def test_waits_csv_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", *WAITING, "-p", "all", "--format", "csv")
    rows = csv_rows(out)
    assert code == 0
    assert rows[0] == ["preset", "discard", "wait", "unseen", "unit", "on_discard", "discard_winnable",
                       "on_self_draw", "self_draw_winnable"]
    assert len(rows) == 1 + 2 * len(BUILTINS)
    for pid, discard, wait, unseen, unit, d, dw, sd, sw in rows[1:]:
        assert (discard, unseen, unit) == ("", "4", "points" if pid == "playingcards-io" else "faan")
        assert wait in ("1s", "4s")
        assert (int(d), dw == "true", int(sd), sw == "true") == WAITS_BY_PRESET[pid]
    # about to discard (14 tiles): a row per discard that leaves the hand waiting and each of its waits
    code, out, _ = run(capsys, "waits", "123m456p234s55z", "789s:E", "seat:S", "-p", "mistboard",
                       "--format", "markdown")
    rows = markdown_rows(out)
    assert code == 0 and all(row[0] == "mistboard" and row[1] for row in rows[1:])
    assert rows[1][:4] == ["mistboard", "1m", "1m", "3"]   # 1m discarded: 23m waits on 1m (3 unseen) or 4m


def test_presets_show_markdown_and_csv_escape_cells(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "club.toml"
    f.write_text('extends = "mistboard"\nname = "Club | night, \\"beginners\\""\nminimum = 0\n', encoding="utf-8")
    code, out, _ = run(capsys, "presets", "show", str(f), "--format", "markdown")
    assert code == 0 and "| name | Club \\| night, \"beginners\" |" in out.splitlines()
    rows = markdown_rows(out)
    assert rows[0] == ["rule", "value"] and ["name", 'Club | night, "beginners"'] in rows
    code, out, _ = run(capsys, "presets", "show", str(f), "--format", "csv")
    assert csv_rows(out) == rows
    assert ["minimum", "0"] in rows and ["patterns.eight_bonus.limit", "8"] in rows and ["cap", "10"] in rows


@pytest.mark.parametrize("argv", [
    ["compare", *EXAMPLE_NOTATION, "--json", "--format", "csv"],
    ["score", "--jsonl", "-", "--format", "csv"],   # score has a table (issue 23), but not with --jsonl
    ["presets", "export", "mistboard", "--format", "csv"],
    ["compare", "--jsonl", "-", "--format", "markdown"],
    ["presets", "--format", "yaml"],
], ids=["json-and-format", "score-jsonl-csv", "export-csv", "jsonl-markdown", "unknown-format"])
def test_format_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("hkscore: error: ")


# --------------------------------------------------------------------------
# exit status: 0 done, 1 some preset failed / the presets differ, 2 usage or input error


def test_score_all_exits_1_when_a_preset_rejects_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", *FLOWER_HAND, "-p", "all")
    assert code == 1 and err == "hkscore: 2 of 5 presets failed\n"
    # the others are still scored: all_chows 1 + concealed 1 + self_draw 1 + seat_flower 1 = 4 (bga, mistboard);
    # playingcards-io all_chows 2 + self_draw 1 + bonus_tile 1 = 4 points
    assert totals(out) == {"bga-old-style": (4, "faan"), "mistboard": (4, "faan"), "playingcards-io": (4, "points")}
    assert out.count("  error     ") == 2
    code, out, _ = run(capsys, "score", *EXAMPLE_NOTATION, "-p", "all")
    assert code == 0


def test_waits_exits_1_when_a_preset_rejects_the_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "waits", *WAITING, "flowers:1", "-p", "all", "--json")
    assert code == 1 and err == "hkscore: 2 of 5 presets failed\n"
    entries = {a["preset"]: a for a in json.loads(out)}
    assert "bonus tiles" in entries["hk-classic"]["error"] and entries["hk-classic"]["type"] == "HandError"
    assert [w["tile"] for w in entries["mistboard"]["waits"]] == ["1s", "4s"]
    code, _, err = run(capsys, "waits", *WAITING, "flowers:1", "-p", "hk-classic")
    assert_one_error_line(code, err)   # the only preset asked: an input error


def test_compare_jsonl_line_with_a_preset_error_fails(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "hands.jsonl"
    f.write_text(" ".join(FLOWER_HAND) + "\n" + " ".join(EXAMPLE_NOTATION) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "compare", "--jsonl", str(f), "-p", "mistboard", "-p", "hk-classic")
    # the count says why (issue 23): hk-classic refused one line on its flowers
    assert code == 1 and err.startswith("hkscore: 1 of 2 lines failed (hk-classic: flowers 1; ")
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["presets"][0]["result"]["faan"] == 4 and first["presets"][1]["field"] == "flowers"
    assert [c["result"]["faan"] for c in second["presets"]] == [9, 8]


# --------------------------------------------------------------------------
# presets show: everything the preset holds


def test_presets_show_builtin_says_built_in(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "presets", "show", "just-cards")
    lines = out.splitlines()
    assert code == 0 and lines[1] == "  from      built-in"
    assert "seeds/" not in out   # the rules texts are not shipped
    assert "  shapes    standard, thirteen_orphans" in lines
    assert "  plugins   liability (wind_set=0, liable_pays_discard=false)" in lines
    assert "  claims    robbing_kong=added_and_concealed_orphans, multiple_winners=false, swap_rule=true" in lines
    assert "  payments  scheme=faan_table, first_faan=3, table=[16, 32, 48, 64, 96, 128, 192, 256], " \
           "discarder_multiple=2" in lines
    four = next(line for line in lines if line.split()[:1] == ["four_concealed_pungs"])
    assert four.split()[1:] == ["limit", "10", "kongs=false"]
    _, out, _ = run(capsys, "presets", "show", "hk-classic")
    assert "  limit hands still add: self_draw, last_tile, last_discard, kong_replacement, robbing_kong" in out


def test_presets_show_shape_and_plugin_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "rules.txt").write_text("our rules\n", encoding="utf-8")
    f = tmp_path / "club.toml"
    f.write_text('extends = "bga-old-style"\nsource = "rules.txt"\n'
                 "[shapes.standard]\n[shapes.thirteen_orphans]\n[shapes.seven_pairs]\nfour_as_two_pairs = true\n"
                 "[plugins.liability]\nwind_set = 3\n[claims]\nmultiple_winners = true\n"
                 "[patterns]\nseven_pairs = 4\n", encoding="utf-8")
    code, out, _ = run(capsys, "presets", "show", str(f))
    lines = out.splitlines()
    assert code == 0 and lines[:3] == ["club: club", f"  from      {f}",
                                       f"  source    {tmp_path / 'rules.txt'}"]
    assert "  shapes    standard, thirteen_orphans, seven_pairs (four_as_two_pairs=true)" in lines
    assert "  plugins   liability (wind_set=3, liable_pays_discard=false)" in lines
    assert "multiple_winners=true" in next(line for line in lines if line.startswith("  claims"))
    assert next(line for line in lines if line.split()[:1] == ["seven_pairs"]).split() == ["seven_pairs", "4"]
    _, out, _ = run(capsys, "presets", "show", str(f), "--format", "csv")
    rows = csv_rows(out)
    for row in (["shapes", '["standard", "thirteen_orphans", "seven_pairs"]'],
                ["shapes.seven_pairs.four_as_two_pairs", "true"], ["plugins", '["liability"]'],
                ["plugins.liability.wind_set", "3"], ["plugins.liability.liable_pays_discard", "false"],
                ["claims.multiple_winners", "true"], ["patterns.seven_pairs", "4"], ["payments.scheme", "base_points"]):
        assert row in rows
    # a source that names no file here is left out; words that name no file are shown
    f.write_text('extends = "mistboard"\nsource = "seeds/000.txt"\n', encoding="utf-8")
    assert "source" not in run(capsys, "presets", "show", str(f))[1]
    f.write_text('extends = "mistboard"\nsource = "The club sheet of 2026"\n', encoding="utf-8")
    assert "  source    The club sheet of 2026" in run(capsys, "presets", "show", str(f))[1].splitlines()


def test_serve_without_the_server_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "hkcore.server", None)  # as if fastapi were missing
    assert main(["serve", "--port", "0"]) == 2
    assert "pip install 'hkcore[server]'" in capsys.readouterr().err


def test_serve_time_limits(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--time-limit and --batch-time-limit reach the server; a limit that is not a positive number of
    seconds is a usage error naming the option."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    import hkcore.server

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(hkcore.server, "serve", lambda *args, **kwargs: seen.append(kwargs))
    assert main(["serve", "--time-limit", "0.5", "--batch-time-limit", "30"]) == 0
    assert (seen[-1]["time_limit"], seen[-1]["batch_time_limit"]) == (0.5, 30.0)
    assert main(["serve"]) == 0 and "time_limit" not in seen[-1]  # the server's defaults
    for option, value in (("--time-limit", "0"), ("--time-limit", "nan"), ("--batch-time-limit", "-1")):
        assert main(["serve", option, value]) == 2
        assert f"{option}: expected seconds" in capsys.readouterr().err
    assert len(seen) == 2


def test_serve_open_claims(monkeypatch: pytest.MonkeyPatch) -> None:
    """--open-claims reaches the server as open_claims=True; without it the server's default (the engine's
    way) stands."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    import hkcore.server

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(hkcore.server, "serve", lambda *args, **kwargs: seen.append(kwargs))
    assert main(["serve", "--open-claims"]) == 0 and seen[-1]["open_claims"] is True
    assert main(["serve"]) == 0 and "open_claims" not in seen[-1]


def test_serve_bot_share(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """--bot-share reaches the server; a share that is not more than 0 and at most 1 is a usage error."""
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    import hkcore.server

    seen: list[dict[str, Any]] = []
    monkeypatch.setattr(hkcore.server, "serve", lambda *args, **kwargs: seen.append(kwargs))
    assert main(["serve", "--bot-share", "0.5"]) == 0 and seen[-1]["bot_share"] == 0.5
    assert main(["serve", "--bot-share", "1"]) == 0 and seen[-1]["bot_share"] == 1.0
    assert main(["serve"]) == 0 and "bot_share" not in seen[-1]  # the server's default
    for value in ("0", "-0.1", "1.5", "nan"):
        assert main(["serve", "--bot-share", value]) == 2
        assert "--bot-share: expected more than 0 and at most 1" in capsys.readouterr().err
    assert len(seen) == 3
