"""The efficiency bot's arithmetic over 34 counts: the pure-Python twin of
``hkcore/table/_cbots.pyx`` (tests hold the two equal).

``melds`` are set codes (``hkcore.core.meld_code``); ``unseen`` the copies
of each tile a seat has not seen. Tiles away are counted with the standard
shape and thirteen orphans, whatever the preset.
"""
from __future__ import annotations

from hkcore import core
from hkcore.tiles import parse_tiles

IMPLEMENTATION = "python"

#: the terminals and honours: a tile that may complete thirteen orphans
_ORPHANS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))


def add_counts(text: str, counts: list[int]) -> None:
    """Add the tiles written in ``text`` (the notation) to the 34 ``counts``."""
    for t in parse_tiles(text):
        counts[t.index] += 1


def away(counts: list[int], melds: tuple[int, ...]) -> int:
    """Tiles away of concealed ``counts`` beside the declared sets ``melds``."""
    return core.tiles_away_of_counts(counts, melds, len(melds))


def near(counts: list[int]) -> list[int]:
    """The tiles that can bring ``counts`` nearer to a hand: those held or
    within two in a suit of one held (a set or a pair takes them), and the
    orphans (thirteen orphans takes any). No other tile can."""
    out = []
    for i in range(34):
        if counts[i] or i in _ORPHANS:
            out.append(i)
        elif i < 27:
            low, high = i - i % 9, i - i % 9 + 8
            if any(counts[j] for j in range(max(low, i - 2), min(high, i + 2) + 1)):
                out.append(i)
    return out


def gain(counts: list[int], melds: tuple[int, ...], unseen: list[int], now: int) -> int:
    """Unseen tiles that would bring ``counts`` (13 - 3k tiles, ``now`` tiles
    away) nearer: for a waiting hand, the unseen copies of its waits."""
    total = 0
    for i in near(counts):
        if unseen[i] and counts[i] < 4:
            counts[i] += 1
            if away(counts, melds) < now:
                total += unseen[i]
            counts[i] -= 1
    return total


def best_discard(counts: list[int], melds: tuple[int, ...], unseen: list[int],
                 choices: list[int]) -> tuple[int, int, int]:
    """(tiles away, -gain, tile) of the best of ``choices`` to discard from
    ``counts``: fewest tiles away, then most unseen tiles that bring the
    hand nearer, then the lowest tile."""
    best: tuple[int, int, int] | None = None
    scored = []
    for i in sorted(set(choices)):
        counts[i] -= 1
        scored.append((away(counts, melds), i))
        counts[i] += 1
    low = min(a for a, _ in scored)
    for a, i in scored:
        if a != low:
            continue
        counts[i] -= 1
        key = (a, -gain(counts, melds, unseen, a), i)
        counts[i] += 1
        if best is None or key < best:
            best = key
    assert best is not None
    return best
