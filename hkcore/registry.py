"""The plugin registry: the plugin manager and the catalogue built from it.

Built-in plugins are registered by module name, third-party ones through
the entry-point group ``hkcore``, plugins of the running process through
``register_plugin``; all then answer the same hooks. A plugin that fails to
import, returns something that is not a pattern, or reuses an id is
recorded as a problem naming the plugin: it breaks only the presets that ask
for what it should have provided.

A ``Registry`` is a value: built completely, then published as the current
one (under a lock), never changed after. ``reload_plugins``,
``register_plugin`` and ``unregister_plugin`` publish a new one; everything
compiled from the old one (presets, compiled rulesets) notices that it is
no longer current and is rebuilt by its owner.
"""
from __future__ import annotations

import importlib
import importlib.metadata
import threading
import warnings
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from types import MappingProxyType, ModuleType
from typing import Any, get_args

import pluggy

from hkcore import hookspecs
from hkcore.cells import Published
from hkcore.errors import HkcoreError, shown
from hkcore.options import Options, options_model
from hkcore.patterns import Pattern, Scope
from hkcore.payments import PaymentAdjustment, PaymentScheme
from hkcore.shapes import Shape
from hkcore.tiles import SEATS

#: Built-in plugins, registered exactly as a third-party plugin is.
BUILTIN_PLUGINS = ("hkcore.builtin_patterns", "hkcore.builtin_schemes", "hkcore.builtin_shapes")
#: Entry-point group through which installed packages add plugins.
ENTRY_POINT_GROUP = "hkcore"
#: the most patterns, shapes, schemes or adjustments one hook of one plugin may give
_MOST_ITEMS = 10_000


class PluginError(HkcoreError):
    """A plugin that cannot be loaded or that returned something unusable."""


class PluginWarning(UserWarning):
    """A plugin that failed to load, or gave something unusable (a duplicate
    id, an object of the wrong kind), found when the catalogue is built."""


class PresetWarning(UserWarning):
    """A preset that loads but cannot mean what it says: a pattern it scores
    needs a shape it leaves off, so the pattern is never met."""


def shapes_missing(pattern_ids: Iterable[str], shapes: Iterable[str], cat: Catalogue) -> dict[str, str]:
    """Pattern id -> the shape it needs (``Pattern.shape``), for each of
    ``pattern_ids`` whose shape is not among ``shapes``."""
    on = set(shapes)
    out = {}
    for pid in pattern_ids:
        pattern = cat.patterns.get(pid)
        if pattern is not None and pattern.shape is not None and pattern.shape not in on:
            out[pid] = pattern.shape
    return out


def warn_shapes_missing(label: str, pattern_ids: Iterable[str], shapes: Iterable[str], cat: Catalogue,
                        stacklevel: int = 2) -> dict[str, str]:
    """``shapes_missing``, each one warned about as a ``PresetWarning`` naming ``label``
    (the preset's file or id) and the TOML path to change."""
    missing = shapes_missing(pattern_ids, shapes, cat)
    for pid, sid in missing.items():
        warnings.warn(f"{label}: patterns.{pid}: pattern {pid!r} needs the {sid!r} shape, which shapes leaves "
                      f"off, so it can never be met (add {sid!r} to shapes, or turn the pattern off)",
                      PresetWarning, stacklevel=stacklevel + 1)
    return missing


@dataclass(frozen=True)
class Catalogue:
    """What the registered plugins provide, by id, and where it came from."""

    patterns: Mapping[str, Pattern]
    schemes: Mapping[str, PaymentScheme]
    adjustments: Mapping[str, PaymentAdjustment]
    shapes: Mapping[str, Shape]
    #: (kind, id) -> the plugin that provides it
    owner: Mapping[tuple[str, str], str]
    #: (kind, id) -> why it is unusable (a duplicate, say); plugin -> why it failed
    broken_ids: Mapping[tuple[str, str], str]
    broken_plugins: Mapping[str, str]
    #: entry points known to the environment: plugin name -> "module:attr"
    available: Mapping[str, str]
    #: (kind, id) -> the model of its options (``options_model``), for each item that has options
    options: Mapping[tuple[str, str], type[Options]] = field(default_factory=lambda: MappingProxyType({}))


