"""``hkscore score``, ``compare``, ``example`` and ``sample``: hands scored
under one preset or several, and the hands to score."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from hkcore.cli.common import (
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
    said_preset_warnings,
    show,
)
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
    ids = preset_list(args.preset)
    loaded = said_preset_warnings(ids, table=False)  # hands given: what holds only at a table is not said
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
    for preset in loaded:
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
    said_preset_warnings(refs, table=False)  # hands given: what holds only at a table is not said
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


def score_options(sc: argparse.ArgumentParser) -> None:
    """``hkscore score``'s arguments."""
    sc.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation "
                                            "(e.g. 234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N)")
    sc.add_argument("--jsonl", metavar="FILE", help="score every hand of a JSON-lines file (- for stdin), "
                                                    "one result per line")
    sc.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes (default 1)")
    sc.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (default bga-old-style)")
    output_options(sc, "a list of results, one per preset in order (an error in its place)", table=True)
    sc.set_defaults(func=_cmd_score)


def compare_options(cp: argparse.ArgumentParser) -> None:
    """``hkscore compare``'s arguments."""
    cp.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation")
    cp.add_argument("--jsonl", metavar="FILE", help="compare every hand of a JSON-lines file (- for stdin), "
                                                    "one line per hand with each preset's result")
    cp.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes per preset")
    cp.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable (default: all built-in)")
    output_options(cp, '{"hand": ..., "presets": [...]}, one entry per preset in order', table=True)
    cp.set_defaults(func=_cmd_compare)


def example_options(ex: argparse.ArgumentParser) -> None:
    """``hkscore example``'s arguments."""
    output_options(ex, "always JSON")
    ex.set_defaults(func=_cmd_example)


def sample_options(sa: argparse.ArgumentParser) -> None:
    """``hkscore sample``'s arguments."""
    sa.add_argument("--n", "-n", type=int, default=1000, help="how many hands (default 1000)")
    sa.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    sa.add_argument("--preset", "-p", help="the table the hands are for: no bonus tiles under a 136-tile preset; "
                                           "'all': hands every built-in preset reads (no bonus tiles)")
    sa.add_argument("--only", choices=["complete", "winnable"],
                    help="keep only hands complete (or winnable) under --preset")
    output_options(sa, "always JSON lines, one hand each")
    sa.set_defaults(func=_cmd_sample)
