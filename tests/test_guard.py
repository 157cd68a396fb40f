"""The guard bot (hkcore.table.players.value.GuardBot; its decision ``_pyvalue.guard_choice`` and the compiled
twin ``_cvalue.guard_choice``): what it reckons a threat costs under each preset's payments, how dangerous a
tile is, when it folds, and that its decisions are the same through prompts, in the engine's loop and in
both twins."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers.strategies import value_positions
from hkcore import core
from hkcore.errors import TableError
from hkcore.preset import builtin_ids, load_preset
from hkcore.simulation import simulate, simulation_logs
from hkcore.table.flow import codes as C
from hkcore.table.players import _pyvalue, fastplay, make_bot

try:
    from hkcore.table.players import _cbots, _cvalue
except ImportError:  # pragma: no cover - a build without the compiled bots
    _cbots = _cvalue = None

needs_compiled = pytest.mark.skipif(_cvalue is None, reason="the compiled bots are not built")
WALLS = 2 if core.IMPLEMENTATION == "cython" else 1


# ---------------------------------------------------------------- what a deal-in costs, by preset

def test_a_deal_in_costs_what_the_preset_makes_the_discarder_pay_beyond_the_others() -> None:
    """just-cards: t = 16, 32, 48, 64, 96 ... from 3 faan; the discarder alone pays 2t, the others nothing,
    a self-draw t from each (presets/just-cards.toml). bga-old-style: b = 1, 2, 4, 8, 16 ... by faan; the
    discarder 2b, the others b, a self-draw 2b each. A ledger (mistboard): reckoned as if the discarder
    paid 3F and a self-draw F from each. The gain blends discard (60 %) and self-draw (40 %) wins."""
    jc = _pyvalue.guard_params(load_preset("just-cards"))
    assert jc.base_faan == 4  # the 3-faan minimum and one
    assert jc.cost[4] == 64.0 and jc.cost[7] == 192.0 and jc.cost[3] == 32.0
    assert jc.gain[4] == pytest.approx(0.6 * 64 + 0.4 * 3 * 32)
    bga = _pyvalue.guard_params(load_preset("bga-old-style"))
    assert bga.cost[4] == 16.0 and bga.cost[3] == 8.0
    assert bga.gain[4] == pytest.approx(0.6 * (32 + 2 * 16) + 0.4 * 3 * 32)
    mb = _pyvalue.guard_params(load_preset("mistboard"))
    assert mb.cost[4] == 12.0 and mb.cost[7] == 21.0
    assert mb.gain[4] == pytest.approx(0.6 * 12 + 0.4 * 3 * 4)


def test_guard_params_refuse_what_is_not_a_number_field() -> None:
    p = load_preset("mistboard")
    assert _pyvalue.guard_params(p, fold_weight=0.5).fold_weight == 0.5
    for bad in ({"cost": 1.0}, {"discard_win": 1.0}, {"nothing": 1.0}, {"decline": -0.5},
                {"threat": "high"}, {"push": -1.0}, {"self_draw_share": -0.1},
                {"keep": float("inf")}):
        with pytest.raises(TableError) as e:
            _pyvalue.guard_params(p, **bad)
        assert e.value.field == next(iter(bad))
    with pytest.raises(TableError) as e:
        _pyvalue.guard_params("mistboard")  # type: ignore[arg-type]
    assert e.value.field == "preset"



def test_a_guard_bot_and_the_engine_refuse_guard_params_no_guard_params_makes() -> None:
    """GuardParams given whole (GuardBot's ``guard``, value_params' ``guard``): a knob a finite number 0 or more,
    base_faan and fold_away whole numbers (the compiled twin holds them as C ints), each table by faan 41
    finite numbers (0 to 40 faan); else a TableError naming the field, from either door alike."""
    from hkcore.table.players.fastplay import value_params
    from hkcore.table.players.value import GuardBot
    p = load_preset("bga-old-style")
    g = _pyvalue.guard_params(p)
    assert GuardBot(p, 0, guard=g._replace(fold_weight=2)).decide is not None
    cases = [(g._replace(cost=(1.0,) * 40), "cost"), (g._replace(gain=None), "gain"),
             (g._replace(self_draw_win=(float("nan"),) * 41), "self_draw_win"), (g._replace(threat="x"), "threat"),
             (g._replace(keep=float("nan")), "keep"), (g._replace(push=-1.0), "push"),
             (g._replace(base_faan=2.5), "base_faan"), (g._replace(base_faan=2**40), "base_faan"),
             (g._replace(fold_away=-1), "fold_away"), (g._replace(fold_away=True), "fold_away"),
             ("guard", "guard"), (tuple(g), "guard")]
    for bad, field in cases:
        for door in (lambda b: GuardBot(p, 0, guard=b), lambda b: value_params(p, b)):
            with pytest.raises(TableError) as e:
                door(bad)
            assert e.value.field == field, (field, e.value)

# ---------------------------------------------------------------- threats and danger

def test_threats_are_read_off_the_sets_shown_and_the_discards() -> None:
    """Seat 0 looks at three opponents (mistboard: half flush 3, a dragon pung 1; cost 3F): South shows four
    bamboo sets (waiting for certain, P = 1; a one-suit hand; 4 + 3 = 7 faan: cost 21); West two sets of
    two suits and 12 discards (P(waiting) 0.222 of the table: a threat, 4 + 1 dragon = 5 faan: 15); North
    nothing after 3 discards (0.027: below the 0.2 that makes a threat)."""
    v = _pyvalue.value_params(load_preset("mistboard"))
    g = _pyvalue.guard_params(load_preset("mistboard"))
    shown = [(0, 0), (4, 4), (2, 3), (0, 0)]
    ponds = [[], [0] * 5, [1] * 12, [2] * 3]
    threats = _pyvalue.guard_threats(v, g, 0, shown, ponds, [0, 0, 1, 0])
    assert threats == [(1, 1.0, 18, 21.0), (2, 0.222, -1, 15.0)]


def test_a_tile_is_as_dangerous_as_the_ways_to_wait_on_it() -> None:
    """One threat (P 1, a bamboo hand, cost 21). 1m with 2m and 3m all seen and 3 copies unseen: only a pair
    or a single wait: 3*2/2 + 3*0.3 = 3.9 ways (bin <= 5: 0.063), another suit than the hand's (x 0.15):
    0.063 * 0.15 * 21. The same tile in the opponent's pond: x 0.12 more. Red dragon, 3 unseen: 3 + 1.5 =
    4.5 ways (0.032), an honour beside a one-suit hand (x 5). 5s with every neighbour unseen: 16 + 16 + 8 +
    3.9 = 43.9 ways (0.117), its suit (x 2)."""
    g = _pyvalue.guard_params(load_preset("mistboard"))
    unseen = [4] * 34
    unseen[0] = unseen[32] = unseen[22] = 3
    unseen[1] = unseen[2] = 0
    threat = [(1, 1.0, 18, 21.0)]
    ponds: list[list[int]] = [[], [], [], []]
    assert _pyvalue.guard_danger(g, threat, unseen, ponds, 0) == pytest.approx(0.063 * 0.15 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, [[], [0], [], []], 0) == pytest.approx(0.063 * 0.15 * 0.12 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, ponds, 32) == pytest.approx(0.032 * 5 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, ponds, 22) == pytest.approx(0.117 * 2 * 21)
    none = [0] * 34
    assert _pyvalue.guard_danger(g, threat, none, ponds, 22) == 0.0  # no copy left to wait with


def test_a_two_sided_wait_whose_other_tile_the_opponent_discarded_counts_less() -> None:
    """5s with 3s and 4s two unseen each, 6s and 7s one each, 5s one: 2*2 below + 1*1 above + 2*1*0.5 in
    the middle + 0.3 a single = 6.3 ways (bin <= 8: 0.081). The opponent has discarded 2s: with suji 0.4 the
    side below counts 1.6, 3.9 ways (bin <= 5: 0.063); at the default (1) nothing changes. The red dragon,
    3 unseen (4.5 ways, 0.032): honour 3 makes it three times as dangerous, pond_honour 0.4 in the
    opponent's pond."""
    mb = load_preset("mistboard")
    unseen = [4] * 34
    unseen[20] = unseen[21] = 2
    unseen[22] = unseen[23] = unseen[24] = 1
    unseen[32] = 3
    threat = [(1, 1.0, -1, 21.0)]
    calm: list[list[int]] = [[], [], [], []]
    suji = [[], [19], [], []]
    g = _pyvalue.guard_params(mb, suji=0.4, honour=3.0, pond_honour=0.4)
    assert _pyvalue.guard_danger(g, threat, unseen, calm, 22) == pytest.approx(0.081 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, suji, 22) == pytest.approx(0.063 * 21)
    assert _pyvalue.guard_danger(_pyvalue.guard_params(mb), threat, unseen, suji, 22) == pytest.approx(0.081 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, calm, 32) == pytest.approx(0.032 * 3 * 21)
    assert _pyvalue.guard_danger(g, threat, unseen, [[], [32], [], []], 32) == pytest.approx(0.032 * 3 * 0.4 * 21)


