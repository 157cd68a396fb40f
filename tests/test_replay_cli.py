"""Logs under house presets from every writer of a start record, and ``hkscore replay`` read as a stream,
each through the real command (``python -m hkcore replay``); presets given to ``Table``, ``Match`` and
``Env`` as ``hkcore.score`` takes them."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from helpers import OUTSIDE
from helpers.command import environment, hkscore
from hkcore.errors import TableError
from hkcore.preset import load_preset
from hkcore.simulation import simulation_logs
from hkcore.table import Env, Match, Table
from hkcore.table.players import SimpleBot
from hkcore.table.replay import MAX_LINE

pytestmark = pytest.mark.io

GAMES = Path(__file__).resolve().parent / "cases" / "games"
#: a house preset with an id no built-in has, and rules bga-old-style does not play (a smaller match, a dead wall)
HOUSE = 'extends = "bga-old-style"\nid = "house"\n[table]\nrounds = false\nhands = 2\ndead_wall = 10\n'


def text_of(log: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in log)


def replays(log: list[dict[str, Any]]) -> None:
    """``hkscore replay -`` takes the log: exit 0, the log matches."""
    done = hkscore("replay", "-", stdin=text_of(log))
    assert done.returncode == 0, done.stderr
    assert "the log matches" in done.stderr


def names_house(record: dict[str, Any]) -> None:
    """A start record names the house preset so that it loads alone: its resolved TOML, no file, no id."""
    assert record["event"] == "start" and record["preset"] != "house"
    assert load_preset(record["preset"]) == load_preset(HOUSE)


# ------------------------------------------------------------------ every writer, a house preset


def test_a_match_given_a_house_preset_replays() -> None:
    m = Match(load_preset(HOUSE), seed=4)
    bot = SimpleBot(None, 0).decide
    while not m.over:
        m.submit(bot(m.prompts()[0]))
    starts = [r for r in m.log if r["event"] == "start"]
    assert len(starts) == 2  # hands = 2
    for r in starts:
        names_house(r)
    replays(m.log)


def test_a_table_given_a_house_preset_replays() -> None:
    t = Table({"event": "start", "seed": 6}, load_preset(HOUSE))
    bot = SimpleBot(None, 0).decide
    while not t.over:
        t.submit(bot(t.prompts()[0]))
    names_house(t.log[0])
    replays(t.log)


def test_an_env_episode_under_a_house_preset_replays() -> None:
    env = Env(load_preset(HOUSE), seed=1)
    obs = env.reset(seed=9)
    while not env.done:
        obs, _, _, _ = env.step({s: o.legal()[0] for s, o in obs.items()})
    names_house(env.table.log[0])
    replays(env.table.log)


def test_simulation_logs_under_house_presets_replay(tmp_path: Path) -> None:
    """A simulation's hands under a house preset given as a file path (as ``hkscore simulate -p`` takes
    it) and as a Preset: each log names the preset's whole TOML and replays."""
    path = tmp_path / "house.toml"
    path.write_text(HOUSE, encoding="utf-8")
    for given in (str(path), load_preset(HOUSE)):
        logs = [log for _, pid, _, _, log in simulation_logs([given], "simple", hands=1, seed=2)]
        assert len(logs) == 4  # one wall, four rotations
        for log in logs:
            names_house(log[0])
            replays(log)


# ------------------------------------------------------------------ a preset as hkcore.score takes it


def test_table_match_and_env_take_a_preset_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(HOUSE, encoding="utf-8")
    m = Match(str(path), seed=3)
    t = Table({"event": "start", "seed": 3}, str(path))
    env = Env(str(path))
    env.reset(seed=3)
    assert m.preset == t.preset == env.preset == load_preset(HOUSE)
    assert m.log[0]["preset"] == t.log[0]["preset"] == env.table.log[0]["preset"]  # the one writer
    names_house(m.log[0])
    assert Match("mistboard", seed=3).log[0]["preset"] == "mistboard"  # a built-in by its id
    assert Match(load_preset("mistboard"), seed=3).log[0]["preset"] == "mistboard"


@pytest.mark.parametrize("make", [lambda p: Match(p, seed=1), lambda p: Env(p),
                                  lambda p: Table({"event": "start", "seed": 1}, p)])
