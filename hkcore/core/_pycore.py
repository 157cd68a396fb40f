"""The pure-Python decomposition core: the reference twin of ``_ccore``.

Written from the specification alone (it shares no table with the compiled
core); both must answer identically.  Input reading and every user-facing
check live in :mod:`hkcore.core._normalize`.

The hand is cut into four independent blocks: the three numbered suits
(9 tiles each, chows allowed) and the honours (7 tiles, pungs and pairs
only).  Each question is answered per block and the blocks are combined;
the per-block answers are memoized, so hands that share a suit share work.

* ``is_complete`` / ``waits``: a block *decomposes* when its tiles split
  exactly into sets plus one pair if its size is 2 mod 3 (no pair if 0 mod
  3; never when 1 mod 3).  A hand of 14 - 3k tiles is complete when every
  block decomposes and exactly one block holds the pair -- or, with no
  declared set, it is thirteen orphans.
* ``readings``: every decomposition of every block, by recursion on the
  lowest remaining tile (pair, pung, or chow starting there), then one
  choice per block with exactly one pair overall.
* ``tiles_away``: per block, a left-to-right DP over the tile positions
  whose state is the number of chows started one and two positions back;
  it gives, for m = 0..4 sets and p = 0/1 pair, the fewest tiles that must
  be added to the block's tiles to contain such a target, never using a
  tile more often than its cap (4 minus its copies in the declared sets).
  The four vectors are combined by min-plus convolution at (4 - k, 1).
"""
from __future__ import annotations

import sys
from functools import lru_cache
from typing import Any

from hkcore.core import _shapeset
from hkcore.core._codes import CHOW, FULL_SIZES, ORPHAN_TILES, ORPHANS, PUNG, WAIT_SIZES, copies_used
from hkcore.core._normalize import normalize
from hkcore.tiles import TILES, Tile

__all__ = ["IMPLEMENTATION", "is_complete", "readings", "tiles_away", "waits"]

IMPLEMENTATION = "python"

_INF = 1 << 20  # impossible (sums of _INF entries stay >= _INF)
# A cost vector has one entry per (sets m 0..4, pair p 0..1) at index 2*m + p.
_SLOTS = 10
_ZERO_VEC = (0,) + (_INF,) * (_SLOTS - 1)
# Blocks: (first tile index, length, chows allowed).
_BLOCKS = ((0, 9, True), (9, 9, True), (18, 9, True), (27, 7, False))
_CACHE = 1 << 17


# --------------------------------------------------------------------------
# input helpers

_SIZES = {"full": FULL_SIZES, "wait": WAIT_SIZES, "any": {**FULL_SIZES, **WAIT_SIZES}}


def _read(tiles: Any, melds: Any, need: str) -> tuple[list[int], tuple[int, ...], int]:
    """``normalize``, with a shortcut for its commonest valid input.

    A list or tuple of 34 plain ints 0..4 of an accepted size, without melds,
    is used as is (exactly what ``normalize`` would return for it); anything
    else goes through ``normalize``, which also raises every input error.
    """
    if ((melds is None or (type(melds) in (list, tuple) and not melds)) and type(tiles) in (list, tuple)
            and len(tiles) == 34 and set(map(type, tiles)) == {int} and min(tiles) >= 0 and max(tiles) <= 4):
        k = _SIZES[need].get(sum(tiles))
        if k is not None:
            return list(tiles), (), k
    return normalize(tiles, melds, need)


def _caps(codes: tuple[int, ...]) -> list[int]:
    """How many more copies of each tile a hand may hold beside the melds."""
    return [4 - u for u in copies_used(codes)]


def _split(seq: list[int]) -> list[tuple[int, ...]]:
    return [tuple(seq[start:start + size]) for start, size, _ in _BLOCKS]


def _is_orphans(counts: list[int]) -> bool:
    """Thirteen orphans: all 14 tiles are orphans, each orphan present."""
    return sum(counts) == 14 and all(counts[t] for t in ORPHAN_TILES) and sum(
        counts[t] for t in ORPHAN_TILES
    ) == 14


# --------------------------------------------------------------------------
# exact decomposition (is_complete, waits)