# ---------------------------------------------------------------- folding

#: East's 14 tiles, no sets: 11m 9m 2p 6p 9p 1s 4s 7s, E S W wind and red, green dragons (far from any hand)
FAR = [0] * 34
for _t in (0, 0, 8, 10, 14, 17, 18, 21, 24, 27, 28, 29, 31, 32):
    FAR[_t] += 1


def _far_position(shown_south: tuple[int, int], south_pond: list[int]) -> tuple[Any, ...]:
    unseen = [4 - c for c in FAR]
    unseen[1] = unseen[2] = 0  # 2m and 3m all seen: 1m can be waited on only as a pair or a single tile
    tiles = [i for i in range(34) if FAR[i]]
    codes = [C.DISCARD] * len(tiles)
    shown = [(0, 0), shown_south, (0, 0), (0, 0)]
    ponds = [[], south_pond, [], []]
    return (list(FAR), (), False, unseen, codes, tiles, -1, 50, 0, 0, 0, shown, ponds)


def test_facing_a_waiting_one_suit_hand_far_from_its_own_it_folds() -> None:
    """South shows four bamboo sets (P(waiting) 1, cost 21 under mistboard): pressure 0.15 * 21 = 3.15; East
    is at least 3 tiles away after any discard with 50 live tiles (P(win) at most 0.23 of the table, times
    the gain 12: 2.76), so it folds: its safest discard is a 1m of its pair (2m, 3m seen: 2*1/2 + 2*0.3 =
    1.6 ways, 0.067 * 0.15 * 21; 9m, 2p, 6p, 9p have 19.9 ways or more, 0.117; bamboos x 2, honours x 5),
    which the value bot keeps."""
    v = _pyvalue.value_params(load_preset("mistboard"))
    g = _pyvalue.guard_params(load_preset("mistboard"))
    pos = _far_position((4, 4), [])
    tiles = pos[5]
    k = _pyvalue.guard_choice(v, g, *pos, [0, 0, 0, 0])
    assert tiles[k] == 0
    assert tiles[_pyvalue.choice(v, *pos)] != 0  # the value bot would not have (the test shows a change)
    if _cvalue is not None:
        assert _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(g), *pos, [0, 0, 0, 0]) == k


