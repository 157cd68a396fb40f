"""The ``hkscore`` command line: ``hkcore.cli.main`` with captured output,
and a few runs of the installed script."""
from __future__ import annotations

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
from pathlib import Path
from typing import Any

import pytest

import hkcore
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


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


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


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _types(node: Any) -> list[Any]:
    if isinstance(node, dict):
        own = [node["type"]] if isinstance(node.get("type"), str) else []
        return own + [t for k, v in node.items() if k not in ("properties", "$defs") for t in _types(v)] + [
            t for k in ("properties", "$defs") for v in node.get(k, {}).values() for t in _types(v)]
    if isinstance(node, list):
        return [t for v in node for t in _types(v)]
    return []


def check_schema(schema: dict[str, Any]) -> None:
    """A light JSON Schema meta-check: an object schema whose references resolve."""
    assert schema["type"] == "object"
    assert isinstance(schema["properties"], dict) and schema["properties"]
    assert set(schema.get("required", [])) <= set(schema["properties"])
    defs = schema.get("$defs", {})
    for ref in _refs(schema):
        assert ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in defs, ref
    assert set(_types(schema)) <= {"object", "array", "string", "integer", "number", "boolean", "null"}


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
    code, out, err = run(capsys, "score", *FLOWER_HAND, "-p", "hk-classic")
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
