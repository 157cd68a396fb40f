"""The ``hkscore`` command line.

    hkscore example                        the RULES.md example hand, as JSON
    hkscore score HAND --preset all        score a hand (JSON file, - for stdin, or notation)
    hkscore compare HAND [--preset P]      one hand under several presets, side by side
    hkscore waits HAND [--preset P]        a hand in play: tiles away, waits and their value
    hkscore presets [show|export ID]       the presets, one preset's rules, or it resolved as TOML
    hkscore presets diff A B               every rule on which two presets differ
    hkscore plugins                        installed plugins, what each provides, any problem
    hkscore schema [MODEL]                 JSON Schema of the data (hand, meld, position, result,
                                           analysis, comparison, claim, preset)
    hkscore decompose TILES                readings, tiles away and waits

Errors print one line on stderr and exit with status 2.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

from hkcore.errors import HandError, HkcoreError, shown
from hkcore.notation import format_hand
from hkcore.tiles import TILES, format_tiles, parse_tiles, to_unicode

if TYPE_CHECKING:
    from hkcore.models import Hand, Position, ScoreResult
    from hkcore.preset import Preset

# Each command imports what it uses when it runs, so that starting hkscore
# (and --help) stays quick.
MAX_JSON = 65536  # the same bound as hkcore.models.MAX_JSON (tests hold them equal)

#: The example hand of RULES.md ("A hand as data").
EXAMPLE_HAND: dict[str, Any] = {
    "tiles": "234m55z",
    "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
              {"kind": "pung", "tiles": "777z", "from": "E"},
              {"kind": "kong", "tiles": "1111m", "concealed": True}],
    "win_tile": "5z",
    "self_draw": False,
    "seat_wind": "S", "round_wind": "E",
    "flowers": [], "seasons": [],
    "discarder": "N",
    "last_tile": False,
    "kong_replacement": 0,
    "robbing_kong": False,
    "first_turn": None,
}


def format_set(code: int) -> str:
    """A set code as tiles, e.g. ``123m`` or ``555z``."""
    from hkcore import core
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def format_reading(reading: tuple[int, ...]) -> str:
    """A reading as a person writes it: the pair, then each set."""
    from hkcore.core._codes import CHOW, ORPHANS, PUNG
    pair, *sets = reading
    if sets == [ORPHANS]:
        return f"thirteen orphans, pair {TILES[pair]}"
    words = [format_tiles([TILES[pair]] * 2)]
    for code in sets:
        kind = {CHOW: "chow", PUNG: "pung"}.get(code // 34, "kong")
        words.append(f"{format_set(code)} ({kind})")
    return "  ".join(words)


def read_text(source: str) -> str:
    """The text of a file, or of stdin for ``-``: at most MAX_JSON characters,
    UTF-8; errors are HandErrors naming the file."""
    label = "stdin" if source == "-" else shown(source)
    try:
        if source == "-" and getattr(sys.stdin, "buffer", None) is None:  # a text stream (tests, embedding)
            text = sys.stdin.read(MAX_JSON + 1)
            if len(text) > MAX_JSON:
                raise HandError(f"hand: {label} holds more than {MAX_JSON:,} characters; a hand is smaller",
                                "hand", source)
            return text
        if source == "-":
            raw = sys.stdin.buffer.read(MAX_JSON + 1)
        else:
            with open(source, "rb") as f:
                raw = f.read(MAX_JSON + 1)
    except OSError as exc:
        raise HandError(f"hand: cannot read {label}: {exc.strerror}", "hand", source) from None
    except UnicodeDecodeError as exc:
        raise HandError(f"hand: {label} is not UTF-8 text (byte {exc.start:,})", "hand", source) from None
    if len(raw) > MAX_JSON:
        raise HandError(f"hand: {label} holds more than {MAX_JSON:,} bytes; a hand is smaller", "hand", source)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HandError(f"hand: {label} is not UTF-8 text (byte {exc.start:,})", "hand", source) from None


def _is_file(word: str) -> bool:
    try:
        return Path(word).is_file()
    except (OSError, ValueError):
        return False


def read_hand(args: Sequence[str]) -> Hand:
    """A hand from the command line: a JSON file, ``-`` (stdin), or notation words."""
    from hkcore.models import Hand
    if len(args) == 1 and (args[0] == "-" or args[0].endswith(".json") or _is_file(args[0])):
        return Hand.parse(read_text(args[0]))
    return Hand.parse(" ".join(args))


def _preset_list(values: Sequence[str] | None) -> list[str]:
    from hkcore.preset import builtin_ids
    if not values:
        return ["bga-old-style"]
    out: list[str] = []
    for v in values:
        out.extend(builtin_ids() if v == "all" else [v])
    return out


def _unicode_hand(hand: Hand) -> str:
    parts = [to_unicode(parse_tiles(hand.tiles))]
    for m in hand.melds:
        parts.append(to_unicode(parse_tiles(m.tiles)))
    bonus = [f"{n}f" for n in hand.flowers] + [f"{n}g" for n in hand.seasons]
    if bonus:
        parts.append(to_unicode(bonus))
    return " ".join(parts)


def render(result: ScoreResult, preset: Preset) -> str:
    """A scored hand as a person reads it."""
    lines = [f"{preset.id} ({preset.name})"]
    if result.reading:
        words = []
        for part in result.reading:
            note = "concealed kong" if part.kind == "kong" and part.concealed and part.declared else part.kind
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
        lines.append(f"            ({result.payments_note})")
    return "\n".join(lines)


def _jsonl_lines(source: str) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a JSON-lines file or stdin, blank lines skipped;
    a progress bar on stderr when reading a file on a terminal."""
    try:
        f = sys.stdin.buffer if source == "-" else open(source, "rb")
    except OSError as exc:
        raise HandError(f"--jsonl: cannot read {shown(source)}: {exc.strerror}", "jsonl", source) from None
    bar = None
    if source != "-" and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(total=Path(source).stat().st_size, unit="B", unit_scale=True, file=sys.stderr, leave=False)
    try:
        n = 0
        while True:
            raw = f.readline(MAX_JSON + 2)
            if not raw:
                break
            n += 1
            if bar is not None:
                bar.update(len(raw))
            if len(raw) > MAX_JSON + 1 and not raw.endswith(b"\n"):
                while True:  # the rest of an over-long line: it is refused by its size
                    more = f.readline(1 << 16)
                    if not more or more.endswith(b"\n"):
                        break
            line = raw.strip()
            if line:
                yield n, line
    finally:
        if bar is not None:
            bar.close()
        if f is not sys.stdin.buffer:
            f.close()


