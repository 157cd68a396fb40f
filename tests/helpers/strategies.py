"""Hypothesis strategies for valid hands (RULES.md "A hand as data")."""
from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from hkcore import core
from hkcore.plugins.seven_pairs import SHAPE as SEVEN_PAIRS_SHAPE
from hkcore.preset import builtin_ids, load_preset
from hkcore.table.flow import codes as _pyengine
from hkcore.table.players import _pyvalue

SEATS = ("E", "S", "W", "N")
SUFFIX = "mpsz"


def code(t: int) -> str:
    return f"{t % 9 + 1}{SUFFIX[t // 9]}"


def text(tiles: list[int]) -> str:
    return "".join(code(t) for t in sorted(tiles))


# tile pools: everything, one suit with honours (flushes, honour hands), orphans
POOLS = (
    list(range(34)),
    list(range(9)) + list(range(27, 34)),
    list(range(18, 27)),
    [0, 8, 9, 17, 18, 26] + list(range(27, 34)),
    list(range(27, 34)),
)


@st.composite
def complete_hands(draw: st.DrawFn, bonus: bool = True) -> dict[str, Any]:
    """A valid complete hand with a random, consistent context."""
    pool = draw(st.sampled_from(POOLS))
    used = [0] * 34
    sets: list[tuple[str, int]] = []
    for _ in range(200):
        if len(sets) == 4:
            break
        t = draw(st.sampled_from(pool))
        kind = draw(st.sampled_from(["chow", "pung", "pung"] if t < 27 else ["pung"]))
        if kind == "chow":
            if t % 9 > 6 or any(used[t + i] >= 4 for i in range(3)):
                continue
            for i in range(3):
                used[t + i] += 1
        else:
            if used[t] > 1:
                continue
            used[t] += 3
        sets.append((kind, t))
    if len(sets) < 4:
        sets = [("pung", 0), ("pung", 9), ("pung", 18), ("pung", 27)]
        used = [0] * 34
        for _, t in sets:
            used[t] += 3
    pair_choices = [t for t in pool if used[t] <= 2] or [t for t in range(34) if used[t] <= 2]
    pair = draw(st.sampled_from(pair_choices))
    used[pair] += 2
    seat = draw(st.sampled_from(SEATS))
    before = SEATS[SEATS.index(seat) - 1]
    others = [s for s in SEATS if s != seat]
    k = draw(st.integers(0, 4))
    melds = []
    concealed = [pair, pair]
    for i, (kind, t) in enumerate(sets):
        if i < k:
            if kind == "chow":
                frm = draw(st.sampled_from([None, before]))
                m = {"kind": "chow", "tiles": text([t, t + 1, t + 2])}
            else:
                make_kong = used[t] < 4 and draw(st.booleans())
                if make_kong:
                    used[t] += 1
                    hidden = draw(st.booleans())
                    m = {"kind": "kong", "tiles": text([t] * 4)}
                    if hidden:
                        m["concealed"] = True
                    frm = None if hidden else draw(st.sampled_from([None, *others]))
                else:
                    m = {"kind": "pung", "tiles": text([t] * 3)}
                    frm = draw(st.sampled_from([None, *others]))
            if frm is not None:
                m["from"] = frm
            melds.append(m)
        else:
            concealed += [t, t + 1, t + 2] if kind == "chow" else [t] * 3
    win = draw(st.sampled_from(concealed))
    return _context(draw, concealed, melds, win, seat, bonus)


@st.composite
def orphan_hands(draw: st.DrawFn, bonus: bool = True) -> dict[str, Any]:
    orphans = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33]
    tiles = orphans + [draw(st.sampled_from(orphans))]
    seat = draw(st.sampled_from(SEATS))
    return _context(draw, tiles, [], draw(st.sampled_from(tiles)), seat, bonus)


@st.composite
def any_hands(draw: st.DrawFn, bonus: bool = True) -> dict[str, Any]:
    """Random 14 tiles (rarely complete)."""
    wall = [t for t in range(34) for _ in range(4)]
    tiles = draw(st.lists(st.sampled_from(range(len(wall))), min_size=14, max_size=14, unique=True))
    tiles = [wall[i] for i in tiles]
    seat = draw(st.sampled_from(SEATS))
    return _context(draw, tiles, [], draw(st.sampled_from(tiles)), seat, bonus)


