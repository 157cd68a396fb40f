"""The efficiency bot's arithmetic over 34 counts: the pure-Python twin of
``hkcore/table/players/_cbots.pyx`` (tests hold the two equal).

``melds`` are set codes (``hkcore.core.meld_code``); ``unseen`` the copies
of each tile a seat has not seen. Tiles away are counted with the standard
shape and thirteen orphans, whatever the preset.
"""
from __future__ import annotations

from hkcore import core
from hkcore.table.flow.codes import ADDED, CHOW, CONCEALED, DISCARD, EXPOSED, PUNG, WIN
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


#: the set codes' kinds (``hkcore.core.meld_code``)
_CHOW_SET, _PUNG_SET, _KONG_SET = core.CHOW, core.PUNG, core.KONG


def choice(counts: list[int], melds: tuple[int, ...], unseen: list[int], codes: list[int], tiles: list[int],
           offered: int) -> int:
    """The efficiency bot's choice among a prompt's actions, given as the
    engine's codes and tiles (``offered``: the tile on offer in a claim
    window), for concealed ``counts`` beside ``melds`` (set codes) with
    ``unseen`` copies: what ``hkcore.table.players.bots.EfficiencyBot`` decides.
    Always a win when one is offered; the best discard, or a kong of one's
    own that leaves the hand no further; a claim only when it brings the
    hand nearer."""
    for k, code in enumerate(codes):
        if code == WIN:
            return k
    if len(codes) == 1:
        return 0
    choices = [tiles[k] for k, code in enumerate(codes) if code == DISCARD]
    if choices:
        low, gain_, best = best_discard(counts, melds, unseen, choices)
        for k, code in enumerate(codes):
            i = tiles[k]
            if code == CONCEALED:
                after_counts = list(counts)
                after_counts[i] -= 4
                after_melds = (*melds, _KONG_SET * 34 + i)
            elif code == ADDED:
                after_counts = list(counts)
                after_counts[i] -= 1
                after_melds = tuple(_KONG_SET * 34 + i if m == _PUNG_SET * 34 + i else m for m in melds)
            else:
                continue
            after = away(after_counts, after_melds)
            if after < low or (after == low and gain(after_counts, after_melds, unseen, after) >= -gain_):
                return k
        return next(k for k, code in enumerate(codes) if code == DISCARD and tiles[k] == best)
    now = away(counts, melds)
    best_key: tuple[int, int] | None = None
    chosen = 0
    for k, code in enumerate(codes):
        i = tiles[k]
        after_counts = list(counts)
        after_counts[offered] += 1
        if code in (EXPOSED, PUNG):
            after_counts[i] -= 4 if code == EXPOSED else 3
            after_melds = (*melds, (_KONG_SET if code == EXPOSED else _PUNG_SET) * 34 + i)
        elif code == CHOW:
            for j in (i, i + 1, i + 2):
                after_counts[j] -= 1
            after_melds = (*melds, _CHOW_SET * 34 + i)
        else:
            continue
        if code == EXPOSED:
            a = away(after_counts, after_melds)
            key = (a, -gain(after_counts, after_melds, unseen, a))
        else:
            a, b, _ = best_discard(after_counts, after_melds, unseen, [j for j in range(34) if after_counts[j]])
            key = (a, b)
        if a < now and (best_key is None or key < best_key):
            best_key, chosen = key, k
    return chosen
