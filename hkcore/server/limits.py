"""The service's limits: body sizes, time limits, and the ASGI middleware that keeps them."""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from fastapi import Request
from starlette.exceptions import HTTPException

from hkcore.server.clients import Clients, client_of
from hkcore.server.problems import ApiError, problem_response

#: the largest request body of a JSON endpoint, in bytes (a custom preset's TOML may ride along)
MAX_BODY = 2 << 20
#: the largest body of ``POST /score/batch``, in bytes (it is read and answered line by line)
MAX_BATCH_BODY = 256 << 20
#: seconds a request may take, from its first byte to its answer (batch: to its last line)
TIME_LIMIT = 10.0
BATCH_TIME_LIMIT = 600.0
#: seconds from a connection, or from a request's first byte, to the end of its headers (``hkcore.server.heads``)
HEAD_TIME_LIMIT = 10.0
#: the largest request head (request line and headers), in bytes
MAX_HEAD = 64 << 10
#: the most connections one worker holds at once (uvicorn's ``limit_concurrency``): beyond, a request is a 503
MOST_CONNECTIONS = 1000
#: the most presets one request may name
MOST_PRESETS = 64
#: the path of the streamed batch endpoint (its own body and time limits)
BATCH_PATH = "/score/batch"
#: the key of a request's Deadline in its ASGI scope
DEADLINE_KEY = "hkcore.deadline"


@dataclass(frozen=True)
class Deadline:
    """When one request's time is up (``time.monotonic()`` seconds) and the
    limit it comes from. ``Limits`` makes one per request; the endpoints
    check it between the steps of their loops, so that work past the limit
    is abandoned rather than finished unseen."""

    at: float
    seconds: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(time.monotonic() + seconds, seconds)

    def left(self) -> float:
        """Seconds left (negative once passed)."""
        return self.at - time.monotonic()

    def passed(self) -> bool:
        """Whether the time is up."""
        return time.monotonic() >= self.at

    def check(self) -> None:
        """Raise the 503 ``ApiError`` if the time is up."""
        if self.passed():
            raise self.error()

    def error(self) -> ApiError:
        """The 503 of a request whose time is up."""
        return ApiError(503, "Too slow", f"the request took longer than {self.seconds:g} s", "Timeout")


def deadline_of(request: Request) -> Deadline:
    """The request's deadline, as ``Limits`` set it (``TIME_LIMIT`` from now in an application without it).
    Endpoints call it themselves: as a FastAPI dependency it costs a tenth of a ``POST /score``."""
    found = request.scope.get(DEADLINE_KEY)
    return found if isinstance(found, Deadline) else Deadline.after(TIME_LIMIT)


class Limits:
    """ASGI middleware: ``SECURITY_HEADERS`` on every HTTP answer; a body
    larger than the limit is a 413 (told by its Content-Length, or found
    while it arrives); a request that takes longer than the time limit is a
    503 (when its answer has not begun). Each request gets its ``Deadline``
    in its scope, for the endpoints to check; a batch answer, once begun,
    keeps its own time (it ends with an error line). One middleware rather
    than one per job: each layer costs every request its wrappers. A WebSocket is counted against its
    client's sockets (``clients``): beyond them it is refused before the upgrade, 429."""

    def __init__(self, app: Any, max_body: int, max_batch_body: int, time_limit: float,
                 batch_time_limit: float, clients: Clients | None = None) -> None:
        self.app = app
        self.max_body, self.max_batch_body = max_body, max_batch_body
        self.time_limit, self.batch_time_limit = time_limit, batch_time_limit
        self.clients = clients

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket" and self.clients is not None:
            await self.socket(scope, receive, send, self.clients)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Any) -> None:
            await send(with_security_headers(message))

        batch = scope.get("path") == BATCH_PATH
        limit = self.max_batch_body if batch else self.max_body
        framed = chunked = False  # a body framed by its Content-Length (the HTTP parser holds it to that)
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = -1
                if size < 0 or size > limit:
                    err = ApiError(413, "Request too large", f"body: {value.decode('latin-1')[:20]} bytes; "
                                   f"at most {limit:,}", "RequestTooLarge", "body", None)
                    await problem_response(err)(scope, receive, secured)
                    return
                framed = True
            elif name == b"transfer-encoding":
                chunked = True
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            if message.get("type") == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise HTTPException(413, f"body: more than {limit:,} bytes")
            return message

        deadline = Deadline.after(self.batch_time_limit if batch else self.time_limit)
        # the time limit as one timer that cancels this request's task (asyncio.timeout costs twice as much,
        # a fortieth of a POST /score); a cancellation it did not make goes on as it came
        task = asyncio.current_task()
        assert task is not None
        late = started = False

        def expire() -> None:
            nonlocal late
            late = True
            task.cancel()

        timer: asyncio.TimerHandle | None = asyncio.get_running_loop().call_later(deadline.seconds, expire)

        async def sending(message: Any) -> None:
            nonlocal started, timer
            if message["type"] == "http.response.start":
                started = True
                if batch and timer is not None:  # the stream keeps its own time from here (LinesResponse)
                    timer.cancel()
                    timer = None
                message = with_security_headers(message)
            await send(message)

        try:
            await self.app({**scope, DEADLINE_KEY: deadline}, receive if framed and not chunked else counted, sending)
        except asyncio.CancelledError:
            if not late:
                raise
            task.uncancel()
            if not started:
                await problem_response(deadline.error())(scope, receive, secured)
        finally:
            if timer is not None:
                timer.cancel()


    async def socket(self, scope: Any, receive: Any, send: Any, clients: Clients) -> None:
        """A WebSocket, counted against its client's sockets while it lasts; refused beyond them."""
        client = client_of(scope)
        refused = clients.open_socket(client)
        if refused is not None:
            await deny_socket(scope, receive, send, refused)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            clients.close_socket(client)


async def deny_socket(scope: Any, receive: Any, send: Any, err: ApiError) -> None:
    """Refuse a WebSocket before its upgrade: ``err`` as its problem+json HTTP answer where the server can send
    one (ASGI's ``websocket.http.response``), else a close 1013 (try again later)."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return
    if "websocket.http.response" not in (scope.get("extensions") or {}):
        await send({"type": "websocket.close", "code": 1013, "reason": err.detail[:120]})
        return
    answer = problem_response(err)
    await send({"type": "websocket.http.response.start", "status": answer.status_code,
                "headers": with_security_headers({"type": "http.response.start",
                                                  "headers": answer.raw_headers})["headers"]})
    await send({"type": "websocket.http.response.body", "body": answer.body})


#: the headers every answer carries: the pages load only their own files and talk only to the service
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
                                 b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
)


def with_security_headers(message: Any) -> Any:
    """An ASGI message with ``SECURITY_HEADERS`` added when it starts an answer (those it already has kept)."""
    if message["type"] != "http.response.start":
        return message
    have = {k.lower() for k, _ in message.get("headers", ())}
    return {**message, "headers": [*message.get("headers", ()), *(h for h in SECURITY_HEADERS if h[0] not in have)]}
