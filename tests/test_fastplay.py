"""Efficiency and value bots played inside the engine (hkcore.table.players.fastplay,
the compiled Engine.play_efficiency): the very decisions EfficiencyBot and
ValueBot make through prompts() and submit(), the same logs and the same
simulation summary, on the compiled engine and on the pure one."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers.strategies import SEVEN_PAIRS, SEVEN_PAIRS_FOURS, counts_beside_sets, pairs_heavy, value_positions
from hkcore import core
from hkcore.errors import TableError
from hkcore.preset import builtin_ids, load_preset
from hkcore.simulation import fast_path, play, simulate, simulation_logs
from hkcore.table import Table
from hkcore.table.flow import codes as _pyengine
from hkcore.table.flow.wall import CODES
from hkcore.table.players import _pybots, _pyvalue, fastplay
from hkcore.table.players.bots import EfficiencyBot, RandomBot, available_bots

try:
    from hkcore.table.players import _cbots, _cvalue
except ImportError:  # pragma: no cover - a build without the compiled bots
    _cbots = _cvalue = None

needs_compiled = pytest.mark.skipif(_cbots is None, reason="the compiled bots are not built")

PRESETS = builtin_ids()
#: walls per comparison: fewer on the pure core, whose tiles away are slow
WALLS = 3 if core.IMPLEMENTATION == "cython" else 1


def _unseen(t: Table, s: int) -> list[int]:
    """4 less what seat ``s``'s prompt shows of each tile, read off its view (as bots.Position does)."""
    seen = [0] * 34
    p = next(p for p in t.prompts() if p["seat"] == "ESWN"[s])
    v = p["view"]
    for text in [v["tiles"], v["drawn"] or "", p.get("tile") or "", *v["ponds"].values(),
                 *(m["tiles"] or "" for ms in v["melds"].values() for m in ms)]:
        _pybots.add_counts(text, seen)
    return [max(0, 4 - n) for n in seen]


@pytest.mark.parametrize("preset", PRESETS)
def test_each_choice_is_the_bots_decision_through_its_prompt(preset: str) -> None:
    """At every prompt of hands played by EfficiencyBot, the choice made from
    the engine's values (both twins) is the action the bot submits."""
    bot = EfficiencyBot(None, 0)  # type: ignore[arg-type]
    checked = 0
    for seed in range(WALLS):
        t = Table({"event": "start", "preset": preset, "seed": seed})
        while not t.over:
            p = t.prompts()[0]
            s = "ESWN".index(p["seat"])
            d = bot.decide(p)
            k = next(j for j, a in enumerate(p["actions"]) if {"prompt": p["prompt"], "seat": p["seat"], **a} == d)
            melds = tuple(core.meld_code(m["tiles"]) for m in p["view"]["melds"][p["seat"]])
            counts = t._counts_of(s)
            codes, tiles = _codes(p)
            offered = CODES.index(p["tile"]) if p["phase"] == "claim" else -1
            unseen = _unseen(t, s)
            assert _pybots.choice(list(counts), melds, unseen, codes, tiles, offered) == k, p
            if _cbots is not None:
                assert _cbots.choice(list(counts), melds, unseen, codes, tiles, offered, _cbots.AwayMemo()) == k, p
            checked += 1
            t.submit(d)
    assert checked > 20 * WALLS


def _codes(p: dict) -> tuple[list[int], list[int]]:
    """A prompt's actions as the engine's codes and tiles (a set by its lowest tile)."""
    codes, tiles = [], []
    for a in p["actions"]:
        act, kind = a["act"], a.get("kind")
        code = {"pass": _pyengine.PASS, "win": _pyengine.WIN, "discard": _pyengine.DISCARD, "chow": _pyengine.CHOW,
                "pung": _pyengine.PUNG}.get(act)
        if act == "kong":
            code = {"concealed": _pyengine.CONCEALED, "added": _pyengine.ADDED, "exposed": _pyengine.EXPOSED}[kind]
        if act == "pung" and p["phase"] == "turn":
            code = _pyengine.SELF_PUNG
        assert code is not None, a
        text = a.get("tile") or a.get("tiles")
        tiles.append(-1 if text is None else min(i for i in range(34) if CODES[i] in _split(text)))
        codes.append(code)
    return codes, tiles


