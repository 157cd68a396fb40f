"""The preset lint (issue 37, item 2): ``Preset.warnings``, ``hkscore presets
check``, and the warnings ``simulate``, ``compare`` and the reports show.

Each warning has a small preset that triggers it (TOML extending a built-in)
and the same preset fixed, which does not. Expected warnings are read from
the rules (docs/rules.md, presets/*.toml), never from running the lint.
"""
from __future__ import annotations

import dataclasses
import importlib.util
import json
import warnings
from pathlib import Path

import pytest

import hkcore
from helpers.cli import run
from hkcore.preset import LINT_CODES, Lint, Preset, builtin_ids, lint, load_preset
from hkcore.registry import PresetWarning

#: the house rule of the issue: BGA Old Style with the flowers taken out
FLOWERS_OFF = 'extends = "bga-old-style"\nid = "flowers-off"\ntiles = 136\n'


def house(text: str) -> Preset:
    """A preset from TOML text (a pattern without its shape is a warning here, not a PresetWarning)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PresetWarning)
        return hkcore.load_preset(text)


def found(p: Preset) -> list[tuple[str, str]]:
    """(code, path) of each warning, in order."""
    return [(w.code, w.path) for w in p.warnings]


# ---------------------------------------------------------------- the trap of the issue: flowers off

def test_flowers_off_warns_that_no_bonus_always_holds_and_the_bonus_patterns_never_do() -> None:
    p = house(FLOWERS_OFF)
    # bga-old-style's bonus-tile patterns, in its order: no_bonus 1, seat_flower 1, seat_season 1, flower_set 2,
    # season_set 2, seven_bonus 3 (instant), eight_bonus limit 13 (instant); 136 tiles deal no bonus tile
    assert found(p) == [("always-holds", "patterns.no_bonus"), ("never-holds", "patterns.seat_flower"),
                        ("never-holds", "patterns.seat_season"), ("never-holds", "patterns.flower_set"),
                        ("never-holds", "patterns.season_set"), ("never-holds", "patterns.seven_bonus"),
                        ("never-holds", "patterns.eight_bonus")]
    first = p.warnings[0]
    assert "no_bonus (無花, 1 faan) holds in every hand" in first.message and "tiles = 136" in first.message
    assert "(flower_set" not in first.message and "(一台花, 2 faan)" in p.warnings[3].message
    assert "limit 13" in p.warnings[6].message
    assert not any(w.at_table for w in p.warnings)  # hands given to score cannot hold bonus tiles either
    # the trap itself: every win scores no_bonus. All chows 1 + concealed 1 + no bonus 1 = 3 on a discard
    result = hkcore.score("123m456p789s123p55z win:3p", p)
    assert result.faan == 3 and "no_bonus" in [x.id for x in result.patterns]


@pytest.mark.parametrize("text", [
    'extends = "bga-old-style"\nid = "flowers-on"\ntiles = 144\n',
    FLOWERS_OFF + "[patterns]\nno_bonus = false\nseat_flower = false\nseat_season = false\nflower_set = false\n"
    "season_set = false\nseven_bonus = false\neight_bonus = false\n",
])
def test_flowers_off_fixed_lints_clean(text: str) -> None:
    assert house(text).warnings == ()


def test_playingcards_io_without_bonus_tiles_never_scores_its_bonus_tile() -> None:
    p = house('extends = "playingcards-io"\ntiles = 136\n')
    assert found(p) == [("never-holds", "patterns.bonus_tile")]
    assert house('extends = "playingcards-io"\ntiles = 136\n[patterns]\nbonus_tile = false\n').warnings == ()


# ---------------------------------------------------------------- the built-ins

def test_the_builtins_lint_clean_but_mistboards_kong_on_kong_at_the_table() -> None:
    # mistboard offers no kong from the hand ([table] concealed_kong and added_kong false): its kong on kong
    # (8, ruling 13) comes only from hands given to score, never from play
    expected = {pid: [] for pid in builtin_ids()}
    expected["mistboard"] = [("never-holds", "patterns.kong_on_kong")]
    assert {pid: found(load_preset(pid)) for pid in builtin_ids()} == expected
    assert load_preset("mistboard").warnings[0].at_table


def test_warnings_are_frozen_values_computed_from_the_preset() -> None:
    a, b = house(FLOWERS_OFF), house(FLOWERS_OFF + "name = 'again'\n")
    assert isinstance(a.warnings, tuple) and all(isinstance(w, Lint) for w in a.warnings)
    assert a.warnings == b.warnings == lint(a)
    assert all(w.code in LINT_CODES for w in a.warnings)
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.warnings[0].code = "x"  # type: ignore[misc]
    assert str(a.warnings[0]).startswith("patterns.no_bonus: always-holds: no_bonus")
    assert a.warnings[0].as_dict() == {"code": "always-holds", "path": "patterns.no_bonus",
                                       "message": a.warnings[0].message, "at_table": False}


# ---------------------------------------------------------------- never-holds

def test_robbing_pattern_without_robbing() -> None:
    p = house('extends = "bga-old-style"\n[claims]\nrobbing_kong = "none"\n')
    assert found(p) == [("never-holds", "patterns.robbing_kong")]
    assert p.warnings[0].at_table and 'claims.robbing_kong = "none"' in p.warnings[0].message
    assert house('extends = "bga-old-style"\n[claims]\nrobbing_kong = "none"\n[patterns]\nrobbing_kong = false\n'
                 ).warnings == ()


def test_kong_on_kong_without_kongs_from_the_hand() -> None:
    assert found(house('extends = "mistboard"\n')) == [("never-holds", "patterns.kong_on_kong")]
    assert house('extends = "mistboard"\n[table]\nadded_kong = true\n').warnings == ()
    assert house('extends = "mistboard"\n[patterns]\nkong_on_kong = false\n').warnings == ()


def test_a_pattern_without_its_shape() -> None:
    # thirteen orphans (built in) and a plugin's seven pairs, each without its shape; robbing a concealed kong
    # "for thirteen orphans" then never happens either
    p = house('extends = "bga-old-style"\nshapes = ["standard"]\n[patterns]\nseven_pairs = 4\n')
    assert found(p) == [("never-holds", "patterns.thirteen_orphans"), ("never-holds", "patterns.seven_pairs"),
                        ("unused-knob", "claims.robbing_kong")]
    assert "'thirteen_orphans' shape" in p.warnings[0].message and "'seven_pairs' shape" in p.warnings[1].message
    fixed = house('extends = "bga-old-style"\nshapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
                  "[patterns]\nseven_pairs = 4\n")
    assert fixed.warnings == ()
    assert house('extends = "bga-old-style"\nshapes = ["standard"]\n[claims]\nrobbing_kong = "added"\n'
                 "[patterns]\nthirteen_orphans = false\n").warnings == ()


@pytest.mark.parametrize(("entry", "path"), [
    ('self_draw = { value = 1, when = "discard" }', "patterns.self_draw.when"),
    ('last_discard = { value = 1, when = "self_draw" }', "patterns.last_discard.when"),
    ('kong_replacement = { value = 1, when = "discard" }', "patterns.kong_replacement.when"),
    ('robbing_kong = { value = 1, when = ["concealed", "self_draw"] }', "patterns.robbing_kong.when"),
    ('concealed_hand = { value = 1, when = "open" }', "patterns.concealed_hand.when"),
    ('four_concealed_pungs = { limit = 10, when = "open" }', "patterns.four_concealed_pungs.when"),
    ('heavenly_hand = { limit = 13, on = "deal", when = "non_dealer" }', "patterns.heavenly_hand.when"),
    ('earthly_hand = { limit = 13, on = "first_discard", when = "self_draw" }', "patterns.earthly_hand.when"),
])
def test_a_condition_against_the_patterns_own_win(entry: str, path: str) -> None:
    p = house(f'extends = "bga-old-style"\n[patterns]\n{entry}\n')
    assert found(p) == [("never-holds", path)]


@pytest.mark.parametrize("entry", [
    'self_draw = { value = 1, when = "dealer" }',
    'robbing_kong = { value = 1, when = ["concealed", "non_dealer"] }',
    'earthly_hand = { limit = 13, on = "first_draw", when = "self_draw" }',
    'all_chows = { value = 2, when = "open" }',
])
def test_a_condition_the_pattern_allows(entry: str) -> None:
    assert house(f'extends = "bga-old-style"\n[patterns]\n{entry}\n').warnings == ()


# ---------------------------------------------------------------- limit-below-minimum

def test_a_limit_below_the_minimum() -> None:
    # bga-old-style: minimum 3, nothing adds to a limit: a limit of 2 never counts
    p = house('extends = "bga-old-style"\n[patterns]\nall_honours = { limit = 2 }\n')
    assert found(p) == [("limit-below-minimum", "patterns.all_honours.limit")]
    assert "at most 2" in p.warnings[0].message and "minimum 3" in p.warnings[0].message
    assert house('extends = "bga-old-style"\n[patterns]\nall_honours = { limit = 3 }\n').warnings == ()
    assert house('extends = "bga-old-style"\n[patterns]\nall_honours = { limit = 2, wins_below_minimum = true }\n'
                 ).warnings == ()


def test_a_limit_below_the_minimum_counts_what_adds_to_limits() -> None:
    # hk-classic: five win conditions of 1 each add to a limit: a limit of 1 may reach 1 + 5 = 6
    assert house('extends = "hk-classic"\n[patterns]\nall_honours = { limit = 1 }\n').warnings == ()
    p = house('extends = "hk-classic"\nminimum = 7\n[patterns]\nall_honours = { limit = 1 }\n')
    assert found(p) == [("limit-below-minimum", "patterns.all_honours.limit")]
    assert "at most 6" in p.warnings[0].message and "raise it to 2" in p.warnings[0].message


def test_an_instant_win_below_the_minimum() -> None:
    # seven bonus tiles 3, plus at most seat flower 1, seat season 1, flower set 2, season set 2 = 9 < 10
    p = house('extends = "bga-old-style"\nminimum = 10\n[patterns]\nseven_bonus = 3\n')
    assert found(p) == [("limit-below-minimum", "patterns.seven_bonus")]
    assert "at most 9" in p.warnings[0].message and "raise it to 4" in p.warnings[0].message
    assert house('extends = "bga-old-style"\nminimum = 10\n[patterns]\nseven_bonus = 4\n').warnings == ()
    assert house('extends = "bga-old-style"\nminimum = 10\n').warnings == ()  # wins_below_minimum = true


# ---------------------------------------------------------------- above-cap

def test_a_limit_or_value_above_the_cap() -> None:
    p = house('extends = "just-cards"\n[patterns]\nbig_four_winds = { limit = 13 }\nfull_flush = 12\n')
    assert found(p) == [("above-cap", "patterns.full_flush"), ("above-cap", "patterns.big_four_winds.limit")]
    assert "limit 13) is above the cap 10" in p.warnings[1].message
    assert house('extends = "just-cards"\n[patterns]\nbig_four_winds = { limit = 10 }\nfull_flush = 10\n'
                 ).warnings == ()
    assert house('extends = "bga-old-style"\ncap = false\n[patterns]\nbig_four_winds = { limit = 13 }\n'
                 ).warnings == ()


# ---------------------------------------------------------------- unused-knob

#: mistboard without its one warning: no kong from the hand, the deal always passes
QUIET_MISTBOARD = 'extends = "mistboard"\n[patterns]\nkong_on_kong = false\n'


@pytest.mark.parametrize(("extra", "path"), [
    ('[table]\nkong_tile = "drawn"\n', "table.kong_tile"),
    ("[table]\nshow_concealed_kongs = false\n", "table.show_concealed_kongs"),
    ("[table]\nmax_dealer_repeats = 3\n", "table.max_dealer_repeats"),
    ("concealed_hand = { value = 1, concealed_kong = false }\n", "patterns.concealed_hand.concealed_kong"),
    ("four_concealed_pungs = { value = 8, includes = [\"all_pungs\", \"concealed_hand\"], kongs = false }\n",
     "patterns.four_concealed_pungs.kongs"),
])
def test_a_knob_the_table_never_reads(extra: str, path: str) -> None:
    p = house(QUIET_MISTBOARD + extra)
    assert found(p) == [("unused-knob", path)] and p.warnings[0].at_table


@pytest.mark.parametrize("extra", [
    '[table]\nkong_tile = "any"\nshow_concealed_kongs = true\n',          # the defaults: nothing said
    '[table]\ndealer_stays = ["dealer_win"]\nmax_dealer_repeats = 3\n',    # the dealer may stay: read
    "concealed_hand = { value = 1, concealed_kong = true }\n",
])
def test_a_knob_the_table_reads_or_left_at_its_default(extra: str) -> None:
    assert house(QUIET_MISTBOARD + extra).warnings == ()
    # with concealed kongs at the table, the options are read
    assert house('extends = "bga-old-style"\n[patterns]\nconcealed_hand = { value = 1, concealed_kong = false }\n'
                 ).warnings == ()


def test_what_a_robbed_kong_pays_where_none_is_robbed() -> None:
    no_robbing = 'extends = "bga-old-style"\n[claims]\nrobbing_kong = "none"\n[patterns]\nrobbing_kong = false\n'
    p = house(no_robbing + "[payments]\nrobbing_kong = 3\n")
    assert found(p) == [("unused-knob", "payments.robbing_kong")] and p.warnings[0].at_table
    assert house(no_robbing).warnings == ()   # bga-old-style's 6, the scheme's default: nothing said


def test_a_payment_adjustment_without_payments() -> None:
    p = house('extends = "hk-classic"\nplugins = ["liability"]\n')
    assert found(p) == [("unused-knob", "plugins.liability")] and not p.warnings[0].at_table
    assert load_preset("just-cards").warnings == ()   # liability with its payment table


def test_limit_adds_without_a_limit_hand() -> None:
    p = house('extends = "playingcards-io"\nlimit_adds = ["self_draw"]\n')
    assert found(p) == [("unused-knob", "limit_adds")]
    assert house('extends = "playingcards-io"\nlimit_adds = ["self_draw"]\n[patterns]\n'
                 "all_honours = { limit = 50 }\n").warnings == ()


# ---------------------------------------------------------------- hkscore presets check

@pytest.fixture
def off_file(tmp_path: Path) -> Path:
    f = tmp_path / "off.toml"
    f.write_text(FLOWERS_OFF, encoding="utf-8")
    return f


def test_presets_check_warns_on_stderr_and_exits_0(capsys: pytest.CaptureFixture[str], off_file: Path) -> None:
    code, out, err = run(capsys, "presets", "check", str(off_file))
    lines = err.splitlines()
    assert code == 0 and out == "" and len(lines) == 7
    assert lines[0].startswith(f"{off_file}: patterns.no_bonus: always-holds: no_bonus (無花, 1 faan) holds")
    assert lines[6].startswith(f"{off_file}: patterns.eight_bonus: never-holds: ")


def test_presets_check_strict_exits_1(capsys: pytest.CaptureFixture[str], off_file: Path, tmp_path: Path) -> None:
    code, _, err = run(capsys, "presets", "check", "--strict", str(off_file))
    assert code == 1 and len(err.splitlines()) == 7
    clean = tmp_path / "clean.toml"
    clean.write_text('extends = "bga-old-style"\nminimum = 0\n', encoding="utf-8")
    assert run(capsys, "presets", "check", "--strict", str(clean), "hk-classic") == (0, "", "")


def test_presets_check_bad_file_is_its_one_line_error(capsys: pytest.CaptureFixture[str], off_file: Path,
                                                      tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "bga-old-style"\nminimun = 0\n', encoding="utf-8")
    code, out, err = run(capsys, "presets", "check", str(bad), str(off_file))
    lines = err.splitlines()
    assert code == 2 and out == ""
    assert lines[0].startswith("hkscore: error: ") and "minimun" in lines[0] and "did you mean 'minimum'" in lines[0]
    assert len(lines) == 1 + 7   # the other file is still checked
    assert run(capsys, "presets", "check")[0] == 2


def test_presets_check_json(capsys: pytest.CaptureFixture[str], off_file: Path) -> None:
    code, out, err = run(capsys, "presets", "check", str(off_file), "mistboard", "nosuch-preset", "--json")
    data = json.loads(out)
    assert code == 2 and err.startswith("hkscore: error: ")
    assert [d["file"] for d in data] == [str(off_file), "mistboard", "nosuch-preset"]
    assert data[0]["preset"] == "flowers-off" and data[0]["warnings"][0] == {
        "code": "always-holds", "path": "patterns.no_bonus", "at_table": False,
        "message": house(FLOWERS_OFF).warnings[0].message}
    assert [w["path"] for w in data[1]["warnings"]] == ["patterns.kong_on_kong"] and data[1]["warnings"][0]["at_table"]
    assert "error" in data[2] and "nosuch-preset" in data[2]["error"]


def test_presets_diff_and_show_still_take_their_presets(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "presets", "diff", "hk-classic", "hk-classic")[0] == 0
    assert run(capsys, "presets", "diff", "hk-classic", "mistboard", "just-cards")[0] == 2
    assert run(capsys, "presets", "show", "hk-classic", "mistboard")[0] == 2


# ---------------------------------------------------------------- simulate, compare and the reports

def test_compare_says_the_warnings_that_hold_for_hands_given(capsys: pytest.CaptureFixture[str],
                                                            off_file: Path) -> None:
    code, _, err = run(capsys, "compare", "123m456p789s123p55z", "win:3p", "-p", str(off_file), "-p", "mistboard")
    lines = err.splitlines()
    assert code == 0 and len(lines) == 7
    assert lines[0].startswith(f"hkscore: warning: {off_file}: patterns.no_bonus: always-holds: ")
    assert "kong_on_kong" not in err   # mistboard's holds only at the table: a hand given may say kong on kong
    code, _, err = run(capsys, "compare", "123m456p789s123p55z", "win:3p")
    assert code == 0 and err == ""     # the built-ins


def test_simulate_shows_the_warnings(capsys: pytest.CaptureFixture[str], off_file: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "sim"
    code, _, err = run(capsys, "simulate", "-p", "bga-old-style", "-p", str(off_file), "-p", "mistboard",
                       "--bots", "simple", "--hands", "1", "--out", str(out_dir))
    assert code == 0
    said = [x for x in err.splitlines() if x.startswith("hkscore: warning: ")]
    assert len(said) == 8 and said[0].startswith(f"hkscore: warning: {off_file}: patterns.no_bonus: always-holds")
    assert said[7].startswith("hkscore: warning: mistboard: patterns.kong_on_kong: never-holds: ")
    summary = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
    assert summary["presets"]["bga-old-style"]["warnings"] == []
    assert [w["path"] for w in summary["presets"]["flowers-off"]["warnings"]][:2] == ["patterns.no_bonus",
                                                                                       "patterns.seat_flower"]
    md = (out_dir / "summary.md").read_text(encoding="utf-8")
    assert "## Preset warnings" in md
    assert "- flowers-off: `patterns.no_bonus`: always-holds: no_bonus (無花, 1 faan) holds in every hand" in md
    assert "- mistboard: `patterns.kong_on_kong`: never-holds: " in md


def test_a_summary_without_warnings_says_none(tmp_path: Path) -> None:
    from hkcore.simulation import simulate, summary_markdown

    summary = simulate(["hk-classic"], "simple", hands=1, seed=2)
    assert summary.presets["hk-classic"].warnings == [] and "Preset warnings" not in summary_markdown(summary)
    # summaries add: the warnings are the preset's, kept
    flowers = simulate([house(FLOWERS_OFF)], "simple", hands=2, seed=2)
    halves = simulate([house(FLOWERS_OFF)], "simple", hands=1, seed=2) + simulate(
        [house(FLOWERS_OFF)], "simple", hands=1, seed=2, first=1)
    assert halves.presets["flowers-off"].warnings == flowers.presets["flowers-off"].warnings
    assert len(flowers.presets["flowers-off"].warnings) == 7


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="hkcore[report] draws the plots")
def test_the_reports_show_the_warnings(capsys: pytest.CaptureFixture[str], off_file: Path, tmp_path: Path) -> None:
    # the simulation report, from a simulation's summary.json: its warnings are in it
    sim = tmp_path / "sim"
    assert run(capsys, "simulate", "-p", str(off_file), "--bots", "simple", "--hands", "1", "--out", str(sim))[0] == 0
    code, _, err = run(capsys, "report", str(sim / "summary.json"), "--out", str(tmp_path / "rep"))
    assert code == 0 and err.startswith("hkscore: warning: flowers-off: patterns.no_bonus: always-holds: ")
    page = (tmp_path / "rep" / "report.html").read_text(encoding="utf-8")
    assert '<section id="warnings">' in page
    assert 'data-preset="flowers-off" data-path="patterns.no_bonus" data-code="always-holds"' in page
    assert "## Preset warnings" in (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    # the comparison report of hands: the warnings that hold for hands given
    hands = tmp_path / "hands.jsonl"
    hands.write_text("123m456p789s123p55z win:3p\n", encoding="utf-8")
    code, _, err = run(capsys, "report", str(hands), "-p", str(off_file), "-p", "mistboard",
                       "--out", str(tmp_path / "cmp"))
    assert code == 0 and len(err.splitlines()) == 7 and "kong_on_kong" not in err
    page = (tmp_path / "cmp" / "report.html").read_text(encoding="utf-8")
    md = (tmp_path / "cmp" / "summary.md").read_text(encoding="utf-8")
    assert 'data-path="patterns.no_bonus"' in page and "kong_on_kong</code>" not in page
    assert "- flowers-off: `patterns.no_bonus`: always-holds: " in md


@pytest.mark.parametrize("command, at_table", [
    (["score", "123m456p789s123p55z", "win:3p"], False),
    (["waits", "123m456p789s123p5z"], False),
    (["claims", "12m456p789s123p55z seat:S", "--discard", "3m", "--from", "E"], False),
    (["play", "--hands", "1", "--seed", "3"], True),
    (["arena", "--bots", "value,efficiency", "--walls", "2"], True),
])
def test_every_command_that_takes_a_preset_says_its_warnings_unless_told_not_to(
        capsys: pytest.CaptureFixture[str], off_file: Path, command: list[str], at_table: bool) -> None:
    """score, waits, claims, play and arena say the flowers-off preset's seven warnings, as compare and simulate
    do (all seven hold for hands given as at a table); ``hkscore --no-warnings`` says none and prints the same."""
    code, out, err = run(capsys, *command, "-p", str(off_file))
    said = [x for x in err.splitlines() if x.startswith("hkscore: warning: ")]
    assert code == 0 and len(said) == 7
    assert said[0].startswith(f"hkscore: warning: {off_file}: patterns.no_bonus: always-holds: ")
    quiet = run(capsys, "--no-warnings", *command, "-p", str(off_file))
    assert quiet[0] == 0 and "warning" not in quiet[2] and quiet[1] == out
    assert run(capsys, *command, "-p", str(off_file), "--no-warnings") == quiet   # after the command's name too
    if at_table:  # mistboard's kong_on_kong never holds at a table
        assert "patterns.kong_on_kong" in run(capsys, *command, "-p", "mistboard")[2]
    else:
        assert run(capsys, *command, "-p", "mistboard")[2] == ""
