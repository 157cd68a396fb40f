"""``hkscore play`` and ``hkscore replay``: hands played by built-in
policies (or a person at the terminal) and logs replayed (docs/table.md)."""
from __future__ import annotations

import argparse

import random
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import IO, Any

from hkcore.errors import HkcoreError
from hkcore.preset import builtin_ids
from hkcore.table.match import Match
from hkcore.table.policy import POLICIES, Policy, decision, policy
from hkcore.table.records import line, lines
from hkcore.table.replay import ReplayError, replay
from hkcore.table.wall import SEATS


def _human(inp: IO[str], out: IO[str]) -> Policy:
    """A person at the terminal: the view, the actions numbered, a number read."""
    def choose(prompt: Mapping[str, Any]) -> dict[str, Any]:
        v = prompt["view"]
        print(f"\n-- hand {v['hand']}, round {v['round']}, you are {v['seat']}; {v['live_left']} tiles left --", file=out)
        for s in SEATS:
            melds = " ".join(m["tiles"] or "(hidden kong)" for m in v["melds"][s])
            print(f"  {s}: pond {v['ponds'][s] or '-'}  sets {melds or '-'}  bonus {v['bonus'][s] or '-'}",
                  file=out)
        drawn = f"  drew {v['drawn']}" if v["drawn"] else ""
        print(f"  your tiles: {v['tiles']}{drawn}", file=out)
        if "tile" in prompt:
            print(f"  {prompt['from']} discarded {prompt['tile']}", file=out)
        for i, a in enumerate(prompt["actions"], 1):
            words = " ".join(str(a[k]) for k in ("kind", "tiles", "tile", "faan") if k in a)
            print(f"  {i}. {a['act']} {words}".rstrip(), file=out)
        while True:
            print(f"{prompt['phase']} - choose 1-{len(prompt['actions'])}: ", end="", file=out, flush=True)
            text = inp.readline()
            if not text:
                raise KeyboardInterrupt
            if text.strip().isdigit() and 1 <= int(text) <= len(prompt["actions"]):
                return decision(prompt, prompt["actions"][int(text) - 1])
            print(f"  not a number from 1 to {len(prompt['actions'])}", file=out)
    return choose


def play_hands(preset: str, seed: int, hands: int | None, choose: Callable[[str], Policy] | None,
               views: bool, rng: random.Random | None = None) -> Iterator[dict[str, Any]]:
    """The records of ``hands`` hands under ``preset`` (a whole match when
    None): matches from seeds ``seed``, ``seed + 1``, ...; a match cut short
    ends ``stopped``. ``choose`` gives each seat's policy; without it every
    seat plays uniformly random legal actions from ``rng`` (the ``random``
    policy's choices, made inside the engine)."""
    played = 0
    while True:
        m = Match(preset, seed=seed)
        seed += 1
        sent = 0
        while not m.over:
            if choose is None:
                assert rng is not None
                m.play_random(rng)
            else:
                for p in m.prompts(views):
                    m.submit(choose(p["seat"])(p))
                    break
            for r in m.log[sent:]:
                if r["event"] == "end_hand":
                    played += 1
                    if hands is not None and played >= hands and not m.over:
                        m.stop()  # drops the next hand's first records
                        break
            yield from m.log[sent:]
            sent = len(m.log)
        yield from m.log[sent:]
        if hands is None or played >= hands:
            return


def random_play(preset: str, seed: int, hands: int | None, rng: random.Random, out: IO[str]) -> tuple[int, int]:
    """``play_hands`` with every seat random, written to ``out`` a hand at a
    time as JSON lines: ``(hands played, hands won)``."""
    played = wins = 0
    while True:
        m = Match(preset, seed=seed)
        seed += 1
        while not m.over:
            t = m.table
            m.play_random(rng)
            played += 1
            end = t.log[-1] if t.log[-1]["event"] == "end_hand" else t.log[-2]
            wins += end["result"] == "win"
            out.write(lines(t.log, t.texts))
            if hands is not None and played >= hands and not m.over:
                out.write(lines(m.stop()))  # the next hand, dealt, is dropped
        if hands is None or played >= hands:
            return played, wins


def _cmd_play(args: argparse.Namespace) -> int:
    presets = builtin_ids() if args.preset == "all" else [args.preset]
    rng = random.Random(args.seed)
    bot = policy(args.policy, rng)
    human = _human(sys.stdin, sys.stderr) if args.human else None
    if args.human and args.human not in SEATS:
        raise HkcoreError(f"--human {args.human!r}: a seat (E, S, W or N)")

    def choose(seat: str) -> Policy:
        return human if human is not None and seat == args.human else bot

    hands = None if args.match else args.hands
    out = open(args.out, "w", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    try:
        wins = count = 0
        for preset in presets:
            if args.policy == "random" and human is None:
                n, w = random_play(preset, args.seed, hands, rng, out)
                count += n
                wins += w
                continue
            block: list[dict[str, Any]] = []
            for r in play_hands(preset, args.seed, hands, choose, views=True):
                block.append(r)
                if r["event"] == "end_hand":
                    count += 1
                    wins += r["result"] == "win"
                    out.write(lines(block))
                    block = []
            out.write(lines(block))
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"hkscore: {count} hand{'s' * (count != 1)} played ({wins} won, {count - wins} drawn)", file=sys.stderr)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    source = sys.stdin if args.log == "-" else open(args.log, encoding="utf-8")  # noqa: SIM115
    try:
        records = replay(source)
    except ReplayError as exc:
        print(f"hkscore: {exc}", file=sys.stderr)
        return 2 if exc.kind == "invalid" else 1
    finally:
        if source is not sys.stdin:
            source.close()
    if args.format == "json":
        sys.stdout.write("".join(line(r) + "\n" for r in records))
    hands = sum(r["event"] == "end_hand" for r in records)
    print(f"hkscore: {len(records)} records replayed ({hands} hand{'s' * (hands != 1)}): the log matches",
          file=sys.stderr)
    return 0


def add_table_commands(sub: Any) -> None:
    """The ``play`` and ``replay`` subcommands."""
    pl = sub.add_parser("play", help="play hands with built-in policies (or yourself: --human SEAT); the log as JSON lines")
    pl.add_argument("--preset", "-p", default="bga-old-style",
                    help="preset id or TOML text; 'all' plays each built-in (default bga-old-style)")
    pl.add_argument("--seed", type=int, default=0, help="the seed of the deal and of the random policy (default 0)")
    group = pl.add_mutually_exclusive_group()
    group.add_argument("--hands", type=int, default=1, help="how many hands (default 1)")
    group.add_argument("--match", action="store_true", help="play one whole match")
    pl.add_argument("--policy", choices=POLICIES, default="simple",
                    help="simple: the first win, else the discard leaving the fewest tiles away; random: a "
                         "seeded uniformly random legal action")
    pl.add_argument("--human", metavar="SEAT", help="you play this seat (E, S, W or N) at the terminal")
    pl.add_argument("--out", "-o", metavar="FILE", help="write the log here instead of stdout")
    pl.add_argument("--json", dest="format", action="store_const", const="json",
                    help="always JSON lines, one record each")
    pl.set_defaults(func=_cmd_play)

    rp = sub.add_parser("replay", help="replay a game log; exit 1 at the first difference")
    rp.add_argument("log", help="a JSON-lines game log, - for stdin")
    rp.add_argument("--json", dest="format", action="store_const", const="json",
                    help="print the engine's records as JSON lines (the log with its defaults filled)")
    rp.set_defaults(func=_cmd_replay)
