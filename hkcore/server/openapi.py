"""The OpenAPI document, as FastAPI writes it from the models, and the
answers every endpoint declares beside its own (errors as ``Problem``)."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from pydantic import TypeAdapter

from hkcore.preset import PresetData
from hkcore.server.models import Problem
from hkcore.server.problems import PROBLEM

#: where the document keeps its named schemas
SCHEMAS = "#/components/schemas/"


def ref(name: str) -> dict[str, str]:
    """A JSON Schema reference to the named component schema."""
    return {"$ref": SCHEMAS + name}


def _problem(description: str) -> dict[str, Any]:
    return {"description": description, "content": {PROBLEM: {"schema": ref("Problem")}}}


#: the error answers of an endpoint that reads a body
ERRORS: Mapping[int | str, dict[str, Any]] = MappingProxyType({
    400: _problem("a body that is not JSON (or not UTF-8), or not a JSON object"),
    422: _problem("bad input (problem+json naming the field and the value)"),
    413: _problem("the body is larger than the limit"),
    503: _problem("the request took longer than the time limit"),
})


def problems(**described: str) -> dict[int | str, dict[str, Any]]:
    """Error answers by status (``problems(_404="...")``), each a ``Problem``."""
    return {int(status.lstrip("_")): _problem(text) for status, text in described.items()}


#: the schemas the endpoints refer to by name that no endpoint's model brings: a preset's data (a
#: TypedDict, named as the preset files call it) and every error answer
COMPONENTS: Mapping[str, Any] = MappingProxyType({"Problem": Problem, "Preset": PresetData})


class RawJSON(JSONResponse):
    """A JSON answer whose text is already made (the kernel's fast ``to_json()``); as a route's
    ``response_class`` its ``response_model`` is the schema of the answer."""

    def render(self, content: Any) -> bytes:
        """``content`` as it is: JSON text (str or bytes)."""
        return content.encode() if isinstance(content, str) else bytes(content)


class NDJSON(RawJSON):
    """The media type of a stream of JSON lines (for the document: each line is the route's model)."""

    media_type = "application/x-ndjson"


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """The application's OpenAPI document, as FastAPI writes it from the routes' models, with the
    ``COMPONENTS`` schemas beside them."""
    doc = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes,
                      tags=app.openapi_tags)
    found = doc.setdefault("components", {}).setdefault("schemas", {})
    for name, kind in COMPONENTS.items():
        schema = TypeAdapter(kind).json_schema(ref_template=SCHEMAS + "{model}", mode="serialization")
        for key, sub in schema.pop("$defs", {}).items():
            found.setdefault(key, sub)
        found[name] = schema
    return doc