def _split(text: str) -> set[str]:
    out, digits = set(), ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out |= {d + ch for d in digits}
            digits = ""
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_the_hands_played_inside_the_engine_are_those_played_through_prompts(preset: str) -> None:
    """Every record of every hand (4 rotations of each wall, two seeds) is the same either way."""
    for seed in (1, 9)[:WALLS]:
        fast = list(simulation_logs([preset], "efficiency", WALLS, seed, fast=True))
        slow = list(simulation_logs([preset], "efficiency", WALLS, seed, fast=False))
        assert len(fast) == len(slow) == 4 * WALLS
        for a, b in zip(fast, slow):
            assert a == b


def test_the_summary_and_the_hands_declined_are_the_same_either_way() -> None:
    fast = simulate("all", "efficiency", hands=WALLS, seed=4)
    slow = simulate("all", "efficiency", hands=WALLS, seed=4, fast=False)
    assert fast == slow
    assert fast.model_dump() == slow.model_dump()
    assert sum(p.declined for p in fast.presets.values()) > 0  # the count is exercised, not trivially 0


def test_a_table_played_alone_declines_what_the_simulation_counts() -> None:
    """``play_efficiency`` on one table counts the complete hands declined as hkcore.simulation.play does."""
    for seed in range(2 * WALLS):
        a = Table({"event": "start", "preset": "playingcards-io", "seed": seed})
        b = Table({"event": "start", "preset": "playingcards-io", "seed": seed})
        declined = [0, 0, 0, 0]
        total = fastplay.play_efficiency(a, declined, memo=fastplay.new_memo())
        expected = play._play(b, [EfficiencyBot(b.preset, 0) for _ in range(4)], True)
        assert (total, declined) == expected
        assert a.log == b.log


@pytest.mark.parametrize("preset", PRESETS)
def test_a_run_that_keeps_the_hands_not_winnable_plays_the_same_hands(preset: str) -> None:
    """Tables sharing one ``no_wins`` set (as a simulation's hands do) play
    the very hands tables without one play, each wall twice in a row (the
    second time every complete hand not winnable is answered from the set);
    a complete hand declined leaves its key there."""
    known: set[bytes] = set()
    for seed in range(40 if fastplay.IMPLEMENTATION == "cython" else WALLS):  # the pure engine keeps none
        for _ in range(2):
            kept = Table({"event": "start", "preset": preset, "seed": seed})
            kept.no_wins = known
            alone = Table({"event": "start", "preset": preset, "seed": seed})
            d1, d2 = [0, 0, 0, 0], [0, 0, 0, 0]
            total = fastplay.play_efficiency(kept, d1, memo=fastplay.new_memo())
            assert (total, d1) == (fastplay.play_efficiency(alone, d2, memo=fastplay.new_memo()), d2)
            assert kept.log == alone.log
            assert alone.no_wins is None
            if total and fastplay.IMPLEMENTATION == "cython":
                assert known


#: hk-classic, dealt by hand: W waits on 3s or 6s, which E discards fifth (after 1z, 9m, 9p, 1p): with 123m 456p
#: 45s 789s 22z a win of all chows 1 + concealed hand 1 = 2 faan (not the 3 needed); with 123s 456s 45s 789s 22z
#: the same seat, tile, discarder and (no) sets, mixed one suit 3 more: a win
NEAR_START = {"event": "start", "preset": "hk-classic",
              "hands": {"E": "3m9m1p2p9p3s9s1z2z3z4z6z7z7z", "S": "678m234p111s789s5z", "W": "123m456p45789s22z",
                        "N": "55m66p9p778s1z33z4z6z"},
              "live": "9m9p1p4z5z"}