class Registry:
    """A plugin manager with every plugin registered, and its catalogue.

    Never changed once built: ``plugin_manager`` is not to be registered
    into (use ``register_plugin``, which publishes a new Registry).
    """

    def __init__(self, extra: tuple[tuple[str, Any], ...] = ()) -> None:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        for name in BUILTIN_PLUGINS:
            pm.register(importlib.import_module(name), name=name)
        broken: dict[str, str] = {}
        found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)  # one scan of the installed distributions
        for ep in found:
            if pm.get_plugin(ep.name) is not None or pm.is_blocked(ep.name):
                continue
            try:
                plugin = ep.load()
                pm.register(plugin, name=ep.name)
            except Exception as exc:  # noqa: BLE001 - a broken plugin must not break the others
                broken[ep.name] = f"plugin {ep.name!r} ({ep.value}) failed to load: {type(exc).__name__}: {exc}"
        for name, plugin in extra:
            try:
                pm.register(plugin, name=name)
            except Exception as exc:  # noqa: BLE001 - pluggy's ValueError or PluginValidationError
                raise PluginError(f"plugin {name!r} cannot be registered: {type(exc).__name__}: "
                                  f"{shown(str(exc))}") from None
        self.extra = extra
        self.plugin_manager = pm
        self.catalogue = _build_catalogue(pm, broken, {ep.name: ep.value for ep in found})
        for problem in self.catalogue.broken_plugins.values():
            warnings.warn(problem, PluginWarning, stacklevel=3)


def _build_catalogue(pm: pluggy.PluginManager, broken: dict[str, str], available: dict[str, str]) -> Catalogue:
    owner: dict[tuple[str, str], str] = {}
    broken_ids: dict[tuple[str, str], str] = {}
    broken_plugins = dict(broken)

    def collect(kind: str, hook: Any, check: Callable[[Any], str | None]) -> Mapping[str, Any]:
        out: dict[str, Any] = {}
        for impl in hook.get_hookimpls():  # registration order: built-ins first
            name = pm.get_name(impl.plugin) or repr(impl.plugin)
            try:
                items = impl.function()
                items = list(islice(items, _MOST_ITEMS + 1)) if items is not None else []
                if len(items) > _MOST_ITEMS:
                    raise ValueError(f"more than {_MOST_ITEMS} items")
            except Exception as exc:  # noqa: BLE001 - a plugin's hook may raise anything: that plugin is reported broken
                broken_plugins[name] = f"plugin {name!r}: {hook.name}() raised {type(exc).__name__}: {shown(str(exc))}"
                continue
            for item in items:
                problem = check(item)
                if problem:
                    broken_plugins[name] = f"plugin {name!r}: {hook.name}() returned {problem}"
                    continue
                key = (kind, item.id)
                if item.id in out:
                    problem = f"{kind} id {item.id!r} is given by both plugin {owner[key]!r} and plugin {name!r}"
                    broken_ids[key] = problem
                    broken_plugins[name] = f"plugin {name!r}: {problem} (the first one is used)"
                    continue
                out[item.id] = item
                owner[key] = name
        return MappingProxyType(out)

    patterns = collect("pattern", pm.hook.hkcore_patterns, _check_pattern)
    schemes = collect("payment scheme", pm.hook.hkcore_payment_schemes, _check_kind(PaymentScheme))
    shapes = collect("shape", pm.hook.hkcore_shapes, _check_kind(Shape))
    adjustments = collect("payment adjustment", pm.hook.hkcore_payment_adjustments, _check_kind(PaymentAdjustment))
    options = {(kind, item.id): options_model(item)
               for kind, found in (("pattern", patterns), ("shape", shapes), ("payment adjustment", adjustments))
               for item in found.values() if item.options}
    return Catalogue(patterns=patterns, schemes=schemes, adjustments=adjustments, shapes=shapes,
                     owner=MappingProxyType(owner), broken_ids=MappingProxyType(broken_ids),
                     broken_plugins=MappingProxyType(broken_plugins), available=MappingProxyType(available),
                     options=MappingProxyType(options))


#: the scopes a pattern may have
SCOPES: tuple[str, ...] = get_args(Scope)


