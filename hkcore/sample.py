"""Random complete hands for corpora and benchmarks (``hkscore sample``).

A hand is drawn in two steps, each from one ``random.Random``, so a seed
gives the same hands on every machine and Python version that keeps
``random``'s algorithms:

1. ``random_complete_sets``: with probability ``ORPHANS_SHARE`` thirteen
   orphans (a random duplicated orphan); otherwise four sets, each a chow
   (half the time; its lowest tile uniform among the 21 starts) or a pung
   (tile uniform among the 34), and a pair (uniform), redrawn until no tile
   is used more than four times.
2. ``random_situation``: how many of the four sets are declared (0, 1, 2, 3,
   4 with weights ``MELD_WEIGHTS`` = 40, 20, 20, 12, 8 %), in random order:
   a chow claimed from the seat before the winner; a pung from any other
   seat, or, when the fourth copy is free, a kong (``KONG_SHARE`` 30 %),
   concealed (``CONCEALED_KONG_SHARE`` 40 % of kongs, no ``from``) or
   claimed from any other seat. Seat and round winds uniform. The winning
   tile is a random concealed tile. Self-draw half the time
   (``SELF_DRAW_SHARE``), else a discard by a random other seat. Then at most
   one special context: a self-draw with a kong among the melds wins on the
   replacement (``KONG_REPLACEMENT_SHARE`` 30 %; ``kong_replacement`` 2, kong
   on kong, for 30 % of those with two kongs), else the last tile
   (``LAST_TILE_SHARE`` 3 %), else, on a discard of a tile held once,
   robbing a kong (``ROBBING_SHARE`` 5 %). Each of the eight bonus tiles is
   held with probability ``BONUS_SHARE`` (25 %), and none when bonus tiles
   are off (a 136-tile preset). Thirteen-orphans hands declare nothing.
   ``first_turn`` is never set.

Every hand drawn is complete in the standard shape (or thirteen orphans,
which ``playingcards-io`` does not count as complete).
"""
from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import TYPE_CHECKING, Any, NamedTuple

from hkcore.tiles import ORPHAN_TILES, SEATS, set_tiles

if TYPE_CHECKING:
    from hkcore.preset import Preset

MELD_WEIGHTS = (40, 20, 20, 12, 8)  # how many of the 4 sets are declared: 0, 1, 2, 3, 4
KONG_SHARE = 0.3                    # a declared pung whose 4th copy is free becomes a kong
CONCEALED_KONG_SHARE = 0.4          # ... and that kong is concealed
SELF_DRAW_SHARE = 0.5
KONG_REPLACEMENT_SHARE = 0.3        # of self-draws with a kong among the melds
KONG_ON_KONG_SHARE = 0.3            # ... with two kongs: kong_replacement 2
LAST_TILE_SHARE = 0.03
ROBBING_SHARE = 0.05                # of discard wins whose winning tile is held once
BONUS_SHARE = 0.25                  # each of the 8 bonus tiles (144-tile presets)
ORPHANS_SHARE = 0.01
CHOW_SHARE = 0.5
#: ``sample(only=...)`` gives up after this many hands drawn in a row that are not so under the preset
#: (about a minute of drawing; a limit hand at mistboard comes about once in 4,000 draws)
MOST_MISSES = 1_000_000

# tiles by index: 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s, 27..33 = 1z..7z
TILE_CODES = tuple(f"{n + 1}{s}" for s in "mps" for n in range(9)) + tuple(f"{n}z" for n in range(1, 8))
CHOW_STARTS = tuple(s * 9 + n for s in range(3) for n in range(7))
KONG = 2 * 34
_SUIT_LETTERS = "mpsz"


def canonical(counts: Sequence[int]) -> str:
    """The canonical notation of 34 counts, e.g. ``123m456p789s11222z``."""
    parts = []
    for s, letter in enumerate(_SUIT_LETTERS):
        start = s * 9
        digits = "".join(str(n + 1) * counts[start + n] for n in range(9 if s < 3 else 7))
        if digits:
            parts.append(digits + letter)
    return "".join(parts)


class CompleteHand(NamedTuple):
    """A random complete hand with the sets it was built from.

    ``counts``: 34 counts of the 14 tiles; ``pair``: the pair's tile index
    (for thirteen orphans, the duplicated orphan); ``sets``: the four set
    codes ``kind * 34 + tile`` (chow 0, pung 1: the tile of a pung, the
    lowest tile of a chow) in the order drawn, or None for thirteen orphans.
    """

    counts: list[int]
    pair: int
    sets: tuple[int, ...] | None