def _offered_after_3s(w: str, known: set[bytes]) -> list[str]:
    t = Table({**NEAR_START, "hands": {**NEAR_START["hands"], "W": w}})
    t.no_wins = known
    for d in ("1z", "9m", "9p", "1p", "3s"):
        [p] = t.prompts()
        t.submit({"prompt": p["prompt"], "seat": p["seat"], "act": "discard", "tile": d})
    return [a["act"] for p in t.prompts(views=False) if p["seat"] == "W" for a in p["actions"]]


def test_a_hand_not_winnable_says_nothing_of_another_with_the_same_wait() -> None:
    known: set[bytes] = set()
    assert _offered_after_3s("123m456p45789s22z", known) == []  # 2 faan: not offered
    assert known or fastplay.IMPLEMENTATION == "python"  # what was asked is kept
    assert _offered_after_3s("123456s45789s22z", known) == ["pass", "win"]
    assert _offered_after_3s("123m456p45789s22z", known) == []


def test_a_table_keeps_no_hands_not_winnable_unless_given_a_set() -> None:
    import pickle

    from hkcore.table.start import read_start
    a = Table.dealt(read_start({"event": "start", "preset": "hk-classic", "seed": 1}))
    assert a.no_wins is None  # a run gives each table the set it shares
    a.no_wins = set()
    same = Table.dealt(read_start({"event": "start", "preset": "hk-classic", "seed": 2}, a.preset), like=a)
    assert same.no_wins is None  # made like another, it shares its ruleset, not its set
    assert a.copy().no_wins is None  # a copy plays on alone, scoring every hand
    with pytest.raises(TableError) as e:
        a.no_wins = ["not", "a", "set"]  # type: ignore[assignment]
    assert e.value.field == "no_wins" and "not" in str(e.value)
    # the round wind is part of every key: a round-S table's copy and pickle keep it (S = 1)
    south = Table({"event": "start", "preset": "hk-classic", "seed": 3, "round": "S"})
    assert south._win_tag == 1
    assert south.copy()._win_tag == 1 and pickle.loads(pickle.dumps(south))._win_tag == 1


def test_only_built_in_efficiency_and_value_bots_take_the_fast_path() -> None:
    factories = available_bots()
    assert fast_path(["efficiency"] * 4, factories)
    assert fast_path(["value"] * 4, factories)
    assert fast_path(["value", "efficiency", "efficiency", "value"], factories)
    assert not fast_path(["efficiency", "efficiency", "efficiency", "random"], factories)
    assert not fast_path(["value", "simple", "value", "value"], factories)
    assert not fast_path(["efficiency"] * 4, {**factories, "efficiency": RandomBot})
    assert not fast_path(["value"] * 4, {**factories, "value": RandomBot})


def hands() -> st.SearchStrategy[tuple[list[int], tuple[int, ...]]]:
    """13 - 3k or 14 - 3k concealed tiles beside k declared sets, no tile more than 4 times."""
    return counts_beside_sets((13, 14))


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(st.lists(hands(), min_size=1, max_size=6))
def test_a_memo_kept_across_hands_changes_no_tiles_away(seq: list[tuple[list[int], tuple[int, ...]]]) -> None:
    memo = _cbots.AwayMemo()
    for counts, melds in seq + seq:  # the second time round, the memo answers
        assert memo.away(counts, melds) == core.tiles_away_of_counts(counts, melds, len(melds))


@needs_compiled
def test_the_memo_answers_suits_the_declared_sets_draw_on() -> None:
    """2m2m2m 3m3m3m 1z1z 2z2z beside a declared kong of 1m: no 1m is left, so
    no chow 123m; two pungs, and one pair must become a pung: waiting (0),
    asked twice (the second answer from the memo)."""
    memo = _cbots.AwayMemo()
    counts = [0] * 34
    for i, n in ((1, 3), (2, 3), (27, 2), (28, 2)):
        counts[i] = n
    melds = (2 * 34 + 0,)
    assert memo.away(counts, melds) == memo.away(counts, melds) == 0
    counts[1], counts[3] = 2, 1  # 2m2m 3m3m3m 4m: 234m, 333m... 2m2m3m3m4m: a pair and a run: one 1z/2z pung short
    assert memo.away(counts, melds) == memo.away(counts, melds) == 1


