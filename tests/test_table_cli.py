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
from helpers.command import environment, hkscore

GAMES = Path(__file__).resolve().parent / "cases" / "games"
BUILTINS = ("bga-old-style", "hk-classic", "just-cards", "mistboard", "playingcards-io")
DECISIONS = ("discard", "chow", "pung", "kong", "win")


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
    # the one built-in warning that holds at a table (docs/house-rules.md, "Warnings"), then the count
    warned, played = done.stderr.splitlines()
    assert warned.startswith("hkscore: warning: mistboard: patterns.kong_on_kong: never-holds: "), warned
    assert re.fullmatch(r"hkscore: 5 hands played \(\d won, \d drawn\)", played), played
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
                            timeout=120, cwd=OUTSIDE, env=environment())
    assert replay.returncode == 0, replay.stderr


def test_play_bots_seats_any_registered_bot_as_simulate_takes_them() -> None:
    """``--bots`` names each seat's bot (E, S, W, N), or one for every seat; each is the registry's bot seeded
    with --seed plus its seat's place, so the log is the one those bots make answering the prompts."""
    from hkcore.table import Match
    from hkcore.table.players import make_bot

    names = ["value", "efficiency", "random", "simple"]
    done = hkscore("play", "-p", "hk-classic", "--seed", "4", "--hands", "2", "--bots", ",".join(names))
    assert done.returncode == 0, done.stderr
    replays(done.stdout)
    m = Match("hk-classic", seed=4)
    bots = {s: make_bot(n, m.preset, 4 + i) for i, (s, n) in enumerate(zip("ESWN", names))}
    while sum(r["event"] == "end_hand" for r in m.log) < 2:
        p = m.prompts()[0]
        m.submit(bots[p["seat"]].decide(p))
    m.stop()
    assert records(done.stdout) == m.log
    one = hkscore("play", "-p", "hk-classic", "--seed", "4", "--bots", "efficiency")
    four = hkscore("play", "-p", "hk-classic", "--seed", "4", "--bots", "efficiency,efficiency,efficiency,efficiency")
    assert one.returncode == four.returncode == 0 and one.stdout == four.stdout
    assert one.stdout != hkscore("play", "-p", "hk-classic", "--seed", "4").stdout  # not the simple policy
    # --policy keeps its old meaning beside --bots (one generator for every seat)
    assert hkscore("play", "--policy", "random", "--bots", "random").returncode == 2


@pytest.mark.parametrize(("argv", "error"), [
    (["--bots", "nobody"], "'nobody'"),
    (["--bots", "simple,random"], "--bots 'simple,random': one bot name for every seat, or four"),
])
def test_play_bots_refuses_what_is_not_a_bot_in_one_line(argv: list[str], error: str) -> None:
    done = hkscore("play", *argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("hkscore: error: ") and error in done.stderr, done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_play_takes_a_preset_file_as_score_does(tmp_path: Path) -> None:
    """``-p ./club.toml`` as score, compare, simulate and report take it: the hand is played under it (here a
    match of two hands, as the file says); a file that cannot be read is one line, exit 2."""
    club = tmp_path / "club.toml"
    club.write_text('extends = "hk-classic"\nid = "club"\nname = "Our club"\n[table]\nrounds = false\nhands = 2\n',
                    encoding="utf-8")
    done = hkscore("play", "-p", str(club), "--match", "--seed", "3")
    assert done.returncode == 0, done.stderr
    log = records(done.stdout)
    assert len(events(log, "end_hand")) == 2 and log[-1]["event"] == "end_match" and log[-1]["reason"] == "hands"
    assert "club" in json.dumps(log[0]["preset"])
    replays(done.stdout)
    fast = hkscore("play", "-p", str(club), "--policy", "random", "--hands", "2", "--seed", "3")  # its own loop
    assert fast.returncode == 0, fast.stderr
    assert len(events(records(fast.stdout), "end_hand")) == 2
    replays(fast.stdout)
    bad = tmp_path / "bad.toml"
    bad.write_text("id = \n", encoding="utf-8")
    for path in (bad, tmp_path / "missing.toml"):
        done = hkscore("play", "-p", str(path))
        assert done.returncode == 2 and done.stdout == "", done.stderr
        assert done.stderr.startswith("hkscore: error: ") and len(done.stderr.splitlines()) == 1, done.stderr


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
                                     env=environment(), close_fds=True)
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


# --------------------------------------------------------------------------
# --human: the seat's advice and the patterns' names


def _core_tiles(shown: str) -> list[Any]:
    from hkcore.tiles import parse_tiles

    return parse_tiles(shown.replace(" ", ""))


def _run_with(tiles: list[Any], t: Any) -> bool:
    """Whether two of ``tiles`` make a run (a chow) with the tile ``t`` (suits only)."""
    if t.code[1] == "z":
        return False
    n, suit = int(t.code[0]), t.code[1]
    have = {int(x.code[0]) for x in tiles if x.code[1] == suit}
    return any({a, b} <= have for a, b in ((n - 2, n - 1), (n - 1, n + 1), (n + 1, n + 2)))


