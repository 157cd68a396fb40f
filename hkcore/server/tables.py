"""Tables in the service (docs/server.md, "Tables"): the tables one application holds in memory
(``TableRegistry``, kept in ``app.state.tables``) and one table in play (``LiveTable``).

A ``LiveTable`` owns a ``hkcore.table.Table`` (one hand) or ``Match`` and the bots of its bot seats;
it answers each seat's state (only what GAME.md §8.4's view lets that seat see: docs/server.md, "What a seat
sees"), takes a seat's decisions, lets the bots answer at once, and times the claim windows of its human seats
with the event loop's timers (the engine keeps no clock): a human seat that runs out passes. Its windows are
asked through ``hkcore.table.windows.Windows``: the engine's way, or with ``open_claims`` of every seat on every
discard. A seat's ``version`` and its prompts' numbers are its own: they move only with what it sees.
Everything here runs on the application's event loop, so a table changes only between two awaits and needs no
lock. The tables of bots alone are nobody's to watch: they are played one after another in short slices and get
at most a share of the worker's time (``bot_share``), so that a person never waits behind them.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import sqlite3
import sys
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from hkcore.errors import HkcoreError, TableError, shown
from hkcore.preset import Preset
from hkcore.registry import current
from hkcore.server.database import Change, Stored, TableStore, same_hash, token_hash
from hkcore.server.problems import ApiError
from hkcore.table import Match, Table
from hkcore.table.advice import advice
from hkcore.table.commitment import deal_salt
from hkcore.table.players.bots import Bot, BotFactory, available_bots, builtin_bots, make_bot
from hkcore.table.players.external import (
    FALLBACK as PROGRAM_FALLBACK,
    TIME_LIMIT as PROGRAM_TIME_LIMIT,
    CommandBot,
    ProgramFactory,
    is_command,
)
from hkcore.table.records import line, lines
from hkcore.table.start import MAX_NAME, record_preset, resolve_preset
from hkcore.table.windows import PASS, Windows
from hkcore.tiles import SEATS

#: the most tables one application holds at once (a new one beyond them: 503)
MOST_TABLES = 1000
#: seconds a table is kept without a request, a socket message or a change at the table
IDLE_SECONDS = 1800.0
#: seconds of a human seat's claim window when the preset's ``[table] claim_seconds`` is false
CLAIM_SECONDS = 15.0
#: seconds of a human seat's turn when the preset's ``[table] turn_seconds`` is false: a person who lets it run
#: out is *away*, and the table's fallback bot plays the seat until the person is back
TURN_SECONDS = 60.0
#: the bot that plays a person's seat while the person is away
FALLBACK_BOT = "guard"
#: seconds a socket has to say hello
HELLO_SECONDS = 10.0
#: the most sockets open at one table at once (a person may hold a seat in several tabs)
MOST_SOCKETS = 16
#: the largest message a socket may send, in bytes once inflated (``hkscore serve`` has uvicorn close a longer
#: one 1009 as it inflates it, never holding it whole; a longer one that reaches the table is refused)
MAX_MESSAGE = 64 << 10
#: the most hands a served match plays: a preset whose ``[table] hands`` asks for more is refused, and a match
#: whose rounds run longer ends there (``end_match``, reason ``stopped``)
MOST_HANDS = 100
#: seconds of bot decisions at the tables of bots alone played at a time, before the event loop serves
#: everything else waiting (a slice ends after the decision that crosses it)
BOT_SLICE = 0.002
#: the most of the worker's time the tables of bots alone take: after each slice they rest long enough
BOT_SHARE = 0.25
#: a rest of the bots' that ends later than this (the event loop busy with people's work, or the worker
#: short of CPU) makes the next rest twice as long; one on time halves it again, down to the share's
BOT_LATE = 0.005
#: the longest rest of the bots' (so that they still finish on a worker that is always behind)
BOT_MOST_REST = 1.0
#: the phases that are windows: a human seat asked in one is timed, and passes when its time runs out
TIMED_PHASES = frozenset({"claim", "rob", "instant"})
#: the phases of a turn: the one seat asked is shown to every seat (whose turn it is is public)
TURN_PHASES = frozenset({"turn", "discard"})
HUMAN = "human"
#: a seat's default display name when a human sits there
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def player_names(seats: Mapping[str, str], names: Mapping[str, str]) -> dict[str, str]:
    """Each seat's player name, as the page, the standings and the log's start records show it: the name
    given, else the seat's wind for a person and the bot's name for a bot (a bot's name that two seats
    would share told apart by the seat: ``"efficiency (S)"``). Names given must differ from every other
    seat's: a TableError naming ``names.<seat>`` otherwise."""
    out: dict[str, str] = {}
    for s in SEATS:
        kind = seats[s]
        given = names.get(s)
        if given is not None:
            if not isinstance(given, str) or not given.strip() or not given.isprintable() or len(given) > MAX_NAME:
                raise TableError(f"names.{s} = {shown(given)}: 1 to {MAX_NAME} printable characters, not only "
                                 "spaces", f"names.{s}", given)
            out[s] = given.strip()
        elif kind == HUMAN:
            out[s] = SEAT_NAMES[s]
        else:
            twins = [t for t in SEATS if seats[t] == kind and names.get(t) is None]
            out[s] = kind[:MAX_NAME] if len(twins) == 1 else f"{kind[:MAX_NAME - 4]} ({s})"
    for i, s in enumerate(SEATS):
        other = next((t for t in SEATS[:i] if out[t] == out[s]), None)
        if other is not None:  # the later seat's name is refused, unless only the earlier one's was given
            bad, first = (s, other) if names.get(s) is not None else (other, s)
            raise TableError(f"names.{bad} = {shown(out[bad])}: seat {first}'s name too; each seat's name must be "
                             "its own", f"names.{bad}", out[bad])
    return out