@lru_cache(maxsize=_CACHE)
def _decomposes(cs: tuple[int, ...], chows: bool) -> bool:
    """Do the tiles split exactly into sets (+ one pair when 2 mod 3)?"""
    n = sum(cs)
    if n == 0:
        return True
    if n % 3 == 1:
        return False
    i = 0
    while cs[i] == 0:
        i += 1
    c = cs[i]
    # The lowest tile is in the pair, a pung, or the chow starting there.
    if n % 3 == 2 and c >= 2 and _decomposes(cs[:i] + (c - 2,) + cs[i + 1:], chows):
        return True
    if c >= 3 and _decomposes(cs[:i] + (c - 3,) + cs[i + 1:], chows):
        return True
    if chows and i + 2 < len(cs) and cs[i + 1] and cs[i + 2]:
        return _decomposes(cs[:i] + (c - 1, cs[i + 1] - 1, cs[i + 2] - 1) + cs[i + 3:], chows)
    return False


def _standard_complete(counts: list[int]) -> bool:
    """Every block splits exactly and exactly one of them holds the pair."""
    pairs = 0
    for start, size, chows in _BLOCKS:
        block = tuple(counts[start:start + size])
        n = sum(block)
        if n % 3 == 1 or not _decomposes(block, chows):
            return False
        pairs += n % 3 == 2
    return pairs == 1


def _is_pairs(counts: list[int], pairs: int) -> bool:
    """Seven pairs: 14 tiles, seven pairs of distinct tiles (``pairs`` 2: a four of a kind counts as two)."""
    found = 0
    for c in counts:
        if c == 2 or (c == 4 and pairs == 2):
            found += c // 2
        elif c:
            return False
    return found == 7


def _complete_parts(counts: list[int], codes: tuple[int, ...], k: int, orphans: bool = True,
                    pairs: int = 0) -> bool:
    return _standard_complete(counts) or (k == 0 and ((orphans and _is_orphans(counts))
                                                      or (pairs > 0 and _is_pairs(counts, pairs))))


def is_complete(tiles: Any, melds: Any = (), shapes: Any = None) -> bool:
    """True iff the 14 - 3k concealed tiles form 4 - k sets and a pair (or thirteen orphans).

    ``shapes``: None for these two shapes, else a ShapeSet (see
    hkcore.core._shapeset; ``hkcore.is_complete`` also takes shape ids or a preset).
    """
    if shapes is not None:
        return _shapeset.is_complete(_THIS, tiles, melds, shapes)
    counts, codes, k = _read(tiles, melds, "full")
    return _complete_parts(counts, codes, k)


def waits(tiles: Any, melds: Any = (), shapes: Any = None) -> list[Tile]:
    """The tiles that complete these 13 - 3k tiles and are still available, ascending."""
    if shapes is not None:
        return _shapeset.waits(_THIS, tiles, melds, shapes)
    counts, codes, k = _read(tiles, melds, "wait")
    return [TILES[t] for t in _waits_parts(counts, codes, k)]


def _waits_parts(counts: list[int], codes: tuple[int, ...], k: int, orphans: bool = True) -> list[int]:
    caps = _caps(codes)
    blocks = _split(counts)
    sizes = [sum(b) for b in blocks]
    ok = [n % 3 != 1 and _decomposes(b, chows) for b, n, (_, _, chows) in zip(blocks, sizes, _BLOCKS)]
    found: set[int] = set()
    for bi, (start, size, chows) in enumerate(_BLOCKS):
        # the new tile goes into block bi: every other block must already split
        if not all(ok[j] for j in range(4) if j != bi):
            continue
        other_pairs = sum(1 for j in range(4) if j != bi and sizes[j] % 3 == 2)
        n = sizes[bi] + 1
        if n % 3 == 1 or other_pairs + (n % 3 == 2) != 1:
            continue
        block = list(blocks[bi])
        for pos in range(size):
            t = start + pos
            if counts[t] >= caps[t]:
                continue
            block[pos] += 1
            if _decomposes(tuple(block), chows):
                found.add(t)
            block[pos] -= 1
    if orphans and k == 0 and sum(counts[t] for t in ORPHAN_TILES) == 13:
        # 13 orphan tiles: one each waits on all 13, a duplicate on the missing one
        missing = [t for t in ORPHAN_TILES if counts[t] == 0]
        if len(missing) <= 1:
            found.update(missing or ORPHAN_TILES)
    return sorted(found)


# --------------------------------------------------------------------------
# readings

