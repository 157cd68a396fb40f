"""The plugin manager and the catalogue of what plugins provide.

Built-in plugins are registered by module name, third-party ones through
the entry-point group ``hkcore``; both then answer the same hooks. A plugin
that fails to import, returns something that is not a pattern, or reuses an
id is recorded as a problem naming the plugin: it breaks only the presets
that ask for what it should have provided.
"""
from __future__ import annotations

import functools
import importlib
import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from hkcore import hookspecs
from hkcore.errors import HkcoreError

#: Built-in plugins, registered exactly as a third-party plugin is.
BUILTIN_PLUGINS = ("hkcore.builtin_patterns", "hkcore.payments", "hkcore.shapes")
#: Entry-point group through which installed packages add plugins.
ENTRY_POINT_GROUP = "hkcore"


class PluginError(HkcoreError):
    """A plugin that cannot be loaded or that returned something unusable."""


@dataclass
class Catalogue:
    """What the registered plugins provide, by id, and where it came from."""

    patterns: dict[str, Any] = field(default_factory=dict)
    schemes: dict[str, Any] = field(default_factory=dict)
    adjustments: dict[str, Any] = field(default_factory=dict)
    shapes: dict[str, Any] = field(default_factory=dict)
    owner: dict[tuple[str, str], str] = field(default_factory=dict)
    #: id -> why it is unusable (a duplicate, say); plugin -> why it failed
    broken_ids: dict[tuple[str, str], str] = field(default_factory=dict)
    broken_plugins: dict[str, str] = field(default_factory=dict)
    #: entry points known to the environment: plugin name -> "module:attr"
    available: dict[str, str] = field(default_factory=dict)


@functools.cache
def plugin_manager() -> pluggy.PluginManager:
    """The process-wide plugin manager with built-in and installed plugins."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(name), name=name)
    _BROKEN.clear()
    for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
            continue
        try:
            plugin = ep.load()
            pm.register(plugin, name=ep.name)
        except Exception as exc:  # a broken plugin must not break the others
            _BROKEN[ep.name] = f"plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
    return pm


_BROKEN: dict[str, str] = {}


def _collect(cat: Catalogue, kind: str, hook: Any, check: Callable[[Any], str | None]) -> dict[str, Any]:
    pm = plugin_manager()
    out: dict[str, Any] = {}
    for impl in hook.get_hookimpls():  # registration order: built-ins first
        name = pm.get_name(impl.plugin) or repr(impl.plugin)
        try:
            items = impl.function()
            items = list(items) if items is not None else []
        except Exception as exc:
            cat.broken_plugins[name] = f"plugin {name!r}: {hook.name}() raised {type(exc).__name__}: {exc}"
            continue
        for item in items:
            problem = check(item)
            if problem:
                cat.broken_plugins[name] = f"plugin {name!r}: {hook.name}() returned {problem}"
                continue
            key = (kind, item.id)
            if item.id in out:
                problem = f"{kind} id {item.id!r} is given by both plugin {cat.owner[key]!r} and plugin {name!r}"
                cat.broken_ids[key] = problem
                cat.broken_plugins[name] = f"plugin {name!r}: {problem} (the first one is used)"
                continue
            out[item.id] = item
            cat.owner[key] = name
    return out


def _check_pattern(item: Any) -> str | None:
    from hkcore.patterns import Pattern

    if not isinstance(item, Pattern):
        return f"{item!r}, not a hkcore.patterns.Pattern"
    if not item.id or not item.id.replace("_", "").isalnum() or item.id != item.id.lower():
        return f"a pattern with id {item.id!r} (ids are lower_snake_case)"
    if not callable(item.detect):
        return f"pattern {item.id!r} whose detect is not callable"
    return None


def _check_scheme(item: Any) -> str | None:
    from hkcore.payments import PaymentScheme

    if not isinstance(item, PaymentScheme):
        return f"{item!r}, not a hkcore.payments.PaymentScheme"
    return None


def _check_shape(item: Any) -> str | None:
    from hkcore.shapes import Shape

    if not isinstance(item, Shape):
        return f"{item!r}, not a hkcore.shapes.Shape"
    return None


def _check_adjustment(item: Any) -> str | None:
    from hkcore.payments import PaymentAdjustment

    if not isinstance(item, PaymentAdjustment):
        return f"{item!r}, not a hkcore.payments.PaymentAdjustment"
    return None


@functools.cache
def catalogue() -> Catalogue:
    """Every pattern and payment scheme the registered plugins provide."""
    pm = plugin_manager()
    cat = Catalogue()
    cat.broken_plugins.update(_BROKEN)
    cat.available = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    cat.patterns = _collect(cat, "pattern", pm.hook.hkcore_patterns, _check_pattern)
    cat.schemes = _collect(cat, "payment scheme", pm.hook.hkcore_payment_schemes, _check_scheme)
    cat.shapes = _collect(cat, "shape", pm.hook.hkcore_shapes, _check_shape)
    cat.adjustments = _collect(cat, "payment adjustment", pm.hook.hkcore_payment_adjustments, _check_adjustment)
    return cat


def reset() -> None:
    """Forget the plugin manager, the catalogue and everything compiled from
    them (after installing or removing a plugin)."""
    from hkcore.engine import _BY_ID, _COMPILED, _FAST
    from hkcore.preset import clear_cache

    plugin_manager.cache_clear()
    catalogue.cache_clear()
    clear_cache()
    _COMPILED.clear()
    _BY_ID.clear()
    _FAST.clear()
