"""The seven-pairs plugin (a shape and a pattern), worked by hand.

House preset used throughout: bga-old-style with no minimum and seven pairs
at 4 faan (the guide's worked example, docs/house-rules.md).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import hkcore
import hkcore.table
from helpers.strategies import SEVEN_PAIRS, SEVEN_PAIRS_FOURS, counts_beside_sets, pairs_heavy
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


# ---------------------------------------------------------------- counted by the kernels and the table engine

def test_the_kernels_count_this_seven_pairs_alone() -> None:
    """``kernel_pairs``: 0 without extra shapes, 1 with the plugin's seven pairs, 2 with four_as_two_pairs;
    None with any other shape beside or instead of it (its own functions answer, in Python)."""
    from hkcore.plugins.seven_pairs import SHAPE, kernel_pairs
    from hkcore.questions import shape_set
    from hkcore.shapes import Shape

    assert kernel_pairs(shape_set(["standard", "thirteen_orphans"]).extra) == 0
    assert kernel_pairs(shape_set(["standard", "seven_pairs"]).extra) == 1
    assert kernel_pairs(shape_set({"standard": {}, "seven_pairs": {"four_as_two_pairs": True}}).extra) == 2
    assert kernel_pairs(((SHAPE, {"four_as_two_pairs": False}),)) == 1  # the plugin's Shape itself
    look_alike = Shape("seven_pairs", "Seven Pairs", "七對子", SHAPE.readings, SHAPE.tiles_away,
                       options={"four_as_two_pairs": False})
    assert kernel_pairs(((look_alike, {"four_as_two_pairs": False}),)) is None
    seven = (SHAPE, {"four_as_two_pairs": False})
    assert kernel_pairs((seven, (look_alike, {"four_as_two_pairs": False}))) is None
    assert kernel_pairs(((SHAPE, {"four_as_two_pairs": False, "honours_only": True}),)) is None


@pytest.mark.parametrize("impl", ["cython", "python"])
def test_both_cores_count_seven_pairs_in_their_kernels(impl: str) -> None:
    """The cores' own tiles away and win check with ``pairs`` (0 off, 1 on, 2 four of a kind as two pairs),
    worked by hand (no declared set)."""
    from helpers.cores import load_core
    from hkcore.tiles import parse_tiles

    core = load_core(impl)

    def counts(text: str) -> list[int]:
        out = [0] * 34
        for t in parse_tiles(text):
            out[t.index] += 1
        return out

    # one pair short: 11m 44m 77m 22p 55p 88p and a single 1z (13 tiles) waits on 1z as seven pairs:
    # 6 - 6 pairs + max(0, 7 - 7 kinds) = 0. As four sets and a pair: four of the pairs made pungs (4 tiles),
    # the fifth the pair: 4 tiles to draw, 3 away. Thirteen orphans: 1m and 1z held (a pair of 1m), 11
    # kinds missing: 10 away
    wait = counts("114477m225588p1z")
    assert [core._away_parts(wait, (), 0, True, p) for p in (0, 1, 2)] == [3, 0, 0]
    # two singles for the last pair (14 tiles): discard one, wait on the other: 0 away
    assert core._away_parts(counts("114477m225588p13z"), (), 0, True, 1) == 0
    # six kinds only: 1111m 44m 77m 22p 55p 8p. Without the option 5 pairs and 6 kinds: 6 - 5 + (7 - 6) = 2
    # away (a seventh kind must be drawn twice); the standard shape also needs 3 tiles (444m 777m 222p): 2;
    # with the option 1111m is two pairs: six pairs and a single 8p, waiting (0)
    six = counts("11114477m22558p")
    assert [core._away_parts(six, (), 0, True, p) for p in (0, 1, 2)] == [2, 2, 0]
    # complete: seven pairs, and with a four of a kind only under the option
    pairs = counts("1199m1199p556677z")
    assert [core._complete_parts(pairs, (), 0, True, p) for p in (0, 1, 2)] == [False, True, True]
    fours = counts("1111m1199p556677z")
    assert [core._complete_parts(fours, (), 0, True, p) for p in (0, 1, 2)] == [False, False, True]
    # away of 1111m 11p 99p 55z 66z 77z: as four sets and a pair 111m and three of the five pairs made pungs,
    # 3 tiles: 2; thirteen orphans 7 kinds missing: 6. Seven pairs without the option: six pairs (1m
    # 1p 9p 5z 6z 7z) at 0, a seventh kind drawn twice, 2 tiles: 1; with it, complete: -1
    assert [core._away_parts(fours, (), 0, True, p) for p in (0, 1, 2)] == [2, 1, -1]
    # beside a declared pung of 4z: 11m 99m 11p 99p 55z 6z need three pungs (3 tiles) and keep a pair: 2
    # away, seven pairs out of reach whatever ``pairs`` says
    beside = counts("1199m1199p556z")
    assert [core._away_parts(beside, (34 + 30,), 1, True, p) for p in (0, 1, 2)] == [2, 2, 2]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(st.one_of(pairs_heavy((13, 14)).map(lambda c: (c, ())), counts_beside_sets((13, 14))),
       st.booleans(), st.sampled_from([0, 1, 2]))
def test_the_cores_kernels_agree_with_the_plugin(hand: tuple[list[int], tuple[int, ...]], orphans: bool,
                                                 pairs: int) -> None:
    """Both cores' ``pairs`` count what the plugin's own functions count (through a ShapeSet)."""
    from helpers.cores import load_core
    from hkcore.core import ShapeSet

    counts, melds = hand
    k = len(melds)
    shapes = ShapeSet(orphans, ((), SEVEN_PAIRS, SEVEN_PAIRS_FOURS)[pairs])
    away = hkcore.core.tiles_away_of_counts(counts, melds, k, shapes)
    complete = sum(counts) == 14 - 3 * k and hkcore.core.complete_of_counts(counts, melds, k, shapes)
    for impl in ("cython", "python"):
        core = load_core(impl)
        assert core._away_parts(counts, melds, k, orphans, pairs) == away, impl
        if sum(counts) == 14 - 3 * k:
            assert core._complete_parts(counts, melds, k, orphans, pairs) is complete, impl
            assert hkcore.core.complete_of_kernel(counts, k, orphans, pairs) is complete


#: the house preset without the earthly hand (a limit on the dealer's first discard, which these deals win on)
ENGINE_HOUSE = HOUSE + "earthly_hand = false\n"
#: S waits on 7z with six pairs (1m 9m 1p 9p 5z 6z); E, the dealer, holds a 7z and a 1z; W and N hold
#: neither twice; S draws 7z first
DEALT = {"E": "234567m234567s17z", "S": "1199m1199p55667z", "W": "234p234p888s9s234z", "N": "5678p5678p66s777s"}


def _tables(preset: Preset, hands: dict[str, str]) -> list[Any]:
    """A table of ``hands`` on each engine in use (compiled and pure, or pure)."""
    from helpers.tables import twin_tables

    classes = twin_tables() or (hkcore.table.Table,)
    return [cls({"event": "start", "preset": preset, "hands": hands, "live": "7z"}) for cls in classes]


def _discard(t: Any, tile: str) -> list[dict[str, Any]]:
    [p] = t.prompts()
    t.submit({"prompt": p["prompt"], "seat": p["seat"], "act": "discard", "tile": tile})
    return t.prompts()


def _win(t: Any, seat: str) -> dict[str, Any]:
    [p] = [p for p in t.prompts() if p["seat"] == seat]
    t.submit({"prompt": p["prompt"], "seat": seat, "act": "win"})
    for q in t.prompts():  # other seats asked in the same window pass
        t.submit({"prompt": q["prompt"], "seat": q["seat"], "act": "pass"})
    [win] = [r for r in t.log if r["event"] == "win"]
    return win


def test_the_engine_offers_a_seven_pairs_win_on_a_discard_and_a_draw(tmp_path: Path) -> None:
    """E discards 7z: S may win with 1199m 1199p 55z 66z 77z, worth concealed hand 1 + no bonus 1 + seven
    pairs 4 = 6; drawn (after E's 1z, which nobody can claim), self-draw 1 more: 7. Without seven pairs among
    the preset's shapes no win is offered. On both engines, and a pickled table offers the same."""
    import pickle

    house = preset(tmp_path, ENGINE_HOUSE)
    plain = preset(tmp_path, ENGINE_HOUSE.replace(', "seven_pairs"]', "]").replace("seven_pairs = 4", ""), "plain.toml")
    for t in _tables(house, DEALT):
        window = _discard(t, "7z")
        assert [(p["seat"], [a["act"] for a in p["actions"]]) for p in window] == [("S", ["pass", "win"])]
        if type(t) is hkcore.table.Table:  # a pickle rebuilds a Table (the pure twin class here is the test's)
            again = pickle.loads(pickle.dumps(t))
            assert [a["act"] for a in again.prompts()[0]["actions"]] == ["pass", "win"]
        win = _win(t, "S")
        assert (win["hand"]["tiles"], win["faan"]) == ("1199m1199p556677z", 6)
        assert {p["id"]: p["faan"] for p in win["patterns"]} == {"concealed_hand": 1, "no_bonus": 1,
                                                                  "seven_pairs": 4}
    for t in _tables(house, DEALT):
        [turn] = _discard(t, "1z")
        assert (turn["seat"], turn["phase"], turn["actions"][0]["act"]) == ("S", "turn", "win")
        win = _win(t, "S")
        assert (win["hand"]["self_draw"], win["faan"]) == (True, 7)
        assert {p["id"]: p["faan"] for p in win["patterns"]} == {"concealed_hand": 1, "self_draw": 1,
                                                                  "no_bonus": 1, "seven_pairs": 4}
    for t in _tables(plain, DEALT):
        [turn] = _discard(t, "7z")  # no window: S draws
        assert (turn["seat"], turn["phase"]) == ("S", "turn")
        assert "win" not in [a["act"] for a in turn["actions"]]


def test_the_engine_counts_a_four_of_a_kind_as_two_pairs_only_under_the_option(tmp_path: Path) -> None:
    """S holds 1111m 11p 99p 55z 66z 7z: with four_as_two_pairs E's 7z makes seven pairs (1m twice), worth
    concealed hand 1 + no bonus 1 + seven pairs 4 = 6; without it no win is offered."""
    hands = {**DEALT, "S": "1111m1199p55667z"}
    off = preset(tmp_path, ENGINE_HOUSE)
    text = ENGINE_HOUSE.replace('shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n', "") + (
        "[shapes.standard]\n[shapes.thirteen_orphans]\n[shapes.seven_pairs]\nfour_as_two_pairs = true\n")
    on = preset(tmp_path, text, "quads.toml")
    for t in _tables(off, hands):
        [turn] = _discard(t, "7z")
        assert (turn["seat"], turn["phase"]) == ("S", "turn") and "win" not in [a["act"] for a in turn["actions"]]
    for t in _tables(on, hands):
        window = _discard(t, "7z")
        assert [(p["seat"], [a["act"] for a in p["actions"]]) for p in window] == [("S", ["pass", "win"])]
        win = _win(t, "S")
        assert (win["hand"]["tiles"], win["faan"]) == ("1111m1199p556677z", 6)
        assert {p["id"]: p["faan"] for p in win["patterns"]} == {"concealed_hand": 1, "no_bonus": 1,
                                                                  "seven_pairs": 4}


@pytest.mark.parametrize("fours", [False, True], ids=["pairs", "fours"])
def test_both_engines_play_deals_of_pairs_alike(tmp_path: Path, fours: bool) -> None:
    """Deals of six pairs a seat (two pairs of every kind shuffled, so a seat may hold four of a kind), the
    rest of the wall shuffled, under Just Cards with seven pairs; random play but for a win, taken when
    offered, each engine's choices drawn from the same generator: the compiled engine and its pure twin ask
    the same and write the same log, and seven-pairs hands win."""
    import random

    from helpers.tables import played_randomly, twin_tables
    from hkcore.table.flow.wall import CODES

    found = twin_tables()
    if found is None:
        pytest.skip("the compiled engine is not in use")
    house = preset(tmp_path, 'extends = "just-cards"\nid = "jc-pairs"\nminimum = 0\n[patterns]\nseven_pairs = 4\n'
                   "[shapes.standard]\n[shapes.thirteen_orphans]\n[shapes.seven_pairs]\n"
                   f"four_as_two_pairs = {'true' if fours else 'false'}\n")
    won = 0
    for seed in range(24):
        rng = random.Random(seed)
        pairs = [k for k in range(34) for _ in range(2)]
        rng.shuffle(pairs)
        rest = [4] * 34
        dealt = {}
        for s in "ESWN":
            dealt[s] = [k for k in pairs[:6] for _ in range(2)]
            del pairs[:6]
            for k in dealt[s]:
                rest[k] -= 1
        wall = [k for k in range(34) for _ in range(rest[k])]
        rng.shuffle(wall)
        for s in "ESWN":
            for _ in range(2 if s == "E" else 1):
                dealt[s].append(wall.pop())
        start = {"event": "start", "preset": house, "hands": {s: "".join(CODES[k] for k in h)
                                                               for s, h in dealt.items()},
                 "live": "".join(CODES[k] for k in wall)}
        logs, asked = [], []
        for cls in found:
            t = cls(start)
            asked.append(played_randomly(t, random.Random(seed), take_wins=True))
            logs.append(t.log)
        assert logs[0] == logs[1], seed
        assert asked[0] == asked[1], seed
        won += any(r["event"] == "win" and any(x["id"] == "seven_pairs" for x in r["patterns"]) for r in logs[0])
    assert won