@lru_cache(maxsize=_CACHE)
def _block_readings(cs: tuple[int, ...], chows: bool) -> frozenset[tuple[int, tuple[int, ...]]]:
    """Every (pair position or -1, sorted local set codes) splitting ``cs`` exactly.

    Local set codes use the block position as the tile: ``kind * 34 + pos``.
    """
    n = sum(cs)
    if n == 0:
        return frozenset({(-1, ())})
    if n % 3 == 1:
        return frozenset()
    i = 0
    while cs[i] == 0:
        i += 1
    c = cs[i]
    found: set[tuple[int, tuple[int, ...]]] = set()
    if n % 3 == 2 and c >= 2:
        for _pair, sets in _block_readings(cs[:i] + (c - 2,) + cs[i + 1:], chows):
            found.add((i, sets))
    if c >= 3:
        code = PUNG * 34 + i
        for pair, sets in _block_readings(cs[:i] + (c - 3,) + cs[i + 1:], chows):
            found.add((pair, tuple(sorted(sets + (code,)))))
    if chows and i + 2 < len(cs) and cs[i + 1] and cs[i + 2]:
        code = CHOW * 34 + i
        rest = cs[:i] + (c - 1, cs[i + 1] - 1, cs[i + 2] - 1) + cs[i + 3:]
        for pair, sets in _block_readings(rest, chows):
            found.add((pair, tuple(sorted(sets + (code,)))))
    return frozenset(found)


def readings(tiles: Any, melds: Any = (), shapes: Any = None) -> list[tuple[int, ...]]:
    """Every distinct reading ``(pair, concealed sets ascending..., declared sets...)``, sorted."""
    if shapes is not None:
        return _shapeset.readings(_THIS, tiles, melds, shapes)
    counts, codes, k = _read(tiles, melds, "full")
    return _readings_parts(counts, codes, k)


def _readings_parts(counts: list[int], codes: tuple[int, ...], k: int, orphans: bool = True) -> list[tuple[int, ...]]:
    result: set[tuple[int, ...]] = set()
    if orphans and k == 0 and _is_orphans(counts):
        pair = next(t for t in ORPHAN_TILES if counts[t] == 2)
        result.add((pair, ORPHANS))
    if not _standard_complete(counts):
        return sorted(result)
    # partial: list of (pair or -1, global set codes)
    partial: list[tuple[int, tuple[int, ...]]] = [(-1, ())]
    for start, size, chows in _BLOCKS:
        block = _block_readings(tuple(counts[start:start + size]), chows)
        if not block:
            partial = []
            break
        merged = []
        for pair, sets in partial:
            for bpair, bsets in block:
                if bpair >= 0:
                    if pair >= 0:
                        continue
                    new_pair = start + bpair
                else:
                    new_pair = pair
                merged.append((new_pair, sets + tuple(code + start for code in bsets)))
        partial = merged
    result.update((pair,) + tuple(sorted(sets)) + codes for pair, sets in partial if pair >= 0)
    return sorted(result)


# --------------------------------------------------------------------------
# tiles away

def _moves(dm: int, r: int) -> tuple[tuple[int, int], ...]:
    """(from, to) slot pairs that add dm sets and r pairs to a cost vector."""
    return tuple(
        (2 * m + p, 2 * (m + dm) + p + r) for m in range(5 - dm) for p in range(2 - r)
    )


# _OPTIONS[z]: with z chows started at a position, the choices of a pung q
# and a pair r there, as (tiles used there beside pending chows, slot moves),
# by tiles used.
_OPTIONS = tuple(
    tuple(sorted(
        ((z + 3 * q + 2 * r, _moves(z + q, r)) for q in (0, 1) for r in (0, 1) if z + q <= 4),
        key=lambda option: option[0],
    ))
    for z in range(5)
)
_HONOUR_OPTIONS = ((0, _moves(0, 0)), (2, _moves(0, 1)), (3, _moves(1, 0)))


@lru_cache(maxsize=_CACHE)
def _suit_cost(x: int, y: int, cs: tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, ...]:
    """Cost vector of the positions ``cs`` of a numbered suit.

    ``x`` chows started two positions back (they need one tile here), ``y``
    one position back (they need a tile here and at the next position).
    Entry ``2*m + p``: fewest tiles to add so that these positions hold the
    rest of those chows plus m more sets and p pairs, every position within
    its cap; _INF when impossible.
    """
    if not cs:
        return _ZERO_VEC  # x == y == 0: a chow is only started with room for it
    c, cap = cs[0], caps[0]
    base = x + y  # <= cap: the caller starts no chow it has no room for
    best = [_INF] * _SLOTS
    rest_c, rest_caps = cs[1:], caps[1:]
    # z chows start here; each needs a copy here and at the next two positions
    top = min(cap - base, caps[1] - y, caps[2]) if len(cs) >= 3 else 0
    for z in range(top + 1):
        sub = _suit_cost(y, z, rest_c, rest_caps)
        for used, moves in _OPTIONS[z]:
            h = base + used
            if h > cap:
                break
            add = h - c if h > c else 0
            for src, dst in moves:
                v = sub[src] + add
                if v < best[dst]:
                    best[dst] = v
    return tuple(best)