def _context(draw: st.DrawFn, concealed: list[int], melds: list[dict[str, Any]], win: int, seat: str,
             bonus: bool) -> dict[str, Any]:
    others = [s for s in SEATS if s != seat]
    claimed = any(not m.get("concealed") for m in melds)
    has_kong = any(m["kind"] == "kong" for m in melds)
    self_draw = draw(st.booleans())
    hand: dict[str, Any] = {
        "tiles": text(concealed), "melds": melds, "win_tile": code(win), "self_draw": self_draw,
        "seat_wind": seat, "round_wind": draw(st.sampled_from(SEATS)),
    }
    if bonus:
        hand["flowers"] = draw(st.lists(st.integers(1, 4), unique=True, max_size=4))
        hand["seasons"] = draw(st.lists(st.integers(1, 4), unique=True, max_size=4))
    kongs = sum(m["kind"] == "kong" for m in melds)
    if self_draw:
        # the first turn has no replacement draw and no last tile (RULES.md: a context that cannot happen)
        if has_kong and draw(st.integers(0, 3)) == 0:
            hand["kong_replacement"] = draw(st.sampled_from([1, 2][:kongs]))
        elif draw(st.integers(0, 5)) == 0:
            hand["last_tile"] = True
        elif not claimed and draw(st.integers(0, 5)) == 0:
            hand["first_turn"] = "deal" if seat == "E" else "first_draw"
    else:
        hand["discarder"] = draw(st.sampled_from([None, *others]))
        choice = draw(st.integers(0, 7))
        in_melds = sum(m["tiles"].count(code(win)) for m in melds)
        if choice == 0 and concealed.count(win) + in_melds == 1:
            hand["robbing_kong"] = True
        elif choice == 1:
            hand["last_tile"] = True
        elif choice == 2 and not claimed and seat != "E":
            hand["first_turn"] = "first_discard"
            if hand["discarder"] is not None:
                hand["discarder"] = "E"  # ruling 7: the dealer's first discard
    return hand


def hands(bonus: bool = True) -> st.SearchStrategy[dict[str, Any]]:
    """Complete hands mostly, some thirteen orphans, some random tiles."""
    return st.one_of(
        complete_hands(bonus), complete_hands(bonus), complete_hands(bonus), orphan_hands(bonus), any_hands(bonus),
    )


#: presets with conditions (``when``) on patterns, their includes and limits,
#: for the tests that hold the compiled kernel equal to the Python evaluator
WHEN_PRESETS = {
    "when-mistboard": '''extends = "mistboard"
id = "when-mistboard"
[patterns]
all_chows = { value = 1, when = "open" }
kong_replacement = { value = 2, includes = ["self_draw"], when = "dealer" }
mixed_terminals = { value = 4, includes = ["all_pungs"], when = ["discard", "non_dealer"] }
little_three_dragons = { value = 5, includes = ["dragon_pung"], when = "concealed" }
four_concealed_pungs = { value = 8, includes = ["all_pungs", "concealed_hand"], when = "self_draw" }
eight_bonus = { limit = 8, when = "dealer" }
all_honours = { limit = 10, when = "non_dealer" }
''',
    "when-hk-classic": '''extends = "hk-classic"
id = "when-hk-classic"
[patterns]
self_draw = { value = 1, when = "concealed" }
all_pungs = { value = 3, when = ["open", "discard"] }
big_three_dragons = { value = 8, includes = ["dragon_pung"], when = "open" }
four_concealed_pungs = { limit = 13, kongs = true, when = "self_draw" }
thirteen_orphans = { limit = 13, when = "dealer" }
''',
}


@st.composite
def counts_beside_sets(draw: st.DrawFn, sizes: tuple[int, ...] = (14,)) -> tuple[list[int], tuple[int, ...]]:
    """A seat's hand as the bots read it: concealed counts of one of ``sizes`` tiles less 3 for each of k
    declared sets beside them (set codes, kind * 34 + tile: chow, pung, kong), no tile more than 4 times."""
    k = draw(st.integers(0, 4))
    used = [0] * 34
    melds = []
    for _ in range(k):
        kind = draw(st.integers(0, 2))
        t = draw(st.integers(0, 26 if kind == 0 else 33).filter(lambda t, kind=kind: kind or t % 9 < 7))
        span = [t, t + 1, t + 2] if kind == 0 else [t] * (3 + (kind == 2))
        if any(used[x] + span.count(x) > 4 for x in span):
            continue
        for x in span:
            used[x] += 1
        melds.append(kind * 34 + t)
    counts = [0] * 34
    n = draw(st.sampled_from(sizes)) - 3 * len(melds)
    while sum(counts) < n:
        t = draw(st.integers(0, 33))
        if counts[t] + used[t] < 4:
            counts[t] += 1
    return counts, tuple(melds)


