"""``score``, and the compiled presets it uses: ``Rulesets`` keeps the
compiled built-in presets of the current plugin registry for the process's
life and others in a bounded LRU, keyed by the ``Preset`` object, never by
an id."""
from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hkcore import core, registry
from hkcore.cells import BoundedLRU, Published
from hkcore.engine.compiled import CompiledPreset
from hkcore.engine.entries import kernel_class
from hkcore.models import FAST_READERS, Hand
from hkcore.preset import CACHE_SIZE, Preset, PresetStore, load_preset, store
from hkcore.results import ScoreResult


class Rulesets:
    """The compiled presets of one preset store: every built-in one, compiled
    together and kept for the store's life, and others by ``Preset`` object,
    the ``CACHE_SIZE`` most recently used kept."""

    def __init__(self, presets: PresetStore) -> None:
        self.presets = presets
        cat = presets.registry.catalogue
        self.builtins: Mapping[str, CompiledPreset] = MappingProxyType({
            pid: CompiledPreset(p, cat) for pid, p in presets.builtins.items() if isinstance(p, Preset)})
        #: built-in id -> the kernel that builds its results alone (read by the C score)
        self.kernels = {pid: c.kernel for pid, c in self.builtins.items() if c.fast}
        self._others: BoundedLRU[int, tuple[Preset, CompiledPreset]] = BoundedLRU(CACHE_SIZE)

    def compiled(self, preset: Preset) -> CompiledPreset:
        """The compiled form of ``preset``, built once while it is kept."""
        found = self.builtins.get(preset.id)
        if found is not None and found.preset is preset:
            return found
        key = id(preset)
        hit = self._others.get(key)
        if hit is not None and hit[0] is preset:
            return hit[1]
        compiled = CompiledPreset(preset, self.presets.registry.catalogue)
        self._others.put(key, (preset, compiled))
        return compiled


_RULESETS: Published[Rulesets] = Published()
#: (registry, {built-in id: Kernel}) as last published, for the C score
_CELL: Published[tuple[Any, dict[str, Any]]] = Published((None, {}))


def rulesets() -> Rulesets:
    """The compiled presets of the current preset store (and so of the
    current plugin registry: new ones after ``reload_plugins``)."""
    presets = store()

    def build() -> Rulesets:
        found = Rulesets(presets)
        _CELL.slot[0] = (presets.registry, found.kernels)
        return found

    return _RULESETS.get_or_build(lambda found: found.presets is presets, build)


def compile_preset(preset: Preset) -> CompiledPreset:
    """The compiled form of a preset (built once while it is kept)."""
    return rulesets().compiled(preset)


def compiled_for(preset: str | Path | Preset) -> CompiledPreset:
    """The compiled form of a preset id, path or Preset."""
    sets = rulesets()
    if type(preset) is str:
        found = sets.builtins.get(preset)
        if found is not None:
            return found
    return sets.compiled(load_preset(preset))


def score(hand: Any, preset: str | Preset = "bga-old-style") -> ScoreResult:
    """Score a hand (docs/rules.md dict, ``Hand``, JSON or compact notation) under a preset.

    ``preset`` is a built-in id, a TOML path or a loaded ``Preset``.
    """
    h = hand if type(hand) is Hand else Hand.parse(hand)
    return compiled_for(preset).score(h)


if kernel_class() is not None:
    # the same function with its common cases (a Hand or a plain hand under a built-in id) answered in C
    score = core.compiled.bind_score(  # type: ignore[union-attr]
        _CELL.slot, registry.CURRENT, Hand, FAST_READERS[Hand], score)
