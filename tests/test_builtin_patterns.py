"""Built-in patterns and the compiled kernel's detectors.

Every built-in pattern names its compiled detector (``native=``) in its
definition; every name has a detector in the compiled kernel (and every
detector a pattern); a pattern without one -- ``native`` unset, or naming a
detector the kernel lacks -- is scored by its own Python ``detect``, the
same answer as the native one, on both cores.
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from types import ModuleType

import pytest

import hkcore
from hkcore import core
from hkcore.builtin_patterns import BUILTIN_PATTERNS
from hkcore.engine import CompiledPreset, compiled_for
from hkcore.models import Hand
from hkcore.preset import builtin_ids, load_preset
from hkcore.registry import catalogue
from hkcore.sample import sample

SOURCE = Path(hkcore.__file__).with_name("builtin_patterns.py")


def test_every_builtin_pattern_writes_native() -> None:
    calls = [n for n in ast.walk(ast.parse(SOURCE.read_text(encoding="utf-8")))
             if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "Pattern"]
    assert len(calls) == len(BUILTIN_PATTERNS) == 37
    missing = [ast.literal_eval(c.args[0]) for c in calls if not any(k.arg == "native" for k in c.keywords)]
    assert missing == []


def test_every_native_id_has_a_compiled_detector(twin_cores: tuple[ModuleType, ModuleType]) -> None:
    compiled, _ = twin_cores
    named = {p.native for p in BUILTIN_PATTERNS}
    assert None not in named
    assert named == set(compiled.NATIVE_CODES)  # each name a detector, each detector used
    assert all(code > 0 for code in compiled.NATIVE_CODES.values())  # 0 means "no native detector"
    # the three first-turn hands share one detector (its option says which turn)
    assert {p.id for p in BUILTIN_PATTERNS if p.native == "first_turn"} == {"heavenly_hand", "earthly_hand",
                                                                             "human_hand"}


def _without_native(native: str | None) -> object:
    """The current catalogue with every built-in pattern's ``native`` replaced."""
    cat = catalogue()
    patterns = {pid: dataclasses.replace(p, native=native) if p in BUILTIN_PATTERNS else p
                for pid, p in cat.patterns.items()}
    return dataclasses.replace(cat, patterns=patterns)


@pytest.mark.parametrize("native", [None, "no_such_detector"])
def test_a_pattern_without_a_compiled_detector_is_scored_by_its_own(native: str | None) -> None:
    for pid in builtin_ids():
        preset = load_preset(pid)
        python = CompiledPreset(preset, _without_native(native))  # type: ignore[arg-type]
        assert len(python.python_entries) == len(python.entries)  # none has a kernel detector now
        if core.compiled is not None:
            assert python.kernel is not None and not python.fast  # the kernel calls the detectors back
        else:
            assert python.kernel is None
        native_scored = compiled_for(pid)
        hands = [Hand.parse(data) for data in sample(150, seed=21, preset=pid)]
        assert len(hands) == 150
        for hand in hands:
            assert python.score(hand) == native_scored.score(hand), hand


def test_a_hand_worked_by_hand_scores_the_same_without_natives() -> None:
    # bga-old-style: half flush 3 (characters and honours), dragon pungs 6z and 7z 1 each, little three dragons 3
    # (pair of 5z), no bonus tile 1: 9 faan
    hand = Hand.parse("234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N")
    python = CompiledPreset(load_preset("bga-old-style"), _without_native(None))  # type: ignore[arg-type]
    assert python.score(hand).faan == compiled_for("bga-old-style").score(hand).faan == 9
