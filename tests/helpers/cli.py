"""Running ``hkscore`` in the test process, and a light JSON Schema check, shared
by tests/test_cli.py and tests/test_model_style.py."""
from __future__ import annotations

from typing import Any

import pytest

from hkcore.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``hkscore ARGV`` in this process: (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if "$ref" in node else []
        return own + [r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _types(node: Any) -> list[Any]:
    if isinstance(node, dict):
        own = [node["type"]] if isinstance(node.get("type"), str) else []
        return own + [t for k, v in node.items() if k not in ("properties", "$defs") for t in _types(v)] + [
            t for k in ("properties", "$defs") for v in node.get(k, {}).values() for t in _types(v)]
    if isinstance(node, list):
        return [t for v in node for t in _types(v)]
    return []


def check_schema(schema: dict[str, Any]) -> None:
    """A light JSON Schema meta-check: an object schema whose references resolve."""
    assert schema["type"] == "object"
    assert isinstance(schema["properties"], dict) and schema["properties"]
    assert set(schema.get("required", [])) <= set(schema["properties"])
    defs = schema.get("$defs", {})
    for ref in _refs(schema):
        assert ref.startswith("#/$defs/") and ref[len("#/$defs/"):] in defs, ref
    assert set(_types(schema)) <= {"object", "array", "string", "integer", "number", "boolean", "null"}
