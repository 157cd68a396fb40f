"""The package's import graph has no circles and respects the layering.

The graph is built statically (``ast`` for Python, a regex for the Cython
sources), so these tests import nothing from hkcore. Every import statement
counts, wherever it is -- a lazy import inside a function is still a
dependency -- except those under ``if TYPE_CHECKING:``. Importing a
submodule implicitly runs its parent package's ``__init__``; those implicit
edges are not added (the facade ``hkcore/__init__.py`` re-exports
everything and would otherwise make every module circular). An explicit
``import hkcore`` or ``from hkcore import <not a submodule>`` is an edge to
the facade.

docs/architecture.md describes the layers; LAYERS below is the rule.
"""
from __future__ import annotations

import ast
import math
import re
from collections import deque
from collections.abc import Iterable
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIR = ROOT / "hkcore"
PLUGINS_DIR = ROOT / "plugins"  # installed as hkcore.plugins (see pyproject.toml)

FACADE = "hkcore"

# --------------------------------------------------------------------------
# the layering: (module name, or "prefix.*" for everything below it) -> layer.
# A module may import modules of its own layer or of lower layers only.
# Fractional layers order groups inside one layer. The facade is above all.

LAYERS: list[tuple[str, float, str]] = [
    ("hkcore.errors", 0, "tiles"),
    ("hkcore.cells", 0, "tiles"),
    ("hkcore.tiles", 0, "tiles"),
    ("hkcore.core", 1, "core"),
    ("hkcore.core.*", 1, "core"),
    ("hkcore.notation", 2.0, "models: notation"),
    ("hkcore.values", 2.1, "models: values"),
    ("hkcore.results", 2.2, "models: results"),
    ("hkcore.models", 2.5, "models: models"),
    ("hkcore.lines", 2.6, "models: input lines"),
    ("hkcore.options", 3.0, "plugin API"),
    ("hkcore.patterns", 3.0, "plugin API"),
    ("hkcore.shapes", 3.0, "plugin API"),
    ("hkcore.payments", 3.0, "plugin API"),
    ("hkcore.hookspecs", 3.0, "plugin API"),
    ("hkcore.builtin_patterns", 3.5, "plugin API: plugins"),
    ("hkcore.builtin_shapes", 3.5, "plugin API: plugins"),
    ("hkcore.builtin_schemes", 3.5, "plugin API: plugins"),
    ("hkcore.plugins", 3.5, "plugin API: plugins"),
    ("hkcore.plugins.*", 3.5, "plugin API: plugins"),
    ("hkcore.registry", 4, "registry"),
    ("hkcore.table_rules", 5.0, "presets: sections"),
    ("hkcore.preset.errors", 5.0, "presets: sections"),
    ("hkcore.preset.schema", 5.1, "presets: schema"),
    ("hkcore.preset.rules", 5.2, "presets: values"),
    ("hkcore.preset.checks", 5.3, "presets: checks"),
    ("hkcore.preset.reading", 5.4, "presets: reading"),
    ("hkcore.preset.lint", 5.45, "presets: lint"),
    ("hkcore.preset.model", 5.5, "presets: Preset"),
    ("hkcore.preset.store", 5.6, "presets: store"),
    ("hkcore.preset.export", 5.6, "presets: store"),
    ("hkcore.preset", 5.7, "presets"),
    ("hkcore.questions", 5.7, "presets"),
    ("hkcore.shaping", 5.7, "presets"),
    ("hkcore.engine.entries", 6.0, "engine: entries"),
    ("hkcore.engine.evaluator", 6.1, "engine: evaluators"),
    ("hkcore.engine.parts", 6.1, "engine: evaluators"),
    ("hkcore.engine.settlement", 6.1, "engine: evaluators"),
    ("hkcore.engine.compiled", 6.2, "engine: CompiledPreset"),
    ("hkcore.engine.scoring", 6.3, "engine: score"),
    ("hkcore.engine", 6.4, "engine"),
    ("hkcore.analysis", 7, "analysis, claims, compare"),
    ("hkcore.claims", 7, "analysis, claims, compare"),
    ("hkcore.comparison", 7, "analysis, claims, compare"),
    ("hkcore.batch", 7, "analysis, claims, compare"),
    ("hkcore.sample", 7, "analysis, claims, compare"),
    ("hkcore.summary", 7, "analysis, claims, compare"),
    # the reports: the package imports none of its modules; the simulation's report sits above the simulation
    ("hkcore.reports", 7.5, "analysis, claims, compare: reports"),
    ("hkcore.reports.*", 7.5, "analysis, claims, compare: reports"),
    ("hkcore.report_plots", 7.5, "analysis, claims, compare: reports (old path)"),
    ("hkcore.report", 7.5, "analysis, claims, compare: reports (old path)"),
    # the table in three rooms: the flow (the engine, its codes, the wall) knows no preset scorer and no player;
    # the table (Table, its start records, matches, replay, the environment) plays the flow under a preset;
    # the players (bots, their compiled twins, the hand loop in the engine) answer the table's prompts
    ("hkcore.table.flow", 7.70, "table: flow"),
    ("hkcore.table.flow.*", 7.70, "table: flow"),
    ("hkcore.table.*", 7.72, "table: the table"),
    ("hkcore.table.players", 7.74, "table: players"),
    ("hkcore.table.players.*", 7.74, "table: players"),
    ("hkcore.table.learning", 7.75, "table: learning environments"),
    ("hkcore.table.learning.*", 7.75, "table: learning environments"),
    ("hkcore.table.rl", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.rl_rllib", 7.77, "table: agent adapters and old paths"),
    ("hkcore.table.engine", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.wall", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.bots", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.policy", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.value", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table.fastplay", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table._pyvalue", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table._cvalue", 7.76, "table: agent adapters and old paths"),
    ("hkcore.table", 7.76, "table: agent adapters and old paths"),
    ("hkcore.simulation", 7.8, "simulation"),
    ("hkcore.simulation.*", 7.8, "simulation"),
    ("hkcore.dask", 7.9, "simulation: on a cluster, and its report"),
    ("hkcore.reports.simulation", 7.9, "simulation: on a cluster, and its report"),
    ("hkcore.simulation_report", 7.9, "simulation: on a cluster, and its report"),
    ("hkcore.cli", 8, "CLI, server"),
    ("hkcore.cli.*", 8, "CLI, server"),
    ("hkcore.cli_common", 8, "CLI, server"),
    ("hkcore.cli_hand", 8, "CLI, server"),
    ("hkcore.cli_presets", 8, "CLI, server"),
    ("hkcore.cli_table", 8, "CLI, server"),
    ("hkcore.cli_simulate", 8, "CLI, server"),
    ("hkcore.server", 8, "CLI, server"),
    ("hkcore.console", 8, "CLI, server"),
    ("hkcore.__main__", 8, "CLI, server"),
    ("hkcore.server.*", 8, "CLI, server"),
    (FACADE, math.inf, "facade"),
]


def layer_of(module: str, table: Iterable[tuple[str, float, str]] = LAYERS) -> tuple[float, str] | None:
    """(layer, label) of ``module``: an exact entry, else the longest matching "prefix.*"."""
    best: tuple[int, float, str] | None = None
    for pattern, layer, label in table:
        if pattern == module:
            return layer, label
        if pattern.endswith(".*") and module.startswith(pattern[:-1]) and (best is None or len(pattern) > best[0]):
            best = (len(pattern), layer, label)
    return None if best is None else (best[1], best[2])


# --------------------------------------------------------------------------
# the graph

Location = tuple[str, int]  # (file relative to the repository, line)
Graph = dict[str, dict[str, list[Location]]]  # importer -> imported -> where


def _module_name(path: Path, base: Path, package: str) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package, *parts])


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


