"""``VecEnv``'s pure-Python core, the reference: every table played through
its public surface (``prompts()``, ``submit()``, the log), every bot through
its prompts, every observation encoded from the acting seat's ``view`` and
the log. The compiled core (``_cvec``) reads the engine's own values and
must give the same arrays to the bit (tests/test_vecenv.py)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.env import PASS as PASS_ID, action_name, legal_actions
from hkcore.table.flow.wall import CODES, SEATS
from hkcore.table.learning.encoding import MAX_DISCARDS, OBS_SIZE, OFFSET, hand_rewards
from hkcore.table.match import Match
from hkcore.table.players.bots import Bot, make_bot
from hkcore.table.start import bot_seed, first_deal, record_preset, wall_seed
from hkcore.table.table import Table

IMPLEMENTATION = "python"

_INDEX = {code: i for i, code in enumerate(CODES)}
_PHASE = {"turn": 0, "discard": 1, "claim": 2, "rob": 3, "instant": 4}
_KIND = {"chow": 1, "pung": 2, "kong": 3}


def _tiles(text: str) -> list[int]:
    """Tile indices of a canonical text (``"2m3889p"``)."""
    out: list[int] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [_INDEX[d + ch] for d in digits]
            digits = ""
    return out


class PureCore:
    """N tables, their episodes and the arrays they write (``VecEnv``'s docstring says what each holds)."""

    def __init__(self, n: int, preset: Preset, learned: Sequence[bool], bots: Sequence[str | None], seed: int,
                 match: bool, features: Sequence[float], arrays: Mapping[str, Any], logs: bool = True,
                 first: int = 0) -> None:
        self.n = n
        self.preset = preset
        self.ref = record_preset(preset)
        self.learned = list(learned)
        self.bots = list(bots)
        self.seed = seed
        self.first = first
        self.match = match
        self.features = list(features)
        self.obs, self.mask, self.player = arrays["obs"], arrays["mask"], arrays["player"]
        self.reward, self.done = arrays["reward"], arrays["done"]
        self.games: list[Any] = [None] * n
        self.index = [0] * n          # the episode each table plays (wall ``wall_seed(seed, index)``)
        self.count = [0] * n          # episodes each table has begun
        self.hist: list[list[list[list[int]]]] = [[[], [], [], []] for _ in range(n)]
        self.points = [[0.0] * 4 for _ in range(n)]
        self.players: list[list[Bot | None]] = [[None] * 4 for _ in range(n)]
        self.finished: list[list[dict[str, Any]] | None] = [None] * n
        self.open: list[dict[str, Any] | None] = [None] * n
        self.like: Table | None = None
        self.progress: Any = None
        self.quiet = not logs

    # ------------------------------------------------------------ episodes

    def reset(self) -> None:
        for i in range(self.n):
            self.count[i] = 0
            self.finished[i] = None
            self.reward[i] = 0.0
            self.done[i] = False
            self._begin(i)
            self._advance(i)

    def _begin(self, i: int) -> None:
        k = self.first + self.count[i] * self.n + i
        self.count[i] += 1
        self.index[i] = k
        s = wall_seed(self.seed, k)
        if self.match:
            self.games[i] = Match(self.preset, seed=s)
            self.games[i].table.quiet = self.quiet
        else:
            deal = first_deal(self.preset, s, self.ref)
            t = Table.dealt(deal, self.progress, like=self.like)
            if self.progress is None:  # (a hand's progress before it is never changed: the next hands share it)
                self.progress = t.progress
            t.quiet = self.quiet
            self.like = t
            self.games[i] = t
        self.hist[i] = [[], [], [], []]
        self.points[i] = [0.0] * 4
        self.players[i] = [None if self.learned[p] else make_bot(str(self.bots[p]), self.preset,
                                                                 bot_seed(self.seed, k, 0, SEATS[p]))
                           for p in range(4)]

    def _seats(self, i: int) -> list[int]:
        """By seat, the player (0..3) sitting there in table ``i``'s hand in play."""
        g = self.games[i]
        if not self.match:
            return [0, 1, 2, 3]
        names = g.players
        seats = g.table.seats
        return [names.index(seats[s]) for s in SEATS]

    def _advance(self, i: int) -> None:
        """Bots play table ``i`` until a learned player is asked (a finished episode is begun again)."""
        while True:
            g = self.games[i]
            if g.over:
                self.finished[i] = list(g.log)
                self.done[i] = True
                self._begin(i)
                continue
            q = g.prompts()[0]
            p = self._seats(i)[SEATS.index(q["seat"])]
            if self.learned[p]:
                self.open[i] = q
                self._write(i, q, p)
                return
            bot = self.players[i][p]
            assert bot is not None
            self._submit(i, q, bot.decide(q))

    def _submit(self, i: int, q: Mapping[str, Any], decision: Mapping[str, Any]) -> None:
        g = self.games[i]
        before = len(g.log)
        seats = self._seats(i)
        if decision.get("act") == "discard":
            s = SEATS.index(q["seat"])
            tile = _INDEX[decision["tile"]]
            if len(self.hist[i][s]) < MAX_DISCARDS + 64:  # (bounded; only the first MAX_DISCARDS are written)
                self.hist[i][s].append([tile, 0, int(q["phase"] == "turn" and q["view"]["drawn"] == decision["tile"])])
        ponds = self._ponds(g)
        g.submit(dict(decision))
        if not any(r["event"] in ("start", "end_hand") for r in g.log[before:]):  # (the same hand goes on)
            for s, (was, now) in enumerate(zip(ponds, self._ponds(g))):
                if now < was and self.hist[i][s]:  # a discard claimed leaves its pond
                    self.hist[i][s][-1][1] = 1
        for j, rec in enumerate(g.log[before:], before):
            if rec["event"] == "end_hand":
                first = max(x for x in range(j + 1) if g.log[x]["event"] == "start")
                pay = hand_rewards(g.log[first:j + 1])
                for s in range(4):
                    self.reward[i, seats[s]] += pay[s]
                    self.points[i][seats[s]] += pay[s]
            elif rec["event"] == "start":  # a match's next hand
                self.hist[i] = [[], [], [], []]
                seats = self._seats(i)
                g.table.quiet = self.quiet

    def _ponds(self, g: Any) -> list[int]:
        """How many unclaimed discards each seat's pond holds, by seat."""
        t = g.table if self.match else g
        ponds = t.view("E")["ponds"]
        return [len(ponds[s]) // 2 for s in SEATS]

    # ------------------------------------------------------------ steps

    def step(self, actions: Sequence[int], fallback: bool, penalty: float) -> None:
        """One decision for every table (``actions[i]`` for table ``i``'s player asked); all checked first."""
        chosen: list[dict[str, Any]] = []
        for i in range(self.n):
            q = self.open[i]
            assert q is not None
            a = int(actions[i])
            ids = legal_actions(q)
            if a not in ids:
                if not fallback:
                    what = f" ({action_name(a)})" if 0 <= a < len(self.mask[i]) else ""
                    legal = ", ".join(f"{x} {action_name(x)}" for x in ids)
                    raise TableError(f"actions[{i}] = {shown(a)}{what}: not legal for table {i}'s player "
                                     f"{int(self.player[i])} (legal: {legal})", f"actions[{i}]", a)
                a = self._fallback(q, ids)
            chosen.append({"prompt": q["prompt"], "seat": q["seat"], **q["actions"][ids.index(a)]})
        for i in range(self.n):
            self.reward[i] = 0.0
            self.done[i] = False
            self.finished[i] = None
        for i in range(self.n):
            q = self.open[i]
            assert q is not None
            if int(actions[i]) not in legal_actions(q):
                self.reward[i, int(self.player[i])] -= penalty
            self._submit(i, q, chosen[i])
            self._advance(i)

    @staticmethod
    def _fallback(q: Mapping[str, Any], ids: list[int]) -> int:
        """What an illegal action becomes: the pass, else the discard of the tile just drawn, else the first discard
        offered (a turn offers discards; every other prompt the pass)."""
        if PASS_ID in ids:
            return PASS_ID
        drawn = q["view"]["drawn"]
        for a, x in zip(q["actions"], ids):
            if a.get("act") == "discard" and a.get("tile") == drawn:
                return x
        return next((x for a, x in zip(q["actions"], ids) if a.get("act") == "discard"), ids[0])

    def use_params(self, params: Any) -> None:
        """(The pure core plays every bot through its prompts: nothing to keep.)"""

    def expert(self, name: str, out: Any) -> None:
        """Into ``out``, by table: the action the bot ``name`` would take for the player asked."""
        for i in range(self.n):
            q = self.open[i]
            assert q is not None
            d = make_bot(name, self.preset, bot_seed(self.seed, self.index[i], 1, q["seat"])).decide(q)
            action = {k: v for k, v in d.items() if k not in ("prompt", "seat")}
            out[i] = legal_actions(q)[q["actions"].index(action)]

    def log(self, i: int) -> list[dict[str, Any]]:
        return list(self.games[i].log)

    # ------------------------------------------------------------ observations

    def _write(self, i: int, q: Mapping[str, Any], p: int) -> None:
        v = q["view"]
        s = SEATS.index(q["seat"])
        rel = [(s + j) % 4 for j in range(4)]  # self, next, opposite, previous
        o = [0.0] * OBS_SIZE
        hand = _tiles(v["tiles"])
        if v["drawn"] is not None:
            hand.append(_INDEX[v["drawn"]])
            if q["phase"] == "turn":
                o[OFFSET["drawn"] + _INDEX[v["drawn"]]] = 1.0
        seen = [0] * 34
        for t in hand:
            o[OFFSET["hand"] + t] += 1.0
            seen[t] += 1
        seats = self._seats(i)
        for j, seat in enumerate(rel):
            melds = v["melds"][SEATS[seat]]
            for m, meld in enumerate(melds[:4]):
                at = OFFSET["melds"] + (j * 4 + m) * 4
                o[at] = float(_KIND[meld["kind"]])
                if meld["tiles"] is not None:
                    tiles = _tiles(meld["tiles"])
                    o[at + 1] = float(min(tiles) + 1)
                    for t in tiles:
                        o[OFFSET["shown"] + j * 34 + t] += 1.0
                        seen[t] += 1
                o[at + 2] = float(bool(meld.get("concealed")))
                if meld.get("from") is not None:
                    o[at + 3] = float((SEATS.index(meld["from"]) - s) % 4 + 1)
            for t in _tiles(v["ponds"][SEATS[seat]]):
                seen[t] += 1
            for d, (tile, claimed, drawn) in enumerate(self.hist[i][seat][:MAX_DISCARDS]):
                at = OFFSET["discards"] + (j * MAX_DISCARDS + d) * 3
                o[at], o[at + 1], o[at + 2] = float(tile + 1), float(claimed), float(drawn)
            for b in _tiles(v["bonus"][SEATS[seat]]):
                o[OFFSET["bonus"] + j * 8 + b - 34] = 1.0
            o[OFFSET["points"] + j] = self.points[i][seats[seat]]
        phase = _PHASE[q["phase"]]
        o[OFFSET["phase"] + phase] = 1.0
        if q["phase"] in ("claim", "rob"):
            t = _INDEX[q["tile"]]
            seen[t] += 1
            o[OFFSET["offered"] + t] = 1.0
            o[OFFSET["offered_from"] + (SEATS.index(q["from"]) - s) % 4] = 1.0
        for t in range(34):
            o[OFFSET["unseen"] + t] = float(max(0, 4 - seen[t]))
        o[OFFSET["live_left"]] = float(v["live_left"])
        o[OFFSET["seat_wind"] + s] = 1.0
        o[OFFSET["round_wind"] + SEATS.index(v["round"])] = 1.0
        o[OFFSET["dealer"] + (0 - s) % 4] = 1.0
        o[OFFSET["preset"]:OFFSET["preset"] + len(self.features)] = self.features
        self.obs[i] = o
        self.mask[i] = 0
        for a in legal_actions(q):
            self.mask[i, a] = 1
        self.player[i] = p
