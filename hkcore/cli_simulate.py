"""``hkscore simulate``: bots playing the same walls under several presets
(docs/simulation.md); summary.json and summary.md written to a folder."""
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


def add_simulate_commands(sub: Any) -> None:
    """The ``simulate`` subcommand."""
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
