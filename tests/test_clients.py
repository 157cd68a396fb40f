"""What one client may hold (``hkcore.server.clients``): who a client is, and the counts by a clock of the
test's own. The caps against a real server: tests/test_service_caps.py."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from helpers.serving import missing_server_deps

pytestmark = pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))

if missing_server_deps() is None:
    from hkcore.server.clients import CLIENT_WINDOW, Clients, client_of
    from hkcore.server.problems import ApiError


@pytest.mark.parametrize(("client", "expected"), [
    (("203.0.113.7", 5000), "203.0.113.7"),
    (("2001:db8:1:2:aaaa:bbbb:cccc:dddd", 5000), "2001:db8:1:2::/64"),
    (("2001:db8:1:2::1", 1), "2001:db8:1:2::/64"),  # the same /64: the same client
    (("::ffff:203.0.113.7", 1), "203.0.113.7"),  # an IPv4 address as IPv6 gives it
    (("testclient", 50000), "testclient"),
    (None, "unknown"),
])
def test_a_client_is_its_address_an_ipv6_one_by_its_64(client: Any, expected: str) -> None:
    assert client_of({"client": client}) == expected


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Kept:
    owner: str | None
    last_used: float
    in_play: bool = False


def test_sockets_are_counted_and_released() -> None:
    c = Clients(most_sockets=2)
    assert c.open_socket("a") is None and c.open_socket("a") is None
    refused = c.open_socket("a")
    assert isinstance(refused, ApiError) and refused.status == 429 and "--most-client-sockets" in refused.detail
    assert c.open_socket("b") is None  # another client
    c.close_socket("a")
    assert c.open_socket("a") is None
    for _ in range(2):
        c.close_socket("a")
    c.close_socket("b")
    assert c.sockets == {}  # a client holding nothing is not kept


def test_tables_made_a_minute_and_held() -> None:
    clock = Clock()
    c = Clients(most_tables=3, per_minute=2, now=clock)
    c.may_make("a", [], 100)
    c.made_one("a")
    clock.t += 10
    c.made_one("a")
    with pytest.raises(ApiError) as exc:
        c.may_make("a", [], 100)
    assert exc.value.status == 429 and "--client-tables-per-minute" in exc.value.detail
    assert exc.value.headers["Retry-After"] == str(int(CLIENT_WINDOW) - 10)  # when the first leaves the window
    c.may_make("b", [], 100)
    clock.t += CLIENT_WINDOW - 10
    c.may_make("a", [], 100)  # the first made a minute ago: out of the window
    held = [Kept("a", clock.t - 30), Kept("a", clock.t - 70), Kept("a", clock.t - 90, in_play=True), Kept("b", 0)]
    with pytest.raises(ApiError) as exc:
        c.may_make("a", held, 100)
    assert "--most-client-tables" in exc.value.detail
    assert exc.value.headers["Retry-After"] == "30"  # the one used 70 s ago goes first (not the one in play)
    clock.t += CLIENT_WINDOW
    c.forget_old()
    assert c.made == {}
