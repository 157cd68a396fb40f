"""Game records as JSON lines (docs/table.md, "Records")."""
from __future__ import annotations

import json
from typing import Any

from hkcore.table.wall import CODES, SEATS

_DUMPS = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_DRAW = ("event", "seat", "tile", "source")
_DISCARD = ("event", "seat", "tile")
_COMMON = frozenset({"draw", "discard"})
#: the lines of the commonest records, by their values
_LINES = {
    **{("draw", s, t, src): f'{{"event":"draw","seat":"{s}","tile":"{t}","source":"{src}"}}'
       for s in SEATS for t in CODES for src in ("live", "replacement")},
    **{("discard", s, t): f'{{"event":"discard","seat":"{s}","tile":"{t}"}}' for s in SEATS for t in CODES},
}


def line(record: dict[str, Any]) -> str:
    """One record as a JSON line (without the newline): compact, its fields
    in their order, exactly ``json.dumps(record, separators=(",", ":"),
    ensure_ascii=False)`` (the commonest records are looked up)."""
    n = len(record)
    if (n == 4 or n == 3) and record.get("event") in _COMMON:
        try:
            found = _LINES.get(tuple(record.values()))
        except TypeError:  # a value that is no tile or seat
            found = None
        if found is not None and tuple(record) == (_DRAW if n == 4 else _DISCARD):
            return found
    return _DUMPS(record)
