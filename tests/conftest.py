"""Shared pytest configuration: markers, Hypothesis profiles, core fixtures."""
from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest
from hypothesis import settings

# --------------------------------------------------------------------------
# markers


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "exhaustive: sweeps every count vector of one suit (slow; runs by default, "
        "deselect with -m 'not exhaustive')",
    )
    config.addinivalue_line(
        "markers",
        "slow: takes a minute or more on a loaded machine (runs by default; the wheel check of .ci/run "
        "deselects it with the exhaustive sweeps, which the main runs cover; deselect with -m 'not slow')",
    )


# --------------------------------------------------------------------------
# Hypothesis profiles: `ci` is reproducible, `dev` is random

settings.register_profile("ci", derandomize=True, max_examples=300, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# --------------------------------------------------------------------------
# the two implementations of the decomposition core

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


@pytest.fixture(scope="session", params=list(CORE_MODULES))
def core(request: pytest.FixtureRequest) -> ModuleType:
    """Each core implementation in turn (``cython``, ``python``)."""
    return load_core(request.param)


@pytest.fixture(scope="session")
def twin_cores() -> tuple[ModuleType, ModuleType]:
    """(compiled core, Python core), for tests comparing the two."""
    return load_core("cython"), load_core("python")
