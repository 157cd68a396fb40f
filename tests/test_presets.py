"""Presets against RULES.md, written out by hand: the five built-in presets'
table rules and values, limit tie order, ruff-style preset errors, custom
presets (extends, relative paths, disabling, payment merging), export,
diff, and the payment schemes."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

import hkcore
from hkcore.payments import SpicyParams, full_spicy_amount, half_spicy_amount
from hkcore.preset import Difference, PresetError, diff, export_toml, load_preset, thaw
from hkcore.registry import PresetWarning

BUILTINS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")
BGA_TABLE = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384]


# --------------------------------------------------------------------------
# RULES.md, "Values by preset", written out literally. A cell is what the
# preset's rule for that pattern must be; None = "—" (not in the preset).


def V(value: int, *, incl: tuple[str, ...] = (), below: bool = False, **options: Any) -> dict[str, Any]:
    """A number that adds (``incl.`` = includes; ``below`` = wins below the minimum)."""
    return {"value": value, "by_count": None, "limit": None, "includes": incl,
            "wins_below_minimum": below, "options": options}


def L(limit: int, *, below: bool = False, **options: Any) -> dict[str, Any]:
    """A limit hand worth ``limit`` flat."""
    return {"value": None, "by_count": None, "limit": limit, "includes": (),
            "wins_below_minimum": below, "options": options}


def BC(*by_count: int) -> dict[str, Any]:
    """A value by count (playingcards-io dragon pungs)."""
    return {"value": None, "by_count": by_count, "limit": None, "includes": (),
            "wins_below_minimum": False, "options": {}}


_ = None
COLUMNS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")
# Rows in the order of the RULES.md values table (chicken_hand, "shown as 0",
# first). Options: concealed_hand.concealed_kong (table rule "concealed kong
# keeps the hand concealed"), four_concealed_pungs.kongs ("no kongs" for
# just-cards), nine_gates.wait (ruling 6), first-turn `on` (ruling 7).
VALUES: list[tuple[str, tuple[Any, ...]]] = [
    # id                      mistboard, bga-old-style, just-cards, hk-classic, playingcards-io
    ("chicken_hand",         (V(0), V(0), V(0), V(0), V(0))),
    ("all_chows",            (V(1), V(1), V(1), V(1), V(2))),
    ("concealed_hand",       (V(1, concealed_kong=True), V(1, concealed_kong=True),
                              V(1, concealed_kong=False), V(1, concealed_kong=True), _)),
    ("self_draw",            (V(1), V(1), V(1), V(1), V(1))),
    ("no_bonus",             (V(1), V(1), _, _, _)),
    ("seat_flower",          (V(1), V(1), _, _, _)),
    ("seat_season",          (V(1), V(1), _, _, _)),
    ("flower_set",           (V(2, incl=("seat_flower",)), V(2, incl=("seat_flower",)), _, _, _)),
    ("season_set",           (V(2, incl=("seat_season",)), V(2, incl=("seat_season",)), _, _, _)),
    ("bonus_tile",           (_, _, _, _, V(1))),
    ("dragon_pung",          (V(1), V(1), V(1), V(1), BC(0, 2, 6, 6))),
    ("seat_wind",            (V(1), V(1), V(1), V(1), V(2))),
    ("round_wind",           (V(1), V(1), V(1), V(1), _)),
    ("last_tile",            (V(1), V(1), V(1), V(1), _)),
    ("last_discard",         (_, V(1), _, V(1), _)),
    ("kong_replacement",     (V(2, incl=("self_draw",)), V(1), V(1), V(1), _)),
    ("kong_on_kong",         (V(8, incl=("kong_replacement", "self_draw")), V(8, incl=("kong_replacement",)),
                              L(10), _, _)),
    ("robbing_kong",         (_, V(1), V(1), V(1), _)),
    ("all_pungs",            (V(3), V(3), V(3), V(3), V(6))),
    ("half_flush",           (V(3), V(3), V(3), V(3), _)),
    ("mixed_terminals",      (V(4, incl=("all_pungs",)), V(1), V(1), V(1), _)),
    ("little_three_dragons", (V(5, incl=("dragon_pung",)), V(3), V(3), V(5, incl=("dragon_pung",)), _)),
    ("little_four_winds",    (V(6), V(6), L(10), V(6), _)),
    ("full_flush",           (V(7), V(7), V(7), V(7), _)),
    ("big_three_dragons",    (V(8, incl=("dragon_pung",)), V(5), V(5), V(8, incl=("dragon_pung",)), _)),
    ("four_concealed_pungs", (V(8, incl=("all_pungs", "concealed_hand"), kongs=True), L(10, kongs=True),
                              L(10, kongs=False), L(10, kongs=True), _)),
    ("seven_bonus",          (_, V(3, below=True), _, _, _)),
    ("eight_bonus",          (L(8), L(13, below=True), _, _, _)),
    ("all_honours",          (L(10), L(10), L(10), L(10), _)),
    ("all_terminals",        (L(10), L(10), L(10), L(10), _)),
    ("nine_gates",           (L(10, wait="pure"), L(10, wait="pure"), L(10, wait="pure_on_discard"),
                              L(10, wait="any"), _)),
    ("big_four_winds",       (L(10), L(13), L(10), L(13), _)),
    ("thirteen_orphans",     (L(10), L(13), L(10), L(13), _)),
    ("four_kongs",           (L(10), L(13), L(10), L(13), _)),
    ("heavenly_hand",        (L(10, on="deal"), L(13, on="deal"), L(10, on="deal"), L(13, on="deal"), _)),
    ("earthly_hand",         (L(10, on="first_draw"), L(13, on="first_discard"), L(10, on="first_discard"),
                              L(13, on="first_discard"), _)),
    ("human_hand",           (L(10, on="first_discard"), _, _, _, _)),
]

# RULES.md, the "table rule" table (with ruling 12 for hk-classic, ruling 1
# for its limit hands, "Payments" for the schemes and their parameters).
TABLE_RULES: dict[str, dict[str, Any]] = {
    "mistboard": dict(
        unit="faan", tiles=144, minimum=3, cap=10, shapes=("standard", "thirteen_orphans"),
        plugins=set(), limit_adds=(), payments=None,
    ),
    "bga-old-style": dict(
        unit="faan", tiles=144, minimum=3, cap=13, shapes=("standard", "thirteen_orphans"),
        plugins=set(), limit_adds=(),
        payments={"scheme": "base_points", "table": BGA_TABLE, "self_draw_each": 2, "discarder": 2,
                  "others": 1, "robbing_kong": 6},
    ),
    "just-cards": dict(
        unit="faan", tiles=136, minimum=3, cap=10, shapes=("standard", "thirteen_orphans"),
        plugins={"liability"}, limit_adds=(),
        payments={"scheme": "faan_table", "first_faan": 3, "table": [16, 32, 48, 64, 96, 128, 192, 256],
                  "discarder_multiple": 2},
    ),
    "hk-classic": dict(
        unit="faan", tiles=136, minimum=3, cap=13, shapes=("standard", "thirteen_orphans"),
        plugins=set(), limit_adds=("self_draw", "last_tile", "last_discard", "kong_replacement", "robbing_kong"),
        payments=None,
    ),
    "playingcards-io": dict(
        unit="points", tiles=144, minimum=0, cap=None, shapes=("standard",),
        plugins=set(), limit_adds=(), payments={"scheme": "points", "fixed": 8},
    ),
}
# "concealed kong keeps the hand concealed": yes / yes / no / yes / n/a
CONCEALED_KONG = {"mistboard": True, "bga-old-style": True, "just-cards": False, "hk-classic": True,
                  "playingcards-io": None}


def expected_rules(preset_id: str) -> dict[str, dict[str, Any]]:
    col = COLUMNS.index(preset_id)
    return {pid: cells[col] for pid, cells in VALUES if cells[col] is not None}


def actual_rules(preset: hkcore.Preset) -> dict[str, dict[str, Any]]:
    return {
        r.id: {"value": r.value, "by_count": r.by_count, "limit": r.limit, "includes": r.includes,
               "wins_below_minimum": r.wins_below_minimum, "options": dict(r.options)}
        for r in preset.patterns
    }


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------
# the built-in presets against RULES.md


def test_the_builtins_are_the_five_of_rules_md() -> None:
    assert sorted(hkcore.presets()) == sorted(BUILTINS)


def test_the_written_table_has_every_pattern_once() -> None:
    ids = [pid for pid, _ in VALUES]
    assert len(ids) == len(set(ids))
    assert all(len(cells) == len(COLUMNS) for _, cells in VALUES)


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_table_rules(preset_id: str) -> None:
    p = load_preset(preset_id)
    want = TABLE_RULES[preset_id]
    assert p.id == preset_id
    assert p.unit == want["unit"]
    assert p.tiles == want["tiles"]
    assert p.bonus_tiles is (want["tiles"] == 144)
    assert p.minimum == want["minimum"]
    assert p.cap == want["cap"]
    assert tuple(p.shapes) == want["shapes"]
    assert ("thirteen_orphans" in p.shapes) is (preset_id != "playingcards-io")
    assert set(p.plugins) == want["plugins"]
    assert tuple(p.limit_adds) == want["limit_adds"]
    assert (thaw(p.payments) if p.payments is not None else None) == want["payments"]


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_concealed_kong_keeps_the_hand_concealed(preset_id: str) -> None:
    rule = load_preset(preset_id).rule("concealed_hand")
    want = CONCEALED_KONG[preset_id]
    if want is None:
        assert rule is None
    else:
        assert rule is not None and rule.options["concealed_kong"] is want


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_every_value_of_the_values_table(preset_id: str) -> None:
    want = expected_rules(preset_id)
    got = actual_rules(load_preset(preset_id))
    assert sorted(got) == sorted(want), "patterns in play"
    for pid in want:
        assert got[pid] == want[pid], pid


def test_a_few_cells_spelt_out() -> None:
    """The cells the brief names, read through the public API."""
    mist, bga, pcio = load_preset("mistboard"), load_preset("bga-old-style"), load_preset("playingcards-io")
    kok = mist.rule("kong_on_kong")
    assert (kok.value, set(kok.includes)) == (8, {"kong_replacement", "self_draw"})
    seven = bga.rule("seven_bonus")
    assert (seven.value, seven.wins_below_minimum) == (3, True)
    assert pcio.rule("dragon_pung").by_count == (0, 2, 6, 6)
    assert [pcio.rule("dragon_pung").worth(n) for n in range(4)] == [0, 2, 6, 6]
    assert [load_preset(p).rule("nine_gates").options["wait"] for p in BUILTINS[:4]] == \
        ["pure", "pure", "pure_on_discard", "any"]
    assert pcio.rule("thirteen_orphans") is None


# --------------------------------------------------------------------------
# limit tie order: the preset order is the values table's order


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_patterns_in_values_table_order(preset_id: str) -> None:
    col = COLUMNS.index(preset_id)
    want = [pid for pid, cells in VALUES if cells[col] is not None]
    assert [r.id for r in load_preset(preset_id).patterns] == want


def test_equal_limits_show_the_one_listed_first() -> None:
    # all honours AND four concealed pungs: both L10 in bga-old-style; the
    # ordinary count (2 winds + 1 dragon + 3 + 1 + 1 + 1 = 9) is below 10.
    r = hkcore.score("111z222z333z555z66z win:6z self-draw", "bga-old-style")
    assert (r.faan, r.limit, [p.id for p in r.patterns]) == (10, True, ["four_concealed_pungs"])
    # thirteen orphans on the deal: thirteen_orphans and heavenly_hand are both L13 (L10 in mistboard)
    for pid, faan in (("bga-old-style", 13), ("mistboard", 10)):
        r = hkcore.score("19m19p19s1234567z1m win:1m self-draw first-turn:deal", pid)
        assert (r.faan, [p.id for p in r.patterns]) == (faan, ["thirteen_orphans"]), pid


# --------------------------------------------------------------------------
# errors, ruff-style: file, dotted TOML path, nearest valid name

ERRORS = [
    # (name, file text, dotted path, words the message must contain)
    ("unknown-top-key", 'extends = "bga-old-style"\nminimun = 0\n', "minimun",
     ["'minimun'", "did you mean 'minimum'?"]),
    ("unknown-pattern", 'extends = "bga-old-style"\n[patterns]\nall_chow = 2\n', "patterns.all_chow",
     ["'all_chow'", "did you mean 'all_chows'?"]),
    ("unknown-option", 'extends = "bga-old-style"\n[patterns]\nnine_gates = { limit = 10, wiat = "pure" }\n',
     "patterns.nine_gates.wiat", ["'wiat'", "did you mean 'wait'?"]),
    ("unknown-option-2", 'extends = "bga-old-style"\n[patterns]\n'
     'concealed_hand = { value = 1, concealed_kongs = false }\n',
     "patterns.concealed_hand.concealed_kongs", ["did you mean 'concealed_kong'?"]),
    ("bad-option-value", 'extends = "bga-old-style"\n[patterns]\nnine_gates = { limit = 10, wait = "pur" }\n',
     "patterns.nine_gates.wait", ["'pur'", "did you mean 'pure'?"]),
    ("bad-on-value", 'extends = "mistboard"\n[patterns]\nearthly_hand = { limit = 10, on = "first_draws" }\n',
     "patterns.earthly_hand.on", ["'first_draws'", "did you mean 'first_draw'?"]),
    ("unknown-scheme", 'extends = "bga-old-style"\n[payments]\nscheme = "base_point"\ntable = [1, 2]\n',
     "payments.scheme", ["'base_point'", "did you mean 'base_points'?"]),
    ("unknown-scheme-param", 'extends = "bga-old-style"\n[payments]\nother = 2\n', "payments.other",
     ["did you mean 'others'?"]),
    ("unknown-scheme-param-points", 'id = "x"\n[payments]\nscheme = "points"\nfixd = 8\n', "payments.fixd",
     ["did you mean 'fixed'?"]),
    # a whole [payments] table: the misspelt key is the error, not the key it should have been
    ("unknown-scheme-param-standalone", 'id = "x"\n[payments]\nscheme = "base_points"\ntabel = [1, 2, 4]\n',
     "payments.tabel", ["did you mean 'table'?"]),
    ("bad-scheme-param", 'extends = "bga-old-style"\n[payments]\nscheme = "full_spicy"\ncap = -1\n',
     "payments.cap", ["greater than or equal to 0"]),
    ("wrong-type-minimum", 'extends = "bga-old-style"\nminimum = "3"\n', "minimum", ["whole number", "'3'"]),
    ("wrong-type-cap", 'extends = "bga-old-style"\ncap = true\n', "cap", ["whole number"]),
    ("wrong-type-tiles", 'extends = "bga-old-style"\ntiles = 144.0\n', "tiles", ["144"]),
    ("wrong-type-value", 'extends = "bga-old-style"\n[patterns]\nall_chows = "1"\n', "patterns.all_chows", ["'1'"]),
    ("wrong-type-limit", 'extends = "bga-old-style"\n[patterns]\nall_honours = { limit = 1.5 }\n',
     "patterns.all_honours.limit", ["whole number"]),
    ("unknown-shape", 'extends = "bga-old-style"\nshapes = ["standard", "thirteen_orphan"]\n', "shapes[1]",
     ["'thirteen_orphan'", "did you mean 'thirteen_orphans'?"]),
    ("unknown-plugin", 'extends = "just-cards"\nplugins = ["liabilty"]\n', "plugins.liabilty",
     ["'liabilty'", "did you mean 'liability'?"]),
    ("unknown-include", 'extends = "bga-old-style"\n[patterns]\nall_pungs = { value = 3, includes = ["all_chow"] }\n',
     "patterns.all_pungs.includes[0]", ["did you mean 'all_chows'?"]),
    ("unknown-limit-add", 'extends = "bga-old-style"\nlimit_adds = ["self_drwa"]\n', "limit_adds[0]",
     ["did you mean 'self_draw'?"]),
    ("bad-unit", 'extends = "bga-old-style"\nunit = "fan"\n', "unit", ["'fan'"]),
    ("extends-missing-preset", 'extends = "bga-old-styel"\nminimum = 0\n', "extends",
     ["'bga-old-styel'", "did you mean 'bga-old-style'?"]),
    ("extends-missing-file", 'extends = "nowhere/base.toml"\n', "extends", ["base.toml"]),
    ("disable-unknown-pattern", 'extends = "bga-old-style"\n[patterns]\nrobing_kong = false\n',
     "patterns.robing_kong", ["did you mean 'robbing_kong'?"]),
]


@pytest.mark.parametrize(("name", "text", "path", "words"), ERRORS, ids=[e[0] for e in ERRORS])
def test_preset_errors_name_file_path_and_nearest(tmp_path: Path, name: str, text: str, path: str,
                                                  words: list[str]) -> None:
    f = write(tmp_path / f"{name}.toml", text)
    with pytest.raises(PresetError) as info:
        load_preset(f)
    err = info.value
    assert err.file == str(Path(f).resolve()), f"file: {err.file!r} ({err})"
    assert err.path == path, f"path: {err.path!r} ({err})"
    msg = str(err)
    assert str(Path(f).resolve()) in msg and path in msg
    for w in words:
        assert w in msg, (w, msg)
    assert isinstance(err, ValueError) and isinstance(err, hkcore.HkcoreError)


def test_error_in_a_parent_file_names_the_parent(tmp_path: Path) -> None:
    base = write(tmp_path / "base" / "base.toml", 'extends = "bga-old-style"\n[patterns]\nhalf_flsh = 3\n')
    child = write(tmp_path / "house" / "house.toml", 'extends = "../base/base.toml"\nminimum = 1\n')
    with pytest.raises(PresetError) as info:
        load_preset(child)
    assert Path(info.value.file).resolve() == Path(base).resolve()
    assert info.value.path == "patterns.half_flsh"
    assert "did you mean 'half_flush'?" in str(info.value)


def test_extends_loop(tmp_path: Path) -> None:
    a = write(tmp_path / "a.toml", 'extends = "b.toml"\nminimum = 1\n')
    write(tmp_path / "b.toml", 'extends = "a.toml"\nminimum = 2\n')
    with pytest.raises(PresetError) as info:
        load_preset(a)
    err = info.value
    assert err.path == "extends"
    assert Path(err.file).name == "a.toml"
    assert "loop" in str(err) and "a.toml" in str(err) and "b.toml" in str(err)


def test_extends_loop_across_folders(tmp_path: Path) -> None:
    a = write(tmp_path / "one" / "a.toml", 'extends = "../two/b.toml"\n')
    write(tmp_path / "two" / "b.toml", 'extends = "../one/a.toml"\n')
    with pytest.raises(PresetError) as info:
        load_preset(a)
    assert info.value.path == "extends" and "loop" in str(info.value)


def test_extends_itself(tmp_path: Path) -> None:
    a = write(tmp_path / "self.toml", 'extends = "self.toml"\n')
    with pytest.raises(PresetError) as info:
        load_preset(a)
    assert info.value.path == "extends" and Path(info.value.file).name == "self.toml"


def test_invalid_toml_names_the_file(tmp_path: Path) -> None:
    f = write(tmp_path / "broken.toml", 'extends = "bga-old-style"\nminimum = = 3\n')
    with pytest.raises(PresetError) as info:
        load_preset(f)
    err = info.value
    assert err.file == str(Path(f).resolve())
    assert "TOML" in str(err) and "line 2" in str(err)


def test_unknown_builtin_id_suggests_the_nearest() -> None:
    with pytest.raises(PresetError) as info:
        load_preset("mistbored")
    assert "did you mean 'mistboard'?" in str(info.value)


def test_missing_preset_file() -> None:
    with pytest.raises(PresetError) as info:
        load_preset("/nonexistent/folder/house.toml")
    assert "/nonexistent/folder/house.toml" in str(info.value)


def test_disabling_a_limit_add_of_the_parent(tmp_path: Path) -> None:
    """hk-classic lets robbing_kong add to a limit; a house file that turns
    robbing_kong off either drops it from limit_adds or is told so about its
    own file, not about hk-classic.toml (which it did not write)."""
    f = write(tmp_path / "norob.toml", 'extends = "hk-classic"\n[patterns]\nrobbing_kong = false\n')
    try:
        p = load_preset(f)
    except PresetError as err:
        assert err.file == str(Path(f).resolve()), str(err)
        assert err.path == "patterns.robbing_kong", str(err)
    else:
        assert p.rule("robbing_kong") is None
        assert "robbing_kong" not in p.limit_adds


# --------------------------------------------------------------------------
# custom presets

CHICKEN = "234s55p 123m:N 456p:N 777s:W win:5p from:S flowers:2"   # East: no faan at all
ALL_CHOWS_DRAW = "123m456p789s234s55p win:5p self-draw"               # bga: 1 + 1 + 1 + 1 = 4
ROBBED = "123m456p789s234s55p win:2s robbing-kong from:S"             # bga: 1 + 1 + 1 + 1 = 4


def test_beginner_table_extends_bga(tmp_path: Path) -> None:
    f = write(tmp_path / "beginner.toml",
              'extends = "bga-old-style"\nminimum = 0\n\n[patterns]\nrobbing_kong = false\n')
    p = load_preset(f)
    bga = load_preset("bga-old-style")
    assert p.id == "beginner"
    assert p.minimum == 0 and p.rule("robbing_kong") is None
    assert diff(bga, p) == [Difference("minimum", 3, 0), Difference("patterns.robbing_kong", 1, None)]
    # everything else is inherited, order included
    assert [r.id for r in p.patterns] == [r.id for r in bga.patterns if r.id != "robbing_kong"]
    assert p.payments == bga.payments and p.cap == 13

    # a chicken hand: not winnable at 3, winnable at 0 (b = 1: discarder 2, others 1)
    r_bga, r_beg = hkcore.score(CHICKEN, "bga-old-style"), hkcore.score(CHICKEN, f)
    assert [x.id for x in r_beg.patterns] == ["chicken_hand"] and r_beg.faan == 0
    assert (r_bga.winnable, r_bga.payments) == (False, None)
    assert r_beg.winnable and r_beg.payments == {"E": 4, "S": -2, "W": -1, "N": -1}

    # robbing the kong: 4 faan at bga (kong-maker pays 6 x 16), 3 here (6 x 8)
    r_bga, r_beg = hkcore.score(ROBBED, "bga-old-style"), hkcore.score(ROBBED, f)
    assert (r_bga.faan, r_beg.faan) == (4, 3)
    assert "robbing_kong" in [x.id for x in r_bga.patterns]
    assert "robbing_kong" not in [x.id for x in r_beg.patterns]
    assert r_bga.payments == {"E": 96, "S": -96, "W": 0, "N": 0}
    assert r_beg.payments == {"E": 48, "S": -48, "W": 0, "N": 0}


def test_custom_preset_file_is_its_own(tmp_path: Path) -> None:
    f = write(tmp_path / "house.toml", 'extends = "bga-old-style"\nminimum = 1\n')
    p = load_preset(f)
    assert p.id == "house" and p.name == "house"
    assert Path(p.file).resolve() == Path(f).resolve(), p.file


def test_relative_extends_chain_across_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "x"
    house = write(root / "house" / "house.toml", 'extends = "../shared/mid.toml"\nminimum = 1\n')
    write(root / "shared" / "mid.toml", 'extends = "deep/base.toml"\n[patterns]\nhalf_flush = 4\n')
    write(root / "shared" / "deep" / "base.toml", 'extends = "bga-old-style"\ncap = 11\n[patterns]\nall_chows = 2\n')
    # decoys: the same relative names seen from the working folder or the house folder
    write(root / "house" / "deep" / "base.toml", 'extends = "bga-old-style"\ncap = 9\n')
    cwd = root / "cwd" / "inner"
    write(cwd / "deep" / "base.toml", 'extends = "bga-old-style"\ncap = 5\n')
    write(root / "cwd" / "shared" / "mid.toml", 'extends = "bga-old-style"\n[patterns]\nhalf_flush = 2\n')
    monkeypatch.chdir(cwd)

    p = load_preset(house)
    assert (p.id, p.minimum, p.cap) == ("house", 1, 11)
    assert p.rule("half_flush").value == 4 and p.rule("all_chows").value == 2
    assert p.rule("full_flush").value == 7   # from bga-old-style at the end of the chain

    # a relative path to the house file itself works from the working folder too
    monkeypatch.chdir(root / "house")
    assert load_preset("house.toml") == p

    # 123m456m789m234m11z self-drawn (East): all_chows 2 + concealed 1 + self_draw 1
    # + no_bonus 1 + half_flush 4 = 9 (bga: 7); capped at 11
    r = hkcore.score("123m456m789m234m11z win:1z self-draw", house)
    assert r.faan == 9 and r.winnable
    assert {x.id: x.faan for x in r.patterns} == {
        "all_chows": 2, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1, "half_flush": 4}
    assert r.payments == {"E": 3 * 192, "S": -192, "W": -192, "N": -192}   # b(9) = 96


def test_payments_params_merge_into_the_parent(tmp_path: Path) -> None:
    f = write(tmp_path / "kind.toml", 'extends = "bga-old-style"\n[payments]\nothers = 2\nrobbing_kong = 5\n')
    p = load_preset(f)
    bga = load_preset("bga-old-style")
    assert dict(p.payments) == {**bga.payments, "others": 2, "robbing_kong": 5}
    # 3 faan on S's discard: b = 8; S pays 2b, W and N now 2b each too
    r = hkcore.score("123m456p789s234s55p win:5p from:S", f)
    assert r.faan == 3 and r.payments == {"E": 48, "S": -16, "W": -16, "N": -16}
    r = hkcore.score(ROBBED, f)  # 4 faan, b = 16, the kong-maker pays 5b
    assert r.payments == {"E": 80, "S": -80, "W": 0, "N": 0}


def test_payments_merge_along_a_chain(tmp_path: Path) -> None:
    write(tmp_path / "spicy.toml", 'extends = "bga-old-style"\n[payments]\nscheme = "half_spicy"\nbase = 2\n')
    f = write(tmp_path / "capped.toml", 'extends = "spicy.toml"\n[payments]\ncap = 6\n')
    p = load_preset(f)
    # a [payments] table with a scheme replaces the parent's; one without merges
    assert dict(p.payments) == {"scheme": "half_spicy", "base": 2, "cap": 6}


def test_payments_false_removes_the_table(tmp_path: Path) -> None:
    f = write(tmp_path / "nopay.toml", 'extends = "bga-old-style"\npayments = false\n')
    p = load_preset(f)
    assert p.payments is None
    r = hkcore.score(ALL_CHOWS_DRAW, f)
    assert r.faan == 4 and r.payments is None


def test_score_with_a_preset_path_changes_the_score(tmp_path: Path) -> None:
    f = write(tmp_path / "house.toml", 'extends = "bga-old-style"\n[patterns]\nall_chows = 3\n')
    # bga: all_chows 1 + concealed 1 + self_draw 1 + no_bonus 1 = 4, b = 16, each pays 32
    base = hkcore.score(ALL_CHOWS_DRAW, preset="bga-old-style")
    assert base.faan == 4 and base.payments == {"E": 96, "S": -32, "W": -32, "N": -32}
    # house: all_chows 3 -> 6, b = 32, each pays 64
    r = hkcore.score(ALL_CHOWS_DRAW, preset=f)
    assert r.preset == "house"
    assert r.faan == 6
    assert {x.id: x.faan for x in r.patterns}["all_chows"] == 3
    assert r.payments == {"E": 192, "S": -64, "W": -64, "N": -64}


def test_playingcards_io_without_bonus_tiles(tmp_path: Path) -> None:
    f = write(tmp_path / "pcio-136.toml", 'extends = "playingcards-io"\ntiles = 136\n')
    p = load_preset(f)
    assert p.tiles == 136 and not p.bonus_tiles and p.unit == "points" and p.cap is None
    with pytest.raises(hkcore.HkcoreError):
        hkcore.score("123m456p789s234s55p win:5p self-draw flowers:1", f)
    # all_chows 2 + self_draw 1 = 3 points; self-draw: each pays 8 + 3
    r = hkcore.score(ALL_CHOWS_DRAW, f)
    assert r.faan == 3 and r.payments == {"E": 33, "S": -11, "W": -11, "N": -11}


# --------------------------------------------------------------------------
# export


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_export_round_trips_builtins(tmp_path: Path, preset_id: str) -> None:
    p = load_preset(preset_id)
    text = export_toml(p)
    data = tomllib.loads(text)
    assert "extends" not in data and "extends" not in text
    assert data["id"] == preset_id
    f = write(tmp_path / f"exported-{preset_id}.toml", text)
    q = load_preset(f)
    assert q == p
    assert [r.id for r in q.patterns] == [r.id for r in p.patterns]


def test_export_round_trips_a_custom_chain(tmp_path: Path) -> None:
    write(tmp_path / "base" / "base.toml",
          'extends = "mistboard"\ncap = 12\n[patterns]\nrobbing_kong = 1\nhuman_hand = false\n'
          '[payments]\nscheme = "full_spicy"\nbase = 2\ncap = 8\n')
    f = write(tmp_path / "house" / "house.toml",
              'extends = "../base/base.toml"\nname = "My house"\nminimum = 2\n'
              '[patterns]\nnine_gates = { limit = 12, wait = "any" }\n[payments]\nothers = 2\n')
    p = load_preset(f)
    assert (p.id, p.name, p.minimum, p.cap) == ("house", "My house", 2, 12)
    assert p.rule("human_hand") is None and p.rule("robbing_kong").value == 1
    assert dict(p.rule("nine_gates").options) == {"wait": "any"} and p.rule("nine_gates").limit == 12
    assert dict(p.payments) == {"scheme": "full_spicy", "base": 2, "cap": 8, "others": 2}
    text = export_toml(p)
    assert "extends" not in tomllib.loads(text) and "extends" not in text
    q = load_preset(write(tmp_path / "elsewhere" / "flat.toml", text))
    assert q == p


def test_a_preset_pickles_to_an_equal_preset_and_copies_to_itself(tmp_path: Path) -> None:
    """A preset crosses processes (a pickled table, a worker's task) as an equal preset, its file kept; being
    immutable, copy and deepcopy give the preset itself."""
    import copy
    import pickle

    f = write(tmp_path / "house.toml", 'extends = "just-cards"\nname = "Ours"\nminimum = 2\n'
              'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n[patterns]\nseven_pairs = 4\n'
              '[table]\ndead_wall = 14\n')
    for p in (*(load_preset(i) for i in BUILTINS), load_preset(f)):
        q = pickle.loads(pickle.dumps(p))
        assert q == p and q.file == p.file and q.table == p.table and q.plugins == p.plugins
        assert copy.copy(p) is p and copy.deepcopy(p) is p
    house = pickle.loads(pickle.dumps(load_preset(f)))
    assert (house.name, house.minimum, house.rule("seven_pairs").value, house.table.dead_wall) == ("Ours", 2, 4, 14)
    # a preset that warned when loaded (a pattern without its shape) does not warn again where it is unpickled
    lacking = write(tmp_path / "lacking.toml", 'extends = "just-cards"\n[patterns]\nseven_pairs = 4\n')
    with pytest.warns(PresetWarning):
        p = load_preset(lacking)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert pickle.loads(pickle.dumps(p)) == p


# --------------------------------------------------------------------------
# diff


def test_diff_mistboard_bga() -> None:
    d = diff(load_preset("mistboard"), load_preset("bga-old-style"))
    assert Difference("cap", 10, 13) in d
    assert Difference("patterns.eight_bonus.limit", 8, 13) in d
    by_path = {x.path: (x.a, x.b) for x in d}
    assert by_path["patterns.earthly_hand.on"] == ("first_draw", "first_discard")
    assert by_path["patterns.human_hand"][1] is None and by_path["patterns.robbing_kong"][0] is None
    assert "minimum" not in by_path and "tiles" not in by_path   # both 3, both 144
    assert by_path["payments"][0] is False


@pytest.mark.parametrize("preset_id", BUILTINS)
def test_diff_with_itself_is_empty(preset_id: str) -> None:
    assert diff(load_preset(preset_id), load_preset(preset_id)) == []


# --------------------------------------------------------------------------
# payment schemes


def test_half_spicy_base_1_cap_13_is_bgas_table() -> None:
    p = SpicyParams(base=1, cap=13)
    assert [half_spicy_amount(f, p) for f in range(14)] == BGA_TABLE
    assert half_spicy_amount(20, p) == 384   # faan above the cap count as the cap


HANDS_AT_SEVERAL_FAAN = [
    "456p789s234s55p 123m:N win:5p self-draw",       # 3
    "123m456p789s234s55p win:5p from:S",              # 3 on a discard
    ALL_CHOWS_DRAW,                                   # 4
    "123m456m789m234m11z win:1z from:W",              # 6
    "123m456m789m234m11z win:1z self-draw",           # 7
    "11122233355m 777z:W win:5m from:W",              # 8
    "123m123m456m789m99m win:9m from:S",              # 10
    "123m123m456m789m99m win:9m self-draw",           # 11
    "19m19p19s1234567z1m win:1m from:N",              # 13 (limit)
    "19m19p19s1234567z1m win:1m self-draw",           # 13
    ROBBED,                                           # 4, robbed kong
    "123m456p789s234s55p win:5p self-draw flowers:1234 seasons:123",  # 6 with bonus tiles
]


def test_half_spicy_preset_pays_like_bga(tmp_path: Path) -> None:
    f = write(tmp_path / "half.toml",
              'extends = "bga-old-style"\n[payments]\nscheme = "half_spicy"\nbase = 1\ncap = 13\n')
    assert dict(load_preset(f).payments) == {"scheme": "half_spicy", "base": 1, "cap": 13}
    seen = set()
    for hand in HANDS_AT_SEVERAL_FAAN:
        want, got = hkcore.score(hand, "bga-old-style"), hkcore.score(hand, f)
        assert want.payments is not None, hand
        assert (got.faan, got.payments) == (want.faan, want.payments), hand
        seen.add(want.faan)
    assert {3, 4, 6, 7, 8, 10, 11, 13} <= seen


def test_full_spicy_base_2_cap_8(tmp_path: Path) -> None:
    p = SpicyParams(base=2, cap=8)
    assert [full_spicy_amount(f, p) for f in (0, 1, 3, 8, 9, 13)] == [2, 4, 16, 512, 512, 512]
    f = write(tmp_path / "full.toml",
              'extends = "bga-old-style"\n[payments]\nscheme = "full_spicy"\nbase = 2\ncap = 8\n')
    # 3 faan (all_chows 1 + self_draw 1 + no_bonus 1), self-drawn by East:
    # b = 2 x 2^3 = 16; each of the three others pays 2b = 32
    r = hkcore.score("456p789s234s55p 123m:N win:5p self-draw", f)
    assert r.faan == 3
    assert r.payments == {"E": 96, "S": -32, "W": -32, "N": -32}
    # 6 faan on W's discard: b = 2 x 64 = 128; W pays 2b, S and N b each
    r = hkcore.score("123m456m789m234m11z win:1z from:W", f)
    assert r.faan == 6 and r.payments == {"E": 512, "S": -128, "W": -256, "N": -128}
    # 11 faan self-drawn: the spicy cap 8 holds, b = 512, each pays 1024
    r = hkcore.score("123m123m456m789m99m win:9m self-draw", f)
    assert r.faan == 11 and r.payments == {"E": 3072, "S": -1024, "W": -1024, "N": -1024}


def test_a_file_without_id_or_extends_is_named_after_the_file(tmp_path: Path) -> None:
    # docs/house-rules.md: "id defaults to the file name"
    f = tmp_path / "our-club.toml"
    f.write_text('name = "x"\n[patterns]\nall_chows = 1\n', encoding="utf-8")
    p = hkcore.load_preset(f)
    assert (p.id, p.name) == ("our-club", "x")


def test_minimum_above_cap_shows_the_value() -> None:
    with pytest.raises(hkcore.HkcoreError) as err:
        hkcore.load_preset('extends = "mistboard"\nminimum = 12\n')
    assert (err.value.path, err.value.value) == ("minimum", 12)
