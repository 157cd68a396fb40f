"""hkcore over HTTP: a FastAPI application (``create_app``) and ``hkscore serve``.

JSON in and out as RULES.md and the Python models say; the OpenAPI document
(``/openapi.json``) is generated from the same pydantic models, and ``/docs``
is a local page that reads it (no CDN). Errors are ``application/problem+json``
naming the field and the value with the words of the Python errors; bad
input is a 4xx, never a 500. The page at ``/`` is plain HTML, CSS and JS
shipped in ``hkcore/web``. See docs/server.md.

State: an application holds its presets in one immutable value
(``ServerPresets``, built when the application is made) and its static files
in a read-only mapping; nothing here is a module-level mutable table, and
every request handler is safe to run on several threads at once.
"""
from __future__ import annotations

import asyncio
import contextlib
import copy
import importlib.resources
import json
import re
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Literal

import anyio
from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.openapi.utils import get_openapi
from pydantic import BaseModel, ConfigDict, Field, SkipValidation, TypeAdapter
from starlette.exceptions import HTTPException

from hkcore.analysis import Analysis, analyse
from hkcore.batch import answer_lines, clip, error_json
from hkcore.claims import Claim, legal_claims, resolve_claims
from hkcore.comparison import Comparison, compare
from hkcore.engine import compile_preset, compiled_for
from hkcore.errors import HandError, HkcoreError, TileError, loc, shown
from hkcore.models import MAX_JSON, Hand, Position, ScoreResult
from hkcore.preset import (Preset, PresetData, PresetError, _is_path, _nearest, _toml_data, builtin_ids,
                           export_toml, load_preset)

#: the largest request body of a JSON endpoint, in bytes (a custom preset's TOML may ride along)
MAX_BODY = 2 << 20
#: the largest body of ``POST /score/batch``, in bytes (it is read and answered line by line)
MAX_BATCH_BODY = 256 << 20
#: seconds a request may take, from its first byte to its answer (batch: to its last line)
TIME_LIMIT = 10.0
BATCH_TIME_LIMIT = 600.0
#: the most presets one request may name
MOST_PRESETS = 64
PROBLEM = "application/problem+json"
JSON = "application/json"
_BATCH_PATH = "/score/batch"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hkcore")
    except PackageNotFoundError:  # a source tree that was not installed
        return "unknown (not installed)"


# ---------------------------------------------------------------- presets

def _unsaid(exc: PresetError, path: str, ref: str) -> PresetError:
    """``exc`` with the server-side ``path`` it names told as ``ref``, the id the request gave."""
    if path not in str(exc) and exc.value != path and exc.file != path:
        return exc
    out = copy.copy(exc)
    out.args = (str(exc).replace(path, ref),)
    out.value = ref if exc.value == path else exc.value
    out.file = ref if exc.file == path else exc.file
    return out


@dataclass(frozen=True)
class ServerPresets:
    """The presets one server knows: the built-in ones and those of its
    presets folder (read once, when the server starts), by id. A preset
    given in a request as TOML text may extend these only: a built-in id, a
    folder preset's id, or a file inside the folder; it reads no other file."""

    folder: Path | None
    builtin: tuple[str, ...]
    local: Mapping[str, Preset]
    files: Mapping[str, str]

    @classmethod
    def load(cls, folder: str | Path | None) -> ServerPresets:
        builtin = tuple(builtin_ids())
        if folder is None:
            return cls(None, builtin, MappingProxyType({}), MappingProxyType({}))
        root = Path(folder).resolve()
        if not root.is_dir():
            raise PresetError(f"no folder {shown(str(folder))}", None, "presets")
        local: dict[str, Preset] = {}
        files: dict[str, str] = {}
        for path in sorted(root.glob("*.toml")):
            preset = load_preset(path, root=root)
            if preset.id in builtin or preset.id in local:
                raise PresetError(f"preset id {preset.id!r} is already taken "
                                  f"({'built in' if preset.id in builtin else files[preset.id]})", str(path), "id")
            local[preset.id] = preset
            files[preset.id] = str(path)
        return cls(root, builtin, MappingProxyType(local), MappingProxyType(files))

    def ids(self) -> list[str]:
        return [*self.builtin, *self.local]

    def get(self, ref: Any, field: str = "preset") -> Preset:
        """A preset by id, or from TOML text (``ref`` holding a newline or ``=``)."""
        if not isinstance(ref, str):
            raise PresetError(f"expected a preset id or TOML text, got {shown(ref)}", None, field, value=ref)
        if is_toml(ref):
            return self.custom(ref, field)
        if ref in self.builtin:
            return load_preset(ref)
        found = self.local.get(ref)
        if found is not None:
            return found
        ids = self.ids()
        raise PresetError(f"unknown preset {shown(ref)}{_nearest(ref, ids)}; presets here: {', '.join(ids)}",
                          None, field, value=ref)

    def custom(self, text: str, field: str = "preset") -> Preset:
        """A preset from TOML text sent in a request (see the class)."""
        data = _toml_data(text)
        parent = data.get("extends")
        if isinstance(parent, str) and parent in self.local:  # a folder preset, by its id
            data["extends"] = self.files[parent]
        elif isinstance(parent, str) and _is_path(parent) and self.folder is None:
            raise PresetError(f"{shown(parent)}: presets may extend only a built-in preset or a file inside the "
                              "presets folder (this server has none)", "<toml>", "extends", value=parent)
        try:
            return load_preset(data, root=self.folder) if self.folder is not None else load_preset(data)
        except PresetError as exc:
            if isinstance(parent, str) and parent in self.local:  # the folder's path is not the client's to see
                exc = _unsaid(exc, self.files[parent], parent)
            if exc.file is None and exc.path is not None and not exc.path.startswith(field):
                raise PresetError(str(exc), "<toml>", exc.path, value=exc.value) from None
            raise exc from None

    def summary(self, preset: Preset) -> dict[str, Any]:
        return {"id": preset.id, "name": preset.name, "unit": preset.unit, "minimum": preset.minimum,
                "cap": preset.cap, "tiles": preset.tiles,
                "origin": "built-in" if preset.id in self.builtin and preset.file == f"{preset.id}.toml"
                else "presets folder"}


