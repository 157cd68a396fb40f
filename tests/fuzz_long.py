"""The long fuzz run: millions of hostile inputs, no escape allowed.

    python tests/fuzz_long.py --inputs 1000000 [--seed 1] [--service 20000]

``--service N`` adds the service area (tests/helpers/service_fuzz.py): N
hostile requests to a real ``hkscore serve`` on loopback, and bursts of slow
clients.

Plain ``random`` instead of Hypothesis, so that it makes thousands of inputs
a second: malformed notation, mutated hand JSON (as dicts and as text),
anything at all for the core functions, mutated built-in presets written as
TOML and loaded with ``root=``, JSON-lines input (plain, .gz, broken .gz) read
by ``hkcore.lines``, and a plugin answering out of contract. Every
call must return or raise an ``HkcoreError`` with a one-line message of
bounded length, within ``SLOW`` seconds. Prints a tally; exits 1 on the
first escape, printing the input. ``tests/test_fuzz.py`` is the bounded run
that CI makes.
"""
from __future__ import annotations

import argparse
import bz2
import gzip
import json
import lzma
import random
import sys
import tempfile
import time
import tomllib
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import tomli_w

import hkcore
from hkcore.errors import SHOWN
from hkcore.preset import _builtin_root as builtin_root  # the installed preset files, or presets/

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script: tests/ holds the helpers
from helpers.fuzzing import Faulty  # a plugin answering whatever Faulty.answer[0] holds

SLOW = 2.0
LONGEST = 12 * SHOWN + 400
PRESETS = hkcore.presets()

BASE_HANDS = [
    "234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N", "123m456p789s11122z win:2z self-draw",
    "19m19p19s12345677z win:7z", "123m456p789s1122z flowers:1234 seasons:123", "11123456789999m win:9m self-draw "
    "first-turn:deal", "123m456p22z [7777s] 9999s:N win:2z self-draw kong-replacement:2",
    "123m456p789s11122z win:3m robbing-kong from:N", "22z 1111m [2222p] 333s:W 444z:S win:2z",
    "123m456p789s11122z win:2z from:W seat:S round:N flowers:13 seasons:2 last-tile",
]
TOKENS = ["123m", "456p", "789s", "11z", "22z", "111z", "5555s", "[1111m]", "[123m]", "1111m:concealed",
          "777z:concealed", "666z:W", "777z:E", "567m:N",
          "123m:X", "666z:", "win:5z", "win:9f", "win:", "self-draw", "from:N", "from:E", "seat:S", "seat:Q",
          "round:W", "flowers:13", "flowers:55", "flowers:²", "seasons:2", "last-tile", "kong-replacement",
          "kong-replacement:9", "robbing-kong", "first-turn:deal", "first-turn:x", "SELF_DRAW", "🀄🀄🀄", "1f", "x",
          "::", "[]", "[1111m", "9999999999m", "0m", "½", "\x00", "\u202e", "x" * 300]
INTS = [-1, 0, 1, 2, 3, 4, 5, 8, 13, 14, 34, 99, 255, 256, 2**31 - 1, 2**31, 2**63, -(2**63), 10**5000]
STRINGS = ["", " ", "²", "٣", "\x00", "🀄", "🀢", "5z", "0m", "10m", "1111m", "E", "e", "self-draw", "win:", "[",
           "x" * 300, "1m" * 600, "null", "{}"]