def random_complete_sets(rng: Random, orphans_share: float = ORPHANS_SHARE,
                         chow_share: float = CHOW_SHARE) -> CompleteHand:
    """A random complete concealed 14-tile hand with its pair and sets (step 1 above)."""
    if rng.random() < orphans_share:
        counts = [0] * 34
        for t in ORPHAN_TILES:
            counts[t] = 1
        pair = rng.choice(ORPHAN_TILES)
        counts[pair] += 1
        return CompleteHand(counts, pair, None)
    while True:
        counts = [0] * 34
        sets = []
        for _ in range(4):
            if rng.random() < chow_share:
                s = rng.choice(CHOW_STARTS)
                counts[s] += 1
                counts[s + 1] += 1
                counts[s + 2] += 1
                sets.append(s)
            else:
                t = rng.randrange(34)
                counts[t] += 3
                sets.append(34 + t)
        pair = rng.randrange(34)
        counts[pair] += 2
        if max(counts) <= 4:
            return CompleteHand(counts, pair, tuple(sets))


@dataclass
class SampledWin:
    """A random win: a complete hand split into declared sets and concealed tiles, with its context."""

    base: CompleteHand
    concealed: list[int]                        # 34 counts of the concealed tiles (winning tile included)
    melds: list[tuple[int, bool, int | None]]   # (set code, concealed, seat index it came from)
    win: int
    seat: int
    round: int
    self_draw: bool
    discarder: int | None
    last_tile: bool
    kong_replacement: int
    robbing_kong: bool
    flowers: tuple[int, ...]
    seasons: tuple[int, ...]

    @property
    def is_orphans(self) -> bool:
        return self.base.sets is None


def random_situation(rng: Random, base: CompleteHand) -> SampledWin:
    """Declared sets taken out of ``base`` and a valid context, drawn from ``rng`` (step 2 above)."""
    counts = base.counts
    concealed = list(counts)
    seat, rnd = rng.randrange(4), rng.randrange(4)
    others = [i for i in range(4) if i != seat]
    before = (seat - 1) % 4
    melds: list[tuple[int, bool, int | None]] = []
    if base.sets is not None:
        k = rng.choices(range(5), MELD_WEIGHTS)[0]
        for i in rng.sample(range(4), k):
            code = base.sets[i]
            kind, t = divmod(code, 34)
            if kind == 0:
                for u in (t, t + 1, t + 2):
                    concealed[u] -= 1
                melds.append((code, False, before))
            else:
                concealed[t] -= 3
                if counts[t] == 3 and rng.random() < KONG_SHARE:
                    hidden = rng.random() < CONCEALED_KONG_SHARE
                    melds.append((KONG + t, hidden, None if hidden else rng.choice(others)))
                else:
                    melds.append((code, False, rng.choice(others)))
    win = rng.choice([t for t in range(34) for _ in range(concealed[t])])
    self_draw = rng.random() < SELF_DRAW_SHARE
    discarder = None if self_draw else rng.choice(others)
    n_kongs = sum(1 for code, _, _ in melds if code >= KONG)
    kong_replacement, last_tile, robbing = 0, False, False
    if self_draw and n_kongs and rng.random() < KONG_REPLACEMENT_SHARE:
        kong_replacement = 2 if n_kongs >= 2 and rng.random() < KONG_ON_KONG_SHARE else 1
    elif rng.random() < LAST_TILE_SHARE:
        last_tile = True
    elif not self_draw and counts[win] == 1 and rng.random() < ROBBING_SHARE:
        robbing = True  # the discarder is the kong-maker
    flowers = tuple(n for n in range(1, 5) if rng.random() < BONUS_SHARE)
    seasons = tuple(n for n in range(1, 5) if rng.random() < BONUS_SHARE)
    return SampledWin(base, concealed, melds, win, seat, rnd, self_draw, discarder, last_tile,
                     kong_replacement, robbing, flowers, seasons)