@pytest.mark.parametrize("value", [42, "", "no-such-preset", "./missing/club.toml", 'minimum = "x"\n'])
def test_a_bad_preset_names_the_field_and_what_is_accepted(make: Any, value: Any) -> None:
    """What is accepted is said of a value that is none of them; TOML text with an error in it is answered
    by the error, at its TOML path."""
    with pytest.raises(TableError) as info:
        make(value)
    message = str(info.value)
    assert info.value.field == "preset" and message.startswith(f"preset = {value!r}")
    accepted = "a preset id, a path to a preset file, TOML text, or a Preset from load_preset"
    if isinstance(value, str) and "=" in value:
        assert ": minimum: " in message and accepted not in message
    else:
        assert accepted in message


def test_a_start_record_still_never_names_a_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text(HOUSE, encoding="utf-8")
    with pytest.raises(TableError) as info:
        Table({"event": "start", "preset": str(path), "seed": 1})
    assert info.value.field == "start.preset"


# ------------------------------------------------------------------ hkscore replay


def test_nesting_deeper_than_it_reads_is_exit_2_in_one_line() -> None:
    done = hkscore("replay", "-", stdin="[" * 1000 + "\n")
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["hkscore: line 1: arrays and objects nested deeper than 32 levels"]
    deep = '{"event": "start", "preset": ' + "[" * 40 + "]" * 40 + "}\n"  # parsed, then refused the same way
    done = hkscore("replay", "-", stdin=deep)
    assert done.returncode == 2 and "line 1: arrays and objects nested deeper than 32 levels" in done.stderr


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_an_empty_log_is_exit_2(text: str) -> None:
    done = hkscore("replay", "-", stdin=text)
    assert done.returncode == 2 and "no start record" in done.stderr


def test_a_gzipped_log_is_read_as_score_jsonl_reads_one(tmp_path: Path) -> None:
    plain = GAMES / "claims_hk-classic.jsonl"
    path = tmp_path / "hand.jsonl.gz"
    path.write_bytes(gzip.compress(plain.read_bytes()))
    done = hkscore("replay", "--json", str(path))
    assert done.returncode == 0, done.stderr
    assert "6 records replayed (1 hand)" in done.stderr
    assert done.stdout == hkscore("replay", "--json", str(plain)).stdout != ""