#: seconds between two checkpoints of the database (its WAL copied into the file, on a thread)
CHECKPOINT_SECONDS = 2.0
#: the most programs (``hkscore serve --bot NAME=cmd:...``) seated at once at the unfinished tables of one
#: application: a table that would seat more is refused 503 (each is a process of its own)
MOST_PROGRAMS = 16
#: what a bot a program plays may be called: a letter or digit, then letters, digits, ``-``, ``_`` or ``.``
PROGRAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")


def warn(message: str) -> None:
    """A warning of the service's on stderr."""
    print(f"hkscore: warning: {message}", file=sys.stderr, flush=True)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None without one)."""
    if not header:
        return None
    kind, _, token = header.strip().partition(" ")
    return token.strip() or None if kind.lower() == "bearer" else None


@dataclass
class Listener:
    """One socket's seat at a table: woken when the table changes; ``errors`` waits to be sent first;
    ``closing`` is the close code once the table is gone."""

    home: str
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    errors: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=16))  # a flood keeps the last
    closing: int | None = None


@dataclass
class _Timer:
    prompt: int
    at: float  # event-loop time
    handle: asyncio.TimerHandle


class LiveTable:
    """One table in play: its game, seats, tokens, bots, timers and sockets (see the module). A table made
    again from the database (``rebuilt``) is given its seats' token hashes (``hashes``) and its bots' seeds
    (``bot_seeds``; by default the table's seed plus the seat's place, E 0 to N 3)."""

    def __init__(self, table_id: str, preset: Preset, seats: Mapping[str, str],
                 names: Mapping[str, str], match: bool, seed: int, claim_seconds: float,
                 now: Callable[[], float],
                 bots: Mapping[str, BotFactory] | None = None, open_claims: bool = False,
                 turn_seconds: float | None = None, fallback: str = FALLBACK_BOT,
                 salt_key: bytes | None = None, practice: bool = False, bot_seed: int | None = None, *,
                 hashes: Mapping[str, str] | None = None, bot_seeds: Mapping[str, int] | None = None) -> None:
        self.id = table_id
        self.preset = preset
        self.seats = {s: seats[s] for s in SEATS}
        #: each home's player name (``player_names``): the page's, the standings' and the log's
        self.names = player_names(self.seats, names)
        #: each player's home, by name
        self.homes = {name: s for s, name in self.names.items()}
        self.seed = seed
        #: whether the seed was chosen by whoever made the table: every seat is told it (docs/server.md, "Deals")
        self.practice = practice
        #: the secret each deal's salt is made from (``hkcore.table.commitment.deal_salt``)
        self.salt_key = salt_key if salt_key is not None else secrets.token_bytes(32)
        self.claim_seconds = claim_seconds
        #: seconds of a person's turn before the person is away (None: no clock)
        self.turn_seconds = turn_seconds
        humans = [s for s in SEATS if self.seats[s] == HUMAN]
        #: the tokens made with the table, given out once (``POST /tables``) and then forgotten
        self.issued: dict[str, str] = {}
        if hashes is None:
            self.issued = {s: secrets.token_urlsafe(24) for s in humans}
            hashes = {s: token_hash(t) for s, t in self.issued.items()}
        #: each human seat's token's SHA-256 (hex): all the table keeps of it
        self.tokens = {s: hashes[s] for s in humans}
        self._factories = bots
        #: the bots' seeds are ``bot_seed + i``: at a table with people drawn apart from the deal's seed, which a
        #: bot's choices would otherwise tell; at a table of bots alone the seed's, so that it plays again alike
        self.bot_seed = bot_seed if bot_seed is not None else secrets.randbits(62) if self.tokens else seed
        self.bot_seeds = {s: self.bot_seed + i for i, s in enumerate(SEATS) if self.seats[s] != HUMAN} \
            if bot_seeds is None else {s: bot_seeds[s] for s in SEATS if self.seats[s] != HUMAN}
        self.bots: dict[str, Bot] = {s: make_bot(self.seats[s], preset, n, bots) for s, n in self.bot_seeds.items()}
        #: the bot that plays a person's seat while the person is away, and the homes whose person is away
        self.fallback = fallback
        self.stand_ins: dict[str, Bot] = {}
        self.away: set[str] = set()
        self.game: Table | Match
        players = tuple(self.names[s] for s in SEATS)
        if match:
            self.game = Match(preset, seed=seed, players=players, salt_key=self.salt_key)
        else:  # the log names the preset by record_preset
            self.game = Table({"event": "start", "seed": seed, "seats": dict(zip(SEATS, players, strict=True)),
                               "salt": deal_salt(self.salt_key, 1)}, preset)
        self.is_match = match
        #: the windows asked of every seat (``open_claims``) only where a person could learn from them
        self.windows = Windows(self.game, open_claims and bool(self.tokens))
        #: changes at the table (a decision, the next hand): what a state kept is checked against
        self.changes = 1
        #: the registry's clock, and when the table was last used by it (a request, a message, a change)
        self.now = now
        self.last_used = now()
        #: the hand just ended while a match waits for a human seat to ask for the next one
        self.finished: Table | None = None
        self.listeners: list[Listener] = []
        self.timers: dict[str, _Timer] = {}
        self.closed = False
        #: why a table of bots alone stopped before its end (a bot failed or made a decision refused)
        self.stopped: str | None = None
        #: by home: the state kept (the changes it was made at, its text, its version)
        self._states: dict[str, tuple[int, str, int]] = {}
        #: by home: the state's text less its version and clock as last made, and the version it was given
        self._shown: dict[str, tuple[str, int]] = {}
        #: by home: the number (``Windows``') of the last prompt the player was asked, and how many it was asked
        self._asks: dict[str, tuple[int, int]] = {}
        self._events: dict[str, tuple[Table, list[dict[str, Any]]]] = {}
        #: the client whose request made the table (``hkcore.server.clients``), and the most hands its match plays
        self.owner: str | None = None
        self.most_hands: int | None = None
        #: the database's writer of the table's changes (``TableRegistry`` sets it); None: memory only
        self.saver: Callable[[LiveTable], None] | None = None
        #: the decisions accepted since the last save (JSON texts), the log's records saved, where a stopped
        #: match cut its log since, whether the database has the table and whether it knows it ended
        self.unsaved: list[str] = []
        self.saved_records = 0
        self.cut: int | None = None
        self.stored = False
        self.ended_saved = False
        #: by home: the decision a program's bot is making on a thread (``executor``), its table's loop waiting
        self.thinking: dict[str, asyncio.Task[None]] = {}
        #: the threads the programs' decisions are made on (None: the event loop's default ones)
        self.executor: Executor | None = None
        #: called when a table of bots alone has a program's decision, to play on (``TableRegistry`` sets it)
        self.resume: Callable[[LiveTable], None] | None = None
        self._note_asks()

    # The database (hkcore.server.database): ``spec`` and ``rebuilt`` make the same table again, and its
    # accepted decisions (``unsaved``, written by ``save``) bring it to where it was.

    def spec(self) -> dict[str, Any]:
        """Everything needed to make this table again as it was made, as plain JSON values (``from_spec``):
        every argument of its making and what was drawn at random for it."""
        return {"id": self.id, "preset": record_preset(self.preset), "seats": dict(self.seats),
                "names": dict(self.names), "match": self.is_match, "seed": self.seed,
                "claim_seconds": self.claim_seconds, "open_claims": self.windows.open_claims,
                "turn_seconds": self.turn_seconds, "fallback": self.fallback, "salt_key": self.salt_key.hex(),
                "practice": self.practice, "bot_seed": self.bot_seed,
                "bots": dict(self.bot_seeds), "most_hands": self.most_hands, "owner": self.owner}

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], hashes: Mapping[str, str], now: Callable[[], float],
                  bots: Mapping[str, BotFactory] | None = None) -> LiveTable:
        """The table ``spec`` describes, as it was made, its seats' tokens those of ``hashes``."""
        live = cls(spec["id"], resolve_preset(spec["preset"], "spec.preset"), spec["seats"], spec["names"],
                   bool(spec["match"]), spec["seed"], float(spec["claim_seconds"]), now, bots,
                   bool(spec["open_claims"]), spec["turn_seconds"], spec["fallback"],
                   bytes.fromhex(spec["salt_key"]), bool(spec["practice"]), spec["bot_seed"], hashes=hashes,
                   bot_seeds=spec["bots"])
        live.most_hands = spec["most_hands"]
        live.owner = spec["owner"]
        return live

    @classmethod
    def rebuilt(cls, stored: Stored, now: Callable[[], float], bots: Mapping[str, BotFactory] | None = None
                ) -> LiveTable:
        """The table ``stored`` as it was: made from its spec, its decisions submitted again in order (each
        bot asked again where it was, so that it plays on as it would have), its log checked equal to the
        records stored (a TableError otherwise), each person's state version going on from where it was."""
        live = cls.from_spec(stored.spec, stored.tokens, now, bots)
        for d in stored.decisions:
            if d.get("next") is True:
                live._next()
                continue
            seat = d.get("seat")
            home = live.at().get(seat) if isinstance(seat, str) else None
            if home in live.bots and not isinstance(live.bots[home], CommandBot):  # (a program starts afresh)
                q = next((q for q in live.windows.prompts() if q["seat"] == seat), None)
                if q is not None and q["actions"] != [PASS]:
                    live.bots[home].decide(q)
            live._submit(d)
        made = [line(r) for r in live.game.log]
        if made != stored.records:
            at = next((i for i, (a, b) in enumerate(zip(made, stored.records)) if a != b),
                      min(len(made), len(stored.records)))
            raise TableError(f"records: the log made again differs from the one stored at record {at} "
                             f"({len(made)} made, {len(stored.records)} stored)", "records", at)
        # what a person saw since the last save was this same state, at most one version on
        live._shown = {h: ("", v) for h, v in stored.versions.items() if h in live.tokens and type(v) is int}
        live.saved_records = len(made)
        live.stored = True
        return live

    def change(self) -> Change | None:
        """What the table adds to the database since its last save (None: nothing)."""
        ended = "over" if self.game.over else "stopped" if self.stopped is not None else None
        fresh = ended is not None and not self.ended_saved
        log = self.game.log
        if self.stored and not self.unsaved and self.cut is None and len(log) == self.saved_records and not fresh:
            return None
        cut = self.saved_records if self.cut is None else min(self.cut, self.saved_records)
        versions = json.dumps({h: v for h, (_, v) in self._shown.items()}) if self.tokens else None
        return Change(self.id, self.unsaved, cut, [line(r) for r in log[cut:]], versions,
                      None if self.stored else self.spec(), None if self.stored else self.tokens,
                      ended if fresh else None, bool(self.tokens))

    def saved(self) -> None:
        """The last ``change`` is in the database."""
        self.unsaved = []
        self.saved_records = len(self.game.log)
        self.cut = None
        self.stored = True
        self.ended_saved = self.game.over or self.stopped is not None

    def save(self) -> None:
        """Write what changed to the database (nothing without one): an ApiError 503 if it cannot be."""
        if self.saver is not None:
            self.saver(self)

    # Seats and players: ``seats``, ``names``, ``tokens``, ``bots`` and ``timers`` are keyed by the seat a
    # player was given when the table was made (its *home*: the player "p1" is E's, "p2" S's...). In a match
    # the players move round the table as the deal passes; a player's seat in the hand shown is ``seat_now``.

    def at(self) -> dict[str, str]:
        """The home of the player in each seat of the hand shown."""
        players = self.hand.seats
        return {s: self.homes[players[s]] for s in SEATS}

    def seat_now(self, home: str) -> str:
        """The seat of ``home``'s player in the hand shown."""
        players = self.hand.seats
        return next(s for s in SEATS if self.homes[players[s]] == home)

    # ----------------------------------------------------------------- reading

    @property
    def hand(self) -> Table:
        """The hand shown: the one in play, or the one just ended while the match waits."""
        if self.finished is not None:
            return self.finished
        return self.game.table if isinstance(self.game, Match) else self.game

    @property
    def status(self) -> str:
        """``playing``, ``hand_over`` (a match between hands) or ``over``."""
        if self.game.over:
            return "over"
        return "hand_over" if self.finished is not None else "playing"

    def home_of(self, token: str | None, home: Any = None) -> str | None:
        """The home seat of the human player ``token`` belongs to (``home``, when given, must be it); None when none."""
        if not isinstance(token, str):
            return None
        wanted = token_hash(token)
        found = None
        for s, own in self.tokens.items():  # every seat compared: the time taken does not tell which
            if same_hash(wanted, own) and (home is None or home == s):
                found = s
        return found

    def prompts(self) -> list[dict[str, Any]]:
        """The prompts open now, numbered as ``Windows`` numbers them (none while a match waits between hands)."""
        return [] if self.finished is not None else self.windows.prompts(views=False)

    def hand_log(self) -> list[dict[str, Any]]:
        """The records of the hand shown as they may be seen now (a window held: its discard or kong too)."""
        return self.finished.log if self.finished is not None else self.windows.hand_log()

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` sees of the hand shown now (GAME.md §8.4)."""
        return self.finished.view(seat) if self.finished is not None else self.windows.view(seat)

    def log_text(self) -> str | None:
        """The log as JSON lines, once it shows no wall: the hand or match over, or a match between hands
        (its finished hands); None while a hand is being played."""
        log = self.log_records()
        return None if log is None else lines(log)

    def log_records(self) -> list[dict[str, Any]] | None:
        """The records of ``log_text``, a list of their own (the table plays on without changing it); None
        while a hand is being played."""
        status = self.status
        if status == "playing":
            return None
        log = self.game.log
        if status == "hand_over":
            last = max(i for i, r in enumerate(log) if r["event"] == "end_hand")
            return log[:last + 1]
        return list(log)

    def state_text(self, home: str) -> str:
        """The state of ``home``'s player as JSON (kept until the table changes, but for a running clock)."""
        return self.seat_state(home)[1]

    def seat_state(self, home: str) -> tuple[int, str]:
        """The version and JSON text of ``home``'s state. The version is the player's own: it rises by one
        each time what the player sees changes (its clock aside), and never for a change the player cannot
        see (another seat's pass, a window it is not asked in), so that it counts nothing hidden."""
        kept = self._states.get(home)
        if kept is not None and kept[0] == self.changes and home not in self.timers:
            return kept[2], kept[1]
        seen = json.dumps(self.state(home), ensure_ascii=False, separators=(",", ":"))
        last = self._shown.get(home)
        version = 1 if last is None else last[1] + (last[0] != seen)
        self._shown[home] = (seen, version)
        deadline = None
        timer = self.timers.get(home)
        if timer is not None:
            deadline = max(0, round((timer.at - asyncio.get_running_loop().time()) * 1000))
        text = f'{{"version":{version},"deadline_ms":{json.dumps(deadline)},{seen[1:]}'
        self._states[home] = (self.changes, text, version)
        return version, text

    def asked(self, home: str) -> tuple[dict[str, Any], int] | None:
        """``home``'s open prompt, with the number the player knows it by (how many prompts it has been
        asked), or None when nothing is asked of it."""
        seat = self.seat_now(home)
        q = next((q for q in self.prompts() if q["seat"] == seat), None)
        return None if q is None else (q, self._asks[home][1])

    def _note_asks(self) -> None:
        """Count each player's prompts: one more for every player asked in a prompt it was not asked in."""
        if self.finished is not None or not self.tokens:  # (the bots need no numbers of their own)
            return
        at = self.at()
        for q in self.prompts():
            home = at[q["seat"]]
            last = self._asks.get(home)
            if last is None or last[0] != q["prompt"]:
                self._asks[home] = (q["prompt"], 1 if last is None else last[1] + 1)

    def state(self, home: str) -> dict[str, Any]:
        """What ``home``'s player may see now (docs/server.md, "What a seat sees"), but for its version and
        the clock of its window, which ``seat_state`` adds. ``waiting_for`` is whose turn it is, or in a
        window the player itself while it is asked: never who else is asked, or how many have answered."""
        t = self.hand
        p = self.preset
        at = self.at()
        seat = self.seat_now(home)
        prompt = None
        waiting: list[str] = []
        for q in self.prompts():
            if q["phase"] in TURN_PHASES or q["seat"] == seat:
                waiting.append(q["seat"])
            if q["seat"] == seat:
                prompt = {**q, "prompt": self._asks[home][1]}
        view = self.view(seat)
        over = t.over
        return {"table": self.id, "seat": seat, "home": home, "status": self.status,
                "preset": {"id": p.id, "name": p.name, "unit": p.unit, "minimum": p.minimum, "cap": p.cap},
                "seats": {s: self.seats[at[s]] for s in SEATS}, "names": {s: self.names[at[s]] for s in SEATS},
                "homes": at, "hand": t.hand_no, "round": t.wind, "dealer": "E",
                "deal": {"commitment": t.log[0].get("commitment"),
                         "practice_seed": self.seed if self.practice else None},
                "view": view, "prompt": prompt, "waiting_for": waiting, "claim_seconds": self.claim_seconds,
                "turn_seconds": self.turn_seconds, "away": [s for s in SEATS if at[s] in self.away],
                "events": self.events(seat),
                "advice": None if over else advice(t.preset, self.hand_log(), view, prompt, seat),
                "result": result_of(t) if over else None, "standings": self.standings()}

    def events(self, seat: str) -> list[dict[str, Any]]:
        """This hand's records so far as ``seat`` may see them (no start; another seat's draws without
        their tile, a bonus tile's replacement only to its seat, a hidden concealed kong without tiles)."""
        t = self.hand
        kept = self._events.get(seat)
        if kept is None or kept[0] is not t:
            kept = (t, [])
            self._events[seat] = kept
        out = kept[1]
        hide = not self.preset.table.show_concealed_kongs
        for r in self.hand_log()[1 + len(out):]:
            own = r.get("seat") == seat
            if r["event"] == "draw" and not own:
                r = {k: v for k, v in r.items() if k != "tile"}
            elif r["event"] == "bonus" and not own:
                r = {k: v for k, v in r.items() if k != "replacement"}
            elif r["event"] == "kong" and r.get("kind") == "concealed" and hide and not own:
                r = {**r, "tiles": None}
            out.append(r)
        return out

    def standings(self) -> list[dict[str, Any]] | None:
        """The match's standings once it has ended (the log's, each with its player's ``home``)."""
        last = self.game.log[-1]
        if not self.game.over or last["event"] != "end_match":
            return None
        return [{**row, "home": self.homes[row["player"]]} for row in last["standings"]]

    # ----------------------------------------------------------------- changes

    def decide(self, home: str, decision: Any) -> None:
        """A decision of ``home``'s player (as ``Table.submit`` takes it: its ``seat`` the player's seat in
        this hand); a refused one raises the TableError and leaves the table as it was."""
        if not isinstance(decision, Mapping):
            raise TableError(f"decision = {shown(decision)}: a JSON object", "decision", decision)
        if self.finished is not None:
            raise TableError("prompt: the hand is over; ask for the next one", "prompt", decision.get("prompt"))
        if self.game.over:
            raise TableError("prompt: the game is over; nothing is asked", "prompt", decision.get("prompt"))
        seat = self.seat_now(home)
        if decision.get("seat") != seat:
            raise TableError(f"seat = {shown(decision.get('seat'))}: this token's seat is {seat}", "seat",
                             decision.get("seat"))
        # the player's own prompt, by its own number: a refusal names nothing of another seat's prompt
        n = decision.get("prompt")
        found = self.asked(home)
        if found is None:
            raise TableError(f"prompt = {shown(n)}: nothing is asked of {seat} now", "prompt", n)
        q, mine = found
        if type(n) is not int or n != mine:
            raise TableError(f"prompt = {shown(n)}: not {seat}'s open prompt ({mine})", "prompt", n)
        self._submit({**decision, "prompt": q["prompt"]})
        self.after_change()

    def next_hand(self) -> None:
        """In a match between hands, play the next one."""
        if self.finished is None or self.game.over:
            why = "the game is over" if self.game.over else "the hand is still being played"
            raise TableError(f"next: {why}", "next", None)
        self._next()
        self.after_change()

    def _next(self) -> None:
        self.finished = None
        self.changes += 1
        if self.saver is not None:
            self.unsaved.append('{"next":true}')
        self._note_asks()

    def _submit(self, decision: dict[str, Any]) -> None:
        before = self.game.table if isinstance(self.game, Match) else None
        self.windows.submit(decision)
        if self.saver is not None:
            self.unsaved.append(json.dumps(decision, ensure_ascii=False, separators=(",", ":")))
        self.changes += 1
        self.last_used = self.now()
        if isinstance(self.game, Match) and self.most_hands is not None and not self.game.over \
                and self.game.table.hand_no > self.most_hands:
            self.game.stop()  # a match whose rounds run on past the hands a server plays ends there
            self.finished = before  # (the hand shown: the last one played)
            cut = len(self.game.log) - 1  # (its log cut back to the last hand finished)
            self.cut = cut if self.cut is None else min(self.cut, cut)
        if before is not None and isinstance(self.game, Match) and self.game.table is not before \
                and not self.game.over and self.tokens:
            self.finished = before  # a match with people in it waits for one of them to ask for the next hand
        if self.game.over:
            self.stop_programs()
        self._note_asks()

    def play_bots(self, most: int | None = None) -> int:
        """Let the bots answer their prompts, and the fallback bot those of the seats whose person is away,
        until a person is asked, the hand waits or ``most`` decisions are made; the number made. A program's
        bot decides on a thread (``think``), its seat waiting meanwhile."""
        made = 0
        while (most is None or made < most) and self.finished is None and not self.game.over and not self.closed:
            at = self.at()
            q = next((q for q in self.windows.prompts() if (at[q["seat"]] in self.bots or at[q["seat"]] in self.away)
                      and at[q["seat"]] not in self.thinking), None)
            if q is None:
                break
            home = at[q["seat"]]
            if q["actions"] == [PASS]:  # asked in an open window with no claim: nothing to decide
                self._submit({"prompt": q["prompt"], "seat": q["seat"], **PASS})
            else:
                bot = self.player(home)
                if isinstance(bot, CommandBot):
                    self.thinking[home] = asyncio.get_running_loop().create_task(self.think(home, bot, q))
                    continue
                self._submit(bot.decide(q))
            made += 1
        return made

    async def think(self, home: str, bot: CommandBot, q: dict[str, Any]) -> None:
        """``home``'s program decides on ``q`` on a thread (the event loop serves everything else meanwhile,
        for up to the program's time limit); its decision is then submitted, the bots play on, the table
        saved and its sockets woken. A fault of the program's is said on stderr (its fallback plays on)."""
        faults = len(bot.faults)
        try:
            decision = await asyncio.get_running_loop().run_in_executor(self.executor, bot.decide, q)
        except Exception as exc:  # noqa: BLE001 - the fallback failed: this table alone stops
            decision = None
            self.stopped = f"{type(exc).__name__}: {exc}"
        finally:
            self.thinking.pop(home, None)
        for f in bot.faults[faults:]:
            warn(f"table {self.id}: {self.names[home]}'s program {f['kind']} at prompt {f['prompt']} "
                 f"({f['detail']}); {bot.fallback} plays the seat")
        if self.closed:
            return
        still = any(p["prompt"] == q["prompt"] and p["seat"] == q["seat"] for p in self.prompts())
        if decision is not None and still:  # (numbered through a whole match: an open prompt is this one)
            try:
                self._submit(decision)
            except TableError as exc:  # (a bot's decision is one of its actions: never expected)
                self.stopped = f"TableError: {exc}"
        if self.stopped is not None:
            self.stop_programs()
        with contextlib.suppress(ApiError):  # (not saved: the table is dropped, and said so)
            if self.tokens and self.stopped is None:
                self.after_change()
            else:
                self.save()
                self.notify()
                if self.resume is not None:
                    self.resume(self)

    def stop_programs(self) -> None:
        """Stop the programs of the table's bots (the table is over, or gone)."""
        for bot in self.bots.values():
            if isinstance(bot, CommandBot):
                bot.close()

    @property
    def programs(self) -> int:
        """The programs the table seats while it plays (0 once it is over, stopped or closed)."""
        if self.closed or self.game.over or self.stopped is not None:
            return 0
        return sum(isinstance(b, CommandBot) for b in self.bots.values())

    def player(self, home: str) -> Bot:
        """The bot that decides for ``home``: its own, or the fallback bot standing in for its person."""
        bot = self.bots.get(home)
        if bot is None:
            bot = self.stand_ins.get(home)
            if bot is None:
                bot = self.stand_ins[home] = make_bot(self.fallback, self.preset, secrets.randbits(63),
                                                      self._factories)
        return bot

    def back(self, home: str) -> None:
        """``home``'s person is here (a request or socket message with its token): its seat is its own again."""
        if home in self.away:
            self.away.discard(home)
            self.changes += 1
            self.arm_timers()
            self.notify()

    def after_change(self) -> None:
        """After a human's decision: the bots answer, the windows' timers are set, the change saved, the
        sockets woken."""
        self.play_bots()
        self.arm_timers()
        self.save()
        self.notify()

    def arm_timers(self) -> None:
        """A timer for each person newly asked in a window, and on its turn when turns are timed; those no
        longer asked cancelled."""
        loop = asyncio.get_running_loop()
        at = self.at()
        asked = {at[q["seat"]]: q for q in self.prompts()
                 if at[q["seat"]] in self.tokens and at[q["seat"]] not in self.away
                 and (q["phase"] in TIMED_PHASES or (self.turn_seconds is not None and q["phase"] in TURN_PHASES))}
        for home in list(self.timers):
            q = asked.get(home)
            if q is None or q["prompt"] != self.timers[home].prompt:
                self.timers.pop(home).handle.cancel()
        for home, q in asked.items():
            if home not in self.timers:
                turn = q["phase"] in TURN_PHASES
                seconds = self.turn_seconds if turn and self.turn_seconds is not None else self.claim_seconds
                handle = loop.call_later(seconds, self._ran_out, home, q["seat"], q["prompt"], turn)
                self.timers[home] = _Timer(q["prompt"], loop.time() + seconds, handle)

    def _ran_out(self, home: str, seat: str, prompt: int, turn: bool = False) -> None:
        """A person's clock ran out: in a window the seat passes; on its turn its person is away, and the
        fallback bot plays the seat (this turn at once) until the person is back."""
        timer = self.timers.get(home)
        if timer is None or timer.prompt != prompt or self.closed:
            return
        del self.timers[home]
        if turn:
            self.away.add(home)
            self.changes += 1
        else:
            with contextlib.suppress(TableError):  # the window closed without this seat: nothing to pass
                self._submit({"prompt": prompt, "seat": seat, "act": "pass"})
        self.after_change()

    def notify(self) -> None:
        """Wake every socket at the table."""
        for listener in self.listeners:
            listener.wake.set()

    def close(self) -> None:
        """The table is gone: timers cancelled, sockets told (4404), its bots stopped (its programs killed)."""
        self.closed = True
        for timer in self.timers.values():
            timer.handle.cancel()
        self.timers.clear()
        for task in list(self.thinking.values()):
            task.cancel()
        self.stop_programs()
        for listener in self.listeners:
            listener.closing = 4404
            listener.wake.set()

    @property
    def playing_on(self) -> bool:
        """Whether this is a table of bots alone that has not finished."""
        return not self.tokens and not self.closed and self.stopped is None and not self.game.over

    @property
    def in_play(self) -> bool:
        """Whether the table waits on the server, not on a person: bots alone still playing, or a
        person's claim window whose clock runs (it passes for them). Such a table is never idle."""
        return self.playing_on or bool(self.timers) or bool(self.thinking)


def result_of(t: Table) -> dict[str, Any] | None:
    """The end of ``t``'s hand: who won, on what, the patterns (English and Chinese), the payments."""
    wins = [r for r in t.log if r["event"] == "win"]
    end = next((r for r in reversed(t.log) if r["event"] == "end_hand"), None)
    if end is None:
        return None
    names = current().catalogue.patterns
    unit = t.preset.unit

    def one(w: Mapping[str, Any]) -> dict[str, Any]:
        pats = []
        for q in w["patterns"]:
            pat = names.get(q["id"])
            pats.append({"id": q["id"], "name": pat.name_en if pat else q["id"],
                         "chinese": pat.name_zh if pat else "", "value": q["faan"]})
        return {"winner": w["seat"], "from": w["from"], "tile": w["tile"], "robbing": w["robbing"],
                "hand": w["hand"], "value": w["faan"], "unit": unit, "patterns": pats, "payments": w["payments"]}

    out: dict[str, Any] = {"result": end["result"], "winner": end["winner"], "from": None, "tile": None,
                           "hand": None, "value": None, "unit": unit, "patterns": [], "payments": None}
    if wins:
        out.update(one(wins[0]))
    out.update({"delta": end["delta"], "points": end["points"], "faan": end["faan"], "next": end["next"],
                "wins": [one(w) for w in wins]})
    return out


# --------------------------------------------------------------------- the registry


class TableRegistry:
    """The tables of one application, by id: at most ``most`` at once; one unused for ``idle``
    seconds (by the ``now`` clock: no request, socket message or change) and not in play (``in_play``)
    is dropped at the next ``sweep``, which every lookup and creation runs, and a background task too
    (``sweeper``). The tables of bots alone take at most ``bot_share`` of the time (``play_on``). With
    ``open_claims`` the tables it is given ask every seat in every claim window (``_build`` reads it). With a
    ``store``, every change of a table is written to it before it is answered (``LiveTable.save``), and
    ``rebuild`` makes its unfinished tables again. ``programs``: the bots that programs play, by name
    (``NAME -> "PROGRAM ARGS"``, the operator's: ``hkscore serve --bot NAME=cmd:PROGRAM ARGS``), each decision
    within ``program_time_limit`` seconds, at most ``most_programs`` seated at the unfinished tables at once."""

    def __init__(self, most: int = MOST_TABLES, idle: float = IDLE_SECONDS, claim_seconds: float = CLAIM_SECONDS,
                 now: Callable[[], float] = time.monotonic, bot_share: float = BOT_SHARE,
                 open_claims: bool = False, turn_seconds: float | None = TURN_SECONDS,
                 fallback: str = FALLBACK_BOT, store: TableStore | None = None,
                 programs: Mapping[str, str] | None = None, program_time_limit: float = PROGRAM_TIME_LIMIT,
                 most_programs: int = MOST_PROGRAMS) -> None:
        if not 0 < bot_share <= 1:  # NaN fails too
            raise HkcoreError(f"bot_share = {shown(bot_share)}: more than 0 and at most 1")
        if turn_seconds is not None and not 0 < turn_seconds <= 86400:
            raise HkcoreError(f"turn_seconds = {shown(turn_seconds)}: more than 0 and at most 86400, or None")
        self.most, self.idle, self.claim_seconds, self.now = most, idle, claim_seconds, now
        self.bot_share = bot_share
        #: a person's turn where the preset sets no ``turn_seconds`` (None: untimed), and the bot that plays
        #: the seat of a person who let it run out
        self.turn_seconds = turn_seconds
        self.fallback = fallback
        #: whether the tables made ask every seat in every claim window (``LiveTable``'s ``open_claims``)
        self.open_claims = open_claims
        self.tables: dict[str, LiveTable] = {}
        #: the tables of bots alone still playing, in turn, and the one task that plays them
        self.playing: deque[LiveTable] = deque()
        self.runner: asyncio.Task[None] | None = None
        #: the bots offered: those installed when the registry was made
        self.bots: Mapping[str, BotFactory] = available_bots()
        if fallback not in self.bots:
            raise HkcoreError(f"fallback bot = {shown(fallback)}: one of {', '.join(sorted(self.bots))}")
        if type(most_programs) is not int or not 1 <= most_programs <= 10_000:
            raise HkcoreError(f"most_programs = {shown(most_programs)}: 1 to 10000")
        #: the bots programs play (``programs``), at most ``most_programs`` of them seated at once, deciding
        #: on threads of their own
        self.programs = program_bots(programs or {}, self.bots, program_time_limit,
                                     fallback if fallback in builtin_bots() else PROGRAM_FALLBACK)
        self.bots = {**self.bots, **self.programs}
        self.most_programs = most_programs
        self.executor: ThreadPoolExecutor | None = None
        #: the database the tables are kept in (None: memory only)
        self.store = store

    def __len__(self) -> int:
        return len(self.tables)

    def sweep(self) -> int:
        """Drop every table idle for ``idle`` seconds and not in play; the number dropped."""
        now = self.now()
        gone = [k for k, t in self.tables.items() if now - t.last_used >= self.idle and not t.in_play]
        for k in gone:
            self.tables.pop(k).close()
        if gone and self.store is not None:
            try:
                self.store.forget(gone)
            except sqlite3.Error as exc:  # kept there: rebuilt at the next start, or deleted with the next ones
                warn(f"the tables dropped could not be deleted from the database ({exc})")
        return len(gone)

    def room(self) -> None:
        """Raise the 503 when no table can be added."""
        self.sweep()
        if len(self.tables) >= self.most:
            raise ApiError(503, "Tables full", f"this server holds at most {self.most:,} tables at once; try again "
                           f"later (a table is dropped after {self.idle:g} s without use)", "TablesFull",
                           headers={"Retry-After": "60"})

    def program_room(self, table: LiveTable) -> None:
        """Raise the 503 when ``table``'s programs would seat more than ``most_programs`` at once."""
        wanted = table.programs
        if not wanted:
            return
        seated = sum(t.programs for t in self.tables.values())
        if seated + wanted > self.most_programs:
            raise ApiError(503, "Programs busy", f"this server plays at most {self.most_programs:,} programs' bots "
                           f"at once ({seated:,} are seated); try again later", "ProgramsBusy",
                           headers={"Retry-After": "60"})

    def add(self, table: LiveTable, rebuilt: bool = False) -> LiveTable:
        """Hold ``table`` (``room`` and ``program_room`` first, unless it is ``rebuilt`` from the database),
        written to the database with the bots' first decisions; an all-bot table starts playing on by itself."""
        if not rebuilt:
            self.room()
            self.program_room(table)
        table.last_used = self.now()
        if self.store is not None:
            table.saver = self.save_one
        if table.programs:
            if self.executor is None:
                self.executor = ThreadPoolExecutor(self.most_programs, thread_name_prefix="hkcore-program")
            table.executor = self.executor
            table.resume = self.resume
        if table.tokens:
            table.play_bots()
            table.arm_timers()
        table.save()
        self.tables[table.id] = table
        if not table.tokens and table.playing_on:
            self.playing.append(table)
            if self.runner is None:
                self.runner = asyncio.get_running_loop().create_task(self.play_on())
        return table

    def resume(self, table: LiveTable) -> None:
        """A table of bots alone has its program's decision: it plays on, in turn with the others."""
        if table.playing_on and not table.thinking and self.tables.get(table.id) is table and table not in self.playing:
            self.playing.append(table)
            if self.runner is None:
                self.runner = asyncio.get_running_loop().create_task(self.play_on())

    def save_one(self, table: LiveTable) -> None:
        """Write ``table``'s change to the database (``save``)."""
        self.save([table])

    def save(self, tables: Sequence[LiveTable]) -> None:
        """Write the changes of ``tables`` to the database in one transaction. If that fails, they are
        dropped here (as they were before the changes, they come back at the next start) and an ApiError
        503 says so."""
        store = self.store
        changes = [c for c in (t.change() for t in tables) if c is not None]
        if store is None or not changes:
            return
        try:
            store.save(changes)
        except sqlite3.Error as exc:
            for t in tables:
                if self.tables.get(t.id) is t:
                    del self.tables[t.id]
                t.close()
            ids = ", ".join(t.id for t in tables)
            warn(f"tables {ids} could not be saved, and are dropped until the next start ({exc})")
            raise ApiError(503, "Not saved", f"the table could not be saved ({exc}): it is closed here, and comes "
                           "back as it was before this decision when the server starts again", "TableNotSaved") \
                from None
        for t in tables:
            t.saved()

    def rebuild(self) -> int:
        """Make every unfinished table of the database again (``LiveTable.rebuilt``) and hold it; the number
        rebuilt. A table that cannot be is set aside (never rebuilt, deleted with the tables ended), with a
        warning on stderr."""
        if self.store is None:
            return 0
        made = 0
        for stored in self.store.unfinished():
            try:
                live = LiveTable.rebuilt(stored, self.now, self.bots)
            except Exception as exc:  # noqa: BLE001 - whatever the reason, this table alone is lost
                why = f"{type(exc).__name__}: {exc}"
                warn(f"table {stored.id} could not be made again, and is set aside ({why})")
                self.store.set_aside(stored.id, why)
                continue
            self.add(live, rebuilt=True)
            made += 1
        return made

    def get(self, table_id: str) -> LiveTable:
        """The table ``table_id``; unknown or expired: the 404. Finding a table is not using it: a seat's
        request notes its use (``used``), once its token is checked, so that reading a log or a wrong token
        keeps no table alive."""
        self.sweep()
        found = self.tables.get(table_id) if isinstance(table_id, str) else None
        if found is None:
            raise ApiError(404, "Not found", f"no table {shown(table_id)} (unknown, or dropped after {self.idle:g} s "
                           "without use)", "UnknownTable", "id", table_id)
        return found

    def used(self, table: LiveTable) -> None:
        """A seat of ``table`` has used it (its token checked): it is kept ``idle`` seconds from now."""
        table.last_used = self.now()

    def new_id(self) -> str:
        """An id no table here has."""
        while True:
            found = secrets.token_urlsafe(12)
            if found not in self.tables:
                return found

    async def play_on(self) -> None:
        """Play the tables of bots alone in the order they were made, each to its end, in slices of about
        ``BOT_SLICE`` seconds; after each slice, rest so that they take at most ``bot_share`` of the time,
        and longer while the worker is behind (``BOT_LATE``, ``BOT_MOST_REST``). One task for them all: a
        person's request waits for one slice at most and finds the rest of the worker's time free, however
        many bot tables wait (they finish later instead, one after another)."""
        slower = 1.0
        try:
            while self.playing:
                start = time.perf_counter()
                played: dict[str, LiveTable] = {}
                while self.playing and time.perf_counter() - start < BOT_SLICE:
                    table = self.playing[0]
                    try:
                        if table.playing_on:
                            played[table.id] = table
                            table.play_bots(1)
                    except Exception as exc:  # noqa: BLE001 - an installed bot's failure stops its table only
                        table.stopped = f"{type(exc).__name__}: {exc}"
                        table.stop_programs()
                    if not table.playing_on or table.thinking:  # (a program's decision: back when it is made)
                        self.playing.popleft()
                with contextlib.suppress(ApiError):  # (not saved: dropped, and said so)
                    self.save(list(played.values()))  # the slice in one transaction: nobody was answered
                used = time.perf_counter() - start
                rest = min(BOT_MOST_REST, slower * used * (1 - self.bot_share) / self.bot_share)
                start = time.perf_counter()
                await asyncio.sleep(rest)
                late = time.perf_counter() - start - rest
                slower = min(1 << 10, slower * 2) if late > BOT_LATE else max(1.0, slower / 2)
        finally:
            self.runner = None

    async def sweeper(self, every: float | None = None) -> None:
        """Sweep every ``every`` seconds (a quarter of ``idle``, at most a minute) until cancelled; the
        database's old tables deleted as often."""
        pause = every if every is not None else min(60.0, max(0.05, self.idle / 4))
        while True:
            await asyncio.sleep(pause)
            self.sweep()
            if self.store is not None:
                try:
                    self.store.expire()
                except sqlite3.Error as exc:
                    warn(f"the tables ended long ago could not be deleted from the database ({exc})")

    async def checkpointer(self, every: float = CHECKPOINT_SECONDS) -> None:
        """Copy the database's WAL into its file every ``every`` seconds, on a thread, until cancelled."""
        store = self.store
        if store is None:
            return
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(store.checkpoint)
            except sqlite3.Error as exc:
                warn(f"the database's checkpoint failed ({exc})")

    def close(self) -> None:
        """Drop every table (their programs killed)."""
        for t in self.tables.values():
            t.close()
        self.tables.clear()
        self.playing.clear()
        if self.runner is not None:
            self.runner.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.executor = None


def program_bots(programs: Mapping[str, str], offered: Mapping[str, BotFactory], time_limit: float,
                 fallback: str) -> dict[str, BotFactory]:
    """The factories of the bots programs play (``ProgramFactory``), by name: each name ``PROGRAM_NAME``, not
    ``human`` nor a bot ``offered``, each command a program found (with or without ``cmd:``); an HkcoreError
    naming the entry otherwise."""
    if not isinstance(programs, Mapping):
        raise HkcoreError(f"programs = {shown(programs)}: bot names and their programs' commands")
    out: dict[str, BotFactory] = {}
    for name, command in programs.items():
        if not isinstance(name, str) or not PROGRAM_NAME.fullmatch(name) or name == HUMAN or name in offered:
            why = "a bot of the server's already" if name in offered else \
                "a letter or digit, then up to 39 letters, digits, -, _ or ., and not human"
            raise HkcoreError(f"programs: the name {shown(name)}: {why}")
        text = command[len("cmd:"):] if is_command(command) else command
        try:
            out[name] = ProgramFactory(text, time_limit=time_limit, fallback=fallback)
        except TableError as exc:
            raise HkcoreError(f"programs.{name}: {exc}") from None
    return out
