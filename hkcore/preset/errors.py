"""The error of a preset that cannot be loaded, and the helpers every part of loading shares."""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from hkcore.errors import SHOWN, HkcoreError

#: an empty read-only mapping
EMPTY: Mapping[str, Any] = MappingProxyType({})


class PresetError(HkcoreError, ValueError):
    """A preset that cannot be loaded: names the file and the TOML path."""

    def __init__(self, message: str, file: str | None = None, path: str | None = None, *, value: Any = None):
        where = ": ".join(x if len(x) <= 2 * SHOWN else x[:2 * SHOWN - 3] + "..." for x in (file, path) if x)
        super().__init__(f"{where}: {message}" if where else message)
        self.file = file
        self.path = path
        #: the value found at ``path`` (the offending key for an unknown key), where there is one
        self.value = value


def freeze(value: Any) -> Any:
    """``value`` read-only all the way down: tables become read-only mappings, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A frozen value as plain dicts and lists again (TOML- and JSON-ready)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value
