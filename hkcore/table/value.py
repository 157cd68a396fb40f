"""The ``value`` bot: plays for a hand it may declare under the preset
(docs/bots.md, "How value decides").

It reads what each pattern is worth from the preset's compiled ruleset
(``CompiledPreset.entries``, by pattern id: no table per preset), and weighs
every choice by a *plan*: the hand as it is, or the hand kept to one suit
and the honours (a flush). For each plan it counts the tiles still needed
(the core's tiles away over counts) and the faan the plan is sure of
(bonus tiles, concealment, honour pungs, the flush) or may yet gain (a
pair of scoring honours, a self-draw). A plan short of the minimum is worth
little; among plans that reach it, fewer tiles needed and more faan are
better. It always wins when it may, declines claims that leave no plan at
the minimum, and, when an opponent's declared sets show it close, never
discards a tile that opponent may win on while a safe tile of (nearly)
the same worth is there. It sees only its prompt's ``view``; it needs no generator.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 3})
>>> bot = ValueBot(t.preset, 0)
>>> p = t.prompts()[0]
>>> bot.decide(p)["act"]
'discard'
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore import core
from hkcore.engine import compiled_for
from hkcore.preset import Preset
from hkcore.table.policy import decision
from hkcore.tiles import SEATS

#: where each suit letter's tiles begin among the 34 (bonus tiles: None)
_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": None, "g": None}
_DRAGONS = (31, 32, 33)
#: per tile needed, how much less a plan is worth (one more draw to make)
_PER_TILE = 0.45
#: a flush is reckoned with while at most this many concealed tiles are of other suits
_FLUSH_OFF = 5
#: per faan short of the minimum, how much less a plan is worth
_PER_FAAN_SHORT = 0.25
#: what a pair of a scoring honour is reckoned to add (the chance it becomes a pung)
_PAIR_SHARE = 0.35
#: what a self-draw is reckoned to add (the share of wins that are self-drawn)
_SELF_DRAW_SHARE = 0.35
#: a claim is taken only when it makes the position this much better
_CLAIM_MARGIN = 1.1
#: discards whose worth is within this share of the best are tied (broken by the unseen tiles that help)
_TIE = 0.999
#: discards whose worth is within this share of the best count as "of equal value" for defence
_EQUAL = 0.9


#: by tile: the tiles that may join it in a set or a pair (itself, and within two in its suit)
_NEAR = tuple(tuple(range(max(i - 2, i - i % 9), min(i + 2, i - i % 9 + 8) + 1)) if i < 27 else (i,)
              for i in range(34))


def _indices(text: str | None) -> list[int]:
    """Tile indices of the engine's own compact notation (``123m55z``,
    ``6z7z8s``); bonus tiles are left out."""
    out: list[int] = []
    if not text:
        return out
    start = 0
    for j, ch in enumerate(text):
        if ch > "9":
            base = _BASE[ch]
            if base is not None:
                out.extend(base + int(d) - 1 for d in text[start:j])
            start = j + 1
    return out


def _code(kind: str, tiles: list[int]) -> int:
    """A set code (kind * 34 + lowest tile) of a meld's kind and tiles."""
    low = min(tiles)
    if kind == "chow":
        return core.CHOW * 34 + low
    return (core.KONG if len(tiles) == 4 else core.PUNG) * 34 + low


class _Values:
    """What the patterns a plan can count are worth under one preset, read
    from its compiled ruleset by pattern id (0 where the preset lacks one)."""

    def __init__(self, preset: Preset) -> None:
        compiled = compiled_for(preset)
        entries = {e.id: e for e in compiled.entries}

        def worth(pid: str, count: int = 1) -> int:
            e = entries.get(pid)
            if e is None or count == 0:
                return 0
            return e.limit if e.limit is not None else e.worth(count)

        self.minimum = preset.minimum
        self.shapes = compiled.shape_set
        self.concealed = worth("concealed_hand")
        e = entries.get("concealed_hand")
        self.kong_keeps_concealed = e is None or bool(e.options.get("concealed_kong", True))
        self.self_draw = worth("self_draw")
        self.no_bonus = worth("no_bonus") if preset.bonus_tiles else 0
        self.seat_flower = worth("seat_flower")
        self.seat_season = worth("seat_season")
        self.bonus_tile = worth("bonus_tile")
        self.dragons = tuple(worth("dragon_pung", n) for n in range(4))
        self.seat_wind = worth("seat_wind")
        self.round_wind = worth("round_wind")
        self.half_flush = worth("half_flush")
        self.full_flush = worth("full_flush")
        #: a win worth nothing still wins where there is no minimum: reckon it worth this much
        self.floor = 4.0 if self.minimum == 0 else 0.0