def test_with_no_threat_it_attacks_as_value_with_its_share_of_the_self_draw() -> None:
    """South shows one set after three discards (P(waiting) 0.011): no threat, value's discard with guard's
    share of the self-draw (under bga-old-style value's own: the very value bot)."""
    for name in ("mistboard", "bga-old-style"):
        v = _pyvalue.value_params(load_preset(name))
        g = _pyvalue.guard_params(load_preset(name))
        pos = _far_position((1, 4), [5, 6, 7])
        own = v._replace(self_draw_share=g.self_draw_share)
        assert _pyvalue.guard_choice(v, g, *pos, [0, 0, 0, 0]) == _pyvalue.choice(own, *pos)
        if name == "bga-old-style":
            assert own == v


def test_folding_it_declines_a_claim() -> None:
    """East holds a pair of red dragons and is offered the third by West while South shows four bamboo
    sets: far from a hand (3 or more tiles away), it passes where value would claim the pung."""
    v = _pyvalue.value_params(load_preset("mistboard"))
    g = _pyvalue.guard_params(load_preset("mistboard"))
    counts = list(FAR)
    counts[31] += 1  # red dragon pair
    counts[24] -= 1
    counts[0] -= 2  # 13 tiles: a claim window
    unseen = [4 - c for c in counts]
    unseen[31] = 1
    codes, tiles = [C.PASS, C.PUNG], [-1, 31]
    pos = (counts, (), False, unseen, codes, tiles, 31, 50, 0, 0, 0, [(0, 0), (4, 4), (0, 0), (0, 0)],
           [[], [], [31], []])
    assert _pyvalue.choice(v, *pos) == 1  # value claims the pung of dragons
    assert _pyvalue.guard_choice(v, g, *pos, [0, 0, 0, 0]) == 0
    calm = (*pos[:11], [(0, 0), (1, 4), (0, 0), (0, 0)], [[], [5, 6, 7], [31], []])
    assert _pyvalue.guard_choice(v, g, *calm, [0, 0, 0, 0]) == 1  # no threat: it claims as value does


