"""hkcore.simulation.simulate_matches: rounds of a match in duplicate, for the rules that act only between hands
(who keeps the deal, and how many times in a row: GAME.md G22, G27; docs/simulation.md, 'Rounds of a match')."""
from __future__ import annotations

from pathlib import Path

import pytest

from hkcore.errors import HkcoreError
from hkcore.simulation import MatchSummary, simulate, simulate_matches

ATLAS = Path(__file__).resolve().parent.parent / "bench" / "atlas"
if not ATLAS.is_dir():
    pytest.skip("no bench/atlas/ beside tests/ (its variant presets are the rules measured here)",
                allow_module_level=True)
REPEATS_1 = str(ATLAS / "jc-dealer-repeats-1.toml")    # [table] max_dealer_repeats = 1
ROTATES = str(ATLAS / "jc-dealer-rotates.toml")        # [table] dealer_stays = []
ON_DRAW = str(ATLAS / "jc-dealer-stays-on-draw.toml")  # [table] dealer_stays = ["dealer_win", "draw"]
DEALER_RULES = ["just-cards", REPEATS_1, ON_DRAW, ROTATES]
ROUNDS = 24


@pytest.fixture(scope="module")
def rounds() -> MatchSummary:
    return simulate_matches(DEALER_RULES, "guard", rounds=ROUNDS, seed=37, base="just-cards")


def test_a_round_ends_when_the_deal_has_passed_four_times(rounds: MatchSummary) -> None:
    for pid, p in rounds.presets.items():
        assert p.rounds == ROUNDS and p.cut == 0, pid   # no round reached the bound of 16 hands
        # every hand either passes the deal or is dealt again by its dealer, and a round is 4 passes: its hands
        # are 4 plus the hands dealt by a repeating dealer
        assert p.hands == 4 * ROUNDS + p.repeated.x, pid
        assert p.repeated.y == p.hands and p.dealer_net.y == p.hands
        assert sum(p.hands_histogram.values()) == ROUNDS == sum(p.longest_histogram.values())
        assert sum(int(k) * v for k, v in p.hands_histogram.items()) == p.hands
        assert p.hands_a_round.total == p.hands and p.hands_a_round.walls == ROUNDS


def test_the_deal_passes_after_every_hand_when_the_dealer_never_stays(rounds: MatchSummary) -> None:
    p = rounds.presets["jc-dealer-rotates"]
    # p1, p2, p3, p4 deal once each: 4 hands a round, nobody deals twice in a row
    assert p.hands_histogram == {"4": ROUNDS} and p.longest_histogram == {"1": ROUNDS}
    assert p.repeated.x == 0 and p.longest.total == ROUNDS
    # paired with the base round by round: the difference in hands is 4 less the base's hands, every round
    d = rounds.differences["jc-dealer-rotates"]["just-cards"]
    base = rounds.presets["just-cards"]
    assert d.hands_a_round.total == 4 * ROUNDS - base.hands
    assert d.repeated.difference() == pytest.approx(-base.repeated.x / base.hands)
    # hand 1 (p1 deals the same wall under both) is always dealt alike
    assert ROUNDS <= d.alike <= d.hands == 4 * ROUNDS


def test_a_repeat_limit_of_one_passes_the_deal_after_two_hands_by_one_dealer(rounds: MatchSummary) -> None:
    base, limited = rounds.presets["just-cards"], rounds.presets["jc-dealer-repeats-1"]
    assert set(limited.longest_histogram) <= {"1", "2"}
    # at most 2 hands a dealer, 4 dealers: 4 to 8 hands a round
    assert all(4 <= int(k) <= 8 for k in limited.hands_histogram)
    # on these rounds the base's dealers kept the deal more than once in a row: the limit came into play
    assert max(int(k) for k in base.longest_histogram) > 2
    d = rounds.differences["jc-dealer-repeats-1"]["just-cards"]
    assert d.longest.total < 0 and d.hands_a_round.total < 0
    # a round whose base never lets a dealer deal 3 in a row is the same round under the limit (4 hands at
    # least, all dealt alike); in any other, the hands before a dealer's third in a row (2 at least) are
    alike_rounds = base.longest_histogram.get("1", 0) + base.longest_histogram.get("2", 0)
    assert d.alike >= 4 * alike_rounds + 2 * (ROUNDS - alike_rounds)
    lo, hi = d.longest.interval() or (0.0, 0.0)
    assert hi < 0 and lo < d.longest.mean() < hi  # type: ignore[operator]


