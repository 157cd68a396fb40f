"""A match: hands in turn under one preset until its rounds, hands or point
target end it (GAME.md §6; docs/table.md, "A match")."""
from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.commitment import deal_salt
from hkcore.table.flow.engine import shuffle
from hkcore.table.flow.wall import SEATS, tile_set
from hkcore.table.rotation import Progress, Tally, seating, standings
from hkcore.table.start import MAX_NAME, check_seed, dealt, given_preset, record_preset
from hkcore.table.table import Table


def carried(table: Table, seats: dict[str, str]) -> dict[str, int] | None:
    """The points after ``table``'s hand, by the seats of the next hand."""
    if table.points is None:
        return None
    by_player = {table.seats[s]: table.points[s] for s in SEATS}
    return {s: by_player[seats[s]] for s in SEATS}


class Match:
    """Hands in turn under ``preset`` (a preset id, a path to a preset file,
    TOML text or a Preset; each start record names it by ``record_preset``),
    each dealt from one seeded generator (hand 1 is the deal of a ``Table``
    with the same seed). The surface is a Table's: ``prompts()``,
    ``submit()``, ``log`` (every hand's records in order), ``over``.

    With ``salt_key`` (at least 16 bytes, kept secret) every deal is
    committed (docs/table.md, "A committed deal"): its start record
    carries a ``salt`` made from the key and the deal's number
    (``hkcore.table.commitment.deal_salt``) and the deal's ``commitment``,
    never the seed, and each hand after the first is shuffled by a generator
    of its own, made from the seed and the hand's number, so that one
    hand's wall, revealed in the log, tells nothing of the next. The same
    arguments make the same match: the same deals and salts.

    >>> m = Match("mistboard", seed=3)
    >>> m.prompts()[0]["seat"], m.log[0]["seed"]
    ('E', 3)
    """

    #: (defaults for a match made before deals were committed)
    salt_key: bytes | None = None
    _deals = 1

    def __init__(self, preset: str | Preset, players: Sequence[str] | None = None, seed: int | None = None,
                 salt_key: bytes | None = None) -> None:
        p = given_preset(preset, "preset")
        self.preset = p
        self._ref = record_preset(p)
        names = tuple(players) if players is not None else ("p1", "p2", "p3", "p4")
        if len(names) != 4 or len(set(names)) != 4 or not all(
                isinstance(x, str) and 0 < len(x) <= MAX_NAME and x.isprintable() for x in names):
            raise TableError(f"players = {shown(players)}: four different names of 1 to {MAX_NAME} characters",
                             "players", players)
        if seed is None:
            seed = secrets.randbits(63)
        check_seed(seed)
        if salt_key is not None and (not isinstance(salt_key, bytes) or len(salt_key) < 16):
            raise TableError(f"salt_key = {shown(salt_key)}: a secret of at least 16 bytes", "salt_key", salt_key)
        self.players = names
        self.seed = seed
        self.salt_key = salt_key
        self._rng = random.Random(seed)
        self.log: list[dict[str, Any]] = []
        self._done = 0  # records of finished hands in the log
        self._stopped = False
        start_points = p.table.start_points
        points = None if start_points is None else {s: start_points for s in SEATS}
        tally = {n: Tally(start_points) for n in names}
        seats = seating(names, names[0])
        record: dict[str, Any] = {"event": "start", "preset": self._ref, "hand": 1, "round": "E", "seats": seats,
                                  "points": points}
        if salt_key is None:
            record["seed"] = seed
        self._before = Progress(names, 0, 0, tally)
        # hand 1 as ``Table(record, p)`` deals it (the same shuffle of the same seed), the record made here
        # and already checked
        deal = dealt(p, record, shuffle(tile_set(p.bonus_tiles), self._rng), self._salt())
        self.table = Table.dealt(deal, progress=self._before)
        self._sync()

    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self._stopped or (self.table.over and self.table.log[-1]["event"] == "end_match")

    def view(self, seat: str) -> dict[str, Any]:
        """What ``seat`` may see of the hand in play (the last hand, once the
        match is over), as ``Table.view``."""
        return self.table.view(seat)

    @property
    def standings(self) -> list[dict[str, Any]]:
        """The standings so far, as the ``end_match`` record gives them (its
        own once the match is over): each player's place, points, hands won
        and faan, best first, counting the hands finished."""
        if self.log and self.log[-1]["event"] == "end_match":
            return [dict(s) for s in self.log[-1]["standings"]]
        progress = self.table.progress if self.table.over else self._before
        return standings(self.players, progress.tally or {})

    def prompts(self, views: bool = True) -> list[dict[str, Any]]:
        """The prompts open now (``[]`` once the match is over)."""
        return [] if self._stopped else self.table.prompts(views)

    def submit(self, decision: Any) -> list[dict[str, Any]]:
        """One seat's answer (as ``Table.submit``); a hand that ends starts the
        next one, whose start and first records are returned too."""
        if self._stopped:
            raise TableError("prompt: the match is over; nothing is asked", "prompt", None)
        before = len(self.log)
        self.table.submit(decision)
        self._sync()
        return self.log[before:]

    def play_random(self, rng: random.Random) -> list[dict[str, Any]]:
        """Play the current hand to its end with uniformly random legal actions
        (the choices the ``random`` policy makes from the same generator);
        returns the records added, the next hand's first ones included."""
        if self.over:
            raise TableError("prompt: the match is over; nothing is asked", "prompt", None)
        before = len(self.log)
        self.table.play_random(rng)
        self._sync()
        return self.log[before:]

    def stop(self) -> list[dict[str, Any]]:
        """End the match after the last finished hand (a hand in play is
        dropped): ``end_match`` with reason ``"stopped"``."""
        if self.over:
            raise TableError("stop: the match is over", "stop", None)
        del self.log[self._done:]
        self._stopped = True
        progress = self.table.progress if self.table.over else self._before
        tally = progress.tally or {}
        record = {"event": "end_match", "reason": "stopped", "standings": standings(self.players, tally)}
        self.log.append(record)
        return [record]

    def sync(self) -> None:
        """Bring ``log`` up to date after the hand in play was played on ``table`` directly (a hand loop
        inside the engine) rather than through ``submit``; a hand that has ended deals the next."""
        self._sync()

    def _sync(self) -> None:
        t = self.table
        self.log.extend(t.log[len(self.log) - self._done:])
        while t.over and t.log[-1]["event"] == "end_hand":
            nxt = t.log[-1]["next"]
            self._done = len(self.log)
            self._before = t.progress
            seats = seating(self.players, nxt["dealer"])
            record: dict[str, Any] = {"event": "start", "preset": self._ref, "hand": nxt["hand"],
                                      "round": nxt["round"], "seats": seats, "points": carried(t, seats)}
            self._deals += 1
            deal = dealt(self.preset, record, shuffle(tile_set(self.preset.bonus_tiles), self._generator()),
                         self._salt())
            t = self.table = Table.dealt(deal, progress=t.progress, like=t)
            self.log.extend(t.log)

    def _salt(self) -> str | None:
        """The salt of the deal being made (None: deals are not committed)."""
        return None if self.salt_key is None else deal_salt(self.salt_key, self._deals)

    def _generator(self) -> random.Random:
        """What shuffles the deal being made: the match's one generator, or, for committed deals, one of the
        deal's own, seeded by HMAC-SHA256(the seed, the deal's number)."""
        if self.salt_key is None:
            return self._rng
        digest = hmac.new(self.seed.to_bytes(8, "big"), f"deal {self._deals}".encode("ascii"), hashlib.sha256)
        return random.Random(int.from_bytes(digest.digest(), "big"))