def test_with_push_it_takes_the_safer_of_two_waits_of_equal_worth() -> None:
    """East holds 234p 567p 234s 555s with 1m and 9m: either discard leaves a single-tile wait, worth the same,
    on a tile with 2 copies unseen, so value discards the lower, 1m. South shows two sets of two suits after
    18 discards (P(waiting) 0.31: a threat to guard, not yet to value), 9m among them. 1m: 16 ways from 2m
    3m, 1.6 as a pair or single (bin <= 18: 0.096); 9m the same, in South's pond (x 0.12). East is waiting
    either way (no fold); with push 1 the safer discard keeps as much (the same worth, the same 2 tiles),
    so it discards 9m."""
    v = _pyvalue.value_params(load_preset("mistboard"))
    counts = [0] * 34
    for t in (0, 8, 10, 11, 12, 13, 14, 15, 19, 20, 21, 22, 22, 22):
        counts[t] += 1
    unseen = [4 - c for c in counts]
    unseen[0] = unseen[8] = 2  # West has discarded a 1m, South a 9m
    tiles = [i for i in range(34) if counts[i]]
    codes = [C.DISCARD] * len(tiles)
    shown = [(0, 0), (2, 3), (0, 0), (0, 0)]
    ponds = [[], [8] + [27] * 17, [0], []]
    pos = (counts, (), False, unseen, codes, tiles, -1, 50, 0, 0, 0, shown, ponds)
    assert tiles[_pyvalue.choice(v, *pos)] == 0
    g = _pyvalue.guard_params(load_preset("mistboard"))
    assert tiles[_pyvalue.guard_choice(v, g, *pos, [0, 0, 0, 0])] == 0  # push 0 (the default): value's
    pushed = g._replace(push=1.0)
    k = _pyvalue.guard_choice(v, pushed, *pos, [0, 0, 0, 0])
    assert tiles[k] == 8
    if _cvalue is not None:
        assert _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(pushed), *pos, [0, 0, 0, 0]) == k


