"""Errors raised by hkcore. Every error says which field and value were wrong."""
from __future__ import annotations

import reprlib
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
        except Exception:
            return f"<{type(x).__name__}>"
        return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


_SHORT = _Short()


def shown(value: Any) -> str:
    """``repr(value)`` cut to about ``SHOWN`` characters (any value, any size)."""
    try:
        text = _SHORT.repr(value)
    except Exception:
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
    ``melds.1.tiles``) and ``value`` holds the offending value.
    """

    def __init__(self, message: str, field: str | None = None, value: Any = None):
        super().__init__(message)
        self.field = field
        self.value = value
