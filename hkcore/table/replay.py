"""Replay a game log record for record (GAME.md §8.2; docs/table.md, "Replay").

The engine reads a ``start``, then each line in turn: a decision line
(``discard``, ``chow``, ``pung``, ``kong``, ``win``, ``claim``, ``pass``) is
submitted as its seat's answer to the open prompt; every other line is what
the engine itself must write at that point. In a window, a seat that no line
names is taken to pass.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.commitment import commitment
from hkcore.table.flow.engine import legal_text
from hkcore.table.match import carried
from hkcore.table.rotation import seating, standings
from hkcore.table.table import Table

#: the lines a seat decides, and the records the engine writes
DECISIONS = ("discard", "chow", "pung", "kong", "win", "claim", "pass")
ENGINE = ("bonus", "draw", "exhausted", "end_hand", "end_match")
EVENTS = ("start", *DECISIONS, *ENGINE)
#: the longest line a log may hold, in characters (bytes as read from a file): a longer one is refused by its
#: number, and only this much of it is ever held
MAX_LINE = 1 << 20
#: the deepest nesting of arrays and objects a line may hold (the engine's records hold 4)
MAX_DEPTH = 32


class ReplayError(TableError):
    """A log the engine does not reproduce. ``line`` is its 1-based line
    number; ``kind`` is ``"difference"`` (the engine wrote something else),
    ``"illegal"`` (a decision not among the legal actions) or ``"invalid"``
    (not a record: bad JSON, an unknown event, a field that cannot be)."""

    def __init__(self, message: str, line: int, kind: str, field: str | None = None, value: Any = None):
        super().__init__(message, field, value)
        self.line = line
        self.kind = kind


def _depth_over(value: Any, most: int) -> bool:
    """Whether ``value`` nests arrays and objects deeper than ``most``."""
    level = [(value, 1)]
    while level:
        item, d = level.pop()
        if isinstance(item, (dict, list)):
            if d > most:
                return True
            level.extend((v, d + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def _text_over(text: str, most: int) -> bool:
    """Whether the JSON text ``text`` opens arrays and objects deeper than ``most`` (read before parsing, so
    that the answer does not depend on how deep a Python version's parser goes before it fails)."""
    if text.count("[") + text.count("{") <= most:
        return False
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > most:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _record(n: int, raw: Any) -> dict[str, Any] | None:
    """Line ``n`` of a log as a record (None for a blank line); a ReplayError
    for a line that is not one."""
    if isinstance(raw, (str, bytes)):
        if len(raw) > MAX_LINE:
            raise ReplayError(f"line {n}: longer than {MAX_LINE} characters", n, "invalid", "line", None)
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", "replace")
        if not raw.strip():
            return None
        try:
            deep = _text_over(raw, MAX_DEPTH)
            rec = None if deep else json.loads(raw)
            deep = deep or _depth_over(rec, MAX_DEPTH)
        except RecursionError:  # nested deeper than the parser reads
            deep = True
        except ValueError as exc:
            raise ReplayError(f"line {n}: not valid JSON ({exc})", n, "invalid", "line", shown(raw)) from None
        if deep:
            raise ReplayError(f"line {n}: arrays and objects nested deeper than {MAX_DEPTH} levels", n, "invalid",
                              "line", None)
    else:
        rec = raw
    if not isinstance(rec, Mapping):
        raise ReplayError(f"line {n}: a record is a JSON object, not {shown(rec)}", n, "invalid", "line", rec)
    event = rec.get("event")
    if event not in EVENTS:
        raise ReplayError(f"line {n}: event = {shown(event)}: not a known event ({', '.join(EVENTS)})", n,
                          "invalid", "event", event)
    return dict(rec)


def _first_difference(expected: Any, engine: Any, path: str, only_given: bool) -> tuple[str, Any, Any] | None:
    if isinstance(expected, Mapping) and isinstance(engine, Mapping):
        keys = list(expected) if only_given else list(dict.fromkeys([*expected, *engine]))
        for k in keys:
            where = f"{path}.{k}" if path else str(k)
            if k not in engine or k not in expected:
                return where, expected.get(k, "(absent)"), engine.get(k, "(absent)")
            if k == "patterns" and isinstance(expected[k], list) and isinstance(engine[k], list):
                if _pattern_set(expected[k]) != _pattern_set(engine[k]):
                    return where, expected[k], engine[k]
                continue
            found = _first_difference(expected[k], engine[k], where, False)
            if found is not None:
                return found
        return None
    if isinstance(expected, list) and isinstance(engine, list):
        if len(expected) != len(engine):
            return path, expected, engine
        for i, (a, b) in enumerate(zip(expected, engine)):
            found = _first_difference(a, b, f"{path}.{i}", False)
            if found is not None:
                return found
        return None
    if expected != engine or type(expected) is not type(engine):
        return path, expected, engine
    return None


def _pattern_set(items: list[Any]) -> Any:
    try:
        return sorted(json.dumps(x, sort_keys=True) for x in items)
    except (TypeError, ValueError):
        return items


def _show(value: Any) -> str:
    return shown(value) if not isinstance(value, (dict, list)) else shown(json.dumps(value, separators=(",", ":")))


class _Replay:
    def __init__(self, preset: Preset | None) -> None:
        self.preset = preset
        self.table: Table | None = None
        self.pos = 0
        self.out: list[dict[str, Any]] = []
        self.n = 0
        self.match_over = False

    def differ(self, field: str, expected: Any, engine: Any) -> ReplayError:
        return ReplayError(f"line {self.n}: {field}: expected {_show(expected)}, engine {_show(engine)}", self.n,
                           "difference", field, expected)

    def pending(self) -> dict[str, Any] | None:
        assert self.table is not None
        return self.table.log[self.pos] if self.pos < len(self.table.log) else None

    def waiting(self) -> str:
        assert self.table is not None
        seats = [p["seat"] for p in self.table.prompts()]
        return f"a decision by {', '.join(seats)}" if seats else "the end of the hand"

    def pass_all(self) -> None:
        """Every seat still asked in an open window passes."""
        t = self.table
        assert t is not None
        while True:
            open_ = t.prompts()
            if not open_ or open_[0]["phase"] not in ("claim", "rob", "instant"):
                return
            p = open_[0]
            t.submit({"prompt": p["prompt"], "seat": p["seat"], "act": "pass"})

    def start(self, rec: dict[str, Any]) -> None:
        prev = self.table
        progress = None
        if prev is not None:
            ahead = self.pending()
            if ahead is not None:
                raise self.differ("event", "start", ahead["event"])
            if not prev.over:
                raise self.differ("event", "start", self.waiting())
        if prev is not None and not self.match_over:
            nxt = prev.log[-1] if prev.log[-1]["event"] == "end_hand" else prev.log[-2]
            want = nxt.get("next")  # the match goes on: this start must be its next hand
            if want is None:
                raise self.differ("event", "start", "the end of the match")
            seats = rec.get("seats") if isinstance(rec.get("seats"), Mapping) else {}
            players = prev.progress.players
            for field, expected, found in (("hand", want["hand"], rec.get("hand")),
                                           ("round", want["round"], rec.get("round")),
                                           ("seats", seating(players, want["dealer"]), seats)):
                if expected != found:
                    raise self.differ(field, found, expected)
            for field, expected, found in (("points", carried(prev, seating(players, want["dealer"])),
                                            rec.get("points")),):
                if expected != found:
                    raise self.differ(field, found, expected)
            progress = prev.progress
        committed = "salt" in rec  # its commitment is checked here: a wrong one is a difference, not a bad record
        try:
            self.table = Table({k: v for k, v in rec.items() if k != "commitment"} if committed else rec,
                               self.preset, progress=progress)
        except TableError as exc:
            found = self._committed_to(rec) if committed else None
            if found is not None:  # a deal that cannot be (a tile changed): first, whether it is the one committed
                self.check_commitment(rec, found)
            raise ReplayError(f"line {self.n}: {exc}", self.n, "invalid", exc.field, exc.value) from None
        if committed:
            self.check_commitment(rec, self.table.log[0]["commitment"])
        self.out.extend(self.table.log[:1])
        self.pos = 1
        self.match_over = False

    @staticmethod
    def _committed_to(rec: dict[str, Any]) -> str | None:
        """The commitment of the deal ``rec`` writes, or None where its text cannot be written."""
        try:
            return commitment(rec)
        except TableError:
            return None

    def check_commitment(self, rec: dict[str, Any], engine: str) -> None:
        """A difference at this line unless ``rec`` gives ``engine``, its deal's commitment."""
        given = rec.get("commitment")
        if "commitment" in rec and given == engine:
            return
        if "commitment" not in rec:
            what = f"absent: a start record with a salt gives its deal's commitment (engine {_show(engine)})"
        else:
            what = (f"expected {_show(given)}, engine {_show(engine)}: the SHA-256 of the salt and the deal "
                    "(docs/table.md)")
        raise ReplayError(f"line {self.n}: start.commitment: {what}", self.n, "difference", "start.commitment",
                          given)

    def decide(self, rec: dict[str, Any]) -> None:
        t = self.table
        assert t is not None
        event = rec["event"]
        ahead = self.pending()
        if event not in ("claim", "pass") and ahead is not None:
            if ahead["event"] == event:  # already written (claim lines decided it): the field that differs, if any
                self.compare(rec, only_given=True)
                return
            raise self.differ("event", event, ahead["event"])
        seat = rec.get("seat")
        act = rec.get("act") if event == "claim" else event
        prompt = next((p for p in t.prompts() if p["seat"] == seat), None)
        if prompt is None:
            raise ReplayError(f"line {self.n}: {act}: not legal for {shown(seat)} (not asked; the engine waits for "
                              f"{self.waiting()})", self.n, "illegal", "seat", seat)
        decision: dict[str, Any] = {"prompt": prompt["prompt"], "seat": seat, "act": act}
        if act == "kong":
            decision["kind"] = rec.get("kind")
        if act in ("chow", "pung", "kong"):
            decision["tiles"] = rec.get("tiles")
        if act == "discard":
            decision["tile"] = rec.get("tile")
        try:
            t.submit(decision)
        except TableError as exc:
            # a discard of a tile that may not go: the engine says whether it is held and which may go
            why = f": {exc}" if act == "discard" and exc.field == "tile" else \
                f" (legal: {legal_text(prompt['actions'])})"
            raise ReplayError(f"line {self.n}: {act}: not legal for {seat}{why}", self.n, "illegal", exc.field,
                              exc.value) from None
        if event in ("claim", "pass"):
            return
        if prompt["phase"] in ("claim", "rob", "instant"):
            self.pass_all()
        self.compare(rec, only_given=True)

    def compare(self, rec: dict[str, Any], only_given: bool) -> None:
        found = self.pending()
        if found is None:
            raise self.differ("event", rec["event"], self.waiting())
        if rec["event"] == "draw" and "source" not in rec:
            rec = {**rec, "source": "live"}
        if found["event"] != rec["event"]:
            raise self.differ("event", rec["event"], found["event"])
        diff = _first_difference(rec, found, "", only_given)
        if diff is not None:
            raise self.differ(*diff)
        self.out.append(found)
        self.pos += 1
        if found["event"] == "end_match":
            self.match_over = True

    def engine_line(self, rec: dict[str, Any]) -> None:
        if self.pending() is None:
            self.pass_all()
        t = self.table
        assert t is not None
        if (rec["event"] == "end_match" and self.pending() is None and t.over and not self.match_over
                and rec.get("reason") == "stopped" and t.progress.tally is not None):
            # a match a server stopped after this hand
            t.log.append({"event": "end_match", "reason": "stopped",
                          "standings": standings(t.progress.players, t.progress.tally)})
        self.compare(rec, only_given=False)

    def finish(self) -> None:
        found = self.pending() if self.table is not None else None
        if found is not None:
            self.n += 1
            raise self.differ("event", "the end of the log", found["event"])


def replayed(lines: Iterable[tuple[int, Any]], preset: Preset | None = None) -> Iterator[dict[str, Any]]:
    """The engine's records for a log given as numbered lines (``(line
    number, line)``: JSON as text or bytes, or a parsed record), each yielded
    once it is checked against the log, a line read only when the records
    before it are: a log is read as a stream, holding one line (at most
    ``MAX_LINE`` characters) and the hand in play. Errors as ``replay``'s."""
    r = _Replay(preset)
    n = 0
    for n, raw in lines:
        rec = _record(n, raw)
        if rec is None:
            continue
        r.n = n
        event = rec["event"]
        if event == "start":
            r.start(rec)
        elif r.table is None:
            raise ReplayError(f"line {n}: event = {shown(event)}: a log begins with a start record", n, "invalid",
                              "event", event)
        elif event in DECISIONS:
            r.decide(rec)
        else:
            r.engine_line(rec)
        yield from r.out
        r.out.clear()
    if r.table is None:
        raise ReplayError(f"line {n + 1}: no start record: the log holds no record", n + 1, "invalid", "event", None)
    r.finish()


def replay(lines: Iterable[Any], preset: Preset | None = None) -> list[dict[str, Any]]:
    """The engine's records for a log (JSON lines as strings or bytes, or
    parsed records), checked against it record for record.

    A ReplayError (a TableError) names the first line the engine does not
    reproduce: ``line N: FIELD: expected X, engine Y``, or ``line N: ACT: not
    legal for SEAT (...)`` for a decision not among the legal actions; a log
    with no record is refused (``no start record``). ``preset`` plays every
    hand under that preset instead of the one each ``start`` names."""
    return list(replayed(enumerate(lines, 1), preset))