def test_a_hand_a_self_draw_lifts_to_the_minimum_is_worth_more_the_more_the_self_draw_is_reckoned() -> None:
    """East, concealed, a flower of its own (1 faan fixed), holds 111m 88m 234p 56p 567s and a 9s under
    mistboard (3-faan minimum, concealed 1, self-draw 1). Discarding the 9s leaves a wait (4p or 7p) on a hand of
    2 faan sure, 1 short: no flush plan (each suit has more than 5 tiles of the others), no honour. Value
    reckons 0.35 of the self-draw's faan: (2 + 0.35) x 0.25 ** (1 - 0.35), waiting (0.45 ** 0); with the share
    1.5 the self-draw makes up the faan short: 2 + 1.5, no shortfall."""
    v = _pyvalue.value_params(load_preset("mistboard"))
    counts = [0] * 34
    for t in (0, 0, 0, 7, 7, 10, 11, 12, 13, 14, 22, 23, 24, 26):
        counts[t] += 1
    unseen = [4 - c for c in counts]
    args = (counts, (), False, unseen, 60, 0, 0, 1)
    worths = dict((i, w) for w, i in _pyvalue.discard_worths(v, *args))
    assert worths[26] == pytest.approx(2.35 * 0.25 ** 0.65)
    more = v._replace(self_draw_share=1.5)
    assert dict((i, w) for w, i in _pyvalue.discard_worths(more, *args))[26] == pytest.approx(3.5)
    if _cvalue is not None:
        assert _cvalue.discard_worths(_cvalue.Params(more), *args) == _pyvalue.discard_worths(more, *args)
    # guard's own: value's where the discarder pays, more under a faan ledger (a cheap hand counts its faan there)
    assert _pyvalue.guard_params(load_preset("bga-old-style")).self_draw_share == 0.35
    assert _pyvalue.guard_params(load_preset("just-cards")).self_draw_share == 0.35
    assert _pyvalue.guard_params(load_preset("mistboard")).self_draw_share == 0.6
    assert _pyvalue.guard_params(load_preset("hk-classic")).self_draw_share == 0.6


def _offered_a_win(live_left: int) -> tuple[Any, ...]:
    """East holds 123m 456m 789m 23p 55s (13 tiles), waiting on 1p or 4p; West discards a 4p. Unseen by East:
    1p 3 (one in a pond), 4p 2 (the one offered and one in a pond), every other tile 4 less its own; 120 in all."""
    counts = [0] * 34
    for t in (0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 22, 22):
        counts[t] += 1
    unseen = [4 - c for c in counts]
    unseen[9], unseen[12] = 3, 2
    return (counts, (), False, unseen, [C.PASS, C.WIN], [-1, 12], 12, live_left, 0, 0, 0,
            [(0, 0), (0, 0), (0, 0), (0, 0)], [[], [9], [12], []])


def test_offered_a_discard_win_it_passes_when_a_likely_self_draw_pays_more() -> None:
    """bga-old-style at 3 faan: the discard pays the winner 2b + b + b = 16 + 8 + 8 = 32; a self-draw adds a
    faan (b = 16) and pays 2b from each, 96. With 40 live tiles East draws 10 more; 5 winning tiles of 120
    unseen: 1 - (115/120)^10 = 0.3467, 0.3467 x 96 = 33.3, more than 32 x 1.0 (decline 1.0) but less than
    32 x 1.1. With 36 live tiles (9 draws): 1 - (115/120)^9 = 0.3182, 30.5: it wins on the discard. With
    decline 0 (the default) it always takes the win, as value does."""
    v = _pyvalue.value_params(load_preset("bga-old-style"))
    g = _pyvalue.guard_params(load_preset("bga-old-style"))
    assert g.discard_win[3] == 32.0 and g.self_draw_win[4] == 96.0 and g.decline == 0.0
    pos = _offered_a_win(40)
    twins = [_pyvalue.guard_choice] if _cvalue is None else [
        _pyvalue.guard_choice, lambda v, g, *rest: _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(g), *rest)]
    for choose in twins:
        assert choose(v, g, *pos, [0, 0, 0, 0], 3) == 1
        assert choose(v, g._replace(decline=1.0), *pos, [0, 0, 0, 0], 3) == 0
        assert choose(v, g._replace(decline=1.1), *pos, [0, 0, 0, 0], 3) == 1
        assert choose(v, g._replace(decline=1.0), *_offered_a_win(36), [0, 0, 0, 0], 3) == 1
        assert choose(v, g._replace(decline=1.0), *pos, [0, 0, 0, 0]) == 1  # no faan given: no win offered
        # a faan ledger reckoned zero-sum: a discard 3F = 9, a self-draw 3(F + 1) = 12: 0.3467 x 12 = 4.16
        mb = _pyvalue.guard_params(load_preset("mistboard"))
        assert mb.discard_win[3] == 9.0 and mb.self_draw_win[4] == 12.0
        vm = _pyvalue.value_params(load_preset("mistboard"))
        assert choose(vm, mb._replace(decline=0.45), *pos, [0, 0, 0, 0], 3) == 0
        assert choose(vm, mb._replace(decline=0.5), *pos, [0, 0, 0, 0], 3) == 1


