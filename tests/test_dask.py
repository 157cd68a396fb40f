"""hkcore.dask: a summary computed partition by partition on Dask equals compare_many's, exactly.

The corpus is JSON-lines files of sampled hands (bonus tiles included, so the
136-tile presets refuse many), with bad lines and blank lines among them; the
expected summary is compare_many over the files' non-blank lines in order.
"""
from __future__ import annotations

import importlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

if os.environ.get("HKCORE_PURE_PYTHON") == "1":
    pytest.skip("HKCORE_PURE_PYTHON=1: hkcore.dask has nothing core-specific; the compiled-core run covers it",
                allow_module_level=True)
db = pytest.importorskip("dask.bag", reason='dask is not installed (pip install "hkcore[dask]")')
distributed = pytest.importorskip("distributed", reason='distributed is not installed (pip install "hkcore[dask]")')

import hkcore  # noqa: E402
from hkcore.dask import compare_bag, compare_files  # noqa: E402
from hkcore.errors import HkcoreError  # noqa: E402
from hkcore.preset import PresetError, load_preset  # noqa: E402
from hkcore.sample import sample  # noqa: E402
from hkcore.summary import ComparisonSummary, compare_many, summary_json  # noqa: E402

ALL = "all"
BAD = ['{"tiles": "123m"}', "not a hand", '{"tiles": 5}']
SIZES = (700, 350, 0, 950)  # hands per file: an empty file among them, uneven so misordered partials show


def _corpus(tmp: Path) -> tuple[list[Path], list[str]]:
    """JSON-lines files and, in order, their non-blank lines stripped (what compare_many is given)."""
    hands = [json.dumps(h) for h in sample(sum(SIZES), 7)]
    paths, lines, at = [], [], 0
    for k, size in enumerate(SIZES):
        part = hands[at:at + size]
        at += size
        if size:  # bad and blank lines inside each non-empty file, one at its very start
            part = [BAD[k % len(BAD)], *part[:size // 2], "", "   ", BAD[(k + 1) % len(BAD)], *part[size // 2:], ""]
        path = tmp / f"hands-{k}.jsonl"
        path.write_text("".join(line + "\n" for line in part), encoding="utf-8")
        paths.append(path)
        lines += [line.strip() for line in part if line.strip()]
    return paths, lines


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Path], list[str], ComparisonSummary]:
    paths, lines = _corpus(tmp_path_factory.mktemp("dask"))
    return paths, lines, compare_many(lines, ALL)


def _same(got: ComparisonSummary, want: ComparisonSummary) -> None:
    assert got == want
    assert summary_json(got) == summary_json(want)


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    """Two worker processes, one thread each, importing this hkcore (PYTHONPATH inherited)."""
    root = str(Path(hkcore.__file__).resolve().parent.parent)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as c:
            yield c


def test_workers_import_this_hkcore(client: distributed.Client) -> None:
    seen = client.run(lambda: (__import__("hkcore").__file__, os.getpid()))
    assert len(seen) == 2
    assert {f for f, _ in seen.values()} == {hkcore.__file__}
    assert os.getpid() not in {pid for _, pid in seen.values()}  # separate processes


def test_files_on_a_cluster(client: distributed.Client, corpus: tuple[list[Path], list[str], ComparisonSummary]
                            ) -> None:
    paths, lines, want = corpus
    assert want.hands == len(lines) == sum(SIZES) + 6 and want.unreadable >= 6
    assert any(f.examples for row in want.flips.values() for f in row.values())
    _same(compare_files(paths, ALL), want)  # one partition a file, the client used
    _same(compare_files(paths, ALL, blocksize=20_000, split_every=2), want)  # many partitions, a deep tree
    _same(compare_files(str(paths[0].parent / "hands-*.jsonl"), ALL), want)  # a glob, in name order


def test_bag_on_a_cluster(client: distributed.Client, corpus: tuple[list[Path], list[str], ComparisonSummary]
                          ) -> None:
    _, lines, want = corpus
    items = [json.loads(line) if line.startswith("{") else line for line in lines]  # dicts and text
    _same(compare_bag(db.from_sequence(items, npartitions=7), ALL), want)
    # a preset object (sent as its TOML), and two presets in the other order
    preset = load_preset("hk-classic")
    got = compare_bag(db.from_sequence(lines, npartitions=3), [preset, "bga-old-style"])
    _same(got, compare_many(lines, [preset, "bga-old-style"]))


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_default_schedulers(scheduler: str, corpus: tuple[list[Path], list[str], ComparisonSummary]) -> None:
    paths, lines, want = corpus
    _same(compare_files(paths, ALL, blocksize=30_000, scheduler=scheduler), want)
    few = lines[:300]
    _same(compare_bag(db.from_sequence(few, npartitions=5), None, scheduler=scheduler), compare_many(few))


def test_empty_input(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_text("\n  \n", encoding="utf-8")
    want = compare_many([], ALL)
    _same(compare_files([path], ALL, scheduler="sync"), want)
    _same(compare_bag(db.from_sequence([], npartitions=1), ALL, scheduler="sync"), want)


def test_errors_before_any_task() -> None:
    with pytest.raises(HkcoreError, match="expected a dask.bag.Bag"):
        compare_bag(["123m"], ALL)  # type: ignore[arg-type]
    bag = db.from_sequence(["x"])
    with pytest.raises(PresetError, match="same id"):
        compare_bag(bag, ["bga-old-style", "bga-old-style"])
    with pytest.raises(PresetError):
        compare_bag(bag, "no-such-preset")


def test_without_dask_one_line_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "hkcore.dask")
    monkeypatch.setitem(sys.modules, "dask.bag", None)  # import dask.bag fails
    with pytest.raises(ImportError, match=r'^hkcore.dask needs Dask: pip install "hkcore\[dask\]"$'):
        importlib.import_module("hkcore.dask")
