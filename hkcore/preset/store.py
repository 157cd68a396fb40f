"""The presets of a plugin registry: the built-in ones, loaded once, and
files by path (the most recently used kept, each checked against its
files' contents on every use); ``load_preset`` for any reference."""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hkcore import registry
from hkcore.errors import shown
from hkcore.preset.errors import PresetError
from hkcore.preset.model import Preset, from_mapping, load
from hkcore.preset.reading import builtin_ids, existing_folder, is_path
from hkcore.registry import Catalogue


def read_preset(ref: str, catalogue: Catalogue) -> Preset:
    """A built-in preset by id or a preset file by path, read now with the
    patterns of ``catalogue`` (and kept nowhere)."""
    return load(ref, catalogue)[0]


#: custom presets kept by path, least recently used dropped first
CACHE_SIZE = 64


class PresetStore:
    """The presets of one plugin registry: every built-in one, loaded
    together and kept for the store's life, and presets loaded by path, the
    ``CACHE_SIZE`` most recently used kept, each checked against the
    contents of its files on every use (an edited file is read again)."""

    def __init__(self, reg: registry.Registry) -> None:
        self.registry = reg
        loaded: dict[str, Preset | PresetError] = {}
        for pid in builtin_ids():
            try:
                loaded[pid] = load(pid, reg.catalogue)[0]
            except PresetError as exc:  # raised when the preset is asked for
                loaded[pid] = exc
        self.builtins: Mapping[str, Preset | PresetError] = MappingProxyType(loaded)
        self._by_path: OrderedDict[tuple[str, Path | None], tuple[tuple[tuple[str, bytes], ...], Preset]] = \
            OrderedDict()
        self._lock = threading.Lock()

    def load(self, ref: str, root: Path | None = None) -> Preset:
        """A built-in preset by id, or a preset file by path (inside ``root``
        with its every ``extends``, when given)."""
        if not is_path(ref):
            found = self.builtins.get(ref)
            if isinstance(found, Preset):
                return found
            if isinstance(found, PresetError):
                raise found
            return load(ref, self.registry.catalogue)[0]  # raises: unknown preset
        try:
            key = (str(Path(ref).resolve()), root)
        except (OSError, ValueError, RuntimeError):
            raise PresetError(f"no preset file {shown(ref)}", None, "preset", value=ref) from None
        with self._lock:
            hit = self._by_path.get(key)
        if hit is not None and all(_content(f) == raw for f, raw in hit[0]):
            with self._lock:
                if key in self._by_path:
                    self._by_path.move_to_end(key)
            return hit[1]
        preset, files = load(key[0], self.registry.catalogue, root)
        with self._lock:
            self._by_path[key] = (files, preset)
            self._by_path.move_to_end(key)
            while len(self._by_path) > CACHE_SIZE:
                self._by_path.popitem(last=False)
        return preset

    def __len__(self) -> int:
        """Presets kept by path."""
        return len(self._by_path)


def _content(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


_STORE_LOCK = threading.Lock()
_STORE: list[PresetStore | None] = [None]


def store() -> PresetStore:
    """The preset store of the current plugin registry (a new one after
    ``reload_plugins``)."""
    reg = registry.current()
    found = _STORE[0]
    if found is None or found.registry is not reg:
        with _STORE_LOCK:
            found = _STORE[0]
            if found is None or found.registry is not reg:
                found = _STORE[0] = PresetStore(reg)
    return found


def load_preset(ref: str | Path | Preset | Mapping[str, Any], *, root: str | Path | None = None) -> Preset:
    """A preset by built-in id (``"bga-old-style"``), TOML path, TOML text or
    the TOML data as a mapping; a Preset is returned as is.

    ``root``, for presets from untrusted sources (a club admin's upload):
    the file and every file it ``extends`` must lie inside this folder
    (built-in presets may always be extended); a path outside it is refused
    with the same words whether or not it exists.
    """
    if isinstance(ref, Preset):
        return ref
    if isinstance(ref, Mapping):  # the TOML data itself (a row of a database, say)
        return from_mapping(ref, root)
    if isinstance(ref, Path):
        ref = str(ref)
    if not isinstance(ref, str):
        raise PresetError(f"a preset is an id, a path, TOML text, a mapping or a Preset, not {type(ref).__name__}",
                          None, "preset")
    if "\n" in ref or "=" in ref:  # TOML text: ids and paths hold neither
        return Preset.from_toml(ref, root=root)
    return store().load(ref, existing_folder(root, "root") if root is not None else None)


def presets() -> list[str]:
    """Ids of the built-in presets."""
    return builtin_ids()
