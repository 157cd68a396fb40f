"""``GET /presets``, ``GET /presets/{id}`` and ``POST /presets/check``."""
from __future__ import annotations

from functools import partial

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response

from hkcore.errors import shown
from hkcore.preset import PresetError, export_toml, nearest
from hkcore.server.catalog import Known
from hkcore.server.models import PresetListing
from hkcore.server.openapi import ERRORS, RawJSON, problems, ref
from hkcore.server.problems import JSON, ApiError, from_error, guard

router = APIRouter(tags=["presets"])


@router.get("/presets", response_model=list[PresetListing])
def list_presets(known: Known) -> list[PresetListing]:
    """Every preset this server knows: the built-in ones, then its presets folder's."""
    return [PresetListing(**known.summary(guard(None, partial(known.by_id, pid)))) for pid in known.ids()]


@router.get("/presets/{preset_id}", response_model=None, response_class=RawJSON,
            responses={200: {"description": "the resolved preset: its TOML data as JSON, or TOML with "
                                            "Accept: application/toml",
                             "content": {JSON: {"schema": ref("Preset")},
                                         "application/toml": {"schema": {"type": "string"}}}},
                       **problems(_404="no preset of that id here", _422="a preset id that is too long")})
def get_preset(preset_id: str, request: Request, known: Known) -> Response:
    """One preset, resolved (no extends)."""
    if preset_id not in known.builtin and preset_id not in known.local:
        err = from_error(PresetError(f"unknown preset {shown(preset_id)}{nearest(preset_id, known.ids())}; "
                                     f"presets here: {', '.join(known.ids())}", None, "preset", value=preset_id),
                         "preset_id")
        err.status, err.title = 404, "Not found"
        raise err
    p = guard("preset_id", lambda: known.by_id(preset_id, "preset_id"))
    accept = request.headers.get("accept", "")
    if "application/toml" in accept or "text/toml" in accept:
        return Response(export_toml(p), media_type="application/toml; charset=utf-8")
    return RawJSON(p.model_dump_json())


@router.post("/presets/check", response_model=None, response_class=RawJSON,
             responses={200: {"description": "the resolved preset as JSON",
                              "content": {JSON: {"schema": ref("Preset")}}}, **ERRORS},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/toml": {"schema": {"type": "string", "description": "a preset file's text"}}}}})
async def check_preset(request: Request, known: Known) -> RawJSON:
    """Check a preset file's text: the resolved preset, or its error naming the TOML path."""
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, "Bad request", f"body: not UTF-8 text (byte {exc.start:,})", "PresetError",
                       "body") from None
    preset = await anyio.to_thread.run_sync(lambda: guard(None, lambda: known.custom(text, "toml")))
    return RawJSON(preset.model_dump_json())
