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
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from hkcore.errors import HkcoreError
from hkcore.models import Hand
from hkcore.notation import unicode_hand
from hkcore.preset import Lint, Preset
from hkcore.reports.page import (
    cell,
    code_html,
    data_attrs,
    figure,
    head,
    known_presets,
    md_table,
    pattern_label,
    pattern_names,
    report_folder,
    require_matplotlib,
    rule_rows,
    rule_table_rows,
    warnings_html,
    warnings_markdown,
    write_files,
)
from hkcore.reports.plots import figures, hist, pct, unit
from hkcore.summary import ComparisonSummary, PresetSummary, summary_json


def write_report(summary: ComparisonSummary, out: str | Path, presets: Sequence[Preset] | None = None) -> list[Path]:
    """Write summary.json, summary.md and report.html into ``out`` (made if
    missing); the paths written. ``presets``: the presets summarised (the
    built-in ones are found by id): the page then says how their rules differ
    and scores each flip example under both presets."""
    require_matplotlib()
    folder = report_folder(out)
    files = {"summary.json": summary_json(summary), "summary.md": markdown(summary, presets),
             "report.html": page(summary, presets)}
    return write_files(folder, files)


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


def _scoring_warnings(known: dict[str, Preset]) -> dict[str, list[Lint]]:
    """Each preset's warnings that hold for hands given to score (not ``Lint.at_table``)."""
    return {pid: [w for w in p.warnings if not w.at_table] for pid, p in known.items()}


def markdown(summary: ComparisonSummary, presets: Sequence[Preset] | None = None) -> str:
    """The summary's tables in GitHub markdown, and the warnings of the presets
    known (``presets``: see ``write_report``), if any."""
    ids = list(summary.presets)
    common = _common(summary)
    out = [f"# {summary.hands:,} hands under {len(ids)} presets", ""]
    if summary.unreadable:
        out += [f"{_hands(summary.unreadable)} could not be read under any preset.", ""]
    rows = [["preset", "complete", "winnable", "winnable share", "limit", "mean"]]
    rows += [[pid, *(text for _, text, _ in cells)] for pid, cells in _overview_rows(summary)]
    out += ["## Presets", "", _compared_line(summary), "", md_table(rows), ""]
    if note := _refusal_note(summary):
        rows = [["preset", "read", "refused", "by field", "complete", "winnable", "limit"]]
        rows += [[pid, cells[0][1], cells[1][1], _refused(apart), *(t for _, t, _ in cells[2:])]
                 for pid, apart, cells in _apart_rows(summary)]
        out += [f"### Hands some preset cannot read: {summary.partly_read():,}", "", note, "", md_table(rows), ""]
    rows = [["faan", *ids]]
    for f in _faan_values(summary):
        rows.append([str(f), *(str(common[p].faan_histogram.get(str(f), "")) for p in ids)])
    out += ["## Faan of complete hands", "", "(points under a points preset)", "", md_table(rows), ""]
    pay = list(_payout_rows(summary))
    if pay:
        rows = [["preset", "paid hands", "mean gain", "median gain", "winners' gains", "paid by discarders",
                 "discarder share", "discarder share, discard wins"]]
        rows += [[pid, *(text for _, text, _ in cells)] for pid, cells in pay]
        out += ["## Payments", "", "The winner's net gain per paid hand.", "", md_table(rows), ""]
    rows = [["pattern", *ids]]
    for pat in _patterns(summary):
        rows.append([pat, *(str(common[p].pattern_counts.get(pat, "")) for p in ids)])
    out += ["## Patterns", "", "Complete hands in whose counted reading the pattern appears.", "",
            md_table(rows), ""]
    rows = [["A", "B", "hands complete under both", "same", "A higher", "B higher", "mean A - B"]]
    rows += [[a, b, *(text for _, text in cells)] for a, b, cells in _difference_rows(summary)]
    out += ["## Faan differences", "", *([_UNITS_NOTE, ""] if _mixed_units(summary) else []), md_table(rows), ""]
    rows = [["winnable under", "not under", "hands"]]
    flips = [(a, b, f) for a, row in summary.flips.items() for b, f in row.items()]
    rows += [[a, b, f"{f.count:,}"] for a, b, f in flips]
    out += ["## Flips", "", "Hands valid under both presets, winnable under the first and not under the second.",
            "", md_table(rows), ""]
    for a, b, flip in flips:
        if flip.examples:
            out += [f"### {a}, not {b}", ""]
            out += [f"- #{e.index}: `{e.hand}` {_unicode(e.hand)}" for e in flip.examples]
            out.append("")
    out += warnings_markdown(_scoring_warnings(known_presets(ids, presets)))
    return "\n".join(out)


# --------------------------------------------------------------------------
# the page