def is_toml(ref: str) -> bool:
    """Whether a preset named in a request is TOML text (read and compiled for the request) rather than an id."""
    return "\n" in ref or "=" in ref


# ---------------------------------------------------------------- request and answer models

_HAND_DOC = ("a finished hand: the RULES.md JSON (a Hand) or the compact notation, e.g. "
             "'234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N'")
_POSITION_DOC = "a hand in play: the RULES.md JSON without the win (a Position) or notation without win:"
_PRESET_DOC = ("a preset id (GET /presets), or a custom preset as TOML text (it may extend the built-in "
               "presets and the server's presets folder only)")

# Hands are read with Hand.parse / Position.parse, whose errors name the field
# in the words of the Python API; the schema still says what they are.
HandIn = Annotated[SkipValidation[Hand | str], Field(description=_HAND_DOC)]
PositionIn = Annotated[SkipValidation[Position | str], Field(description=_POSITION_DOC)]
PresetRef = Annotated[str, Field(description=_PRESET_DOC, max_length=MAX_BODY)]
Presets = Annotated[PresetRef | list[PresetRef], Field(description=_PRESET_DOC + "; a list for several")]
Seat = Literal["E", "S", "W", "N"]
_BATCH_BODY_DOC = ('one hand per line (JSON or notation). The first line may name the preset, as in every other '
                   'request: {"preset": P}, P a preset id or a custom preset as TOML text (JSON-escaped); '
                   "then ?preset= is not given")
_BATCH_QUERY_DOC = ("a preset id (GET /presets); default bga-old-style. For a custom preset, send "
                    '{"preset": "<TOML text>"} as the first line of the body instead')


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ScoreRequest(_Request):
    """``POST /score``: a hand under one preset (a ScoreResult) or several (a list)."""

    hand: HandIn
    preset: Presets = "bga-old-style"


class CompareRequest(_Request):
    """``POST /compare``: a hand under several presets, side by side (default: every preset of the server)."""

    hand: HandIn
    presets: list[PresetRef] | None = None


class PositionRequest(_Request):
    """``POST /position``: a hand in play, read as ``/analyse`` reads it."""

    hand: PositionIn


class AnalyseRequest(_Request):
    """``POST /analyse``: tiles away, waits and their value (one preset: an Analysis; several: a list)."""

    hand: PositionIn
    preset: Presets = "bga-old-style"
    visible: Annotated[str, Field(max_length=1000, description="tiles face up elsewhere, for the unseen counts")] = ""


class LegalClaimsRequest(_Request):
    """``POST /claims/legal``: the claims a waiting hand may make on a discard."""

    hand: PositionIn
    discard: str
    discarder: Seat
    preset: PresetRef = "bga-old-style"
    kong: Literal["added", "concealed"] | None = None
    last_tile: bool = False


def _own(request: type[BaseModel]) -> frozenset[str]:
    """A request's fields beside its ``hand``: an error naming one of them is about it, not the hand's ``hand.X``."""
    return frozenset(request.model_fields) - {"hand"}


class ResolveClaimsRequest(_Request):
    """``POST /claims/resolve``: who gets the tile among the claims made."""

    claims: Annotated[list[SkipValidation[Claim]], Field(max_length=16)]
    discarder: Seat
    preset: PresetRef = "bga-old-style"


class _Entry(BaseModel):
    """One preset's answer in a list: its result, or its error (message, type, field)."""

    preset: str
    error: str | None = None
    type: str | None = None
    field: str | None = None


class ScoreEntry(_Entry):
    result: ScoreResult | None = None


class AnalysisEntry(_Entry):
    result: Analysis | None = None


class PresetSummary(BaseModel):
    id: str
    name: str
    unit: Literal["faan", "points"]
    minimum: int
    cap: int | None
    tiles: int
    origin: Literal["built-in", "presets folder"]


