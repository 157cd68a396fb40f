"""The ``hkscore`` command line.

    hkscore example                        the example hand of docs/rules.md, as JSON
    hkscore score HAND --preset all        score a hand (JSON file, - for stdin, or notation)
    hkscore compare HAND [--preset P]      one hand under several presets, side by side
    hkscore waits HAND [--preset P]        a hand in play: tiles away, waits and their value
    hkscore presets [show|export ID]       the presets, everything one preset holds, or it resolved as TOML
    hkscore presets diff A B               every rule on which two presets differ
    hkscore plugins                        installed plugins, what each provides, any problem
    hkscore schema [MODEL]                 JSON Schema of the data (hand, meld, position, result,
                                           analysis, comparison, claim, preset, summary)
    hkscore decompose TILES                readings, tiles away and waits
    hkscore sample --n N --seed S          random complete hands, one JSON line each
    hkscore report FILE|- --out DIR        hands under several presets: summary.json, summary.md,
                                           report.html (FILE a simulation's summary.json: its report)
    hkscore report --simulate --out DIR    a simulation and its report (rule economics)
    hkscore serve [--port 8000]            the HTTP service and the scoring page (the server extra)

Every command takes ``--json``; the commands that print a table (compare,
waits, presets list/show/diff) take ``--format table|json|csv|markdown``.
Exit status: 0 done; 1 some preset, line or plugin failed, or the presets
differ (presets diff); 2 a usage or input error (one line on stderr); 3 an
internal error.
"""
from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from hkcore.cli_common import (
    EXAMPLE_HAND,
    error_entry,
    failures,
    jsonl_lines,
    jsonl_only,
    output_options,
    preset_list,
    print_json,
    print_rows,
    progress_bar,
    read_hand,
    run_jsonl,
    show,
)
from hkcore.cli_hand import add_hand_commands
from hkcore.cli_presets import add_preset_commands
from hkcore.cli_simulate import add_simulate_commands, add_simulation_options
from hkcore.cli_table import add_table_commands
from hkcore.errors import HkcoreError

if TYPE_CHECKING:
    from hkcore.preset import Preset
    from hkcore.results import ScoreResult

# Each command imports what it uses when it runs, so that starting hkscore
# (and --help) stays quick.


def render(result: ScoreResult, preset: Preset) -> str:
    """A scored hand as a person reads it."""
    lines = [f"{preset.id} ({preset.name})"]
    if result.reading:
        words = []
        for part in result.reading:
            note: str = "concealed kong" if part.kind == "kong" and part.concealed and part.declared else part.kind
            if part.winning:
                note += ", won"
            elif part.declared and not part.concealed:
                note += ", declared"
            words.append(f"{part.tiles} ({note})")
        lines.append("  reading   " + "  ".join(words))
    elif result.complete:
        lines.append("  reading   bonus-tile instant win")
    if result.patterns:
        lines.append("  patterns")
        width = max(len(p.id) + (4 if p.count > 1 else 0) for p in result.patterns)
        for p in result.patterns:
            label = p.id + (f" x{p.count}" if p.count > 1 else "")
            lines.append(f"    {p.faan:>3}  {label:<{width}}  {p.name_en} {p.name_zh}")
    cap = f", cap {preset.cap}" if preset.cap is not None else ""
    capped = f" (counted {result.uncapped}{cap})" if result.uncapped != result.faan else ""
    lines.append(f"  total     {result.faan} {result.unit}{capped}" + (" - limit hand" if result.limit else ""))
    if result.winnable:
        lines.append(f"  winnable  yes (minimum {preset.minimum})")
    else:
        lines.append(f"  winnable  no: {result.reason}")
    if result.payments is not None:
        lines.append("  payments  " + "  ".join(f"{s} {v:+d}" for s, v in result.payments.items()))
    elif preset.payments is None:
        lines.append("  payments  none at this table")
    if result.payments_note:
        # the command line's hands are notation: name its token, beside the JSON field
        note = result.payments_note.replace("give 'discarder'", "give from:SEAT (\"discarder\" in JSON)")
        lines.append(f"            ({note})")
    return "\n".join(lines)


def _file_blocks(path: str) -> Iterator[tuple[int, bytes]]:
    """A JSON-lines file in blocks of whole lines, each with the number of its
    first line (``hkcore.lines.file_blocks``); a progress bar on stderr on a terminal."""
    from hkcore.lines import file_blocks

    with progress_bar(path) as progress:
        yield from file_blocks(path, "--jsonl", progress, BLOCK)


#: bytes of a JSON-lines file read at a time by ``score --jsonl FILE``
BLOCK = 1 << 20


