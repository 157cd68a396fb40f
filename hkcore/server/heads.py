"""Bounds on a request's head that uvicorn does not keep: the time from a
connection (or from the first byte of a request on a kept-alive one) to the
end of its headers, and the head's size. A client that drips its headers is
answered 408 and its connection closed when the time is up; one whose head
passes the size is answered 431. A WebSocket's upgrade counts against
uvicorn's ``limit_concurrency`` as a request does (uvicorn lets every upgrade
through): beyond it, the upgrade is answered 503 (problem+json). ``protocol`` gives the HTTP protocol
factory that ``uvicorn.run(http=...)`` takes: uvicorn's own (httptools when
installed, as uvicorn picks it, else h11) with the bounds added.
"""
from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from hkcore.server.limits import HEAD_TIME_LIMIT, MAX_HEAD, SECURITY_HEADERS
from hkcore.server.problems import ApiError, problem_response

try:
    import httptools  # noqa: F401 - uvicorn's httptools protocol needs it
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    _HTTPTOOLS = True
except ImportError:  # pragma: no cover - httptools is not installed: uvicorn uses h11
    _HTTPTOOLS = False



def _answer(status: bytes, text: bytes) -> bytes:
    return (b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\nconnection: close\r\n"
            b"content-length: " + str(len(text)).encode() + b"\r\n\r\n" + text)


#: seconds a client refused for want of connections is asked to wait
FULL_RETRY = 5


def _problem_answer(err: ApiError) -> bytes:
    answer = problem_response(err)
    headers = [*answer.raw_headers, *SECURITY_HEADERS, (b"connection", b"close")]
    return (f"HTTP/1.1 {err.status} {err.title}\r\n".encode() +
            b"".join(k + b": " + v + b"\r\n" for k, v in headers) + b"\r\n" + answer.body)


class _HeadBound:
    """What both protocols add: a timer per head and a count of its bytes; an upgrade to a WebSocket counted
    as a connection."""

    head_time_limit: float = HEAD_TIME_LIMIT
    max_head: int = MAX_HEAD
    loop: asyncio.AbstractEventLoop
    transport: asyncio.Transport
    cycle: Any
    _head_timer: asyncio.TimerHandle | None = None
    _head_bytes: int = 0
    limit_concurrency: int | None
    connections: set[Any]
    tasks: set[Any]

    def _no_room_for_socket(self) -> bool:
        """Whether a WebSocket's upgrade passes the connections a worker holds (``limit_concurrency``, this
        connection among them, as uvicorn counts a request); if so it is answered 503 and closed."""
        limit = self.limit_concurrency
        if limit is None or (len(self.connections) < limit and len(self.tasks) < limit):
            return False
        self._disarm_head()
        err = ApiError(503, "Service Unavailable", f"this server holds at most {limit:,} connections at once, "
                       "WebSockets among them (--most-connections); try again later", "TooManyConnections",
                       headers={"Retry-After": str(FULL_RETRY)})
        if not self.transport.is_closing():
            self.transport.write(_problem_answer(err))
            self.transport.close()
        return True

    def _arm_head(self) -> None:
        if self._head_timer is None:
            self._head_bytes = 0
            self._head_timer = self.loop.call_later(self.head_time_limit, self._head_late)

    def _disarm_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _count_head(self, data: bytes) -> None:
        """Count bytes read that did not complete a head (called after they are parsed); past
        ``max_head``, the request is refused."""
        if self._head_timer is None:
            return
        self._head_bytes += len(data)
        if self._head_bytes > self.max_head:
            self._refuse(b"431 Request Header Fields Too Large",
                         f"the request head passed {self.max_head:,} bytes\n".encode())

    def _head_late(self) -> None:
        self._head_timer = None
        self._refuse(b"408 Request Timeout",
                     f"the request head took longer than {self.head_time_limit:g} s\n".encode())

    def _refuse(self, status: bytes, text: bytes) -> None:
        self._disarm_head()
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:  # an answer is under way: it ends
            self.cycle.keep_alive = False                                 # the connection, the late head dropped
            self.transport.pause_reading()
            return
        self.transport.write(_answer(status, text))
        self.transport.close()


class H11Heads(_HeadBound, H11Protocol):
    """uvicorn's h11 protocol with the head bounds."""

    def __init__(self, *args: Any, head_time_limit: float = HEAD_TIME_LIMIT, max_head: int = MAX_HEAD,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.head_time_limit, self.max_head = head_time_limit, max_head

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head()

    def data_received(self, data: bytes) -> None:
        import h11

        if self.conn.their_state is h11.IDLE:  # bytes of a head
            self._arm_head()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm_head()
        self._count_head(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_head()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: Any) -> None:
        if not self._no_room_for_socket():
            super().handle_websocket_upgrade(event)


if _HTTPTOOLS:

    class HttpToolsHeads(_HeadBound, HttpToolsProtocol):
        """uvicorn's httptools protocol with the head bounds."""

        def __init__(self, *args: Any, head_time_limit: float = HEAD_TIME_LIMIT, max_head: int = MAX_HEAD,
                     **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.head_time_limit, self.max_head = head_time_limit, max_head

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm_head()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            self._count_head(data)

        def on_message_begin(self) -> None:
            self._arm_head()
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._disarm_head()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm_head()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            if not self._no_room_for_socket():
                super().handle_websocket_upgrade()


def protocol(head_time_limit: float = HEAD_TIME_LIMIT, max_head: int = MAX_HEAD) -> Callable[..., asyncio.Protocol]:
    """The HTTP protocol factory for ``uvicorn.run(http=...)``: uvicorn's
    (httptools if installed, else h11) with a head taking at most
    ``head_time_limit`` seconds and ``max_head`` bytes."""
    cls: type[H11Heads | HttpToolsHeads] = HttpToolsHeads if _HTTPTOOLS else H11Heads
    return functools.partial(cls, head_time_limit=head_time_limit, max_head=max_head)