# one raw import: (module written, names imported or None for `import x`, level, line)
RawImport = tuple[str, "list[str] | None", int, int]


def _python_imports(source: str, filename: str) -> list[RawImport]:
    tree = ast.parse(source, filename=filename)
    found: list[RawImport] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:  # the `else:` of `if TYPE_CHECKING` runs
                visit(child)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, None, 0, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", [a.name for a in node.names], node.level, node.lineno))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


_TRIPLE_QUOTED = re.compile(r'("""|\'\'\')[\s\S]*?\1')
_COMMENT = re.compile(r"#[^\n]*")
# these two never match a cimport: `from x cimport y` has no " import", `cimport x` no leading "import"
_FROM_IMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.M)
_FROM_CIMPORT = re.compile(r"^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+cimport[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_CIMPORT = re.compile(r"^[ \t]*cimport[ \t]+([^\n]*)", re.M)
_INCLUDE = re.compile(r"""^[ \t]*include[ \t]+["']([^"']+)["']""", re.M)


def _blank(match: re.Match[str]) -> str:
    """Blank out a match but keep its newlines, so line numbers stay right."""
    return "\n" * match.group(0).count("\n")


def _cython_imports(source: str, cimports: bool = True) -> list[RawImport]:
    """Imports of a .pyx/.pxi/.pxd (not Python syntax, so by regex): the Python ones, and with ``cimports``
    the C ones (``from x cimport y``, ``cimport x``), which are dependencies as much as any import."""
    text = _COMMENT.sub("", _TRIPLE_QUOTED.sub(_blank, source))
    found: list[RawImport] = []
    froms, plains = (_FROM_IMPORT, _FROM_CIMPORT), (_IMPORT, _CIMPORT)
    for pattern in froms[:2 if cimports else 1]:
        for m in pattern.finditer(text):
            names = [n.split()[0] for n in m.group(3).strip("() \t\n").replace("\n", " ").split(",") if n.strip()]
            found.append((m.group(2), names, len(m.group(1)), text.count("\n", 0, m.start()) + 1))
    for pattern in plains[:2 if cimports else 1]:
        for m in pattern.finditer(text):
            for part in m.group(1).split(","):
                if part.strip():
                    found.append((part.split()[0], None, 0, text.count("\n", 0, m.start()) + 1))
    return found


def collect_sources(package_dir: Path, package: str,
                    extra: Iterable[tuple[Path, str]] = ()) -> dict[str, list[Path]]:
    """module name -> its source files (a .pyx with the .pxi files it includes)."""
    modules: dict[str, list[Path]] = {}
    included: dict[Path, str] = {}
    roots = [(package_dir, package, True), *((d, name, False) for d, name in extra)]
    for base, name, recursive in roots:
        if not base.is_dir():
            continue
        for suffix in ("py", "pyx", "pxd"):  # a .pxd is its module's C declarations (or a module of its own)
            for path in sorted(base.rglob(f"*.{suffix}") if recursive else base.glob(f"*.{suffix}")):
                if "__pycache__" in path.parts:
                    continue
                mod = _module_name(path, base, name)
                modules.setdefault(mod, []).append(path)
                if suffix == "pyx":
                    for inc in _INCLUDE.findall(path.read_text(encoding="utf-8")):
                        included[(path.parent / inc).resolve()] = mod
        if recursive:
            for path in sorted(base.rglob("*.pxi")):
                owner = included.get(path.resolve())
                modules.setdefault(owner or _module_name(path, base, name), []).append(path)
    return modules


def _resolve(raw: RawImport, importer: str, importer_is_package: bool, modules: set[str],
             package: str) -> list[str]:
    written, names, level, _ = raw
    if level:
        base = importer.split(".") if importer_is_package else importer.split(".")[:-1]
        base = base[: len(base) - (level - 1)]
        written = ".".join([*base, written] if written else base)
    if not (written == package or written.startswith(package + ".")):
        return []
    if names is None:  # import a.b.c: a.b.c itself (its parents only implicitly)
        return [written]
    targets = []
    for name in names:
        sub = f"{written}.{name}"
        targets.append(sub if name != "*" and sub in modules else written)
    return targets


def build_graph(package_dir: Path, package: str, extra: Iterable[tuple[Path, str]] = (),
                repo_root: Path | None = None) -> tuple[Graph, dict[str, list[Path]]]:
    """The static import graph of a package (plus extra plugin folders mounted under it)."""
    sources = collect_sources(package_dir, package, extra)
    names = set(sources)
    graph: Graph = {mod: {} for mod in sources}
    for mod, paths in sources.items():
        for path in paths:
            text = path.read_text(encoding="utf-8")
            raws = _python_imports(text, str(path)) if path.suffix == ".py" else _cython_imports(text)
            shown = str(path.relative_to(repo_root)) if repo_root else str(path)
            is_pkg = _is_package(path)
            for raw in raws:
                for target in _resolve(raw, mod, is_pkg, names, package):
                    where = graph[mod].setdefault(target, []) if target != mod else None
                    if where is not None and (shown, raw[3]) not in where:
                        where.append((shown, raw[3]))
    return graph, sources


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    comp = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        comp.append(member)
                        if member == node:
                            break
                    components.append(sorted(comp))
    return components


def _shortest_path(graph: Graph, start: str, goal: str, within: set[str]) -> list[str]:
    previous: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            path = []
            step: str | None = node
            while step is not None:
                path.append(step)
                step = previous[step]
            return path[::-1]
        for child in sorted(graph.get(node, ())):
            if child in within and child not in previous:
                previous[child] = node
                queue.append(child)
    raise AssertionError(f"no path {start} -> {goal} inside its component")


def find_circles(graph: Graph) -> list[list[str]]:
    """Import circles, each as [a, b, ..., a]: for every edge that lies on a
    circle, the shortest circle through it (so every such edge is shown)."""
    circles: dict[tuple[str, ...], list[str]] = {}
    for comp in strongly_connected(graph):
        if len(comp) < 2:
            continue
        members = set(comp)
        for a in comp:
            for b in sorted(graph[a]):
                if b not in members:
                    continue
                cycle = [a, *_shortest_path(graph, b, a, members)]  # a -> b ... -> a
                ring = cycle[:-1]
                turn = ring.index(min(ring))
                key = tuple(ring[turn:] + ring[:turn])
                circles.setdefault(key, [*key, key[0]])
    return sorted(circles.values())


def _where(graph: Graph, a: str, b: str) -> str:
    return ", ".join(f"{f}:{line}" for f, line in graph[a][b])


def describe_circles(graph: Graph, circles: list[list[str]]) -> str:
    lines = []
    for cycle in circles:
        lines.append(" -> ".join(cycle))
        for a, b in pairwise(cycle):
            lines.append(f"      {a} -> {b}  ({_where(graph, a, b)})")
    return "\n".join(lines)


def layer_violations(graph: Graph, sources: dict[str, list[Path]],
                     table: list[tuple[str, float, str]] = LAYERS) -> list[str]:
    problems = []
    for mod in sorted(graph):
        if layer_of(mod, table) is None:
            problems.append(f"{mod}: not in the layer table (add it to the layer table in tests/test_layers.py)")
    for mod in sorted(graph):
        own = layer_of(mod, table)
        for target in sorted(graph[mod]):
            theirs = layer_of(target, table)
            where = _where(graph, mod, target)
            if theirs is None:
                problems.append(f"{mod} imports {target}, which is not in the layer table "
                                f"(add it to the layer table in tests/test_layers.py) ({where})")
            elif target not in sources:
                problems.append(f"{mod} imports {target}, which is not a module of the package ({where})")
            elif own is not None and theirs[0] > own[0]:
                note = " -- nothing inside the package may import the facade" if theirs[0] == math.inf else ""
                problems.append(f"{mod} [{own[0]:g} {own[1]}] imports {target} "
                                f"[{theirs[0]:g} {theirs[1]}]{note} ({where})")
    return problems


# --------------------------------------------------------------------------
# the tests on hkcore


@pytest.fixture(scope="module")
def hkcore_graph() -> tuple[Graph, dict[str, list[Path]]]:
    if not (PACKAGE_DIR / "__init__.py").is_file():
        pytest.skip("no source tree beside tests/ (the tests run against an installed hkcore): "
                    "the layer check reads hkcore/ and plugins/")
    graph, sources = build_graph(PACKAGE_DIR, "hkcore", [(PLUGINS_DIR, "hkcore.plugins")], repo_root=ROOT)
    assert FACADE in graph and "hkcore.core" in graph and "hkcore.core._ccore" in graph, sorted(graph)
    return graph, sources


def test_no_import_circles(hkcore_graph: tuple[Graph, dict[str, list[Path]]]) -> None:
    graph, _ = hkcore_graph
    circles = find_circles(graph)
    if circles:
        groups = [c for c in strongly_connected(graph) if len(c) > 1]
        pytest.fail(f"{len(circles)} import circle(s) in hkcore, among {len(groups)} group(s) of modules "
                    "that import each other:\n"
                    + "".join(f"  {{{', '.join(g)}}}\n" for g in groups)
                    + describe_circles(graph, circles), pytrace=False)


def test_imports_respect_layers(hkcore_graph: tuple[Graph, dict[str, list[Path]]]) -> None:
    graph, sources = hkcore_graph
    problems = layer_violations(graph, sources)
    if problems:
        pytest.fail(f"{len(problems)} import(s) against the layering "
                    f"(a module may import its own layer and lower ones):\n  " + "\n  ".join(problems), pytrace=False)


# --------------------------------------------------------------------------
# the checker itself, on a synthetic package


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_checker_on_synthetic_package(tmp_path: Path) -> None:
    pkg = tmp_path / "syn"
    _write(pkg, {
        "__init__.py": "from syn.a import f\nfrom syn import sub\n",
        "a.py": "def f():\n    from syn import b  # lazy, still an edge\n    return b\n",
        "b.py": "import syn.a\n",
        "c.py": ("from typing import TYPE_CHECKING\nimport typing\n"
                 "if TYPE_CHECKING:\n    from syn.d import X\nif typing.TYPE_CHECKING:\n    import syn.e\n"
                 "else:\n    import syn.tiles\n"),
        "d.py": "from syn.c import thing\n",
        "e.py": "from syn import helper  # a name of the facade, not a submodule\n",
        "tiles.py": "import os\n",
        "sub/__init__.py": "from . import leaf\nfrom .leaf import g\n",
        "sub/leaf.py": "from .. import tiles\nfrom ..c import y\n",
        "sub/_k.pyx": ('"""\nimport syn.a  (a docstring, not an import)\n"""\n'
                       "from libc.stdlib cimport malloc\ncimport cython\nfrom syn.e cimport thing\n"
                       "from syn.sub import (\n    leaf,\n    other as o,\n)\nimport os, syn.tiles as t\n"
                       'include "_k2.pxi"\n'),
        "sub/_k2.pxi": "from syn import d\n",
        "sub/_k.pxd": "from syn.sub._decl cimport (\n    A,\n    B,\n)\ncimport syn.b\n",
        "sub/_decl.pxd": "cdef enum:\n    A = 1\n    B = 2\n",
    })
    plug = tmp_path / "plug"
    _write(plug, {"p.py": "from syn.c import z\nimport syn\n"})

    graph, sources = build_graph(pkg, "syn", [(plug, "syn.plugins")])
    edges = {a: set(bs) for a, bs in graph.items()}
    assert set(sources) == {"syn", "syn.a", "syn.b", "syn.c", "syn.d", "syn.e", "syn.tiles", "syn.sub",
                            "syn.sub.leaf", "syn.sub._k", "syn.sub._decl", "syn.plugins.p"}
    assert edges["syn.a"] == {"syn.b"}                      # function-level import counts
    assert edges["syn.b"] == {"syn.a"}
    assert edges["syn.c"] == {"syn.tiles"}                  # TYPE_CHECKING-only imports do not
    assert edges["syn.e"] == {"syn"}                        # a facade name is an edge to the facade
    assert edges["syn"] == {"syn.a", "syn.sub"}             # `from syn import sub` is the submodule
    assert edges["syn.sub"] == {"syn.sub.leaf"}             # relative, no implicit parent edges
    assert edges["syn.sub.leaf"] == {"syn.tiles", "syn.c"}
    # cython imports, the include, cimports in the .pyx and in its .pxd (a .pxd alone is a module of its own)
    assert edges["syn.sub._k"] == {"syn.sub.leaf", "syn.sub", "syn.tiles", "syn.d", "syn.e", "syn.sub._decl",
                                   "syn.b"}
    assert edges["syn.sub._decl"] == set()
    assert edges["syn.plugins.p"] == {"syn.c", "syn"}

    circles = find_circles(graph)
    assert ["syn.a", "syn.b", "syn.a"] in circles
    assert ["syn", "syn.a", "syn.b", "syn.a"] not in circles
    assert all(c[0] == c[-1] and len(c) >= 3 for c in circles)
    assert not any("syn.c" in c and "syn.d" in c for c in circles)  # the TYPE_CHECKING edge made none
    assert "syn.a -> syn.b -> syn.a" in describe_circles(graph, circles)

    # a longer circle, through the facade (e imports it by a name that is not a submodule)
    _write(pkg, {"tiles.py": "import syn.e\n"})
    graph, sources = build_graph(pkg, "syn")
    assert ["syn", "syn.sub", "syn.sub.leaf", "syn.tiles", "syn.e", "syn"] in find_circles(graph)

    table = [("syn.tiles", 0, "low"), ("syn.e", 0, "low"), ("syn.c", 1, "mid"), ("syn.d", 1, "mid"),
             ("syn.a", 2, "high"), ("syn.b", 2, "high"), ("syn.sub.*", 1, "mid"), ("syn.sub", 1, "mid"),
             ("syn", math.inf, "facade")]
    problems = layer_violations(graph, sources, table)
    assert any(p.startswith("syn.e [0 low] imports syn [inf facade]") for p in problems), problems
    # a cimport counts as any import: the .pxd's `cimport syn.b` reaches up a layer; nothing else of _k does
    assert [p for p in problems if p.startswith("syn.sub._k ")] == [
        p for p in problems if p.startswith("syn.sub._k [1 mid] imports syn.b [2 high]") and "_k.pxd:5" in p], problems
    assert len([p for p in problems if p.startswith("syn.sub._k ")]) == 1, problems
    assert not any(p.startswith("syn.c ") for p in problems), problems   # its only edge is downward
    assert layer_of("syn.sub.deep.x", table) == (1, "mid")
    assert any("add it to the layer table" in p for p in layer_violations(graph, sources, table[1:]))


# --------------------------------------------------------------------------
# private names: a module imports no other module's ``_name``. A private
# module (``a.b._c``) is a name of its package ``a.b``: modules inside that
# package may import it (the core's ``_ccore``/``_pycore``/``_codes``...),
# nothing outside it may. Reaching a private name through a module bound by
# an import (``core._impl``) counts as importing it.

#: edges known and owned by another change: (importer, private name imported)
KNOWN_PRIVATE: frozenset[tuple[str, str]] = frozenset()


def _private_part(dotted: str) -> int | None:
    """Index of the first private (``_x``, not dunder) part of a dotted name, or None."""
    for i, part in enumerate(dotted.split(".")):
        if part.startswith("_") and not (part.startswith("__") and part.endswith("__")):
            return i
    return None


def _allowed(importer: str, dotted: str) -> bool:
    """``importer`` may use ``dotted``: no private part, or it lies inside the
    package that owns the first private part."""
    i = _private_part(dotted)
    if i is None:
        return True
    owner = ".".join(dotted.split(".")[:i])
    return importer == owner or importer.startswith(owner + ".")


def _module_aliases(tree: ast.AST, importer: str, is_package: bool, modules: set[str],
                    package: str) -> dict[str, str]:
    """Local names bound to modules of the package by imports (name -> module)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules:
                    if alias.asname:
                        bound[alias.asname] = alias.name
                    elif "." not in alias.name:
                        bound[alias.name] = alias.name
        elif isinstance(node, ast.ImportFrom):
            raw: RawImport = (node.module or "", [a.name for a in node.names], node.level, node.lineno)
            for alias, target in zip(node.names, _resolve(raw, importer, is_package, modules | {"*"}, package)
                                     if node.names[0].name != "*" else []):
                full = target if target.endswith("." + alias.name) else f"{target}.{alias.name}"
                if full in modules:
                    bound[alias.asname or alias.name] = full
    return bound


def private_imports(package_dir: Path, package: str, extra: Iterable[tuple[Path, str]] = (),
                    repo_root: Path | None = None) -> list[str]:
    """Every use of another module's private name, as "importer: name (file:line)"."""
    sources = collect_sources(package_dir, package, extra)
    modules = set(sources)
    found: list[str] = []
    for mod, paths in sources.items():
        for path in paths:
            text = path.read_text(encoding="utf-8")
            shown = str(path.relative_to(repo_root)) if repo_root else str(path)
            is_pkg = _is_package(path)
            python = path.suffix == ".py"
            # a cimport reads a .pxd, the C interface its module publishes on purpose: not a private use
            raws = _python_imports(text, str(path)) if python else _cython_imports(text, cimports=False)
            uses: list[tuple[str, int]] = []
            for written, names, level, line in raws:
                base = _resolve((written, None, level, line), mod, is_pkg, modules, package)
                if not base and level == 0 and not (written == package or written.startswith(package + ".")):
                    continue
                target = base[0] if base else written
                if names is None:
                    uses.append((target, line))
                else:
                    uses.extend((f"{target}.{n}", line) for n in names if n != "*")
            if python:
                tree = ast.parse(text, filename=str(path))
                bound = _module_aliases(tree, mod, is_pkg, modules, package)
                for node in ast.walk(tree):
                    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                            and node.value.id in bound):
                        uses.append((f"{bound[node.value.id]}.{node.attr}", node.lineno))
            for dotted, line in uses:
                if not _allowed(mod, dotted):
                    i = _private_part(dotted)
                    assert i is not None
                    name = ".".join(dotted.split(".")[: i + 1])
                    if (mod, name) not in KNOWN_PRIVATE:
                        found.append(f"{mod}: {name} ({shown}:{line})")
    return sorted(set(found))