class Problem(BaseModel):
    """An error, as RFC 9457 problem details: ``detail`` is the Python error's
    message, ``field`` the request field (dotted) and ``value`` its value."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    error_type: str
    field: str | None = None
    value: Any = None
    errors: list[dict[str, Any]] = []


class BatchError(BaseModel):
    """A line of ``POST /score/batch``'s answer for a hand line that could not be scored (or, last, for
    the lines the time limit or the size limit left unscored)."""

    line: int = Field(description="the number of the input line it answers (from 1)")
    error: str
    type: str = Field(description="HandError, PresetError, ..., or Timeout, RequestTooLarge for the last line")
    field: str | None = Field(None, description="the hand's field the error names")


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    core: str
    presets: int


# ---------------------------------------------------------------- errors

class ApiError(Exception):
    """An error answered as problem+json."""

    def __init__(self, status: int, title: str, detail: str, error_type: str, field: str | None = None,
                 value: Any = None, errors: list[dict[str, Any]] | None = None):
        super().__init__(detail)
        self.status, self.title, self.detail, self.error_type = status, title, detail, error_type
        self.field, self.value, self.errors = field, value, errors or []


def _plain(value: Any) -> Any:
    """``value`` if it is JSON as it stands (and short), else its shortened repr."""
    if isinstance(value, int) and value.bit_length() > 200:  # as shown() tells it: its size
        return shown(value)
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return shown(value)
    if isinstance(value, str) and len(value) > 200:
        return value[:200] + "..."
    return value


#: the field an error about a whole object names (a hand that is not an object, say)
_WHOLE = ("hand", "position", "claim")


def _joined(prefix: str | None, field: str | None) -> str | None:
    """``field`` under the request field ``prefix`` (``hand`` + ``tiles`` -> ``hand.tiles``; an error
    about the whole of ``hand``, or of ``claims.0``, is that field, not ``hand.hand``)."""
    if prefix and field and (field == prefix or field.startswith(prefix + ".")):
        return field
    if prefix and field in _WHOLE:
        return prefix
    return ".".join(p for p in (prefix, field) if p) or None


def from_error(exc: HkcoreError, prefix: str | None = None) -> ApiError:
    """An hkcore error as an ApiError; ``prefix`` is the request field the error's field lies under."""
    name = type(exc).__name__
    if isinstance(exc, PresetError):
        if exc.file is None:  # about the request field naming the preset (an unknown id, say)
            field = prefix or exc.path
        else:  # inside a preset's TOML: its dotted TOML path under "toml"
            field = _joined(prefix, ".".join(p for p in ("toml", exc.path) if p))
        return ApiError(422, "Bad preset", str(exc), name, field, _plain(exc.value),
                        [{"type": "value_error", "loc": list(loc(field)), "msg": str(exc), "file": exc.file}])
    if isinstance(exc, HandError):
        head = list(loc(prefix))
        problems = [dict(p, loc=list(loc(_joined(prefix, ".".join(map(str, p["loc"]))))) if p["loc"] else head,
                         input=_plain(p.get("input"))) for p in exc.errors()]
        for p in problems:
            p.pop("ctx", None)
            p.pop("url", None)
        return ApiError(422, "Bad hand", str(exc), name, _joined(prefix, exc.field), _plain(exc.value), problems)
    if isinstance(exc, TileError):
        return ApiError(422, "Bad tile", str(exc), name, prefix, _plain(exc.text))
    return ApiError(422, "Bad request", str(exc), name, prefix)


def problem_response(err: ApiError) -> Response:
    body = {"type": "about:blank", "title": err.title, "status": err.status, "detail": err.detail,
            "error_type": err.error_type, "field": err.field, "value": _plain(err.value), "errors": err.errors}
    return Response(json.dumps(body), status_code=err.status, media_type=PROBLEM)  # ASCII: a lone surrogate in a value stays text


#: the parts of a pydantic error's ``loc`` that name a member of a union (``constrained-str``,
#: ``list[str]``, ``function-after[...]``), not a field of the request
_UNION_TAG = re.compile(r"(constrained-)?(str|int|float|bool|none|list|dict|tuple)(\[.*\])?|[\w-]+\[.*\]")


def _where(loc: Iterable[Any], kind: Any = None) -> list[str]:
    """A pydantic ``loc`` as the request's field path: no ``body``, no union members (but the last
    part of an ``extra_forbidden`` error is the key sent, whatever it is called)."""
    parts = list(loc)
    key = [parts.pop()] if kind == "extra_forbidden" and parts else []
    return [str(p) for p in parts if p != "body" and not (isinstance(p, str) and _UNION_TAG.fullmatch(p))] + \
        [str(p) for p in key]


#: pydantic's words for a JSON client: a request is JSON, not Python
_SAID = {"tuple_type": "expected a list", "list_type": "expected a list", "extra_forbidden": "not a field of this request",
         "bool_type": "expected true or false", "bool_parsing": "expected true or false",
         "int_type": "expected a whole number", "int_parsing": "expected a whole number",
         "string_type": "expected a string", "dict_type": "expected a JSON object",
         "model_type": "expected a JSON object", "model_attributes_type": "expected a JSON object"}


def _said(error: Mapping[str, Any]) -> str:
    """A pydantic error's message as a JSON client reads it."""
    kind, ctx = error.get("type"), error.get("ctx") or {}
    if kind in _SAID:
        return _SAID[kind]
    if kind == "too_long" and "max_length" in ctx:
        return f"at most {ctx['max_length']:,} items, got {ctx.get('actual_length', 'more'):,}"
    if kind == "string_too_long" and "max_length" in ctx:
        return f"at most {ctx['max_length']:,} characters"
    return str(error.get("msg", "invalid")).replace("Input should be ", "expected ")


