"""hkcore.dask: a summary computed partition by partition on Dask equals compare_many's, exactly.

The corpus is JSON-lines files of sampled hands (bonus tiles included, so the
136-tile presets refuse many), with bad lines and blank lines among them; the
expected summary is compare_many over the files' non-blank lines in order.
"""
from __future__ import annotations

import importlib
import importlib.util
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
from helpers.cluster import local_client  # noqa: E402
from hkcore.dask import compare_bag, compare_files, compare_frame  # noqa: E402
from hkcore.errors import HkcoreError  # noqa: E402
from hkcore.preset import PresetError, load_preset  # noqa: E402
from hkcore.sample import sample  # noqa: E402
from hkcore.summary import ComparisonSummary, compare_many, summary_json  # noqa: E402

pytestmark = pytest.mark.io

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
    with local_client() as c:
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


GREEN_HOUSE = 'id = "green"\nextends = "hk-classic"\n[patterns]\nall_green = { limit = 13 }'


def test_plugins_given_to_register_plugin_travel(client: distributed.Client) -> None:
    from hkcore.patterns import Pattern, tile_mask

    green = tile_mask("23468s6z")

    class Green:  # defined here: Dask sends it by value
        @hkcore.hookimpl
        def hkcore_patterns(self) -> list[Pattern]:
            return [Pattern("all_green", "All Green", "綠一色", lambda s, options: int(s.only(green)))]

    plugin = Green()
    hkcore.register_plugin(plugin, "green-dask")
    try:
        house = load_preset(GREEN_HOUSE)
        # all green, self-drawn: the limit, 13 (docs/house-rules.md); four chows self-drawn: 3, all_green not met
        lines = ["234234666888s66z win:6z self-draw", "123m456p234789s55z win:5z self-draw"] * 40
        got = compare_bag(db.from_sequence(lines, npartitions=4), [house, "hk-classic"])
    finally:
        hkcore.unregister_plugin(plugin)
    assert got.presets["green"].pattern_counts["all_green"] == got.presets["green"].limit == 40
    assert got.presets["green"].faan_histogram == {"13": 40, "3": 40}
    # the workers' own registries were not changed
    assert set(client.run(lambda: __import__("hkcore").registry.current().extra).values()) == {()}


def _frames() -> tuple[object, object, object]:
    dd = pytest.importorskip("dask.dataframe", reason='Dask\'s dataframe is not installed (pip install "hkcore[dask]")')
    pa = pytest.importorskip("pyarrow", reason='pyarrow is not installed (pip install "hkcore[dask]")')
    pq = pytest.importorskip("pyarrow.parquet")
    return dd, pa, pq


def test_parquet_on_a_cluster(client: distributed.Client, corpus: tuple[list[Path], list[str], ComparisonSummary],
                              tmp_path: Path) -> None:
    dd, pa, pq = _frames()
    _, lines, want = corpus
    # a text column (JSON and the bad lines), in two files of several row groups, another column beside it
    half = len(lines) // 2
    for k, part in enumerate((lines[:half], lines[half:])):
        table = pa.table({"id": list(range(len(part))), "hand": part})  # type: ignore[attr-defined]
        pq.write_table(table, tmp_path / f"text-{k}.parquet", row_group_size=300)  # type: ignore[attr-defined]
    frame = dd.read_parquet(str(tmp_path / "text-*.parquet"), split_row_groups=True)  # type: ignore[attr-defined]
    assert frame.npartitions > 2
    _same(compare_frame(frame, ALL), want)
    _same(compare_frame(frame["hand"], ALL, split_every=2), want)  # a series
    # a struct column: RULES.md hand objects as Parquet stores them (a field a row lacks is null)
    hands = [h for h in (json.loads(line) for line in lines if line.startswith("{")) if "melds" in h]
    assert len(hands) > 1000 and any("discarder" not in h for h in hands) and any("discarder" in h for h in hands)
    table = pa.Table.from_pylist([{"hand": h} for h in hands])  # type: ignore[attr-defined]
    pq.write_table(table, tmp_path / "struct.parquet", row_group_size=400)  # type: ignore[attr-defined]
    frame = dd.read_parquet(str(tmp_path / "struct.parquet"), split_row_groups=True)  # type: ignore[attr-defined]
    _same(compare_frame(frame, ALL), compare_many(hands, ALL))


def test_frame_nulls_and_errors() -> None:
    dd, _, _ = _frames()
    import pandas as pd

    rows = [None, float("nan"), pd.NA, "123m", "123m456p789s11z222z win:2z"]
    series = dd.from_pandas(pd.Series(rows, dtype=object), npartitions=2)  # type: ignore[attr-defined]
    got = compare_frame(series, ALL, scheduler="sync")
    assert got.hands == 5 and got.unreadable == 4  # the nulls and a four-tile hand
    assert got == compare_many([None, None, None, "123m", "123m456p789s11z222z win:2z"], ALL)
    frame = series.to_frame(name="hand")
    with pytest.raises(HkcoreError, match=r"column: no column 'tiles'; the frame has \['hand'\]"):
        compare_frame(frame, ALL, column="tiles")
    with pytest.raises(HkcoreError, match=r"frame: expected a dask\.dataframe\.DataFrame or Series"):
        compare_frame(rows, ALL)