def test_a_dealer_who_stays_on_a_draw_deals_more(rounds: MatchSummary) -> None:
    base, on_draw = rounds.presets["just-cards"], rounds.presets["jc-dealer-stays-on-draw"]
    # the variant keeps the deal in every case the base does, and after a draw besides: where the two agree on
    # the hands so far, the variant's round is never shorter; over the rounds, more hands and more repeats
    assert on_draw.hands > base.hands and on_draw.repeated.x > base.repeated.x
    d = rounds.differences["jc-dealer-stays-on-draw"]["just-cards"]
    assert d.hands_a_round.total == on_draw.hands - base.hands
    assert d.repeated.interval() is not None and d.repeated.interval()[0] > 0  # type: ignore[index]


def test_the_first_hand_of_a_round_is_the_wall_simulate_plays(rounds: MatchSummary) -> None:
    # a round's hand 1 is a Match's first deal, the deal of a Table with the round's seed: simulate's wall m,
    # dealt by p1 in E. Stopped after one hand, a round's dealer net and what its winners won are wall m's
    # East payment and winners' gain (simulate counts each wall 4 times, once a rotation)
    one = simulate_matches(["just-cards", ROTATES], "guard", rounds=12, seed=37, max_hands=1)
    walls = simulate(["just-cards"], "guard", hands=12, seed=37)
    p, w = one.presets["just-cards"], walls.presets["just-cards"]
    assert p.hands == 12 and p.cut == 12 and p.longest_histogram == {"1": 12}
    assert 4 * p.dealer_net.x == w.payments_by_seat["E"].total
    assert 4 * p.moved.total == w.won.total
    # stopped after two hands, the base's second hand is p1's again exactly when p1 (East) won the first
    two = simulate_matches(["just-cards"], "guard", rounds=12, seed=37, max_hands=2)
    assert 4 * two.presets["just-cards"].repeated.x == w.wins_by_seat["E"]
    # one hand: the same deal under both rules, played alike, nothing differs
    d = one.differences["jc-dealer-rotates"]["just-cards"]
    assert d.alike == d.hands == 12
    assert d.hands_a_round.squares == d.moved.squares == d.swing.squares == 0  # type: ignore[union-attr]


def test_rounds_add_and_do_not_depend_on_jobs_or_the_path() -> None:
    whole = simulate_matches(["just-cards", REPEATS_1], "value", rounds=5, seed=2)
    parts = (simulate_matches(["just-cards", REPEATS_1], "value", rounds=3, seed=2)
             + simulate_matches(["just-cards", REPEATS_1], "value", rounds=2, seed=2, first=3))
    assert parts == whole and parts.played == [(0, 5)]
    assert simulate_matches(["just-cards", REPEATS_1], "value", rounds=5, seed=2, jobs=2) == whole
    assert MatchSummary.model_validate_json(whole.to_json()) == whole
    # through prompts, the bots asked decision by decision: the same rounds
    slow = simulate_matches(["just-cards", REPEATS_1], "value", rounds=2, seed=2, fast=False)
    assert slow == simulate_matches(["just-cards", REPEATS_1], "value", rounds=2, seed=2)
    with pytest.raises(HkcoreError, match="counted twice"):
        _ = whole + whole


def test_payments_compare_only_between_presets_that_count_them_alike() -> None:
    s = simulate_matches(["just-cards", "hk-classic"], "guard", rounds=2, seed=1)
    d = s.differences["hk-classic"]["just-cards"]
    assert d.moved is None and d.swing is None and d.dealer_net is None
    assert s.presets["hk-classic"].measure() == "faan (ledger)" and s.presets["just-cards"].measure() == "points"


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"rounds": -1}, "rounds"), ({"rounds": 1.5}, "rounds"), ({"seed": -1}, "seed"), ({"first": -2}, "first"),
    ({"max_hands": 0}, "max_hands"), ({"bots": "random"}, "bots"), ({"bots": ["guard", "value"]}, "bots"),
    ({"base": "nosuch"}, "base"), ({"jobs": 0}, "jobs"),
])
def test_bad_arguments_are_named(kwargs: dict[str, object], field: str) -> None:
    args: dict[str, object] = {"presets": ["just-cards"], "rounds": 1, **kwargs}
    with pytest.raises(HkcoreError, match=field):
        simulate_matches(**args)  # type: ignore[arg-type]
