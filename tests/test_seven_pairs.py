"""The seven-pairs plugin (a shape and a pattern), worked by hand.

House preset used throughout: bga-old-style with no minimum and seven pairs
at 4 faan (the guide's worked example, docs/house-rules.md).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import hkcore
from hkcore.preset import Preset

HOUSE = """extends = "bga-old-style"
minimum = 0
shapes = ["standard", "thirteen_orphans", "seven_pairs"]
[patterns]
seven_pairs = 4
"""


def preset(tmp_path: Path, text: str = HOUSE, name: str = "house.toml") -> Preset:
    path = tmp_path / name
    path.write_text(text)
    return hkcore.load_preset(str(path))


def ids(result: hkcore.ScoreResult) -> dict[str, int]:
    return {p.id: p.faan for p in result.patterns}


def test_off_in_every_builtin_preset() -> None:
    for pid in hkcore.presets():
        p = hkcore.load_preset(pid)
        assert "seven_pairs" not in p.shapes and p.rule("seven_pairs") is None
        r = hkcore.score({"tiles": "1133m5577p99s1122z", "win_tile": "2z"}, p)
        assert not r.complete


def test_competes_with_the_standard_reading(tmp_path: Path) -> None:
    p = preset(tmp_path)
    # 22334455667788m self-drawn. Standard: 234m 234m 567m 567m 88m: all_chows 1 +
    # concealed 1 + self_draw 1 + no_bonus 1 + full_flush 7 = 11.
    # Seven pairs: concealed 1 + self_draw 1 + no_bonus 1 + full_flush 7 + seven_pairs 4 = 14 -> cap 13.
    r = hkcore.score({"tiles": "22334455667788m", "win_tile": "8m", "self_draw": True}, p)
    assert (r.faan, r.uncapped, r.shape) == (13, 14, "seven_pairs")
    assert ids(r) == {"concealed_hand": 1, "self_draw": 1, "no_bonus": 1, "full_flush": 7, "seven_pairs": 4}
    # the reading shows the seven pairs; the winning 8m completes the last
    assert [p.tiles for p in r.reading] == ["22m", "33m", "44m", "55m", "66m", "77m", "88m"]
    assert [p.kind for p in r.reading] == ["pair"] * 7
    assert [p.winning for p in r.reading] == [False] * 6 + [True]


def test_tie_goes_to_the_standard_reading(tmp_path: Path) -> None:
    p = preset(tmp_path, HOUSE.replace("seven_pairs = 4", "seven_pairs = 1"))
    # on a discard: standard 1 + 1 + 1 + 7 = 10; seven pairs 1 + 1 + 7 + 1 = 10: the
    # standard reading comes first in the fixed order
    r = hkcore.score({"tiles": "22334455667788m", "win_tile": "8m"}, p)
    assert (r.faan, r.shape) == (10, "standard")
    assert "all_chows" in ids(r)


def test_set_patterns_do_not_apply(tmp_path: Path) -> None:
    p = preset(tmp_path)
    # 11m 99m 11p 99p 55z 66z 77z: three dragon pairs but no pung; tiles of 1, 9 and
    # honours, but mixed_terminals is defined on sets. concealed 1 + no_bonus 1 + 4 = 6
    r = hkcore.score({"tiles": "1199m1199p556677z", "win_tile": "7z"}, p)
    assert r.shape == "seven_pairs"
    assert ids(r) == {"concealed_hand": 1, "no_bonus": 1, "seven_pairs": 4}


def test_tile_patterns_apply(tmp_path: Path) -> None:
    p = preset(tmp_path)
    # seven honour pairs: all_honours, a limit of 10 at bga (ordinary count 6 is lower)
    r = hkcore.score({"tiles": "11223344556677z", "win_tile": "7z"}, p)
    assert (r.faan, r.limit, ids(r)) == (10, True, {"all_honours": 10})
    # half flush: 1133557799m + 11z 22z: concealed 1 + no_bonus 1 + half_flush 3 + 4 = 9
    r = hkcore.score({"tiles": "1133557799m1122z", "win_tile": "1z"}, p)
    assert ids(r) == {"concealed_hand": 1, "no_bonus": 1, "half_flush": 3, "seven_pairs": 4}


def test_value_can_include_concealed_hand(tmp_path: Path) -> None:
    p = preset(tmp_path, HOUSE.replace("seven_pairs = 4", 'seven_pairs = { value = 4, includes = ["concealed_hand"] }'))
    r = hkcore.score({"tiles": "1199m1199p556677z", "win_tile": "7z"}, p)
    assert ids(r) == {"no_bonus": 1, "seven_pairs": 4}


def test_four_of_a_kind_as_two_pairs(tmp_path: Path) -> None:
    hand = {"tiles": "111199m1199p1199s", "win_tile": "9s"}
    assert not hkcore.score(hand, preset(tmp_path)).complete
    p = preset(tmp_path, HOUSE.replace('shapes = ["standard", "thirteen_orphans", "seven_pairs"]',
                                       'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
                                       '[shapes_note]\n').replace("[shapes_note]\n", ""), "plain.toml")
    assert not hkcore.score(hand, p).complete
    text = HOUSE.replace('shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n', "") + (
        "[shapes.standard]\n[shapes.thirteen_orphans]\n[shapes.seven_pairs]\nfour_as_two_pairs = true\n")
    p2 = preset(tmp_path, text, "quads.toml")
    # 1111m counts as two pairs: only 1s and 9s -> all_terminals, a limit of 10
    r = hkcore.score(hand, p2)
    assert (r.complete, r.faan, ids(r)) == (True, 10, {"all_terminals": 10})


def test_tiles_away_and_waits_count_it_where_on(tmp_path: Path) -> None:
    p = preset(tmp_path)
    hand = "1133m5577p99s112z"
    # six pairs and a single 2z: waiting on 2z as seven pairs
    assert hkcore.tiles_away(hand, shapes=p) == 0
    assert [str(t) for t in hkcore.waits(hand, shapes=p)] == ["2z"]
    # as four sets and a pair: four pairs must become pungs (4 tiles), the fifth is the
    # pair: 4 tiles to add -> 3 away; no wait
    assert hkcore.tiles_away(hand) == 3
    assert hkcore.waits(hand) == []
    assert hkcore.is_complete("1133m5577p99s1122z", shapes=p)
    assert not hkcore.is_complete("1133m5577p99s1122z")


def test_waits_respect_the_option() -> None:
    hand = "11112233m5577p9s"
    on = {"standard": {}, "seven_pairs": {"four_as_two_pairs": True}}
    assert [str(t) for t in hkcore.waits(hand, shapes=on)] == ["9s"]
    assert hkcore.waits(hand, shapes=["standard", "seven_pairs"]) == []
    # with the option, seven pairs: 1m twice, 2m 3m 5p 7p (0 each), 9s (1): 1 tile -> waiting
    assert hkcore.tiles_away(hand, shapes=on) == 0
    # without it: 1m 2m 3m 5p 7p (0), 9s (1), a new kind (2): 3 tiles; but the standard
    # shape 123m 123m 11m + 555p 777p needs two (5p, 7p): 1 away
    assert hkcore.tiles_away(hand, shapes=["standard", "seven_pairs"]) == 1


@pytest.mark.parametrize("impl", ["cython", "python"])
def test_both_cores_answer_with_shapes(impl: str, tmp_path: Path) -> None:
    from helpers.cores import load_core
    from hkcore.questions import shape_set

    core = load_core(impl)
    # the core knows no preset: it takes the shapes as plain data (a ShapeSet)
    p = shape_set(preset(tmp_path))
    assert core.tiles_away("1133m5577p99s112z", shapes=p) == 0
    assert [str(t) for t in core.waits("1133m5577p99s112z", shapes=p)] == ["2z"]
    assert core.readings("1133m5577p99s1122z", shapes=p) == [(0, 2, 13, 15, 26, 27, 28)]
    # playingcards-io has no thirteen orphans: shapes=["standard"] drops it
    orphans = "19m19p19s1234567z"
    assert core.tiles_away(orphans) == 0
    assert core.tiles_away(orphans, shapes=shape_set(["standard"])) > 0
    assert core.waits(orphans, shapes=shape_set(hkcore.load_preset("playingcards-io"))) == []
    with pytest.raises(hkcore.HandError, match="ShapeSet"):
        core.waits(orphans, shapes=["standard"])


def test_unknown_shape_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(hkcore.PresetError) as info:
        preset(tmp_path, HOUSE.replace('"seven_pairs"]', '"seven_pair"]'), "typo.toml")
    assert "shapes[2]" in str(info.value) and "'seven_pairs'" in str(info.value)
    with pytest.raises(hkcore.HandError):
        hkcore.tiles_away("1133m5577p99s112z", shapes=["standard", "nine_pairs"])
