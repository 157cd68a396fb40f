"""The efficiency bot's arithmetic: the compiled module (_cbots) and its
pure twin (_pybots) answer the same on any hand."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers.strategies import counts_beside_sets
from hkcore.table.players import _pybots

try:
    from hkcore.table.players import _cbots
except ImportError:  # pragma: no cover - a build without the compiled bots
    _cbots = None

needs_compiled = pytest.mark.skipif(_cbots is None, reason="the compiled bots are not built")


@st.composite
def hands(draw: st.DrawFn) -> tuple[list[int], tuple[int, ...], list[int]]:
    """14 - 3k concealed tiles beside k declared sets (chows, pungs, kongs), no tile more than 4 times."""
    counts, melds = draw(counts_beside_sets())
    rng = random.Random(draw(st.integers(0, 2**32)))
    unseen = [rng.randrange(5) for _ in range(34)]
    return counts, melds, unseen


@needs_compiled
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(hands())
def test_best_discard_gain_and_away_are_the_same_in_both(hand: tuple[list[int], tuple[int, ...], list[int]]) -> None:
    counts, melds, unseen = hand
    choices = [i for i in range(34) if counts[i]]
    assert _cbots.best_discard(list(counts), melds, unseen, choices) == \
        _pybots.best_discard(list(counts), melds, unseen, choices)
    for i in choices[:3]:
        after = list(counts)
        after[i] -= 1
        now = _pybots.away(after, melds)
        assert _cbots.away(after, melds) == now
        assert _cbots.near(after) == _pybots.near(after)
        assert _cbots.gain(list(after), melds, unseen, now) == _pybots.gain(list(after), melds, unseen, now)


def test_a_waiting_hand_gains_the_unseen_copies_of_its_waits() -> None:
    # 123m 456p 789s 111z and a lone 2z: waiting on 2z alone; 3 of it unseen
    counts = [0] * 34
    _pybots.add_counts("123m456p789s1112z", counts)
    unseen = [4] * 34
    unseen[28] = 3
    assert _pybots.away(counts, ()) == 0
    assert _pybots.gain(counts, (), unseen, 0) == 3
    # with 5z drawn, either lone honour leaves the hand waiting: 3 unseen 2z against 4 unseen 5z keeps 2z
    counts[31] += 1
    assert _pybots.best_discard(counts, (), unseen, [28, 31]) == (0, -4, 28)


@needs_compiled
@pytest.mark.parametrize("text", ["", "123m", "19m19p19s1234567z", "5555m", "3m9m1m2z", "1f", "0m", "12", "x"])
def test_notation_is_counted_the_same_in_both(text: str) -> None:
    results = []
    for mod in (_cbots, _pybots):
        counts = [0] * 34
        try:
            mod.add_counts(text, counts)
            results.append(counts)
        except Exception as exc:  # noqa: BLE001 - both must refuse alike
            results.append(type(exc))
    assert results[0] == results[1]
