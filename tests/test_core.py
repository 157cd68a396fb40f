"""The decomposition core: both implementations, against hand-worked values,
a naive brute force (``tests/helpers/brute.py``) and each other.

Tile indices: 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s, 27..33 =
1z..7z.  Set codes: chow = lowest tile, pung = 34 + tile, kong = 68 + tile;
thirteen orphans = (pair, 102).
"""
from __future__ import annotations

import itertools
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from helpers import brute
from hkcore.errors import HandError
from hkcore.tiles import TILES, counts34, parse_tiles

ORPHANS = 102
ORPHAN_TILES = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def idx(text: str) -> list[int]:
    return [t.index for t in parse_tiles(text)]


def wait_idx(core, tiles, melds=()) -> list[int]:
    got = core.waits(tiles, melds)
    assert all(t is TILES[t.index] for t in got), "waits must be Tile objects"
    return [t.index for t in got]


def chow(t: str) -> int:
    return idx(t)[0]


def pung(t: str) -> int:
    return 34 + idx(t)[0]


def kong(t: str) -> int:
    return 68 + idx(t)[0]


# ==========================================================================
# hand-worked examples


def test_implementation_name(core):
    expected = {"hkcore.core._ccore": "cython", "hkcore.core._pycore": "python"}
    assert expected[core.__name__] == core.IMPLEMENTATION


def test_nine_gates_waits_on_every_tile_of_the_suit(core):
    # 1112345678999m + any of 1m..9m is 1112345678999 plus one: each splits
    # (e.g. +5m: 111 234 55 678 999); no other suit can help.
    assert wait_idx(core, "1112345678999m") == idx("123456789m")
    assert core.tiles_away("1112345678999m") == 0


def test_thirteen_orphans_thirteen_sided_wait(core):
    # one of each orphan and no pair: any orphan makes the pair.
    assert wait_idx(core, "19m19p19s1234567z") == list(ORPHAN_TILES)
    assert core.tiles_away("19m19p19s1234567z") == 0


def test_thirteen_orphans_single_wait(core):
    # 1m doubled, 7z missing: only 7z completes it.
    assert wait_idx(core, "119m19p19s123456z") == idx("7z")
    # complete, the pair being 7z (index 33)
    assert core.is_complete("19m19p19s12345677z")
    assert core.readings("19m19p19s12345677z") == [(33, ORPHANS)]
    assert core.tiles_away("19m19p19s12345677z") == -1


def test_wait_on_the_fifth_copy_is_no_wait(core):
    # 1111m 234p 567s 888s: the only tile that would complete it is a fifth
    # 1m (111 + 11); 2m/3m give 11112m/11113m, which do not split.  So no
    # wait, and the best is two tiles away from complete (draw 2m and 3m,
    # drop two 1m: 11 123m ...), i.e. tiles_away 1, not the textbook 0.
    assert wait_idx(core, "1111m234p567s888s") == []
    assert core.tiles_away("1111m234p567s888s") == 1
    # same with an honour: 1111z 234m 567p 789s would need a fifth 1z.
    assert wait_idx(core, "1111z234m567p789s") == []
    assert core.tiles_away("1111z234m567p789s") == 1


def test_waits_removed_by_declared_melds(core):
    # 2345m waits on 2m (22 345) and 5m (234 55); a declared 222m plus the
    # concealed 2m are all four 2m, so only 5m is left.
    melds = ["222m", "111p", "999s"]
    assert wait_idx(core, "2345m") == idx("25m")
    assert wait_idx(core, "2345m", melds) == idx("5m")
    assert core.tiles_away("2345m", melds) == 0
    # with 555m declared too, both waits are gone (each of 2m and 5m has its
    # four copies out); the best is then two tiles away: add 3m 3m and drop
    # 5m for 33 234m, so tiles_away 1.
    melds = ["222m", "555m", "111p"]
    assert wait_idx(core, "2345m", melds) == []
    assert core.tiles_away("2345m", melds) == 1
    # 23m waits on 1m and 4m; the kong 1111m takes every 1m.
    melds = ["1111m", "777s", "999s"]
    assert wait_idx(core, "23m55p", melds) == idx("4m")
    assert wait_idx(core, "23m55p", ["123s", "777s", "999s"]) == idx("14m")
    # a single tile waits on its pair unless the melds hold its other three
    assert wait_idx(core, "5z", ["111m", "222m", "333m", "444m"]) == idx("5z")
    assert wait_idx(core, "5z", ["555z", "222m", "333m", "444m"]) == []
    assert core.tiles_away("5z", ["555z", "222m", "333m", "444m"]) == 1


