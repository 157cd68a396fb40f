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
