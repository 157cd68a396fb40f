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
                                           report.html
    hkscore serve [--port 8000]            the HTTP service and the scoring page (the server extra)

Every command takes ``--json``; the commands that print a table (compare,
waits, presets list/show/diff) take ``--format table|json|csv|markdown``.
Exit status: 0 done; 1 some preset, line or plugin failed, or the presets
differ (presets diff); 2 a usage or input error (one line on stderr); 3 an
internal error.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
import textwrap
import warnings
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from typing import TYPE_CHECKING

from hkcore.cli_table import add_table_commands
from hkcore.errors import HandError, HkcoreError, shown
from hkcore.notation import format_hand, unicode_hand
from hkcore.tiles import TILES, format_tiles, parse_tiles, to_unicode

if TYPE_CHECKING:
    from hkcore.models import Hand, Position, ScoreResult
    from hkcore.preset import Preset

# Each command imports what it uses when it runs, so that starting hkscore
# (and --help) stays quick.
MAX_JSON = 65536  # the same bound as hkcore.models.MAX_JSON (tests hold them equal)

#: The example hand of docs/rules.md ("A hand as data").
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


#: the output formats of the commands that print a table
FORMATS = ("table", "json", "csv", "markdown")


def print_json(data: Any) -> None:
    """JSON on stdout, the one shape of every ``--json``."""
    print(json.dumps(data, ensure_ascii=False, indent=2))


