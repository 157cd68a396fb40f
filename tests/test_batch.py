"""score_many and the JSON-lines command line: every hand answered, in order,
a bad hand's error in its place, the same on one process and on two."""
from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest

import hkcore
from hkcore.batch import score_many
from hkcore.cli import main
from hkcore.patterns import Pattern, Situation, tile_mask

#: hands, with what each is worth under hk-classic (RULES.md values, worked by hand)
HANDS: list[tuple[Any, int | str]] = [
    # four chows and a pair of white dragons, self-drawn, concealed: all_chows 1 + concealed 1 + self_draw 1
    ({"tiles": "123m456p234789s55z", "win_tile": "5z", "self_draw": True}, 3),
    ("123m456p234789s55z win:5z self-draw", 3),
    # the same on a discard: all_chows 1 + concealed 1
    ('{"tiles": "123m456p234789s55z", "win_tile": "5z", "discarder": "N"}', 2),
    # a pung of red dragons claimed: dragon_pung 1; nothing else (123m 456p 789s chows, pair 11z)
    ({"tiles": "123m456p789s11z", "melds": [{"kind": "pung", "tiles": "777z", "from": "S"}], "win_tile": "1z",
      "discarder": "S"}, 1),
    ({"tiles": "123m"}, "win_tile"),                        # no winning tile
    ("123m456p234789s55z win:5z from:E", "discarder"),      # the winner's own seat discarded
    (b'{"tiles": "123m456p234789s55z", "win_tile": "5z", "self_draw": true}', 3),
    (b"\xff\xfe", "hand"),                                  # not UTF-8
    ({"tiles": "123m456p234789s55z", "win_tile": "5z", "flowers": [1]}, "flowers"),  # no bonus tiles at hk-classic
]


def _answer(r: Any) -> int | str:
    if isinstance(r, hkcore.ScoreResult):
        return r.faan
    assert isinstance(r, hkcore.HkcoreError), r
    return getattr(r, "field", None) or str(r)


def test_every_hand_answered_in_order_errors_in_place() -> None:
    got = [_answer(r) for r in score_many([h for h, _ in HANDS], "hk-classic")]
    assert got == [want for _, want in HANDS]


def test_as_json_is_each_result_s_json() -> None:
    items = [h for h, _ in HANDS]
    for r, text in zip(score_many(items, "hk-classic"), score_many(items, "hk-classic", as_json=True)):
        if isinstance(r, hkcore.ScoreResult):
            assert text == r.to_json()
        else:
            data = json.loads(text)
            assert data["error"] == str(r) and data["type"] == type(r).__name__


def test_two_processes_answer_as_one(tmp_path: Path) -> None:
    items = [h for h, _ in HANDS] * 700  # more than one chunk
    one = list(score_many(items, "hk-classic", as_json=True))
    two = list(score_many(items, "hk-classic", jobs=2, as_json=True))
    assert one == two
    assert [_answer(r) for r in score_many(items[:len(HANDS)], "hk-classic", jobs=2)] == [w for _, w in HANDS]
    # an error from a worker is the error one process gives: type, message, field, value, errors()
    bad = [{"tiles": "123m456p789s11z", "melds": [{"kind": "pung", "tiles": "12m", "from": "S"}], "win_tile": "1z"},
           {"tiles": "123m"}, b"\xff\xfe", "123m456p234789s55z win:5z from:E", object(), lambda: 0,
           {"tiles": {1, 2}}]  # the last three unreadable here (not JSON), their values kept as they are
    for a, b in zip(score_many(bad, "hk-classic"), score_many(bad, "hk-classic", jobs=2), strict=True):
        assert isinstance(a, hkcore.HkcoreError) and type(a) is type(b)
        assert (str(a), a.field, a.value, a.errors()) == (str(b), b.field, b.value, b.errors())  # type: ignore
    # a custom preset by path and as a Preset object reach the workers too
    house = tmp_path / "house.toml"
    house.write_text('extends = "hk-classic"\nminimum = 2\n')
    preset = hkcore.load_preset(house)
    by_path = list(score_many(items[:50], str(house), jobs=2, as_json=True))
    by_object = list(score_many(items[:50], preset, jobs=2, as_json=True))
    assert by_path == by_object == list(score_many(items[:50], preset, as_json=True))


