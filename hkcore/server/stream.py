"""The NDJSON stream of ``POST /score/batch``: read and answered line by line."""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
from collections.abc import Callable
from typing import Any

import anyio
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from hkcore.batch import answer_lines
from hkcore.engine import compiled_for
from hkcore.errors import HkcoreError, shown
from hkcore.lines import LineSplitter
from hkcore.preset import Preset
from hkcore.server.catalog import ServerPresets
from hkcore.server.limits import MAX_BODY, Deadline
from hkcore.server.problems import (
    ApiError,
    as_json,
    from_error,
    guard,
    plain,
    problem_response,
)

#: lines of a batch scored between two looks at the clock and at the client
_CHUNK = 256
#: a batch's first line that names its preset: a JSON object whose first key is "preset"
HEADER = re.compile(rb'\s*\{\s*"preset"\s*:')
#: seconds a batch answer may take to write its last line once its time is up
_GRACE = 2.0


class _Object(dict[str, Any]):
    """A JSON object read with ``pairs_hook``: ``repeated``, each key it gives more than once with its values."""

    repeated: dict[str, list[Any]]


def pairs_hook(pairs: list[tuple[str, Any]]) -> _Object:
    """A JSON object's pairs as an ``_Object`` (``json.loads``'s ``object_pairs_hook``)."""
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
        data = json.loads(line, object_pairs_hook=pairs_hook)
    except (ValueError, RecursionError) as exc:
        raise ApiError(400, "Bad JSON", f"line 1: not a JSON object ({str(exc)[:200]}); a first line "
                       '{"preset": ...} names the preset of the batch', "BatchHeaderError", "body") from None
    if not isinstance(data, _Object):  # every JSON object read with pairs_hook is one
        raise ApiError(400, "Bad JSON", "line 1: not a JSON object", "BatchHeaderError", "body")
    for key, values in data.repeated.items():  # the line's own keys (JSON would keep the last of each)
        raise ApiError(422, "Bad request", f"line 1: {shown(key)} given {len(values)} times ({as_json(values)}): "
                       "the first line names one preset", "BatchHeaderError", key, plain(values))
    for key, value in data.items():
        if key != "preset":
            raise ApiError(422, "Bad request", f"line 1: {shown(key)} = {shown(value)}: the first line of a batch "
                           'holds only "preset"', "BatchHeaderError", key, plain(value))
    ref = data["preset"]
    if not isinstance(ref, str):
        raise ApiError(422, "Bad preset", f"preset = {as_json(ref)}: expected a preset id or TOML text",
                       "PresetError", "preset", plain(ref))
    return guard(None, lambda: known.get(ref, "preset"))


class LinesResponse(Response):
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
            if HEADER.match(first):
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
                splitter = LineSplitter(number + 1)
                while True:
                    if not more and gone is None:  # the body is in: a receive now tells of a disconnect
                        gone = asyncio.ensure_future(receive())
                    lines = splitter.feed(pending)  # lines split as hkscore splits a file
                    pending = b""
                    if not more:
                        lines += splitter.end()
                    for at in range(0, len(lines), _CHUNK):
                        if gone is not None and gone.done():
                            return
                        if self.deadline.passed():
                            raise TimeoutError
                        chunk = lines[at:at + _CHUNK]
                        body, done = await anyio.to_thread.run_sync(scored, compiled, chunk, self.deadline.passed)
                        await send({"type": "http.response.body", "body": body, "more_body": True})
                        if done:
                            answered = chunk[done - 1][0]
                        if done < len(chunk):  # the time ran out between two lines
                            raise TimeoutError
                    if not more:
                        break
                    try:
                        message = await receive()
                    except HTTPException as exc:  # the body passed the limit (Limits)
                        tail = {"line": splitter.number + 1, "error": str(exc.detail), "type": "RequestTooLarge",
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


def scored(compiled: Any, lines: list[tuple[int, bytes]], stop: Callable[[], bool] | None = None) -> tuple[bytes, int]:
    """The answer lines of some hand lines (a result each, or an error carrying the line number) and how
    many were answered: all of them, or those before ``stop`` said True (asked before each line)."""
    out = answer_lines(compiled, lines, stop)
    return ("\n".join(out) + "\n").encode() if out else b"", len(out)