@st.composite
def pairs_heavy(draw: st.DrawFn, sizes: tuple[int, ...] = (14,)) -> list[int]:
    """Concealed counts of one of ``sizes`` tiles (no declared set) near seven pairs: three to seven kinds held
    two, three or four times, the rest filled at random."""
    size = draw(st.sampled_from(sizes))
    kinds = draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True))
    counts = [0] * 34
    for t in kinds[:draw(st.integers(3, 7))]:
        counts[t] = draw(st.sampled_from((2, 2, 2, 3, 4)))
    while sum(counts) > size:
        counts[draw(st.sampled_from([t for t in range(34) if counts[t]]))] -= 1
    while sum(counts) < size:
        t = draw(st.integers(0, 33))
        if counts[t] < 4:
            counts[t] += 1
    return counts


#: seven pairs as a ShapeSet's extra shapes: the plugin's shape, four of a kind not counted and counted as two pairs
SEVEN_PAIRS = ((SEVEN_PAIRS_SHAPE, {"four_as_two_pairs": False}),)
SEVEN_PAIRS_FOURS = ((SEVEN_PAIRS_SHAPE, {"four_as_two_pairs": True}),)


@st.composite
def value_positions(draw: st.DrawFn, near_pairs: bool | None = None) -> tuple[Any, ...]:
    """A position the value bot may decide on: a turn (14 - 3k tiles: discards, kongs of its own) or a claim
    window (13 - 3k tiles and a tile on offer), with what the seat sees and a preset's values (some with no
    minimum, some without thirteen orphans, some with seven pairs); hands often kept near one suit, so that
    flush plans count. ``near_pairs`` (None: one time in four): a hand of no declared set near seven pairs,
    under a preset with that shape."""
    if near_pairs is None:
        near_pairs = draw(st.integers(0, 3)) == 0
    if near_pairs:
        counts, melds = draw(pairs_heavy((13, 14))), ()
    else:
        counts, melds = draw(counts_beside_sets((13, 14)))
    used = [0] * 34
    for m in melds:
        kind, t = divmod(m, 34)
        for x in ([t, t + 1, t + 2] if kind == 0 else [t] * (3 + (kind == 2))):
            used[x] += 1
    if not near_pairs and draw(st.booleans()):  # fold tiles of other suits into one suit
        b = draw(st.sampled_from((0, 9, 18)))
        for t in range(27):
            while counts[t] and not b <= t < b + 9 and draw(st.booleans()):
                to = b + t % 9
                if counts[to] + used[to] >= 4:
                    break
                counts[t] -= 1
                counts[to] += 1
    k = len(melds)
    turn = sum(counts) == 14 - 3 * k
    codes: list[int] = []
    tiles: list[int] = []
    offered = -1
    if turn:
        for i in range(34):
            if counts[i] == 4:
                codes.append(_pyengine.CONCEALED)
                tiles.append(i)
            elif counts[i] and 34 + i in melds:
                codes.append(_pyengine.ADDED)
                tiles.append(i)
        for i in range(34):
            if counts[i]:
                codes.append(_pyengine.DISCARD)
                tiles.append(i)
    else:
        offered = draw(st.integers(0, 33).filter(lambda t: counts[t] + used[t] < 4))
        codes, tiles = [_pyengine.PASS], [-1]
        if counts[offered] >= 2:
            codes.append(_pyengine.PUNG)
            tiles.append(offered)
        if counts[offered] == 3:
            codes.append(_pyengine.EXPOSED)
            tiles.append(offered)
        if offered < 27:
            for low in range(offered - 2, offered + 1):
                if offered - offered % 9 <= low <= offered - offered % 9 + 6 and all(
                        counts[j] for j in range(low, low + 3) if j != offered):
                    codes.append(_pyengine.CHOW)
                    tiles.append(low)
    unseen = [draw(st.integers(0, max(0, 4 - counts[i] - used[i]))) for i in range(34)]
    base = _pyvalue.value_params(load_preset(draw(st.sampled_from(builtin_ids()))))
    extra = draw(st.sampled_from((SEVEN_PAIRS, SEVEN_PAIRS_FOURS) if near_pairs else ((), SEVEN_PAIRS)))
    v = base._replace(minimum=draw(st.integers(0, 5)), shapes=core.ShapeSet(draw(st.booleans()), extra),
                      concealed=draw(st.integers(0, 2)), self_draw=draw(st.integers(0, 2)),
                      half_flush=draw(st.integers(0, 3)), full_flush=draw(st.integers(3, 7)))
    v = v._replace(floor=4.0 if v.minimum == 0 else 0.0)
    shown = [(draw(st.integers(0, 4)), draw(st.integers(0, 7))) for _ in range(4)]
    ponds = [draw(st.lists(st.integers(0, 33), max_size=12)) for _ in range(4)]
    return (v, counts, melds, draw(st.booleans()), unseen, codes, tiles, offered, draw(st.integers(0, 90)),
            draw(st.integers(0, 3)), draw(st.integers(0, 3)), draw(st.integers(0, 6)), shown, ponds)