def test_waits_sorted_by_index_across_suits(core):
    # 23m 111p 456s 999s 55z: the 23m edge waits on 1m and 4m
    assert wait_idx(core, "23m111p456999s55z") == idx("14m")
    # 11m 55z shanpon: 1m and 5z, in index order
    assert wait_idx(core, "11m123p456s789s55z") == idx("1m5z")


def test_readings_of_multi_reading_hands(core):
    # 111222333m 456p 77z: the m part is three pungs or three 123m chows.
    assert core.readings("111222333m456p77z") == [
        (33, 0, 0, 0, chow("4p")),
        (33, chow("4p"), pung("1m"), pung("2m"), pung("3m")),
    ]
    # 22 33 44 55 66 77 88m: the pair is 22 (345 345 678 678), 55 (234 234
    # 678 678) or 88 (234 234 567 567); 33/44/66/77 leave a tile stranded.
    assert core.readings("22334455667788m") == [
        (1, 2, 2, 5, 5),
        (4, 1, 1, 5, 5),
        (7, 1, 1, 4, 4),
    ]
    # 111 222 333 444 55m: pair 55 with 111 222 333 444, 123x3 444 or
    # 111 234x3; pair 22 with 111 234 345 345.  Four readings.
    assert core.readings("11122233344455m") == [
        (1, 1, 2, 2, pung("1m")),
        (4, 0, 0, 0, pung("4m")),
        (4, 1, 1, 1, pung("1m")),
        (4, pung("1m"), pung("2m"), pung("3m"), pung("4m")),
    ]
    # 1112345678999m + 9m: only 11 123 456 789 999 (with the pair 99, the
    # rest 111 234 567 899 does not split).
    assert core.readings("11123456789999m") == [(0, 0, 3, 6, pung("9m"))]


def test_four_identical_concealed_tiles_are_not_a_kong(core):
    # 1111m 23m 456p 789p 11z: 111 + 123m, never a concealed kong code
    assert core.readings("111123m456789p11z") == [(27, chow("1m"), chow("4p"), chow("7p"), pung("1m"))]
    # 1111m 456p 789p 123s 2z: the 2z is alone (1111m is not a set), not complete
    assert not core.is_complete("1111m456789p123s2z")


def test_readings_keep_declared_sets_in_given_order(core):
    melds = ["666z", "777z", "1111m"]
    assert core.readings("234m55z", melds) == [(31, 1, pung("6z"), pung("7z"), kong("1m"))]
    rev = ["1111m", "777z", "666z"]
    assert core.readings("234m55z", rev) == [(31, 1, kong("1m"), pung("7z"), pung("6z"))]
    # set codes are accepted as melds too; a chow meld keeps its code
    assert core.readings("55z", [chow("7s"), pung("1z"), 5, kong("9p")]) == [
        (31, chow("7s"), pung("1z"), 5, kong("9p"))
    ]
    assert core.readings("234m56z", melds) == []


def test_is_complete(core):
    assert core.is_complete("123m456p789s11122z")
    assert not core.is_complete("123m456p789s11123z")  # 1z 2z 3z is no chow
    assert not core.is_complete("189m123p456p789p11s")  # 8 9 1 does not wrap
    assert not core.is_complete("123z123m456m789m11p")  # no honour chows
    assert core.is_complete("11122233344455m")
    assert core.is_complete("234m55z", ["666z", "777z", "1111m"])
    assert not core.is_complete("234m56z", ["666z", "777z", "1111m"])
    assert core.is_complete("55z", ["123m", "456m", "789m", "1111z"])
    assert not core.is_complete("56z", ["123m", "456m", "789m", "1111z"])
    # without melds, k is read from the count: 8 tiles = 2 sets + pair
    assert core.is_complete("123m456p77z")
    # thirteen orphans needs no declared set
    assert core.is_complete("19m19p19s12345677z")


def test_tiles_away_classics(core):
    # 123m 456p 789s + four lone winds: pair one wind (+1) and pung another (+2)
    assert core.tiles_away("123m456p789s1234z") == 2
    # ... and with a fourteenth, a fifth lone honour: still 2
    assert core.tiles_away("123m456p789s12345z") == 2
    # 123m 456p 789s 1122z + 3z: drop the 3z and it waits on 1z / 2z
    assert core.tiles_away("123m456p789s11223z") == 0
    assert core.tiles_away("123m456p789s11222z") == -1
    # seven honour pairs: honours make no chows, so four pungs cost 4 tiles
    assert core.tiles_away("11223344556677z") == 3
    # twelve different orphans, 1m doubled: waiting on 7z for thirteen orphans
    assert core.tiles_away("119m19p19s123456z") == 0
    # nothing connects: 147m 258p 369s 1357z needs about everything; thirteen
    # orphans route: has 1m 9s 1z 3z 5z 7z (6 of 13), needs 7 + a pair = 8
    # tiles; the standard route: pair (+1) plus 4 sets from lone tiles (+2
    # each) = 9.  So 8 - 1 = 7.
    assert core.tiles_away("147m258p369s1357z") == 7


