"""The rules of play the engine reads, as one named value (``EngineRules``).

A ``Table`` builds it from its preset (``hkcore.table.table.engine_rules``:
the preset's ``[table]`` and ``[claims]`` sections, and what its compiled
ruleset says of instant wins and shapes); both engine twins read it in
``_setup``. The flow knows no preset: this is all it is told of one.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

#: ``EngineRules.robbing``: no robbing, robbing an added kong, and also a concealed kong for thirteen orphans
ROB_NONE, ROB_ADDED, ROB_ORPHANS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class EngineRules:
    """What the engine plays by (docs/house-rules.md names the preset key behind each)."""

    #: a seat may declare a kong of four it holds (``table.concealed_kong``)
    concealed_kong: bool
    #: a seat may add a drawn fourth tile to its exposed pung (``table.added_kong``)
    added_kong: bool
    #: a kong of one's own only with the tile just drawn (``table.kong_tile = "drawn"``)
    kong_tile_drawn_only: bool
    #: a seat may declare a pung of three it holds on its turn (``table.self_pung``, G9)
    self_pung: bool
    #: the last discard may be claimed for any set, not only a win (``table.last_discard = "any"``)
    last_discard_any: bool
    #: after a claim, the claimed tile (or the far end of its chow) may not be discarded (``claims.swap_rule``, G10)
    swap_rule: bool
    #: which kongs may be robbed: ``ROB_NONE``, ``ROB_ADDED`` or ``ROB_ORPHANS`` (``claims.robbing_kong``)
    robbing: int
    #: several seats may win on one discard (``claims.multiple_winners``)
    multiple_winners: bool
    #: the preset scores a hand won without a winning shape (an instant win: its compiled ruleset says)
    instant_wins: bool
    #: thirteen orphans is a winning shape (``shapes``)
    thirteen_orphans: bool
    #: the preset has shapes beyond the standard hand and thirteen orphans (a plugin's: the scorer decides,
    #: unless the engine counts them itself: ``seven_pairs``)
    extra_shapes: bool
    #: replacement tiles come from the front of the wall, not the back (``table.replacement = "front"``)
    replacement_from_front: bool
    #: the preset's shapes beyond the standard hand and thirteen orphans are the built-in plugin's seven pairs
    #: alone, which the engine counts itself: 0 no, 1 yes, 2 yes with a four of a kind counting as two pairs
    #: (``[shapes.seven_pairs] four_as_two_pairs``); not among ``flags()``
    seven_pairs: int = 0

    def __post_init__(self) -> None:
        if self.robbing not in (ROB_NONE, ROB_ADDED, ROB_ORPHANS):
            raise ValueError(f"robbing = {self.robbing!r}: ROB_NONE, ROB_ADDED or ROB_ORPHANS")
        if self.seven_pairs not in (0, 1, 2) or (self.seven_pairs and not self.extra_shapes):
            raise ValueError(f"seven_pairs = {self.seven_pairs!r}: 0, or 1 or 2 with extra_shapes")

    def __setstate__(self, state: list[Any]) -> None:
        """Loaded from a pickle; one made before ``seven_pairs`` was a field lacks it (not in play then)."""
        names = [f.name for f in fields(self)]
        if len(state) == len(names) - 1:
            state = [*state, 0]
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)

    def flags(self) -> tuple[int, ...]:
        """The rules as the engines keep them: one small integer each, in the fields' order (read once a
        hand, so spelt out rather than walked by ``dataclasses.astuple``)."""
        return (int(self.concealed_kong), int(self.added_kong), int(self.kong_tile_drawn_only), int(self.self_pung),
                int(self.last_discard_any), int(self.swap_rule), self.robbing, int(self.multiple_winners),
                int(self.instant_wins), int(self.thirteen_orphans), int(self.extra_shapes),
                int(self.replacement_from_front))
