"""``hkscore simulate``: bots playing the same walls under several presets
(docs/simulation.md); summary.json and summary.md written to a folder.
``hkscore bots``: the bots there are to play with (docs/bots.md).
``hkscore arena``: one challenger bot against three champions (docs/bots.md, "The arena")."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from hkcore.cli.common import (
    bot_mixes,
    bot_time_limit,
    bot_time_limit_option,
    output_options,
    preset_list,
    print_json,
    said_preset_warnings,
)
from hkcore.errors import HkcoreError, shown


def _cmd_simulate(args: argparse.Namespace) -> int:
    from hkcore.reports.page import report_folder
    from hkcore.simulation import simulate, summary_markdown

    bots = bot_mixes(args.bots, "guard")
    if args.out is None and not args.json:
        raise HkcoreError("simulate: give --out DIR (summary.json and summary.md) or --json (the summary on stdout)")
    folder = report_folder(args.out, "--out") if args.out is not None else None
    refs = preset_list(args.preset) if args.preset else ["all"]
    said_preset_warnings(refs)
    summary = simulate(refs, bots, hands=args.hands, seed=args.seed, jobs=args.jobs,
                       bot_time_limit=bot_time_limit(args), base=args.base)
    _said_faults(summary)
    if args.json:
        print(summary.model_dump_json(indent=2))
    if folder is None:
        return 0
    written = []
    for name, text in (("summary.json", summary.model_dump_json(indent=2) + "\n"),
                       ("summary.md", summary_markdown(summary))):
        path = folder / name
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise HkcoreError(f"--out: cannot write {shown(str(path))}: {exc.strerror or exc}") from None
        written.append(path)
    print("\n".join(map(str, written)), file=sys.stderr if args.json else sys.stdout)
    mixes = len(summary.mixes) + 1
    print(f"hkscore: {summary.hands:,} walls x 4 rotations under {len(summary.presets)} preset"
          f"{'s' * (len(summary.presets) != 1)}" + (f", {mixes} mixes of bots" if mixes > 1 else ""), file=sys.stderr)
    return 0


def _said_faults(summary: Any) -> None:
    """A line on stderr for each preset's bot that faulted (a program's, falling back)."""
    from hkcore.simulation.markdown import faults

    for pid, name, n in faults(summary):
        print(f"hkscore: faults: {name} under {pid}: the program faulted in {n:,} seat-hands (the fallback bot "
              "played on; docs/bots.md)", file=sys.stderr)


def _described(factory: Any) -> str:
    """The first sentence of a bot factory's docstring (a class's, or a function's)."""
    doc = " ".join((getattr(factory, "__doc__", None) or "").replace("``", "").split())
    if not doc:
        return "(no description)"
    end = doc.find(". ")
    return doc if end < 0 else doc[:end + 1]