def _run_jsonl(lines: Iterator[tuple[int, bytes]], answer: Any) -> int:
    """Feed each line to ``answer`` (an iterable of lines -> an iterator of
    JSON answers, in order); print one JSON line each, errors with their line
    number; say on stderr how many failed (exit 1 if any)."""
    numbers: deque[int] = deque()

    def raw() -> Iterator[bytes]:
        for n, line in lines:
            numbers.append(n)
            yield line

    failed = total = 0
    out = sys.stdout
    for text in answer(raw()):
        n = numbers.popleft()
        total += 1
        if text.startswith('{"error"'):
            failed += 1
            text = '{"line": ' + str(n) + ", " + text[1:]
        out.write(text + "\n")
    out.flush()
    if failed:
        print(f"hkscore: {failed:,} of {total:,} lines failed", file=sys.stderr)
    return 1 if failed else 0


def _cmd_score(args: argparse.Namespace) -> int:
    from hkcore.engine import score
    from hkcore.preset import load_preset
    if args.jsonl is not None:
        if args.hand:
            raise HkcoreError("score: give hands either as an argument or with --jsonl, not both")
        ids = _preset_list(args.preset)
        if len(ids) != 1:
            raise HkcoreError("score --jsonl: give one preset (hkscore compare --jsonl scores under several)")
        from hkcore.batch import score_many

        return _run_jsonl(_jsonl_lines(args.jsonl),
                          lambda lines: score_many(lines, ids[0], jobs=args.jobs, as_json=True))
    if not args.hand:
        raise HkcoreError("score: give a hand (a JSON file, - for stdin, or notation) or --jsonl FILE")
    hand = read_hand(args.hand)
    ids = _preset_list(args.preset)
    results: list[dict[str, Any]] = []
    blocks = [f"hand  {format_hand(hand)}\n      {_unicode_hand(hand)}"]
    failed = 0
    for ref in ids:
        preset = load_preset(ref)
        try:
            result = score(hand, preset)
        except HkcoreError as exc:
            if len(ids) == 1:
                raise
            failed += 1
            results.append({"preset": preset.id, "error": str(exc)})
            blocks.append(f"{preset.id} ({preset.name})\n  error     {exc}")
            continue
        results.append(result.model_dump())
        blocks.append(render(result, preset))
    if args.json:
        print(json.dumps(results[0] if len(ids) == 1 else results, ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(blocks))
    return 0


def read_position(args: Sequence[str]) -> Position:
    """A hand in play from the command line: a JSON file, ``-`` (stdin), or notation words."""
    from hkcore.models import Position
    if len(args) == 1 and (args[0] == "-" or args[0].endswith(".json") or _is_file(args[0])):
        return Position.parse(read_text(args[0]))
    return Position.parse(" ".join(args))


def _cell(value: Any, unit: str, how: str) -> str:
    text = f"{how} {value.faan} {unit}"
    if not value.winnable:
        text += f": cannot win ({value.reason.split('; ')[-1]})" if value.reason else ": cannot win"
    return text


def _cmd_waits(args: argparse.Namespace) -> int:
    from hkcore.analysis import Analysis, analyse
    from hkcore.preset import load_preset
    pos = read_position(args.hand)
    ids = _preset_list(args.preset)
    results: list[tuple[str, Analysis | str]] = []
    for ref in ids:
        preset = load_preset(ref)
        try:
            results.append((preset.id, analyse(pos, preset, args.visible or "")))
        except HkcoreError as exc:
            if len(ids) == 1:
                raise
            results.append((preset.id, str(exc)))
    if args.json:
        data = [r.model_dump() if isinstance(r, Analysis) else {"preset": pid, "error": r} for pid, r in results]
        print(json.dumps(data[0] if len(ids) == 1 else data, ensure_ascii=False, indent=2))
        return 0
    melds = "".join(f" {m.tiles}" + (f":{m.from_}" if m.from_ else "") if not m.concealed else f" [{m.tiles}]"
                    for m in pos.melds)
    print(f"hand  {pos.tiles}{melds}   {to_unicode(parse_tiles(pos.tiles))}")
    good = [(pid, r) for pid, r in results if isinstance(r, Analysis)]
    for pid, r in results:
        if not isinstance(r, Analysis):
            print(f"{pid}: error: {r}")
    if not good:
        return 0
    first = good[0][1]
    away = first.tiles_away
    if pos.waiting_size:
        rows = []
        for pid, r in good:
            state = "waiting" if r.waiting else f"{r.tiles_away} tiles away"
            rows.append(f"{pid}: {state}")
        print("      " + "   ".join(rows))
        tiles = sorted({w.tile for _, r in good for w in r.waits}, key=lambda c: parse_tiles(c)[0].index)
        if not tiles:
            return 0
        head = ["wait", "unseen"] + [pid for pid, _ in good]
        table = [head]
        for code in tiles:
            d_row = [f"{parse_tiles(code)[0].unicode} {code}", ""]
            s_row = ["", ""]
            for _pid, r in good:
                w = next((x for x in r.waits if x.tile == code), None)
                if w is None:
                    d_row.append("(not a wait here)")
                    s_row.append("")
                    continue
                d_row[1] = str(w.unseen)
                d_row.append(_cell(w.on_discard, r.unit, "discard"))
                s_row.append(_cell(w.on_self_draw, r.unit, "self-draw"))
            table += [d_row, s_row]
        widths = [max(len(row[i]) for row in table) for i in range(len(head))]
        for row in table:
            print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        return 0
    print(f"      {'complete' if away < 0 else 'waiting' if away == 0 else f'{away} tiles away'}; "
          "discards that leave it waiting, best first:")
    for pid, r in good:
        print(f"\n{pid}")
        if not r.discards:
            print("  none")
        for opt in r.discards:
            waits = ", ".join(f"{w.tile} ({w.unseen} unseen, {w.on_discard.faan}/{w.on_self_draw.faan}"
                              + ("" if w.on_discard.winnable or w.on_self_draw.winnable else ", cannot win") + ")"
                              for w in opt.waits)
            print(f"  discard {opt.discard}: {opt.winnable_unseen} winning tiles unseen; waits {waits}")
    return 0


def _cmd_example(args: argparse.Namespace) -> int:
    print(json.dumps(EXAMPLE_HAND, ensure_ascii=False, indent=2))
    return 0


def _cmd_presets(args: argparse.Namespace) -> int:
    from hkcore.preset import builtin_ids, diff, export_toml, load_preset

    if args.action is None:
        listed = [load_preset(pid) for pid in builtin_ids()]
        if args.json:
            print(json.dumps([{"id": p.id, "name": p.name, "unit": p.unit, "minimum": p.minimum, "cap": p.cap,
                               "tiles": p.tiles} for p in listed], ensure_ascii=False, indent=2))
            return 0
        for p in listed:
            cap = p.cap if p.cap is not None else "none"
            print(f"{p.id:<16} {p.name}  [{p.unit}, minimum {p.minimum}, cap {cap}, {p.tiles} tiles]")
        return 0
    if args.action == "show":
        if not args.ref:
            raise HkcoreError("presets show: give a preset id or path")
        p = load_preset(args.ref)
        if args.json:
            print(json.dumps(p.model_dump(), ensure_ascii=False, indent=2))
            return 0
        print(f"{p.id}: {p.name}")
        if p.source:
            print(f"  source    {p.source}")
        cap = p.cap if p.cap is not None else "none"
        print(f"  unit {p.unit}, minimum {p.minimum}, cap {cap}, {p.tiles} tiles, shapes {', '.join(p.shapes)}")
        if p.plugins:
            print(f"  plugins   {', '.join(p.plugins)}")
        if p.limit_adds:
            print(f"  limit hands still add: {', '.join(p.limit_adds)}")
        for r in p.patterns:
            if r.limit is not None:
                worth = f"limit {r.limit}"
            elif r.by_count is not None:
                worth = "by count " + "/".join(map(str, r.by_count))
            else:
                worth = str(r.value)
            extra = []
            if r.includes:
                extra.append("incl. " + ", ".join(r.includes))
            if r.wins_below_minimum:
                extra.append("wins below the minimum")
            extra += [f"{k}={v}" for k, v in r.options.items()]
            print(f"  {r.id:<22} {worth:<14} {'; '.join(extra)}")
        if p.payments:
            print("  payments  " + ", ".join(f"{k}={v}" for k, v in p.payments.items()))
        else:
            print("  payments  none")
        return 0
    if args.action == "export":
        if not args.ref:
            raise HkcoreError("presets export: give a preset id or path")
        text = export_toml(load_preset(args.ref))
        if args.output:
            try:
                Path(args.output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise HkcoreError(f"presets export: cannot write {shown(args.output)}: {exc.strerror}") from None
        else:
            sys.stdout.write(text)
        return 0
    if args.action == "diff":
        if not args.ref or not args.other:
            raise HkcoreError("presets diff: give two preset ids or paths")
        a, b = load_preset(args.ref), load_preset(args.other)
        found = diff(a, b)
        if args.json:
            print(json.dumps({"a": a.id, "b": b.id, "differences": [{"path": d.path, "a": d.a, "b": d.b}
                                                                    for d in found]}, ensure_ascii=False, indent=2))
        elif not found:
            print(f"{a.id} and {b.id} have the same rules")
        else:
            rows = [("rule", a.id, b.id), *((d.path, _show(d.a), _show(d.b)) for d in found)]
            w0 = max(len(r[0]) for r in rows)
            w1 = max(len(r[1]) for r in rows)
            for r in rows:
                print(f"{r[0]:<{w0}}  {r[1]:<{w1}}  {r[2]}".rstrip())
        return 1 if found else 0  # as diff(1): 1 when the presets differ
    raise HkcoreError(f"presets: unknown action {args.action!r}")


def _show(value: Any) -> str:
    if value is None:
        return "(absent)"
    if value is False:
        return "false"
    if value is True:
        return "true"
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, (int, str)) else str(value)


def _compare_lines(lines: Iterable[bytes], refs: list[str], jobs: int) -> Iterator[str]:
    """One JSON line per hand: every preset's result (or error) under its id."""
    from hkcore.preset import load_preset
    from itertools import tee

    from hkcore.batch import score_many

    # every preset reads the same lines; tee holds only the lines between the fastest and the slowest
    streams = [score_many(copy, ref, jobs=jobs, as_json=True) for ref, copy in zip(refs, tee(lines, len(refs)))]
    ids = [json.dumps(load_preset(r).id) for r in refs]
    for answers in zip(*streams):
        if all(a.startswith('{"error"') for a in answers) and len(set(answers)) == 1:
            yield answers[0]  # the hand itself is bad: one error
            continue
        yield "{" + ", ".join(f"{pid}: {a}" for pid, a in zip(ids, answers)) + "}"


def _cmd_compare(args: argparse.Namespace) -> int:
    from hkcore.comparison import compare
    from hkcore.preset import builtin_ids
    if args.jsonl is not None:
        if args.hand:
            raise HkcoreError("compare: give hands either as an argument or with --jsonl, not both")
        refs = _preset_list(args.preset) if args.preset else builtin_ids()
        return _run_jsonl(_jsonl_lines(args.jsonl), lambda lines: _compare_lines(lines, refs, args.jobs))
    if not args.hand:
        raise HkcoreError("compare: give a hand (a JSON file, - for stdin, or notation) or --jsonl FILE")
    hand = read_hand(args.hand)
    cmp = compare(hand, _preset_list(args.preset) if args.preset else None)
    if args.json:
        print(json.dumps(cmp.model_dump(), ensure_ascii=False, indent=2))
    else:
        print(f"hand  {format_hand(hand)}\n      {_unicode_hand(hand)}\n")
        print(cmp.table())
    return 0


def _cmd_plugins(args: argparse.Namespace) -> int:
    from hkcore.registry import current as current_registry
    reg = current_registry()
    cat = reg.catalogue
    provided: dict[str, list[str]] = {}
    for (kind, item), plugin in cat.owner.items():
        provided.setdefault(plugin, []).append(f"{kind} {item}")
    names = [reg.plugin_manager.get_name(p) or repr(p) for p in reg.plugin_manager.get_plugins()]
    names = sorted(set(names) | set(cat.broken_plugins), key=lambda n: (not n.startswith("hkcore."), n))
    rows = [{"plugin": name, "source": cat.available.get(name, "built in" if name.startswith("hkcore.") else
                                                        "registered in this process"),
             "provides": sorted(provided.get(name, [])), "problem": cat.broken_plugins.get(name)}
            for name in names]
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    for row in rows:
        print(f"{row['plugin']}  ({row['source']})")
        kinds: dict[str, list[str]] = {}
        for item in row["provides"]:
            kind, _, name = item.rpartition(" ")
            kinds.setdefault(kind, []).append(name)
        for kind, items in kinds.items():
            print(f"    {kind}s: {', '.join(items)}" if len(items) > 1 else f"    {kind}: {items[0]}")
        if row["problem"]:
            print(f"    problem: {row['problem']}")
    return 1 if any(row["problem"] for row in rows) else 0


_SCHEMAS = ("hand", "meld", "result", "position", "analysis", "comparison", "claim", "preset")


def _cmd_schema(args: argparse.Namespace) -> int:
    from hkcore.analysis import Analysis
    from hkcore.claims import Claim
    from hkcore.comparison import Comparison
    from hkcore.models import Hand, Meld, Position, ScoreResult
    from hkcore.preset import Preset

    schemas = {"hand": Hand, "meld": Meld, "result": ScoreResult, "position": Position, "analysis": Analysis,
               "comparison": Comparison, "claim": Claim, "preset": Preset}
    model = schemas[args.model]
    print(json.dumps(model.model_json_schema(by_alias=True), ensure_ascii=False, indent=2))
    return 0


def _cmd_decompose(args: argparse.Namespace) -> int:
    from hkcore import core

    tiles = parse_tiles(args.tiles)
    melds = args.meld or ()
    away = core.tiles_away(tiles, melds)
    lines = [f"hand     {format_tiles(tiles)}  {to_unicode(sorted(tiles))}" + "".join(f"  [{m}]" for m in melds),
             "status   " + {-1: "complete", 0: "waiting"}.get(away, f"{away} tiles away")]
    if len(tiles) % 3 == 2:
        lines += [f"reading {i}: {format_reading(r)}" for i, r in enumerate(core.readings(tiles, melds), 1)]
    else:
        w = core.waits(tiles, melds)
        lines.append("waits    " + (" ".join(f"{t} {t.unicode}" for t in w) if w else "none"))
    lines.append(f"core     {core.IMPLEMENTATION}")
    print("\n".join(lines))
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
                                            "(e.g. 234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N)")
    sc.add_argument("--jsonl", metavar="FILE", help="score every hand of a JSON-lines file (- for stdin), "
                                                    "one result per line")
    sc.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes (default 1)")
    sc.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (default bga-old-style)")
    sc.add_argument("--json", action="store_true", help="print the result as JSON")
    sc.set_defaults(func=_cmd_score)

    cp = sub.add_parser("compare", help="one hand under several presets, side by side")
    cp.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation")
    cp.add_argument("--jsonl", metavar="FILE", help="compare every hand of a JSON-lines file (- for stdin), "
                                                    "one line per hand with each preset's result")
    cp.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes per preset")
    cp.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable (default: all built-in)")
    cp.add_argument("--json", action="store_true", help="print the comparison as JSON")
    cp.set_defaults(func=_cmd_compare)

    wt = sub.add_parser("waits", help="tiles away, waits and their value for a hand in play")
    wt.add_argument("hand", nargs="+", help="a JSON file, - for stdin, or notation without win: "
                                            "e.g. 123m456p23s55z 789s:W seat:S")
    wt.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable; 'all' for every built-in")
    wt.add_argument("--visible", help="tiles face up elsewhere (ponds, others' melds), for the unseen counts")
    wt.add_argument("--json", action="store_true", help="print the analysis as JSON")
    wt.set_defaults(func=_cmd_waits)

    ex = sub.add_parser("example", help="print the RULES.md example hand as JSON")
    ex.set_defaults(func=_cmd_example)

    pr = sub.add_parser("presets", help="list presets; show, export or diff them")
    pr.add_argument("action", nargs="?", choices=["show", "export", "diff"],
                    help="show: one preset's rules; export: the resolved preset as TOML; diff: two presets' rules")
    pr.add_argument("ref", nargs="?", help="preset id or TOML path")
    pr.add_argument("other", nargs="?", help="the second preset (diff)")
    pr.add_argument("--output", "-o", help="export: write to this file instead of stdout")
    pr.add_argument("--json", action="store_true", help="list, show or diff as JSON")
    pr.set_defaults(func=_cmd_presets)

    pl = sub.add_parser("plugins", help="installed plugins, what each provides and any problem (exit 1 if any)")
    pl.add_argument("--json", action="store_true", help="print the list as JSON")
    pl.set_defaults(func=_cmd_plugins)

    sh = sub.add_parser("schema", help="JSON Schema of the data: a hand (default), a result, a preset...")
    sh.add_argument("model", nargs="?", default="hand", choices=_SCHEMAS)
    sh.set_defaults(func=_cmd_schema)

    dec = sub.add_parser("decompose", help="readings, tiles away and waits of a hand")
    dec.add_argument("tiles", help="concealed tiles, e.g. 11122233344455m")
    dec.add_argument("--meld", action="append", help="a declared set, e.g. 555z (repeatable)")
    dec.set_defaults(func=_cmd_decompose)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hkscore``; errors print one line and exit with status 2."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed on one line
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    try:
        return args.func(args)
    except HkcoreError as exc:
        print(f"hkscore: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # pragma: no cover - output piped into head
        return 0
    except Exception as exc:  # no traceback for the user; say what happened
        print(f"hkscore: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