def test_errors(core):
    with pytest.raises(HandError, match=r"\b12 concealed tiles") as exc:
        core.tiles_away("123m456p789s123z")
    assert exc.value.field == "tiles"
    with pytest.raises(HandError, match="1m"):
        core.tiles_away("11111m234p567s77z")  # five 1m
    with pytest.raises(HandError, match="5 copies of 1m"):
        core.waits("11m23p", ["111m", "456s", "777z"])  # 2 + 3 = five 1m
    with pytest.raises(HandError, match="14 concealed tiles"):
        core.waits("123m456p789s11222z")  # waits wants 13 - 3k
    with pytest.raises(HandError, match="13 concealed tiles"):
        core.is_complete("123m456p789s1122z")  # is_complete wants 14 - 3k
    with pytest.raises(HandError, match="13 concealed tiles"):
        core.readings("123m456p789s1122z")
    with pytest.raises(HandError):
        core.is_complete("123m456p789s11122z", ["111z"])  # 14 tiles + 1 meld
    with pytest.raises(HandError):
        core.is_complete("55z", ["123z", "456m", "789m", "111s"])  # honour chow


# ==========================================================================
# hypothesis strategies: (counts, declared set codes)

CHOWS = [t for t in range(27) if t % 9 <= 6]
CONCEALED_SETS = CHOWS + [34 + t for t in range(34)]
ALL_SETS = CONCEALED_SETS + [68 + t for t in range(34)]


def set_tiles(code: int) -> list[int]:
    kind, t = divmod(code, 34)
    return [t, t + 1, t + 2] if kind == 0 else [t] * (3 if kind == 1 else 4)


def _fits(left: list[int], tiles: list[int]) -> bool:
    need = [0] * 34
    for t in tiles:
        need[t] += 1
    return all(need[t] <= left[t] for t in range(34))


def _take(left: list[int], tiles: list[int]) -> None:
    for t in tiles:
        left[t] -= 1


@st.composite
def _declared(draw, left: list[int], max_k: int = 4) -> tuple[int, ...]:
    k = draw(st.sampled_from([0, 0, 0, 1, 2, 3, 4][: 3 + max_k]))
    codes = []
    for _ in range(k):
        code = draw(st.sampled_from([c for c in ALL_SETS if _fits(left, set_tiles(c))]))
        _take(left, set_tiles(code))
        codes.append(code)
    return tuple(codes)


@st.composite
def _from_wall(draw, left: list[int], n: int, pool: tuple[int, ...] = tuple(range(34))) -> list[int]:
    """n tiles drawn without replacement from what is left of the wall."""
    wall = [t for t in pool for _ in range(left[t])]
    picks = draw(st.lists(st.integers(0, len(wall) - 1), min_size=n, max_size=n, unique=True))
    tiles = [wall[i] for i in picks]
    _take(left, tiles)
    return tiles


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


@st.composite
def _shaped(draw, left: list[int], tiles: list[int], size: str) -> list[int]:
    """Perturb a hand: a few exchanges with the wall, then trim to ``size``."""
    for _ in range(draw(st.integers(0, 3))):
        out = draw(st.sampled_from(tiles))
        tiles.remove(out)
        left[out] += 1
        tiles += draw(_from_wall(left, 1))
    if size == "wait":
        out = draw(st.sampled_from(tiles))
        tiles.remove(out)
        left[out] += 1
    return tiles


@st.composite
def random_hand(draw, size: str):
    left = [4] * 34
    codes = draw(_declared(left))
    n = (14 if size == "full" else 13) - 3 * len(codes)
    return _counts(draw(_from_wall(left, n))), codes


@st.composite
def near_hand(draw, size: str):
    """A complete hand built set by set (often all in one suit), then perturbed."""
    left = [4] * 34
    codes = draw(_declared(left))
    start = draw(st.sampled_from([None, None, 0, 9, 18]))
    pool = range(34) if start is None else range(start, start + 9)

    def pick(options: list[int]) -> int:
        inside = [c for c in options if all(t in pool for t in set_tiles(c))]
        return draw(st.sampled_from(inside or options))

    pair = pick([34 + t for t in range(34) if left[t] >= 2]) - 34
    tiles = [pair, pair]
    _take(left, tiles)
    for _ in range(4 - len(codes)):
        code = pick([c for c in CONCEALED_SETS if _fits(left, set_tiles(c))])
        tiles += set_tiles(code)
        _take(left, set_tiles(code))
    return _counts(draw(_shaped(left, tiles, size))), codes