#: modules kept for one release under the old private names that pickles of the last release's value bots
#: name (hkcore 0.1.0 pickled ``hkcore.table._cvalue.Params`` and ``hkcore.table._pyvalue.ValueParams``):
#: each only re-exports its new home (tests/test_deprecated.py loads those pickles)
PICKLE_SHIMS = {"hkcore.table._cvalue", "hkcore.table._pyvalue"}


def test_no_private_cross_imports() -> None:
    if not (PACKAGE_DIR / "__init__.py").is_file():
        pytest.skip("no source tree beside tests/ (the tests run against an installed hkcore)")
    problems = [p for p in private_imports(PACKAGE_DIR, "hkcore", [(PLUGINS_DIR, "hkcore.plugins")], repo_root=ROOT)
                if p.split(":")[0] not in PICKLE_SHIMS]
    if problems:
        pytest.fail(f"{len(problems)} use(s) of another module's private name (make it public in its home, "
                    "or keep it inside its own package):\n  " + "\n  ".join(problems), pytrace=False)


def test_private_checker_on_synthetic_package(tmp_path: Path) -> None:
    pkg = tmp_path / "syn"
    _write(pkg, {
        "__init__.py": "",
        "a.py": "_hidden = 1\nshown = 2\n",
        "b.py": "from syn.a import _hidden, shown\n",
        "c.py": "from syn import a\nx = a._hidden + a.shown\n",
        "d.py": "import syn.a as m\ndef f():\n    from syn.core import _impl\n    return m._hidden\n",
        "core/__init__.py": "from syn.core import _impl\nfrom . import _impl as again\n",
        "core/_impl.py": "from syn.core._codes import X\n",
        "core/_codes.py": "X = 1\n",
        "core/_k.pyx": "from syn.core import _impl\nfrom syn.a import _hidden\n",
        "e.py": "from syn.core._codes import X\nimport os\nos._exit\n",
        "f.py": "from syn.core import X\nfrom syn import core\ny = core.X\n",
    })
    found = private_imports(pkg, "syn")
    by_module = {p.split(":")[0] for p in found}
    assert by_module == {"syn.b", "syn.c", "syn.d", "syn.e", "syn.core._k"}, found
    assert any(p.startswith("syn.d: syn.core._impl ") for p in found), found  # a lazy import counts
    assert any(p.startswith("syn.d: syn.a._hidden ") for p in found), found   # through an alias
    assert any(p.startswith("syn.core._k: syn.a._hidden ") for p in found), found  # Cython too
    assert not any("os._exit" in p or "shown" in p for p in found), found


# --------------------------------------------------------------------------
# the tests themselves: shared helpers live in tests/helpers; no test module
# imports another, and tests/ is no package


def test_no_test_module_imports_another() -> None:
    tests = Path(__file__).resolve().parent
    assert not (tests / "__init__.py").exists(), "tests/ must not be a package (see tests/helpers/__init__.py)"
    own = {p.stem for p in tests.glob("*.py")}
    found = []
    for path in sorted([*tests.glob("*.py"), *(tests / "helpers").glob("*.py")]):
        for written, _names, level, line in _python_imports(path.read_text(encoding="utf-8"), str(path)):
            top = written.split(".")[0]
            if level == 0 and top in own:
                found.append(f"{path.relative_to(tests)}:{line} imports {written}")
    assert found == [], "a test module imports another (move what is shared to tests/helpers):\n" + "\n".join(found)