def test_the_field_that_differs_is_named() -> None:
    """claims_hk-classic: W discards 7p, S and N both claim a win; N is nearer after W and wins (GAME.md's
    priority). A log whose win line names S, after both claims, differs in the seat."""
    lines = (GAMES / "claims_hk-classic.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[7])["seat"] == "N"
    changed = [*lines[:7], '{"event":"claim","seat":"N","act":"win"}', lines[7].replace('"seat":"N"', '"seat":"S"'),
               *lines[8:]]
    done = hkscore("replay", "-", stdin="\n".join(changed) + "\n")
    assert done.returncode == 1
    assert done.stderr.strip() == "hkscore: line 9: seat: expected 'S', engine 'N'"
    same = [*lines[:7], '{"event":"claim","seat":"N","act":"win"}', *lines[7:]]  # the same win, already decided
    assert hkscore("replay", "-", stdin="\n".join(same) + "\n").returncode == 0


def test_an_illegal_discard_says_why_and_which_tiles_may_go() -> None:
    """E is dealt 39m77p1245789s234z: a discard of 9p is of a tile E does not hold; 9z is no tile. In
    refused_swap_just-cards S chows 345s on E's 3s and may not discard 6s at once (the swap rule: the tile
    beyond the run's other end), nor 3s; what S holds else may go."""
    lines = (GAMES / "claims_hk-classic.jsonl").read_text(encoding="utf-8").splitlines()
    may = "E may discard 3m 9m 7p 1s 2s 4s 5s 7s 8s 9s 2z 3z 4z"
    for tile, why in (("9p", "E holds no 9p"), ("9z", "not a tile")):
        changed = [lines[0], lines[1].replace('"tile":"3m"', f'"tile":"{tile}"'), *lines[2:]]
        done = hkscore("replay", "-", stdin="\n".join(changed) + "\n")
        assert done.returncode == 1
        assert done.stderr.strip() == f"hkscore: line 2: discard: not legal for E: tile = '{tile}': {why}; {may}"
    done = hkscore("replay", str(GAMES / "refused_swap_just-cards.jsonl"))
    assert done.returncode == 1
    assert done.stderr.strip() == ("hkscore: line 4: discard: not legal for S: tile = '6s': S holds 6s but may not "
                                   "discard it now (the swap rule); S may discard 1m 4m 7m 2p 3p 5p 6p 8p 9p 1z")


# ------------------------------------------------------------------ read as a stream

#: a process run under this one, and its peak resident memory (KiB, Linux's ru_maxrss) and time
_PEAK = """
import json, resource, subprocess, sys, time
start = time.monotonic()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(json.dumps({"code": done.returncode, "err": done.stderr, "seconds": time.monotonic() - start,
                  "kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def peak(path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", _PEAK, sys.executable, "-m", "hkcore", "replay", str(path)],
                          check=True, capture_output=True, text=True, cwd=OUTSIDE, env=environment(), timeout=300)
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="peak memory read as Linux gives it")
def test_memory_is_bounded_by_a_line_not_by_the_file(tmp_path: Path) -> None:
    """A log whose first line is a start the engine refuses, then 24 MB of well-formed records, is refused
    at its first line without reading on; one line of 24 MB is refused by its length. Neither takes more
    memory than a log of two lines does, give or take 16 MiB."""
    bad_start = '{"event": "start", "preset": "no-such-preset", "seed": 1}\n'
    small = tmp_path / "small.jsonl"
    small.write_text(bad_start + '{"event": "draw", "seat": "E", "tile": "1m"}\n', encoding="utf-8")
    big = tmp_path / "big.jsonl"
    record = '{"event": "draw", "seat": "E", "tile": "1m", "source": "live"}\n'
    with big.open("w", encoding="utf-8") as f:
        f.write(bad_start)
        for _ in range(24):
            f.write(record * ((1 << 20) // len(record)))
    long = tmp_path / "long.jsonl"
    long.write_text('{"event": "start", "preset": "' + "a" * (24 << 20) + '"}\n', encoding="utf-8")
    base = peak(small)
    assert base["code"] == 2 and "line 1: start.preset = 'no-such-preset'" in base["err"]
    many = peak(big)
    assert many["code"] == 2 and many["err"] == base["err"]
    assert many["kib"] < base["kib"] + 16 * 1024, (many, base)
    assert many["seconds"] < base["seconds"] + 5  # the rest is never read
    one = peak(long)
    assert one["code"] == 2 and one["err"].strip() == f"hkscore: line 1: longer than {MAX_LINE} characters"
    assert one["kib"] < base["kib"] + 16 * 1024, (one, base)


def test_a_line_too_long_is_refused_by_its_number(tmp_path: Path) -> None:
    lines = (GAMES / "claims_hk-classic.jsonl").read_text(encoding="utf-8").splitlines()
    path = tmp_path / "long.jsonl"
    path.write_text("\n".join([*lines[:2], '{"event": "' + "x" * MAX_LINE + '"}', *lines[2:]]) + "\n",
                    encoding="utf-8")
    done = hkscore("replay", str(path))
    assert done.returncode == 2 and done.stderr.strip() == f"hkscore: line 3: longer than {MAX_LINE} characters"


def test_a_log_is_replayed_as_it_is_read() -> None:
    """The library's ``replayed`` yields each record once checked: a bad line after the first hand is
    not read before the hand's records are given."""
    from hkcore.table.replay import ReplayError, replayed
    lines = (GAMES / "claims_hk-classic.jsonl").read_text(encoding="utf-8").splitlines()
    got = []
    with pytest.raises(ReplayError) as info:
        for r in replayed(enumerate([*lines, "not json"], 1)):
            got.append(r["event"])
    assert got[-1] == "end_hand" and info.value.line == len(lines) + 1


def test_nesting_is_read_from_the_text_before_it_is_parsed() -> None:
    """The depth counts brackets outside strings only, and a too-deep line is refused as such whether or not it
    is also bad JSON (Python 3.12's parser fails on an unclosed line before it recurses deep)."""
    from hkcore.table.replay import MAX_DEPTH, ReplayError, _record

    inside = '{"event": "start", "note": "' + "[" * (MAX_DEPTH + 5) + '\\"{{{{"}'
    assert _record(1, inside) == {"event": "start", "note": "[" * (MAX_DEPTH + 5) + '"{{{{'}
    for text in ("[" * (MAX_DEPTH + 1), "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
                 '{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)):
        with pytest.raises(ReplayError, match=f"nested deeper than {MAX_DEPTH} levels"):
            _record(7, text)
    with pytest.raises(ReplayError, match="a record is a JSON object"):  # at the limit: parsed, then refused
        _record(2, "[" * MAX_DEPTH + "]" * MAX_DEPTH)
