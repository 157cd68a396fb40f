"""Meta-tests: every hook is prefixed, documented, implemented and tested."""
from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from hkcore import hookspecs, registry

SPECS = [name for name, fn in inspect.getmembers(hookspecs, inspect.isfunction)
         if hasattr(fn, f"{hookspecs.PROJECT}_spec")]
TESTS = Path(__file__).resolve().parent


def test_there_are_hooks() -> None:
    assert {"hkcore_patterns", "hkcore_payment_schemes", "hkcore_payment_adjustments"} <= set(SPECS)


@pytest.mark.parametrize("name", SPECS)
def test_hook_is_prefixed_and_documented(name: str) -> None:
    assert name.startswith("hkcore_")
    doc = inspect.getdoc(getattr(hookspecs, name)) or ""
    assert len(re.split(r"\.\s", doc)) >= 2, f"{name} needs a docstring saying what it returns and when it is called"


@pytest.mark.parametrize("name", SPECS)
def test_hook_has_an_implementation(name: str) -> None:
    pm = registry.plugin_manager()
    if name == "hkcore_bots":  # the built-in bots are registered by the players' registry (above hkcore.registry)
        from hkcore.table.players.bots import bot_plugin_manager

        pm = bot_plugin_manager()[0]
    impls = getattr(pm.hook, name).get_hookimpls()
    assert impls, f"no plugin implements {name}"


@pytest.mark.parametrize("name", SPECS)
def test_hook_is_exercised_by_a_test(name: str) -> None:
    users = [p.name for p in TESTS.glob("test_*.py") if p.name != "test_hooks.py" and name in p.read_text()]
    assert users, f"no test module exercises {name}"
