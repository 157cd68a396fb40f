"""One reader of JSON-lines input (hkcore.lines): compressed files by their
suffix, the over-long-line rule, the same lines for every reader."""
from __future__ import annotations

import bz2
import gzip
import json
import lzma
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from hkcore.errors import HandError
from hkcore.lines import (
    LineSplitter,
    block_lines,
    check_compression,
    file_blocks,
    file_lines,
)
from hkcore.models import MAX_JSON

#: a hand tests/test_batch.py scores at 3 faan under hk-classic
HAND = json.dumps({"tiles": "123m456p234789s55z", "win_tile": "5z", "self_draw": True}).encode()
LONG = MAX_JSON + 2  # the head of an over-long line kept


def _split_in_pieces(data: bytes, size: int) -> list[tuple[int, bytes]]:
    splitter = LineSplitter()
    out = []
    for at in range(0, len(data), size):
        out += splitter.feed(data[at:at + size])
    return out + splitter.end()


def test_lines_numbered_stripped_blanks_left_out() -> None:
    data = b"a\n\n  b \r\n\t\nc"
    want = [(1, b"a"), (3, b"b"), (5, b"c")]  # blank lines 2 and 4 counted, not given
    assert block_lines(data) == want
    assert block_lines(data, first=10) == [(10, b"a"), (12, b"b"), (14, b"c")]
    for size in (1, 2, 3, 7, 100):
        assert _split_in_pieces(data, size) == want


def test_an_over_long_line_is_its_head_and_the_next_line_is_whole() -> None:
    data = b"x" * (MAX_JSON + 50) + b"\n" + b"z\n" + b"y" * (MAX_JSON + 1) + b"\n" + b"w" * (MAX_JSON + 9)
    want = [(1, b"x" * LONG), (2, b"z"), (3, b"y" * (MAX_JSON + 1)), (4, b"w" * LONG)]
    assert block_lines(data) == want
    for size in (1000, 4096, MAX_JSON, MAX_JSON + 3, 1 << 20):
        assert _split_in_pieces(data, size) == want


def test_a_splitter_holds_no_more_than_a_line_between_pieces() -> None:
    splitter = LineSplitter()
    for _ in range(100):  # 100 pieces of one 6.5 MB line: its head answered once, the rest skipped
        splitter.feed(b"q" * MAX_JSON)
        assert len(splitter._pending) <= MAX_JSON + 1
    assert splitter.feed(b"\nok\n") == [(2, b"ok")]


def _write(path: Path, data: bytes) -> Path:
    opener = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}.get(path.suffix)
    if opener is None:
        path.write_bytes(data)
    else:
        with opener(path, "wb") as f:
            f.write(data)
    return path


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".GZ"])
def test_compressed_files_read_as_their_lines(tmp_path: Path, suffix: str) -> None:
    data = HAND + b"\n\n" + b"123m\n" + b"x" * (MAX_JSON + 10) + b"\n" + HAND
    if suffix == ".GZ":
        path = tmp_path / "hands.jsonl.GZ"
        path.write_bytes(gzip.compress(data))
    else:
        path = _write(tmp_path / f"hands.jsonl{suffix}", data)
    want = [(1, HAND), (3, b"123m"), (4, b"x" * LONG), (5, HAND)]
    assert list(file_lines(str(path), "source")) == want
    blocks = list(file_blocks(str(path), "--jsonl", size=7))
    assert [line for first, block in blocks for line in block_lines(block, first)] == want


@pytest.mark.parametrize("name", ["hands.zip", "hands.jsonl.zst", "h.jsonl.lzma", "h.tgz", "h.jsonl.lz4"])
def test_other_compressions_are_refused_by_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(HAND + b"\n")  # refused by its name, before a byte is read
    with pytest.raises(HandError, match=r"^source: cannot read .*: its name says \w.*, which is not read; give the "
                                        r"lines uncompressed, or compressed as \.gz, \.bz2, \.xz$") as info:
        list(file_lines(str(path), "source"))
    assert info.value.field == "source"
    with pytest.raises(HandError, match=r"^paths: cannot read "):
        check_compression(str(path), "paths")
    assert check_compression("x.jsonl", "paths") is None and check_compression("x.GZ", "paths") == "gzip"


