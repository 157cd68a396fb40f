"""Game records as JSON lines (docs/table.md, "Records")."""
from __future__ import annotations

import json
from typing import Any

from hkcore.table.engine import common_line
from hkcore.table.engine import lines as _lines

_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


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