class _Position:
    """What the bot reads off one prompt's view."""

    __slots__ = ("claimed", "counts", "fixed", "live_left", "melds", "seat", "unseen", "view", "wind_values")

    def __init__(self, prompt: Mapping[str, Any], v: _Values) -> None:
        view = prompt["view"]
        self.view = view
        seat = prompt["seat"]
        self.seat = seat
        s = SEATS.index(seat)
        counts = [0] * 34
        for i in _indices(view["tiles"]):
            counts[i] += 1
        for i in _indices(view["drawn"]):
            counts[i] += 1
        self.counts = counts
        seen = list(counts)
        melds: list[int] = []
        claimed = False
        for who, sets in view["melds"].items():
            for m in sets:
                tiles = _indices(m.get("tiles"))
                for i in tiles:
                    seen[i] += 1
                if who == seat:
                    melds.append(_code(m["kind"], tiles))
                    if not (m.get("concealed") and v.kong_keeps_concealed):
                        claimed = True
        for pond in view["ponds"].values():
            for i in _indices(pond):
                seen[i] += 1
        if prompt.get("tile"):
            for i in _indices(prompt["tile"]):
                seen[i] += 1
        self.unseen = [max(0, 4 - n) for n in seen]
        self.melds = tuple(melds)
        self.claimed = claimed
        self.live_left = view.get("live_left", 60)
        # the faan of scoring honour pungs, by tile (a double wind counts both)
        wind = [0] * 34
        wind[27 + s] += v.seat_wind
        wind[27 + SEATS.index(view.get("round", "E"))] += v.round_wind
        self.wind_values = wind
        bonus = view["bonus"].get(seat) or ""
        fixed = 0
        if not bonus:
            fixed += v.no_bonus
        else:
            n = str(s + 1)
            fixed += v.seat_flower * (n + "f" in _pairs(bonus)) + v.seat_season * (n + "g" in _pairs(bonus))
            fixed += v.bonus_tile * len(_pairs(bonus))
        self.fixed = fixed


def _pairs(text: str) -> list[str]:
    """Bonus tiles in compact notation (``13f2g``) as codes (``1f``, ``3f``, ``2g``)."""
    out: list[str] = []
    start = 0
    for j, ch in enumerate(text):
        if ch > "9":
            out.extend(d + ch for d in text[start:j])
            start = j + 1
    return out