class HandSource:
    """Draws situations, by default with complete hands distinct across every draw.

    Distinct means a different multiset of the 14 tiles (before a pung is
    turned into a kong), whatever the context; thirteen-orphans hands are
    the exception (only 13 exist) and are counted as repeats. With
    ``distinct=False`` nothing is remembered (memory stays flat).
    """

    def __init__(self, rng: Random, orphans_share: float = ORPHANS_SHARE, distinct: bool = True) -> None:
        self.rng = rng
        self.orphans_share = orphans_share
        self.distinct = distinct
        self.seen: set[bytes] = set()
        self.repeats = 0
        self.drawn = 0

    def draw(self) -> SampledWin:
        rng = self.rng
        while True:
            base = random_complete_sets(rng, self.orphans_share)
            if self.distinct:
                key = bytes(base.counts)
                if key in self.seen:
                    if base.sets is not None:
                        continue
                    self.repeats += 1
                self.seen.add(key)
            self.drawn += 1
            return random_situation(rng, base)


def _counts_of(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def hk_dict(s: SampledWin, bonus: bool) -> dict[str, Any]:
    """The docs/rules.md dict of a situation (bonus tiles only when ``bonus``)."""
    melds = []
    for code, hidden, frm in s.melds:
        kind = ("chow", "pung", "kong")[code // 34]
        m: dict[str, Any] = {"kind": kind, "tiles": canonical(_counts_of(set_tiles(code)))}
        if hidden:
            m["concealed"] = True
        else:
            m["from"] = SEATS[frm]  # type: ignore[index]
        melds.append(m)
    d: dict[str, Any] = {
        "tiles": canonical(s.concealed),
        "melds": melds,
        "win_tile": TILE_CODES[s.win],
        "self_draw": s.self_draw,
        "seat_wind": SEATS[s.seat],
        "round_wind": SEATS[s.round],
        "flowers": list(s.flowers) if bonus else [],
        "seasons": list(s.seasons) if bonus else [],
        "last_tile": s.last_tile,
        "kong_replacement": s.kong_replacement,
        "robbing_kong": s.robbing_kong,
    }
    if s.discarder is not None:
        d["discarder"] = SEATS[s.discarder]
    return d


#: what ``sample(only=...)`` may keep
ONLY = ("complete", "winnable")


def sample(n: int, seed: int = 0, preset: str | Path | Preset | None = None, *,
           only: str | None = None) -> Iterator[dict[str, Any]]:
    """``n`` random complete hands (docs/rules.md dicts), the same for the same
    arguments. With ``preset``: no bonus tiles when it plays 136 tiles; with
    ``only`` ("complete" or "winnable", which needs ``preset``), hands that
    are not so under the preset are skipped (and more drawn, so ``n`` come;
    ``MOST_MISSES`` skipped in a row is an ``HkcoreError``). Memory stays flat: hands are not checked for repeats."""
    from hkcore.errors import HkcoreError, shown

    if type(n) is not int or n < 0:
        raise HkcoreError(f"n: expected a whole number 0 or more, got {shown(n)}")
    if type(seed) is not int:
        raise HkcoreError(f"seed: expected a whole number, got {shown(seed)}")
    if only is not None and only not in ONLY:
        raise HkcoreError(f"only: expected one of {', '.join(ONLY)}, got {shown(only)}")
    if only is not None and preset is None:
        raise HkcoreError(f"only={only}: give the preset the hands must be {only} under")
    compiled = None
    bonus = True
    if preset is not None:
        from hkcore.engine import compiled_for

        compiled = compiled_for(preset)
        bonus = compiled.preset.bonus_tiles
    return _draw(n, Random(seed), bonus, compiled if only else None, only)


def _draw(n: int, rng: Random, bonus: bool, compiled: Any, only: str | None) -> Iterator[dict[str, Any]]:
    source = HandSource(rng, distinct=False)
    kept = misses = 0
    while kept < n:
        hand = hk_dict(source.draw(), bonus)
        if compiled is not None:
            result = compiled.score(hand)
            if not (result.winnable if only == "winnable" else result.complete):
                misses += 1
                if misses >= MOST_MISSES:
                    from hkcore.errors import HkcoreError, shown

                    raise HkcoreError(f"only={only}: no hand {only} under {shown(compiled.preset.id)} in "
                                      f"{misses:,} draws in a row; can any hand be {only} under it?")
                continue
        kept += 1
        misses = 0
        yield hand


def __getattr__(name: str) -> Any:
    if name == "Situation":  # the old name, which the plugin API's Situation also has
        import warnings

        warnings.warn("hkcore.sample.Situation is now hkcore.sample.SampledWin", DeprecationWarning, stacklevel=2)
        return SampledWin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