def test_a_guard_that_declines_plays_the_same_inside_the_engine_as_through_its_prompts() -> None:
    """The faan of the win offered reaches guard from the prompt's win action and from the engine alike."""
    from hkcore.table import Table
    from hkcore.table.players.value import GuardBot
    p = load_preset("bga-old-style")
    g = _pyvalue.guard_params(p, decline=0.6)
    params = fastplay.value_params(p, g)
    changed = 0
    for seed in range(3 * WALLS):
        fast = Table({"event": "start", "preset": "bga-old-style", "seed": seed})
        fastplay.play_bots(fast, ["guard"] * 4, [0] * 4, params=params)
        slow = Table({"event": "start", "preset": "bga-old-style", "seed": seed})
        bots = [GuardBot(p, 0, guard=g) for _ in range(4)]
        while not slow.over:
            prompt = slow.prompts()[0]
            slow.submit(bots["ESWN".index(prompt["seat"])].decide(prompt))
        assert fast.log == slow.log
        plain = Table({"event": "start", "preset": "bga-old-style", "seed": seed})
        fastplay.play_bots(plain, ["guard"] * 4, [0] * 4, params=fastplay.value_params(p))
        changed += plain.log != fast.log
    assert changed  # it passed a win by somewhere


def test_a_win_of_more_faan_than_the_tables_hold_is_weighed_at_their_end() -> None:
    """bga-old-style caps at 13 faan (b = 384): a discard win of more pays the winner 2b + b + b = 1536, its
    self-draw 2b from each, 2304, however large the faan offered (a prompt's, read as it is). East's wait above
    with 40 live tiles: 0.3467 x 2304 = 798.6, more than 0.5 x 1536 = 768 (it passes), less than 0.55 x 1536 =
    844.8 (it wins). A faan that is no whole number, or below -1 (none offered), is refused naming it."""
    v = _pyvalue.value_params(load_preset("bga-old-style"))
    g = _pyvalue.guard_params(load_preset("bga-old-style"))
    assert (g.discard_win[13], g.discard_win[40], g.self_draw_win[14], g.self_draw_win[40]) == (1536.0,) * 2 + (
        2304.0,) * 2
    pos = (*_offered_a_win(40), [0, 0, 0, 0])
    twins = [_pyvalue.guard_choice] if _cvalue is None else [
        _pyvalue.guard_choice, lambda v, g, *rest: _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(g), *rest)]
    for choose in twins:
        for faan in (14, 2**31 - 1, 2**31, 2**40):
            assert choose(v, g._replace(decline=0.5), *pos, faan) == 0, faan
            assert choose(v, g._replace(decline=0.55), *pos, faan) == 1, faan
        for bad in (-2, True, 3.0, "3", None):
            with pytest.raises(TableError) as e:
                choose(v, g._replace(decline=0.5), *pos, bad)
            assert e.value.field == "win_faan", bad


