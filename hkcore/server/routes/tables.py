"""``/tables``: hands played at the service by people and bots (docs/server.md, "Tables")."""
from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import re
import secrets
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response, StreamingResponse

from hkcore.errors import HkcoreError, TableError, shown
from hkcore.preset import Preset
from hkcore.server.catalog import ServerPresets, app_presets, is_toml
from hkcore.server.clients import Clients, client_of
from hkcore.server.models import BotListing, TableCreated, TableDecision, TableRequest, TableSeat, TableState
from hkcore.server.openapi import ERRORS, NDJSON, RawJSON, problems
from hkcore.server.problems import ApiError, guard
from hkcore.server.tables import (
    HELLO_SECONDS,
    HUMAN,
    MAX_MESSAGE,
    MOST_HANDS,
    MOST_SOCKETS,
    Listener,
    LiveTable,
    TableRegistry,
    bearer,
    player_names,
)
from hkcore.table.players.external import is_command
from hkcore.table.records import lines
from hkcore.table.start import MAX_SEED
from hkcore.tiles import SEATS

router = APIRouter(tags=["tables"], default_response_class=RawJSON)

_AUTH = "Bearer <the seat's token>"
#: the header of a seat's token
Auth = Annotated[str | None, Header(description=_AUTH)]
_TOKEN_ERRORS = problems(_403="no token, or not this seat's", _404="no such table (or it expired)")


def registry_of(app: Any) -> TableRegistry:
    """The application's tables (``app.state.tables``, set by ``create_app``)."""
    return app.state.tables  # type: ignore[no-any-return]


def clients_of(app: Any) -> Clients:
    """The application's per-client counts (``app.state.clients``, set by ``create_app``)."""
    return app.state.clients  # type: ignore[no-any-return]


def most_hands_of(app: Any) -> int:
    """The most hands a match of the application plays (``create_app(most_hands=...)``)."""
    return int(getattr(app.state, "most_hands", MOST_HANDS))


def refused(exc: HkcoreError) -> ApiError:
    """A refused decision as its 422."""
    field = getattr(exc, "field", None)
    return ApiError(422, "Refused decision", str(exc), type(exc).__name__, field, getattr(exc, "value", None))


def forbidden(home: str | None) -> ApiError:
    """The 403 of a missing or wrong token."""
    said = f"seat {home}" if home else "any human seat of this table"
    return ApiError(403, "Forbidden", f"Authorization: send {_AUTH} of {said}", "Forbidden", "Authorization")


def _build(known: ServerPresets, body: TableRequest, registry: TableRegistry, table_id: str,
           most_hands: int = MOST_HANDS) -> LiveTable:
    preset: Preset = known.named(body.preset, "preset")
    hands = preset.table.hands
    if body.match and hands is not None and hands > most_hands:
        where = "toml.table.hands" if is_toml(body.preset) else "preset"
        raise ApiError(422, "Bad request", f"table.hands = {hands}: a match served here plays at most "
                       f"{most_hands:,} hands (--most-hands)", "TableError", where, hands)
    bots = registry.bots
    for s, kind in body.seats.items():
        if is_command(kind):
            raise ApiError(422, "Bad request", f"seats.{s} = {shown(kind)}: a request never names a program; only "
                           "the server's operator offers programs' bots, by name (hkscore serve --bot NAME=cmd:...): "
                           f"\"human\" or one of {', '.join(sorted(bots))}", "TableError", f"seats.{s}", kind)
        if kind != HUMAN and kind not in bots:
            raise ApiError(422, "Bad request", f"seats.{s} = {shown(kind)}: \"human\" or a bot: "
                           f"{', '.join(sorted(bots))}", "TableError", f"seats.{s}", kind)
    if sorted(body.seats) != sorted(SEATS):
        raise ApiError(422, "Bad request", f"seats = {shown(dict(body.seats))}: name all four seats, E, S, W and N",
                       "TableError", "seats", dict(body.seats))
    for s, name in body.names.items():
        if not name.isprintable():
            raise ApiError(422, "Bad request", f"names.{s} = {shown(name)}: printable characters only", "TableError",
                           f"names.{s}", name)
    practice = body.seed is not None  # a seed chosen: a practice deal, which every seat is told
    seed = body.seed if body.seed is not None else secrets.randbelow(MAX_SEED)
    claim = preset.table.claim_seconds or registry.claim_seconds
    turn = preset.table.turn_seconds or registry.turn_seconds
    seats: dict[str, str] = {s: kind for s, kind in body.seats.items()}
    names: dict[str, str] = {s: name for s, name in body.names.items()}
    try:
        player_names(seats, names)
    except TableError as exc:
        raise ApiError(422, "Bad request", str(exc), "TableError", exc.field, exc.value) from None
    live: LiveTable = guard(None, lambda: LiveTable(table_id, preset, seats, names, body.match, seed,
                                                    float(claim), registry.now, bots, registry.open_claims,
                                                    None if turn is None else float(turn), registry.fallback,
                                                    practice=practice))
    live.most_hands = most_hands
    return live


