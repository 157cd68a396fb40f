"""What a seat may see, worked out from a table's whole log (GAME.md §8.4; docs/server.md, "What a seat
sees"), for holding every message a served seat was sent to it, field by field.

``Seen`` follows a hand's records and says what one seat sees after any prefix of them: its own concealed
tiles (the tile just drawn apart, on its turn), everyone's declared sets, bonus tiles, ponds and counts, the
tiles left to draw: written here from the records alone, not read from the engine. ``points`` walks a hand's
log through a ``Table`` as a referee of who is asked what (GAME.md §3.3: the legal claims), the engine's way
or with every window open to every seat, and gives each moment a seat may be shown. ``expected`` is the
whole state a seat may be sent at one of those moments, and ``Checker`` matches a seat's messages, in the
order they came, to the moments of the log, each equal to its expected state.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from hkcore import load_preset
from hkcore.preset import Preset
from hkcore.registry import current
from hkcore.table import Table
from hkcore.table.advice import advice
from hkcore.table.rotation import progress_for
from hkcore.tiles import format_tiles, parse_tiles

SEATS = "ESWN"
#: the seats' names where a person sits and the table was given none
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
#: every key of a seat's state (docs/server.md, "What a seat sees")
STATE_KEYS = {"table", "seat", "home", "version", "status", "preset", "seats", "names", "homes", "hand", "round",
              "dealer", "deal", "view", "prompt", "waiting_for", "deadline_ms", "claim_seconds", "turn_seconds",
              "away", "events", "advice",
              "result", "standings"}
PASS = {"act": "pass"}
ROBBED = {"none": (), "added": ("added",), "added_and_concealed_orphans": ("added", "concealed")}


def codes(text: str | None) -> list[str]:
    return [t.code for t in parse_tiles(text or "")]


def canonical(tiles: Sequence[str]) -> str:
    return format_tiles("".join(tiles)) if tiles else ""


def split_hands(log: Sequence[Mapping[str, Any]]) -> list[list[dict[str, Any]]]:
    """A table's log cut into its hands, each from its start record (``end_match`` with the last)."""
    hands: list[list[dict[str, Any]]] = []
    for r in log:
        if r["event"] == "start":
            hands.append([])
        hands[-1].append(dict(r))
    return hands


