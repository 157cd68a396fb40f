"""``hkscore``'s commands in one list, the parser built from it, and ``main``."""
from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from hkcore.cli import hand, presets, report, scoring, serve, simulate, table
from hkcore.cli.common import LintWarning
from hkcore.errors import HkcoreError

# Each command imports what it uses when it runs, so that starting hkscore
# (and --help) stays quick.

#: every command of ``hkscore``, in the order ``hkscore --help`` lists them: its name, its line of help,
#: and the function that adds its arguments (and the function that runs it) to its parser
COMMANDS: tuple[tuple[str, str, Callable[[argparse.ArgumentParser], None]], ...] = (
    ("score", "score a hand under one or more presets", scoring.score_options),
    ("compare", "one hand under several presets, side by side", scoring.compare_options),
    ("waits", "tiles away, waits and their value for a hand in play", hand.waits_options),
    ("claims", "legal claims on a discard (chow, pung, kong, win) and which one gets it", hand.claims_options),
    ("decompose", "readings, tiles away and waits of a hand", hand.decompose_options),
    ("example", "print the example hand of docs/rules.md as JSON", scoring.example_options),
    ("presets", "list presets; show, export or diff them", presets.presets_options),
    ("plugins", "installed plugins, what each provides and any problem (exit 1 if any)", presets.plugins_options),
    ("schema", "JSON Schema of the data: a hand (default), a result, a preset...", presets.schema_options),
    ("sample", "random complete hands, one JSON line each (the same for the same seed)", scoring.sample_options),
    ("report", "many hands under several presets: summary.json, summary.md, report.html", report.report_options),
    ("serve", "the HTTP service (JSON API, /docs) and the scoring page at /", serve.serve_options),
    ("play", "play hands with bots (or yourself: --human SEAT); the log as JSON lines", table.play_options),
    ("replay", "replay a game log; exit 1 at the first difference", table.replay_options),
    ("bots", "the bots there are to play with: built in and installed (entry points hkcore.bots), one line each",
     simulate.bots_options),
    ("simulate", "bots play the same walls under several presets (duplicate play); summary.json and summary.md",
     simulate.simulate_options),
    ("arena", "one challenger bot against three champions on duplicate walls, with 95 % intervals by wall",
     simulate.arena_options),
    ("dataset", "a bot's decisions with what its seat saw, as numpy arrays for imitation (docs/training.md)",
     simulate.dataset_options),
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"hkscore: error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hkcore")
    except PackageNotFoundError:  # a source tree that was not installed
        return "unknown (not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hkscore``, one subcommand for each of ``COMMANDS``."""
    parser = _Parser(prog="hkscore", description="Hong Kong mahjong hands, scored under any ruleset.")
    parser.add_argument("--version", action="version", version=f"hkscore (hkcore) {_version()}")
    parser.add_argument("--no-warnings", action="store_true",
                        help="say no warnings (a preset's patterns that never or always hold, and the like)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, summary, options in COMMANDS:
        command = sub.add_parser(name, help=summary)
        # also after the command's name (set only when given: hkscore --no-warnings COMMAND holds too)
        command.add_argument("--no-warnings", action="store_true", default=argparse.SUPPRESS,
                             help="say no warnings (as hkscore --no-warnings)")
        options(command)
    return parser


def _intermixed(parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]) -> None:
    """Words after an option are more of the hand (``score 123m... win:2z -p hk-classic flowers:1``):
    a hand's notation words may sit anywhere among the options (and ``presets``' preset names, the list
    its ``intermixed`` default names); anything else is refused."""
    unknown = [w for w in extra if w.startswith("-") and w != "-"]
    words = getattr(args, getattr(args, "intermixed", "hand"), None)  # the list that takes more words
    if unknown or not isinstance(words, list):
        parser.error(f"unrecognized arguments: {' '.join(unknown or extra)}")
    words.extend(extra)


def _warning_line(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning as one line on stderr, like the errors (no source line)."""
    print(f"hkscore: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hkscore``; errors print one line and exit with status 2."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:
            _intermixed(parser, args, extra)
    except SystemExit as exc:  # --help, or a usage error already printed on one line
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    try:
        if getattr(args, "jobs", None) is not None:  # refused before any work, whatever else is given
            from hkcore.batch import check_jobs

            check_jobs(args.jobs)
        with warnings.catch_warnings():
            warnings.showwarning = _warning_line
            warnings.simplefilter("ignore" if args.no_warnings else "always", LintWarning)
            if args.no_warnings:  # and every other warning
                warnings.simplefilter("ignore")
            return int(args.func(args))
    except HkcoreError as exc:
        print(f"hkscore: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - output piped into head
        return 0
    except KeyboardInterrupt:  # Ctrl-C: one line, the shell's status for SIGINT
        print("hkscore: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - no traceback for the user; say what happened
        print(f"hkscore: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3

