"""What a faan pattern is, and what its detector reads.

A pattern only detects: ``detect(situation, options)`` says how many times
the pattern is met in one reading of a hand (0 = not met). What it is worth
is preset data. Patterns reach hkcore through the ``hkcore_patterns`` hook
(see :mod:`hkcore.hookspecs`), the built-in ones exactly like a plugin's.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from hkcore.models import SEAT_NUMBER, Hand

#: Where a pattern applies:
#: "sets"    - standard readings only (it is defined on sets: all pungs, dragon pungs...);
#: "hand"    - every complete shape (tiles and win context: flushes, self-draw...);
#: "bonus"   - every shape and the bonus-tile instant win (flowers, seasons);
#: "instant" - only the bonus-tile instant win (seven or eight bonus tiles).
Scope = Literal["sets", "hand", "bonus", "instant"]

Detector = Callable[["Situation", Mapping[str, Any]], int]

# Tile-kind masks: bit i stands for the tile of index i (``Tile.index``: 1m is 0, 1p 9, 1s 18, 1z 27).
#: each suit's nine kinds: characters (m), dots (p), bamboo (s)
SUIT_MASKS = tuple(((1 << 9) - 1) << (9 * s) for s in range(3))
#: every suited kind
SUITED = (1 << 27) - 1
#: the four winds, 1z..4z
WINDS = 0b1111 << 27
#: the three dragons, 5z..7z
DRAGONS = 0b111 << 31
HONOURS = WINDS | DRAGONS
#: the ones and nines
TERMINALS = sum(1 << i for i in (0, 8, 9, 17, 18, 26))
ORPHAN_KINDS = TERMINALS | HONOURS


def tile_mask(tiles: str) -> int:
    """The mask of the tile kinds written in ``tiles`` (notation or Unicode
    tiles; a kind written twice counts once).

    >>> tile_mask("5z6z7z") == DRAGONS
    True
    >>> tile_mask("19m19p19s") == TERMINALS
    True
    """
    from hkcore.errors import TileError
    from hkcore.tiles import parse_tiles

    mask = 0
    for t in parse_tiles(tiles):
        if t.index >= 34:
            raise TileError(f"tile_mask: {t.code} is a bonus tile, not a kind of the hand")
        mask |= 1 << t.index
    return mask


def mask_tiles(mask: int) -> str:
    """The kinds of a mask as a tile string, one of each (the inverse of ``tile_mask``).

    >>> mask_tiles(WINDS | tile_mask("9s"))
    '9s1234z'
    """
    from hkcore.tiles import TILES, format_tiles

    return format_tiles([TILES[i] for i in range(34) if (mask >> i) & 1])


@dataclass(frozen=True)
class Pattern:
    """A faan pattern: a stable id, its names, and a detector.

    ``options`` maps each option a preset may set for this pattern to its
    default (a bool, int or str), or to a tuple of the allowed strings whose
    first is the default; the detector receives them all, defaults filled in.
    ``fallback`` patterns are shown only when no other pattern is met
    (the chicken hand).
    """

    id: str
    name_en: str
    name_zh: str
    detect: Detector
    scope: Scope = "hand"
    options: Mapping[str, Any] = field(default_factory=dict)
    fallback: bool = False
    doc: str = ""
    #: name of a detector compiled into hkcore's scoring kernel that behaves
    #: exactly like ``detect`` (reserved for hkcore's own patterns; tests hold
    #: the two equal). None: the kernel calls ``detect``.
    native: str | None = None
    #: the shape a reading must have for the pattern to be met (a plugin's
    #: shape id, say); a preset that scores the pattern without the shape in
    #: ``shapes`` is warned about (the pattern can never be met). None: any.
    shape: str | None = None


class Situation:
    """One reading of a hand with the winning tile placed, as detectors read it.

    Bitmask fields have bit i set for tile index i. ``shape`` is
    "standard", "thirteen_orphans", a plugin's shape id, or "bonus" for a
    bonus-tile instant win (no reading).
    """

    __slots__ = (
        "claimed_sets",
        "concealed_kongs",
        "concealed_pungs",
        "counts",
        "hand",
        "kinds",
        "kongs",
        "n_chows",
        "n_kongs",
        "n_pungs",
        "pair",
        "pungs",
        "reading",
        "round",
        "seat",
        "shape",
        "win",
        "win_set",
    )

    hand: Hand
    reading: tuple[int, ...]
    shape: str
    pair: int
    pungs: int
    kongs: int
    n_chows: int
    n_pungs: int
    n_kongs: int
    concealed_pungs: int
    concealed_kongs: int
    claimed_sets: int
    kinds: int
    win: int
    win_set: int
    seat: int
    round: int
    counts: tuple[int, ...]

    def only(self, mask: int) -> bool:
        """Every tile of the hand and its declared sets is of a kind in ``mask``."""
        return not self.kinds & ~mask

    def pungs_in(self, mask: int) -> int:
        """How many pungs and kongs of the reading are of kinds in ``mask``."""
        return (self.pungs & mask).bit_count()

    def __init__(self, hand: Hand, reading: tuple[int, ...], shape: str, win_set: int = -1) -> None:
        """Summarise ``reading`` of ``hand``; ``win_set`` is the set code the
        winning tile completes in this placement (-1: the pair or no set)."""
        self.hand = hand
        self.reading = reading
        self.shape = shape
        self.win = hand.win_index
        self.win_set = win_set
        self.seat = 27 + SEAT_NUMBER[hand.seat_wind] - 1
        self.round = 27 + SEAT_NUMBER[hand.round_wind] - 1
        self.counts = hand.counts
        kinds = 0
        for i, c in enumerate(hand.counts):
            if c:
                kinds |= 1 << i
        pungs = kongs = 0
        n_chows = n_pungs = n_kongs = concealed = concealed_kongs = claimed = 0
        melds = hand.melds
        n_concealed_sets = len(reading) - 1 - len(melds) if shape == "standard" else 0
        for code in reading[1:1 + n_concealed_sets] if shape == "standard" else ():
            kind, t = divmod(code, 34)
            if kind == 0:
                n_chows += 1
            else:
                n_pungs += 1
                pungs |= 1 << t
                if not (code == win_set and not hand.self_draw):
                    concealed += 1
        for m in melds:
            kind, t = divmod(m.code, 34)
            if kind == 0:
                n_chows += 1
                kinds |= 0b111 << t
            else:
                n_pungs += 1
                pungs |= 1 << t
                kinds |= 1 << t
                if kind == 2:
                    n_kongs += 1
                    kongs |= 1 << t
            if m.concealed:
                concealed += 1
                concealed_kongs += 1
            else:
                claimed += 1
        self.pair = reading[0] if reading and shape in ("standard", "thirteen_orphans") else -1
        self.pungs = pungs
        self.kongs = kongs
        self.n_chows = n_chows
        self.n_pungs = n_pungs
        self.n_kongs = n_kongs
        self.concealed_pungs = concealed
        self.concealed_kongs = concealed_kongs
        self.claimed_sets = claimed
        self.kinds = kinds