class ValueBot:
    """Plays for a hand worth the preset's minimum: keeps a flush, concealment and honour pungs reachable,
    declines claims that leave no such hand, always wins when it may, and defends when an opponent is close.
    Needs no generator: the same prompt, the same decision."""

    name = "value"

    def __init__(self, preset: Preset, seed: int) -> None:
        self._v = _Values(preset)

    # ------------------------------------------------------------ worth

    def _plan_worth(self, pos: _Position, counts: list[int], melds: tuple[int, ...], claimed: bool,
                    suit: int) -> float:
        """The worth of one plan for concealed ``counts`` (13 - 3k tiles, or
        fewer: the tiles the plan keeps) beside ``melds``: the faan it is
        sure of and may gain, less for each faan short of the minimum and
        each tile still needed. ``suit`` is the flush's suit (0, 9, 18) or -1."""
        v = self._v
        k = len(melds)
        shapes = v.shapes if suit < 0 else core.STANDARD_ONLY
        needed = core.tiles_away_of_counts(counts, melds, k, shapes) + 1
        sure = pos.fixed + (0 if claimed else v.concealed)
        maybe = v.self_draw * _SELF_DRAW_SHARE
        dragons = 0
        honours = False
        suits = 0
        for code in melds:
            t = code % 34
            if t >= 27:
                honours = True
                if t >= 31:
                    dragons += 1
                else:
                    sure += pos.wind_values[t]
            else:
                suits |= 1 << (t // 9)
        unseen = pos.unseen
        for t in range(27, 34):
            c = counts[t]
            if not c:
                continue
            honours = True
            pung = v.dragons[1] if t >= 31 else pos.wind_values[t]
            if c >= 3:
                if t >= 31:
                    dragons += 1
                else:
                    sure += pung
            elif c == 2 and unseen[t]:
                maybe += pung * _PAIR_SHARE
        sure += v.dragons[dragons]
        for b in (0, 9, 18):
            if any(counts[b:b + 9]):
                suits |= 1 << (b // 9)
        if suits in (1, 2, 4):
            sure += v.half_flush if honours else v.full_flush
        elif suit >= 0:
            return 0.0  # a flush plan with a declared set of another suit
        short = v.minimum - sure
        worth = sure + maybe + v.floor
        if short > 0:
            worth *= _PER_FAAN_SHORT ** (short - min(short, maybe))
        left = pos.live_left // 4 + 1
        if needed - 1 > left:
            return worth * 0.01
        return worth * _PER_TILE ** (needed - 1)

    def _worth(self, pos: _Position, counts: list[int], melds: tuple[int, ...], claimed: bool) -> float:
        """The best plan's worth for concealed ``counts`` (13 - 3k tiles) beside ``melds``."""
        best = self._plan_worth(pos, counts, melds, claimed, -1)
        for b in (0, 9, 18):
            off = sum(counts) - sum(counts[b:b + 9]) - sum(counts[27:])
            if off == 0 or off > _FLUSH_OFF:
                continue  # the hand is one already (the plan above), or too far from one
            kept = [0] * 34
            kept[b:b + 9] = counts[b:b + 9]
            kept[27:] = counts[27:]
            best = max(best, self._plan_worth(pos, kept, melds, claimed, b))
        return best

    def _discards(self, pos: _Position, counts: list[int], melds: tuple[int, ...], claimed: bool,
                  choices: list[int]) -> list[tuple[float, int]]:
        """(worth after discarding, tile) for each of ``choices``."""
        out = []
        for i in choices:
            counts[i] -= 1
            out.append((self._worth(pos, counts, melds, claimed), i))
            counts[i] += 1
        return out

    def _gain(self, pos: _Position, discard: int) -> int:
        """Unseen tiles that would bring the hand nearer after ``discard`` (the tie-break between discards of
        the same worth)."""
        counts = pos.counts
        melds, k, shapes = pos.melds, len(pos.melds), self._v.shapes
        counts[discard] -= 1
        away = core.tiles_away_of_counts(counts, melds, k, shapes)
        near = {j for i in range(34) if counts[i] for j in _NEAR[i]}
        if shapes.orphans and k == 0:
            near.update(core.ORPHAN_TILES)
        total = 0
        for j in near:
            if pos.unseen[j] and counts[j] < 4:
                counts[j] += 1
                if core.tiles_away_of_counts(counts, melds, k, shapes) < away:
                    total += pos.unseen[j]
                counts[j] -= 1
        counts[discard] += 1
        return total

    # ------------------------------------------------------------ defence

    def _threats(self, pos: _Position) -> list[tuple[str, int]]:
        """The opponents whose declared sets show them close to a win:
        three sets or more (four concealed tiles or fewer), or two once the
        live wall is half gone. With each, the suit its sets keep to (a
        flush in the making: 0, 9 or 18) or -1."""
        out = []
        half = pos.live_left < 40
        for who, sets in pos.view["melds"].items():
            if who == pos.seat:
                continue
            shown = [m for m in sets if not m.get("concealed")]
            if len(shown) >= 3 or (half and len(shown) >= 2):
                suits = {i // 9 * 9 for m in shown for i in _indices(m.get("tiles")) if i < 27}
                out.append((who, suits.pop() if len(suits) == 1 else -1))
        return out

    def _danger(self, pos: _Position, threats: list[tuple[str, int]], i: int) -> int:
        """How many close opponents may win on tile ``i``, as their views show: not one that has
        discarded it itself, nor on an honour whose other copies are all in sight, nor, for an
        opponent keeping to one suit, on a tile of another suit."""
        n = 0
        for who, suit in threats:
            if i in _indices(pos.view["ponds"][who]):
                continue
            if i >= 27 and pos.unseen[i] == 0:
                continue
            if suit >= 0 and i < 27 and not suit <= i < suit + 9:
                continue
            n += 1
        return n

    # ------------------------------------------------------------ decisions

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        actions = prompt["actions"]
        for a in actions:
            if a["act"] == "win":
                return decision(prompt, a)
        if len(actions) == 1:
            return decision(prompt, actions[0])
        pos = _Position(prompt, self._v)
        discards = [a for a in actions if a["act"] == "discard"]
        if discards:
            return decision(prompt, self._turn(pos, discards, [a for a in actions if a["act"] == "kong"]))
        return decision(prompt, self._claim(pos, prompt, actions))

    def _turn(self, pos: _Position, discards: list[dict[str, Any]], kongs: list[dict[str, Any]]) -> dict[str, Any]:
        index = {_indices(a["tile"])[0]: a for a in discards}
        scored = self._discards(pos, pos.counts, pos.melds, pos.claimed, sorted(index))
        best = max(w for w, _ in scored)
        threats = self._threats(pos)
        if threats:
            pool = [(w, i) for w, i in scored if w >= best * _EQUAL]
            danger = {i: self._danger(pos, threats, i) for _, i in pool}
            low = min(danger.values())
            scored = [(w, i) for w, i in pool if danger[i] == low]
            best = max(w for w, _ in scored)
        top = [i for w, i in scored if w >= best * _TIE]
        tile = top[0] if len(top) == 1 else -max((self._gain(pos, i), -i) for i in top)[1]
        for a in kongs:  # a kong of one's own: taken when the hand, after its replacement, is worth no less
            i = _indices(a["tiles"])[0]
            counts = list(pos.counts)
            code = core.KONG * 34 + i
            if a.get("kind") == "added":
                counts[i] -= 1
                melds = tuple(code if m == core.PUNG * 34 + i else m for m in pos.melds)
                claimed = pos.claimed
            else:
                counts[i] -= 4
                melds = (*pos.melds, code)
                claimed = pos.claimed or not self._v.kong_keeps_concealed
            if self._worth(pos, counts, melds, claimed) >= best:
                return a
        return index[tile]

    def _claim(self, pos: _Position, prompt: Mapping[str, Any], actions: list[dict[str, Any]]) -> dict[str, Any]:
        now = self._worth(pos, pos.counts, pos.melds, pos.claimed)
        offered = _indices(prompt["tile"])[0]
        best, chosen = now * _CLAIM_MARGIN, actions[0]  # pass comes first
        for a in actions:
            if a["act"] not in ("chow", "pung", "kong"):
                continue
            tiles = _indices(a["tiles"])
            counts = list(pos.counts)
            counts[offered] += 1
            for t in tiles:
                counts[t] -= 1
            melds = (*pos.melds, _code(a["act"], tiles))
            if a["act"] == "kong":
                worth = self._worth(pos, counts, melds, True)
            else:
                worth = max(w for w, _ in self._discards(pos, counts, melds, True,
                                                         [i for i in range(34) if counts[i]]))
            if worth > best and self._reaches_minimum(pos, counts, melds):
                best, chosen = worth, a
        return chosen

    def _reaches_minimum(self, pos: _Position, counts: list[int], melds: tuple[int, ...]) -> bool:
        """Whether a claimed hand of ``counts`` beside ``melds`` may still reach the minimum: with every
        pair of a scoring honour made a pung, a self-draw, and a flush where its sets allow one."""
        v = self._v
        if v.minimum <= 0:
            return True
        best = pos.fixed + v.self_draw
        dragons = sum(1 for t in _DRAGONS if counts[t] >= 2 or any(m % 34 == t and m >= 34 for m in melds))
        best += v.dragons[dragons]
        best += sum(pos.wind_values[t] for t in range(27, 31)
                    if counts[t] >= 2 or any(m % 34 == t and m >= 34 for m in melds))
        suits = {m % 34 // 9 for m in melds if m % 34 < 27}
        if len(suits) <= 1:
            best += v.half_flush
        return best >= v.minimum
