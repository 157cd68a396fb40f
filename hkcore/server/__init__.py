"""hkcore over HTTP: a FastAPI application (``create_app``) and ``hkscore serve``.

JSON in and out as docs/rules.md and the Python models say; the OpenAPI document
(``/openapi.json``) is generated from the same pydantic models, and ``/docs``
is a local page that reads it (no CDN). Errors are ``application/problem+json``
naming the field and the value with the words of the Python errors; bad
input is a 4xx, never a 500. The page at ``/`` is plain HTML, CSS and JS
shipped in ``hkcore/web``. See docs/server.md.

The package, by part: ``app`` (the application and its serving),
``routes`` (one router per resource), ``models`` (requests and answers),
``catalog`` (the server's presets, given to endpoints as a dependency),
``problems`` (every error as problem+json), ``limits`` (body size, time
and header middleware), ``heads`` (the time and size of a request's head,
and a WebSocket's upgrade counted as a connection, kept in uvicorn's
protocol), ``clients`` (what one client may hold: sockets, tables),
``tables`` (the tables in play), ``database`` (the tables kept in an SQLite
file through a crash),
``stream`` (the NDJSON batch answer) and
``openapi``.

State: an application holds its presets in one immutable value
(``ServerPresets``, in ``app.state``); nothing here is a module-level
mutable table, and every request handler is safe to run on several threads
at once.
"""
from __future__ import annotations

from hkcore.server.app import app_from_env, create_app, serve, serving
from hkcore.server.catalog import ServerPresets, is_toml
from hkcore.server.limits import (
    BATCH_TIME_LIMIT,
    HEAD_TIME_LIMIT,
    MAX_BATCH_BODY,
    MAX_BODY,
    MAX_HEAD,
    MOST_CONNECTIONS,
    MOST_PRESETS,
    TIME_LIMIT,
    Deadline,
    Limits,
)
from hkcore.server.models import (
    AnalyseRequest,
    CompareRequest,
    Health,
    LegalClaimsRequest,
    PositionRequest,
    PresetListing,
    Problem,
    ResolveClaimsRequest,
    ScoreRequest,
)
from hkcore.server.openapi import openapi_document
from hkcore.server.problems import PROBLEM, ApiError

__all__ = ["BATCH_TIME_LIMIT", "HEAD_TIME_LIMIT", "MAX_BATCH_BODY", "MAX_BODY", "MAX_HEAD", "MOST_CONNECTIONS",
           "MOST_PRESETS", "PROBLEM", "TIME_LIMIT",
           "AnalyseRequest", "ApiError", "CompareRequest", "Deadline", "Health", "LegalClaimsRequest", "Limits",
           "PositionRequest", "PresetListing", "Problem", "ResolveClaimsRequest", "ScoreRequest", "ServerPresets",
           "app_from_env", "create_app", "is_toml", "openapi_document", "serve", "serving"]


def __getattr__(name: str) -> object:
    if name == "PresetSummary":  # the old name, which hkcore.summary's per-preset tally also has
        import warnings

        warnings.warn("hkcore.server.PresetSummary is now hkcore.server.PresetListing", DeprecationWarning,
                      stacklevel=2)
        return PresetListing
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