def test_bad_jobs_and_preset_fail_before_any_work() -> None:
    with pytest.raises(hkcore.HkcoreError, match="jobs"):
        list(score_many([], "hk-classic", jobs=0))
    with pytest.raises(hkcore.PresetError):
        list(score_many([], "no-such-preset"))


def _run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "hkcore.cli", *args], input=stdin, capture_output=True, timeout=120,
                          cwd=tempfile.gettempdir())  # outside the source tree: the installed package
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def _jsonl(tmp_path: Path) -> Path:
    path = tmp_path / "hands.jsonl"
    lines = []
    for hand, _ in HANDS:
        if isinstance(hand, bytes):
            lines.append(hand)
        elif isinstance(hand, str):
            lines.append(hand.encode())  # JSON text or notation, one per line
        else:
            lines.append(json.dumps(hand).encode())
    lines.insert(2, b"")  # blank lines are skipped, and still counted
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_jsonl(tmp_path: Path, jobs: str) -> None:
    code, out, err = _run(["score", "--jsonl", str(_jsonl(tmp_path)), "-p", "hk-classic", "--jobs", jobs])
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(HANDS)
    for row, (_, want) in zip(rows, HANDS):
        if isinstance(want, int):
            assert row["faan"] == want and row["preset"] == "hk-classic"
        else:
            assert row["field"] == want and "error" in row
    # line numbers count the blank line: the fifth hand is on line 6
    assert [row["line"] for row in rows if "line" in row] == [6, 7, 9, 10]
    assert code == 1 and "4 of 9 lines failed" in err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_jsonl_file_reads_as_stdin(tmp_path: Path, jobs: str) -> None:
    """A file is read in blocks of lines (workers take whole blocks); the
    answers, line numbers and counts are those of reading it line by line
    from stdin: blank lines, bad lines, an over-long line, no final newline."""
    path = _jsonl(tmp_path)
    over_long = b'{"tiles": "' + b"1m" * 40_000 + b'"}'
    path.write_bytes(path.read_bytes() + b"  \n" + over_long + b"\n123m456p234789s55z win:5z self-draw")
    by_file = _run(["score", "--jsonl", str(path), "-p", "hk-classic", "--jobs", jobs])
    by_line = _run(["score", "--jsonl", "-", "-p", "hk-classic"], stdin=path.read_bytes())
    assert by_file == by_line
    rows = [json.loads(line) for line in by_file[1].splitlines()]
    assert rows[-2]["line"] == 12 and "JSON of 65,538 characters" in rows[-2]["error"]
    assert rows[-1]["faan"] == 3 and "5 of 11 lines failed" in by_file[2]


def test_file_blocks_hold_whole_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from hkcore.cli import scoring as cli

    lines = [b"a" * n for n in (5, 0, 17, 3, 0, 0, 40, 1)]
    path = tmp_path / "x.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    monkeypatch.setattr(cli, "BLOCK", 7)
    blocks = list(cli._file_blocks(str(path)))
    assert b"".join(b for _, b in blocks) == path.read_bytes()
    assert all(b.endswith(b"\n") for _, b in blocks)
    number = 1
    for first, block in blocks:  # each block starts on the line its number says
        assert first == number
        number += block.count(b"\n")


def test_score_jsonl_from_stdin_all_good() -> None:
    lines = b'{"tiles": "123m456p234789s55z", "win_tile": "5z", "self_draw": true}\n' * 3
    code, out, err = _run(["score", "--jsonl", "-", "-p", "hk-classic"], stdin=lines)
    assert code == 0 and err == ""
    assert [json.loads(line)["faan"] for line in out.splitlines()] == [3, 3, 3]


def test_compare_jsonl_gives_every_preset(tmp_path: Path) -> None:
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps({"tiles": "123m456p234789s55z", "win_tile": "5z", "self_draw": True}) + "\n"
                    + json.dumps({"tiles": "123m"}) + "\n")
    code, out, _err = _run(["compare", "--jsonl", str(path), "-p", "hk-classic", "-p", "mistboard"])
    first, second = [json.loads(line) for line in out.splitlines()]
    # each preset in the order given, as compare --json
    assert [(c["preset"], set(c)) for c in first["presets"]] == [("hk-classic", {"preset", "result"}),
                                                                 ("mistboard", {"preset", "result"})]
    # all_chows 1 + concealed 1 + self_draw 1 = 3; mistboard adds no_bonus 1 to the same hand: 4
    assert [c["result"]["faan"] for c in first["presets"]] == [3, 4]
    assert second["line"] == 2 and second["field"] == "win_tile"
    assert code == 1