def test_what_is_not_a_table_or_four_counts_is_refused_by_name() -> None:
    t = Table({"event": "start", "preset": "hk-classic", "seed": 1})
    with pytest.raises(TableError) as e:
        fastplay.play_efficiency(t, [0, 0, 0])
    assert e.value.field == "declined"
    with pytest.raises(TableError) as e:
        fastplay.play_efficiency("table", [0, 0, 0, 0])  # type: ignore[arg-type]
    assert e.value.field == "table"
    assert t.log[-1]["event"] != "end_hand"  # nothing was played
    if fastplay.IMPLEMENTATION == "cython":  # the compiled loop's own entry checks what it is given
        from hkcore.table.players import _cloop

        for kwargs, field in (({"memo": "x"}, "memo"), ({"round_wind": 4}, "round_wind"),
                              ({"value": [True]}, "value"), ({"params": 3}, "params")):
            args = {"memo": fastplay.new_memo(), **kwargs}
            with pytest.raises(TableError) as e:
                _cloop.play(t, False, True, [0, 0, 0, 0], args.pop("memo"), **args)
            assert e.value.field == field
        assert t.log[-1]["event"] != "end_hand"


def test_a_prompt_no_table_could_make_is_refused_by_the_value_bot() -> None:
    """Bonus tiles in a pond, a chow of honours, a discard of a tile not held, a view that is not one: a
    TableError naming what is wrong (the compiled twin reads these into fixed arrays)."""
    from hkcore.table.players.value import ValueBot

    t = Table({"event": "start", "preset": "hk-classic", "seed": 3})
    bot = ValueBot(t.preset, 0)
    [p] = t.prompts()
    assert bot.decide(p)["act"] == "discard"
    view = p["view"]
    held = [a["tile"] for a in p["actions"] if a["act"] == "discard"]
    missing = next(c for c in CODES[:34] if c not in view["tiles"] + (view["drawn"] or ""))
    # tiles past 7z (bonus tiles in a pond, a chow of honours) are no tiles of a prompt's at all
    honours_chow = [{"kind": "chow", "tiles": "567z"}]
    for bad, field in (({**p, "view": {**view, "ponds": {**view["ponds"], "N": "1f2g"}}}, "view.ponds.N"),
                       ({**p, "view": {**view, "melds": {**view["melds"], "S": [{"kind": "chow", "tiles": "789z"}]}}},
                        "view.melds.S[0].tiles"),
                       ({**p, "view": {**view, "melds": {**view["melds"], p["seat"]: honours_chow}}},
                        "melds"),
                       ({**p, "actions": [*p["actions"], {"act": "discard", "tile": missing}]},
                        f"actions[{len(p['actions'])}].tile"),
                       ({**p, "view": {**view, "tiles": "9999999m"}}, "view.tiles"),
                       ({**p, "view": None}, "view")):
        with pytest.raises(TableError) as e:
            bot.decide(bad)
        assert e.value.field == field, (field, str(e.value))
    assert held  # the real prompt had discards to choose from


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(hands() | pairs_heavy((13, 14)).map(lambda c: (c, ())), st.sampled_from([0, 1, 2]), st.data())
def test_every_swap_costs_what_the_core_says(hand: tuple[list[int], tuple[int, ...]], pairs: int,
                                            data: st.DataObject) -> None:
    """Tiles away of the hand less one tile and plus another, all pairs at once, as the core counts each
    (seven pairs counted by the plugin's own function where ``pairs`` says it is in play)."""
    counts, melds = hand
    held = [i for i in range(34) if counts[i]]
    minus = data.draw(st.lists(st.sampled_from(held), max_size=5, unique=True))
    plus = data.draw(st.lists(st.integers(0, 33), max_size=12, unique=True))
    memo = _cbots.AwayMemo()
    found = _cbots.away_after_swaps(counts, melds, minus, plus, memo, pairs)
    shapes = core.ShapeSet(True, ((), SEVEN_PAIRS, SEVEN_PAIRS_FOURS)[pairs])
    for i in minus:
        for j in plus:
            after = list(counts)
            after[i] -= 1
            after[j] += 1
            if after[j] > 4:
                assert (i, j) not in found
                continue
            assert found[(i, j)] == core.tiles_away_of_counts(after, melds, len(melds), shapes), (i, j)


