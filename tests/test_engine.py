"""The compiled scoring kernel against the pure-Python evaluator, and
invariants every result must keep."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import ValidationError

import hkcore
from helpers.strategies import WHEN_PRESETS, hands
from hkcore.engine import CompiledPreset, compile_preset
from hkcore.models import Hand
from hkcore.results import ScoreResult

PRESETS = hkcore.presets()


@pytest.fixture(scope="module")
def pairs() -> dict[str, tuple[CompiledPreset, CompiledPreset]]:
    """preset id -> (kernel-backed, pure-Python) compiled presets: the
    built-in ones and some with conditions on their patterns."""
    out = {}
    for pid, ref in [*((pid, pid) for pid in PRESETS), *WHEN_PRESETS.items()]:
        preset = hkcore.load_preset(ref)
        fast = compile_preset(preset)
        if fast.kernel is None:
            pytest.fail(f"preset {pid} has no compiled kernel while the compiled core is "
                        f"{hkcore.core.IMPLEMENTATION!r}") if hkcore.core.IMPLEMENTATION == "cython" else None
        out[pid] = (fast, CompiledPreset(preset, use_kernel=False))
    return out


def _kernel_outcome(compiled: CompiledPreset, hand: Hand):
    raw = compiled.kernel.score(hand.kernel_context, None)
    return raw


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(hands(bonus=True))
def test_kernel_equals_python_evaluator(pairs, data) -> None:
    hand = Hand.parse(data)
    for pid, (fast, slow) in pairs.items():
        if not fast.preset.bonus_tiles and (hand.flowers or hand.seasons):
            continue
        if fast.kernel is None:
            pytest.skip("compiled core not active")
        assert fast.score(hand) == slow.score(hand), pid


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(hands(bonus=False))
def test_result_invariants(data) -> None:
    hand = Hand.parse(data)
    for pid in PRESETS:
        preset = hkcore.load_preset(pid)
        r = hkcore.score(hand, preset)
        assert isinstance(r, ScoreResult)
        assert sum(p.faan for p in r.patterns) == r.uncapped
        assert r.faan == (r.uncapped if preset.cap is None else min(r.uncapped, preset.cap))
        if not r.complete:
            assert (r.faan, r.patterns, r.winnable, r.payments) == (0, [], False, None)
            assert hkcore.is_complete(hand.counts) is False or r.shape is None
        else:
            assert r.patterns, "a complete hand lists at least chicken_hand"
        if r.payments is not None:
            assert sorted(r.payments) == ["E", "N", "S", "W"]
            assert sum(r.payments.values()) == 0
            assert r.payments[hand.seat_wind] > 0
        if r.winnable and preset.payments is not None and (hand.self_draw or hand.discarder):
            assert r.payments is not None
        # the result is a real model: it validates and dumps to the same thing
        assert ScoreResult.model_validate(r.model_dump()) == r


@pytest.mark.parametrize("pid", ["bga-old-style", "playingcards-io"])
def test_results_share_no_mutable_state(pid: str) -> None:
    """The kernel reuses what it can between results; changing one result
    must not change another of the same hand."""
    hand = Hand.parse("123m456p789s234m55z win:5z self_draw seat:S")
    first = hkcore.score(hand, pid)
    expected = first.model_dump()
    first.patterns.clear()
    first.reading.clear()
    assert first.payments is not None, "the hand is winnable under both presets"
    first.payments["E"] = 999
    with pytest.raises(ValidationError):  # frozen: its fields cannot be assigned
        first.faan = -1  # type: ignore[misc]
    second = hkcore.score(hand, pid)
    assert second.model_dump() == expected
    assert second.patterns and second.reading
