"""A deliberately naive third reference for the decomposition core.

Independent of both ``_ccore`` and ``_pycore``: it reads no input format (it
takes 34 counts and a tuple of declared set codes directly), shares no code
or table with them, and does everything by plain recursion or exhaustive
search.  It is
slow on purpose; it is only meant to be obviously right.

Conventions (from the specification in ``hkcore.core._codes``): tile indices
0..33 (m, p, s numbered 9 each, then 7 honours); set code
``kind * 34 + lowest tile`` with kind 0 chow, 1 pung, 2 kong; the thirteen
orphans reading is ``(pair, 102)``.
"""
from __future__ import annotations

CHOW, PUNG, KONG = 0, 1, 2
ORPHANS = 102
ORPHAN_TILES = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def can_start_chow(t: int) -> bool:
    """A chow t, t+1, t+2 stays inside one numbered suit."""
    return t < 27 and t % 9 <= 6


def tiles_of_set(code: int) -> list[int]:
    kind, t = divmod(code, 34)
    if kind == CHOW:
        return [t, t + 1, t + 2]
    if kind == PUNG:
        return [t, t, t]
    return [t, t, t, t]


#: Every set a concealed hand can form: 21 chows, then 34 pungs.
CONCEALED_SETS = [CHOW * 34 + t for t in range(34) if can_start_chow(t)] + [PUNG * 34 + t for t in range(34)]
SET_TILES = [tiles_of_set(code) for code in CONCEALED_SETS]


def k_of(counts: list[int], codes: tuple[int, ...]) -> int:
    """Number of declared sets: given by the melds, else read from the tile count."""
    if codes:
        return len(codes)
    n = sum(counts)
    return (14 - n) // 3 if n % 3 == 2 else (13 - n) // 3


def limits(codes: tuple[int, ...]) -> list[int]:
    """How many copies of each tile the concealed part may hold beside the melds."""
    left = [4] * 34
    for code in codes:
        for t in tiles_of_set(code):
            left[t] -= 1
    return left


# --------------------------------------------------------------------------
# complete and readings: plain recursion on the lowest tile


def _splits(counts: list[int], sets_needed: int, have_pair: bool) -> list[tuple[int, list[int]]]:
    """Every way (pair, sets) to split ``counts`` exactly; duplicates included."""
    lowest = next((t for t in range(34) if counts[t] > 0), None)
    if lowest is None:
        return [(-1, [])] if sets_needed == 0 and have_pair else []
    t = lowest
    out: list[tuple[int, list[int]]] = []
    # the lowest tile is in the pair ...
    if not have_pair and counts[t] >= 2:
        counts[t] -= 2
        for _pair, sets in _splits(counts, sets_needed, True):
            out.append((t, sets))
        counts[t] += 2
    # ... or in a pung ...
    if sets_needed > 0 and counts[t] >= 3:
        counts[t] -= 3
        for pair, sets in _splits(counts, sets_needed - 1, have_pair):
            out.append((pair, [PUNG * 34 + t] + sets))
        counts[t] += 3
    # ... or it starts a chow.
    if sets_needed > 0 and can_start_chow(t) and counts[t + 1] > 0 and counts[t + 2] > 0:
        for j in (t, t + 1, t + 2):
            counts[j] -= 1
        for pair, sets in _splits(counts, sets_needed - 1, have_pair):
            out.append((pair, [CHOW * 34 + t] + sets))
        for j in (t, t + 1, t + 2):
            counts[j] += 1
    return out


def is_thirteen_orphans(counts: list[int]) -> bool:
    if sum(counts) != 14:
        return False
    if any(counts[t] == 0 for t in ORPHAN_TILES):
        return False
    return all(counts[t] == 0 for t in range(34) if t not in ORPHAN_TILES)


def readings(counts: list[int], codes: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """Every distinct reading of a 14 - 3k hand, sorted; [] when not complete."""
    k = k_of(counts, codes)
    assert sum(counts) == 14 - 3 * k
    found = set()
    for pair, sets in _splits(list(counts), 4 - k, False):
        found.add((pair,) + tuple(sorted(sets)) + tuple(codes))
    if k == 0 and is_thirteen_orphans(counts):
        pair = next(t for t in ORPHAN_TILES if counts[t] == 2)
        found.add((pair, ORPHANS))
    return sorted(found)


def is_complete(counts: list[int], codes: tuple[int, ...] = ()) -> bool:
    return len(readings(counts, codes)) > 0


def waits(counts: list[int], codes: tuple[int, ...] = ()) -> list[int]:
    """Indices of the tiles that complete a 13 - 3k hand and are still available."""
    left = limits(codes)
    out = []
    for t in range(34):
        if counts[t] < left[t]:
            more = list(counts)
            more[t] += 1
            if is_complete(more, codes):
                out.append(t)
    return out


# --------------------------------------------------------------------------
# tiles away: the definition, searched exhaustively up to a budget


def _fits(counts: list[int], codes: tuple[int, ...], budget: int) -> bool:
    """Is there a complete hand H (4 - k sets + pair, or thirteen orphans when
    k == 0), within the four-copy limit counting the melds, that needs at most
    ``budget`` tiles the hand does not hold (sum of max(0, H_t - counts_t))?"""
    k = k_of(counts, codes)
    left = limits(codes)
    if k == 0:
        missing = sum(1 for t in ORPHAN_TILES if counts[t] == 0)
        if missing + (0 if any(counts[t] >= 2 for t in ORPHAN_TILES) else 1) <= budget:
            return True
    target = [0] * 34  # H, built up one set at a time

    def search(sets_left: int, first: int, spent: int) -> bool:
        """Add sets_left more sets, each at or after index ``first`` of
        CONCEALED_SETS (so every multiset of sets is tried once)."""
        if sets_left == 0:
            return True
        for i in range(first, len(CONCEALED_SETS)):
            tiles = SET_TILES[i]
            cost = 0
            for t in tiles:
                target[t] += 1
                cost += target[t] > counts[t]  # a tile the hand lacks
            found = (
                spent + cost <= budget
                and all(target[t] <= left[t] for t in tiles)
                and search(sets_left - 1, i, spent + cost)
            )
            for t in tiles:
                target[t] -= 1
            if found:
                return True
        return False

    for pair in range(34):
        if left[pair] < 2:
            continue
        target[pair] = 2
        cost = max(0, 2 - counts[pair])
        found = cost <= budget and search(4 - k, 0, cost)
        target[pair] = 0
        if found:
            return True
    return False


def tiles_away(counts: list[int], codes: tuple[int, ...] = (), limit: int = 1) -> int | None:
    """tiles_away if it is at most ``limit``, else None (not decided)."""
    for budget in range(limit + 2):
        if _fits(counts, codes, budget):
            return budget - 1
    return None


def tiles_away_by_exchange(counts: list[int], codes: tuple[int, ...] = ()) -> int | None:
    """tiles_away if it is -1 or 0, else None: a second, independent route.

    -1: complete.  A 13 - 3k hand is 0 when some available tile completes it;
    a 14 - 3k hand is 0 when some discard leaves such a hand.
    """
    if sum(counts) % 3 == 2:
        if is_complete(counts, codes):
            return -1
        for t in range(34):
            if counts[t]:
                less = list(counts)
                less[t] -= 1
                if waits(less, codes):
                    return 0
        return None
    return 0 if waits(counts, codes) else None
