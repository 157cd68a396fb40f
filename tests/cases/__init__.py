"""Hand-worked scoring expectations, written from RULES.md and the source texts:
the value types; the cases are data (``<preset>.json`` and handworked.json,
described in README.md).

Every expected number was worked out by hand (the arithmetic is in the
``why`` beside it), never taken from running hkcore.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PRESETS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")


@dataclass(frozen=True)
class Expect:
    """What one preset must say about one hand.

    faan: the counted total after the cap (points under playingcards-io).
    patterns: pattern id -> what it contributed before the cap, summed over its
        occurrences (two dragon pungs at 1 each -> 2). Exactly these ids must be
        listed; a complete hand with nothing lists {"chicken_hand": 0}; a hand
        that is not complete lists {}.
    payments: seat -> net change, all four seats; None = the result must say
        null; ... (Ellipsis, the default) = not checked.
    error: when set, the preset must reject the hand with an error whose
        message contains this text (e.g. bonus tiles at a 136-tile table);
        the other fields are then ignored.
    reason: when set, a substring of the reason given for a hand that is not
        winnable.
    """

    faan: int = 0
    winnable: bool = False
    complete: bool = True
    patterns: dict[str, int] = field(default_factory=dict)
    payments: Any = ...
    error: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Case:
    """One hand (the RULES.md JSON) and what some presets must make of it."""

    id: str
    source: str  # where the expectation comes from: seed text, ruling number, table row
    hand: dict[str, Any]
    expect: dict[str, Expect]