@lru_cache(maxsize=_CACHE)
def _honour_cost(cs: tuple[int, ...], caps: tuple[int, ...]) -> tuple[int, ...]:
    """Cost vector of honour positions: each holds nothing, a pair or a pung."""
    if not cs:
        return _ZERO_VEC
    c, cap = cs[0], caps[0]
    sub = _honour_cost(cs[1:], caps[1:])
    best = [_INF] * _SLOTS
    for h, moves in _HONOUR_OPTIONS:
        if h > cap:
            break
        add = h - c if h > c else 0
        for src, dst in moves:
            v = sub[src] + add
            if v < best[dst]:
                best[dst] = v
    return tuple(best)


# (slot of a, slot of b, slot of the sum) for every pair that stays within
# 4 sets and 1 pair.
_SUMS = tuple(
    (i, j, i + j)
    for i in range(_SLOTS)
    for j in range(_SLOTS)
    if i // 2 + j // 2 <= 4 and i % 2 + j % 2 <= 1
)


@lru_cache(maxsize=1 << 12)
def _convolve(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Min-plus convolution of two cost vectors."""
    out = [_INF] * _SLOTS
    for i, j, s in _SUMS:
        v = a[i] + b[j]
        if v < out[s]:
            out[s] = v
    return tuple(out)


def _standard_cost(counts: list[int], caps: list[int], k: int) -> int:
    vecs = []
    for start, size, chows in _BLOCKS:
        cs = tuple(counts[start:start + size])
        cp = tuple(caps[start:start + size])
        vecs.append(_suit_cost(0, 0, cs, cp) if chows else _honour_cost(cs, cp))
    left = _convolve(vecs[0], vecs[1])
    right = _convolve(vecs[2], vecs[3])
    target = 2 * (4 - k) + 1
    return min(left[i] + right[target - i] for i in range(target + 1))


def _orphans_cost(counts: list[int]) -> int:
    missing = sum(1 for t in ORPHAN_TILES if counts[t] == 0)
    has_pair = any(counts[t] >= 2 for t in ORPHAN_TILES)
    return missing + (0 if has_pair else 1)


def tiles_away(tiles: Any, melds: Any = (), shapes: Any = None) -> int:
    """Fewest tiles to draw, minus one: -1 complete, 0 waiting (four-copy limit respected)."""
    if shapes is not None:
        return _shapeset.tiles_away(_THIS, tiles, melds, shapes)
    counts, codes, k = _read(tiles, melds, "any")
    return _away_parts(counts, codes, k)


def _pairs_cost(counts: list[int], caps: list[int], pairs: int) -> int:
    """Tiles to draw for seven pairs: the seven cheapest pair slots, a kind
    with two copies or more left offering one at max(0, 2 - c) and (``pairs``
    2, four copies left) a second at 4 - max(c, 2); _INF with fewer than seven."""
    slots = []
    for c, cap in zip(counts, caps):
        if cap >= 2:
            slots.append(max(0, 2 - c))
            if pairs == 2 and cap >= 4:
                slots.append(4 - max(c, 2))
    return sum(sorted(slots)[:7]) if len(slots) >= 7 else _INF


def _away_parts(counts: list[int], codes: tuple[int, ...], k: int, orphans: bool = True, pairs: int = 0) -> int:
    """Tiles away by the standard shape, thirteen orphans with ``orphans``
    and seven pairs with ``pairs`` (0: off; 1: on; 2: a four of a kind
    counting as two pairs)."""
    caps = _caps(codes)
    cost = _standard_cost(counts, caps, k)
    if orphans and k == 0:
        cost = min(cost, _orphans_cost(counts))
    if pairs and k == 0:
        cost = min(cost, _pairs_cost(counts, caps, pairs))
    return cost - 1


_THIS = sys.modules[__name__]


def bind_shapes(resolve: Any) -> tuple[Any, ...]:
    """is_complete, readings, tiles_away and waits with ``shapes=`` turned
    into a ShapeSet by ``resolve`` (shape ids or a preset, say)."""
    return _shapeset.bind(_THIS, resolve)
