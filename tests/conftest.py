"""Shared pytest configuration: markers, Hypothesis profiles, core fixtures."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# the shared helpers (tests/helpers, imported as ``helpers``): tests/ on sys.path whatever pytest's
# import mode, tests/ not being a package (see tests/helpers/__init__.py)
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

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
    config.addinivalue_line(
        "markers",
        "io: drives real processes, sockets, a browser or the linters; what it checks is the same whichever core "
        "is in use, so .ci/run's pure-Python run deselects it (runs by default; deselect with -m 'not io')",
    )


# --------------------------------------------------------------------------
# Hypothesis profiles: `ci` is reproducible, `dev` is random

settings.register_profile("ci", derandomize=True, max_examples=300, deadline=None)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

# --------------------------------------------------------------------------
# the two implementations of the decomposition core

from helpers.cores import CORE_MODULES, load_core  # noqa: E402  (tests/ on sys.path above)


@pytest.fixture(scope="session", params=list(CORE_MODULES))
def core(request: pytest.FixtureRequest) -> ModuleType:
    """Each core implementation in turn (``cython``, ``python``)."""
    return load_core(request.param)


@pytest.fixture(scope="session")
def twin_cores() -> tuple[ModuleType, ModuleType]:
    """(compiled core, Python core), for tests comparing the two."""
    return load_core("cython"), load_core("python")
