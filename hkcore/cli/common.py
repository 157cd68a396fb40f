"""What the ``hkscore`` commands share: reading hands and JSON lines from
the command line, printing JSON and tables, counting failures."""
from __future__ import annotations

import argparse
import contextlib
import csv
import json
import sys
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hkcore.errors import HandError, HkcoreError, shown
from hkcore.tiles import TILES, format_tiles

if TYPE_CHECKING:
    from hkcore.models import Hand, Position
    from hkcore.preset import Preset


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


def error_entry(preset_id: str, exc: HkcoreError) -> dict[str, Any]:
    """A preset's error in a list of results: ``{"preset", "error", "type", "field"}``."""
    from hkcore.batch import error_json
    entry: dict[str, Any] = json.loads(error_json(exc, preset_id))
    return entry


def failures(failed: int, total: int, what: str, why: str = "") -> int:
    """Say on stderr how many of ``total`` failed (and ``why``, errors by field); the exit status (1 if any)."""
    if failed:
        print(f"hkscore: {failed:,} of {total:,} {what} failed" + (f" ({why})" if why else ""), file=sys.stderr)
    return 1 if failed else 0


def format_set(code: int) -> str:
    """A set code as tiles, e.g. ``123m`` or ``555z``."""
    from hkcore import core
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def reading_data(reading: tuple[int, ...]) -> dict[str, Any]:
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
    data = reading_data(reading)
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


def is_file(word: str) -> bool:
    try:
        return Path(word).is_file()
    except (OSError, ValueError):
        return False


def read_hand(args: Sequence[str]) -> Hand:
    """A hand from the command line: a JSON file, ``-`` (stdin), or notation words."""
    from hkcore.models import Hand
    if len(args) == 1 and (args[0] == "-" or args[0].endswith(".json") or is_file(args[0])):
        return Hand.parse(read_text(args[0]))
    return Hand.parse(" ".join(args))


def preset_list(values: Sequence[str] | None) -> list[str]:
    """The presets ``--preset`` names (ids, TOML paths or text), each once in the order given; ``all``: every
    built-in; none given: bga-old-style."""
    from hkcore.preset import builtin_ids
    if not values:
        return ["bga-old-style"]
    out: list[str] = []
    for v in values:
        out.extend(p for p in (builtin_ids() if v == "all" else [v]) if p not in out)  # each once, first place
    return out


def load_presets(refs: Sequence[str]) -> list[Preset]:
    """Each preset of ``refs`` loaded (``all``: every built-in one); a ``PresetError`` names one that cannot be."""
    from hkcore.preset import builtin_ids, load_preset
    return [load_preset(pid) for ref in refs for pid in (builtin_ids() if ref == "all" else [ref])]


def linted_presets(refs: Sequence[str]) -> list[Preset]:
    """The presets of ``refs`` loaded (as ``load_presets``) for a command that says their warnings
    (``said_warnings``): a pattern without its shape is told there, not also as a Python warning."""
    import warnings

    from hkcore.registry import PresetWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PresetWarning)
        return load_presets(refs)


def said_preset_warnings(refs: Sequence[str], table: bool = True) -> list[Preset]:
    """The presets of ``refs`` loaded (``linted_presets``), each one's warnings
    said on stderr (``said_warnings``; ``table``: those that hold only at the
    table too)."""
    presets = linted_presets(refs)
    said_warnings(presets, table)
    return presets


class LintWarning(UserWarning):
    """A preset's warning (``Preset.warnings``) as a command says it (``hkscore --no-warnings`` silences them)."""


def said_warnings(presets: Iterable[Preset], table: bool = True) -> None:
    """Each warning of ``presets`` (``Preset.warnings``) said as a ``LintWarning``, which ``hkscore`` prints
    as a line on stderr, ``hkscore: warning: FILE: path: code: message`` (FILE: the preset's file,
    or its id for a built-in or a preset given as TOML text). Without
    ``table``, those that hold only at the table (``Lint.at_table``) are left
    out: the command scores hands given to it."""
    import warnings

    for p in presets:
        name = p.file if Path(p.file).is_absolute() else p.id
        for w in p.warnings:
            if table or not w.at_table:
                warnings.warn(LintWarning(f"{name}: {w}"), stacklevel=2)


