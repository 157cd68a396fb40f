"""A ``ComparisonSummary`` as a report: summary.json, summary.md and report.html.

The HTML page is one self-contained file: the plots are inline SVG drawn by
matplotlib (the optional extra ``hkcore[report]``, imported only when a page
is drawn), no script, no style sheet or font from the network. Every number
of the page's tables carries ``data-`` attributes naming where it comes from
in summary.json (``data-preset``, ``data-field``, ``data-key``,
``data-value``; ``data-a``/``data-b`` for a pair of presets), so a program
can read the page back.
"""
from __future__ import annotations

import html
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from hkcore.errors import HkcoreError, shown
from hkcore.models import Hand
from hkcore.notation import unicode_hand
from hkcore.preset import Preset, builtin_ids, diff, load_preset
from hkcore.report_plots import figures, hist, pct, unit
from hkcore.summary import ComparisonSummary, PresetSummary, summary_json

INSTALL = "hkscore report needs matplotlib: pip install 'hkcore[report]'"


class MissingExtra(HkcoreError):
    """An optional dependency is not installed (the message says how to install it)."""


def require_matplotlib() -> None:
    """Raise ``MissingExtra`` (one line, how to install) when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtra(INSTALL) from None


def report_folder(out: str | Path) -> Path:
    """The folder a report is written into, made if missing; an HkcoreError naming ``out`` when it is a file
    or cannot be made (checked before any hand is read)."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise HkcoreError(f"out: {shown(str(out))} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HkcoreError(f"out: cannot make the folder {shown(str(out))}: {exc.strerror or exc}") from None
    return folder


def write_report(summary: ComparisonSummary, out: str | Path, presets: Sequence[Preset] | None = None) -> list[Path]:
    """Write summary.json, summary.md and report.html into ``out`` (made if
    missing); the paths written. ``presets``: the presets summarised (the
    built-in ones are found by id): the page then says how their rules differ
    and scores each flip example under both presets."""
    require_matplotlib()
    folder = report_folder(out)
    files = {"summary.json": summary_json(summary), "summary.md": markdown(summary),
             "report.html": page(summary, presets)}
    return write_files(folder, files)


def write_files(folder: Path, files: dict[str, str]) -> list[Path]:
    """Write each named text into ``folder``; the paths written. An interrupted
    write leaves no file that looks complete."""
    written = []
    for name, text in files.items():
        path = folder / name
        partial = folder / f".{name}.partial"
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        written.append(path)
    return written


# --------------------------------------------------------------------------
# figures derived from the counts


def _hands(n: int) -> str:
    return f"{n:,} hand" + ("" if n == 1 else "s")


def _mean(h: dict[str, int]) -> float | None:
    total = sum(h.values())
    return sum(int(k) * n for k, n in h.items()) / total if total else None


def _median(h: dict[str, int]) -> int | None:
    total = sum(h.values())
    seen = 0
    for value, n in hist(h):
        seen += n
        if 2 * seen >= total:
            return value
    return None