def test_a_broken_compressed_file_is_an_error_naming_it(tmp_path: Path) -> None:
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(b"not gzip at all\n")
    truncated = tmp_path / "cut.jsonl.gz"
    truncated.write_bytes(gzip.compress(HAND * 1000)[:200])
    for path in (broken, truncated):
        with pytest.raises(HandError, match=r"^--jsonl: cannot read .*(gz).*: (BadGzipFile|EOFError|error): "):
            list(file_lines(str(path), "--jsonl"))
        with pytest.raises(HandError, match=r"^--jsonl: cannot read "):
            list(file_blocks(str(path), "--jsonl"))
    with pytest.raises(HandError, match=r"^--jsonl: cannot read .*: No such file"):
        list(file_lines(str(tmp_path / "none.jsonl.gz"), "--jsonl"))


def _run(args: list[str]) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "hkcore.cli", *args], capture_output=True, timeout=120,
                          cwd=tempfile.gettempdir())  # outside the source tree: the installed package
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def test_the_command_line_reads_gz_as_the_plain_file(tmp_path: Path) -> None:
    data = HAND + b"\n" + b"123m\n\n" + HAND + b"\n"
    plain = _write(tmp_path / "hands.jsonl", data)
    packed = _write(tmp_path / "hands.jsonl.gz", data)
    answers = {}
    for path in (plain, packed):
        for command in (["score", "--jsonl", str(path), "-p", "hk-classic"],
                        ["score", "--jsonl", str(path), "-p", "hk-classic", "-j", "2"],
                        ["compare", "--jsonl", str(path), "-p", "hk-classic", "-p", "mistboard"]):
            code, out, err = _run(command)
            assert code == 1 and "1 of 3 lines failed" in err, (command, err)  # 123m alone, not 3 of 3
            answers.setdefault(tuple(command[0:1] + command[3:]), set()).add(out)
    for outs in answers.values():
        assert len(outs) == 1  # byte for byte the same from the .gz
    rows = [json.loads(line) for line in next(iter(answers[("score", "-p", "hk-classic")])).splitlines()]
    assert [r.get("faan") for r in rows] == [3, None, 3] and rows[1]["line"] == 2
    code, out, err = _run(["score", "--jsonl", str(tmp_path / "hands.zip"), "-p", "hk-classic"])
    assert code == 2 and out == "" and "hands.zip" in err and "which is not read" in err
    assert len(err.strip().splitlines()) == 1


def test_report_reads_gz(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    packed = _write(tmp_path / "hands.jsonl.gz", (HAND + b"\n") * 5 + b"123m\n")
    code, out, err = _run(["report", str(packed), "-p", "hk-classic", "--out", str(tmp_path / "r"), "--json"])
    summary = json.loads(out)
    assert code == 1  # one hand unreadable
    assert summary["hands"] == 6 and summary["unreadable"] == 1, err


def test_dask_reads_the_same_lines_and_refuses_the_same_files(tmp_path: Path) -> None:
    pytest.importorskip("dask")
    from hkcore.dask import compare_files
    from hkcore.summary import compare_many

    data = (HAND + b"\n") * 4 + b"123m\n\n" + b"x" * (MAX_JSON + 10) + b"\n"
    want = compare_many([line for _, line in block_lines(data)], ["hk-classic"])
    assert want.hands == 6 and want.unreadable == 2
    for suffix in ("", ".gz", ".bz2", ".xz"):
        path = _write(tmp_path / f"hands.jsonl{suffix}", data)
        assert compare_files(str(path), ["hk-classic"], scheduler="sync") == want
    zipped = tmp_path / "hands.jsonl.zip"
    zipped.write_bytes(b"")
    with pytest.raises(HandError, match=r"^paths: cannot read .*hands\.jsonl\.zip.*which is not read"):
        compare_files([str(tmp_path / "hands.jsonl"), str(zipped)], ["hk-classic"], scheduler="sync")
    with pytest.raises(HandError, match=r"which is not read"):
        compare_files(str(tmp_path / "*.zip"), ["hk-classic"], scheduler="sync")  # found by a glob
