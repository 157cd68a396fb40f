"""A plugin pattern whose scope is not one of the four is refused when plugins are read, naming the plugin,
the same on both cores (the compiled core raised KeyError, the pure one never counted it)."""

from __future__ import annotations

import pytest

import hkcore
from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern
from hkcore.registry import PluginWarning


class Everywhere:
    @hookimpl
    def hkcore_patterns(self) -> list[Pattern]:
        return [Pattern("everywhere_green", "Everywhere green", "綠", lambda s, o: 1,
                        scope="everywhere")]  # type: ignore[arg-type]


def test_a_pattern_of_no_known_scope_is_refused_naming_the_plugin() -> None:
    plugin = Everywhere()
    with pytest.warns(PluginWarning, match=r"plugin 'scoped-badly': .*'everywhere_green' with scope "
                                           r"'everywhere', not one of sets, hand, bonus, instant"):
        hkcore.register_plugin(plugin, "scoped-badly")
    try:
        with pytest.raises(hkcore.HkcoreError, match="unknown pattern id 'everywhere_green'"):
            hkcore.load_preset('extends = "hk-classic"\n[patterns]\neverywhere_green = 1\n')
        # the built-ins still score as before
        r = hkcore.score("234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N", "bga-old-style")
        assert r.faan == 9
    finally:
        hkcore.unregister_plugin(plugin)


class Unnamed:
    @hookimpl
    def hkcore_patterns(self) -> list[Pattern]:
        return []


class NoHooks:
    def hkcore_patterns(self) -> list[Pattern]:  # no @hookimpl: pluggy never calls it
        return []


def test_a_plugin_given_no_name_is_named_after_its_class() -> None:
    first, second = Unnamed(), Unnamed()
    registry = hkcore.register_plugin(first)
    try:
        registry = hkcore.register_plugin(second)
        try:
            names = [n for n, _ in registry.extra]
            assert names[-2:] == [f"{__name__}.Unnamed", f"{__name__}.Unnamed-2"], names
        finally:
            hkcore.unregister_plugin(second)
    finally:
        hkcore.unregister_plugin(first)


def test_a_plugin_without_hooks_is_warned_about() -> None:
    plugin = NoHooks()
    with pytest.warns(PluginWarning, match=r"has no @hookimpl functions"):
        hkcore.register_plugin(plugin, "hookless")
    hkcore.unregister_plugin(plugin)