@st.composite
def one_suit_hand(draw, size: str):
    """Mostly one numbered suit (and sometimes a few honours): dense shapes."""
    left = [4] * 34
    codes = draw(_declared(left, max_k=2))
    n = (14 if size == "full" else 13) - 3 * len(codes)
    suit = draw(st.sampled_from([0, 9, 18]))
    honours = draw(st.integers(0, min(3, n)))
    tiles = draw(_from_wall(left, n - honours, tuple(range(suit, suit + 9))))
    tiles += draw(_from_wall(left, honours, tuple(range(27, 34))))
    return _counts(tiles), codes


@st.composite
def orphans_hand(draw, size: str):
    """Thirteen orphans, or close to it."""
    left = [4] * 34
    tiles = list(ORPHAN_TILES) + [draw(st.sampled_from(ORPHAN_TILES))]
    _take(left, tiles)
    return _counts(draw(_shaped(left, tiles, size))), ()


def hands(size: str):
    return st.one_of(random_hand(size), near_hand(size), one_suit_hand(size), orphans_hand(size))


# brute force is slow: share its answers between the two implementations
_BRUTE: dict = {}
BRUTE_LIMIT = 2  # brute force decides tiles_away up to this value


def brute_answers(counts: list[int], codes: tuple[int, ...]) -> dict:
    key = (tuple(counts), codes)
    if key not in _BRUTE:
        ans = {"tiles_away": brute.tiles_away(counts, codes, BRUTE_LIMIT),
               "exchange": brute.tiles_away_by_exchange(counts, codes)}
        if sum(counts) % 3 == 2:
            ans["readings"] = brute.readings(counts, codes)
            ans["is_complete"] = bool(ans["readings"])
        else:
            ans["waits"] = brute.waits(counts, codes)
        _BRUTE[key] = ans
    return _BRUTE[key]


def check_tiles_away(got: int, ans: dict) -> None:
    if ans["tiles_away"] is None:
        assert got > BRUTE_LIMIT
    else:
        assert got == ans["tiles_away"]
    if ans["exchange"] is not None:  # -1 or 0, by another route
        assert got == ans["exchange"]
    else:
        assert got >= 1


# ==========================================================================
# brute-force agreement

_slow = settings(suppress_health_check=[HealthCheck.too_slow])


@_slow
@given(hand=hands("full"))
def test_full_hands_match_brute_force(core, hand):
    counts, codes = hand
    ans = brute_answers(counts, codes)
    assert core.readings(counts, codes) == ans["readings"]
    assert core.is_complete(counts, codes) is ans["is_complete"]
    check_tiles_away(core.tiles_away(counts, codes), ans)


@_slow
@given(hand=hands("wait"))
def test_waiting_hands_match_brute_force(core, hand):
    counts, codes = hand
    ans = brute_answers(counts, codes)
    assert wait_idx(core, counts, codes) == ans["waits"]
    check_tiles_away(core.tiles_away(counts, codes), ans)
    assert (core.tiles_away(counts, codes) == 0) == bool(ans["waits"])


def _small_suit_vectors(max_tiles: int):
    for vec in itertools.product(range(5), repeat=9):
        if sum(vec) % 3 != 0 and sum(vec) <= max_tiles:
            yield list(vec) + [0] * 25


def test_small_one_suit_hands_match_brute_force(core):
    # every 1m..9m hand of 1, 2, 4 or 5 tiles (k read from the count: 4 or 3)
    for counts in _small_suit_vectors(5):
        n = sum(counts)
        expected_away = brute.tiles_away(counts, (), 4)
        assert core.tiles_away(counts) == expected_away, counts
        if n % 3 == 2:
            assert core.readings(counts) == brute.readings(counts), counts
        else:
            assert wait_idx(core, counts) == brute.waits(counts), counts


def test_brute_force_knows_the_worked_examples():
    # the naive reference agrees with the hand-worked values too
    assert brute.waits(counts34("1112345678999m")) == idx("123456789m")
    assert brute.waits(counts34("1111m234p567s888s")) == []
    assert brute.tiles_away(counts34("1111m234p567s888s")) == 1
    assert brute.tiles_away(counts34("123m456p789s1234z"), (), 3) == 2
    assert len(brute.readings(counts34("11122233344455m"))) == 4