@router.get("/bots", response_model=list[BotListing])
async def list_bots(request: Request) -> RawJSON:
    """The bots a seat may be given: the built-in ones, then those of installed packages (as when the server
    started)."""
    out = [{"name": name, "description": plain_paragraph(getattr(factory, "__doc__", None))}
           for name, factory in registry_of(request.app).bots.items()]
    return RawJSON(json.dumps(out, ensure_ascii=False))


#: reStructuredText markup a docstring's paragraph may hold, and what of it plain text keeps
_ROLE = re.compile(r":[\w.+-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`")  # :role:`text` or :role:`title <target>`
_LITERAL = re.compile(r"``(.+?)``")
_REFERENCE = re.compile(r"`([^`<]*?)\s*(?:<[^`>]*>)?`_{0,2}")  # `text`, `title <url>`_
_EMPHASIS = re.compile(r"(?<![\w*])\*{1,2}(?=\S)(.+?)(?<=\S)\*{1,2}(?![\w*])")


def plain_paragraph(doc: str | None) -> str:
    """A docstring's whole first paragraph as one line of plain text (its
    reStructuredText markup taken off): the bots' descriptions, which the
    page shows as tooltips. Empty for no docstring."""
    if not isinstance(doc, str):
        return ""
    paragraph = inspect.cleandoc(doc).split("\n\n", 1)[0]
    text = " ".join(paragraph.split())
    for pattern in (_ROLE, _LITERAL, _REFERENCE, _EMPHASIS):
        text = pattern.sub(r"\1", text)
    return text[:-2] + ":" if text.endswith("::") else text


@router.post("/tables", status_code=201, response_model=TableCreated,
             responses={**ERRORS, **problems(_429="this client made or holds as many tables as one may",
                                             _503="the server holds as many tables as it may")})
async def create_table(body: TableRequest, request: Request) -> RawJSON:
    """Start a table: one hand (or a match) under a preset; each seat a person (a token each) or a bot."""
    registry = registry_of(request.app)
    clients = clients_of(request.app)
    client = client_of(request.scope)
    registry.sweep()
    clients.may_make(client, registry.tables.values(), registry.idle)
    registry.room()
    known = app_presets(request)
    table_id = registry.new_id()
    most_hands = most_hands_of(request.app)
    if is_toml(body.preset):  # read and compiled for the request: off the event loop
        live = await anyio.to_thread.run_sync(_build, known, body, registry, table_id, most_hands)
        clients.may_make(client, registry.tables.values(), registry.idle)  # (others of its requests went on)
    else:
        live = _build(known, body, registry, table_id, most_hands)
    live.owner = client
    registry.add(live)
    clients.made_one(client)
    tokens, live.issued = live.issued, {}  # given out once: the table keeps only their hashes
    out = {"id": live.id, "tokens": tokens, "seats": dict(live.seats),
           "links": {s: f"/play?table={live.id}&seat={s}#{tok}" for s, tok in tokens.items()}}
    return RawJSON(json.dumps(out), status_code=201)


def _seated(request: Request, table_id: str, authorization: str | None, home: Any = None) -> tuple[LiveTable, str]:
    registry = registry_of(request.app)
    live = registry.get(table_id)
    found = live.home_of(bearer(authorization), home)
    if found is None:
        raise forbidden(home if isinstance(home, str) and home in SEATS else None)
    registry.used(live)
    return live, found


