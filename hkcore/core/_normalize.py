"""Turns the many accepted forms of a hand into 34 counts and set codes.

Shared by both core implementations: it holds no decomposition logic, only
input reading and the checks whose errors a user sees.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from numbers import Integral
from typing import Any

from hkcore.core._codes import CHOW, FULL_SIZES, KONG, PUNG, WAIT_SIZES, copies_used
from hkcore.errors import HandError, TileError, shown
from hkcore.tiles import Tile, format_tiles, parse_tiles, tile

NEEDS = {
    "full": (FULL_SIZES, "14 - 3k"),
    "wait": (WAIT_SIZES, "13 - 3k"),
    "any": ({**FULL_SIZES, **WAIT_SIZES}, "14 - 3k or 13 - 3k"),
}
_KIND_NAMES = {"chow": CHOW, "pung": PUNG, "kong": KONG}


def counts_of(tiles: Any, field: str = "tiles") -> list[int]:
    """34 counts from a notation string, an iterable of tiles or codes, or 34 counts."""
    if isinstance(tiles, str):
        try:
            found = parse_tiles(tiles)
        except TileError as exc:
            raise HandError(f"{field}: {exc}", field, tiles) from None
    elif isinstance(tiles, (bytes, bytearray, memoryview)):
        if len(tiles) != 34:
            raise HandError(f"{field}: bytes must hold 34 counts, got {len(tiles)}", field, bytes(tiles[:40]))
        return _checked_counts(list(tiles), field)
    else:
        try:
            items = list(islice(tiles, MAX_ITEMS + 1))
        except TypeError:
            raise HandError(f"{field}: expected tile text, tiles or 34 counts, got {shown(tiles)} "
                            f"({type(tiles).__name__})", field, tiles) from None
        if len(items) > MAX_ITEMS:
            raise HandError(f"{field}: more than {MAX_ITEMS} items; a hand has at most 18 tiles or 34 counts",
                            field, tiles)
        if len(items) == 34 and all(_is_int(x) for x in items):
            return _checked_counts([int(x) for x in items], field)
        found = []
        for pos, item in enumerate(items):
            if _is_int(item):
                raise HandError(
                    f"{field}[{pos}]: {shown(item)} is an int; give tiles as codes ('5z'), "
                    "Tile objects, or exactly 34 counts",
                    f"{field}.{pos}", item,
                )
            try:
                found.append(tile(item))
            except TileError as exc:
                raise HandError(f"{field}[{pos}]: {exc}", f"{field}.{pos}", item) from None
    counts = [0] * 34
    for t in found:
        if t.index >= 34:
            raise HandError(
                f"{field}: bonus tile {t} is not a tile of the hand (give it as flowers/seasons)",
                field, str(t),
            )
        counts[t.index] += 1
    return _checked_counts(counts, field)


#: the most tiles (or counts) read from an iterable
MAX_ITEMS = 64


def _is_int(x: Any) -> bool:
    """An integer of any type (int, numpy's...) but not a bool or a Tile."""
    return isinstance(x, Integral) and not isinstance(x, (bool, Tile))


def _checked_counts(counts: list[int], field: str) -> list[int]:
    for i, c in enumerate(counts):
        if isinstance(c, int) and not isinstance(c, bool) and c > 4:
            raise HandError(f"{field}: {shown(c)} copies of {tile(i)} (at most 4)", field, str(tile(i)))
        if not isinstance(c, int) or isinstance(c, bool) or c < 0:
            raise HandError(f"{field}: count {shown(c)} for {tile(i)} is not 0..4", field, c)
    return counts


def meld_code(spec: Any, field: str = "melds") -> int:
    """The set code of one declared set.

    ``spec`` is a set code (int), a tile string or iterable of tiles ("123m",
    "555z", "1111m"), or an object with ``kind`` and ``tiles`` (a ``Meld``).
    """
    if _is_int(spec):
        if not 0 <= spec < 3 * 34 or (spec < 34 and (spec >= 27 or spec % 9 > 6)):
            raise HandError(f"{field}: {shown(spec)} is not a set code", field, spec)
        return int(spec)
    kind_name = getattr(spec, "kind", None)
    raw = getattr(spec, "tiles", spec)
    try:
        ts = parse_tiles(raw) if isinstance(raw, str) else [tile(x) for x in islice(raw, 5)]
    except TileError as exc:
        raise HandError(f"{field}: {exc}", field, raw) from None
    except TypeError:
        raise HandError(f"{field}: {shown(spec)} is not a set", field, spec) from None
    idx = sorted(t.index for t in ts)
    if len(idx) == 3 and idx[0] == idx[2] < 34:
        code = PUNG * 34 + idx[0]
    elif len(idx) == 4 and idx[0] == idx[3] < 34:
        code = KONG * 34 + idx[0]
    elif len(idx) == 3 and idx[0] < 27 and idx[0] % 9 <= 6 and idx == [idx[0], idx[0] + 1, idx[0] + 2]:
        code = CHOW * 34 + idx[0]
    else:
        code = -1
    if code >= 0 and (kind_name is None or _KIND_NAMES.get(str(kind_name)) == code // 34):
        return code
    text = format_tiles(ts) if ts else "(nothing)"
    if any(i >= 34 for i in idx):
        raise HandError(f"{field}: {text} holds a bonus tile", field, text)
    if len(idx) == 3 and idx[0] == idx[1] == idx[2]:
        code = PUNG * 34 + idx[0]
    elif len(idx) == 4 and idx[0] == idx[3]:
        code = KONG * 34 + idx[0]
    elif len(idx) == 3 and idx[0] < 27 and idx[0] % 9 <= 6 and idx == [idx[0], idx[0] + 1, idx[0] + 2]:
        code = CHOW * 34 + idx[0]
    else:
        if len(idx) == 3 and idx[0] >= 27 and len(set(idx)) == 3:
            raise HandError(f"{field}: {text} is a chow of honours; honours make no runs", field, text)
        raise HandError(f"{field}: {text} is not a chow, pung or kong", field, text)
    if kind_name is not None and _KIND_NAMES.get(str(kind_name)) != code // 34:
        raise HandError(f"{field}: kind {shown(kind_name)} does not match tiles {text}", field, kind_name)
    return code


def normalize(tiles: Any, melds: Iterable[Any] = (), need: str = "any") -> tuple[list[int], tuple[int, ...], int]:
    """(34 counts, declared set codes, k) for a hand, after every count check.

    ``need`` is "full" (14 - 3k tiles), "wait" (13 - 3k) or "any". Without
    melds, k is read from the tile count; with melds, k is their number.
    """
    counts = counts_of(tiles)
    if melds is None or isinstance(melds, (str, bytes)):
        given: list[Any] = [] if not melds else [melds]
        if given:
            raise HandError(f"melds: expected a list of declared sets, got {shown(melds)}", "melds", melds)
    else:
        try:
            given = list(islice(melds, 5))
        except TypeError:
            raise HandError(f"melds: expected a list of declared sets, got {shown(melds)}", "melds",
                            melds) from None
    codes = tuple(meld_code(m, f"melds[{i}]") for i, m in enumerate(given))
    return counts, codes, check_size(counts, codes, need)


def check_size(counts: list[int], codes: tuple[int, ...], need: str) -> int:
    """k for these counts and melds; raises HandError naming the bad count."""
    sizes, wanted = NEEDS[need]
    n = sum(counts)
    if codes:
        k = len(codes)
        if k > 4:
            raise HandError(f"melds: {k} declared sets; a hand has at most 4", "melds", k)
        if sizes.get(n) != k:
            raise HandError(
                f"tiles: {n} concealed tiles with {k} declared sets; expected {wanted} = "
                + " or ".join(str(s) for s, kk in sorted(sizes.items(), reverse=True) if kk == k),
                "tiles", n,
            )
        used = copies_used(codes, counts)
        for i, u in enumerate(used):
            if u > 4:
                raise HandError(
                    f"tiles: {u} copies of {tile(i)} counting the melds (at most 4)", "tiles", str(tile(i))
                )
        return k
    if n not in sizes:
        raise HandError(
            f"tiles: {n} concealed tiles; expected {wanted} (k declared sets): "
            + ", ".join(str(s) for s in sorted(sizes, reverse=True)),
            "tiles", n,
        )
    return sizes[n]