_UNITS_NOTE = ("A preset that counts points is compared in its own unit: a difference between a points preset and "
               "a faan preset says which scores a hand higher in its own terms, not by how much.")


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
    known = known_presets(ids, presets)
    names = pattern_names()
    sections = [("rules", "Rules that differ"), ("presets", "Presets"), ("faan", "Faan of complete hands"),
                ("payments", "Payments"), ("patterns", "Patterns"), ("differences", "Faan differences"),
                ("flips", "Flips")]
    rules = rule_rows(known)
    if not rules:
        sections = sections[1:]
    if not list(_payout_rows(summary)):
        sections = [x for x in sections if x[0] != "payments"]
    parts = [head(f"hkcore report: {summary.hands:,} hands"),
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
    parts.append(warnings_html(_scoring_warnings(known)))
    # overview
    compared = data_attrs(field="compared", value=summary.compared())
    parts.append(f'<h2 id="s-presets">Presets</h2><p class="note"{compared}>{e(_compared_line(summary))}</p>'
                 '<table id="overview"><tr><th class="id">preset</th>'
                 "<th>complete</th><th>winnable</th><th>winnable share</th><th>limit</th><th>mean</th></tr>")
    for pid, cells in _overview_rows(summary):
        tds = [cell(text, preset=pid, field=f, value=v, part="common") for f, text, v in cells]
        parts.append(f'<tr><td class="id">{e(pid)}</td>' + "".join(tds) + "</tr>")
    parts.append("</table>")
    if note := _refusal_note(summary):
        parts.append(f'<h3 id="apart">Hands some preset cannot read: {summary.partly_read():,}</h3>'
                     f'<p class="note" id="refusal-note">{code_html(note)}</p><table id="apart-table"><tr>'
                     '<th class="id">preset</th><th>read</th><th>refused</th><th class="id">by field</th>'
                     "<th>complete</th><th>winnable</th><th>limit</th></tr>")
        for pid, apart, cells in _apart_rows(summary):
            tds = [cell(text, preset=pid, field=f, value=v, part="apart") for f, text, v in cells]
            refused = ", ".join(f"<span{data_attrs(preset=pid, field='refused', key=k, value=n, part='apart')}>"
                                f"{e(k)} {n:,}</span>" for k, n in _refusals(apart))
            tds.insert(2, f'<td class="id">{refused}</td>')
            parts.append(f'<tr><td class="id">{e(pid)}</td>' + "".join(tds) + "</tr>")
        parts.append("</table>")
    parts.append(figure("winnable", drawn["winnable"]))
    # faan
    parts.append('<h2 id="s-faan">Faan of complete hands</h2><p class="note">Share of each preset\'s complete hands '
                 "(points under a points preset).</p>")
    parts.append(figure("faan", drawn["faan"]))
    parts.append('<table id="faan"><tr><th>faan</th>' + "".join(f"<th>{e(p)}</th>" for p in ids) + "</tr>")
    for f in _faan_values(summary):
        row = []
        for p in ids:
            n = common[p].faan_histogram.get(str(f))
            row.append(cell("" if n is None else f"{n:,}", preset=p, field="faan_histogram", key=f, value=n,
                           part="common"))
        parts.append(f"<tr><th>{f}</th>{''.join(row)}</tr>")
    parts.append("</table>")
    # payments
    pay = list(_payout_rows(summary))
    if pay:
        parts.append('<h2 id="s-payments">Payments</h2><p class="note">The winner\'s net gain per paid hand '
                     "(winnable, with payments); the share of the winners' gains paid by the discarder.</p>")
        parts.append(figure("payout", drawn["payout"]))
        parts.append('<table id="payments"><tr><th class="id">preset</th><th>paid hands</th><th>mean gain</th>'
                     "<th>median gain</th><th>winners' gains</th><th>paid by discarders</th>"
                     "<th>discarder share</th><th>discarder share, discard wins</th></tr>")
        for pid, cells in pay:
            parts.append(f'<tr><td class="id">{e(pid)}</td>'
                         + "".join(cell(text, preset=pid, field=f, value=v, part="common") for f, text, v in cells)
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
            row.append(cell(text, preset=p, field="pattern_counts", key=pat, value=n, part="common"))
        parts.append(f'<tr>{pattern_label(pat, names)}{"".join(row)}</tr>')
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
                     + "".join(cell(text, a=a, b=b, field=f) for f, text in pair) + "</tr>")
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
            row.append(cell(f"{n:,}", a=a, b=b, field="flips", value=n))
        parts.append(f'<tr><td class="id">{e(a)}</td>{"".join(row)}</tr>')
    parts.append("</table>")
    for a, row_ in summary.flips.items():
        for b, flip in row_.items():
            if not flip.examples:
                continue
            parts.append(f"<details><summary>Winnable under {e(a)}, not under {e(b)}: {flip.count:,}</summary>"
                         f'<ol class="examples"{data_attrs(a=a, b=b, field="examples")}>')
            for ex in flip.examples:
                note = _flip_note(ex.hand, known[a], known[b], names) if a in known and b in known else ""
                parts.append(f'<li value="{ex.index}" data-index="{ex.index}"><code>{e(ex.hand)}</code> '
                             f'<span class="tiles">{e(_unicode(ex.hand))}</span>'
                             + (f'<br><span class="why">{e(note)}</span>' if note else "") + "</li>")
            parts.append("</ol></details>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
