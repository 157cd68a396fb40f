"""The source tree stays clean under its own lint and type-check settings
(pyproject.toml's ``[tool.ruff]`` and ``[tool.mypy]``): ``ruff check`` over
the code, the tests, the benchmarks and the plugins, ``mypy`` (strict) over
the package. Each runs where its tool is installed (the ``dev`` extra) and
skips, saying why, elsewhere: without the tool, or without the source tree
beside tests/ (the installed-package runs)."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

pytestmark = pytest.mark.io

ROOT = Path(__file__).resolve().parent.parent
#: what ``ruff check`` reads, where the checkout has it (the sdist holds no bench/)
LINTED = ("hkcore", "tests", "bench", "plugins")
#: what mypy must import to check every module of the package (the optional parts included)
TYPED_NEEDS = ("pydantic", "fastapi", "uvicorn", "anyio", "dask", "matplotlib", "gymnasium", "tqdm")


def _source_tree() -> None:
    if not (ROOT / "pyproject.toml").is_file() or not (ROOT / "hkcore" / "__init__.py").is_file():
        pytest.skip("no source tree beside tests/ (the tests run against an installed hkcore)")


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=600)


def test_ruff_finds_nothing() -> None:
    _source_tree()
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (pip install -e '.[dev]')")
    proc = _run("ruff", "check", "--no-cache", *[p for p in LINTED if (ROOT / p).is_dir()])
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]


@pytest.mark.slow
def test_mypy_strict_finds_nothing() -> None:
    _source_tree()
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[dev]')")
    missing = [m for m in TYPED_NEEDS if importlib.util.find_spec(m) is None]
    try:
        metadata.distribution("types-tqdm")
    except metadata.PackageNotFoundError:
        missing.append("types-tqdm")
    if missing:
        pytest.skip(f"mypy checks every optional part of the package: {', '.join(missing)} not installed")
    proc = _run("mypy", "hkcore")
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-2000:]
    assert "Success: no issues found" in proc.stdout
