"""``POST /score/batch``: many hands, one per line, answered line by line."""
from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from hkcore.engine import compiled_for
from hkcore.server.catalog import Known
from hkcore.server.limits import BATCH_PATH, deadline_of
from hkcore.server.models import BATCH_BODY_DOC, BATCH_QUERY_DOC, BatchLine
from hkcore.server.openapi import ERRORS, NDJSON, problems
from hkcore.server.stream import LinesResponse

router = APIRouter(tags=["scoring"])

_EXAMPLE = ('{"preset": "extends = \\"mistboard\\"\\nid = \\"beginners\\"\\nminimum = 0\\n"}\n'
            "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N\n")


@router.post(BATCH_PATH, response_model=BatchLine, response_class=NDJSON,
             response_description='one JSON line per hand, in order: its ScoreResult, or {"line": N, "error": ..., '
                                  '"type": ..., "field": ...}; when the time limit passes, a last line '
                                  '{"line": N, "type": "Timeout", ...}',
             responses={**ERRORS, **problems(_400='a first line that starts as {"preset": but is not JSON')},
             openapi_extra={"requestBody": {"required": True, "content": {"application/x-ndjson": {
                 "schema": {"type": "string", "description": BATCH_BODY_DOC}, "example": _EXAMPLE}}}})
async def score_batch(request: Request, known: Known,
                      preset: Annotated[str | None, Query(max_length=200, description=BATCH_QUERY_DOC)] = None
                      ) -> LinesResponse:
    """Score many hands, one per line (JSON or notation), answered line by line as they arrive."""
    p = None if preset is None else known.named(preset, "preset")
    if p is not None:
        compiled_for(p)  # compiled before the answer begins
    return LinesResponse(known, p, deadline_of(request))
