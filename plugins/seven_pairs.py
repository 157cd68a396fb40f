"""Seven pairs (七對子): a winning shape and its pattern, off unless a preset turns it on.

None of the five built-in presets plays it. A preset turns it on by naming
the shape and giving the pattern a value::

    shapes = ["standard", "thirteen_orphans", "seven_pairs"]
    [patterns]
    seven_pairs = { value = 4 }
    # seven pairs is always concealed; to make its value include that:
    # seven_pairs = { value = 4, includes = ["concealed_hand"] }

Shape option ``four_as_two_pairs`` (default false): four of a kind may count
as two of the seven pairs (``[shapes.seven_pairs] four_as_two_pairs = true``).

On a seven-pairs reading the patterns defined on tiles and the win apply
(flushes, all honours, all terminals, concealed hand, self-draw, bonus
tiles); those defined on sets (all chows, all pungs, dragon and wind pungs)
do not. The reading is the seven pair tiles, ascending (a four of a kind
appears twice). No declared set is possible.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern, Situation
from hkcore.shapes import Shape, used_copies

IMPOSSIBLE = 99


def seven_pairs_readings(counts: list[int], k: int, options: Mapping[str, Any]) -> list[tuple[int, ...]]:
    """The one reading of seven pairs, or none."""
    if k != 0 or sum(counts) != 14:
        return []
    pairs: list[int] = []
    for t, c in enumerate(counts):
        if c == 2:
            pairs.append(t)
        elif c == 4 and options["four_as_two_pairs"]:
            pairs += [t, t]
        elif c:
            return []
    return [tuple(pairs)] if len(pairs) == 7 else []


def seven_pairs_away(counts: list[int], k: int, codes: tuple[int, ...], options: Mapping[str, Any]) -> int:
    """Tiles away from seven pairs: choose the seven cheapest pair slots.

    Each kind offers a first pair at cost max(0, 2 - c) and, with
    ``four_as_two_pairs``, a second at 4 - max(c, 2), never above the copies
    left. A second slot never costs less than the first, so taking the
    seven cheapest slots is exact.
    """
    if k != 0:
        return IMPOSSIBLE
    used = used_copies(codes)
    slots = []
    for t, c in enumerate(counts):
        left = 4 - used[t]
        if left >= 2:
            slots.append(max(0, 2 - c))
            if options["four_as_two_pairs"] and left >= 4:
                slots.append(4 - max(c, 2))
    if len(slots) < 7:
        return IMPOSSIBLE
    return sum(sorted(slots)[:7]) - 1


def seven_pairs(s: Situation, options: Mapping[str, Any]) -> int:
    """1 on a seven-pairs reading."""
    return int(s.shape == "seven_pairs")


SHAPE = Shape("seven_pairs", "Seven Pairs", "七對子", seven_pairs_readings, seven_pairs_away,
              options={"four_as_two_pairs": False},
              doc="seven pairs; option four_as_two_pairs: four of a kind counts as two pairs",
              parts=lambda reading: [("pair", [t, t]) for t in reading])
PATTERN = Pattern("seven_pairs", "Seven Pairs", "七對子", seven_pairs, scope="hand", shape="seven_pairs",
                  doc="a seven-pairs hand (the seven_pairs shape must be in play)")


def kernel_pairs(extra: Sequence[tuple[Any, Mapping[str, Any]]]) -> int | None:
    """How the compiled kernels and the table engine, which count this seven
    pairs themselves, take the shapes ``extra`` (a ``ShapeSet``'s, or a
    compiled preset's ``extra_shapes``): 0 none, 1 this seven pairs, 2 this
    seven pairs with ``four_as_two_pairs``; None where some shape is another
    (its own functions answer for it, in Python)."""
    if not extra:
        return 0
    if len(extra) != 1:
        return None
    shape, options = extra[0]
    if getattr(shape, "shape", shape) is not SHAPE or set(options) - {"four_as_two_pairs"}:
        return None  # another shape (a CheckedShape wraps the plugin's Shape), or options the kernels lack
    return 2 if options.get("four_as_two_pairs") else 1


@hookimpl
def hkcore_shapes() -> list[Shape]:
    """The seven-pairs shape."""
    return [SHAPE]


@hookimpl
def hkcore_patterns() -> list[Pattern]:
    """The seven-pairs pattern."""
    return [PATTERN]