def print_rows(rows: Sequence[Sequence[Any]], fmt: str) -> None:
    """A header row and its rows: aligned columns (``table``), CSV (the csv
    module's quoting) or a GitHub markdown table (pipes in cells escaped)."""
    cells = [["" if c is None else str(c) for c in row] for row in rows]
    if fmt == "csv":
        csv.writer(sys.stdout, lineterminator="\n").writerows(cells)
    elif fmt == "markdown":
        def line(row: list[str]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in row) + " |"
        print("\n".join([line(cells[0]), "|" + "---|" * len(cells[0]), *map(line, cells[1:])]))
    else:
        widths = [max(len(row[i]) for row in cells) for i in range(len(cells[0]))]
        for row in cells:
            print("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip())


def _error_entry(preset_id: str, exc: HkcoreError) -> dict[str, Any]:
    """A preset's error in a list of results: ``{"preset", "error", "type", "field"}``."""
    from hkcore.batch import error_json
    return json.loads(error_json(exc, preset_id))


def _failures(failed: int, total: int, what: str, why: str = "") -> int:
    """Say on stderr how many of ``total`` failed (and ``why``, errors by field); the exit status (1 if any)."""
    if failed:
        print(f"hkscore: {failed:,} of {total:,} {what} failed" + (f" ({why})" if why else ""), file=sys.stderr)
    return 1 if failed else 0


def format_set(code: int) -> str:
    """A set code as tiles, e.g. ``123m`` or ``555z``."""
    from hkcore import core
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def _reading_data(reading: tuple[int, ...]) -> dict[str, Any]:
    """A reading as JSON: its shape, the pair and each set with its kind."""
    from hkcore.tiles import CHOW, ORPHANS, PUNG
    pair, *sets = reading
    if sets == [ORPHANS]:
        return {"shape": "thirteen_orphans", "pair": format_tiles([TILES[pair]] * 2), "sets": []}
    return {"shape": "standard", "pair": format_tiles([TILES[pair]] * 2),
            "sets": [{"kind": {CHOW: "chow", PUNG: "pung"}.get(code // 34, "kong"), "tiles": format_set(code)}
                     for code in sets]}


def format_reading(reading: tuple[int, ...]) -> str:
    """A reading as a person writes it: the pair, then each set."""
    data = _reading_data(reading)
    if data["shape"] == "thirteen_orphans":
        return f"thirteen orphans, pair {TILES[reading[0]]}"
    return "  ".join([data["pair"], *(f"{s['tiles']} ({s['kind']})" for s in data["sets"])])


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
        out.extend(p for p in (builtin_ids() if v == "all" else [v]) if p not in out)  # each once, first place
    return out


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
        # the command line's hands are notation: name its token, beside the JSON field
        note = result.payments_note.replace("give 'discarder'", "give from:SEAT (\"discarder\" in JSON)")
        lines.append(f"            ({note})")
    return "\n".join(lines)


def _jsonl_lines(source: str, argument: str = "--jsonl") -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a JSON-lines file (decompressed by its suffix)
    or stdin, as ``hkcore.lines`` splits them; a progress bar on stderr when
    reading a file on a terminal. ``argument``: how the command line named
    the file, for the error."""
    from hkcore.lines import file_lines

    with _bar(source) as progress:
        yield from file_lines(source, argument, progress)


@contextlib.contextmanager
def _bar(source: str) -> Iterator[Callable[[int], None] | None]:
    """A progress bar by bytes of the file ``source`` on stderr when it is a
    terminal: a function told the bytes read so far (None: no bar)."""
    if source == "-" or not sys.stderr.isatty():
        yield None
        return
    from tqdm import tqdm

    try:
        total = Path(source).stat().st_size
    except OSError:  # the reader names the file
        total = None
    bar = tqdm(total=total, unit="B", unit_scale=True, file=sys.stderr, leave=False)
    try:
        yield lambda done: bar.update(done - bar.n)
    finally:
        bar.close()


def _file_blocks(path: str) -> Iterator[tuple[int, bytes]]:
    """A JSON-lines file in blocks of whole lines, each with the number of its
    first line (``hkcore.lines.file_blocks``); a progress bar on stderr on a terminal."""
    from hkcore.lines import file_blocks

    with _bar(path) as progress:
        yield from file_blocks(path, "--jsonl", progress, BLOCK)


#: bytes of a JSON-lines file read at a time by ``score --jsonl FILE``
BLOCK = 1 << 20


def _score_file(path: str, preset: str, jobs: int) -> int:
    """``score --jsonl FILE``: the file in blocks, answers written as they come."""
    from hkcore.batch import write_blocks

    sys.stdout.flush()
    total, failed = write_blocks(_file_blocks(path), sys.stdout.buffer, preset, jobs=jobs)
    return _failures(failed, total, "lines")


def _run_jsonl(lines: Iterator[tuple[int, bytes]], answer: Any) -> int:
    """Feed each line to ``answer`` (an iterable of lines -> an iterator of
    (JSON answer, failed), in order); print one JSON line each, a bad hand's
    error with its line number; say on stderr how many failed (exit 1 if any)."""
    numbers: deque[int] = deque()

    def raw() -> Iterator[bytes]:
        for n, line in lines:
            numbers.append(n)
            yield line

    failed = total = 0
    why: Counter[tuple[str, str]] = Counter()
    out = sys.stdout
    for text, bad in answer(raw()):
        n = numbers.popleft()
        total += 1
        failed += bad
        if bad:
            _count_why(text, why)
        if text.startswith('{"error"'):
            text = '{"line": ' + str(n) + ", " + text[1:]
        out.write(text + "\n")
    out.flush()
    return _failures(failed, total, "lines", _why_text(why))


def _count_why(text: str, why: Counter[tuple[str, str]]) -> None:
    """Count a failed compare line's errors by (preset, field) (a line that failed as a whole, as
    ``score --jsonl`` answers, is not counted: a file is scored in blocks that give only the count)."""
    if not text.startswith('{"presets"'):
        return
    try:
        data = json.loads(text)
    except ValueError:  # pragma: no cover - the answers are JSON
        return
    entries = data.get("presets", [])
    for entry in entries:
        if isinstance(entry, dict) and "error" in entry:
            why[(str(entry.get("preset") or ""), str(entry.get("field") or entry.get("type") or "?"))] += 1


def _why_text(why: Counter[tuple[str, str]]) -> str:
    """``_count_why``'s counts as a clause: which preset refused how many lines, on which field."""
    if not why:
        return ""
    by_preset: dict[str, list[str]] = {}
    for (preset, field), count in why.most_common():
        by_preset.setdefault(preset, []).append(f"{field} {count:,}")
    parts = [(f"{preset}: " if preset else "") + ", ".join(fields) for preset, fields in by_preset.items()]
    text = "; ".join(parts)
    if any(field in ("flowers", "seasons") for _, field in why):
        text += ("; a 136-tile preset refuses bonus tiles: 'hkscore sample --preset all' makes hands every "
                 "built-in preset reads")
    return text


def _jsonl_only(args: argparse.Namespace, command: str) -> None:
    """``--jsonl`` takes no hand argument and writes JSON lines only."""
    if args.hand:
        raise HkcoreError(f"{command}: give hands either as an argument or with --jsonl, not both")
    if args.format not in (None, "json"):
        raise HkcoreError(f"{command} --jsonl writes JSON lines; --format {args.format} is not for it")


def _cmd_score(args: argparse.Namespace) -> int:
    from hkcore.engine import score
    from hkcore.preset import load_preset
    ids = _preset_list(args.preset)
    if args.jsonl is not None:
        _jsonl_only(args, "score")
        if len(ids) != 1:
            raise HkcoreError("score --jsonl: give one preset (hkscore compare --jsonl scores under several)")
        if args.jsonl != "-":
            return _score_file(args.jsonl, ids[0], args.jobs)
        from hkcore.batch import score_many

        return _run_jsonl(_jsonl_lines(args.jsonl), lambda lines: (
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
            results.append(_error_entry(preset.id, exc))
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
    return _failures(failed, len(ids), "presets")


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
        rows.append([r["preset"], r["faan"], r["unit"], r["uncapped"], _show(r["limit"]), _show(r["winnable"]),
                     patterns, payments, r["reason"]])
    return rows


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


def _short_cell(value: Any, unit: str, preset_id: str) -> str:
    """A wait's value in a preset's own block: its reason without the preset's id."""
    text = f"{value.faan} {unit}"
    if not value.winnable:
        why = value.reason.split("; ")[-1].replace(f"{preset_id} ", "") if value.reason else ""
        text += f", cannot win ({why})" if why else ", cannot win"
    return text


def _wait_rows(good: list[tuple[str, Any]]) -> list[list[Any]]:
    """One row per preset, discard (for a hand about to discard) and wait."""
    rows: list[list[Any]] = [["preset", "discard", "wait", "unseen", "unit", "on_discard", "discard_winnable",
                              "on_self_draw", "self_draw_winnable"]]
    for pid, r in good:
        options = [(None, r.waits)] if not r.discards else [(opt.discard, opt.waits) for opt in r.discards]
        for discard, waits in options:
            rows += [[pid, discard, w.tile, w.unseen, r.unit, w.on_discard.faan, _show(w.on_discard.winnable),
                      w.on_self_draw.faan, _show(w.on_self_draw.winnable)] for w in waits]
    return rows


def _cmd_waits(args: argparse.Namespace) -> int:
    from hkcore.analysis import Analysis, analyse
    from hkcore.preset import load_preset
    pos = read_position(args.hand)
    ids = _preset_list(args.preset)
    results: list[tuple[str, Analysis | HkcoreError]] = []
    for ref in ids:
        preset = load_preset(ref)
        try:
            results.append((preset.id, analyse(pos, preset, args.visible or "")))
        except HkcoreError as exc:
            if len(ids) == 1:
                raise
            results.append((preset.id, exc))
    good = [(pid, r) for pid, r in results if isinstance(r, Analysis)]
    status = _failures(len(results) - len(good), len(results), "presets")
    fmt = args.format or "table"
    if fmt == "json":  # always a list, one entry per preset, in the order given
        print_json([r.model_dump() if isinstance(r, Analysis) else _error_entry(pid, r) for pid, r in results])
        return status
    if fmt != "table":
        print_rows(_wait_rows(good), fmt)
        return status
    print(f"hand  {format_hand(pos)}   {to_unicode(parse_tiles(pos.tiles))}")
    for pid, r in results:
        if not isinstance(r, Analysis):
            print(f"{pid}: error: {r}")
    if not good:
        return status
    first = good[0][1]
    away = first.tiles_away
    if pos.waiting_size:  # one block per preset, each within 80 columns
        for pid, r in good:
            if not r.waiting:
                print(f"\n{pid}: {r.tiles_away} tiles away")
                continue
            print(f"\n{pid}: waiting, {sum(w.unseen for w in r.waits)} tiles unseen")
            table = [["  wait", "unseen", "on a discard", "on a self-draw"]]
            for w in r.waits:
                table.append([f"  {parse_tiles(w.tile)[0].unicode} {w.tile}", str(w.unseen),
                              _short_cell(w.on_discard, r.unit, pid), _short_cell(w.on_self_draw, r.unit, pid)])
            print_rows(table, "table")
        return status
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
            print(textwrap.fill(f"discard {opt.discard}: {opt.winnable_unseen} winning tiles unseen; waits {waits}",
                                width=80, initial_indent="  ", subsequent_indent="      "))
    return status


def _cmd_example(args: argparse.Namespace) -> int:
    print(json.dumps(EXAMPLE_HAND, ensure_ascii=False, indent=2))
    return 0


def _preset_data(p: Preset) -> dict[str, Any]:
    """Everything a preset holds, as its TOML data (``cap`` and ``payments``
    false for none), every key always present."""
    data = p.model_dump()
    data.setdefault("source", "")
    data.setdefault("requires", [])
    return data


def _preset_rules(p: Preset) -> list[tuple[str, Any]]:
    """(dotted TOML path, value) of every rule, with the paths of ``presets diff``."""
    data = _preset_data(p)
    rows: list[tuple[str, Any]] = []
    for key, value in data.items():
        if key == "shapes":
            rows.append(("shapes", list(p.shapes)))
            rows += [(f"shapes.{sid}.{k}", v) for sid, opts in p.shape_options.items() for k, v in opts.items()]
        elif key == "plugins":
            rows.append(("plugins", list(p.plugins)))
            rows += [(f"plugins.{pid}.{k}", v) for pid, opts in p.plugins.items() for k, v in opts.items()]
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, dict):
                    rows += [(f"{key}.{k}.{kk}", vv) for kk, vv in v.items()]
                else:
                    rows.append((f"{key}.{k}", v))
        else:
            rows.append((key, value))
    return rows


def _source_shown(p: Preset, builtin: bool) -> str | None:
    """The preset's ``source`` when it can be followed: a web address, a
    file that exists next to the preset file, or words that name no file."""
    src = p.source
    if not src or "://" in src:
        return src or None
    if "/" not in src and "\\" not in src and "." not in src:
        return src  # a name ("our club"), not a file
    if builtin:
        return None  # the rules texts that the built-in presets follow are not shipped
    found = Path(p.file).parent / src
    return str(found) if found.is_file() else None


def _options_text(options: Any) -> str:
    return ", ".join(f"{k}={_show(v)}" for k, v in options.items())


def _render_preset(p: Preset, builtin: bool) -> str:
    """Everything a preset holds, as a person reads it."""
    def named(items: Any, options: Any) -> str:
        return ", ".join(i + (f" ({_options_text(options[i])})" if options.get(i) else "") for i in items)

    cap = p.cap if p.cap is not None else "none"
    lines = [f"{p.id}: {p.name}", f"  {'from':<9} {'built-in' if builtin else p.file}"]
    source = _source_shown(p, builtin)
    if source:
        lines.append(f"  {'source':<9} {source}")
    lines.append(f"  unit {p.unit}, minimum {p.minimum}, cap {cap}, {p.tiles} tiles")
    lines.append(f"  {'shapes':<9} {named(p.shapes, p.shape_options)}")
    lines.append(f"  {'plugins':<9} {named(p.plugins, p.plugins) or 'none'}")
    if p.requires:
        lines.append(f"  {'requires':<9} {', '.join(p.requires)}")
    lines.append(f"  {'claims':<9} {_options_text(p.claims)}")
    if p.limit_adds:
        lines.append(f"  limit hands still add: {', '.join(p.limit_adds)}")
    lines.append("  patterns")
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
        if r.when:
            extra.append("when " + " and ".join(r.when))
        extra += [f"{k}={_show(v)}" for k, v in r.options.items()]
        lines.append(f"    {r.id:<22} {worth:<14} {'; '.join(extra)}".rstrip())
    lines.append(f"  {'payments':<9} {_options_text(p.payments) if p.payments else 'none'}")
    return "\n".join(lines)


def _cmd_presets(args: argparse.Namespace) -> int:
    from hkcore.preset import builtin_ids, diff, export_toml, load_preset

    fmt = args.format or "table"
    if args.action is None:
        listed = [load_preset(pid) for pid in builtin_ids()]
        if fmt == "json":
            keys = ("id", "name", "unit", "minimum", "cap", "tiles")
            print_json([{k: v for k, v in _preset_data(p).items() if k in keys} for p in listed])
        else:
            print_rows([("id", "name", "unit", "minimum", "cap", "tiles"),
                        *((p.id, p.name, p.unit, p.minimum, p.cap if p.cap is not None else "none", p.tiles)
                          for p in listed)], fmt)
        return 0
    if args.action in ("show", "export") and not args.ref:
        raise HkcoreError(f"presets {args.action}: give a preset id or path")
    if args.action == "show":
        p = load_preset(args.ref)
        if fmt == "json":
            print_json(_preset_data(p))
        elif fmt == "table":
            print(_render_preset(p, args.ref in builtin_ids()))
        else:
            print_rows([("rule", "value"), *((k, _show(v)) for k, v in _preset_rules(p))], fmt)
        return 0
    if args.action == "export":
        if fmt not in ("table", "json"):
            raise HkcoreError(f"presets export writes TOML, or JSON with --json; not {fmt}")
        p = load_preset(args.ref)
        text = export_toml(p) if fmt == "table" else json.dumps(_preset_data(p), ensure_ascii=False, indent=2) + "\n"
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
        if fmt == "json":
            print_json({"a": a.id, "b": b.id, "differences": [{"path": d.path, "a": d.a, "b": d.b} for d in found]})
        elif fmt == "table" and not found:
            print(f"{a.id} and {b.id} have the same rules")
        else:
            print_rows([("rule", a.id, b.id), *((d.path, _show(d.a), _show(d.b)) for d in found)], fmt)
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


def _compare_lines(lines: Iterable[bytes], refs: list[str], jobs: int) -> Iterator[tuple[str, bool]]:
    """One JSON line per hand, ``{"presets": [...]}`` with each preset's result
    or error in order (as ``compare --json``), or the hand's one error; and
    whether any preset failed."""
    from hkcore.preset import load_preset
    from itertools import tee

    from hkcore.batch import score_many

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
    from hkcore.preset import builtin_ids
    refs = _preset_list(args.preset) if args.preset else builtin_ids()
    if args.jsonl is not None:
        _jsonl_only(args, "compare")
        return _run_jsonl(_jsonl_lines(args.jsonl), lambda lines: _compare_lines(lines, refs, args.jobs))
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
    return _failures(sum(c.error is not None for c in cmp.columns), len(cmp.columns), "presets")


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
    status = 1 if any(row["problem"] for row in rows) else 0
    if args.format == "json":
        print_json(rows)
        return status
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
    return status


_SCHEMAS = ("hand", "meld", "result", "position", "analysis", "comparison", "claim", "preset", "summary")


def _cmd_schema(args: argparse.Namespace) -> int:
    from hkcore.analysis import Analysis
    from hkcore.claims import Claim
    from hkcore.comparison import Comparison
    from hkcore.models import Hand, Meld, Position, ScoreResult
    from hkcore.preset import Preset
    from hkcore.summary import ComparisonSummary

    schemas = {"hand": Hand, "meld": Meld, "result": ScoreResult, "position": Position, "analysis": Analysis,
               "comparison": Comparison, "claim": Claim, "preset": Preset, "summary": ComparisonSummary}
    model = schemas[args.model]
    print(json.dumps(model.model_json_schema(by_alias=True), ensure_ascii=False, indent=2))
    return 0


def _claim_row(c: Any) -> list[Any]:
    won = c.result
    value = None if won is None else f"{won.faan} {won.unit}"
    return [c.seat, c.kind, c.tiles, c.robbing, " ".join(c.forbidden_discards) or None, value]


_CLAIM_HEADER = ["seat", "claim", "tiles", "robbing", "may not discard", "scores"]


def _cmd_claims(args: argparse.Namespace) -> int:
    """Legal claims on a discard (``hkcore.legal_claims``) for one hand or several, and which claim gets
    the tile (``hkcore.resolve_claims``); or ``--resolve FILE`` for claims given as JSON."""
    from hkcore.claims import legal_claims, resolve_claims
    from hkcore.preset import load_preset

    fmt = args.format or "table"
    if args.discarder is None:
        raise HkcoreError("claims: give the seat that discarded with --from SEAT (E, S, W or N)")
    discarder = args.discarder.upper()[:1] if args.discarder.lower() in ("east", "south", "west", "north") \
        else args.discarder.upper()
    preset = load_preset(_preset_list(args.preset)[0] if args.preset else "bga-old-style")
    if args.resolve is not None:
        if args.hand or args.also:
            raise HkcoreError("claims --resolve: give the claims as JSON only, not hands")
        given = json.loads(read_text(args.resolve))
        won = resolve_claims(given, discarder, preset)
        if fmt == "json":
            print_json([c.model_dump() for c in won])
        else:
            print_rows([_CLAIM_HEADER, *map(_claim_row, won)] if won else [["no claim"]], fmt)
        return 0
    if not args.hand:
        raise HkcoreError("claims: give a waiting hand (notation with seat:, or a JSON file) and --discard TILE")
    if args.discard is None:
        raise HkcoreError("claims: give the discarded tile with --discard TILE")
    hands = [read_position(args.hand), *(read_position([h]) for h in args.also or ())]
    seats = [h.seat_wind for h in hands]
    for i, seat in enumerate(seats):
        if seat in seats[:i]:
            raise HkcoreError(f"claims: two hands sit at seat {seat}; give each hand its own seat: (seat:S)")
    held = [0] * 34
    for h in hands:
        for t in parse_tiles(h.tiles + "".join(m.tiles for m in h.melds)):
            held[t.index] += 1
            if held[t.index] > 4:
                raise HandError(f"--also: the hands hold {held[t.index]} copies of {t} between them (at most 4)",
                                "also", str(t))
    legal = {h.seat_wind: legal_claims(h, args.discard, discarder, preset, kong=args.kong,
                                       last_tile=args.last_tile) for h in hands}
    # each seat claims the first it may (a win before a kong, a pung, then chows)
    resolved = resolve_claims([found[0] for found in legal.values() if found], discarder, preset)
    if fmt == "json":
        if len(hands) == 1:
            print_json([c.model_dump() for c in legal[seats[0]]])  # as POST /claims/legal answers
        else:
            print_json({"legal": {seat: [c.model_dump() for c in found] for seat, found in legal.items()},
                        "resolved": [c.model_dump() for c in resolved]})
        return 0
    rows = [_CLAIM_HEADER] + [_claim_row(c) for found in legal.values() for c in found]
    if fmt != "table":
        print_rows(rows, fmt)
        return 0
    print(f"discard  {args.discard} from {discarder} under {preset.id}")
    for h in hands:
        if not legal[h.seat_wind]:
            print(f"  {h.seat_wind}: no legal claim ({format_hand(h)})")
    if len(rows) > 1:
        print_rows(rows, "table")
    if len(hands) > 1 or resolved:
        print("gets it  " + ("; ".join(f"{c.seat} ({c.kind} {c.tiles})" for c in resolved) if resolved
                             else "nobody: the next seat draws"))
    return 0


def _cmd_decompose(args: argparse.Namespace) -> int:
    from hkcore import core

    tiles = parse_tiles(args.tiles)
    melds = args.meld or ()
    away = core.tiles_away(tiles, melds)
    complete = len(tiles) % 3 == 2
    readings = core.readings(tiles, melds) if complete else None
    waits = None if complete else core.waits(tiles, melds)
    # 0 for 14 - 3k tiles is one discard from waiting, not waiting (docs/rules.md, "A short hand")
    status = {-1: "complete", 0: "waiting" if not complete else "a discard from waiting"}.get(
        away, f"{away} tiles away")
    declared = len(melds) or (14 - len(tiles)) // 3
    if args.format == "json":  # readings for 14 - 3k tiles, waits for 13 - 3k, the other null
        print_json({"tiles": format_tiles(tiles), "melds": list(melds), "declared_sets": declared,
                    "tiles_away": away, "status": status,
                    "readings": None if readings is None else [_reading_data(r) for r in readings],
                    "waits": None if waits is None else [str(t) for t in waits], "core": core.IMPLEMENTATION})
        return 0
    lines = [f"hand     {format_tiles(tiles)}  {to_unicode(sorted(tiles))}" + "".join(f"  + {m}" for m in melds),
             f"status   {status}"]
    if declared and not melds:
        lines.append(f"sets     {declared} declared, not given: counted as any {declared} sets")
    if readings == []:
        lines.append("readings none")
    if readings is not None:
        lines += [f"reading {i}: {format_reading(r)}" for i, r in enumerate(readings, 1)]
    else:
        lines.append("waits    " + (" ".join(f"{t} {t.unicode}" for t in waits) if waits else "none"))
    lines.append(f"core     {core.IMPLEMENTATION}")
    print("\n".join(lines))
    return 0


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
    (``_jsonl_lines`` shows one by bytes for a file)."""
    if source != "-" or not sys.stderr.isatty():
        return (line for _, line in lines)
    from tqdm import tqdm

    return (line for _, line in tqdm(lines, unit=" hands", file=sys.stderr, leave=False))


def _cmd_report(args: argparse.Namespace) -> int:
    from hkcore.report import report_folder, require_matplotlib, write_report
    from hkcore.summary import compare_many

    require_matplotlib()  # before reading any hand
    report_folder(args.out)
    refs = _preset_list(args.preset) if args.preset else ["all"]
    summary = compare_many(_counted(_jsonl_lines(args.source, "source"), args.source), refs, jobs=args.jobs)
    from hkcore.preset import builtin_ids, load_preset

    given = [load_preset(pid) for ref in refs for pid in (builtin_ids() if ref == "all" else [ref])]
    written = write_report(summary, args.out, given)
    if args.format == "json":
        print_json(summary.model_dump())
    else:
        print("\n".join(map(str, written)))
    return _failures(summary.unreadable, summary.hands, "hands (under every preset)")


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
    limits = {k: v for k, v in (("time_limit", args.time_limit), ("batch_time_limit", args.batch_time_limit),
                                ("head_time_limit", args.head_time_limit),
                                ("most_connections", args.most_connections)) if v is not None}
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


def _output(parser: argparse.ArgumentParser, shape: str, table: bool = False) -> None:
    """``--json`` (and ``--format`` for a command that prints a table), into ``args.format``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", dest="format", action="store_const", const="json",
                       help=f"print JSON on stdout: {shape}" + ("; the same as --format json" if table else ""))
    if table:
        group.add_argument("--format", choices=FORMATS, help="table (default), json, csv or markdown")


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
    _output(sc, "a list of results, one per preset in order (an error in its place)", table=True)
    sc.set_defaults(func=_cmd_score)

    cp = sub.add_parser("compare", help="one hand under several presets, side by side")
    cp.add_argument("hand", nargs="*", help="a JSON file, - for stdin, or compact notation")
    cp.add_argument("--jsonl", metavar="FILE", help="compare every hand of a JSON-lines file (- for stdin), "
                                                    "one line per hand with each preset's result")
    cp.add_argument("--jobs", "-j", type=int, default=1, help="with --jsonl: worker processes per preset")
    cp.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable (default: all built-in)")
    _output(cp, '{"hand": ..., "presets": [...]}, one entry per preset in order', table=True)
    cp.set_defaults(func=_cmd_compare)

    wt = sub.add_parser("waits", help="tiles away, waits and their value for a hand in play")
    wt.add_argument("hand", nargs="+", help="a JSON file, - for stdin, or notation without win: "
                                            "e.g. 123m456p23s55z 789s:W seat:S")
    wt.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable; 'all' for every built-in")
    wt.add_argument("--visible", help="tiles face up elsewhere (ponds, others' melds), for the unseen counts")
    _output(wt, "a list of analyses, one per preset in order (an error in its place)", table=True)
    wt.set_defaults(func=_cmd_waits)

    cl = sub.add_parser("claims", help="legal claims on a discard (chow, pung, kong, win) and which one gets it")
    cl.add_argument("hand", nargs="*", help="a waiting hand: notation with seat: (e.g. 23m456p789s11z 777z:E "
                                            "seat:S), a JSON file or -")
    cl.add_argument("--discard", "-d", metavar="TILE", help="the tile discarded (or being added to a kong)")
    cl.add_argument("--from", dest="discarder", metavar="SEAT", help="the seat that discarded it (E, S, W, N)")
    cl.add_argument("--also", action="append", metavar="HAND",
                    help="another seat's waiting hand, quoted notation (repeatable): claims of every hand, and "
                         "which gets the tile if each seat claims the first it may")
    cl.add_argument("--kong", choices=["added", "concealed"],
                    help="the tile is being added to a pung, or a concealed kong is declared: only a robbing win")
    cl.add_argument("--last-tile", action="store_true", help="the discard is the last of the hand")
    cl.add_argument("--resolve", metavar="FILE", help="a JSON list of claims (- for stdin): which gets the tile")
    cl.add_argument("--preset", "-p", action="append", help="preset id or TOML path (default bga-old-style)")
    _output(cl, "the list of claims (POST /claims/legal); with --also, {\"legal\": {seat: [...]}, "
                "\"resolved\": [...]}; with --resolve, the claims that get the tile", table=True)
    cl.set_defaults(func=_cmd_claims)

    ex = sub.add_parser("example", help="print the example hand of docs/rules.md as JSON")
    _output(ex, "always JSON")
    ex.set_defaults(func=_cmd_example)

    pr = sub.add_parser("presets", help="list presets; show, export or diff them")
    pr.add_argument("action", nargs="?", choices=["show", "export", "diff"],
                    help="show: everything one preset holds; export: the resolved preset as TOML (JSON with --json); "
                         "diff: every rule on which two presets differ")
    pr.add_argument("ref", nargs="?", help="preset id or TOML path")
    pr.add_argument("other", nargs="?", help="the second preset (diff)")
    pr.add_argument("--output", "-o", help="export: write to this file instead of stdout")
    _output(pr, "list: a list of presets; show and export: the preset's TOML data; "
                'diff: {"a": ..., "b": ..., "differences": [...]}', table=True)
    pr.set_defaults(func=_cmd_presets)

    pl = sub.add_parser("plugins", help="installed plugins, what each provides and any problem (exit 1 if any)")
    _output(pl, "a list of plugins")
    pl.set_defaults(func=_cmd_plugins)

    sh = sub.add_parser("schema", help="JSON Schema of the data: a hand (default), a result, a preset...")
    sh.add_argument("model", nargs="?", default="hand", choices=_SCHEMAS)
    _output(sh, "always JSON")
    sh.set_defaults(func=_cmd_schema)

    dec = sub.add_parser("decompose", help="readings, tiles away and waits of a hand")
    dec.add_argument("tiles", help="concealed tiles, e.g. 11122233344455m")
    dec.add_argument("--meld", action="append", help="a declared set, e.g. 555z (repeatable)")
    _output(dec, "tiles, status, readings or waits")
    dec.set_defaults(func=_cmd_decompose)

    sa = sub.add_parser("sample", help="random complete hands, one JSON line each (the same for the same seed)")
    sa.add_argument("--n", "-n", type=int, default=1000, help="how many hands (default 1000)")
    sa.add_argument("--seed", type=int, default=0, help="the random seed (default 0)")
    sa.add_argument("--preset", "-p", help="the table the hands are for: no bonus tiles under a 136-tile preset; "
                                           "'all': hands every built-in preset reads (no bonus tiles)")
    sa.add_argument("--only", choices=["complete", "winnable"],
                    help="keep only hands complete (or winnable) under --preset")
    _output(sa, "always JSON lines, one hand each")
    sa.set_defaults(func=_cmd_sample)

    rp = sub.add_parser("report", help="many hands under several presets: summary.json, summary.md, report.html")
    rp.add_argument("source", help="a JSON-lines file of hands (one hand a line: JSON or notation), - for stdin")
    rp.add_argument("--preset", "-p", action="append",
                    help="preset id or TOML path, repeatable; 'all' for every built-in (the default)")
    rp.add_argument("--out", "-o", required=True, help="the folder to write the report into (made if missing)")
    rp.add_argument("--jobs", "-j", type=int, default=1, help="worker processes (default 1)")
    _output(rp, "summary.json's content instead of the paths written")
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
    sv.set_defaults(func=_cmd_serve)
    add_table_commands(sub)
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
    except Exception as exc:  # no traceback for the user; say what happened
        print(f"hkscore: internal error: {type(exc).__name__}: {exc} (please report this)", file=sys.stderr)
        return 3


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