def _num(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _share(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _common(summary: ComparisonSummary) -> dict[str, PresetSummary]:
    """Each preset's counts over the hands every preset reads (the rows of the report's tables)."""
    return {pid: s.common() for pid, s in summary.presets.items()}


def _overview_rows(summary: ComparisonSummary) -> Iterator[tuple[str, list[tuple[str, str, Any]]]]:
    """Per preset, over the hands every preset reads: (id, [(field, text, raw value or None)])."""
    n = summary.compared()
    for pid, s in _common(summary).items():
        yield pid, [
            ("complete", f"{s.complete:,}", s.complete), ("winnable", f"{s.winnable:,}", s.winnable),
            ("winnable_share", pct(s.winnable, n), None),
            ("limit", f"{s.limit:,}", s.limit),
            ("mean", _num(_mean(s.faan_histogram)) + " " + unit(s), None),
        ]


def _apart_rows(summary: ComparisonSummary) -> Iterator[tuple[str, PresetSummary, list[tuple[str, str, Any]]]]:
    """Per preset, over the hands some preset cannot read: (id, its counts there, [(field, text, raw value
    or None)])."""
    for pid, s in summary.presets.items():
        a = s.apart
        if a is not None:
            yield pid, a, [("read", f"{a.hands - a.errors:,}", None), ("errors", f"{a.errors:,}", a.errors),
                        ("complete", f"{a.complete:,}", a.complete), ("winnable", f"{a.winnable:,}", a.winnable),
                        ("limit", f"{a.limit:,}", a.limit)]


def _compared_line(summary: ComparisonSummary) -> str:
    n, ids = summary.compared(), len(summary.presets)
    text = f"Over the {_hands(n)} every preset reads" if ids > 1 else f"Over the {_hands(n)} read"
    if k := summary.partly_read():
        text += f"; {_hands(k)} that some preset cannot read {'is' if k == 1 else 'are'} counted apart (below)"
    return text + ". Winnable share: of those hands; mean: of the complete ones."


def _refusals(s: PresetSummary) -> list[tuple[str, int]]:
    """What a preset refused (field, hands), most first."""
    return sorted(s.refused.items(), key=lambda kv: (-kv[1], kv[0]))


def _refused(s: PresetSummary) -> str:
    """What a preset refused, most first: "flowers 7,200, seasons 1,800"."""
    return ", ".join(f"{k} {n:,}" for k, n in _refusals(s))


def _mixed_units(summary: ComparisonSummary) -> bool:
    return len({s.unit for s in summary.presets.values()}) > 1


def _refusal_note(summary: ComparisonSummary) -> str:
    """What the table of the hands some preset cannot read holds, and why they are refused."""
    if not summary.partly_read():
        return ""
    bonus = any(k in ("flowers", "seasons") for s in summary.presets.values() if s.apart for k in s.apart.refused)
    text = ("Each preset's counts over these hands alone, kept out of the shares above; refused: by the field "
            "its error names.")
    if bonus:
        text += (" A 136-tile preset refuses every hand with bonus tiles (flowers, seasons): "
                 "`hkscore sample --preset hk-classic` makes hands without them, which every built-in preset reads.")
    return text


def _payout_rows(summary: ComparisonSummary) -> Iterator[tuple[str, list[tuple[str, str, Any]]]]:
    for pid, s in _common(summary).items():
        if not s.pays:
            continue
        yield pid, [
            ("paid", f"{s.paid:,}", s.paid),
            ("mean_gain", _num(_mean(s.payout_histogram)), None),
            ("median_gain", _num(_median(s.payout_histogram), 0), None),
            ("winner_gain", f"{s.winner_gain:,}", s.winner_gain),
            ("discarder_paid", f"{s.discarder_paid:,}", s.discarder_paid),
            ("discarder_share", _share(s.discarder_share()), None),
            ("discarder_share_on_discard", _share(s.discarder_share_on_discard()), None),
        ]


def _difference_rows(summary: ComparisonSummary) -> Iterator[tuple[str, str, list[tuple[str, str]]]]:
    for a, row in summary.faan_differences.items():
        for b, h in row.items():
            both = sum(h.values())
            same = h.get("0", 0)
            higher = sum(n for k, n in h.items() if int(k) > 0)
            lower = sum(n for k, n in h.items() if int(k) < 0)
            yield a, b, [("both", f"{both:,}"), ("same", pct(same, both)), ("a_higher", pct(higher, both)),
                         ("b_higher", pct(lower, both)), ("mean", _num(_mean(h), 2))]


def _patterns(summary: ComparisonSummary) -> list[str]:
    """Pattern ids, the most frequent (over every preset) first."""
    total: dict[str, int] = {}
    for s in _common(summary).values():
        for k, n in s.pattern_counts.items():
            total[k] = total.get(k, 0) + n
    return sorted(total, key=lambda k: (-total[k], k))


def _faan_values(summary: ComparisonSummary) -> list[int]:
    return sorted({int(k) for s in _common(summary).values() for k in s.faan_histogram})


def _unicode(notation: str) -> str:
    try:
        return unicode_hand(Hand.parse(notation))
    except HkcoreError:
        return ""


# --------------------------------------------------------------------------
# markdown


def _md_table(rows: list[list[str]]) -> str:
    def line(row: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
    return "\n".join([line(rows[0]), "|" + "---|" * len(rows[0]), *map(line, rows[1:])])


def markdown(summary: ComparisonSummary) -> str:
    """The summary's tables in GitHub markdown."""
    ids = list(summary.presets)
    common = _common(summary)
    out = [f"# {summary.hands:,} hands under {len(ids)} presets", ""]
    if summary.unreadable:
        out += [f"{_hands(summary.unreadable)} could not be read under any preset.", ""]
    rows = [["preset", "complete", "winnable", "winnable share", "limit", "mean"]]
    rows += [[pid, *(text for _, text, _ in cells)] for pid, cells in _overview_rows(summary)]
    out += ["## Presets", "", _compared_line(summary), "", _md_table(rows), ""]
    if note := _refusal_note(summary):
        rows = [["preset", "read", "refused", "by field", "complete", "winnable", "limit"]]
        rows += [[pid, cells[0][1], cells[1][1], _refused(apart), *(t for _, t, _ in cells[2:])]
                 for pid, apart, cells in _apart_rows(summary)]
        out += [f"### Hands some preset cannot read: {summary.partly_read():,}", "", note, "", _md_table(rows), ""]
    rows = [["faan", *ids]]
    for f in _faan_values(summary):
        rows.append([str(f), *(str(common[p].faan_histogram.get(str(f), "")) for p in ids)])
    out += ["## Faan of complete hands", "", "(points under a points preset)", "", _md_table(rows), ""]
    pay = list(_payout_rows(summary))
    if pay:
        rows = [["preset", "paid hands", "mean gain", "median gain", "winners' gains", "paid by discarders",
                 "discarder share", "discarder share, discard wins"]]
        rows += [[pid, *(text for _, text, _ in cells)] for pid, cells in pay]
        out += ["## Payments", "", "The winner's net gain per paid hand.", "", _md_table(rows), ""]
    rows = [["pattern", *ids]]
    for pat in _patterns(summary):
        rows.append([pat, *(str(common[p].pattern_counts.get(pat, "")) for p in ids)])
    out += ["## Patterns", "", "Complete hands in whose counted reading the pattern appears.", "",
            _md_table(rows), ""]
    rows = [["A", "B", "hands complete under both", "same", "A higher", "B higher", "mean A - B"]]
    rows += [[a, b, *(text for _, text in cells)] for a, b, cells in _difference_rows(summary)]
    out += ["## Faan differences", "", *([_UNITS_NOTE, ""] if _mixed_units(summary) else []), _md_table(rows), ""]
    rows = [["winnable under", "not under", "hands"]]
    flips = [(a, b, f) for a, row in summary.flips.items() for b, f in row.items()]
    rows += [[a, b, f"{f.count:,}"] for a, b, f in flips]
    out += ["## Flips", "", "Hands valid under both presets, winnable under the first and not under the second.",
            "", _md_table(rows), ""]
    for a, b, flip in flips:
        if flip.examples:
            out += [f"### {a}, not {b}", ""]
            out += [f"- #{e.index}: `{e.hand}` {_unicode(e.hand)}" for e in flip.examples]
            out.append("")
    return "\n".join(out)


# --------------------------------------------------------------------------
# the page

_CSS = """
nav#contents { background: #f5f5f0; border: 1px solid #ddd; padding: 0.4em 1em; display: inline-block; }
nav#contents ol { margin: 0.2em 0; padding-left: 1.4em; columns: 2; column-gap: 3em; }
.name { color: #555; font-size: 0.85em; }
.why { color: #555; font-size: 0.85em; }
details summary { cursor: pointer; font-weight: 600; margin: 0.4em 0; }
#rules { table-layout: fixed; width: 100%; } #rules td { text-align: left; overflow-wrap: anywhere; }
#rules th.id { width: 24%; }
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222;
       background: #fff; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f3f7; } td.id, th.id { text-align: left; }
.figure svg { max-width: 100%; height: auto; }
.tiles { font-size: 1.8em; font-family: "Symbola", "Noto Sans Symbols 2", sans-serif; white-space: nowrap; }
code { font-size: 0.95em; } ol.examples li { margin: 0.2em 0; }
.note { color: #555; font-size: 0.9em; }
"""


_UNITS_NOTE = ("A preset that counts points is compared in its own unit: a difference between a points preset and "
               "a faan preset says which scores a hand higher in its own terms, not by how much.")


def _attrs(**kw: Any) -> str:
    return "".join(f' data-{k.replace("_", "-")}="{html.escape(str(v))}"' for k, v in kw.items() if v is not None)


def _code(text: str) -> str:
    """Escaped text with its `backticked` parts as <code>."""
    pieces = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


def _td(text: str, **kw: Any) -> str:
    return f"<td{_attrs(**kw)}>{html.escape(text)}</td>"


def _known(summary: ComparisonSummary, presets: Sequence[Preset] | None) -> dict[str, Preset]:
    """The summary's presets by id: those given, and the built-in ones it names (any other is unknown here)."""
    given = {p.id: p for p in presets or ()}
    builtin = set(builtin_ids())
    return {pid: given[pid] if pid in given else load_preset(pid)
            for pid in summary.presets if pid in given or pid in builtin}


def _value(v: Any) -> str:
    """A rule's value as the rules table shows it: none for absent (a pattern off)."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict) and "scheme" in v:
        return f"scheme {v['scheme']}"  # a payment table: its scheme (presets diff shows the rest)
    text = json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) if isinstance(v, (dict, list)) else str(v)
    return text if len(text) <= 60 else text[:57] + "..."


def rule_table_rows(rules: list[tuple[str, list[Any]]], names: dict[str, tuple[str, str]]) -> list[str]:
    """The rules table's rows in HTML: each rule's dotted path (a pattern's names beside its id, from
    ``names``) and each preset's value as ``rule_value`` shows it."""
    e = html.escape
    rows = []
    for path, values in rules:
        head = path.split(".")
        label = e(path)
        if head[0] == "patterns" and len(head) > 1 and head[1] in names:
            label += f' <span class="name">{e(names[head[1]][0])} {e(names[head[1]][1])}</span>'
        rows.append(f'<tr><td class="id">{label}</td>' + "".join(f"<td>{e(_value(v))}</td>" for v in values)
                    + "</tr>")
    return rows


#: the order of the rules table: the table's size and thresholds first, then shapes, patterns, payments
_RULE_ORDER = {key: i for i, key in enumerate(("unit", "tiles", "minimum", "cap", "payments", "shapes", "limit_adds",
                                               "claims", "patterns", "plugins", "table"))}


def rule_rows(presets: dict[str, Preset]) -> list[tuple[str, list[Any]]]:
    """Every rule on which the presets do not all agree (``hkscore presets diff``'s dotted paths),
    with each preset's value in order (None: absent, a pattern off)."""
    ids = list(presets)
    if len(ids) < 2:
        return []
    first = presets[ids[0]]
    found = {pid: {d.path: d for d in diff(first, presets[pid])} for pid in ids[1:]}
    paths: list[str] = []
    for by_path in found.values():
        paths.extend(path for path in by_path if path not in paths)
    paths.sort(key=lambda path: _RULE_ORDER.get(path.split(".")[0], len(_RULE_ORDER)))
    def at(by_path: dict[str, Any], path: str, base: Any) -> Any:
        """A preset's value at ``path``: its difference there, inside a difference of a containing rule
        (``payments`` when one side has no table), else the first preset's value."""
        keys = path.split(".")
        for n in range(len(keys), 0, -1):
            d = by_path.get(".".join(keys[:n]))
            if d is not None:
                v = d.b
                for k in keys[n:]:
                    v = v.get(k) if isinstance(v, dict) else None
                return v
        return base

    rows = []
    for path in paths:
        base = next(by_path[path].a for by_path in found.values() if path in by_path)
        rows.append((path, [base, *(at(found[pid], path, base) for pid in ids[1:])]))
    return rows


def _names() -> dict[str, tuple[str, str]]:
    """Pattern id -> (English, Chinese) name, from the current plugins."""
    from hkcore.registry import current

    return {pid: (p.name_en, p.name_zh) for pid, p in current().catalogue.patterns.items()}


def _flip_note(hand: str, a: Preset, b: Preset, names: dict[str, tuple[str, str]]) -> str:
    """A flip example under both presets: each one's total, why the second does not win, and the
    patterns the first counts higher (those that decided it)."""
    from hkcore.engine import score

    try:
        ra, rb = score(hand, a), score(hand, b)
    except HkcoreError as exc:  # pragma: no cover - a flip's hand is read by both presets
        return str(exc)
    fa = {p.id: p.faan for p in ra.patterns}
    fb = {p.id: p.faan for p in rb.patterns}
    decided = [f"{pid} {names.get(pid, ('', ''))[1]} {fa[pid]} (vs {fb.get(pid, 0)})".replace("  ", " ")
               for pid in fa if fa[pid] > fb.get(pid, 0)]
    why = (rb.reason or "").split("; ")[-1]
    text = f"{a.id} {ra.faan} {ra.unit}, {b.id} {rb.faan} {rb.unit}" + (f" ({why})" if why else "")
    return text + (f"; decided by {', '.join(decided)}" if decided else "")


def page(summary: ComparisonSummary, presets: Sequence[Preset] | None = None) -> str:
    """The report as one self-contained HTML page (``presets``: see ``write_report``)."""
    ids = list(summary.presets)
    e = html.escape
    known = _known(summary, presets)
    names = _names()
    sections = [("rules", "Rules that differ"), ("presets", "Presets"), ("faan", "Faan of complete hands"),
                ("payments", "Payments"), ("patterns", "Patterns"), ("differences", "Faan differences"),
                ("flips", "Flips")]
    rules = rule_rows(known)
    if not rules:
        sections = sections[1:]
    if not list(_payout_rows(summary)):
        sections = [x for x in sections if x[0] != "payments"]
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>hkcore report: {summary.hands:,} hands</title>", f"<style>{_CSS}</style></head>",
             f'<body><h1 data-field="hands" data-value="{summary.hands}">{summary.hands:,} hands under '
             f"{len(ids)} presets</h1>"]
    parts.append('<nav id="contents"><b>Contents</b><ol>'
                 + "".join(f'<li><a href="#s-{sid}">{e(title)}</a></li>' for sid, title in sections) + "</ol></nav>")
    if summary.unreadable:
        parts.append(f'<p data-field="unreadable" data-value="{summary.unreadable}">{_hands(summary.unreadable)} '
                     "could not be read under any preset.</p>")
    common = _common(summary)
    drawn = figures(common, summary.compared())
    if rules:  # why the numbers differ: the rules, first
        shown_ids = list(known)
        parts.append('<h2 id="s-rules">Rules that differ</h2><p class="note">Each rule on which the presets do '
                     "not all agree, by its dotted TOML path (as <code>hkscore presets diff</code> names it); "
                     "<i>none</i>: not in the preset (a pattern off)."
                     + ("" if len(shown_ids) == len(ids) else
                        " Presets given by file are left out unless passed to <code>write_report</code>.")
                     + '</p><table id="rules"><tr><th class="id">rule</th>'
                     + "".join(f"<th>{e(p)}</th>" for p in shown_ids) + "</tr>")
        parts.extend(rule_table_rows(rules, names))
        parts.append("</table>")
    # overview
    parts.append(f'<h2 id="s-presets">Presets</h2><p class="note"{_attrs(field="compared", value=summary.compared())}>'
                 f'{e(_compared_line(summary))}</p><table id="overview"><tr><th class="id">preset</th>'
                 "<th>complete</th><th>winnable</th><th>winnable share</th><th>limit</th><th>mean</th></tr>")
    for pid, cells in _overview_rows(summary):
        tds = [_td(text, preset=pid, field=f, value=v, part="common") for f, text, v in cells]
        parts.append(f'<tr><td class="id">{e(pid)}</td>' + "".join(tds) + "</tr>")
    parts.append("</table>")
    if note := _refusal_note(summary):
        parts.append(f'<h3 id="apart">Hands some preset cannot read: {summary.partly_read():,}</h3>'
                     f'<p class="note" id="refusal-note">{_code(note)}</p><table id="apart-table"><tr>'
                     '<th class="id">preset</th><th>read</th><th>refused</th><th class="id">by field</th>'
                     "<th>complete</th><th>winnable</th><th>limit</th></tr>")
        for pid, apart, cells in _apart_rows(summary):
            tds = [_td(text, preset=pid, field=f, value=v, part="apart") for f, text, v in cells]
            refused = ", ".join(f"<span{_attrs(preset=pid, field='refused', key=k, value=n, part='apart')}>"
                                f"{e(k)} {n:,}</span>" for k, n in _refusals(apart))
            tds.insert(2, f'<td class="id">{refused}</td>')
            parts.append(f'<tr><td class="id">{e(pid)}</td>' + "".join(tds) + "</tr>")
        parts.append("</table>")
    parts.append(f'<div class="figure" id="fig-winnable">{drawn["winnable"]}</div>')
    # faan
    parts.append('<h2 id="s-faan">Faan of complete hands</h2><p class="note">Share of each preset\'s complete hands '
                 "(points under a points preset).</p>")
    parts.append(f'<div class="figure" id="fig-faan">{drawn["faan"]}</div>')
    parts.append('<table id="faan"><tr><th>faan</th>' + "".join(f"<th>{e(p)}</th>" for p in ids) + "</tr>")
    for f in _faan_values(summary):
        row = []
        for p in ids:
            n = common[p].faan_histogram.get(str(f))
            row.append(_td("" if n is None else f"{n:,}", preset=p, field="faan_histogram", key=f, value=n,
                           part="common"))
        parts.append(f"<tr><th>{f}</th>{''.join(row)}</tr>")
    parts.append("</table>")
    # payments
    pay = list(_payout_rows(summary))
    if pay:
        parts.append('<h2 id="s-payments">Payments</h2><p class="note">The winner\'s net gain per paid hand '
                     "(winnable, with payments); the share of the winners' gains paid by the discarder.</p>")
        parts.append(f'<div class="figure" id="fig-payout">{drawn["payout"]}</div>')
        parts.append('<table id="payments"><tr><th class="id">preset</th><th>paid hands</th><th>mean gain</th>'
                     "<th>median gain</th><th>winners' gains</th><th>paid by discarders</th>"
                     "<th>discarder share</th><th>discarder share, discard wins</th></tr>")
        for pid, cells in pay:
            parts.append(f'<tr><td class="id">{e(pid)}</td>'
                         + "".join(_td(text, preset=pid, field=f, value=v, part="common") for f, text, v in cells)
                         + "</tr>")
        parts.append("</table>")
    # patterns
    parts.append('<h2 id="s-patterns">Patterns</h2><p class="note">Complete hands in whose counted reading the pattern '
                 "appears (share of the preset's complete hands).</p>")
    parts.append('<table id="patterns"><tr><th class="id">pattern</th>'
                 + "".join(f"<th>{e(p)}</th>" for p in ids) + "</tr>")
    for pat in _patterns(summary):
        row = []
        for p in ids:
            s = common[p]
            n = s.pattern_counts.get(pat)
            text = "" if n is None else f"{n:,} ({pct(n, s.complete)})"
            row.append(_td(text, preset=p, field="pattern_counts", key=pat, value=n, part="common"))
        en, zh = names.get(pat, ("", ""))
        parts.append(f'<tr><td class="id">{e(pat)} <span class="name">{e(en)} <span lang="zh-Hant">{e(zh)}'
                     f'</span></span></td>{"".join(row)}</tr>')
    parts.append("</table>")
    # differences
    parts.append('<h2 id="s-differences">Faan differences</h2><p class="note">On hands complete under both '
                 "presets: faan under A less faan under B."
                 + (" " + e(_UNITS_NOTE) if _mixed_units(summary) else "")
                 + '</p><table id="differences"><tr><th class="id">A</th>'
                 '<th class="id">B</th><th>hands</th><th>same</th><th>A higher</th><th>B higher</th>'
                 "<th>mean A &minus; B</th></tr>")
    for a, b, pair in _difference_rows(summary):
        parts.append(f'<tr><td class="id">{e(a)}</td><td class="id">{e(b)}</td>'
                     + "".join(_td(text, a=a, b=b, field=f) for f, text in pair) + "</tr>")
    parts.append("</table>")
    # flips
    parts.append('<h2 id="s-flips">Flips</h2><p class="note">Hands valid under both presets, winnable under the '
                 "first and not under the second; the first examples in input order (#: the hand's index, from 0), "
                 "each scored under both and the patterns that decided it (folded: open one to see it).</p>"
                 '<table id="flips"><tr><th class="id">winnable under</th>'
                 + "".join(f"<th>not under {e(p)}</th>" for p in ids) + "</tr>")
    for a in ids:
        row = []
        for b in ids:
            if a == b:
                row.append("<td></td>")
                continue
            n = summary.flips[a][b].count
            row.append(_td(f"{n:,}", a=a, b=b, field="flips", value=n))
        parts.append(f'<tr><td class="id">{e(a)}</td>{"".join(row)}</tr>')
    parts.append("</table>")
    for a, row_ in summary.flips.items():
        for b, flip in row_.items():
            if not flip.examples:
                continue
            parts.append(f"<details><summary>Winnable under {e(a)}, not under {e(b)}: {flip.count:,}</summary>"
                         f'<ol class="examples"{_attrs(a=a, b=b, field="examples")}>')
            for ex in flip.examples:
                note = _flip_note(ex.hand, known[a], known[b], names) if a in known and b in known else ""
                parts.append(f'<li value="{ex.index}" data-index="{ex.index}"><code>{e(ex.hand)}</code> '
                             f'<span class="tiles">{e(_unicode(ex.hand))}</span>'
                             + (f'<br><span class="why">{e(note)}</span>' if note else "") + "</li>")
            parts.append("</ol></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# the page helpers the simulation's report shares (hkcore.simulation_report)

#: the report pages' style sheet
PAGE_CSS = _CSS
#: ``data-`` attributes from keywords (``None`` left out), escaped
data_attrs = _attrs
#: a table cell of escaped text with ``data-`` attributes
cell = _td
#: pattern id -> (English, Chinese) name, from the current plugins
pattern_names = _names
#: a rule's value as the rules table shows it (none for absent, yes/no, a payment table by its scheme)
rule_value = _value
#: rows (the first the header) as a GitHub Markdown table
md_table = _md_table