@router.get("/tables/{table_id}", response_model=TableState,
            responses={**_TOKEN_ERRORS, **problems(_422="seat is not E, S, W or N")})
async def table_state(table_id: str, request: Request,
                      seat: Annotated[TableSeat, Query(description="the token's seat")],
                      authorization: Auth = None) -> RawJSON:
    """What one seat may see of the table now."""
    live, home = _seated(request, table_id, authorization, seat)
    return RawJSON(live.state_text(home))


@router.post("/tables/{table_id}/decisions", response_model=TableState,
             responses={**ERRORS, **_TOKEN_ERRORS})
async def table_decision(table_id: str, body: TableDecision, request: Request,
                         authorization: Auth = None) -> RawJSON:
    """A seat's decision on its prompt; refused (422, the table unchanged) unless it is one of the actions offered."""
    registry = registry_of(request.app)
    live = registry.get(table_id)
    home = live.home_of(bearer(authorization))
    if home is None:
        raise forbidden(None)
    registry.used(live)
    live.back(home)
    try:
        live.decide(home, body.model_dump())
    except HkcoreError as exc:
        raise refused(exc) from None
    return RawJSON(live.state_text(home))


@router.post("/tables/{table_id}/back", response_model=TableState, responses={**ERRORS, **_TOKEN_ERRORS})
async def table_back(table_id: str, request: Request, authorization: Auth = None) -> RawJSON:
    """The token's person is back: its seat, played by the table's fallback bot since its turn's clock ran
    out, is its own again (a decision, a ``next`` or a socket's hello does the same)."""
    registry = registry_of(request.app)
    live = registry.get(table_id)
    home = live.home_of(bearer(authorization))
    if home is None:
        raise forbidden(None)
    registry.used(live)
    live.back(home)
    return RawJSON(live.state_text(home))


@router.post("/tables/{table_id}/next", response_model=TableState,
             responses={**ERRORS, **_TOKEN_ERRORS, **problems(_422="not between two hands of a match")})
async def table_next(table_id: str, request: Request,
                     authorization: Auth = None) -> RawJSON:
    """In a match, after a hand has ended: deal the next one (any human seat may ask)."""
    registry = registry_of(request.app)
    live = registry.get(table_id)
    home = live.home_of(bearer(authorization))
    if home is None:
        raise forbidden(None)
    registry.used(live)
    live.back(home)
    try:
        live.next_hand()
    except TableError as exc:
        raise refused(exc) from None
    return RawJSON(live.state_text(home))


@router.get("/tables/{table_id}/log", response_class=NDJSON, response_model=dict[str, Any],
            responses={**problems(_404="no such table (or it expired)", _409="the hand is still being played",
                                  _422="the request could not be read")},
            response_description="the table's records, one JSON object a line (docs/table.md, \"Records\")")
async def table_log(table_id: str, request: Request, authorization: Auth = None) -> Response:
    """The log of the table's finished hands (replays with ``hkscore replay``): once the hand, or the match, is
    over, or a match is between hands. Reading it does not keep the table: only its seats' use does. A table
    over and gone from memory: from the database (``--db``), for one of its seats' tokens, until it is deleted
    (``--db-keep-days``)."""
    registry = registry_of(request.app)
    try:
        live = registry.get(table_id)
    except ApiError:
        token = bearer(authorization)
        if registry.store is None or token is None:
            raise
        kept = await anyio.to_thread.run_sync(registry.store.finished_log, table_id, token)
        if kept is None:
            raise
        return StreamingResponse(kept_chunks(kept), media_type=NDJSON.media_type)
    log = live.log_records()
    if log is None and live.stopped is not None:
        raise ApiError(409, "Conflict", f"the table stopped: a bot failed ({live.stopped}); its log would show "
                       "the wall", "TableStopped")
    if log is None:
        raise ApiError(409, "Conflict", "the hand is still being played: its log would show the wall",
                       "HandInPlay")
    return StreamingResponse(log_chunks(log), media_type=NDJSON.media_type)


