"""Errors raised by hkcore. Every error says which field and value were wrong."""
from __future__ import annotations

import reprlib
from collections.abc import Iterable, Mapping
from typing import Any

#: the most characters of a bad value an error message shows
SHOWN = 80


class _Short(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxstring = SHOWN
        self.maxother = SHOWN
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 8
        self.maxlevel = 3

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 200:
            return f"<an int of about {int(x.bit_length() * 0.30103) + 1} digits>"
        return repr(x)

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception:  # noqa: BLE001 - any value's repr may raise: shown by its type
            return f"<{type(x).__name__}>"
        return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


_SHORT = _Short()


def shown(value: Any) -> str:
    """``repr(value)`` cut to about ``SHOWN`` characters (any value, any size)."""
    try:
        text = _SHORT.repr(value)
    except Exception:  # noqa: BLE001 - any value's repr may raise: shown by its type
        return f"<{type(value).__name__}>"
    return text if len(text) <= SHOWN + 10 else text[:SHOWN] + "..."


class HkcoreError(Exception):
    """Base class of every error hkcore raises on purpose."""


class TileError(HkcoreError, ValueError):
    """A tile or tile string that cannot be read.

    ``text`` is the string being read and ``position`` the 0-based index of the
    offending character (None when the error is not about one character).
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None):
        super().__init__(message)
        self.text = text
        self.position = position


class HandError(HkcoreError, ValueError):
    """A hand that cannot be what it claims to be (tile counts, melds, context).

    ``field`` names the offending field (dotted for nested ones, e.g.
    ``melds.1.tiles``) and ``value`` holds the offending value: those of the
    first problem, which the message tells. ``errors()`` lists every problem
    found, as pydantic's ``ValidationError.errors()`` does.
    """

    def __init__(self, message: str, field: str | None = None, value: Any = None,
                 problems: Iterable[Mapping[str, Any]] | None = None):
        super().__init__(message)
        self.field = field
        self.value = value
        self._problems = tuple(dict(p) for p in problems) if problems is not None else None

    def errors(self) -> list[dict[str, Any]]:
        """Every problem found, first the one the message tells: dicts with
        ``type`` (pydantic's error type, or ``value_error``), ``loc`` (the
        field's path, a tuple of keys and list indices), ``msg`` (what is
        wrong) and ``input`` (the offending value)."""
        if self._problems is not None:
            return [dict(p) for p in self._problems]
        text = str(self)
        if self.field and text.startswith(self.field) and ": " in text:
            text = text.split(": ", 1)[1]
        return [{"type": "value_error", "loc": loc(self.field), "msg": text, "input": self.value}]


def loc(field: str | None) -> tuple[str | int, ...]:
    """A dotted field name as a pydantic ``loc``: ``"melds.0.from"`` -> ``("melds", 0, "from")``."""
    if not field:
        return ()
    return tuple(int(part) if part.isascii() and part.isdigit() else part for part in field.split("."))


class TableError(HkcoreError, ValueError):
    """A game record or a decision the table refuses (hkcore.table).

    ``field`` names the offending field (dotted: ``start.hands.E``, ``act``)
    and ``value`` holds the offending value. A refused decision leaves the
    table as it was.
    """

    def __init__(self, message: str, field: str | None = None, value: Any = None):
        super().__init__(message)
        self.field = field
        self.value = value
