"""``POST /score``, ``/compare``, ``/analyse`` and ``/position``."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from functools import partial
from typing import Any

import anyio
from fastapi import APIRouter, Request

from hkcore.analysis import Analysis, analyse
from hkcore.batch import error_json
from hkcore.comparison import Comparison, compare
from hkcore.engine import compile_preset, compiled_for
from hkcore.errors import HkcoreError
from hkcore.models import Hand, Position
from hkcore.preset import Preset
from hkcore.results import ScoreResult
from hkcore.server.catalog import Known, ServerPresets, app_presets, is_toml
from hkcore.server.limits import MOST_PRESETS, Deadline, deadline_of
from hkcore.server.models import (
    AnalyseRequest,
    AnalysisEntry,
    CompareRequest,
    PositionRequest,
    ScoreEntry,
    ScoreRequest,
    own_fields,
)
from hkcore.server.openapi import ERRORS, RawJSON
from hkcore.server.problems import ApiError, guard

router = APIRouter(tags=["scoring"], default_response_class=RawJSON)


def refs_of(value: str | list[str], field: str) -> tuple[list[str], bool]:
    """(preset refs, whether one was given alone); too many or none is an ApiError naming ``field``."""
    if isinstance(value, str):
        return [value], True
    if len(value) > MOST_PRESETS:
        raise ApiError(422, "Bad request", f"{field}: {len(value):,} presets; at most {MOST_PRESETS}",
                       "PresetError", field, len(value))
    if not value:
        raise ApiError(422, "Bad request", f"{field}: an empty list; name at least one preset", "PresetError",
                       field, [])
    return value, False


def listing(parts: Any) -> RawJSON:
    """A JSON list of JSON texts."""
    return RawJSON("[" + ",".join(parts) + "]")


def each(known: ServerPresets, refs: list[str], answer: Callable[[Preset], str], deadline: Deadline) -> RawJSON:
    """A list answer: ``{"preset", "result"}`` for each preset, or its error in its place
    (a 503 once the deadline passes)."""
    out = []
    for i, ref in enumerate(refs):
        deadline.check()
        p = known.named(ref, f"preset.{i}", listed=True)
        try:
            out.append('{"preset":' + json.dumps(p.id) + ',"result":' + answer(p) + "}")
        except HkcoreError as exc:
            out.append(error_json(exc, p.id))
    return listing(out)


def _score_under(known: ServerPresets, hand: Hand, refs: list[str], alone: bool, deadline: Deadline) -> RawJSON:
    if alone:
        p = known.named(refs[0], "preset")
        return RawJSON(guard("hand", lambda: compiled_for(p).score(hand)).to_json())
    return each(known, refs, lambda p: compiled_for(p).score(hand).to_json(), deadline)


@router.post("/score", response_model=ScoreResult | list[ScoreEntry], responses={**ERRORS},
             response_description="one preset: its ScoreResult; a list of presets: one entry each")
async def score_hand(body: ScoreRequest, request: Request) -> RawJSON:
    """Score a finished hand under one preset or several."""
    known = app_presets(request)  # not a dependency: see app_presets
    deadline = deadline_of(request)
    refs, alone = refs_of(body.preset, "preset")
    if any(is_toml(r) for r in refs):  # read and compiled for the request: off the event loop
        return await anyio.to_thread.run_sync(_score_under, known, body.hand, refs, alone, deadline)
    return _score_under(known, body.hand, refs, alone, deadline)  # compiled presets: no thread to wait for


@router.post("/compare", response_model=Comparison, responses={**ERRORS})
def compare_hand(body: CompareRequest, request: Request, known: Known) -> RawJSON:
    """One hand under several presets, side by side (a preset that rejects the hand gives its error)."""
    deadline = deadline_of(request)
    chosen = []
    if body.presets is None:  # every preset of the server, by id
        for pid in known.ids():
            deadline.check()
            chosen.append(guard(None, partial(known.by_id, pid)))
            _compiled(chosen[-1])
    else:
        for i, r in enumerate(refs_of(body.presets, "presets")[0]):  # one by one: the deadline can stop them
            deadline.check()
            chosen.append(known.named(r, f"presets.{i}", listed=True))
            _compiled(chosen[-1])
    deadline.check()
    return RawJSON(guard("hand", lambda: compare(body.hand, chosen)).to_json())


def _compiled(preset: Preset) -> None:
    with contextlib.suppress(HkcoreError):  # compare() gives it in the preset's column
        compile_preset(preset)


@router.post("/analyse", response_model=Analysis | list[AnalysisEntry], responses={**ERRORS},
             response_description="one preset: its Analysis; a list of presets: one entry each")
def analyse_hand(body: AnalyseRequest, request: Request, known: Known) -> RawJSON:
    """Tiles away, waits with their unseen copies and value, or the discards that leave the hand waiting."""
    deadline = deadline_of(request)
    refs, alone = refs_of(body.preset, "preset")
    pos = body.hand
    if alone:
        p = known.named(refs[0], "preset")
        return RawJSON(guard("hand", lambda: analyse(pos, p, body.visible), own_fields(AnalyseRequest)).to_json())
    return each(known, refs, lambda p: analyse(pos, p, body.visible).to_json(), deadline)


@router.post("/position", response_model=Position, responses={**ERRORS})
def read_position(body: PositionRequest) -> RawJSON:
    """A hand in play (JSON or notation without win:) as the server reads it: its docs/rules.md JSON, canonical."""
    return RawJSON(body.hand.to_json())