def _score_file(path: str, preset: str, jobs: int) -> int:
    """``score --jsonl FILE``: the file in blocks, answers written as they come."""
    from hkcore.batch import write_blocks

    sys.stdout.flush()
    total, failed = write_blocks(_file_blocks(path), sys.stdout.buffer, preset, jobs=jobs)
    return failures(failed, total, "lines")


def _cmd_score(args: argparse.Namespace) -> int:
    from hkcore.engine import score
    from hkcore.notation import format_hand, unicode_hand
    from hkcore.preset import load_preset
    ids = preset_list(args.preset)
    if args.jsonl is not None:
        jsonl_only(args, "score")
        if len(ids) != 1:
            raise HkcoreError("score --jsonl: give one preset (hkscore compare --jsonl scores under several)")
        if args.jsonl != "-":
            return _score_file(args.jsonl, ids[0], args.jobs)
        from hkcore.batch import score_many

        return run_jsonl(jsonl_lines(args.jsonl), lambda lines: (
            (text, text.startswith('{"error"')) for text in score_many(lines, ids[0], jobs=args.jobs, as_json=True)))
    if not args.hand:
        raise HkcoreError("score: give a hand (a JSON file, - for stdin, or notation) or --jsonl FILE")
    hand = read_hand(args.hand)
    results: list[dict[str, Any]] = []
    blocks = [f"hand  {format_hand(hand)}\n      {unicode_hand(hand)}"]
    failed = 0
    for ref in ids:
        preset = load_preset(ref)
        try:
            result = score(hand, preset)
        except HkcoreError as exc:
            if len(ids) == 1:
                raise
            failed += 1
            results.append(error_entry(preset.id, exc))
            blocks.append(f"{preset.id} ({preset.name})\n  error     {exc}")
            continue
        results.append(result.model_dump())
        blocks.append(render(result, preset))
    if args.format == "json":
        print_json(results)  # always a list, one entry per preset, in the order given
    elif args.format in (None, "table"):
        print("\n\n".join(blocks))
    else:
        print_rows(_score_rows(results), args.format)
    return failures(failed, len(ids), "presets")


def _score_rows(results: list[dict[str, Any]]) -> list[list[Any]]:
    """``score --format csv|markdown``: a header, then one row per preset (an error in its place)."""
    rows: list[list[Any]] = [["preset", "total", "unit", "uncapped", "limit", "winnable", "patterns", "payments",
                              "reason"]]
    for r in results:
        if "error" in r:
            rows.append([r["preset"], None, None, None, None, None, None, None, f"error: {r['error']}"])
            continue
        patterns = "; ".join(f"{p['id']}{' x' + str(p['count']) if p['count'] > 1 else ''} {p['faan']}"
                             for p in r["patterns"])
        payments = None if r["payments"] is None else " ".join(f"{s} {v:+d}" for s, v in r["payments"].items())
        rows.append([r["preset"], r["faan"], r["unit"], r["uncapped"], show(r["limit"]), show(r["winnable"]),
                     patterns, payments, r["reason"]])
    return rows


def _cmd_example(args: argparse.Namespace) -> int:
    print(json.dumps(EXAMPLE_HAND, ensure_ascii=False, indent=2))
    return 0


def _compare_lines(lines: Iterable[bytes], refs: list[str], jobs: int) -> Iterator[tuple[str, bool]]:
    """One JSON line per hand, ``{"presets": [...]}`` with each preset's result
    or error in order (as ``compare --json``), or the hand's one error; and
    whether any preset failed."""
    from itertools import tee

    from hkcore.batch import score_many
    from hkcore.preset import load_preset

    # every preset reads the same lines; tee holds only the lines between the fastest and the slowest
    streams = [score_many(copy, ref, jobs=jobs, as_json=True) for ref, copy in zip(refs, tee(lines, len(refs)))]
    ids = [json.dumps(load_preset(r).id) for r in refs]
    for answers in zip(*streams):
        failed = [a.startswith('{"error"') for a in answers]
        if all(failed) and len(set(answers)) == 1:
            yield answers[0], True  # the hand itself is bad: one error
            continue
        yield '{"presets": [' + ", ".join(
            '{"preset": ' + pid + (", " + a[1:] if bad else ', "result": ' + a + "}")
            for pid, a, bad in zip(ids, answers, failed)) + "]}", any(failed)


def _cmd_compare(args: argparse.Namespace) -> int:
    from hkcore.comparison import compare
    from hkcore.notation import format_hand, unicode_hand
    from hkcore.preset import builtin_ids
    refs = preset_list(args.preset) if args.preset else builtin_ids()
    if args.jsonl is not None:
        jsonl_only(args, "compare")
        return run_jsonl(jsonl_lines(args.jsonl), lambda lines: _compare_lines(lines, refs, args.jobs))
    if not args.hand:
        raise HkcoreError("compare: give a hand (a JSON file, - for stdin, or notation) or --jsonl FILE")
    hand = read_hand(args.hand)
    cmp = compare(hand, refs)
    fmt = args.format or "table"
    if fmt == "json":
        print_json(cmp.model_dump())  # always {"hand": ..., "presets": [...]}, one entry per preset in order
    elif fmt == "table":
        print(f"hand  {format_hand(hand)}\n      {unicode_hand(hand)}\n")
        print(cmp.table())
    else:
        print_rows(cmp.grid(), fmt)
    return failures(sum(c.error is not None for c in cmp.columns), len(cmp.columns), "presets")


