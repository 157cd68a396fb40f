"""The two implementations of the decomposition core, loaded by name (for the
``core`` and ``twin_cores`` fixtures of tests/conftest.py, and tests that load one)."""
from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

CORE_MODULES = {"cython": "hkcore.core._ccore", "python": "hkcore.core._pycore"}


def _require_compiled() -> bool:
    return os.environ.get("HKCORE_REQUIRE_COMPILED", "") == "1"


def load_core(name: str) -> ModuleType:
    """The core implementation ``name``; skips (or fails, when the compiled
    core is required) if it cannot be imported."""
    try:
        return importlib.import_module(CORE_MODULES[name])
    except ImportError as exc:
        if name == "cython" and not _require_compiled():
            pytest.skip(f"compiled core not available: {exc}")
        pytest.fail(f"cannot import the {name} core: {exc}")