def bot_names(text: str) -> list[str]:
    """``--bots``: one bot name for every seat, or four separated by commas (E, S, W, N)."""
    bots = [b.strip() for b in text.split(",")]
    if len(bots) not in (1, 4):
        raise HkcoreError(f"--bots {shown(text)}: one bot name for every seat, or four separated by commas")
    return bots


def bot_mixes(given: list[str] | None, default: str) -> str | list[str] | list[list[str]]:
    """Repeated ``--bots``: each one mix (``bot_names``); one given (or ``default``) is that mix alone."""
    mixes = [bot_names(text) for text in given or [default]]
    return mixes[0] if len(mixes) == 1 else mixes


def bot_time_limit_option(parser: argparse.ArgumentParser) -> None:
    """The ``--bot-time-limit`` of the commands that seat programs' bots."""
    parser.add_argument("--bot-time-limit", type=float, metavar="SECONDS",
                        help="seconds a program's bot (cmd:PROGRAM ARGS, docs/bots.md) has for each decision, before "
                             "the fallback bot plays its seat (default 5)")


def bot_time_limit(args: argparse.Namespace) -> float:
    """``--bot-time-limit``, checked (its default when not given)."""
    from hkcore.table.players.external import MOST_TIME_LIMIT, TIME_LIMIT

    seconds = args.bot_time_limit
    if seconds is None:
        return TIME_LIMIT
    if not 0.001 <= seconds <= MOST_TIME_LIMIT:  # NaN fails too
        raise HkcoreError(f"--bot-time-limit: expected seconds, 0.001 to {MOST_TIME_LIMIT:g}, got {seconds:g}")
    return float(seconds)


def read_position(args: Sequence[str]) -> Position:
    """A hand in play from the command line: a JSON file, ``-`` (stdin), or notation words."""
    from hkcore.models import Position
    if len(args) == 1 and (args[0] == "-" or args[0].endswith(".json") or is_file(args[0])):
        return Position.parse(read_text(args[0]))
    return Position.parse(" ".join(args))


def show(value: Any) -> str:
    if value is None:
        return "(absent)"
    if value is False:
        return "false"
    if value is True:
        return "true"
    return json.dumps(value, ensure_ascii=False) if not isinstance(value, (int, str)) else str(value)


def jsonl_lines(source: str, argument: str = "--jsonl") -> Iterator[tuple[int, bytes]]:
    """(line number, line) of a JSON-lines file (decompressed by its suffix)
    or stdin, as ``hkcore.lines`` splits them; a progress bar on stderr when
    reading a file on a terminal. ``argument``: how the command line named
    the file, for the error."""
    from hkcore.lines import file_lines

    with progress_bar(source) as progress:
        yield from file_lines(source, argument, progress)


@contextlib.contextmanager
def progress_bar(source: str) -> Iterator[Callable[[int], None] | None]:
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

    def advance(done: int) -> None:
        bar.update(done - bar.n)

    try:
        yield advance
    finally:
        bar.close()


def run_jsonl(lines: Iterator[tuple[int, bytes]], answer: Any) -> int:
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
            count_why(text, why)
        if text.startswith('{"error"'):
            text = '{"line": ' + str(n) + ", " + text[1:]
        out.write(text + "\n")
    out.flush()
    return failures(failed, total, "lines", why_text(why))


def count_why(text: str, why: Counter[tuple[str, str]]) -> None:
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


def why_text(why: Counter[tuple[str, str]]) -> str:
    """``count_why``'s counts as a clause: which preset refused how many lines, on which field."""
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


def jsonl_only(args: argparse.Namespace, command: str) -> None:
    """``--jsonl`` takes no hand argument and writes JSON lines only."""
    if args.hand:
        raise HkcoreError(f"{command}: give hands either as an argument or with --jsonl, not both")
    if args.format not in (None, "json"):
        raise HkcoreError(f"{command} --jsonl writes JSON lines; --format {args.format} is not for it")


def output_options(parser: argparse.ArgumentParser, shape: str, table: bool = False) -> None:
    """``--json`` (and ``--format`` for a command that prints a table), into ``args.format``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--json", dest="format", action="store_const", const="json",
                       help=f"print JSON on stdout: {shape}" + ("; the same as --format json" if table else ""))
    if table:
        group.add_argument("--format", choices=FORMATS, help="table (default), json, csv or markdown")
