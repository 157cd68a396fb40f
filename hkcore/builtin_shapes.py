"""The two shapes the core answers, registered exactly like a plugin's:
four sets and a pair, and thirteen orphans."""
from __future__ import annotations

from hkcore.core import _impl as _core
from hkcore.hookspecs import hookimpl
from hkcore.shapes import Shape

STANDARD = Shape(
    "standard", "Four Sets and a Pair", "四組一對",
    lambda counts, k, o: list(_core._readings_parts(counts, (), k, False)),
    lambda counts, k, codes, o: _core._away_parts(counts, codes, k, False),
    doc="four sets (chows, pungs, kongs) and a pair; answered by the core",
)
THIRTEEN_ORPHANS = Shape(
    "thirteen_orphans", "Thirteen Orphans", "十三幺",
    lambda counts, k, o: [r for r in _core._readings_parts(counts, (), k, True) if len(r) == 2 and r[1] == 102],
    lambda counts, k, codes, o: 99 if k else _orphans_away(counts),
    doc="one of each terminal and honour plus a duplicate; answered by the core",
)


def _orphans_away(counts: list[int]) -> int:
    orphans = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
    missing = sum(1 for t in orphans if counts[t] == 0)
    return missing + (0 if any(counts[t] >= 2 for t in orphans) else 1) - 1


@hookimpl
def hkcore_shapes() -> list[Shape]:
    """The two shapes the core answers."""
    return [STANDARD, THIRTEEN_ORPHANS]
