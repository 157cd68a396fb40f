"""``hkscore report``: many hands under several presets as a comparison
report, or a simulation (its summary.json, or ``--simulate``) as the rule
economics report (docs/comparison.md, docs/simulation.md)."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from typing import Any

from hkcore.cli.common import (
    bot_mixes,
    failures,
    jsonl_lines,
    output_options,
    preset_list,
    print_json,
    said_preset_warnings,
)
from hkcore.errors import HkcoreError, shown


def _counted(lines: Iterator[tuple[int, bytes]], source: str) -> Iterator[bytes]:
    """The lines, with a bar counting hands on stderr when stdin is read and stderr is a terminal
    (``jsonl_lines`` shows one by bytes for a file)."""
    if source != "-" or not sys.stderr.isatty():
        return (line for _, line in lines)
    from tqdm import tqdm

    return (line for _, line in tqdm(lines, unit=" hands", file=sys.stderr, leave=False))


def _cmd_report(args: argparse.Namespace) -> int:
    from hkcore.reports.comparison import write_report
    from hkcore.reports.page import report_folder, require_matplotlib
    from hkcore.summary import compare_many

    if simulation_report_wanted(args):
        return write_simulation_report_for(args)
    require_matplotlib()  # before reading any hand
    report_folder(args.out)
    refs = preset_list(args.preset) if args.preset else ["all"]
    presets = said_preset_warnings(refs, table=False)  # hands given: what holds only at a table is not said
    summary = compare_many(_counted(jsonl_lines(args.source, "source"), args.source), refs, jobs=args.jobs)
    written = write_report(summary, args.out, presets)
    if args.format == "json":
        print_json(summary.model_dump())
    else:
        print("\n".join(map(str, written)))
    return failures(summary.unreadable, summary.hands, "hands (under every preset)")


def simulation_report_wanted(args: argparse.Namespace) -> bool:
    """Whether ``hkscore report`` reports a simulation: ``--simulate``, or a
    FILE that is a simulation's summary.json; an ``HkcoreError`` for options that do not go together."""
    from hkcore.reports.simulation import is_simulation_summary

    given = [o for o, v in (("--bots", args.bots), ("--hands", args.hands), ("--seed", args.seed),
                            ("--base", args.base)) if v is not None]
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
    from hkcore.preset import Preset
    from hkcore.reports.page import report_folder, require_matplotlib
    from hkcore.reports.simulation import read_summary, write_simulation_report
    from hkcore.simulation import simulate

    require_matplotlib()  # before any hand is played
    report_folder(args.out)
    given: list[Preset] = []
    if args.simulate:
        bots = bot_mixes(args.bots, "simple")
        refs = preset_list(args.preset) if args.preset else ["all"]
        given = said_preset_warnings(refs)
        summary = simulate(refs, bots, hands=100 if args.hands is None else args.hands,
                           seed=0 if args.seed is None else args.seed, jobs=args.jobs, base=args.base)
    else:
        summary = read_summary(args.source)
        _said_summary_warnings(summary)
    written = write_simulation_report(summary, args.out, given)
    if args.format == "json":
        print_json(summary.model_dump(mode="json"))
    else:
        print("\n".join(map(str, written)))
    return 0


def _said_summary_warnings(summary: Any) -> None:
    """The warnings a simulation's summary.json keeps for its presets, on stderr as ``said_warnings`` says them."""
    for pid, p in summary.presets.items():
        for w in p.warnings:
            print(f"hkscore: warning: {pid}: {w}", file=sys.stderr)


def report_options(rp: argparse.ArgumentParser) -> None:
    """``hkscore report``'s arguments (a simulation's named as ``hkscore simulate`` names them)."""
    rp.add_argument("source", nargs="?", help="a JSON-lines file of hands (one hand a line: JSON or notation), "
                                              "- for stdin; or a simulation's summary.json (its report)")
    rp.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (the default)")
    rp.add_argument("--out", "-o", required=True, help="the folder to write the report into (made if missing)")
    rp.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    rp.add_argument("--simulate", action="store_true",
                    help="run a simulation (--preset, --bots, --hands, --seed, --jobs as hkscore simulate) and "
                         "write its report (no FILE)")
    rp.add_argument("--bots", action="append",
                    help="with --simulate: one bot name for every seat, or four separated by commas (default "
                         "simple); repeatable, each a mix of its own on the same walls")
    rp.add_argument("--base", metavar="PRESET",
                    help="with --simulate: the preset each other is compared with (default the first given)")
    rp.add_argument("--hands", type=int, help="with --simulate: walls to play (default 100)")
    rp.add_argument("--seed", type=int, help="with --simulate: the seed the walls and bots derive from (default 0)")
    output_options(rp, "summary.json's content instead of the paths written")
    rp.set_defaults(func=_cmd_report)