# ---------------------------------------------------------------- the value bot

#: mixed seats, by seat index
MIXED = ["value", "efficiency", "value", "efficiency"]


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bots", [["value"] * 4, MIXED], ids=["value", "mixed"])
def test_value_hands_played_inside_the_engine_are_those_played_through_prompts(preset: str,
                                                                                bots: list[str]) -> None:
    """Every record of every hand (4 rotations of each wall) is the same either way: ValueBot's decisions
    through prompts() and submit() are those the engine's loop makes."""
    fast = list(simulation_logs([preset], bots, WALLS, 5, fast=True))
    slow = list(simulation_logs([preset], bots, WALLS, 5, fast=False))
    assert len(fast) == len(slow) == 4 * WALLS
    for a, b in zip(fast, slow):
        assert a == b


def test_the_value_summary_is_the_same_either_way() -> None:
    fast = simulate("all", "value", hands=WALLS, seed=6)
    slow = simulate("all", "value", hands=WALLS, seed=6, fast=False)
    assert fast.model_dump() == slow.model_dump()
    mixed = ["value", "efficiency", "efficiency", "efficiency"]
    assert simulate("all", mixed, hands=WALLS, seed=6) == simulate("all", mixed, hands=WALLS, seed=6, fast=False)


SEVEN_PAIRS_HOUSE = ('extends = "bga-old-style"\nminimum = 0\n'
                     'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n[patterns]\nseven_pairs = 4\n')


@pytest.mark.parametrize("fours", [False, True], ids=["pairs", "fours"])
@pytest.mark.parametrize("bots", [["value"] * 4, ["guard"] * 4, ["guard", "efficiency", "value", "guard"]],
                         ids=["value", "guard", "mixed"])
def test_a_preset_with_seven_pairs_is_played_inside_the_engine_as_through_prompts(tmp_path: Path, fours: bool,
                                                                                  bots: list[str]) -> None:
    """Seven pairs (the plugin's shape, which the kernels and the engine count themselves): the value and guard
    bots play inside the engine, every record of every hand as through their prompts, the hands declined
    counted alike (on these few walls seven pairs may win no hand: the next test plays one it wins)."""
    path = tmp_path / "house.toml"
    path.write_text(SEVEN_PAIRS_HOUSE.replace('shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n', "")
                    + "[shapes.standard]\n[shapes.thirteen_orphans]\n[shapes.seven_pairs]\n"
                    + f"four_as_two_pairs = {'true' if fours else 'false'}\n")
    house = load_preset(str(path))
    assert fastplay.plays(house, bots) and fastplay.plays(house, ["efficiency"] * 4)
    assert (fastplay.value_params(house).compiled is not None) is (fastplay.IMPLEMENTATION == "cython")
    walls = 3 * WALLS
    fast = list(simulation_logs([house], bots, walls, 2, fast=True))
    slow = list(simulation_logs([house], bots, walls, 2, fast=False))
    assert len(fast) == len(slow) == 4 * walls
    for a, b in zip(fast, slow):
        assert a == b
    assert simulate([house], bots, hands=walls, seed=2) == simulate([house], bots, hands=walls, seed=2, fast=False)