def _as_json(value: Any) -> str:
    """A value as its JSON text, cut to about ``SHOWN`` characters (a request's values are JSON)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return shown(value)
    return text if len(text) <= 90 else text[:80] + "..."


def _validation_problem(exc: RequestValidationError, content_type: str = JSON) -> ApiError:
    found = list(exc.errors())
    if not found:
        return ApiError(400, "Bad request", "the request could not be read", "RequestValidationError")
    # of a union's errors, the one that goes deepest says most (preset.1 = 5, not the whole list)
    first = max(found, key=lambda e: len(_where(e.get("loc", ()), e.get("type"))))
    where = _where(first.get("loc", ()), first.get("type"))
    field = ".".join(where) or None
    if first.get("type") == "json_invalid" or not where:
        if not content_type.split(";")[0].strip().lower().endswith("json"):
            return ApiError(400, "Bad JSON", f"body: sent as {shown(content_type or 'no Content-Type')}; send the "
                            "JSON object with Content-Type: application/json", "RequestValidationError", "body")
        if first.get("type") == "json_invalid":
            return ApiError(400, "Bad JSON", f"body: not JSON ({first.get('msg', '')})", "RequestValidationError",
                            "body")
        return ApiError(400, "Bad JSON", f"body: expected a JSON object, got {shown(first.get('input'))}",
                        "RequestValidationError", "body", _plain(first.get("input")))
    msg = _said(first)
    value = first.get("input") if first.get("type") != "missing" else None  # (the object it is missing from)
    detail = f"{field or 'body'} = {_as_json(value)}: {msg}" if first.get("type") != "missing" else \
        f"{field}: missing"
    errors = [{"type": e.get("type"), "loc": _where(e.get("loc", ()), e.get("type")), "msg": _said(e),
               "input": _plain(e.get("input"))} for e in found[:20]]
    return ApiError(422, "Bad request", detail, "RequestValidationError", field, _plain(value), errors)


def _guard(prefix: str | None, call: Callable[[], Any], own: frozenset[str] = frozenset()) -> Any:
    """``call()``, its hkcore error as an ApiError whose field lies under ``prefix`` (unless the
    error names one of ``own``, fields of the request itself)."""
    try:
        return call()
    except HkcoreError as exc:
        field = getattr(exc, "field", None)
        raise from_error(exc, None if field and field.split(".")[0] in own else prefix) from None
    except RecursionError:
        raise ApiError(422, "Bad request", f"{prefix or 'body'}: nested too deeply", "RecursionError",
                       prefix) from None


# ---------------------------------------------------------------- limits

_DEADLINE = "hkcore.deadline"  # the key of a request's Deadline in its ASGI scope


@dataclass(frozen=True)
class Deadline:
    """When one request's time is up (``time.monotonic()`` seconds) and the
    limit it comes from. ``Limits`` makes one per request; the endpoints
    take it as an argument and check it between the steps of their loops,
    so that work past the limit is abandoned rather than finished unseen."""

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
    found = request.scope.get(_DEADLINE)
    return found if isinstance(found, Deadline) else Deadline.after(TIME_LIMIT)


class Limits:
    """ASGI middleware: a body larger than the limit is a 413 (told by its
    Content-Length, or found while it arrives); a request that takes longer
    than the time limit is a 503 (when its answer has not begun). Each
    request gets its ``Deadline`` in its scope, for the endpoints to check;
    a batch answer, once begun, keeps its own time (it ends with an error
    line)."""

    def __init__(self, app: Any, max_body: int, max_batch_body: int, time_limit: float,
                 batch_time_limit: float) -> None:
        self.app = app
        self.max_body, self.max_batch_body = max_body, max_batch_body
        self.time_limit, self.batch_time_limit = time_limit, batch_time_limit

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        batch = scope.get("path") == _BATCH_PATH
        limit = self.max_batch_body if batch else self.max_body
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = -1
                if size < 0 or size > limit:
                    err = ApiError(413, "Request too large", f"body: {value.decode('latin-1')[:20]} bytes; "
                                   f"at most {limit:,}", "RequestTooLarge", "body", None)
                    await problem_response(err)(scope, receive, send)
                    return
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
        started = False
        try:
            async with asyncio.timeout(deadline.seconds) as guard:

                async def sending(message: Any) -> None:
                    nonlocal started
                    if message["type"] == "http.response.start":
                        started = True
                        if batch:  # the stream keeps its own time from here (_LinesResponse)
                            guard.reschedule(None)
                    await send(message)

                await self.app({**scope, _DEADLINE: deadline}, counted, sending)
        except TimeoutError:
            if not started:
                await problem_response(deadline.error())(scope, receive, send)


# ---------------------------------------------------------------- the application

def _web_files() -> Mapping[str, tuple[bytes, str]]:
    """The page's files (hkcore/web), read once: name -> (content, media type)."""
    kinds = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
             ".js": "text/javascript; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}
    found: dict[str, tuple[bytes, str]] = {}
    root = importlib.resources.files("hkcore") / "web"
    if root.is_dir():
        for item in root.iterdir():
            suffix = Path(item.name).suffix
            if item.is_file() and suffix in kinds:
                found[item.name] = (item.read_bytes(), kinds[suffix])
    return MappingProxyType(found)


def _json(text: str) -> Response:
    return Response(text, media_type=JSON)


def _listing(parts: Iterable[str]) -> Response:
    return Response("[" + ",".join(parts) + "]", media_type=JSON)


def _refs(value: str | list[str], field: str) -> tuple[list[str], bool]:
    """(preset refs, whether one was given alone)."""
    if isinstance(value, str):
        return [value], True
    if len(value) > MOST_PRESETS:
        raise ApiError(422, "Bad request", f"{field}: {len(value):,} presets; at most {MOST_PRESETS}",
                       "PresetError", field, len(value))
    if not value:
        raise ApiError(422, "Bad request", f"{field}: an empty list; name at least one preset", "PresetError",
                       field, [])
    return value, False


#: lines of a batch scored between two looks at the clock and at the client
_CHUNK = 256
#: a batch's first line that names its preset: a JSON object whose first key is "preset"
_HEADER = re.compile(rb'\s*\{\s*"preset"\s*:')
#: seconds a batch answer may take to write its last line once its time is up
_GRACE = 2.0


class _Object(dict[str, Any]):
    """A JSON object read with ``_pairs``: ``repeated``, each key it gives more than once with its values."""

    repeated: dict[str, list[Any]]


def _pairs(pairs: list[tuple[str, Any]]) -> _Object:
    out = _Object()
    out.repeated = {}
    for key, value in pairs:
        if key in out:
            out.repeated.setdefault(key, [out[key]]).append(value)
        out[key] = value
    return out