@needs_compiled
def test_the_compiled_twin_refuses_more_copies_of_a_tile_than_four() -> None:
    """Weighing a discard win, the compiled guard adds each unseen tile to the hand: where the copies unseen,
    held and declared come to more than four it would hold a fifth (and count seven pairs into memory not
    its own). No prompt gives such a position (unseen is four less those seen): a TableError naming unseen,
    or the sets where the hand and its sets alone hold more than four."""
    from helpers.strategies import SEVEN_PAIRS_FOURS
    v = _pyvalue.value_params(load_preset("bga-old-style"))
    v = v._replace(shapes=core.ShapeSet(True, SEVEN_PAIRS_FOURS))
    g = _pyvalue.guard_params(load_preset("bga-old-style"), decline=0.3)
    # 1111m 11p 99p 55z 66z and a single 7z (13 tiles), waiting on 7z as seven pairs (1m twice)
    counts = [0] * 34
    for t in (0, 0, 0, 0, 9, 9, 17, 17, 31, 31, 32, 32, 33):
        counts[t] += 1
    unseen = [4 - c for c in counts]
    rest = ([C.PASS, C.WIN], [-1, -1], 33, 40, 0, 0, 0, [(0, 0)] * 4, [[], [], [], []], [0, 0, 0, 0], 3)
    choose = _cvalue.guard_choice
    p, gp = _cvalue.Params(v), _cvalue.Guard(g)
    assert choose(p, gp, counts, (), False, unseen, *rest) in (0, 1)  # as a table could give it
    for tile in (0, 9):  # a fifth 1m, a fifth 1p
        more = list(unseen)
        more[tile] += 1
        with pytest.raises(TableError) as e:
            choose(p, gp, counts, (), False, more, *rest)
        assert e.value.field == "unseen", tile
    # beside a declared pung of 1p, 11p in hand make five
    hand = [0] * 34
    for t in (0, 1, 2, 9, 9, 17, 17, 31, 31, 32):
        hand[t] += 1
    with pytest.raises(TableError) as e:
        choose(p, gp, hand, (34 + 9,), True, [0] * 34, *rest)
    assert e.value.field == "melds"


def test_a_guard_that_may_decline_refuses_a_claim_prompt_no_table_could_make() -> None:
    """Reading the faan of the win a claim window offers (``win_faan``): no actions, actions that are not
    records, a win whose faan is no whole number 0 or more: a TableError naming the prompt."""
    from hkcore.table.players.value import GuardBot, win_faan
    p = load_preset("bga-old-style")
    bot = GuardBot(p, 0, guard=_pyvalue.guard_params(p, decline=0.5))
    assert win_faan({"phase": "claim", "actions": [{"act": "pass"}, {"act": "win", "faan": 3}]}) == 3
    assert win_faan({"phase": "turn", "actions": [{"act": "win", "faan": 3}]}) == -1
    for bad in ({"phase": "claim"}, {"phase": "claim", "actions": None}, {"phase": "claim", "actions": ["win"]},
                {"phase": "claim", "actions": [{"act": "win", "faan": -1}]},
                {"phase": "claim", "actions": [{"act": "win", "faan": "3"}]}):
        with pytest.raises(TableError) as e:
            bot.decide(bad)
        assert e.value.field == "prompt", bad


# ---------------------------------------------------------------- the twins and the engine's loop

@st.composite
def guard_positions(draw: st.DrawFn) -> tuple[Any, ...]:
    """A value position, the dragon sets each seat shows, and guard parameters that fold often."""
    v, *rest = draw(value_positions())
    shown = rest[11]
    dragons = [draw(st.integers(0, min(n, 3))) for n, _ in shown]
    preset = load_preset(draw(st.sampled_from(builtin_ids())))
    g = _pyvalue.guard_params(preset, threat=draw(st.sampled_from([0.0, 0.1, 0.2, 0.5])),
                              fold_weight=draw(st.sampled_from([0.0, 0.15, 1.0, 10.0])),
                              fold_away=draw(st.integers(0, 3)), suji=draw(st.sampled_from([1.0, 0.4, 0.0])),
                              honour=draw(st.sampled_from([1.0, 3.0])), pond_honour=draw(st.sampled_from([0.12, 0.4])),
                              push=draw(st.sampled_from([0.0, 0.3, 1.0, 3.0])),
                              keep=draw(st.sampled_from([0.0, 0.5, 0.9])),
                              self_draw_share=draw(st.sampled_from([0.35, 1.0, 1.5])),
                              decline=draw(st.sampled_from([0.0, 0.3, 1.0])))
    faan = -1
    if draw(st.integers(0, 3)) == 0:  # a claim window offering a win on a hand waiting (13 tiles, no set declared)
        counts = [0] * 34
        for _ in range(4):
            low = draw(st.integers(0, 33))
            run = [low, low + 1, low + 2] if low < 27 and low % 9 <= 6 and draw(st.booleans()) else [low] * 3
            if not all(counts[t] + run.count(t) <= 4 for t in run):
                run = [counts.index(0)] * 3
            for t in run:
                counts[t] += 1
        pair = draw(st.integers(0, 33).filter(lambda t: counts[t] <= 2))
        counts[pair] += 2
        held = [t for t in range(34) if counts[t]]
        offered = draw(st.sampled_from(held))
        counts[offered] -= 1
        unseen = [draw(st.integers(0, 4 - counts[i])) for i in range(34)]
        rest[0:7] = [counts, (), False, unseen, [C.PASS, C.WIN], [-1, offered], offered]
        faan = draw(st.integers(0, 13))
    return (v, g, *rest, dragons, faan)


