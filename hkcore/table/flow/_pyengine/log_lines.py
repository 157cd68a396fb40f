"""Records as JSON lines: the commonest (draws, bonus tiles, discards)
looked up by their values, the rest written by the caller's ``dumps``."""
from __future__ import annotations

from typing import Any

from hkcore.table.flow.wall import CODES, SEATS

#: the JSON lines of the commonest records, by their values
_LINES: dict[tuple[str | None, ...], str] = {
    **{("draw", s, t, src): f'{{"event":"draw","seat":"{s}","tile":"{t}","source":"{src}"}}'
       for s in SEATS for t in CODES for src in ("live", "replacement")},
    **{("discard", s, t): f'{{"event":"discard","seat":"{s}","tile":"{t}"}}' for s in SEATS for t in CODES},
}
for _s in SEATS:
    for _t in CODES[34:]:
        for _r in (*CODES, None):
            _LINES[("bonus", _s, _t, _r)] = (
                f'{{"event":"bonus","seat":"{_s}","tile":"{_t}","replacement":'
                + ("null" if _r is None else f'"{_r}"') + "}")
_DRAW_KEYS = ("event", "seat", "tile", "source")
_BONUS_KEYS = ("event", "seat", "tile", "replacement")
_DISCARD_KEYS = ("event", "seat", "tile")


def common_line(record: Any) -> str | None:
    """The JSON line of a draw, bonus or discard record as the engine writes it, or
    None for any other record (``hkcore.table.records.line`` writes those)."""
    if type(record) is not dict:
        return None
    n = len(record)
    event = record.get("event")
    if (n == 4 and event in ("draw", "bonus")) or (n == 3 and event == "discard"):
        try:
            found = _LINES.get(tuple(record.values()))
        except TypeError:  # a value that is no tile or seat
            return None
        keys = _DISCARD_KEYS if n == 3 else _DRAW_KEYS if event == "draw" else _BONUS_KEYS
        if found is not None and tuple(record) == keys:
            return str(found)
    return None


def lines(records: list[Any], dumps: Any, texts: list[str | None] | None = None) -> str:
    """The records as JSON lines, each ended by a newline: the commonest
    looked up (or taken from ``texts``, the lines the engine made beside its
    log, None where it made none), the rest by ``dumps``."""
    out = []
    for i, r in enumerate(records):
        text = texts[i] if texts is not None else None
        if text is None:
            text = common_line(r)
            if text is None:
                text = dumps(r)
        out.append(text)
        out.append("\n")
    return "".join(out)
