"""The tiles of a hand: the set a preset plays, a seeded shuffle, the deal,
and a wall given explicitly (docs/table.md, "The wall and the deal").

Tiles are indices into ``hkcore.TILES``: 0..33 the tiles of a hand in
canonical order, 34..41 the bonus tiles ``1f``..``4f``, ``1g``..``4g``.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.tiles import TILES, parse_tiles

#: seats in turn order within a hand; the dealer is E
SEATS = ("E", "S", "W", "N")
#: the first bonus tile's index (1f); flowers 34..37, seasons 38..41
BONUS = 34
#: the codes of the tiles, by index
CODES = tuple(t.code for t in TILES)


_SET_136 = tuple(i for i in range(34) for _ in range(4))
_SET_144 = (*_SET_136, *range(BONUS, BONUS + 8))


def tile_set(bonus_tiles: bool) -> list[int]:
    """The set a preset plays, in canonical order: four of each of the 34
    tiles of a hand, then (144 tiles) one of each bonus tile."""
    return list(_SET_144 if bonus_tiles else _SET_136)


def shuffle(tiles: list[int], rng: random.Random) -> list[int]:
    """``tiles`` shuffled in place by Fisher-Yates on ``rng.random()`` (for i
    from n - 1 down to 1, swap i with j = floor(random() * (i + 1))), which
    Python keeps the same across versions; returns ``tiles``."""
    rand = rng.random
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


def seeded_shuffle(tiles: list[int], seed: int) -> list[int]:
    """``shuffle(tiles, random.Random(seed))``: the shuffle of a seeded deal (``seed`` a whole number >= 0)."""
    if type(seed) is not int or seed < 0:
        raise TableError(f"seed = {shown(seed)}: a whole number, 0 or more", "seed", seed)
    return shuffle(tiles, random.Random(seed))


def deal(shuffled: Sequence[int]) -> tuple[list[list[int]], list[int]]:
    """The four hands dealt from the front of ``shuffled`` (E, S, W, N take 4
    at a time until each holds 12, then 1 each, then 1 more to E) and the
    rest, the wall in draw order."""
    hands: list[list[int]] = [[], [], [], []]
    pos = 0
    for _ in range(3):
        for seat in range(4):
            hands[seat].extend(shuffled[pos:pos + 4])
            pos += 4
    for seat in range(4):
        hands[seat].append(shuffled[pos])
        pos += 1
    hands[0].append(shuffled[pos])
    pos += 1
    return hands, list(shuffled[pos:])


def codes(tiles: Sequence[int]) -> str:
    """Tiles written one code each, in the order given (``live`` and ``dead``)."""
    return "".join([CODES[i] for i in tiles])


def canonical(tiles: Sequence[int]) -> str:
    """Tiles in canonical notation (sorted, grouped by suit: ``123m55z``)."""
    out: list[str] = []
    suit = ""
    for i in sorted(tiles):
        t = TILES[i]
        if t.suit != suit:
            if suit:
                out.append(suit)
            suit = t.suit
        out.append(str(t.number))
    if suit:
        out.append(suit)
    return "".join(out)


def one_by_one(text: str) -> list[int]:
    """``live``/``dead`` text read tile by tile in the order written
    (``123m`` = 1m, 2m, 3m), never sorted."""
    return [t.index for t in parse_tiles(text)]


def legal_text(actions: list[dict[str, Any]]) -> str:
    """The kinds of action a prompt lists, in its order: ``pass, win``."""
    return ", ".join(dict.fromkeys(a["act"] for a in actions))


def discard_refused(seat: str, tile: Any, held: bool, actions: list[dict[str, Any]]) -> str:
    """Why ``seat`` may not discard ``tile`` (it holds none, it is no tile, or
    the swap rule keeps it), and the tiles it may discard: the engines' one
    wording of it."""
    may = " ".join(dict.fromkeys(a["tile"] for a in actions if a["act"] == "discard"))
    if held:
        why = f"{seat} holds {tile} but may not discard it now (the swap rule)"
    elif isinstance(tile, str) and tile in CODES:
        why = f"{seat} holds no {tile}"
    else:
        why = "not a tile"
    return f"tile = {shown(tile)}: {why}; {seat} may discard {may}"