@needs_compiled
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.large_base_example,
                                                                 HealthCheck.too_slow])
@given(guard_positions())
def test_the_compiled_guard_choice_is_the_pure_one(position: tuple[Any, ...]) -> None:
    v, g, *rest = position
    expected = _pyvalue.guard_choice(v, g, *rest)
    assert _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(g), *rest) == expected
    assert _cvalue.guard_choice(_cvalue.Params(v), _cvalue.Guard(g), *rest, _cbots.AwayMemo()) == expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.large_base_example,
                                                                 HealthCheck.too_slow])
@given(value_positions())
def test_where_nobody_is_a_threat_guard_is_value(position: tuple[Any, ...]) -> None:
    v, *rest = position
    g = _pyvalue.guard_params(load_preset("mistboard"), threat=1.5)  # above any P(waiting)
    own = v._replace(self_draw_share=g.self_draw_share)  # guard's plans reckon the self-draw as it does
    assert _pyvalue.guard_choice(v, g, *rest, [0, 0, 0, 0]) == _pyvalue.choice(own, *rest)
    same = g._replace(self_draw_share=v.self_draw_share)
    assert _pyvalue.guard_choice(v, same, *rest, [0, 0, 0, 0]) == _pyvalue.choice(v, *rest)


@pytest.mark.parametrize("preset", builtin_ids())
@pytest.mark.parametrize("bots", [["guard"] * 4, ["guard", "value", "efficiency", "value"]], ids=["guard", "mixed"])
def test_guard_hands_played_inside_the_engine_are_those_played_through_prompts(preset: str,
                                                                                bots: list[str]) -> None:
    fast = list(simulation_logs([preset], bots, WALLS, 5, fast=True))
    slow = list(simulation_logs([preset], bots, WALLS, 5, fast=False))
    assert len(fast) == len(slow) == 4 * WALLS
    for a, b in zip(fast, slow):
        assert a == b


def test_the_guard_summary_is_the_same_either_way_and_folds_somewhere() -> None:
    mixed = ["guard", "value", "value", "value"]
    fast = simulate("all", mixed, hands=6, seed=2)
    assert fast == simulate("all", mixed, hands=6, seed=2, fast=False)
    assert fast != simulate("all", "value", hands=6, seed=2)  # guard decided otherwise somewhere


def test_the_guard_bot_is_registered_and_played_inside_the_engine() -> None:
    bot = make_bot("guard", load_preset("just-cards"))
    assert bot.name == "guard" and type(bot).in_engine is True  # type: ignore[attr-defined]
    assert fastplay.plays(load_preset("just-cards"), ["guard"] * 4)


def test_a_guard_bot_pickles_and_decides_the_same() -> None:
    import pickle

    from hkcore.table import Table

    t = Table({"event": "start", "preset": "hk-classic", "seed": 4})
    bot = make_bot("guard", t.preset)
    again = pickle.loads(pickle.dumps(bot))
    while not t.over:
        p = t.prompts()[0]
        d = bot.decide(p)
        assert again.decide(p) == d
        t.submit(d)
