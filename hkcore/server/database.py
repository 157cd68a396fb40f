"""The tables' database (docs/server.md, "The database"): what the service acknowledged, kept in one SQLite
file (the standard library's ``sqlite3``) so that a crash loses nothing of it.

For every table: its *spec* (``LiveTable.spec()``: everything needed to make the same table again), the
SHA-256 of each person's token (never a token: a copy of the file gives nobody a seat), the decisions it
accepted in order (a person's, a bot's, a timer's pass, a "next hand"), the records of its log in order,
and each person's state version. A change is written in one transaction, before the decision is answered;
``LiveTable.rebuilt`` makes a table again from them. The file is in WAL mode, its commits made durable as
``synchronous`` says (``NORMAL``, the default: written to the operating system at each commit, surviving
a killed process but not a power cut; ``FULL``: fsync'd at each commit, surviving a power cut where the
disk keeps its word). Checkpoints (the WAL copied into the file, with an fsync) are not made by a commit but by
``checkpoint``, which runs on a thread of its own, so that no decision waits for one.

A table that is over keeps its rows ``keep_days`` days (its log downloadable by its seats' tokens); one
that leaves the service unfinished (dropped for idleness), and a table of bots alone once over, is
deleted. The schema's version is the file's ``user_version``; its ``application_id`` marks the file
as hkcore's.
"""
from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hkcore.errors import HkcoreError, shown

#: the schema's version (the file's ``user_version``): a file of another one is refused
SCHEMA = 1
#: the file's ``application_id``: "hkct" (hkcore tables)
APPLICATION_ID = 0x686B6374
#: days a finished table's log is kept for its seats (``hkscore serve --db-keep-days``)
KEEP_DAYS = 30.0
#: the file ``hkscore serve`` keeps its tables in when ``--db`` is not given (in the working folder)
DEFAULT_FILE = "hkcore-tables.sqlite3"
#: how a commit is made durable (``PRAGMA synchronous``): ``FULL`` or ``NORMAL``
SYNCHRONOUS = ("FULL", "NORMAL")

_TABLES = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    spec TEXT NOT NULL,
    tokens TEXT NOT NULL,
    created REAL NOT NULL,
    ended REAL,
    state TEXT NOT NULL
);
CREATE INDEX tables_ended ON tables (ended) WHERE ended IS NOT NULL;
CREATE TABLE decisions (
    tbl TEXT NOT NULL,
    n INTEGER NOT NULL,
    decision TEXT NOT NULL,
    versions TEXT,
    PRIMARY KEY (tbl, n)
) WITHOUT ROWID;
CREATE TABLE records (
    tbl TEXT NOT NULL,
    n INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (tbl, n)
) WITHOUT ROWID;
"""


def token_hash(token: str) -> str:
    """The SHA-256 of a seat's token (hex): what the service keeps of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_hash(a: str, b: str) -> bool:
    """Whether two hashes are equal, compared in constant time."""
    return hmac.compare_digest(a.encode(), b.encode())


@dataclass
class Change:
    """What one table adds in a transaction: ``spec`` and ``tokens`` (its seats' hashes) when it is new;
    its decisions since the last change (JSON texts); its log records from ``cut`` on (those stored from
    ``cut`` on are replaced: a match stopped drops its hand in play); each person's state version;
    ``ended``: ``"over"`` or ``"stopped"`` once the table ended; ``people``: whether a person sits at it."""

    id: str
    decisions: list[str] = field(default_factory=list)
    cut: int = 0
    records: list[str] = field(default_factory=list)
    versions: str | None = None
    spec: dict[str, Any] | None = None
    tokens: Mapping[str, str] | None = None
    ended: str | None = None
    people: bool = True


@dataclass(frozen=True)
class Stored:
    """An unfinished table as the database holds it."""

    id: str
    spec: dict[str, Any]
    tokens: dict[str, str]
    decisions: list[dict[str, Any]]
    records: list[str]
    versions: dict[str, int]