def batch_preset(line: bytes, known: ServerPresets) -> Preset:
    """The preset a batch's first line ``{"preset": P}`` names (P as in every
    other request: an id, or a custom preset as TOML text)."""
    try:
        data = json.loads(line, object_pairs_hook=_pairs)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, "Bad JSON", f"line 1: not a JSON object ({str(exc)[:200]}); a first line "
                       '{"preset": ...} names the preset of the batch', "BatchHeaderError", "body") from None
    if not isinstance(data, dict):
        raise ApiError(400, "Bad JSON", "line 1: not a JSON object", "BatchHeaderError", "body")
    for key, values in data.repeated.items():  # the line's own keys (JSON would keep the last of each)
        raise ApiError(422, "Bad request", f"line 1: {shown(key)} given {len(values)} times ({_as_json(values)}): "
                       "the first line names one preset", "BatchHeaderError", key, _plain(values))
    for key, value in data.items():
        if key != "preset":
            raise ApiError(422, "Bad request", f"line 1: {shown(key)} = {shown(value)}: the first line of a batch "
                           'holds only "preset"', "BatchHeaderError", key, _plain(value))
    ref = data["preset"]
    if not isinstance(ref, str):
        raise ApiError(422, "Bad preset", f"preset = {_as_json(ref)}: expected a preset id or TOML text",
                       "PresetError", "preset", _plain(ref))
    return _guard(None, lambda: known.get(ref, "preset"))


class _LinesResponse(Response):
    """The answer of ``POST /score/batch``: reads the request body as it
    arrives and writes one JSON line per hand line (blank lines skipped; a
    bad line's error carries its line number), so that neither side holds
    the whole upload. The first line may name the preset (``{"preset": P}``);
    a bad one is a problem+json answer, given before any line. The answer
    ends with an error line when the body passes its limit or the time is
    up, and stops when the client goes away."""

    media_type = "application/x-ndjson"

    def __init__(self, known: ServerPresets, preset: Preset | None, deadline: Deadline) -> None:
        super().__init__(media_type=self.media_type)
        self.known, self.preset, self.deadline = known, preset, deadline

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        pending, more = b"", True
        try:
            while more and b"\n" not in pending and len(pending) <= MAX_BODY:  # up to the end of line 1
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                pending += message.get("body", b"")
                more = message.get("more_body", False)
            preset, number = self.preset, 0
            first = pending.split(b"\n", 1)[0]
            if _HEADER.match(first):
                if more and b"\n" not in pending:
                    raise ApiError(413, "Request too large", f"line 1: more than {MAX_BODY:,} bytes",
                                   "RequestTooLarge", "preset")
                if preset is not None:
                    raise ApiError(422, "Bad request", "preset: given twice, as ?preset= and on the first line; "
                                   "give one", "BatchHeaderError", "preset", preset.id)
                preset = await anyio.to_thread.run_sync(batch_preset, first, self.known)
                pending, number = pending[len(first) + 1:], 1
            compiled = await anyio.to_thread.run_sync(compiled_for, preset or "bga-old-style")
        except HTTPException as exc:  # the body passed the limit (Limits)
            await problem_response(ApiError(413, "Request too large", str(exc.detail), "RequestTooLarge",
                                            "body"))(scope, receive, send)
            return
        except ApiError as exc:
            await problem_response(exc)(scope, receive, send)
            return
        except HkcoreError as exc:
            await problem_response(from_error(exc))(scope, receive, send)
            return
        headers = [(k, v) for k, v in self.raw_headers if k != b"content-length"]  # streamed: chunked
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        answered, tail, gone = number, None, None
        try:
            async with asyncio.timeout(self.deadline.left()):
                skipping = False
                while True:
                    if not more and gone is None:  # the body is in: a receive now tells of a disconnect
                        gone = asyncio.ensure_future(receive())
                    parts = pending.split(b"\n")
                    pending = parts.pop() if more else b""
                    lines = []
                    if skipping and parts:  # the end of an over-long line, already answered
                        parts.pop(0)
                        skipping = False
                    elif skipping:
                        pending = b""
                    for raw in parts:
                        number += 1
                        if line := clip(raw).strip():  # an over-long line's head, as hkscore reads a file
                            lines.append((number, line))
                    if len(pending) > MAX_JSON + 1:  # longer than a hand can be: its head answered, the rest skipped
                        number += 1
                        if line := clip(pending).strip():  # white space alone is a blank line (as hkscore reads it)
                            lines.append((number, line))
                        pending, skipping = b"", True
                    for at in range(0, len(lines), _CHUNK):
                        if gone is not None and gone.done():
                            return
                        if self.deadline.passed():
                            raise TimeoutError
                        chunk = lines[at:at + _CHUNK]
                        body = await anyio.to_thread.run_sync(_scored, compiled, chunk)
                        await send({"type": "http.response.body", "body": body, "more_body": True})
                        answered = chunk[-1][0]
                    if not more:
                        break
                    try:
                        message = await receive()
                    except HTTPException as exc:  # the body passed the limit (Limits)
                        tail = {"line": number + 1, "error": str(exc.detail), "type": "RequestTooLarge",
                                "field": "body"}
                        break
                    if message["type"] == "http.disconnect":
                        return
                    pending += message.get("body", b"")
                    more = message.get("more_body", False)
        except TimeoutError:
            tail = {"line": answered + 1, "error": f"the request took longer than {self.deadline.seconds:g} s; "
                    f"the lines from {answered + 1} on were not scored", "type": "Timeout", "field": None}
        finally:
            if gone is not None:
                gone.cancel()
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(_GRACE):  # a client that reads no more does not hold the answer open
                last = json.dumps(tail).encode() + b"\n" if tail else b""
                await send({"type": "http.response.body", "body": last, "more_body": False})


def _scored(compiled: Any, lines: list[tuple[int, bytes]]) -> bytes:
    """The answer lines of some hand lines: a result each, or an error carrying the line number."""
    out = answer_lines(compiled, lines)
    return ("\n".join(out) + "\n").encode() if out else b""