def test_a_seven_pairs_win_is_played_inside_the_engine(tmp_path: Path) -> None:
    """The atlas's seven-pairs preset (Just Cards, seven pairs 4 faan), four value bots, seed 3, wall 16
    (the first of that seed a seven-pairs hand wins): S takes E's 5p with 33p 55p 66p 11z 22z 33z 66z, no
    declared set, worth concealed hand 1 + half flush 3 (pin and honours) + seven pairs 4 = 8 faan (Just
    Cards' values; the pairs are no pungs); played inside the engine where it is compiled."""
    path = tmp_path / "jc-seven-pairs.toml"  # bench/atlas/'s, written here: the wheel's test run has no bench/
    path.write_text('extends = "just-cards"\nid = "jc-seven-pairs"\n'
                    'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n[patterns]\nseven_pairs = 4\n')
    house = load_preset(str(path))
    assert fastplay.plays(house, ["value"] * 4)
    [hand, *_] = simulation_logs([house], "value", 1, 3, 16)
    [win] = [r for r in hand[4] if r["event"] == "win"]
    assert (win["seat"], win["from"], win["tile"]) == ("S", "E", "5p")
    assert (win["hand"]["tiles"], win["hand"]["melds"]) == ("335566p11223366z", [])
    assert win["faan"] == 8
    assert {p["id"]: p["faan"] for p in win["patterns"]} == {"concealed_hand": 1, "half_flush": 3, "seven_pairs": 4}


def test_play_bots_refuses_what_it_cannot_play_by_name() -> None:
    from hkcore.errors import TableError

    t = Table({"event": "start", "preset": "hk-classic", "seed": 1})
    with pytest.raises(TableError) as e:
        fastplay.play_bots(t, ["value", "random", "value", "value"], [0, 0, 0, 0])
    assert e.value.field == "bots"
    with pytest.raises(TableError) as e:
        fastplay.play_bots(t, ["value"] * 4, [0, 0, 0, 0])  # no params
    assert e.value.field == "params"
    with pytest.raises(TableError) as e:
        fastplay.play_bots(t, ["value"] * 4, [0, 0, 0, 0], params=fastplay.value_params(load_preset("mistboard")))
    assert e.value.field == "params"
    assert t.log[-1]["event"] != "end_hand"  # nothing was played


def test_the_bonus_tiles_fix_the_faan_of_the_seats_own_flower_and_season() -> None:
    """South (seat 1) holds 2f (its own flower) and 3g (West's season): its own flower 1, no own season,
    each bonus tile 1: 1 + 2 = 3; with none, no_bonus's 1."""
    v = _pyvalue.value_params(load_preset("hk-classic"))._replace(seat_flower=1, seat_season=1, bonus_tile=1,
                                                                    no_bonus=1)
    assert _pyvalue.fixed_faan(v, 1, [35, 40]) == 3
    assert _pyvalue.fixed_faan(v, 1, [35, 39]) == 4
    assert _pyvalue.fixed_faan(v, 1, []) == 1


@needs_compiled
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example,
                                                                 HealthCheck.too_slow])
@given(value_positions())
def test_the_compiled_value_choice_is_the_pure_one(position: tuple[Any, ...]) -> None:
    """On the compiled core and on the pure one (whose tiles away the pure twin then counts with)."""
    v, *rest = position
    expected = _pyvalue.choice(v, *rest)
    assert _cvalue.choice(_cvalue.Params(v), *rest) == expected
    assert _cvalue.choice(_cvalue.Params(v), *rest, _cbots.AwayMemo()) == expected


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example,
                                                                 HealthCheck.too_slow])
@given(value_positions())
def test_the_compiled_worths_are_the_pure_ones_to_the_bit(position: tuple[Any, ...]) -> None:
    """What each discard is worth (every plan's floats) is the same number in both twins."""
    v, counts, melds, claimed, unseen, codes, _tiles, _offered, live_left, seat, round_wind, fixed, _s, _p = position
    if _pyengine.DISCARD not in codes:
        return
    args = (counts, melds, claimed, unseen, live_left, seat, round_wind, fixed)
    expected = _pyvalue.discard_worths(v, *args)
    assert _cvalue.discard_worths(_cvalue.Params(v), *args) == expected
    assert len(expected) == sum(1 for c in counts if c)


def test_a_value_bot_pickles_and_decides_the_same() -> None:
    import pickle

    from hkcore.table.players.value import ValueBot

    t = Table({"event": "start", "preset": "mistboard", "seed": 4})
    bot = ValueBot(t.preset, 0)
    again = pickle.loads(pickle.dumps(bot))
    while not t.over:
        p = t.prompts()[0]
        d = bot.decide(p)
        assert again.decide(p) == d
        t.submit(d)