class TableStore:
    """The tables' database in the file ``path`` (made if missing; its folder must exist). A file that is
    not an SQLite database, or is another program's, or of another schema version, is an HkcoreError naming
    it and saying why. Used from the event loop but for ``checkpoint`` and ``finished_log``, which open
    connections of their own (run them on a thread)."""

    def __init__(self, path: str | Path, keep_days: float = KEEP_DAYS, synchronous: str = "NORMAL",
                 clock: Callable[[], float] = time.time) -> None:
        if synchronous not in SYNCHRONOUS:
            raise HkcoreError(f"synchronous = {shown(synchronous)}: one of {', '.join(SYNCHRONOUS)}")
        if not 0 < keep_days <= 36500:  # NaN fails too
            raise HkcoreError(f"keep_days = {shown(keep_days)}: more than 0 and at most 36500")
        self.path = Path(path)
        self.keep_days = keep_days
        self.synchronous = synchronous
        self.clock = clock
        self._checkpointing = threading.Lock()
        self.db = self._open()

    def _refuse(self, why: str) -> HkcoreError:
        return HkcoreError(f"--db {self.path}: {why}")

    def _open(self) -> sqlite3.Connection:
        if not self.path.parent.is_dir():
            raise self._refuse(f"its folder {self.path.parent} does not exist")
        if self.path.exists() and not self.path.is_file():
            raise self._refuse("not a file")
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise self._refuse(f"cannot be opened ({exc})") from None
        try:
            self._prepare(db)
        except sqlite3.DatabaseError as exc:
            db.close()
            raise self._refuse(f"not a database of hkcore's tables ({exc})") from None
        except HkcoreError:
            db.close()
            raise
        return db

    def _prepare(self, db: sqlite3.Connection) -> None:
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master")}
        if app != APPLICATION_ID and (app != 0 or version != 0 or names):
            raise self._refuse(f"an SQLite database, but not hkcore's tables (application_id {app}, "
                               f"{len(names)} objects in it)")
        if app == APPLICATION_ID and version != SCHEMA:
            raise self._refuse(f"hkcore's tables of schema version {version}; this hkcore reads version {SCHEMA}")
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise self._refuse(f"its journal cannot be put in WAL mode (it is {mode})")
        db.execute(f"PRAGMA synchronous={self.synchronous}")
        db.execute("PRAGMA wal_autocheckpoint=0")  # ``checkpoint`` makes them, off the event loop
        db.execute("PRAGMA foreign_keys=OFF")
        if app == 0:
            with self._transaction(db):
                db.executescript("BEGIN IMMEDIATE;" + _TABLES + f"PRAGMA application_id={APPLICATION_ID};"
                                 f"PRAGMA user_version={SCHEMA};COMMIT;")

    @staticmethod
    @contextlib.contextmanager
    def _transaction(db: sqlite3.Connection) -> Iterator[None]:
        try:
            yield
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    # ----------------------------------------------------------------- writing

    def save(self, changes: Sequence[Change]) -> None:
        """Write ``changes`` in one transaction (all or none)."""
        if not changes:
            return
        db = self.db
        now = self.clock()
        db.execute("BEGIN IMMEDIATE")
        with self._transaction(db):
            for c in changes:
                if c.spec is not None:
                    db.execute("INSERT INTO tables (id, spec, tokens, created, ended, state) VALUES (?, ?, ?, ?, "
                               "NULL, 'playing')",
                               (c.id, json.dumps(c.spec, ensure_ascii=False, separators=(",", ":")),
                                json.dumps(dict(c.tokens or {}), separators=(",", ":")), now))
                if c.ended is not None and not c.people:
                    self._delete(c.id)  # bots alone, ended: nobody could read it back
                    continue
                if c.decisions:
                    first = db.execute("SELECT COALESCE(MAX(n) + 1, 0) FROM decisions WHERE tbl = ?",
                                       (c.id,)).fetchone()[0]
                    last = len(c.decisions) - 1
                    db.executemany("INSERT INTO decisions (tbl, n, decision, versions) VALUES (?, ?, ?, ?)",
                                   [(c.id, first + i, d, c.versions if i == last else None)
                                    for i, d in enumerate(c.decisions)])
                elif c.versions is not None:
                    db.execute("UPDATE decisions SET versions = ? WHERE tbl = ? AND n = (SELECT MAX(n) FROM "
                               "decisions WHERE tbl = ?)", (c.versions, c.id, c.id))
                db.execute("DELETE FROM records WHERE tbl = ? AND n >= ?", (c.id, c.cut))
                if c.records:
                    db.executemany("INSERT INTO records (tbl, n, record) VALUES (?, ?, ?)",
                                   [(c.id, c.cut + i, r) for i, r in enumerate(c.records)])
                if c.ended is not None:
                    db.execute("UPDATE tables SET ended = ?, state = ? WHERE id = ?", (now, c.ended, c.id))
            db.execute("COMMIT")

    def _delete(self, table_id: str) -> None:
        for sql in ("DELETE FROM tables WHERE id = ?", "DELETE FROM decisions WHERE tbl = ?",
                    "DELETE FROM records WHERE tbl = ?"):
            self.db.execute(sql, (table_id,))

    def forget(self, ids: Sequence[str]) -> None:
        """Delete the tables ``ids`` that are not over with a person at them (dropped for idleness,
        unfinished, or of bots alone): nobody can ask for them again."""
        if not ids:
            return
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        with self._transaction(db):
            for table_id in ids:
                row = db.execute("SELECT state, tokens FROM tables WHERE id = ?", (table_id,)).fetchone()
                if row is not None and not (row[0] == "over" and row[1] != "{}"):
                    self._delete(table_id)
            db.execute("COMMIT")

    def set_aside(self, table_id: str, why: str) -> None:
        """Mark a table that could not be made again: never rebuilt, deleted with the finished ones."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        with self._transaction(db):
            db.execute("UPDATE tables SET ended = ?, state = ? WHERE id = ?", (self.clock(), f"broken: {why}"[:500],
                                                                                table_id))
            db.execute("COMMIT")

    def expire(self) -> int:
        """Delete the tables that ended more than ``keep_days`` days ago; the number deleted."""
        before = self.clock() - self.keep_days * 86400
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        with self._transaction(db):
            ids = [r[0] for r in db.execute("SELECT id FROM tables WHERE ended IS NOT NULL AND ended < ?",
                                            (before,))]
            for table_id in ids:
                self._delete(table_id)
            db.execute("COMMIT")
        return len(ids)

    def checkpoint(self) -> None:
        """Copy the WAL into the file (a passive checkpoint: writers go on meanwhile), on a connection of its
        own: call it on a thread."""
        with self._checkpointing:
            db = sqlite3.connect(self.path, isolation_level=None)
            try:
                db.execute(f"PRAGMA synchronous={self.synchronous}")
                db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                db.close()

    def close(self) -> None:
        """Close the file (a last checkpoint made)."""
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()

    # ----------------------------------------------------------------- reading

    def unfinished(self) -> list[Stored]:
        """Every table still being played, in the order they were made."""
        out = []
        db = self.db
        for table_id, spec, tokens in db.execute("SELECT id, spec, tokens FROM tables WHERE ended IS NULL "
                                                 "ORDER BY created, id").fetchall():
            decisions = []
            versions: dict[str, int] = {}
            for text, seen in db.execute("SELECT decision, versions FROM decisions WHERE tbl = ? ORDER BY n",
                                         (table_id,)):
                decisions.append(json.loads(text))
                if seen is not None:
                    versions = json.loads(seen)
            records = [r[0] for r in db.execute("SELECT record FROM records WHERE tbl = ? ORDER BY n", (table_id,))]
            out.append(Stored(table_id, json.loads(spec), json.loads(tokens), decisions, records, versions))
        return out

    def finished_log(self, table_id: str, token: str | None) -> list[str] | None:
        """The records of the table ``table_id`` if it is over and ``token`` is one of its seats' (every seat
        compared); None otherwise. Opens a connection of its own: call it on a thread."""
        if not isinstance(token, str) or not isinstance(table_id, str):
            return None
        wanted = token_hash(token)
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            row = db.execute("SELECT tokens FROM tables WHERE id = ? AND state = 'over'", (table_id,)).fetchone()
            if row is None:
                return None
            found = False
            for own in json.loads(row[0]).values():  # every seat compared: the time taken does not tell which
                found = same_hash(wanted, own) or found
            if not found:
                return None
            return [r[0] for r in db.execute("SELECT record FROM records WHERE tbl = ? ORDER BY n", (table_id,))]
        finally:
            db.close()