def test_jsonl_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--jsonl", "-", "-p", "hk-classic", "-p", "mistboard"]) == 2
    assert "one preset" in capsys.readouterr().err
    assert main(["score", "--jsonl", "/no/such/file.jsonl"]) == 2
    assert "cannot read" in capsys.readouterr().err


GREEN = tile_mask("23468s6z")
#: hk-classic with All Green as a 13-faan limit (docs/house-rules.md)
GREEN_HOUSE = 'id = "green"\nextends = "hk-classic"\n[patterns]\nall_green = { limit = 13 }'
#: (hand, faan under GREEN_HOUSE): all green and self-drawn, the limit; four chows self-drawn, 3 (HANDS above)
GREEN_HANDS = [("234234666888s66z win:6z self-draw", 13), ("123m456p234789s55z win:5z self-draw", 3)]


def _all_green(s: Situation, options: Any) -> int:
    return int(s.only(GREEN))


class GreenPlugin:
    @hkcore.hookimpl
    def hkcore_patterns(self) -> list[Pattern]:
        return [Pattern("all_green", "All Green", "綠一色", _all_green)]


@contextmanager
def _another_thread() -> Iterator[None]:
    """A second thread running, so that worker processes come from a fork
    server (they do not inherit this process's registry)."""
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        yield
    finally:
        stop.set()
        t.join()


def _forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker processes forked from this one, whatever threads earlier tests left running
    (a Dask cluster's, for one): what `batch.worker_context` picks in a single-threaded process."""
    monkeypatch.setattr("hkcore.batch.worker_context", lambda: multiprocessing.get_context("fork"))


@pytest.mark.parametrize("threads", [False, True], ids=["forked", "forkserver"])
def test_workers_see_plugins_given_to_register_plugin(threads: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not threads:
        _forked(monkeypatch)
    plugin = GreenPlugin()
    hkcore.register_plugin(plugin, "green-test")
    try:
        house = hkcore.load_preset(GREEN_HOUSE)
        hands = [h for h, _ in GREEN_HANDS] * 1500  # more than one chunk
        with _another_thread() if threads else nullcontext():
            two = list(score_many(hands, house, jobs=2))
            summary = hkcore.compare_many(hands, [house, "hk-classic"], jobs=2)
    finally:
        hkcore.unregister_plugin(plugin)
    assert [r.faan for r in two] == [f for _, f in GREEN_HANDS] * 1500
    assert ["all_green" in [p.id for p in r.patterns] for r in two[:2]] == [True, False]
    assert summary.presets["green"].pattern_counts["all_green"] == 1500
    assert summary.presets["green"].limit == 1500


def test_a_plugin_that_cannot_travel_is_named_before_any_work(monkeypatch: pytest.MonkeyPatch) -> None:
    class Local(GreenPlugin):  # defined in a function: pickle cannot find it again
        pass

    plugin = Local()
    hkcore.register_plugin(plugin, "local-green")
    try:
        house = hkcore.load_preset(GREEN_HOUSE)
        with _another_thread(), pytest.raises(hkcore.PluginError, match="plugin 'local-green' given to register_plugin "
                                                                       "cannot be sent to worker processes"):
            list(score_many([h for h, _ in GREEN_HANDS], house, jobs=2))
        # forked workers inherit it: no pickling needed
        _forked(monkeypatch)
        assert [r.faan for r in score_many([h for h, _ in GREEN_HANDS], house, jobs=2)] == [13, 3]
    finally:
        hkcore.unregister_plugin(plugin)


def _nested(depth: int) -> list[Any]:
    top: list[Any] = []
    inner = top
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return top


def test_a_hand_nested_too_deeply_for_json_is_its_error_on_two_processes_too() -> None:
    # json.dumps of such a hand (to send it to a worker) raises RecursionError: the hand is read here instead
    bad = [_nested(100_000), {"tiles": _nested(100_000)}]
    one = list(score_many(bad, "hk-classic"))
    two = list(score_many(bad, "hk-classic", jobs=2))
    assert all(isinstance(r, hkcore.HandError) for r in one + two)
    assert [(str(a), a.field) for a in one] == [(str(b), b.field) for b in two]  # type: ignore[union-attr]
    summary = hkcore.compare_many(bad, ["hk-classic", "mistboard"], jobs=2)
    assert (summary.hands, summary.unreadable) == (2, 2)
