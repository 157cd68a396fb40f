"""Errors as ``application/problem+json`` (RFC 9457): every bad input names its
field and shows its value, in the words of the Python errors; one path
(``problem_of``) turns any exception into the answer."""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from hkcore.errors import HandError, HkcoreError, TileError, loc, shown
from hkcore.preset import PresetError

PROBLEM = "application/problem+json"
JSON = "application/json"
#: the pydantic error type of a request value that hkcore's own parser refused (the error rides in its ctx)
PARSED = "hkcore_parse"


class ApiError(Exception):
    """An error answered as problem+json."""

    def __init__(self, status: int, title: str, detail: str, error_type: str, field: str | None = None,
                 value: Any = None, errors: list[dict[str, Any]] | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.headers = dict(headers or {})
        self.status, self.title, self.detail, self.error_type = status, title, detail, error_type
        self.field, self.value, self.errors = field, value, errors or []


def plain(value: Any) -> Any:
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


def joined(prefix: str | None, field: str | None) -> str | None:
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
            field = joined(prefix, ".".join(p for p in ("toml", exc.path) if p))
        return ApiError(422, "Bad preset", str(exc), name, field, plain(exc.value),
                        [{"type": "value_error", "loc": list(loc(field)), "msg": str(exc), "file": exc.file}])
    if isinstance(exc, HandError):
        head = list(loc(prefix))
        problems = [dict(p, loc=list(loc(joined(prefix, ".".join(map(str, p["loc"]))))) if p["loc"] else head,
                         input=plain(p.get("input"))) for p in exc.errors()]
        for p in problems:
            p.pop("ctx", None)
            p.pop("url", None)
        return ApiError(422, "Bad hand", str(exc), name, joined(prefix, exc.field), plain(exc.value), problems)
    if isinstance(exc, TileError):
        return ApiError(422, "Bad tile", str(exc), name, prefix, plain(exc.text))
    return ApiError(422, "Bad request", str(exc), name, prefix)


def problem_response(err: ApiError) -> Response:
    """``err`` as its problem+json answer."""
    body = {"type": "about:blank", "title": err.title, "status": err.status, "detail": err.detail,
            "error_type": err.error_type, "field": err.field, "value": plain(err.value), "errors": err.errors}
    return Response(json.dumps(body), status_code=err.status, media_type=PROBLEM,
                    headers=err.headers or None)  # ASCII: a lone surrogate in a value stays text


#: the parts of a pydantic error's ``loc`` that name a member of a union (``constrained-str``,
#: ``list[str]``, ``function-after[...]``), not a field of the request
_UNION_TAG = re.compile(r"(constrained-)?(str|int|float|bool|none|list|dict|tuple)(\[.*\])?|[\w-]+\[.*\]")


def where_of(loc: Iterable[Any], kind: Any = None) -> list[str]:
    """A pydantic ``loc`` as the request's field path: no ``body``, no union members (but the last
    part of an ``extra_forbidden`` error is the key sent, whatever it is called)."""
    parts = list(loc)
    key = [parts.pop()] if kind == "extra_forbidden" and parts else []
    return [str(p) for p in parts if p != "body" and not (isinstance(p, str) and _UNION_TAG.fullmatch(p))] + \
        [str(p) for p in key]


#: pydantic's words for a JSON client: a request is JSON, not Python
_SAID = {"tuple_type": "expected a list", "list_type": "expected a list",
         "extra_forbidden": "not a field of this request",
         "bool_type": "expected true or false", "bool_parsing": "expected true or false",
         "int_type": "expected a whole number", "int_parsing": "expected a whole number",
         "string_type": "expected a string", "dict_type": "expected a JSON object",
         "model_type": "expected a JSON object", "model_attributes_type": "expected a JSON object"}


def said(error: Mapping[str, Any]) -> str:
    """A pydantic error's message as a JSON client reads it."""
    kind, ctx = error.get("type"), error.get("ctx") or {}
    if kind in _SAID:
        return _SAID[kind]
    if kind == "too_long" and "max_length" in ctx:
        return f"at most {ctx['max_length']:,} items, got {ctx.get('actual_length', 'more'):,}"
    if kind == "string_too_long" and "max_length" in ctx:
        return f"at most {ctx['max_length']:,} characters"
    return str(error.get("msg", "invalid")).replace("Input should be ", "expected ")


def as_json(value: Any) -> str:
    """A value as its JSON text, cut to about ``SHOWN`` characters (a request's values are JSON)."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return shown(value)
    return text if len(text) <= 90 else text[:80] + "..."


def validation_problem(exc: RequestValidationError, content_type: str = JSON) -> ApiError:
    """A request that did not validate, as an ApiError: pydantic's errors first (as a JSON client reads
    them), else the first value hkcore's own parser refused (``PARSED``), in that parser's words."""
    everything = list(exc.errors())
    found = [e for e in everything if e.get("type") != PARSED]
    parsed = [e for e in everything if e.get("type") == PARSED]
    if not found and parsed:
        prefix = ".".join(where_of(parsed[0].get("loc", ()))) or None
        refused = (parsed[0].get("ctx") or {}).get("error")
        if isinstance(refused, HkcoreError):
            return from_error(refused, prefix)
        return ApiError(422, "Bad request", f"{prefix or 'body'}: nested too deeply", "RecursionError", prefix)
    if not found:
        return ApiError(400, "Bad request", "the request could not be read", "RequestValidationError")
    # of a union's errors, the one that goes deepest says most (preset.1 = 5, not the whole list)
    first = max(found, key=lambda e: len(where_of(e.get("loc", ()), e.get("type"))))
    where = where_of(first.get("loc", ()), first.get("type"))
    field = ".".join(where) or None
    if first.get("type") == "json_invalid" or not where:
        if not content_type.split(";")[0].strip().lower().endswith("json"):
            return ApiError(400, "Bad JSON", f"body: sent as {shown(content_type or 'no Content-Type')}; send the "
                            "JSON object with Content-Type: application/json", "RequestValidationError", "body")
        if first.get("type") == "json_invalid":
            return ApiError(400, "Bad JSON", f"body: not JSON ({first.get('msg', '')})", "RequestValidationError",
                            "body")
        return ApiError(400, "Bad JSON", f"body: expected a JSON object, got {shown(first.get('input'))}",
                        "RequestValidationError", "body", plain(first.get("input")))
    msg = said(first)
    value = first.get("input") if first.get("type") != "missing" else None  # (the object it is missing from)
    detail = f"{field or 'body'} = {as_json(value)}: {msg}" if first.get("type") != "missing" else \
        f"{field}: missing"
    errors = [{"type": e.get("type"), "loc": where_of(e.get("loc", ()), e.get("type")), "msg": said(e),
               "input": plain(e.get("input"))} for e in found[:20]]
    return ApiError(422, "Bad request", detail, "RequestValidationError", field, plain(value), errors)


_T = TypeVar("_T")


def guard(prefix: str | None, call: Callable[[], _T], own: frozenset[str] = frozenset()) -> _T:
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



_TITLES = {404: "Not found", 405: "Method not allowed", 413: "Request too large"}


def problem_of(request: Request, exc: Exception) -> ApiError:
    """Any exception a request ends with, as the ApiError it is answered with (an unforeseen one: a 500)."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, HkcoreError):
        return from_error(exc)
    if isinstance(exc, RequestValidationError):
        return validation_problem(exc, request.headers.get("content-type", ""))
    if isinstance(exc, HTTPException):
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        field = "body" if exc.status_code in (400, 413) else None
        if exc.status_code == 404 and detail == "Not Found":
            path = request.url.path
            detail = f"no such file: {path[len('/web/'):]}" if path.startswith("/web/") else f"no such page: {path}"
        elif exc.status_code == 405 and exc.headers and "Allow" in exc.headers:
            detail = f"{request.method} {request.url.path}: this path takes {exc.headers['Allow']}"
        elif exc.status_code == 400 and detail == "There was an error parsing the body":  # Starlette's words
            detail = "body: not JSON text (not UTF-8, or nested too deeply to read)"
        kind = "RequestTooLarge" if exc.status_code == 413 else "HTTPException"  # as when told by Content-Length
        return ApiError(exc.status_code, _TITLES.get(exc.status_code, "Bad request"), detail, kind, field,
                        headers=dict(exc.headers or {}))
    return ApiError(500, "Internal error", f"{type(exc).__name__}: {shown(str(exc))}", type(exc).__name__)


async def answer_problem(request: Request, exc: Exception) -> Response:
    """The one exception handler: ``problem_of``'s ApiError as problem+json."""
    return problem_response(problem_of(request, exc))