def _cmd_sample(args: argparse.Namespace) -> int:
    from hkcore.sample import sample

    out = sys.stdout
    preset, bonus = args.preset, None
    if preset == "all":  # hands every built-in preset reads: none with bonus tiles if one plays 136 tiles
        if args.only:
            raise HkcoreError("sample --only: give the one preset the hands must be complete or winnable under")
        from hkcore.preset import builtin_ids, load_preset

        preset, bonus = None, all(load_preset(pid).bonus_tiles for pid in builtin_ids())
    for hand in sample(args.n, args.seed, preset, only=args.only, bonus=bonus):
        out.write(json.dumps(hand, ensure_ascii=False) + "\n")
    out.flush()
    return 0


def _counted(lines: Iterator[tuple[int, bytes]], source: str) -> Iterator[bytes]:
    """The lines, with a bar counting hands on stderr when stdin is read and stderr is a terminal
    (``jsonl_lines`` shows one by bytes for a file)."""
    if source != "-" or not sys.stderr.isatty():
        return (line for _, line in lines)
    from tqdm import tqdm

    return (line for _, line in tqdm(lines, unit=" hands", file=sys.stderr, leave=False))


def _cmd_report(args: argparse.Namespace) -> int:
    from hkcore.cli_simulate import simulation_report_wanted, write_simulation_report_for
    from hkcore.report import report_folder, require_matplotlib, write_report
    from hkcore.summary import compare_many

    if simulation_report_wanted(args):
        return write_simulation_report_for(args)
    require_matplotlib()  # before reading any hand
    report_folder(args.out)
    refs = preset_list(args.preset) if args.preset else ["all"]
    summary = compare_many(_counted(jsonl_lines(args.source, "source"), args.source), refs, jobs=args.jobs)
    from hkcore.preset import builtin_ids, load_preset

    given = [load_preset(pid) for ref in refs for pid in (builtin_ids() if ref == "all" else [ref])]
    written = write_report(summary, args.out, given)
    if args.format == "json":
        print_json(summary.model_dump())
    else:
        print("\n".join(map(str, written)))
    return failures(summary.unreadable, summary.hands, "hands (under every preset)")


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from hkcore.server import serve
    except ImportError as exc:
        raise HkcoreError(f"serve needs the server extra ({exc.name} is missing): pip install 'hkcore[server]'") \
            from None
    if not 0 <= args.port <= 65535:
        raise HkcoreError(f"--port: expected 0..65535 (0: a free port, printed), got {args.port}")
    if not 1 <= args.workers <= 64:
        raise HkcoreError(f"--workers: expected 1..64, got {args.workers}")
    for option, seconds in (("--time-limit", args.time_limit), ("--batch-time-limit", args.batch_time_limit),
                            ("--head-time-limit", args.head_time_limit)):
        if seconds is not None and not 0 < seconds <= 86400:  # NaN fails too
            raise HkcoreError(f"{option}: expected seconds, more than 0 and at most 86400, got {seconds:g}")
    if args.most_connections is not None and not 1 <= args.most_connections <= 100_000:
        raise HkcoreError(f"--most-connections: expected 1..100000, got {args.most_connections}")
    if args.most_tables is not None and not 1 <= args.most_tables <= 100_000:
        raise HkcoreError(f"--most-tables: expected 1..100000, got {args.most_tables}")
    for option, seconds in (("--table-idle", args.table_idle), ("--claim-seconds", args.claim_seconds)):
        if seconds is not None and not 0 < seconds <= 86400:
            raise HkcoreError(f"{option}: expected seconds, more than 0 and at most 86400, got {seconds:g}")
    if args.bot_share is not None and not 0 < args.bot_share <= 1:
        raise HkcoreError(f"--bot-share: expected more than 0 and at most 1, got {args.bot_share:g}")
    limits = {k: v for k, v in (("time_limit", args.time_limit), ("batch_time_limit", args.batch_time_limit),
                                ("head_time_limit", args.head_time_limit),
                                ("most_connections", args.most_connections), ("most_tables", args.most_tables),
                                ("table_idle", args.table_idle), ("claim_seconds", args.claim_seconds),
                                ("bot_share", args.bot_share))
              if v is not None}
    serve(args.host, args.port, args.presets, workers=args.workers, log_level=args.log_level, **limits)
    return 0


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
    """The argument parser of ``hkscore``."""
    parser = _Parser(prog="hkscore", description="Hong Kong mahjong hands, scored under any ruleset.")
    parser.add_argument("--version", action="version", version=f"hkscore (hkcore) {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sc = sub.add_parser("score", help="score a hand under one or more presets")
    sc.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation "
                                            "(e.g. 234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N)")
    sc.add_argument("--jsonl", metavar="FILE", help="score every hand of a JSON-lines file (- for stdin), "
                                                    "one result per line")
    sc.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes (default 1)")
    sc.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (default bga-old-style)")
    output_options(sc, "a list of results, one per preset in order (an error in its place)", table=True)
    sc.set_defaults(func=_cmd_score)

    cp = sub.add_parser("compare", help="one hand under several presets, side by side")
    cp.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation")
    cp.add_argument("--jsonl", metavar="FILE", help="compare every hand of a JSON-lines file (- for stdin), "
                                                    "one line per hand with each preset's result")
    cp.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes per preset")
    cp.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable (default: all built-in)")
    output_options(cp, '{"hand": ..., "presets": [...]}, one entry per preset in order', table=True)
    cp.set_defaults(func=_cmd_compare)

    add_hand_commands(sub)

    ex = sub.add_parser("example", help="print the example hand of docs/rules.md as JSON")
    output_options(ex, "always JSON")
    ex.set_defaults(func=_cmd_example)

    add_preset_commands(sub)

    sa = sub.add_parser("sample", help="random complete hands, one JSON line each (the same for the same seed)")
    sa.add_argument("--n", "-n", type=int, default=1000, help="how many hands (default 1000)")
    sa.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    sa.add_argument("--preset", "-p", help="the table the hands are for: no bonus tiles under a 136-tile preset; "
                                           "'all': hands every built-in preset reads (no bonus tiles)")
    sa.add_argument("--only", choices=["complete", "winnable"],
                    help="keep only hands complete (or winnable) under --preset")
    output_options(sa, "always JSON lines, one hand each")
    sa.set_defaults(func=_cmd_sample)

    rp = sub.add_parser("report", help="many hands under several presets: summary.json, summary.md, report.html")
    rp.add_argument("source", nargs="?", help="a JSON-lines file of hands (one hand a line: JSON or notation), "
                                              "- for stdin; or a simulation's summary.json (its report)")
    rp.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (the default)")
    rp.add_argument("--out", "-o", required=True, help="the folder to write the report into (made if missing)")
    rp.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    add_simulation_options(rp)
    output_options(rp, "summary.json's content instead of the paths written")
    rp.set_defaults(func=_cmd_report)
    sv = sub.add_parser("serve", help="the HTTP service (JSON API, /docs) and the scoring page at /")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one and prints it)")
    sv.add_argument("--presets", metavar="DIR", help="a folder of preset files served beside the built-in ones")
    sv.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    sv.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    sv.add_argument("--time-limit", type=float, metavar="SECONDS",
                    help="time a request may take before it is answered 503 (default 10)")
    sv.add_argument("--batch-time-limit", type=float, metavar="SECONDS",
                    help="time a POST /score/batch may take (default 600)")
    sv.add_argument("--head-time-limit", type=float, metavar="SECONDS",
                    help="time a request's head (its line and headers) may take before it is answered 408 and its "
                         "connection closed (default 10)")
    sv.add_argument("--most-connections", type=int, metavar="N",
                    help="connections one worker holds at once; a request beyond them is answered 503 (default 1000)")
    sv.add_argument("--most-tables", type=int, metavar="N",
                    help="tables held at once (POST /tables beyond them: 503; default 1000)")
    sv.add_argument("--table-idle", type=float, metavar="SECONDS",
                    help="a table unused this long is dropped, its log with it (default 1800)")
    sv.add_argument("--claim-seconds", type=float, metavar="SECONDS",
                    help="a person's claim window where the preset sets no claim_seconds (default 15)")
    sv.add_argument("--bot-share", type=float, metavar="FRACTION",
                    help="the most of a worker's time the tables of bots alone take (default 0.25; 1: all they can)")
    sv.set_defaults(func=_cmd_serve)
    add_table_commands(sub)
    add_simulate_commands(sub)
    return parser


def _intermixed(parser: argparse.ArgumentParser, args: argparse.Namespace, extra: list[str]) -> None:
    """Words after an option are more of the hand (``score 123m... win:2z -p hk-classic flowers:1``):
    a hand's notation words may sit anywhere among the options; anything else is refused."""
    unknown = [w for w in extra if w.startswith("-") and w != "-"]
    if unknown or not isinstance(getattr(args, "hand", None), list):
        parser.error(f"unrecognized arguments: {' '.join(unknown or extra)}")
    args.hand.extend(extra)


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


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
