"""All Green (綠一色): every tile is 2, 3, 4, 6 or 8 of bamboo, or the green dragon.

An example of a third-party hkcore plugin: one pattern, registered through
the ``hkcore_patterns`` hook and found through the ``hkcore`` entry-point
group. A preset turns it on by naming it::

    [patterns]
    all_green = { limit = 13 }
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern, Situation, tile_mask

GREEN = tile_mask("23468s6z")
GREEN_DRAGON = tile_mask("6z")


def all_green(s: Situation, options: Mapping[str, Any]) -> int:
    """1 when every tile of the hand and its melds is green."""
    if options["dragon_required"] and not s.kinds & GREEN_DRAGON:
        return 0
    return int(s.only(GREEN))


@hookimpl
def hkcore_patterns() -> list[Pattern]:
    return [Pattern("all_green", "All Green", "綠一色", all_green, scope="hand",
                    options={"dragon_required": False},
                    doc="every tile green: 2, 3, 4, 6, 8 of bamboo and the green dragon")]
