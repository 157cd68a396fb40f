"""The application (``create_app``) and its serving on uvicorn (``serve``)."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException

from hkcore.errors import HkcoreError
from hkcore.server.catalog import ServerPresets
from hkcore.server.clients import CLIENT_TABLES_PER_MINUTE, MOST_CLIENT_SOCKETS, MOST_CLIENT_TABLES, Clients
from hkcore.server.database import KEEP_DAYS, TableStore
from hkcore.server.limits import (
    BATCH_TIME_LIMIT,
    HEAD_TIME_LIMIT,
    MAX_BATCH_BODY,
    MAX_BODY,
    MOST_CONNECTIONS,
    TIME_LIMIT,
    Limits,
)
from hkcore.server.openapi import openapi_document
from hkcore.server.problems import ApiError, answer_problem
from hkcore.server.routes import batch, claims, health, pages, presets, scoring, tables
from hkcore.server.tables import (
    BOT_SHARE,
    CLAIM_SECONDS,
    FALLBACK_BOT,
    IDLE_SECONDS,
    MAX_MESSAGE,
    MOST_HANDS,
    MOST_PROGRAMS,
    MOST_TABLES,
    TURN_SECONDS,
    TableRegistry,
    program_bots,
)
from hkcore.table.players.bots import available_bots
from hkcore.table.players.external import FALLBACK as PROGRAM_FALLBACK, TIME_LIMIT as PROGRAM_TIME_LIMIT


def create_app(presets_dir: str | Path | None = None, *, max_body: int = MAX_BODY,
               max_batch_body: int = MAX_BATCH_BODY, time_limit: float = TIME_LIMIT,
               batch_time_limit: float = BATCH_TIME_LIMIT, most_tables: int = MOST_TABLES,
               table_idle: float = IDLE_SECONDS, claim_seconds: float = CLAIM_SECONDS,
               bot_share: float = BOT_SHARE, most_hands: int = MOST_HANDS,
               most_client_sockets: int = MOST_CLIENT_SOCKETS, most_client_tables: int = MOST_CLIENT_TABLES,
               client_tables_per_minute: int = CLIENT_TABLES_PER_MINUTE, open_claims: bool = False,
               turn_seconds: float | None = TURN_SECONDS, fallback_bot: str = FALLBACK_BOT,
               now: Callable[[], float] = time.monotonic, db: str | Path | TableStore | None = None,
               db_keep_days: float = KEEP_DAYS, db_sync: str = "NORMAL", programs: Mapping[str, str] | None = None,
               program_time_limit: float = PROGRAM_TIME_LIMIT, most_programs: int = MOST_PROGRAMS) -> FastAPI:
    """The hkcore HTTP application. ``presets_dir``: a folder of preset files
    served beside the built-in ones (and the only files a preset sent in a
    request may extend). Tables: at most ``most_tables`` at once, each dropped
    after ``table_idle`` seconds without use (by the ``now`` clock); a human
    seat's claim window lasts the preset's ``claim_seconds``, else ``claim_seconds``; the tables of bots
    alone take at most ``bot_share`` of the worker's time; a match plays at most ``most_hands`` hands. One
    client (``hkcore.server.clients``) holds at most ``most_client_sockets`` sockets and
    ``most_client_tables`` tables at once, and makes at most ``client_tables_per_minute`` tables a minute.
    With ``open_claims``, a table with a person at it asks every other seat on every discard (and every kong
    that may be robbed), a seat with no claim with just ``pass`` (docs/server.md, "What a seat sees"). A
    person's turn lasts the preset's ``turn_seconds``, else ``turn_seconds`` (None: untimed); one who lets it
    run out is away, and the ``fallback_bot`` plays the seat until the person is back (docs/server.md, "Seats
    held"). ``db``: the file the tables are kept in (``hkcore.server.database``; opened now, an HkcoreError if
    it cannot be, its unfinished tables made again when the application starts), a finished one's log kept
    ``db_keep_days`` days, its commits made durable as ``db_sync`` says (``NORMAL``: through a
    killed process; ``FULL``: through a power cut too); None: the
    tables are kept in memory only (docs/server.md, "The database"). ``programs``: bots that programs play,
    ``{NAME: "PROGRAM ARGS"}``, offered by name like any bot (a request can never name a program itself), each
    decision within ``program_time_limit`` seconds, at most ``most_programs`` seated at once (docs/bots.md,
    "Bots from any program"); a bad entry is an HkcoreError naming it."""
    store = db if isinstance(db, TableStore) or db is None else TableStore(db, db_keep_days, db_sync.upper())
    try:
        registry = TableRegistry(most_tables, table_idle, claim_seconds, now, bot_share, open_claims, turn_seconds,
                                 fallback_bot, store, programs, program_time_limit, most_programs)
    except HkcoreError:
        if store is not None and store is not db:
            store.close()
        raise
    clients = Clients(most_client_sockets, most_client_tables, client_tables_per_minute, now)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        if store is not None:
            store.expire()
            registry.rebuild()
        sweepers = [loop.create_task(registry.sweeper()), loop.create_task(clients.sweeper()),
                    loop.create_task(registry.checkpointer())]
        try:
            yield
        finally:
            for sweeper in sweepers:
                sweeper.cancel()
            registry.close()
            if store is not None:
                store.close()

    app = FastAPI(title="hkcore", version=health.version(), docs_url=None, redoc_url=None, lifespan=lifespan,
                  description="Score Hong Kong mahjong hands under any house ruleset (docs/rules.md), and play "
                              "them at tables (docs/server.md, Tables). Errors are application/problem+json.")
    app.state.presets = ServerPresets.load(presets_dir)
    app.state.tables = registry
    app.state.clients = clients
    app.state.most_hands = most_hands
    for kind in (ApiError, HkcoreError, RequestValidationError, HTTPException, Exception):
        app.add_exception_handler(kind, answer_problem)
    for module in (scoring, batch, claims, presets, health, tables, pages):
        add_routes(app, module.router)
    app.mount("/web", pages.web_files(), name="web")
    app.add_middleware(Limits, max_body=max_body, max_batch_body=max_batch_body, time_limit=time_limit,
                       batch_time_limit=batch_time_limit, clients=clients)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = openapi_document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def add_routes(app: FastAPI, router: APIRouter) -> None:
    """``router``'s routes on ``app``'s own router, as they are. ``include_router`` would keep the router as a
    nested one that FastAPI matches again on every request (an eighth of ``POST /score``'s own time); ours have
    no prefix or dependencies of their own, so their routes need nothing added on the way in."""
    if router.prefix or router.dependencies:  # pragma: no cover - a router of ours never has them
        raise ValueError("add_routes: a router with a prefix or dependencies needs include_router")
    app.router.routes.extend(router.routes)


def serve(host: str = "127.0.0.1", port: int = 8000, presets_dir: str | Path | None = None,
          workers: int = 1, log_level: str = "info", *, time_limit: float = TIME_LIMIT,
          batch_time_limit: float = BATCH_TIME_LIMIT, head_time_limit: float = HEAD_TIME_LIMIT,
          most_connections: int = MOST_CONNECTIONS, most_tables: int = MOST_TABLES,
          table_idle: float = IDLE_SECONDS, claim_seconds: float = CLAIM_SECONDS,
          bot_share: float = BOT_SHARE, most_hands: int = MOST_HANDS,
          most_client_sockets: int = MOST_CLIENT_SOCKETS, most_client_tables: int = MOST_CLIENT_TABLES,
          client_tables_per_minute: int = CLIENT_TABLES_PER_MINUTE, open_claims: bool = False,
          turn_seconds: float | None = TURN_SECONDS, fallback_bot: str = FALLBACK_BOT,
          db: str | Path | None = None, db_keep_days: float = KEEP_DAYS, db_sync: str = "NORMAL",
          programs: Mapping[str, str] | None = None, program_time_limit: float = PROGRAM_TIME_LIMIT,
          most_programs: int = MOST_PROGRAMS) -> None:
    """Run the application on uvicorn until interrupted (``workers`` > 1: that many processes);
    ``port`` 0 picks a free port; the address and both pages' are printed when the service starts. An
    address that cannot be listened on is an HkcoreError saying why, before anything starts.
    ``head_time_limit``: seconds a request's head may take (408 after); ``most_connections``: connections a
    worker holds at once, its WebSockets among them (503 beyond); ``most_tables``, ``table_idle``,
    ``claim_seconds``, ``bot_share``, ``most_hands``, the per-client caps, ``open_claims``, ``turn_seconds``,
    ``fallback_bot``, ``programs``, ``program_time_limit`` and ``most_programs``: as ``create_app`` takes
    them (per worker: a table lives in the worker that made it; a bad program is an HkcoreError before
    anything starts). ``db``, ``db_keep_days``, ``db_sync``: as ``create_app`` takes them, with one worker
    only (an HkcoreError otherwise: the workers cannot share one file's tables). A WebSocket message is at most
    ``MAX_MESSAGE`` bytes, inflated: a longer one is closed 1009 by the protocol before it is inflated whole."""
    import uvicorn

    from hkcore.server.heads import protocol

    program_bots(programs or {}, available_bots(), program_time_limit, PROGRAM_FALLBACK)  # (checked before it starts)
    if db is not None and workers > 1:
        raise HkcoreError(f"--db {db}: the tables' database serves one worker, not {workers} (a table lives in the "
                          "worker that made it); give --db none with --workers")
    port = listenable(host, port)
    announce(host, port)
    bounds: dict[str, Any] = {"timeout_keep_alive": 5, "limit_concurrency": most_connections,
                              "http": protocol(head_time_limit), **socket_bounds()}
    tables: dict[str, Any] = {"most_tables": most_tables, "table_idle": table_idle, "claim_seconds": claim_seconds,
                              "bot_share": bot_share, "most_hands": most_hands,
                              "most_client_sockets": most_client_sockets, "most_client_tables": most_client_tables,
                              "client_tables_per_minute": client_tables_per_minute, "open_claims": open_claims,
                              "turn_seconds": turn_seconds, "fallback_bot": fallback_bot,
                              "programs": dict(programs or {}), "program_time_limit": program_time_limit,
                              "most_programs": most_programs}

    if workers > 1:
        if presets_dir is not None:
            os.environ["HKCORE_SERVE_PRESETS"] = str(Path(presets_dir).resolve())
        else:
            os.environ.pop("HKCORE_SERVE_PRESETS", None)
        os.environ["HKCORE_SERVE_TIME_LIMIT"] = repr(float(time_limit))
        os.environ["HKCORE_SERVE_BATCH_TIME_LIMIT"] = repr(float(batch_time_limit))
        os.environ["HKCORE_SERVE_TABLES"] = json.dumps(tables)
        uvicorn.run("hkcore.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                    log_level=log_level, **bounds)
        return
    app = serving(create_app(presets_dir, time_limit=time_limit, batch_time_limit=batch_time_limit, db=db,
                             db_keep_days=db_keep_days, db_sync=db_sync, **tables))
    uvicorn.run(app, host=host, port=port, log_level=log_level, **bounds)


def socket_bounds() -> dict[str, Any]:
    """The WebSocket settings of ``uvicorn.run``: the ``websockets`` library's protocol (sans-I/O where uvicorn
    has it), whose ``max_size`` bounds a message as it is inflated (permessage-deflate stays on: the states
    sent are smaller), at ``MAX_MESSAGE`` bytes. (wsproto's inflates a whole frame before its cap is
    looked at, so it is not used.)"""
    from uvicorn.config import WS_PROTOCOLS

    kind = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    return {"ws": kind, "ws_max_size": MAX_MESSAGE, "ws_per_message_deflate": True}


def listenable(host: str, port: int) -> int:
    """The port ``host``:``port`` can be listened on (``port`` 0: a free one), checked by binding it."""
    import socket

    if not 0 <= port <= 65535:
        raise HkcoreError(f"--port must be 0..65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            chosen = int(sock.getsockname()[1])
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise HkcoreError(f"cannot listen on {host}:{port}: {reason}") from None
    return chosen


def announce(host: str, port: int) -> None:
    """Print where the service listens, and its two pages' addresses."""
    root = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
    print(f"hkscore: serving on {root}\nhkscore: the scoring page: {root}/\nhkscore: tables to play at: {root}/play",
          flush=True)


def app_from_env() -> FastAPI:
    """The application of a uvicorn worker process (``serve(workers=N)``)."""
    tables = json.loads(os.environ.get("HKCORE_SERVE_TABLES") or "{}")
    return serving(create_app(os.environ.get("HKCORE_SERVE_PRESETS") or None,
                              time_limit=float(os.environ.get("HKCORE_SERVE_TIME_LIMIT") or TIME_LIMIT),
                              batch_time_limit=float(os.environ.get("HKCORE_SERVE_BATCH_TIME_LIMIT")
                                                     or BATCH_TIME_LIMIT), **tables))


def serving(app: FastAPI) -> FastAPI:
    """``app`` ready to serve: the built-in presets compiled, and everything made so far moved out of
    the garbage collector's sight (it lives as long as the process), so that collections while serving
    look only at what requests make (shorter pauses, a lower p99)."""
    import gc

    from hkcore.engine import rulesets

    rulesets()
    gc.collect()
    gc.freeze()
    return app
