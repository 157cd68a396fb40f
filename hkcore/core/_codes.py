"""Numbers shared by both core implementations: tile indices, set codes (from
:mod:`hkcore.tiles`), hand sizes and the ``when`` condition bits.

Tile index: 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s, 27..33 = 1z..7z
(East, South, West, North, White, Green, Red).

A set is one int, ``kind * 34 + tile``: ``tile`` is the lowest tile of a chow
or the tile of a pung or kong.  A reading is a tuple ``(pair, set, set, ...)``:
the pair's tile index, then the sets formed from the concealed tiles in
ascending order, then the declared sets in the order given.  The thirteen
orphans reading is ``(pair, ORPHANS)``, ``pair`` being the duplicated tile.
"""

from hkcore.tiles import (
    CHOW,
    KONG,
    ORPHAN_TILES,
    ORPHANS,
    PUNG,
    copies_used,
    set_kind,
    set_tile,
    set_tiles,
)

__all__ = [
    "CHOW",
    "FULL_SIZES",
    "KONG",
    "ORPHANS",
    "ORPHAN_TILES",
    "PUNG",
    "WAIT_SIZES",
    "WHEN",
    "copies_used",
    "set_kind",
    "set_tile",
    "set_tiles",
    "when_facts",
]

#: Concealed tile counts accepted for k declared sets: 14 - 3k (a complete
#: or discarding hand) and 13 - 3k (a waiting hand).
FULL_SIZES = {14 - 3 * k: k for k in range(5)}
WAIT_SIZES = {13 - 3 * k: k for k in range(5)}


#: Conditions a preset may put on a pattern (``when``), each a bit of the
#: pattern's condition mask, in pairs that exclude each other: a win by
#: self-draw or on a discard (a robbed kong is one), a concealed hand (no
#: claimed set; a concealed kong keeps it concealed) or an open one, the
#: dealer (East) or another seat.
WHEN = {"self_draw": 1, "discard": 2, "concealed": 4, "open": 8, "dealer": 16, "non_dealer": 32}


def when_facts(self_draw: bool, concealed: bool, dealer: bool) -> int:
    """The condition bits that hold for a win with these facts: a pattern
    whose mask has a bit outside them does not count."""
    return ((1 if self_draw else 2) | (4 if concealed else 8) | (16 if dealer else 32))