class Seen:
    """A hand's records so far, kept as what they leave on the table: each seat's concealed tiles (this
    knows them all, from the deal), sets, bonus tiles and pond, the tile just drawn, the wall taken."""

    def __init__(self, start: Mapping[str, Any], preset: Preset) -> None:
        self.preset = preset
        self.hide = not preset.table.show_concealed_kongs
        self.concealed = {s: codes(start["hands"][s]) for s in SEATS}
        self.melds: dict[str, list[dict[str, Any]]] = {s: [] for s in SEATS}
        self.bonus: dict[str, list[str]] = {s: [] for s in SEATS}
        self.ponds: dict[str, list[str]] = {s: [] for s in SEATS}
        self.points = start["points"]
        self.wall = len(codes(start["live"])) + len(codes(start["dead"]))
        self.front = 0  # tiles taken from the front (live draws; replacements under replacement = "front")
        self.back = 0  # replacements taken from the back
        self.drawn: tuple[str, str] | None = None  # (seat, tile) while that seat is on its turn after a draw
        self.over = False

    def replaced(self) -> None:
        if self.preset.table.replacement == "front":
            self.front += 1
        else:
            self.back += 1

    def add(self, r: Mapping[str, Any]) -> None:
        e, s = r["event"], r.get("seat")
        if e == "draw":
            self.concealed[s].append(r["tile"])
            if r.get("source", "live") == "live":
                self.front += 1
            else:
                self.replaced()
            self.drawn = (s, r["tile"])
            return
        if e == "bonus":
            self.concealed[s].remove(r["tile"])
            self.bonus[s].append(r["tile"])
            if r["replacement"] is not None:
                self.replaced()
                self.concealed[s].append(r["replacement"])
                if self.drawn is not None and self.drawn[0] == s:
                    self.drawn = (s, r["replacement"])
            return
        self.drawn = None
        if e == "discard":
            self.concealed[s].remove(r["tile"])
            self.ponds[s].append(r["tile"])
        elif e in ("chow", "pung") and "from" in r:
            taken = codes(r["tiles"])
            claimed = self.ponds[r["from"]].pop()
            taken.remove(claimed)
            for t in taken:
                self.concealed[s].remove(t)
            self.melds[s].append({"kind": e, "tiles": r["tiles"], "from": r["from"]})
        elif e == "pung":  # a pung laid face up from the seat's own draw (G9): no from
            for t in codes(r["tiles"]):
                self.concealed[s].remove(t)
            self.melds[s].append({"kind": "pung", "tiles": r["tiles"]})
        elif e == "kong":
            tiles = codes(r["tiles"])
            if r["kind"] == "exposed":
                self.ponds[r["from"]].pop()
                for t in tiles[:3]:
                    self.concealed[s].remove(t)
                self.melds[s].append({"kind": "kong", "tiles": r["tiles"], "from": r["from"]})
            elif r["kind"] == "concealed":
                for t in tiles:
                    self.concealed[s].remove(t)
                self.melds[s].append({"kind": "kong", "tiles": r["tiles"], "concealed": True})
            else:
                self.concealed[s].remove(tiles[0])
                pung = next(m for m in self.melds[s] if m["kind"] == "pung" and codes(m["tiles"])[0] == tiles[0])
                pung.update(kind="kong", tiles=r["tiles"])
        elif e == "win":
            if r["tile"] is not None and r["from"] is not None:
                self.concealed[s].append(r["tile"])
                if r["robbing"] is None:
                    self.ponds[r["from"]].pop()
                elif r["robbing"] == "concealed":  # the kong is not made: three tiles back to its hand
                    self.melds[r["from"]].pop()
                    self.concealed[r["from"]] += [r["tile"]] * 3
                else:
                    m = next(m for m in self.melds[r["from"]] if m["kind"] == "kong" and "concealed" not in m
                             and codes(m["tiles"])[0] == r["tile"])
                    m.update(kind="pung", tiles=canonical([r["tile"]] * 3))
        elif e == "end_hand":
            self.over = True
            self.points = r["points"]

    def live_left(self) -> int:
        left = self.wall - self.front - self.back
        return max(0, left - max(0, self.preset.table.dead_wall - self.back))

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` sees (GAME.md §8.4's view)."""
        own = list(self.concealed[seat])
        drawn = None
        if self.drawn is not None and self.drawn[0] == seat and not self.over:
            drawn = self.drawn[1]
            own.remove(drawn)
        melds = {s: [dict(m, tiles=None) if self.hide and s != seat and m.get("concealed") else dict(m)
                     for m in self.melds[s]] for s in SEATS}
        return {"seat": seat, "hand": None, "round": None, "live_left": self.live_left(), "tiles": canonical(own),
                "drawn": drawn, "melds": melds, "bonus": {s: canonical(self.bonus[s]) for s in SEATS},
                "ponds": {s: "".join(self.ponds[s]) for s in SEATS},
                "held": {s: len(self.concealed[s]) for s in SEATS},
                "points": None if self.points is None else dict(self.points)}


def seen_events(records: Sequence[Mapping[str, Any]], seat: str, hide: bool) -> list[dict[str, Any]]:
    """The records after the start as ``seat`` may see them: another seat's draw without its tile, its
    bonus tile's replacement unshown, its concealed kong's tiles null where the preset hides them."""
    out = []
    for r in records:
        own = r.get("seat") == seat
        if r["event"] == "draw" and not own:
            r = {k: v for k, v in r.items() if k != "tile"}
        elif r["event"] == "bonus" and not own:
            r = {k: v for k, v in r.items() if k != "replacement"}
        elif r["event"] == "kong" and r.get("kind") == "concealed" and hide and not own:
            r = {**r, "tiles": None}
        out.append(dict(r))
    return out


@dataclass
class Point:
    """A moment of a hand a seat may be shown: the first ``k`` records seen, the window or turn open then
    (``phase``, ``tile``, ``frm``) and each seat asked with its actions, before any answer."""

    k: int
    phase: str | None
    asked: dict[str, list[dict[str, Any]]]
    tile: str | None = None
    frm: str | None = None


def _action(r: Mapping[str, Any]) -> dict[str, Any]:
    """The decision a decision record stands for (matched by the engine on act, kind, tiles, tile)."""
    e = r["event"]
    if e == "discard":
        return {"act": "discard", "tile": r["tile"]}
    if e == "kong":
        return {"act": "kong", "kind": r["kind"], "tiles": r["tiles"]}
    if e == "win":
        return {"act": "win"}
    return {"act": e, "tiles": r["tiles"]}


def _point(t: Table) -> Point:
    ps = t.prompts(views=False)
    return Point(len(t.log), ps[0]["phase"] if ps else None, {p["seat"]: p["actions"] for p in ps},
                 ps[0].get("tile") if ps else None, ps[0].get("from") if ps else None)


def points(records: Sequence[Mapping[str, Any]], open_claims: bool, players: Sequence[str]) -> list[Point]:
    """The moments of one hand (its records, the start first) a seat may be shown, in order: after each
    decision that changes who is asked, with who is asked then. With ``open_claims``, a window on every
    discard and robbable kong asks the three other seats (a seat the engine does not ask, with just pass),
    and the engine's own window on it is never shown: its answers reach it all at once. ``players``: the
    match's players from its first dealer (a hand played alone knows them only by the default names)."""
    start = records[0]
    alone = progress_for(start["seats"], start["round"], start["hand"], start["points"])
    t = Table(start, progress=replace(alone, players=tuple(players)))
    robbed = ROBBED[t.preset.claims.get("robbing_kong", "added")]
    out = [_point(t)]
    while len(t.log) < len(records):
        i = len(t.log)  # the record the engine writes next, once it has the answers it needs
        r = records[i]
        if t.over:  # a match's end_match, which the match writes after its last hand
            assert r["event"] == "end_match" and i == len(records) - 1, r
            break
        ps = t.prompts(views=False)
        assert ps, f"record {i} ({r['event']}): nobody is asked"
        number = ps[0]["prompt"]
        act = _action(r)["act"] if r["event"] in ("discard", "chow", "pung", "kong", "win") else None
        p = next((p for p in ps if p["seat"] == r.get("seat") and any(a["act"] == act for a in p["actions"])), None)
        if p is None:  # a seat in a window that no record names passes
            p = next(p for p in ps if p["phase"] in ("claim", "rob", "instant"))
            t.submit({"prompt": p["prompt"], "seat": p["seat"], **PASS})
        else:
            t.submit({"prompt": p["prompt"], "seat": p["seat"], **_action(r)})
        held = open_claims and p["seat"] == r.get("seat") and (r["event"] == "discard" or (
            r["event"] == "kong" and r["kind"] in robbed))
        if held:
            frm = r["seat"]
            order = [SEATS[(SEATS.index(frm) + j) % 4] for j in (1, 2, 3)]
            now = _point(t)
            engine = now.asked if now.k == i + 1 and now.phase in ("claim", "rob") else {}
            phase = "claim" if r["event"] == "discard" else "rob"
            tile = r["tile"] if phase == "claim" else codes(r["tiles"])[0]
            out.append(Point(i + 1, phase, {s: engine.get(s, [PASS]) for s in order}, tile, frm))
            while engine and len(t.log) == i + 1 and t.prompts(views=False):  # its answers, all at once
                q = t.prompts(views=False)[0]
                nxt = records[i + 1] if i + 1 < len(records) else {}
                claim = nxt.get("seat") == q["seat"] and nxt.get("event") in ("chow", "pung", "kong", "win")
                t.submit({"prompt": q["prompt"], "seat": q["seat"], **(_action(nxt) if claim else PASS)})
            out.append(_point(t))
        elif t.over or t.prompts(views=False)[0]["prompt"] != number:
            out.append(_point(t))
    assert t.log == [dict(x) for x in records[:len(t.log)]], next((a, b) for a, b in zip(t.log, records) if a != b)
    if len(records) > len(t.log):  # the match ends with the hand: its end_match is seen with the end
        out[-1].k = len(records)
    return out


def result_of(records: Sequence[Mapping[str, Any]], unit: str) -> dict[str, Any]:
    """The end of a hand as a seat is shown it: every win of the log (English and Chinese pattern names
    from the registry), then the end_hand record's fields."""
    names = current().catalogue.patterns
    end = next(r for r in records if r["event"] == "end_hand")

    def one(w: Mapping[str, Any]) -> dict[str, Any]:
        return {"winner": w["seat"], "from": w["from"], "tile": w["tile"], "robbing": w["robbing"], "hand": w["hand"],
                "value": w["faan"], "unit": unit, "payments": w["payments"],
                "patterns": [{"id": q["id"], "name": names[q["id"]].name_en, "chinese": names[q["id"]].name_zh,
                              "value": q["faan"]} for q in w["patterns"]]}

    wins = [one(w) for w in records if w["event"] == "win"]
    out: dict[str, Any] = {"result": end["result"], "winner": end["winner"], "from": None, "tile": None,
                           "hand": None, "value": None, "unit": unit, "patterns": [], "payments": None}
    if wins:
        out.update(wins[0])
    out.update({"delta": end["delta"], "points": end["points"], "faan": end["faan"], "next": end["next"],
                "wins": wins})
    return out


@dataclass
class Table_:
    """What the test knows of a served table: how it was made, and its whole log once it is over."""

    id: str
    preset: Preset
    kinds: dict[str, str]
    names: dict[str, str]
    claim_seconds: float
    turn_seconds: float | None
    open_claims: bool
    match: bool
    log: list[dict[str, Any]] = field(default_factory=list)
    #: the seed the table was made with (a practice table's, which every seat is shown), or None
    practice_seed: int | None = None

    def home_of(self, player: str) -> str:
        """The home of the player named ``player`` in the log (the table's names are its players')."""
        return next(home for home, name in self.names.items() if name == player)


class Checker:
    """Holds every state one home's player was sent to what the log lets it see (``check``), in order."""

    def __init__(self, table: Table_, home: str, strict: bool = True, pushed: bool = False) -> None:
        """``strict``: the player's state is made only for the messages checked here (no other reader), so
        each change of what it sees raises its version by exactly one, from 1. ``pushed``: the messages were
        pushed on a socket, so each tells of a change (a message that changes nothing would tell the seat
        that something it cannot see happened)."""
        self.table = table
        self.strict = strict
        self.pushed = pushed
        self.home = home
        self.hands = split_hands(table.log)
        self.moments = [points(h, table.open_claims, [table.names[s] for s in SEATS]) for h in self.hands]
        self.at = (0, 0)  # the hand and point the last state was shown at
        self.last: tuple[str, int] | None = None  # the last state's text less version and clock, its version
        self.answered: set[int] = set()  # the player's own prompt numbers it answered
        self.count = self._counts()
        self.checked = 0
        self.match_over = table.log[-1]["event"] == "end_match"

    def _counts(self) -> dict[tuple[int, int], int]:
        """The player's own number of each prompt it is asked (how many it has been asked so far)."""
        out, n = {}, 0
        for h, moments in enumerate(self.moments):
            seat = self.seat_in(h)
            for j, p in enumerate(moments):
                if seat in p.asked:
                    n += 1
                    out[(h, j)] = n
        return out

    def seat_in(self, h: int) -> str:
        seats = self.hands[h][0]["seats"]
        return next(s for s in SEATS if self.table.home_of(seats[s]) == self.home)

    def view_at(self, h: int, k: int, seat: str) -> dict[str, Any]:
        records = self.hands[h]
        seen = Seen(records[0], self.table.preset)
        for r in records[1:k]:
            seen.add(r)
        v = seen.view(seat)
        v["hand"], v["round"] = records[0]["hand"], records[0]["round"]
        return v

    def expected(self, h: int, j: int, answered: bool) -> dict[str, Any]:
        """The state the player may be sent at moment ``j`` of hand ``h`` (its version and clock aside):
        ``answered``, after it has answered the prompt open then."""
        t = self.table
        records = self.hands[h]
        p = self.moments[h][j]
        seat = self.seat_in(h)
        start = records[0]
        homes = {s: t.home_of(start["seats"][s]) for s in SEATS}
        seen = records[:p.k]
        over = any(r["event"] == "end_hand" for r in seen)
        last = h == len(self.hands) - 1
        status = "playing" if not over else "over" if not t.match or (last and self.match_over) else "hand_over"
        asked = seat in p.asked and not answered
        prompt = None
        if asked:
            prompt = {"prompt": self.count[(h, j)], "seat": seat, "phase": p.phase}
            if p.phase in ("claim", "rob"):
                prompt.update(tile=p.tile, **{"from": p.frm})
            prompt["actions"] = p.asked[seat]
        if p.phase in ("turn", "discard"):
            waiting = list(p.asked)
        else:
            waiting = [seat] if asked else []
        view = self.view_at(h, p.k, seat)
        events = seen_events(seen[1:], seat, not t.preset.table.show_concealed_kongs)
        pr = t.preset
        return {"table": t.id, "seat": seat, "home": self.home, "status": status,
                "preset": {"id": pr.id, "name": pr.name, "unit": pr.unit, "minimum": pr.minimum, "cap": pr.cap},
                "seats": {s: t.kinds[homes[s]] for s in SEATS}, "names": {s: t.names[homes[s]] for s in SEATS},
                "homes": homes, "hand": start["hand"], "round": start["round"], "dealer": "E",
                "deal": {"commitment": start["commitment"], "practice_seed": t.practice_seed}, "view": view,
                "prompt": prompt, "waiting_for": waiting, "claim_seconds": t.claim_seconds,
                "turn_seconds": t.turn_seconds, "away": [], "events": events,
                "advice": None if over else advice(pr, [start, *events], view, prompt, seat),
                "result": result_of(records, pr.unit) if over else None,
                "standings": [{**row, "home": t.home_of(row["player"])} for row in t.log[-1]["standings"]]
                if status == "over" and self.match_over else None}

    def check(self, text: str) -> None:
        """One state the player was sent (a socket message or an HTTP answer), as text."""
        state = json.loads(text)
        state.pop("type", None)
        assert set(state) == STATE_KEYS, sorted(set(state) ^ STATE_KEYS)
        version, clock = state.pop("version"), state.pop("deadline_ms")
        h = state["hand"] - self.hands[0][0]["hand"]
        k = 1 + len(state["events"])
        assert h >= self.at[0], (h, self.at)
        start = self.at[1] if h == self.at[0] else 0
        found = None
        for j in range(start, len(self.moments[h])):
            if self.moments[h][j].k != k:
                continue
            for answered in (False, True):
                if answered and self.count.get((h, j)) not in self.answered:
                    continue
                if self.expected(h, j, answered) == state:
                    found = j
                    break
            if found is not None:
                break
        if found is None:
            near = [j for j in range(start, len(self.moments[h])) if self.moments[h][j].k == k]
            assert near, f"hand {h}: no moment with {k} records seen after {start}: {state['events'][-3:]}"
            want = self.expected(h, near[0], False)
            diff = {key: (state.get(key), want.get(key)) for key in want if state.get(key) != want.get(key)}
            raise AssertionError(f"{self.home}: a state no moment of the log allows: {diff}")
        self.at = (h, found)
        p = self.moments[h][found]
        if state["prompt"] is not None and p.phase in ("claim", "rob", "instant") and t_human(self.table, self.home):
            assert isinstance(clock, int) and 0 <= clock <= self.table.claim_seconds * 1000, clock
        elif state["prompt"] is not None and p.phase in ("turn", "discard") and self.table.turn_seconds is not None:
            assert isinstance(clock, int) and 0 <= clock <= self.table.turn_seconds * 1000, clock
        else:
            assert clock is None, clock
        seen = json.dumps(state, sort_keys=True)
        if self.last is None:
            assert version == 1 or not self.strict, version
        else:
            same = self.last[0] == seen
            assert not (same and self.pushed), "a message pushed that changes nothing the seat sees"
            grown = version - self.last[1]
            assert grown == 0 if same else (grown == 1 if self.strict else grown > 0), (version, self.last[1], same)
        self.last = (seen, version)
        self.checked += 1


def t_human(table: Table_, home: str) -> bool:
    return table.kinds[home] == "human"


def preset_of(ref: str) -> Preset:
    return load_preset(ref)