def _follow_the_advice(screen: str) -> str:
    """A person's answer: a win when offered; else the first discard the advice lists; else the discard that
    leaves the fewest tiles away (the core's count); a pass on every claim."""
    from hkcore import core

    actions = {int(k): v for k, v in ACTION.findall(screen)}
    for k, words in actions.items():
        if words.startswith("win"):
            return str(k)
    advised = re.findall(r"^    discard (\S+): waits", screen, re.MULTILINE)
    if advised:
        return advised[0]
    discards = [(k, words.split()[1]) for k, words in actions.items() if words.startswith("discard ")]
    if not discards:
        return "1"
    held, melds = _mine(screen)

    def away(t: str) -> int:
        rest = list(held)
        rest.remove(_core_tiles(t)[0])
        return int(core.tiles_away(rest, melds))

    return str(min(discards, key=lambda kv: away(kv[1]))[0])


def _mine(screen: str) -> tuple[list[Any], tuple[str, ...]]:
    """S's concealed tiles (the drawn one among them) and declared sets, as the screen shows them."""
    shown = re.findall(r"your tiles: ([^\n]*)", screen)[-1]
    tiles, _, drawn = shown.partition("drew")
    sets = re.findall(r"^  S \(you\)\s+\d+ held  sets (.*?)  bonus", screen, re.MULTILINE)[-1]
    return _core_tiles(tiles + drawn), tuple(m for m in sets.split() if m != "-")


@pytest.mark.parametrize("seed", [2, 6])
def test_human_is_shown_the_seats_advice_and_the_patterns_names(tmp_path: Path, seed: int) -> None:
    """hk-classic, efficiency bots at E, W and N, a person at S who follows the advice: every screen says how
    far the hand is from waiting, as the core counts it; the discards advised leave the hand waiting on the
    tiles the core finds; a chow not offered says why; a win names its patterns as the registry does."""
    from hkcore import core
    from hkcore.registry import catalogue

    out = tmp_path / "game.jsonl"
    term = Terminal([sys.executable, "-m", "hkcore", "play", "-p", "hk-classic", "--seed", str(seed), "--human", "S",
                     "--bots", "efficiency", "--out", str(out)])
    screens: list[str] = []
    try:
        screen = term.read_until_prompt()
        while screen is not None:
            screens.append(screen)
            term.type(_follow_the_advice(screen))
            screen = term.read_until_prompt()
            assert len(screens) < 200, "the hand does not end"
    finally:
        code = term.close()
    assert code == 0, term.text
    replays(out.read_text(encoding="utf-8"))
    advised = waits_shown = 0
    for screen in screens:
        held, melds = _mine(screen)
        [said] = re.findall(r"^  advice: (.+)$", screen, re.MULTILINE)
        away = core.tiles_away(held, melds)
        assert said == ("complete" if away < 0 else f"{away} tile{'s' * (away != 1)} away" if away > 0 else
                        "a discard from waiting" if len(held) % 3 == 2 else "waiting"), screen
        for tile, waits in re.findall(r"^    discard (\S+): waits (.+)$", screen, re.MULTILINE):
            rest = list(held)
            rest.remove(_core_tiles(tile)[0])
            assert re.findall(r"(?:^|; )(\S+) \(\d+ unseen\)", waits) == [str(t) for t in core.waits(rest, melds)]
            advised += 1
        for tile in re.findall(r"^    wait (\S+) \(\d+ unseen\)", screen, re.MULTILINE):
            assert _core_tiles(tile)[0] in core.waits(held, melds), screen
            waits_shown += 1
    assert advised > 0
    text = term.text
    # what S may not claim, said after the discard: a chow (the discard came from W or N, not from E, the seat
    # before S, and two of S's tiles make a run with it), or a win on a wait worth less than hk-classic's 3 faan
    told = list(re.finditer(r"^  (\w): discards (\S+)\n((?:    not offered: .+\n)+)", text, re.MULTILINE))
    assert told and sum(m.group(3).count("\n") for m in told) == text.count("not offered: ")
    kinds = set()
    for m in told:
        seat, tile, lines = m.groups()
        before = text[:m.start()]
        held, melds = _mine(before[before.rindex("-- hand"):])
        for gone in re.findall(r"S \(you\): discards (\S+)", before[before.rindex("your tiles:"):]):
            held.remove(_core_tiles(gone)[0])
        for note in lines.splitlines():
            said, _, why = note.removeprefix("    not offered: ").partition(": ")
            assert said == tile
            if why == "a chow only from the seat before you":
                assert seat in ("W", "N") and _run_with(held, _core_tiles(tile)[0]), (held, tile)
            else:
                assert re.fullmatch(r"complete but [012] faan; hk-classic needs 3", why), note
                assert _core_tiles(tile)[0] in core.waits(held, melds)
            kinds.add(why.split()[0])
    assert "a" in kinds
    if seed == 6:
        assert waits_shown > 0  # S waiting in a claim window: each wait with its value
        assert "complete" in kinds
    if seed == 2:  # S wins: the patterns by their names, as the registry has them
        [win] = [r for r in records(out.read_text(encoding="utf-8")) if r["event"] == "win"]
        known = catalogue().patterns
        names = ", ".join(f"{known[p['id']].name_en} {p['faan']}" for p in win["patterns"])
        assert win["seat"] == "S" and f"S (you): WINS, self-drawn {win['tile']}: {win['faan']} faan ({names})" in text
        assert not any(p["id"] in text.split("WINS")[1].splitlines()[0] for p in win["patterns"])
