"""``hkscore simulate``: bots playing the same walls under several presets
(docs/simulation.md); summary.json and summary.md written to a folder. And
``hkscore report`` of a simulation (its summary.json, or ``--simulate``):
the rule economics report. ``hkscore bots``: the bots there are to play
with (docs/bots.md)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from hkcore.errors import HkcoreError, shown


def _folder(out: str) -> Path:
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise HkcoreError(f"--out: {shown(out)} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HkcoreError(f"--out: cannot make the folder {shown(out)}: {exc.strerror or exc}") from None
    return folder


def _cmd_simulate(args: argparse.Namespace) -> int:
    from hkcore.cli_common import preset_list
    from hkcore.simulation import simulate, summary_markdown

    bots = [b.strip() for b in args.bots.split(",")]
    if len(bots) not in (1, 4):
        raise HkcoreError(f"--bots {shown(args.bots)}: one bot name for every seat, or four separated by commas")
    if args.out is None and not args.json:
        raise HkcoreError("simulate: give --out DIR (summary.json and summary.md) or --json (the summary on stdout)")
    folder = _folder(args.out) if args.out is not None else None
    refs = preset_list(args.preset) if args.preset else ["all"]
    summary = simulate(refs, bots, hands=args.hands, seed=args.seed, jobs=args.jobs)
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
    print(f"hkscore: {summary.hands:,} walls x 4 rotations under {len(summary.presets)} preset"
          f"{'s' * (len(summary.presets) != 1)}", file=sys.stderr)
    return 0


def _described(factory: Any) -> str:
    """The first sentence of a bot factory's docstring (a class's, or a function's)."""
    doc = " ".join((getattr(factory, "__doc__", None) or "").replace("``", "").split())
    if not doc:
        return "(no description)"
    end = doc.find(". ")
    return doc if end < 0 else doc[:end + 1]


def _cmd_bots(args: argparse.Namespace) -> int:
    import importlib.metadata

    from hkcore.cli_common import print_json
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


def add_simulate_commands(sub: Any) -> None:
    """The ``simulate`` and ``bots`` subcommands."""
    from hkcore.cli_common import output_options

    bt = sub.add_parser("bots", help="the bots there are to play with: built in and installed (entry points "
                                     "hkcore.bots), one line each")
    output_options(bt, 'a list of {"name", "source", "description"}')
    bt.set_defaults(func=_cmd_bots)

    sm = sub.add_parser("simulate", help="bots play the same walls under several presets (duplicate play); "
                                         "summary.json and summary.md")
    sm.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in one (default all)")
    sm.add_argument("--bots", default="simple",
                    help="one bot name for every seat, or four separated by commas (E,S,W,N; rotated through the "
                         "seats); default simple")
    sm.add_argument("--hands", type=int, default=100, help="walls to play; each is 4 hands a preset (default 100)")
    sm.add_argument("--seed", type=int, default=0, help="the seed the walls and bots derive from (default 0)")
    sm.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    sm.add_argument("--out", "-o", metavar="DIR", help="the folder to write into (made if missing)")
    sm.add_argument("--json", action="store_true", help="print the summary as JSON on stdout (--out may be left off)")
    sm.set_defaults(func=_cmd_simulate)


def add_simulation_options(rp: Any) -> None:
    """``hkscore report``'s options for a simulation's report (named as ``hkscore simulate`` names them)."""
    rp.add_argument("--simulate", action="store_true",
                    help="run a simulation (--preset, --bots, --hands, --seed, --jobs as hkscore simulate) and "
                         "write its report (no FILE)")
    rp.add_argument("--bots", help="with --simulate: one bot name for every seat, or four separated by commas "
                                   "(default simple)")
    rp.add_argument("--hands", type=int, help="with --simulate: walls to play (default 100)")
    rp.add_argument("--seed", type=int, help="with --simulate: the seed the walls and bots derive from (default 0)")


def simulation_report_wanted(args: argparse.Namespace) -> bool:
    """Whether ``hkscore report`` reports a simulation: ``--simulate``, or a
    FILE that is a simulation's summary.json; an ``HkcoreError`` for options that do not go together."""
    from hkcore.simulation_report import is_simulation_summary

    given = [o for o, v in (("--bots", args.bots), ("--hands", args.hands), ("--seed", args.seed)) if v is not None]
    if args.simulate:
        if args.source is not None:
            raise HkcoreError(f"report: --simulate runs the simulation; leave out FILE ({shown(args.source)})")
        return True
    if given:
        raise HkcoreError(f"report: {', '.join(given)} go with --simulate")
    if args.source is None:
        raise HkcoreError("report: give FILE (hands, or a simulation's summary.json) or --simulate")
    if args.source != "-" and is_simulation_summary(args.source):
        if args.preset:
            raise HkcoreError(f"report: {shown(args.source)} is a simulation's summary, which names its presets: "
                              "leave out --preset")
        return True
    return False


def write_simulation_report_for(args: argparse.Namespace) -> int:
    """``hkscore report`` of a simulation: read its summary.json or run it, then write the report."""
    from hkcore.cli_common import preset_list, print_json
    from hkcore.preset import Preset, load_preset
    from hkcore.report import report_folder, require_matplotlib
    from hkcore.simulation import simulate
    from hkcore.simulation_report import read_summary, write_simulation_report

    require_matplotlib()  # before any hand is played
    report_folder(args.out)
    given: list[Preset] = []
    if args.simulate:
        bots = [b.strip() for b in (args.bots or "simple").split(",")]
        if len(bots) not in (1, 4):
            raise HkcoreError(f"--bots {shown(args.bots)}: one bot name for every seat, or four separated by commas")
        refs = preset_list(args.preset) if args.preset else ["all"]
        summary = simulate(refs, bots, hands=100 if args.hands is None else args.hands,
                           seed=0 if args.seed is None else args.seed, jobs=args.jobs)
        from hkcore.preset import builtin_ids

        given = [load_preset(pid) for ref in refs for pid in (builtin_ids() if ref == "all" else [ref])]
    else:
        summary = read_summary(args.source)
    written = write_simulation_report(summary, args.out, given)
    if args.format == "json":
        print_json(summary.model_dump(mode="json"))
    else:
        print("\n".join(map(str, written)))
    return 0