def _check_pattern(item: Any) -> str | None:
    if not isinstance(item, Pattern):
        return f"{item!r}, not a hkcore.patterns.Pattern"
    if not item.id or not item.id.replace("_", "").isalnum() or item.id != item.id.lower():
        return f"a pattern with id {item.id!r} (ids are lower_snake_case)"
    if not callable(item.detect):
        return f"pattern {item.id!r} whose detect is not callable"
    if item.scope not in SCOPES:
        return f"pattern {item.id!r} with scope {shown(item.scope)}, not one of {', '.join(SCOPES)}"
    return None


def _check_kind(kind: type) -> Callable[[Any], str | None]:
    def check(item: Any) -> str | None:
        if not isinstance(item, kind):
            return f"{item!r}, not a {kind.__module__}.{kind.__name__}"
        return None

    return check


_PUBLISHED: Published[Registry] = Published()
#: the published Registry as a one-item list, replaced whole (read by the compiled core)
CURRENT = _PUBLISHED.slot


_BUILDING = threading.local()


def _not_while_loading() -> None:
    """A plugin that uses hkcore while plugins are being loaded (in this
    thread) gets a PluginError instead of a deadlock."""
    if getattr(_BUILDING, "active", False):
        raise PluginError("a plugin used hkcore while the plugins were being loaded; use hkcore inside "
                          "hook functions or detectors, not when the plugin module is imported")


def _build(extra: tuple[tuple[str, Any], ...]) -> Registry:
    """A new Registry (see ``_not_while_loading``)."""
    _not_while_loading()
    _BUILDING.active = True
    try:
        return Registry(extra)
    finally:
        _BUILDING.active = False


def current() -> Registry:
    """The current registry, built on first use."""
    reg = _PUBLISHED.get()
    if reg is None:
        _not_while_loading()  # before the lock: a plugin loading in this thread holds it
        reg = _PUBLISHED.get_or_build(lambda found: True, lambda: _build(()))
    return reg


def catalogue() -> Catalogue:
    """Every pattern, shape, payment scheme and adjustment the registered plugins provide."""
    return current().catalogue


def plugin_manager() -> pluggy.PluginManager:
    """The current plugin manager (read it; register through ``register_plugin``)."""
    return current().plugin_manager


def _publish(make: Callable[[tuple[tuple[str, Any], ...]], tuple[tuple[str, Any], ...]]) -> Registry:
    _not_while_loading()
    return _PUBLISHED.replace(lambda old: _build(make(old.extra if old is not None else ())))


def reload_plugins() -> Registry:
    """Read the installed plugins again (after installing or removing one) and
    publish a new registry; presets and compiled rulesets built from the old
    one are rebuilt on their next use. Plugins given to ``register_plugin``
    stay registered."""
    return _publish(lambda extra: extra)


def _default_name(plugin: object) -> str:
    """A plugin's name when none is given: a module's name, else its class's (module and qualified name)."""
    module_name = getattr(plugin, "__name__", None)
    if isinstance(plugin, ModuleType) and isinstance(module_name, str):
        return module_name
    kind = type(plugin)
    return f"{kind.__module__}.{kind.__qualname__}"


def _has_hooks(plugin: object) -> bool:
    """Whether pluggy finds a ``@hookimpl`` function on ``plugin`` (its own parser, not a guess at its marks)."""
    parser = pluggy.PluginManager(hookspecs.PROJECT)
    return any(parser.parse_hookimpl_opts(plugin, attr) is not None for attr in dir(plugin))