@pytest.mark.parametrize("scheduler", ["sync", "threads"])
def test_default_schedulers(scheduler: str, corpus: tuple[list[Path], list[str], ComparisonSummary]) -> None:
    paths, lines, want = corpus
    _same(compare_files(paths, ALL, blocksize=30_000, scheduler=scheduler), want)
    few = lines[:300]
    _same(compare_bag(db.from_sequence(few, npartitions=5), None, scheduler=scheduler), compare_many(few))


def test_files_split_as_the_report_splits_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Lines with a carriage return inside, Windows line ends, lines of only non-ASCII white space or of a
    control character, bytes that are not UTF-8 and an over-long line: read as `hkscore report` reads them."""
    pytest.importorskip("matplotlib", reason='the report needs matplotlib (pip install "hkcore[report]")')
    from hkcore.cli import main

    hands = [json.dumps(h).encode() for h in sample(12, 5)]
    raw = (b"\n".join(hands[:4]) + b"\n" + hands[4][:15] + b"\r" + hands[4][15:] + b"\n\xe3\x80\x80\n\x1c\n"
           + b"\xff\xfe\n" + b"x" * 70_000 + b"\n" + b"\r\n".join(hands[5:]) + b"\r\n")
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(raw)
    assert main(["report", str(path), "--preset", "all", "--out", str(tmp_path / "out"), "--json"]) == 1
    want = json.loads(capsys.readouterr().out)
    # 12 hands (one with a \r inside), then unreadable: the ideographic space, \x1c, the non-UTF-8 line, the long one
    assert want["hands"] == 16 and want["unreadable"] >= 4
    for blocksize in (None, 400):
        assert compare_files([path], ALL, blocksize=blocksize, scheduler="sync").model_dump() == want


def test_empty_input(tmp_path: Path) -> None:
    path = tmp_path / "blank.jsonl"
    path.write_text("\n  \n", encoding="utf-8")
    want = compare_many([], ALL)
    _same(compare_files([path], ALL, scheduler="sync"), want)
    _same(compare_bag(db.from_sequence([], npartitions=1), ALL, scheduler="sync"), want)


def test_errors_before_any_task() -> None:
    with pytest.raises(HkcoreError, match=r"expected a dask\.bag\.Bag"):
        compare_bag(["123m"], ALL)  # type: ignore[arg-type]
    bag = db.from_sequence(["x"])
    with pytest.raises(PresetError, match="same id"):
        compare_bag(bag, ["bga-old-style", "bga-old-style"])
    with pytest.raises(PresetError):
        compare_bag(bag, "no-such-preset")
    # a protocol no installed filesystem reads (s3:// needs s3fs, not a dependency)
    with pytest.raises(HkcoreError, match=r"paths: cannot read 'nosuchproto://bucket/x\.jsonl'"):
        compare_files("nosuchproto://bucket/x.jsonl", ALL)
    if importlib.util.find_spec("s3fs") is None:  # fsspec raises ImportError for a filesystem not installed
        with pytest.raises(HkcoreError, match=r"paths: cannot read 's3://bucket/x\.jsonl'.*s3fs"):
            compare_files("s3://bucket/x.jsonl", ALL)


def test_without_dask_one_line_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "hkcore.dask")
    monkeypatch.setitem(sys.modules, "dask.bag", None)  # import dask.bag fails
    with pytest.raises(ImportError, match=r'^hkcore.dask needs Dask: pip install "hkcore\[dask\]"$'):
        importlib.import_module("hkcore.dask")


def test_a_cluster_started_as_the_docs_say(corpus: tuple[list[Path], list[str], ComparisonSummary],
                                          tmp_path: Path) -> None:
    """docs/at-scale.md's commands, run as processes on loopback: `dask scheduler`, then
    `dask worker ADDRESS --nworkers 2 --nthreads 1`, then a Client by address."""
    import signal
    import socket
    import subprocess

    dask_cli = Path(sys.executable).parent / "dask"
    if not dask_cli.exists():
        pytest.skip(f"no dask command beside {sys.executable}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    root = str(Path(hkcore.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    started = []
    try:
        for cmd in ([str(dask_cli), "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                    [str(dask_cli), "worker", address, "--nworkers", "2", "--nthreads", "1", "--no-dashboard",
                     "--local-directory", str(tmp_path)]):
            started.append(subprocess.Popen(cmd, env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL, start_new_session=True))
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            pids = {pid for pid in client.run(os.getpid).values()}
            assert len(pids) == 2 and os.getpid() not in pids
            paths, _, want = corpus
            _same(compare_files(paths, ALL, blocksize=40_000), want)
    finally:
        for proc in reversed(started):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(started):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def test_the_docs_local_cluster_example(tmp_path: Path) -> None:
    """docs/at-scale.md's LocalCluster example, run as a script in a folder holding hands.jsonl: its
    report/summary.json is the summary `compare_many` gives of the same lines."""
    pytest.importorskip("matplotlib", reason='the example writes a report (pip install "hkcore[report]")')
    import subprocess

    doc = Path(__file__).resolve().parent.parent / "docs" / "at-scale.md"
    if not doc.is_file():
        pytest.skip("docs/ is not beside tests/")
    blocks = doc.read_text(encoding="utf-8").split("```python\n")[1:]
    script = next(b.split("```", 1)[0] for b in blocks if "LocalCluster(" in b)
    lines = [json.dumps(h) for h in sample(600, 21)]
    (tmp_path / "hands.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "run.py").write_text(script, encoding="utf-8")
    root = str(Path(hkcore.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
    proc = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = ComparisonSummary.model_validate_json((tmp_path / "report" / "summary.json").read_text(encoding="utf-8"))
    assert got == compare_many(lines, ALL) and got.hands == 600
    assert (tmp_path / "report" / "report.html").is_file()


def test_bad_files_and_blocksizes_are_errors_naming_them(tmp_path: Path) -> None:
    path = tmp_path / "one.jsonl"
    path.write_text("123m456p234789s55z win:5z self-draw\n", encoding="utf-8")
    # a negative blocksize looped for ever in read_bytes; 0 divided by zero; a float was a TypeError
    for blocksize in (-1, 0, 1.5, True, "-1 kB", "0 B", "abc"):
        with pytest.raises(HkcoreError, match=r"^blocksize: expected a whole number of bytes .*, got "):
            compare_files([path], ALL, blocksize=blocksize, scheduler="sync")  # type: ignore[arg-type]
    for paths in (5, None, b"hands.jsonl", [path, 5]):
        with pytest.raises(HkcoreError, match=r"^paths: expected a path, a glob or a list of them, got "):
            compare_files(paths, ALL, scheduler="sync")  # type: ignore[arg-type]
    # found unreadable only when its partition is read (a folder, a broken gzip file): named as well
    broken = []
    for suffix in ("gz", "bz2", "xz", "lzma", "zip"):  # every compression read_bytes infers from a name
        broken.append(tmp_path / f"broken.jsonl.{suffix}")
        broken[-1].write_bytes(b"not compressed at all\n")
    for bad in (tmp_path, *broken):
        with pytest.raises(HkcoreError, match=r"^paths: cannot read "):
            compare_files([path, bad], ALL, scheduler="sync")
    assert compare_files([path], ALL, blocksize="1 kB", scheduler="sync").hands == 1


def test_bad_split_every_and_scheduler_are_errors_naming_them() -> None:
    bag = db.from_sequence(["123m456p234789s55z win:5z self-draw"] * 10, npartitions=5)
    # split_every=1 looped for ever building the tree; 0, -1 and text escaped as UnboundLocalError / TypeError
    for split_every in (1, 0, -1, 1.5, "x", True):
        with pytest.raises(HkcoreError, match=r"^split_every: expected a whole number 2 or more, got "):
            compare_bag(bag, ALL, split_every=split_every, scheduler="sync")  # type: ignore[arg-type]
    for scheduler in ("nonsense", 5):
        with pytest.raises(HkcoreError, match=r"^scheduler: "):
            compare_bag(bag, ALL, scheduler=scheduler)  # type: ignore[arg-type]
    assert compare_bag(bag, ALL, split_every=2, scheduler="sync").hands == 10


def test_a_simulation_on_a_cluster_is_the_process_pool_s(client: distributed.Client) -> None:
    from hkcore.dask import simulate as on_dask
    from hkcore.simulation import simulate

    presets = ["hk-classic", "just-cards", "mistboard"]
    want = simulate(presets, ["efficiency", "random", "random", "random"], hands=5, seed=9, first=3)
    for shards in (None, 1, 2, 5):   # however the walls are cut, the same summary
        got = on_dask(presets, ["efficiency", "random", "random", "random"], hands=5, seed=9, first=3, shards=shards)
        assert got == want and got.walls == [(3, 8)]
    assert on_dask(presets, "random", hands=0, seed=9).hands == 0
    # several mixes of bots and another base: the same summary as the process pool's
    mixes = [["efficiency", "random", "random", "random"], ["efficiency"]]
    want = simulate(presets, mixes, hands=3, seed=9, base="just-cards")
    assert on_dask(presets, mixes, hands=3, seed=9, base="just-cards", shards=2) == want
    assert len(want.mixes) == 1 and want.base == "just-cards"
    for kwargs, field in (({"hands": -1}, "hands"), ({"seed": "1"}, "seed"), ({"shards": 0}, "shards"),
                          ({"bots": "nobody"}, "nobody"), ({"base": "nobody"}, "base")):
        with pytest.raises(HkcoreError, match=field):
            on_dask(presets, **{"bots": "random", "hands": 2, "seed": 1, **kwargs})
