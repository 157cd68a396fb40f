"""Game records as JSON lines (docs/table.md, "Records")."""
from __future__ import annotations

import json
from typing import Any

from hkcore.table.flow.engine import common_line, lines as _lines

_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def _encoder() -> Any:
    """The C encoder ``json.dumps`` makes for each call, made once (checking
    no circular references: records are trees); None where there is none."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        return make(None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", False, False, True)
    except TypeError:  # another Python's signature
        return None


_C_ENCODER = _encoder()


def _DUMPS(record: Any) -> str:
    """``record`` as compact JSON, exactly as ``json.dumps(record, separators=(",", ":"), ensure_ascii=False)``."""
    if _C_ENCODER is None or isinstance(record, str):
        return _ENCODER.encode(record)
    return "".join(_C_ENCODER(record, 0))


def line(record: dict[str, Any]) -> str:
    """One record as a JSON line (without the newline): compact, its fields
    in their order, exactly ``json.dumps(record, separators=(",", ":"),
    ensure_ascii=False)`` (the commonest records are looked up)."""
    found = common_line(record)
    return found if found is not None else str(_DUMPS(record))


def lines(records: list[dict[str, Any]], texts: list[str | None] | None = None) -> str:
    """Records as JSON lines, each ended by a newline (as ``line`` writes
    them); ``texts``, beside them, the lines a table's engine already made
    (``Table.texts``)."""
    return str(_lines(records, _DUMPS, texts))