_ERRORS = {400: {"description": "a body that is not JSON (or not UTF-8), or not a JSON object"},
           422: {"description": "bad input (problem+json naming the field and the value)"},
           413: {"description": "the body is larger than the limit"},
           503: {"description": "the request took longer than the time limit"}}


def _add_schema(doc: dict[str, Any], kind: Any, name: str) -> None:
    """The JSON Schema of ``kind`` (a model or any type pydantic knows) put among the document's
    components as ``name``, the schemas it uses beside it."""
    schema = TypeAdapter(kind).json_schema(ref_template="#/components/schemas/{model}", mode="serialization")
    found = doc.setdefault("components", {}).setdefault("schemas", {})
    defs = schema.pop("$defs", {})
    # a model FastAPI already wrote as an answer (``Model-Output`` where its input schema differs) is used as it is
    same = {key: f"{key}-Output" for key in defs if f"{key}-Output" in found}
    text = json.dumps(schema)
    for key, there in same.items():
        text = text.replace(f'"#/components/schemas/{key}"', f'"#/components/schemas/{there}"')
    schema = json.loads(text)
    for key, sub in defs.items():
        if key not in same:
            found.setdefault(key, sub)
    found[name] = schema


def _refer(node: Any, schemas: Mapping[str, Any], top: bool = True) -> None:
    """Each copy inside ``node`` of a component schema FastAPI wrote out in full (a ``SkipValidation``
    model's, in a list) replaced by a ``$ref`` to it, so a client generator names its type."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in list(items):
        if isinstance(value, dict) and "properties" in value and not (top and key in schemas):
            named = next((n for n, sub in schemas.items() if sub == value and sub is not value), None)
            if named is not None:
                node[key] = {"$ref": f"#/components/schemas/{named}"}
                continue
        _refer(value, schemas, False)


#: the schemas the endpoints refer to by name (``_ref``) that are no FastAPI response model: a preset's data
#: (a TypedDict), the lines of the batch answer, and every error answer
_COMPONENTS: Mapping[str, Any] = MappingProxyType(
    {"Problem": Problem, "Preset": PresetData, "BatchLine": ScoreResult | BatchError})


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """The application's OpenAPI document, as FastAPI writes it from the models, with what it cannot
    know: the ``_COMPONENTS`` schemas, and every error answer application/problem+json (a ``Problem``)."""
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes,
                      tags=app.openapi_tags)
    for name, kind in _COMPONENTS.items():
        _add_schema(doc, kind, name)
    for item in doc.get("paths", {}).values():
        for method, op in item.items():
            responses = op.setdefault("responses", {})
            if method == "post":
                responses.setdefault("400", {"description": _ERRORS[400]["description"]})
            for status, answer in responses.items():
                if int(status) >= 400:
                    answer["content"] = {PROBLEM: {"schema": _ref("Problem")}}
            ok = responses.get("200", {}).get("content", {})
            if ok.get(JSON) == {"schema": {}} and len(ok) > 1:  # FastAPI's JSON guess beside the declared answer
                del ok[JSON]
    schemas = doc["components"]["schemas"]
    _refer(doc["paths"], schemas)
    _refer(schemas, schemas)
    for unused in ("HTTPValidationError", "ValidationError"):  # FastAPI's own 422 body, never sent here
        if f'"#/components/schemas/{unused}"' not in json.dumps(doc):
            schemas.pop(unused, None)
    return doc


def create_app(presets_dir: str | Path | None = None, *, max_body: int = MAX_BODY,
               max_batch_body: int = MAX_BATCH_BODY, time_limit: float = TIME_LIMIT,
               batch_time_limit: float = BATCH_TIME_LIMIT) -> FastAPI:
    """The hkcore HTTP application. ``presets_dir``: a folder of preset files
    served beside the built-in ones (and the only files a preset sent in a
    request may extend)."""
    known = ServerPresets.load(presets_dir)
    web = _web_files()
    app = FastAPI(title="hkcore", version=_version(), docs_url=None, redoc_url=None,
                  description="Score Hong Kong mahjong hands under any house ruleset (RULES.md). "
                              "Errors are application/problem+json.")
    app.state.presets = known

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = openapi_document(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(Limits, max_body=max_body, max_batch_body=max_batch_body, time_limit=time_limit,
                       batch_time_limit=batch_time_limit)

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> Response:
        return problem_response(exc)

    @app.exception_handler(HkcoreError)
    async def _hkcore_error(request: Request, exc: HkcoreError) -> Response:
        return problem_response(from_error(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        return problem_response(_validation_problem(exc, request.headers.get("content-type", "")))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        titles = {404: "Not found", 405: "Method not allowed", 413: "Request too large"}
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        field = "body" if exc.status_code in (400, 413) else None
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"no such page: {request.url.path}"
        elif exc.status_code == 405 and exc.headers and "Allow" in exc.headers:
            detail = f"{request.method} {request.url.path}: this path takes {exc.headers['Allow']}"
        elif exc.status_code == 400 and detail == "There was an error parsing the body":  # Starlette's words
            detail = "body: not JSON text (not UTF-8, or nested too deeply to read)"
        kind = "RequestTooLarge" if exc.status_code == 413 else "HTTPException"  # as when told by Content-Length
        answer = problem_response(ApiError(exc.status_code, titles.get(exc.status_code, "Bad request"), detail,
                                           kind, field))
        answer.headers.update(exc.headers or {})  # a 405's Allow
        return answer

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> Response:  # a bug: say so, as problem+json
        return problem_response(ApiError(500, "Internal error", f"{type(exc).__name__}: {shown(str(exc))}",
                                         type(exc).__name__))

    def preset_of(ref: Any, field: str, listed: bool = False) -> Preset:
        """The preset ``ref`` names; its error names ``field`` (for an item of a list, a custom preset's TOML
        path under it: ``preset.1.toml.minimum``)."""
        return _guard(field if listed else None, lambda: known.get(ref, field))

    def each(refs: list[str], answer: Callable[[Preset], str], deadline: Deadline) -> Response:
        """A list answer: ``{"preset", "result"}`` for each preset, or its error in its place
        (a 503 once the deadline passes)."""
        out = []
        for i, ref in enumerate(refs):
            deadline.check()
            p = preset_of(ref, f"preset.{i}", listed=True)
            try:
                out.append('{"preset":' + json.dumps(p.id) + ',"result":' + answer(p) + "}")
            except HkcoreError as exc:
                out.append(error_json(exc, p.id))
        return _listing(out)

    # -- scoring

    @app.post("/score", tags=["scoring"], response_model=None,
              responses={200: {"model": ScoreResult | list[ScoreEntry],
                               "description": "one preset: its ScoreResult; a list of presets: one entry each"},
                         **_ERRORS})
    async def score_hand(body: ScoreRequest, request: Request) -> Response:
        """Score a finished hand under one preset or several."""
        deadline = deadline_of(request)
        refs, alone = _refs(body.preset, "preset")
        if any(is_toml(r) for r in refs):  # read and compiled for the request: off the event loop
            return await anyio.to_thread.run_sync(score_under, body.hand, refs, alone, deadline)
        return score_under(body.hand, refs, alone, deadline)  # compiled presets: no thread to wait for

    def score_under(given: Any, refs: list[str], alone: bool, deadline: Deadline) -> Response:
        hand = _guard("hand", lambda: Hand.parse(given))
        if alone:
            p = preset_of(refs[0], "preset")
            return _json(_guard("hand", lambda: compiled_for(p).score(hand)).to_json())
        return each(refs, lambda p: compiled_for(p).score(hand).to_json(), deadline)

    @app.post("/compare", tags=["scoring"], response_model=None,
              responses={200: {"model": Comparison}, **_ERRORS})
    def compare_hand(body: CompareRequest, request: Request) -> Response:
        """One hand under several presets, side by side (a preset that rejects the hand gives its error)."""
        deadline = deadline_of(request)
        refs = known.ids() if body.presets is None else _refs(body.presets, "presets")[0]
        chosen = []
        for i, r in enumerate(refs):  # read and compiled one by one, so that the deadline can stop them
            deadline.check()
            chosen.append(preset_of(r, f"presets.{i}", listed=True))
            try:
                compile_preset(chosen[-1])
            except HkcoreError:
                pass  # compare() gives it in the preset's column
        hand = _guard("hand", lambda: Hand.parse(body.hand))
        deadline.check()
        return _json(_guard("hand", lambda: compare(hand, chosen)).to_json())

    @app.post("/analyse", tags=["scoring"], response_model=None,
              responses={200: {"model": Analysis | list[AnalysisEntry],
                               "description": "one preset: its Analysis; a list of presets: one entry each"},
                         **_ERRORS})
    def analyse_hand(body: AnalyseRequest, request: Request) -> Response:
        """Tiles away, waits with their unseen copies and value, or the discards that leave the hand waiting."""
        deadline = deadline_of(request)
        refs, alone = _refs(body.preset, "preset")
        pos = _guard("hand", lambda: Position.parse(body.hand))
        if alone:
            p = preset_of(refs[0], "preset")
            return _json(_guard("hand", lambda: analyse(pos, p, body.visible), _own(AnalyseRequest)).to_json())
        return each(refs, lambda p: analyse(pos, p, body.visible).to_json(), deadline)

    @app.post("/position", tags=["scoring"], response_model=None,
              responses={200: {"model": Position}, **_ERRORS})
    def read_position(body: PositionRequest) -> Response:
        """A hand in play (JSON or notation without win:) as the server reads it: its RULES.md JSON, canonical."""
        return _json(_guard("hand", lambda: Position.parse(body.hand)).to_json())

    @app.post("/claims/legal", tags=["claims"], response_model=None,
              responses={200: {"model": list[Claim]}, **_ERRORS})
    def claims_legal(body: LegalClaimsRequest) -> Response:
        """Every claim the hand's seat may make on the discard: the win first, then kong, pung, chows."""
        p = preset_of(body.preset, "preset")
        pos = _guard("hand", lambda: Position.parse(body.hand))
        found = _guard("hand", lambda: legal_claims(pos, body.discard, body.discarder, p, kong=body.kong,
                                                    last_tile=body.last_tile), _own(LegalClaimsRequest))
        return _listing(c.to_json() for c in found)

    @app.post("/claims/resolve", tags=["claims"], response_model=None,
              responses={200: {"model": list[Claim]}, **_ERRORS})
    def claims_resolve(body: ResolveClaimsRequest) -> Response:
        """The claim(s) that get the tile: win over pung or kong over chow, then the nearest seat."""
        p = preset_of(body.preset, "preset")
        claims = [_guard(f"claims.{i}", lambda c=c: Claim.parse(c)) for i, c in enumerate(body.claims)]
        found = _guard(None, lambda: resolve_claims(claims, body.discarder, p))
        return _listing(c.to_json() for c in found)

    @app.post(_BATCH_PATH, tags=["scoring"], response_model=None,
              responses={200: {"content": {"application/x-ndjson": {"schema": _ref("BatchLine")}},
                               "description": "one JSON line per hand, in order: its ScoreResult, or "
                                              '{"line": N, "error": ..., "type": ..., "field": ...}; when the '
                                              'time limit passes, a last line {"line": N, "type": "Timeout", ...}'},
                         **_ERRORS,
                         400: {"description": "a first line that starts as {\"preset\": but is not JSON"}},
              openapi_extra={"requestBody": {"required": True, "content": {"application/x-ndjson": {
                  "schema": {"type": "string", "description": _BATCH_BODY_DOC},
                  "example": '{"preset": "extends = \\"mistboard\\"\\nid = \\"beginners\\"\\nminimum = 0\\n"}\n'
                             "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N\n"}}}})
    async def score_batch(request: Request,
                          preset: Annotated[str | None, Query(max_length=200, description=_BATCH_QUERY_DOC)] = None
                          ) -> Response:
        """Score many hands, one per line (JSON or notation), answered line by line as they arrive."""
        p = None if preset is None else preset_of(preset, "preset")
        if p is not None:
            compiled_for(p)  # compiled before the answer begins
        return _LinesResponse(known, p, deadline_of(request))

    # -- presets

    @app.get("/presets", tags=["presets"], response_model=list[PresetSummary])
    def list_presets() -> Response:
        """Every preset this server knows: the built-in ones, then its presets folder's."""
        return _json(json.dumps([known.summary(preset_of(pid, "preset")) for pid in known.ids()],
                                ensure_ascii=False))

    @app.get("/presets/{preset_id}", tags=["presets"], response_model=None,
             responses={200: {"description": "the resolved preset: its TOML data as JSON, or TOML with "
                                             "Accept: application/toml",
                              "content": {JSON: {"schema": _ref("Preset")},
                                          "application/toml": {"schema": {"type": "string"}}}},
                        404: {"description": "no preset of that id here"}})
    def get_preset(preset_id: str, request: Request) -> Response:
        """One preset, resolved (no extends)."""
        if preset_id not in known.builtin and preset_id not in known.local:
            err = from_error(PresetError(f"unknown preset {shown(preset_id)}{_nearest(preset_id, known.ids())}; "
                                         f"presets here: {', '.join(known.ids())}", None, "preset", value=preset_id),
                             "preset_id")
            err.status, err.title = 404, "Not found"
            return problem_response(err)
        p = preset_of(preset_id, "preset_id")
        accept = request.headers.get("accept", "")
        if "application/toml" in accept or "text/toml" in accept:
            return Response(export_toml(p), media_type="application/toml; charset=utf-8")
        return _json(p.model_dump_json())

    @app.post("/presets/check", tags=["presets"], response_model=None,
              responses={200: {"description": "the resolved preset as JSON",
                               "content": {JSON: {"schema": _ref("Preset")}}}, **_ERRORS},
              openapi_extra={"requestBody": {"required": True, "content": {
                  "application/toml": {"schema": {"type": "string", "description": "a preset file's text"}}}}})
    async def check_preset(request: Request) -> Response:
        """Check a preset file's text: the resolved preset, or its error naming the TOML path."""
        raw = await request.body()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ApiError(400, "Bad request", f"body: not UTF-8 text (byte {exc.start:,})", "PresetError",
                           "body") from None
        preset = await anyio.to_thread.run_sync(lambda: _guard(None, lambda: known.custom(text, "toml")))
        return _json(preset.model_dump_json())

    # -- the service

    @app.get("/health", tags=["service"], response_model=Health)
    def health() -> Response:
        from hkcore import core
        return _json(json.dumps({"status": "ok", "version": _version(), "core": core.IMPLEMENTATION,
                                 "presets": len(known.ids())}))

    def static(name: str) -> Response:
        found = web.get(name)
        if found is None:
            raise HTTPException(404, f"no such file: {name}")
        return Response(found[0], media_type=found[1], headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    def page() -> Response:
        return static("index.html")

    @app.get("/docs", include_in_schema=False)
    def docs() -> Response:
        return static("docs.html")

    @app.get("/web/{name}", include_in_schema=False)
    def web_file(name: str) -> Response:
        return static(name)

    return app


def serve(host: str = "127.0.0.1", port: int = 8000, presets_dir: str | Path | None = None,
          workers: int = 1, log_level: str = "info", *, time_limit: float = TIME_LIMIT,
          batch_time_limit: float = BATCH_TIME_LIMIT) -> None:
    """Run the application on uvicorn until interrupted (``workers`` > 1: that many processes)."""
    import uvicorn

    if workers > 1:
        import os
        if presets_dir is not None:
            os.environ["HKCORE_SERVE_PRESETS"] = str(Path(presets_dir).resolve())
        else:
            os.environ.pop("HKCORE_SERVE_PRESETS", None)
        os.environ["HKCORE_SERVE_TIME_LIMIT"] = repr(float(time_limit))
        os.environ["HKCORE_SERVE_BATCH_TIME_LIMIT"] = repr(float(batch_time_limit))
        uvicorn.run("hkcore.server:app_from_env", factory=True, host=host, port=port, workers=workers,
                    log_level=log_level, timeout_keep_alive=5)
        return
    app = _serving(create_app(presets_dir, time_limit=time_limit, batch_time_limit=batch_time_limit))
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_keep_alive=5)


def app_from_env() -> FastAPI:
    """The application of a uvicorn worker process (``serve(workers=N)``)."""
    import os
    return _serving(create_app(os.environ.get("HKCORE_SERVE_PRESETS") or None,
                               time_limit=float(os.environ.get("HKCORE_SERVE_TIME_LIMIT") or TIME_LIMIT),
                               batch_time_limit=float(os.environ.get("HKCORE_SERVE_BATCH_TIME_LIMIT")
                                                      or BATCH_TIME_LIMIT)))


def _serving(app: FastAPI) -> FastAPI:
    """A serving process's last step before requests: the built-in presets
    compiled, and everything made so far moved out of the garbage
    collector's sight (it lives as long as the process), so that collections
    while serving look only at what requests make (shorter pauses, a lower
    p99)."""
    import gc

    from hkcore.engine import rulesets

    rulesets()
    gc.collect()
    gc.freeze()
    return app

