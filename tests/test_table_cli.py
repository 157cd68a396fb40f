"""``hkscore play`` and ``hkscore replay`` run for real (``python -m hkcore``
in a folder outside the source tree), and ``--human`` played through a
pseudo-terminal as a person would."""
from __future__ import annotations

import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from helpers import OUTSIDE

GAMES = Path(__file__).resolve().parent / "cases" / "games"
BUILTINS = ("bga-old-style", "hk-classic", "just-cards", "mistboard", "playingcards-io")
DECISIONS = ("discard", "chow", "pung", "kong", "win")


def env() -> dict[str, str]:
    """This environment, with PYTHONPATH made absolute (the command runs in another folder)."""
    out = dict(os.environ)
    if out.get("PYTHONPATH"):
        out["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in out["PYTHONPATH"].split(os.pathsep))
    return out


def hkscore(*argv: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hkcore", *argv], check=False, input=stdin, capture_output=True,
                          text=True,
                          timeout=120, cwd=OUTSIDE, env=env())


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def events(log: list[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [r for r in log if r["event"] == event]


def replays(text: str) -> subprocess.CompletedProcess[str]:
    done = hkscore("replay", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    return done


# --------------------------------------------------------------------------
# play


def test_play_all_plays_one_hand_under_each_builtin_and_replays() -> None:
    done = hkscore("play", "--preset", "all", "--seed", "1")
    assert done.returncode == 0, done.stderr
    log = records(done.stdout)
    starts = events(log, "start")
    assert [s["preset"] for s in starts] == list(BUILTINS)
    assert all(s["seed"] == 1 and s["hand"] == 1 for s in starts)
    assert len(events(log, "end_hand")) == 5
    # each preset's start: 144 tiles with bonus tiles, or 136 without
    for s in starts:
        dealt = "".join(s["hands"].values()) + s["live"] + s["dead"]
        tiles = 136 if s["preset"] in ("just-cards", "hk-classic") else 144
        assert sum(len(group) - 1 for group in re.findall(r"\d+[a-z]", dealt)) == tiles
    assert re.fullmatch(r"hkscore: 5 hands played \(\d won, \d drawn\)\n", done.stderr), done.stderr
    assert "records replayed (5 hands): the log matches" in replays(done.stdout).stderr


def test_play_hands_cuts_the_match_short() -> None:
    done = hkscore("play", "--hands", "3", "--seed", "2")
    assert done.returncode == 0, done.stderr
    log = records(done.stdout)
    # bga-old-style plays four rounds: three hands end it early
    assert len(events(log, "end_hand")) == 3
    assert [r["event"] for r in log[-2:]] == ["end_hand", "end_match"]
    assert log[-1]["reason"] == "stopped"
    assert [s["hand"] for s in events(log, "start")] == [1, 2, 3]
    replays(done.stdout)


def test_a_whole_mistboard_match_is_one_hand() -> None:
    done = hkscore("play", "-p", "mistboard", "--match", "--seed", "4")
    assert done.returncode == 0, done.stderr
    log = records(done.stdout)
    assert len(events(log, "end_hand")) == 1
    assert events(log, "end_hand")[0]["next"] is None
    assert log[-1]["event"] == "end_match" and log[-1]["reason"] == "hands"
    replays(done.stdout)


def test_a_whole_playingcards_io_match_is_sixteen_hands_the_deal_moving_every_hand() -> None:
    done = hkscore("play", "-p", "playingcards-io", "--match", "--seed", "1")
    assert done.returncode == 0, done.stderr
    log = records(done.stdout)
    starts = events(log, "start")
    assert len(events(log, "end_hand")) == 16
    assert log[-1]["event"] == "end_match" and log[-1]["reason"] == "hands"
    # dealer_stays = []: p1, p2, p3, p4 deal in turn; the round wind moves every 4 hands
    assert [s["seats"]["E"] for s in starts] == ["p1", "p2", "p3", "p4"] * 4
    assert [s["round"] for s in starts] == [w for w in "ESWN" for _ in range(4)]
    assert [s["hand"] for s in starts] == list(range(1, 17))
    # points start at 0 and every payment is zero-sum
    assert starts[0]["points"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert all(sum(e["delta"].values()) == 0 for e in events(log, "end_hand"))
    assert sorted(st["player"] for st in log[-1]["standings"]) == ["p1", "p2", "p3", "p4"]
    replays(done.stdout)


def test_the_random_policy_with_one_seed_writes_one_log() -> None:
    one = hkscore("play", "--policy", "random", "--seed", "5", "-p", "just-cards")
    two = hkscore("play", "--policy", "random", "--seed", "5", "-p", "just-cards")
    other = hkscore("play", "--policy", "random", "--seed", "6", "-p", "just-cards")
    assert one.returncode == two.returncode == other.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    assert one.stdout != other.stdout
    replays(one.stdout)


def test_play_out_writes_the_log_to_the_file_only(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    done = hkscore("play", "-p", "hk-classic", "--seed", "7", "--out", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert path.read_text(encoding="utf-8") == hkscore("play", "-p", "hk-classic", "--seed", "7").stdout
    replay = subprocess.run([sys.executable, "-m", "hkcore", "replay", str(path)], check=False, capture_output=True,
                            text=True,
                            timeout=120, cwd=OUTSIDE, env=env())
    assert replay.returncode == 0, replay.stderr


@pytest.mark.parametrize(("argv", "error"), [
    (["--human", "X"], "--human 'X'"),
    (["--hands", "0"], "--hands 0"),
    (["--seed", "-1"], "seed = -1"),
    (["-p", "no-such-table"], "no-such-table"),
])
def test_play_refuses_a_bad_option_in_one_line(argv: list[str], error: str) -> None:
    done = hkscore("play", *argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("hkscore: error: ") and error in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1


# --------------------------------------------------------------------------
# replay


def test_replay_a_hand_worked_log_from_a_file_and_from_stdin() -> None:
    path = GAMES / "example_bga.jsonl"
    done = hkscore("replay", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stderr == "hkscore: 14 records replayed (1 hand): the log matches\n"
    piped = hkscore("replay", "-", stdin=path.read_text(encoding="utf-8"))
    assert piped.returncode == 0, piped.stderr
    assert piped.stderr == done.stderr


def test_replay_json_prints_the_engine_records() -> None:
    text = (GAMES / "seeded_mistboard.jsonl").read_text(encoding="utf-8")
    given = records(text)
    assert "seed" in given[0] and "hands" not in given[0]  # the start gives only a seed
    done = hkscore("replay", "--json", "-", stdin=text)
    assert done.returncode == 0, done.stderr
    out = records(done.stdout)
    assert len(out) == len([r for r in given if r["event"] not in ("claim", "pass")])
    # the deal worked by hand in tests/cases/games/README.md (seed 2)
    assert out[0]["hands"] == {"E": "6778m5689p145s4z3f2g", "S": "145m4577p25s225z1f", "W": "122899m36p35s23z4f",
                               "N": "233589m288p1113z"}
    assert all(r["source"] in ("live", "replacement") for r in out if r["event"] == "draw")
    bad = hkscore("replay", "--json", "-", stdin=text.replace('"event":"exhausted"', '"event":"shuffle"'))
    assert bad.returncode == 2 and bad.stdout == ""


def test_replay_reports_the_first_difference_and_exits_1() -> None:
    lines = (GAMES / "example_bga.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[4]) == {"event": "draw", "seat": "W", "tile": "7z", "source": "live"}
    lines[4] = lines[4].replace('"7z"', '"9p"')  # W's draw: the wall's first live tile is 7z
    done = hkscore("replay", "-", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == "hkscore: line 5: tile: expected '9p', engine '7z'\n"


@pytest.mark.parametrize("case", json.loads((GAMES / "refused.json").read_text(encoding="utf-8")),
                         ids=lambda c: c["file"])
def test_replay_refuses_an_illegal_decision_and_exits_1(case: dict[str, Any]) -> None:
    done = hkscore("replay", str(GAMES / case["file"]))
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("hkscore: " + case["expect"]), done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_replay_exits_2_on_a_line_that_is_not_a_record() -> None:
    start = (GAMES / "example_bga.jsonl").read_text(encoding="utf-8").splitlines()[0]
    not_json = hkscore("replay", "-", stdin=start + "\n{not json\n")
    assert not_json.returncode == 2
    assert not_json.stderr.startswith("hkscore: line 2: not valid JSON"), not_json.stderr
    unknown = hkscore("replay", "-", stdin=start + '\n{"event":"shuffle","seat":"E"}\n')
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("hkscore: line 2: event = 'shuffle': not a known event"), unknown.stderr


def test_replay_a_missing_file_is_one_error_line() -> None:
    done = hkscore("replay", str(Path(OUTSIDE) / "no-such-hkcore-log.jsonl"))
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr


# --------------------------------------------------------------------------
# --human through a pseudo-terminal

PROMPT = re.compile(r"choose 1-(\d+): $")
ACTION = re.compile(r"^\s*(\d+)\. (.+)$", re.MULTILINE)


class Terminal:
    """A child process on a pseudo-terminal: what it wrote, and lines typed."""

    def __init__(self, argv: list[str]) -> None:
        master, slave = os.openpty()
        self.fd = master
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=OUTSIDE,
                                     env=env(), close_fds=True)
        os.close(slave)
        self.text = ""  # everything shown so far, \r removed

    def read_until_prompt(self, timeout: float = 60) -> str | None:
        """The screen since the last answer, up to a "choose" prompt; None once the program has ended."""
        start = len(self.text)
        deadline = time.monotonic() + timeout
        while not PROMPT.search(self.text[start:]):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no prompt within {timeout}s; the screen ends:\n{self.text[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                data = b""
            if not data:
                return None
            self.text += data.decode("utf-8", "replace").replace("\r", "")
        return self.text[start:]

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        try:
            code = self.proc.wait(timeout=60)
        finally:
            os.close(self.fd)
        return code


def logged(words: str) -> dict[str, Any] | None:
    """The log record a chosen action's words stand for (None for a pass)."""
    act, *rest = words.split()
    if act == "pass":
        return None
    if act == "win":
        return {"event": "win"}
    if act in ("concealed", "added", "exposed"):
        return {"event": "kong", "kind": act, "tiles": rest[1]}
    if act == "discard":
        return {"event": "discard", "tile": rest[0]}
    return {"event": act, "tiles": rest[0]}


def test_human_plays_a_seat_at_a_terminal(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    term = Terminal([sys.executable, "-m", "hkcore", "play", "--preset", "hk-classic", "--seed", "3",
                     "--human", "S", "--out", str(out)])
    typed: list[dict[str, Any] | None] = []
    try:
        screen = term.read_until_prompt()
        assert screen is not None, term.text
        assert "you are S" in screen and "your tiles:" in screen
        # a wrong answer first: it says so and asks again
        term.type("x")
        again = term.read_until_prompt()
        assert again is not None and "'x': give a number from 1 to" in again, term.text
        while screen is not None:
            actions = dict(ACTION.findall(screen))
            count = int(PROMPT.search(screen).group(1))  # type: ignore[union-attr]
            assert sorted(map(int, actions)) == list(range(1, count + 1)), screen
            typed.append(logged(actions[str(count)]))  # always the last action
            term.type(str(count))
            screen = term.read_until_prompt()
            assert len(typed) < 200, "the hand does not end"
    finally:
        code = term.close()
    assert code == 0, term.text
    assert re.search(r"hkscore: 1 hand played \(\d won, \d drawn\)", term.text), term.text[-500:]
    assert '{"event"' not in term.text  # the log goes to --out only
    assert "-- hand over" in term.text

    log = records(out.read_text(encoding="utf-8"))
    replays(out.read_text(encoding="utf-8"))
    mine = [{k: r[k] for k in want} for want, r in zip(
        [t for t in typed if t is not None],
        [r for r in log if r.get("seat") == "S" and r["event"] in DECISIONS])]
    chosen = [t for t in typed if t is not None]
    in_log = [r for r in log if r.get("seat") == "S" and r["event"] in DECISIONS]
    if len(chosen) == len(in_log) + 1:  # S's last claim lost to another seat's win on the same tile
        wins = events(log, "win")
        assert wins and wins[0]["seat"] != "S" and chosen[-1]["event"] in ("chow", "pung", "kong", "win")
        chosen.pop()
    assert len(chosen) == len(in_log)
    assert mine == chosen
    assert len(chosen) >= 5  # S played the hand: its turns are in the log
