"""Errors raised by hkcore. Every error says which field and value were wrong."""
from __future__ import annotations

from typing import Any


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