def register_plugin(plugin: object, name: str | None = None) -> Registry:
    """Register a plugin object or module (with ``@hookimpl`` functions) in
    this process, beside the installed ones; returns the new registry."""
    if not _has_hooks(plugin):
        warnings.warn(f"plugin {name or _default_name(plugin)!r} has no @hookimpl functions: it adds nothing "
                      "(mark them with hkcore.hookspecs.hookimpl)", PluginWarning, stacklevel=2)

    def add(extra: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        key = name
        if key is None:  # its module's or its class's name; a second of the same is numbered
            key = base = _default_name(plugin)
            taken = {n for n, _ in extra}
            for i in range(2, len(taken) + 3):
                if key not in taken:
                    break
                key = f"{base}-{i}"
        if any(n == key for n, _ in extra) or key in BUILTIN_PLUGINS:
            raise PluginError(f"plugin name {key!r} is already registered")
        return (*extra, (key, plugin))

    return _publish(add)


def unregister_plugin(plugin: object) -> Registry:
    """Remove a plugin given to ``register_plugin`` (the object or its name)."""
    def remove(extra: tuple[tuple[str, Any], ...]) -> tuple[tuple[str, Any], ...]:
        kept = tuple((n, p) for n, p in extra if n != plugin and p is not plugin)
        if len(kept) == len(extra):
            raise PluginError(f"plugin {plugin!r} was not registered with register_plugin")
        return kept

    return _publish(remove)


# ---------------------------------------------------------------- what plugins return, checked

#: the most times a pattern may be met in one reading, the largest payment
MAX_COUNT = 64
MAX_PAYMENT = 10**12


def plugin_error(plugin: str, hook: str, what: str, problem: str) -> PluginError:
    """A PluginError naming the plugin, the hook and the pattern, shape or scheme."""
    err = PluginError(f"plugin {plugin!r} ({hook}, {what}): {problem}")
    err.plugin, err.hook, err.item = plugin, hook, what  # type: ignore[attr-defined]
    return err


def raised(plugin: str, hook: str, what: str, exc: BaseException) -> PluginError:
    """The PluginError for a plugin function that raised ``exc``."""
    return plugin_error(plugin, hook, what, f"raised {type(exc).__name__}: {shown(str(exc))}")


def checked_count(n: Any, plugin: str, what: str) -> int:
    """A detector's answer: a whole number 0..MAX_COUNT (True/False read as 1/0)."""
    if type(n) is int and 0 <= n <= MAX_COUNT:
        return n
    if type(n) is bool:
        return int(n)
    raise plugin_error(plugin, "hkcore_patterns", f"pattern {what!r}",
                       f"detect returned {shown(n)}; a count is a whole number 0..{MAX_COUNT}")


def checked_payments(pays: Any, plugin: str, hook: str, what: str) -> dict[str, int]:
    """A scheme's or adjustment's payments: E, S, W, N, whole numbers summing to zero."""
    if (type(pays) is dict and len(pays) == 4 and all(s in pays for s in SEATS)
            and all(type(pays[s]) is int and -MAX_PAYMENT <= pays[s] <= MAX_PAYMENT for s in SEATS)
            and sum(pays.values()) == 0):
        return {s: pays[s] for s in SEATS}
    raise plugin_error(plugin, hook, what, f"returned {shown(pays)}; payments are the net change of E, S, W "
                       "and N, whole numbers that sum to zero")


class CheckedShape:
    """A plugin's shape whose answers are checked (a PluginError names the
    plugin when it raises or answers out of contract)."""

    def __init__(self, shape: Shape, plugin: str) -> None:
        self.shape = shape
        self.id = shape.id
        self.plugin = plugin
        self.parts = shape.parts

    def readings(self, counts: Sequence[int], k: int, options: Mapping[str, Any]) -> list[tuple[int, ...]]:
        what = f"shape {self.id!r}"
        try:
            found = self.shape.readings(list(counts), k, options)
        except Exception as exc:  # noqa: BLE001 - a plugin's shape may raise anything: named as a PluginError
            raise raised(self.plugin, "hkcore_shapes", what, exc) from None
        try:
            out = [tuple(islice(r, 17)) for r in islice(found, MAX_COUNT + 1)]
        except Exception:  # noqa: BLE001 - a plugin's answer may fail to iterate: refused just below as out of contract
            out = [()]
        if len(out) > MAX_COUNT or not all(0 < len(r) <= 16 and all(type(x) is int and 0 <= x < 136 for x in r)
                                           for r in out):
            raise plugin_error(self.plugin, "hkcore_shapes", what,
                               f"readings returned {shown(found)}; a reading is a tuple of tile indices or set codes")
        return out

    def tiles_away(self, counts: list[int], k: int, codes: tuple[int, ...], options: Mapping[str, Any]) -> int:
        what = f"shape {self.id!r}"
        try:
            n = self.shape.tiles_away(list(counts), k, codes, options)
        except Exception as exc:  # noqa: BLE001 - a plugin's shape may raise anything: named as a PluginError
            raise raised(self.plugin, "hkcore_shapes", what, exc) from None
        if type(n) is not int or not -1 <= n <= 99:
            raise plugin_error(self.plugin, "hkcore_shapes", what,
                               f"tiles_away returned {shown(n)}; expected a whole number -1..99")
        return n