#: records of a log written at a time, on a thread of their own
LOG_CHUNK = 512


async def kept_chunks(kept: list[str]) -> Any:
    """A log's JSON lines as the database keeps them, ``LOG_CHUNK`` at a time."""
    for at in range(0, len(kept), LOG_CHUNK):
        yield "".join(f"{text}\n" for text in kept[at:at + LOG_CHUNK]).encode()


async def log_chunks(log: list[dict[str, Any]]) -> Any:
    """A log's JSON lines, written ``LOG_CHUNK`` records at a time off the event loop (a long log leaves the
    worker free for other requests while it is written and sent)."""
    for at in range(0, len(log), LOG_CHUNK):
        yield (await anyio.to_thread.run_sync(lines, log[at:at + LOG_CHUNK])).encode()


# --------------------------------------------------------------------- the socket


def _message(text: Any) -> dict[str, Any] | None:
    if not isinstance(text, str) or len(text) > MAX_MESSAGE:
        return None
    try:
        found = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


@router.websocket("/tables/{table_id}/ws")
async def table_socket(ws: WebSocket, table_id: str) -> None:
    """The table pushed to one seat (docs/server.md, "Tables": the socket's messages)."""
    await ws.accept()
    try:
        hello = _message(await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS))
    except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
        await _close(ws, 4400)
        return
    if hello is None or hello.get("type") != "hello" or hello.get("seat") not in SEATS:
        await _close(ws, 4400)
        return
    registry = registry_of(ws.app)
    try:
        live = registry.get(table_id)
    except ApiError:
        await _close(ws, 4404)
        return
    home = live.home_of(hello.get("token"), hello.get("seat"))
    if home is None:
        await _close(ws, 4403)
        return
    registry.used(live)
    if len(live.listeners) >= MOST_SOCKETS:
        await _close(ws, 4429)
        return
    listener = Listener(home)
    live.listeners.append(listener)
    live.back(home)
    listener.wake.set()
    sender = asyncio.create_task(_send(ws, live, listener))
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                await _close(ws, 1003, BINARY)
                break
            registry.used(live)
            msg = _message(text)
            if msg is None:
                listener.errors.append({"type": "error", "status": 400, "detail": "not a JSON object (at most "
                                        f"{MAX_MESSAGE:,} characters)", "field": None})
                listener.wake.set()
                continue
            kind = msg.get("type")
            try:
                if kind not in ("decision", "next", "back"):
                    raise TableError(f"type = {shown(kind)}: \"decision\", \"next\" or \"back\"", "type", kind)
                live.back(home)
                if kind == "decision":
                    live.decide(home, msg.get("decision"))
                elif kind == "next":
                    live.next_hand()
            except HkcoreError as exc:
                listener.errors.append({"type": "error", "status": 422, "detail": str(exc),
                                        "field": getattr(exc, "field", None)})
                listener.wake.set()
            except ApiError as exc:  # the change could not be saved: the table is closed here (4404 follows)
                listener.errors.append({"type": "error", "status": exc.status, "detail": exc.detail, "field": None})
                listener.wake.set()
    except (WebSocketDisconnect, RuntimeError, KeyError):
        pass
    finally:
        sender.cancel()
        if listener in live.listeners:
            live.listeners.remove(listener)


async def _send(ws: WebSocket, live: LiveTable, listener: Listener) -> None:
    sent = -1
    try:
        while True:
            await listener.wake.wait()
            listener.wake.clear()
            while listener.errors:
                await ws.send_text(json.dumps(listener.errors.popleft()))
            if listener.closing is not None:
                await _close(ws, listener.closing)
                return
            version, text = live.seat_state(listener.home)
            if version != sent:  # only what changed for this seat: never a change it cannot see, nor its clock
                sent = version
                await ws.send_text('{"type":"state",' + text[1:])
    except (WebSocketDisconnect, RuntimeError):
        pass


#: the reason a socket is closed 1003 with
BINARY = "binary messages are not read: send JSON text"


async def _close(ws: WebSocket, code: int, reason: str | None = None) -> None:
    with contextlib.suppress(RuntimeError, WebSocketDisconnect):
        await ws.close(code, reason)