def value(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(8 if depth < 2 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rnd.random() < 0.5
    if kind == 2:
        return rnd.choice(INTS)
    if kind == 3:
        return rnd.choice([1.5, -0.0, float("inf"), float("nan"), 1e308])
    if kind == 4:
        return rnd.choice(STRINGS)
    if kind == 5:
        return [value(rnd, depth + 1) for _ in range(rnd.randrange(6))]
    if kind == 6:
        return {rnd.choice(STRINGS + ["tiles", "kind", "from"]): value(rnd, depth + 1) for _ in range(rnd.randrange(4))}
    return "".join(rnd.choice("0123456789mpszfg[]:- ") for _ in range(rnd.randrange(20)))


def mutate(rnd: random.Random, data: Any, depth: int = 0) -> Any:
    if isinstance(data, dict) and data and depth < 3:
        out = dict(data)
        key = rnd.choice(sorted(out))
        action = rnd.randrange(4)
        if action == 0:
            out[key] = value(rnd)
        elif action == 1:
            del out[key]
        elif action == 2:
            out[rnd.choice(STRINGS)] = value(rnd)
        else:
            out[key] = mutate(rnd, out[key], depth + 1)
        return out
    if isinstance(data, list) and data and depth < 3:
        out_list = list(data)
        i = rnd.randrange(len(out_list))
        action = rnd.randrange(4)
        if action == 0:
            out_list[i] = value(rnd)
        elif action == 1:
            del out_list[i]
        elif action == 2:
            out_list.insert(i, out_list[i])
        else:
            out_list[i] = mutate(rnd, out_list[i], depth + 1)
        return out_list
    return value(rnd)


class Escape(Exception):
    pass


def _score_under(hand: Any, path: Path) -> Any:
    """The score of ``hand`` under the preset file at ``path`` (loaded anew)."""
    return hkcore.score(hand, hkcore.load_preset(path))


def check(kind: str, given: Any, f: Any, tally: Counter[str]) -> Any:
    start = time.perf_counter()
    try:
        result = f()
        tally[f"{kind}: accepted"] += 1
        return result
    except hkcore.HkcoreError as exc:
        message = str(exc)
        if not message or "\n" in message or len(message) > LONGEST:
            raise Escape(f"{kind}: a message of {len(message)} characters: {message[:500]!r}") from None
        tally[f"{kind}: {type(exc).__name__}"] += 1
    except Exception as exc:
        raise Escape(f"{kind}: {type(exc).__name__}: {str(exc)[:300]} for {hkcore.errors.shown(given)}") from exc
    finally:
        took = time.perf_counter() - start
        if took > SLOW:
            raise Escape(f"{kind}: {took:.2f} s for {hkcore.errors.shown(given)}")
    return None


def run(inputs: int, seed: int) -> Counter[str]:
    rnd = random.Random(seed)
    tally: Counter[str] = Counter()
    hands = [hkcore.Hand.parse(h) for h in BASE_HANDS]
    dicts = [json.loads(h.to_json()) for h in hands]
    presets = {pid: tomllib.loads((builtin_root() / f"{pid}.toml").read_text(encoding="utf-8")) for pid in PRESETS}
    folder = Path(tempfile.mkdtemp(prefix="hkcore-fuzz-"))
    hkcore.register_plugin(Faulty(), "faulty")
    (folder / "pattern.toml").write_text('extends = "bga-old-style"\n[patterns]\nfuzz_pattern = 1\n')
    (folder / "scheme.toml").write_text('extends = "hk-classic"\n[payments]\nscheme = "fuzz_scheme"\n')
    answers = [0, 1, True, -1, 65, 1.5, None, "x", 10**5000, {"E": 1}, {"E": 0, "S": 0, "W": 0, "N": 0},
               {"E": 3, "S": -1, "W": -1, "N": -1}, ZeroDivisionError("z"), RuntimeError("r" * 500)]
    done = 0
    while done < inputs:
        kind = rnd.randrange(100)
        preset = rnd.choice(PRESETS)
        if kind < 30:
            words = [rnd.choice(TOKENS) for _ in range(rnd.randrange(12))]
            text = " ".join(words)
            check("notation", text, partial(hkcore.score, text, preset), tally)
        elif kind < 60:
            data = rnd.choice(dicts)
            for _ in range(rnd.randrange(1, 4)):
                data = mutate(rnd, data)
            check("hand dict", data, partial(hkcore.score, data, preset), tally)
            try:
                text = json.dumps(data)
            except ValueError:
                text = "{}"
            check("hand JSON", text, partial(hkcore.score, text, preset), tally)
            done += 1
        elif kind < 67:
            lines_round(rnd, folder, tally)
        elif kind < 70:
            tiles = value(rnd)
            f = rnd.choice([hkcore.is_complete, hkcore.readings, hkcore.tiles_away, hkcore.waits])
            check("core", tiles, partial(f, tiles), tally)
        elif kind < 80:
            text = rnd.choice(BASE_HANDS).split(" win:")[0].split()[0]
            check("analyse", text, partial(hkcore.analyse, text[:-2] if len(text) % 3 == 2 else text, preset), tally)
        elif kind < 93:
            data = json.loads(json.dumps(presets[preset]))
            for _ in range(rnd.randrange(1, 4)):
                table = rnd.choice(["", "patterns", "payments", "claims"])
                target = data if not table else data.get(table)
                if isinstance(target, dict) and target:
                    key = rnd.choice(sorted(target) + ["extends", "unknown", "minimum", "cap"])
                    if rnd.random() < 0.3 and key in target:
                        del target[key]
                    else:
                        target[key] = value(rnd)
            try:
                body = tomli_w.dumps(data)
            except (TypeError, ValueError):
                continue
            path = folder / f"p{done % 64}.toml"
            path.write_text(body, encoding="utf-8")
            loaded = check("preset", body, partial(hkcore.load_preset, path, root=folder), tally)
            if loaded is not None:
                hand = rnd.choice(hands)
                result = check("score under a mutated preset", body, partial(hkcore.score, hand, loaded), tally)
                if result is not None and result.payments is not None and sum(result.payments.values()) != 0:
                    raise Escape(f"payments {result.payments} do not sum to zero under {body!r}")
        else:
            Faulty.answer[0] = rnd.choice(answers)
            where = rnd.choice(["pattern", "scheme"])
            hand = rnd.choice(hands)
            check(f"plugin {where}", Faulty.answer[0],
                  partial(_score_under, hand, folder / f"{where}.toml"), tally)
        done += 1
    return tally


def lines_round(rnd: random.Random, folder: Path, tally: Counter[str]) -> None:
    """JSON-lines input as ``hkcore.lines`` reads it: random lines (hands, junk, over-long ones, blank ones,
    CR LF), plain or compressed (or compressed and cut short): the file's lines are the bytes' lines."""
    from hkcore.lines import block_lines, file_blocks, file_lines

    parts = [rnd.choice([b"", b"  ", b"\r", rnd.choice(BASE_HANDS).encode(), rnd.randbytes(rnd.randrange(30)),
                         b"x" * rnd.choice([10, 65537, 65538, 70000])]) for _ in range(rnd.randrange(8))]
    data = b"\n".join(parts) + rnd.choice([b"", b"\n"])
    suffix = rnd.choice(["", ".gz", ".bz2", ".xz", ".zip"])
    path = folder / f"lines.jsonl{suffix}"
    packed = {"": lambda b: b, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
              ".zip": lambda b: b}[suffix](data)
    broken = suffix in (".gz", ".bz2", ".xz") and rnd.random() < 0.2
    path.write_bytes(packed[:rnd.randrange(len(packed) + 1)] if broken else packed)
    got = check("lines", data, lambda: list(file_lines(str(path), "source")), tally)
    blocks = check("lines in blocks", data, lambda: [line for first, block in file_blocks(str(path), "--jsonl", size=7)
                                                      for line in block_lines(block, first)], tally)
    if not broken and suffix != ".zip" and (got != block_lines(data) or blocks != got):
        raise Escape(f"lines: {suffix or 'plain'} file read as {got!r:.200}, not as its bytes {data!r:.200}")


def run_service(inputs: int, seed: int, slow_clients: int) -> Counter[str]:
    """The service area: ``inputs`` hostile requests to a real ``hkscore serve`` on loopback (head bound
    1 s), then ``slow_clients`` slow clients at once; the server alive and its memory bounded at the end."""
    from helpers.service_fuzz import Failure, service_round, slow_round
    from helpers.serving import server_process

    rnd = random.Random(seed)
    tally: Counter[str] = Counter()
    with server_process("--head-time-limit", "1") as (base, proc):
        rss = _rss(proc.pid)
        try:
            for i in range(inputs):
                service_round(base, rnd, tally)
                if i % 5000 == 4999:
                    slow_round(base, slow_clients, 1.0)
            slow_round(base, slow_clients, 1.0)
        except Failure as exc:
            raise Escape(f"service: {exc}") from None
        if proc.poll() is not None:
            raise Escape(f"service: the server stopped ({proc.returncode})")
        grown = _rss(proc.pid) - rss
        if grown > 300 << 20:
            raise Escape(f"service: the server grew by {grown >> 20} MB")
        tally["service: server memory grown (MB)"] = grown >> 20
    return tally


def run_interrupts(rounds: int, seed: int) -> Counter[str]:
    """The interrupt area: ``rounds`` long commands, each sent SIGINT at a random moment."""
    import importlib.util

    from helpers.interrupts import Interrupted, interrupt_round

    rnd = random.Random(seed)
    tally: Counter[str] = Counter()
    folder = Path(tempfile.mkdtemp(prefix="hkcore-interrupts-"))
    have_report = importlib.util.find_spec("matplotlib") is not None
    for _ in range(rounds):
        try:
            interrupt_round(rnd, folder, tally, have_report)
        except Interrupted as exc:
            raise Escape(f"interrupt: {exc}") from None
    return tally


def _rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--service", type=int, default=0, metavar="N",
                        help="also N hostile requests to a real hkscore serve on loopback (the service area)")
    parser.add_argument("--slow-clients", type=int, default=50, help="slow clients at once in the service area")
    parser.add_argument("--interrupts", type=int, default=0, metavar="N",
                        help="also N long hkscore commands interrupted by a Ctrl-C at a random moment")
    args = parser.parse_args()
    start = time.time()
    try:
        tally = run(args.inputs, args.seed)
        if args.service:
            tally += run_service(args.service, args.seed, args.slow_clients)
        if args.interrupts:
            tally += run_interrupts(args.interrupts, args.seed)
    except Escape as exc:
        print(f"ESCAPE: {exc}", file=sys.stderr)
        return 1
    took = time.time() - start
    for key, n in sorted(tally.items()):
        print(f"{n:>10,}  {key}")
    service = f" and {args.service:,} requests to the service" if args.service else ""
    print(f"{args.inputs:,} inputs{service} (seed {args.seed}) in {took:.0f} s, core {hkcore.core.IMPLEMENTATION}: "
          "no escape")
    return 0


if __name__ == "__main__":
    sys.exit(main())
