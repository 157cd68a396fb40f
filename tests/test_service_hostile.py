"""The service under hostile clients (issue 22), against a real ``hkscore serve`` on loopback:
what a custom preset's ``requires`` tells, slow request heads, work stopped at its deadline.
Every test is bounded in clients and seconds."""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from serving import call, missing_server_deps, server_process

pytestmark = pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with server_process() as (base, _proc):
        yield base


def post(url: str, path: str, body: Any) -> tuple[int, Any]:
    status, kind, raw = call(url + path, "POST", body)
    if status >= 400:
        assert kind == "application/problem+json", (status, kind, raw[:200])
    return status, json.loads(raw)


def _requiring(package: str) -> str:
    return f'extends = "mistboard"\nid = "needs"\nrequires = [{json.dumps(package)}]\n'


def test_requires_names_only_the_plugins_the_server_offers(url: str) -> None:
    # hkcore's own entry points (liability, seven_pairs) are the plugins this server offers
    status, data = post(url, "/score", {"hand": README_HAND, "preset": _requiring("hkcore")})
    assert status == 200 and data["preset"] == "needs"
    answers = set()
    # installed (pytest, pip: the test runs in the server's environment), absent, not a package name at all
    for package in ("pytest", "pip", "PyTest", "no-such-package-hk22", "not a name", ""):
        for path, body in (("/score", {"hand": README_HAND, "preset": _requiring(package)}),
                           ("/presets/check", None)):
            if body is None:
                status, kind, raw = call(url + path, "POST", raw=_requiring(package).encode(),
                                         headers={"Content-Type": "application/toml"})
                p = json.loads(raw)
            else:
                status, p = post(url, path, body)
            assert status == 422, (package, p)
            assert p["field"] == "toml.requires[0]" and p["value"] == package
            assert "installed" not in p["detail"]
            answers.add((path, p["detail"].replace(repr(package), "P", 1)))
    # one answer whatever the package: the same text but for the name the request gave
    assert len({detail for _, detail in answers}) == 1, answers
    assert "is not the package of a plugin this server offers" in next(iter(answers))[1]
