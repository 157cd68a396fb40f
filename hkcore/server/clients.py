"""What one client may hold of a worker (docs/server.md, "Limits"): sockets open at once, tables made in a
minute, tables held at once. A client is the address its connection comes from (as uvicorn gives it: behind
a proxy on this machine, the address the proxy names), an IPv6 address by its /64 network (one host holds a
whole /64). ``Clients`` keeps the counts of one application, on its event loop: a client that holds nothing
is not kept.
"""
from __future__ import annotations

import asyncio
import ipaddress
import math
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from hkcore.server.problems import ApiError

#: the most sockets one client holds open at once
MOST_CLIENT_SOCKETS = 64
#: the most tables one client's requests made that a worker holds at once
MOST_CLIENT_TABLES = 100
#: the most tables one client may make in ``CLIENT_WINDOW`` seconds
CLIENT_TABLES_PER_MINUTE = 60
CLIENT_WINDOW = 60.0


def client_of(scope: Any) -> str:
    """The client an ASGI scope comes from: its address, an IPv6 one as its /64 network ("unknown" when the
    server gives none)."""
    found = scope.get("client")
    host = found[0] if found else None
    if not isinstance(host, str) or not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class Held(Protocol):
    """What ``Clients`` reads of a table: who made it, and when it may be dropped."""

    owner: str | None
    last_used: float

    @property
    def in_play(self) -> bool: ...


class Clients:
    """The per-client caps of one application: ``most_sockets`` sockets open at once, ``per_minute`` tables
    made in ``CLIENT_WINDOW`` seconds, ``most_tables`` tables held at once (by the ``now`` clock, the tables'
    own)."""

    def __init__(self, most_sockets: int = MOST_CLIENT_SOCKETS, most_tables: int = MOST_CLIENT_TABLES,
                 per_minute: int = CLIENT_TABLES_PER_MINUTE, now: Callable[[], float] | None = None) -> None:
        self.most_sockets, self.most_tables, self.per_minute = most_sockets, most_tables, per_minute
        self.now = now or time.monotonic
        #: client -> sockets open now
        self.sockets: dict[str, int] = {}
        #: client -> when it made each of its tables of the last ``CLIENT_WINDOW`` seconds, oldest first
        self.made: dict[str, deque[float]] = {}

    def open_socket(self, client: str) -> ApiError | None:
        """Count a socket of ``client``'s; the 429 instead when it holds ``most_sockets`` already."""
        held = self.sockets.get(client, 0)
        if held >= self.most_sockets:
            return ApiError(429, "Too many sockets", f"this address holds {held:,} sockets open; one address may "
                            f"hold at most {self.most_sockets:,} at once (--most-client-sockets): close one first",
                            "TooManySockets")
        self.sockets[client] = held + 1
        return None

    def close_socket(self, client: str) -> None:
        """A socket of ``client``'s has closed."""
        left = self.sockets.get(client, 0) - 1
        if left > 0:
            self.sockets[client] = left
        else:
            self.sockets.pop(client, None)

    def _window(self, client: str) -> deque[float]:
        now = self.now()
        made = self.made.get(client)
        if made is None:
            return deque()
        while made and now - made[0] >= CLIENT_WINDOW:
            made.popleft()
        if not made:
            del self.made[client]
        return made

    def may_make(self, client: str, tables: Iterable[Held], idle: float) -> None:
        """Raise the 429 when ``client`` may not make a table now: it made ``per_minute`` in the last minute,
        or holds ``most_tables`` of ``tables`` (a worker's, dropped after ``idle`` seconds without use);
        ``Retry-After`` says when it may."""
        made = self._window(client)
        if len(made) >= self.per_minute:
            wait = made[0] + CLIENT_WINDOW - self.now()
            raise ApiError(429, "Too many tables", f"this address made {len(made):,} tables in the last "
                           f"{CLIENT_WINDOW:g} s; one address may make at most {self.per_minute:,} a minute "
                           "(--client-tables-per-minute)", "TooManyTables",
                           headers={"Retry-After": str(max(1, math.ceil(wait)))})
        own = [t for t in tables if t.owner == client]
        if len(own) >= self.most_tables:
            now = self.now()
            waits = [t.last_used + idle - now for t in own if not t.in_play]
            wait = min(waits) if waits else idle
            raise ApiError(429, "Too many tables", f"this address holds {len(own):,} tables; one address may hold "
                           f"at most {self.most_tables:,} at once (--most-client-tables); a table is dropped "
                           f"after {idle:g} s without use", "TooManyTables",
                           headers={"Retry-After": str(max(1, math.ceil(wait)))})

    def made_one(self, client: str) -> None:
        """``client`` has made a table."""
        self._window(client)
        self.made.setdefault(client, deque()).append(self.now())

    def forget_old(self) -> None:
        """Drop the windows of clients that made no table in the last minute."""
        for client in list(self.made):
            self._window(client)

    async def sweeper(self) -> None:
        """``forget_old`` once a window until cancelled (a client that made tables once is not kept)."""
        while True:
            await asyncio.sleep(CLIENT_WINDOW)
            self.forget_old()
