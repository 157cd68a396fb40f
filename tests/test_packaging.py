"""The sdist ships what its tests need, and the packages ship all their files.

Checked without building anything: MANIFEST.in is applied to the tree with
setuptools' own file-list rules (``python -m build --sdist`` applies it the
same way, after the files setuptools finds from pyproject.toml), and the
package settings of pyproject.toml are checked against the package folders.
A helper added to tests/, a page added to docs/ or a data file added to a
package that the packaging config would leave out fails here, not after a
release. The build itself is checked by .ci/run (docs/development.md).
"""
from __future__ import annotations

import fnmatch
import os
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "MANIFEST.in"
PYPROJECT = ROOT / "pyproject.toml"
#: folders that are never sources: caches, build products
SKIPPED_DIRS = {"__pycache__", ".hypothesis", ".pytest_cache", "build", "dist"}
#: files that are never sources: build products (the compiled core, the C that Cython generates), bytecode
BUILD_PRODUCTS = ("*.c", "*.so", "*.pyd", "*.dylib", "*.dll", "*.o", "*.obj", "*.pyc", "*.pyo")

pytestmark = pytest.mark.skipif(
    not (MANIFEST.is_file() and PYPROJECT.is_file()),
    reason="no packaging config beside tests/ (the tests run against an installed hkcore, "
           "not from the repository or an unpacked sdist)")


def sources(folder: Path, *, recursive: bool = True) -> list[str]:
    """The files under ``folder`` as paths relative to the project root,
    without caches and build products (what a clean checkout holds)."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        found += [Path(dirpath, name).relative_to(ROOT).as_posix() for name in sorted(filenames)
                  if not any(fnmatch.fnmatch(name, pattern) for pattern in BUILD_PRODUCTS)]
        if not recursive:
            break
    return found


def apply_manifest(root: Path, start: list[str], monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """The file list after MANIFEST.in's commands, run in ``root`` on the
    files ``start`` (what setuptools found before reading MANIFEST.in)."""
    egg_info = pytest.importorskip("setuptools.command.egg_info",
                                   reason="setuptools (the build backend) is needed to read MANIFEST.in")
    monkeypatch.chdir(root)  # MANIFEST.in's patterns are relative to the project root
    files = egg_info.FileList()
    files.extend(start)
    for line in MANIFEST.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            files.process_template_line(line)
    return {Path(f).as_posix() for f in files.files}


def test_the_sdist_ships_every_test_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Helpers (conftest.py, helpers/, cases/, embed_worker.py, ...)
    as well as the test modules: the unpacked sdist runs its tests."""
    shipped = apply_manifest(ROOT, [], monkeypatch)
    wanted = sources(ROOT / "tests")
    assert "tests/conftest.py" in wanted and "tests/cases/__init__.py" in wanted
    assert "tests/helpers/__init__.py" in wanted and "tests/helpers/strategies.py" in wanted
    missing = [f for f in wanted if f not in shipped]
    assert not missing, f"MANIFEST.in leaves these out of the sdist: {missing}"


def test_the_sdist_ships_what_the_tests_read_beside_tests(monkeypatch: pytest.MonkeyPatch) -> None:
    """README.md and docs/*.md are doctested (test_docs.py); docs/example-plugin
    is installed by test_plugins.py."""
    shipped = apply_manifest(ROOT, [], monkeypatch)
    wanted = ["README.md", "CHANGELOG.md", "LICENSE", *sources(ROOT / "docs")]
    assert "docs/example-plugin/hkcore_all_green/__init__.py" in wanted
    missing = [f for f in wanted if f not in shipped]
    assert not missing, f"MANIFEST.in leaves these out of the sdist: {missing}"


def test_build_products_and_caches_stay_out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tree after a build and a test run: MANIFEST.in removes what setuptools
    would otherwise pick up (it adds the generated _ccore.c as the extension's
    source), and grafts no cache."""
    keep = ["tests/conftest.py", "tests/cases/__init__.py", "docs/architecture.md",
            "hkcore/core/_ccore.pyx", "hkcore/core/_kernel.pxi"]
    junk = ["hkcore/core/_ccore.c", "hkcore/core/_ccore.cpython-311-x86_64-linux-gnu.so",
            "hkcore/core/_ccore.cp311-win_amd64.pyd", "hkcore/__pycache__/tiles.cpython-311.pyc",
            "tests/__pycache__/conftest.cpython-311-pytest-8.0.0.pyc", "tests/.hypothesis/examples/0a/1b",
            "tests/.pytest_cache/v/cache/nodeids", "tests/cases/__pycache__/examples.cpython-311.pyc",
            "docs/example-plugin/build/lib/hkcore_all_green/__init__.py",
            "docs/example-plugin/hkcore_all_green.egg-info/PKG-INFO",
            "build/lib.linux-x86_64-cpython-311/hkcore/core/_ccore.cpython-311-x86_64-linux-gnu.so"]
    for name in keep + junk:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    shipped = apply_manifest(tmp_path, keep + junk, monkeypatch)
    assert shipped == set(keep), (f"in the sdist: {sorted(shipped - set(keep))}; "
                                  f"left out: {sorted(set(keep) - shipped)}")


def _setuptools_config() -> dict:
    return tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_ships_with_its_data() -> None:
    """Every folder with an ``__init__.py`` under hkcore/ is a listed package,
    presets/ and plugins/ ship as hkcore.preset_files and hkcore.plugins, and
    every file of a package is Python or matches its package data (so a new
    .pxi, .toml or subpackage reaches the sdist and the wheel)."""
    config = _setuptools_config()
    packages = set(config["packages"])
    package_dir = config.get("package-dir", {})
    data = config.get("package-data", {})
    assert package_dir.get("hkcore.preset_files") == "presets" and package_dir.get("hkcore.plugins") == "plugins"

    def folder(package: str) -> Path:
        for prefix in sorted(package_dir, key=len, reverse=True):  # the longest mapped prefix wins
            if package == prefix or package.startswith(prefix + "."):
                return ROOT / package_dir[prefix] / package[len(prefix):].lstrip(".").replace(".", "/")
        return ROOT / package.replace(".", "/")

    found = {".".join(Path(d).relative_to(ROOT).parts) for d, _, names in os.walk(ROOT / "hkcore")
             if "__init__.py" in names and "__pycache__" not in d}
    assert found <= packages, f"packages missing from pyproject.toml [tool.setuptools] packages: {found - packages}"
    problems = []
    for package in sorted(packages):
        where = folder(package)
        if not (where / "__init__.py").is_file():
            problems.append(f"{package}: no {where.relative_to(ROOT)}/__init__.py")
            continue
        patterns = [*data.get(package, []), *data.get("*", []), *data.get("", [])]
        for path in sources(where, recursive=False):
            name = Path(path).name
            if not name.endswith(".py") and not any(fnmatch.fnmatch(name, p) for p in patterns):
                problems.append(f"{path} is in package {package} but matches none of its package-data {patterns}")
    assert not problems, "\n".join(problems)
