"""The two shapes the core answers, registered exactly like a plugin's:
four sets and a pair, and thirteen orphans."""
from __future__ import annotations

from hkcore import core
from hkcore.hookspecs import hookimpl
from hkcore.shapes import Shape
from hkcore.tiles import ORPHAN_TILES, ORPHANS

STANDARD = Shape(
    "standard", "Four Sets and a Pair", "四組一對",
    lambda counts, k, o: core.readings_of_counts(counts, (), k, core.STANDARD_ONLY),
    lambda counts, k, codes, o: core.tiles_away_of_counts(counts, codes, k, core.STANDARD_ONLY),
    doc="four sets (chows, pungs, kongs) and a pair; answered by the core",
)
THIRTEEN_ORPHANS = Shape(
    "thirteen_orphans", "Thirteen Orphans", "十三幺",
    lambda counts, k, o: [r for r in core.readings_of_counts(counts, (), k, core.STANDARD_AND_ORPHANS)
                          if len(r) == 2 and r[1] == ORPHANS],
    lambda counts, k, codes, o: 99 if k else _orphans_away(counts),
    doc="one of each terminal and honour plus a duplicate; answered by the core",
)


def _orphans_away(counts: list[int]) -> int:
    missing = sum(1 for t in ORPHAN_TILES if counts[t] == 0)
    return missing + (0 if any(counts[t] >= 2 for t in ORPHAN_TILES) else 1) - 1


@hookimpl
def hkcore_shapes() -> list[Shape]:
    """The two shapes the core answers."""
    return [STANDARD, THIRTEEN_ORPHANS]