def _cmd_bots(args: argparse.Namespace) -> int:
    import importlib.metadata

    from hkcore.table.players.bots import ENTRY_POINT_GROUP, available_bots, builtin_bots

    builtin = builtin_bots()
    sources = {ep.name: f"entry point {ep.value}" for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    rows = [{"name": name, "source": "built in" if name in builtin else sources.get(name, "?"),
             "description": _described(factory)} for name, factory in available_bots().items()]
    if args.format == "json":
        print_json(rows)
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        source = "" if r["source"] == "built in" else f"  ({r['source']})"
        print(f"{r['name']:<{width}}  {r['description']}{source}")
    return 0


def bots_options(bt: argparse.ArgumentParser) -> None:
    """``hkscore bots``' arguments."""
    output_options(bt, 'a list of {"name", "source", "description"}')
    bt.set_defaults(func=_cmd_bots)


def simulate_options(sm: argparse.ArgumentParser) -> None:
    """``hkscore simulate``'s arguments."""
    sm.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in one (default all)")
    sm.add_argument("--bots", action="append",
                    help="one bot name for every seat, or four separated by commas (E,S,W,N; rotated through the "
                         "seats); default guard, the strongest built-in bot; cmd:PROGRAM ARGS, a program's bot. "
                         "Repeatable: each a mix of its own on the same walls, every difference shown under each")
    sm.add_argument("--base", metavar="PRESET",
                    help="the preset each other is compared with, by id (default the first given; presets of "
                         "another tile set compare with the first of theirs)")
    sm.add_argument("--hands", type=int, default=100, help="walls to play; each is 4 hands a preset (default 100)")
    sm.add_argument("--seed", type=int, default=0, help="the seed the walls and bots derive from (default 0)")
    sm.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    bot_time_limit_option(sm)
    sm.add_argument("--out", "-o", metavar="DIR", help="the folder to write into (made if missing)")
    sm.add_argument("--json", action="store_true", help="print the summary as JSON on stdout (--out may be left off)")
    sm.set_defaults(func=_cmd_simulate)


def _cmd_arena(args: argparse.Namespace) -> int:
    import json

    from hkcore.simulation import arena

    names = [b.strip() for b in args.bots.split(",")]
    if len(names) != 2 or not all(names):
        raise HkcoreError(f"--bots {shown(args.bots)}: two bot names, CHALLENGER,CHAMPION")
    said_preset_warnings([args.preset])
    result = arena(args.preset, names[0], names[1], walls=args.walls, seed=args.seed, jobs=args.jobs,
                   bot_time_limit=bot_time_limit(args))
    print(json.dumps(result.as_dict(), indent=2) if args.json else result.text())
    return 0


def arena_options(ar: argparse.ArgumentParser) -> None:
    """``hkscore arena``'s arguments."""
    from hkcore.simulation.strength import WALLS

    ar.add_argument("--preset", "-p", default="bga-old-style",
                    help="preset id or TOML path (default bga-old-style)")
    ar.add_argument("--bots", required=True, metavar="CHALLENGER,CHAMPION",
                    help="the challenger and the champion, each a bot name (hkscore bots lists them) or "
                         "cmd:PROGRAM ARGS, a program's bot")
    bot_time_limit_option(ar)
    ar.add_argument("--walls", type=int, default=WALLS,
                    help=f"duplicate walls, each played 4 times, the challenger in each seat (default {WALLS})")
    ar.add_argument("--seed", type=int, default=0, help="the seed the walls and bots derive from (default 0)")
    ar.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    ar.add_argument("--json", action="store_true", help="print the result as one JSON object")
    ar.set_defaults(func=_cmd_arena)


def _cmd_dataset(args: argparse.Namespace) -> int:
    import json
    import time

    from hkcore.table.learning.dataset import write_dataset

    started = time.perf_counter()
    manifest = write_dataset(args.out, args.preset, args.bots, args.hands, seed=args.seed, first=args.first,
                             chunk=args.chunk, tables=args.tables, jobs=args.jobs, force=args.force)
    took = time.perf_counter() - started
    if args.json:
        print(json.dumps(manifest, indent=1))
    print(f"{manifest['decisions']:,} decisions of {args.bots} in {args.hands:,} hands under {manifest['preset']} "
          f"(seed {args.seed}) -> {args.out}: {len(manifest['files'])} files and manifest.json, {took:.1f} s",
          file=sys.stderr)
    return 0


def dataset_options(ds: argparse.ArgumentParser) -> None:
    """``hkscore dataset``'s arguments."""
    ds.add_argument("--preset", "-p", default="bga-old-style", help="preset id or TOML path (default bga-old-style)")
    ds.add_argument("--bots", default="value", metavar="BOT",
                    help="the bot whose decisions are written, in every seat (default value; hkscore bots lists them)")
    ds.add_argument("--hands", type=int, required=True, help="hands (episodes) to play and write")
    ds.add_argument("--out", "-o", required=True, metavar="DIR", help="the folder to write (made if missing)")
    ds.add_argument("--seed", type=int, default=0, help="the seed the walls derive from (default 0)")
    ds.add_argument("--first", type=int, default=0, help="the first episode's number (default 0)")
    ds.add_argument("--chunk", type=int, default=100_000, help="decisions a file holds at most (default 100000)")
    ds.add_argument("--tables", type=int, default=64, help="tables played at once in each job (default 64)")
    ds.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    ds.add_argument("--force", action="store_true", help="write over the dataset a folder already holds")
    ds.add_argument("--json", action="store_true", help="print the manifest (what the files hold) as JSON")
    ds.set_defaults(func=_cmd_dataset)