# ==========================================================================
# the two implementations agree


def _answers(mod, counts, codes):
    out = {"tiles_away": mod.tiles_away(counts, codes)}
    if sum(counts) % 3 == 2:
        out["is_complete"] = mod.is_complete(counts, codes)
        out["readings"] = mod.readings(counts, codes)
    else:
        out["waits"] = [t.index for t in mod.waits(counts, codes)]
    return out


@given(hand=st.one_of(hands("full"), hands("wait")))
def test_twins_agree(twin_cores, hand):
    ccore, pycore = twin_cores
    counts, codes = hand
    assert _answers(ccore, counts, codes) == _answers(pycore, counts, codes)


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except HandError as exc:
        return ("error", str(exc), exc.field)


@given(
    tiles=st.lists(st.integers(0, 33), max_size=15),
    melds=st.lists(st.sampled_from(ALL_SETS), max_size=4),
)
def test_twins_agree_on_bad_input(twin_cores, tiles, melds):
    # any tile count, fifth copies, melds that do not fit: same answer or same error
    ccore, pycore = twin_cores
    counts = _counts(tiles)
    for name in ("is_complete", "readings", "tiles_away", "waits"):
        c_out = _outcome(getattr(ccore, name), counts, melds)
        p_out = _outcome(getattr(pycore, name), counts, melds)
        if name == "waits" and c_out[0] == "ok":
            c_out = ("ok", [t.index for t in c_out[1]])
            p_out = ("ok", [t.index for t in p_out[1]])
        assert c_out == p_out, name


# ==========================================================================
# exhaustive single-suit sweep (cython against python)

ACCEPTED_SIZES = frozenset({1, 2, 4, 5, 7, 8, 10, 11, 13, 14})


def _vectors(length: int, sizes=ACCEPTED_SIZES):
    # the first position varies fastest, so consecutive vectors share long
    # suffixes (which the Python core memoizes)
    for rev in itertools.product(range(5), repeat=length):
        if sum(rev) in sizes:
            yield rev[::-1]


def _sweep(ccore, pycore, start: int, length: int, sizes=ACCEPTED_SIZES) -> int:
    mismatches = []
    checked = 0
    for vec in _vectors(length, sizes):
        counts = [0] * 34
        counts[start:start + length] = vec
        checked += 1
        if ccore.tiles_away(counts) != pycore.tiles_away(counts):
            mismatches.append(("tiles_away", vec))
        if sum(vec) % 3 == 2:
            if ccore.is_complete(counts) != pycore.is_complete(counts):
                mismatches.append(("is_complete", vec))
            if ccore.readings(counts) != pycore.readings(counts):
                mismatches.append(("readings", vec))
        elif ccore.waits(counts) != pycore.waits(counts):
            mismatches.append(("waits", vec))
        if len(mismatches) >= 10:
            break
    assert not mismatches, mismatches
    return checked


@pytest.mark.exhaustive
def test_exhaustive_characters(twin_cores):
    # every 1m..9m vector of counts 0..4 with an accepted size
    started = time.perf_counter()
    assert _sweep(*twin_cores, 0, 9) == 312_732
    print(f"characters sweep: {time.perf_counter() - started:.1f}s")


@pytest.mark.exhaustive
@pytest.mark.parametrize("start", [9, 18], ids=["dots", "bamboo"])
def test_exhaustive_dots_and_bamboo_small(twin_cores, start):
    # the same shapes in the other suits, up to 8 tiles
    assert _sweep(*twin_cores, start, 9, ACCEPTED_SIZES & set(range(9))) == 19_242


@pytest.mark.exhaustive
def test_exhaustive_honours(twin_cores):
    # every 1z..7z vector of counts 0..4 with an accepted size
    assert _sweep(*twin_cores, 27, 7) == 31_495


def _answer(f, text):
    try:
        return f(text)
    except HandError as exc:
        return f"error: {exc}"


@given(text=st.one_of(
    st.text(alphabet="0123456789mpszfg 🀄🀇", max_size=20),
    st.lists(st.sampled_from(["1m", "9m", "5p", "7z", "8z", "111z", "1111m", "123s", "19m19p19s", "12345677z"]),
             max_size=6).map("".join),
))
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
def test_tile_text_reads_the_same_in_both_cores(twin_cores, text):
    """The compiled core reads plain notation itself and leaves the rest to
    the Python reader: both cores answer alike, errors word for word."""
    compiled, pure = twin_cores
    for name in ("is_complete", "tiles_away", "readings", "waits"):
        assert _answer(getattr(compiled, name), text) == _answer(getattr(pure, name), text), name
