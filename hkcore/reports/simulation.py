"""A ``SimulationSummary`` as a report, the rule economics of its presets:
summary.json, summary.md and report.html (docs/simulation.md).

The page is one self-contained file drawn as the comparison report draws
its own (``hkcore.reports.page``: the same style, inline SVG plots by matplotlib,
the ``report`` extra). Its first screen answers what a club asks: how often
a hand is won, how long hands last, what a win is worth and who pays, under
each preset side by side, and what changed between two presets with its
95 % interval. Every number of its tables carries ``data-`` attributes
naming where it comes from (``data-preset``, ``data-field``, ``data-value``;
``data-a``/``data-b``, ``data-low``/``data-high`` for a paired difference;
``data-bot``, ``data-key``), so a program can read the page back.
"""
from __future__ import annotations

import contextlib
import html
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from hkcore.errors import HkcoreError, shown
from hkcore.preset import Preset
from hkcore.reports.page import (
    CSS,
    cell,
    data_attrs,
    figure,
    head,
    known_presets,
    pattern_label,
    pattern_names,
    report_folder,
    require_matplotlib,
    rule_rows,
    rule_table_rows,
    warnings_html,
    write_files,
)
from hkcore.reports.plots import colours, plain_text, preset_bars, svg
from hkcore.simulation import (
    CHANGES,
    GLANCE,
    SimulationSummary,
    changes,
    ci,
    depends_on_bots,
    glance,
    in_name_only,
    mix_label,
    num,
    one_bot,
    pairing_text,
    pct,
    same_measure,
    summary_markdown,
    title,
    unit,
)
from hkcore.table.start import resolve_preset

#: the largest summary.json read (a summary is a few kilobytes a preset)
MAX_SUMMARY_BYTES = 64 * 1024 * 1024
_SUMMARY_START = re.compile(rb'\A\s*\{\s*"duplicate"\s*:')


def is_simulation_summary(path: str | Path) -> bool:
    """Whether the file at ``path`` is a simulation's summary.json (its first
    key is ``duplicate``, as ``SimulationSummary`` writes it), not hands."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return False
    return bool(_SUMMARY_START.match(head))


def read_summary(path: str | Path, field: str = "source") -> SimulationSummary:
    """The ``SimulationSummary`` in a summary.json; an ``HkcoreError`` naming
    ``field`` and the file when it cannot be read or is not one."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_SUMMARY_BYTES + 1)
    except OSError as exc:
        raise HkcoreError(f"{field}: cannot read {shown(str(path))}: {exc.strerror or exc}") from None
    if len(data) > MAX_SUMMARY_BYTES:
        raise HkcoreError(f"{field}: {shown(str(path))} is over {MAX_SUMMARY_BYTES:,} bytes: not a summary")
    try:
        return SimulationSummary.model_validate_json(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(map(str, err["loc"])) or "the file"
        raise HkcoreError(f"{field}: {shown(str(path))} is not a simulation summary: {where}: {err['msg']}") from None


def write_simulation_report(summary: SimulationSummary, out: str | Path,
                            presets: list[Preset] | None = None) -> list[Path]:
    """Write summary.json, summary.md and report.html into ``out`` (made if
    missing); the paths written. ``presets``: the presets simulated (the
    built-in ones are found by id): the page then says how their rules differ."""
    require_matplotlib()
    folder = report_folder(out)
    return write_files(folder, {"summary.json": summary.model_dump_json(indent=2) + "\n",
                                "summary.md": summary_markdown(summary),
                                "report.html": simulation_page(summary, presets)})


# --------------------------------------------------------------------------
# the page

_CSS = CSS + """
.first { display: flex; flex-wrap: wrap; gap: 0 2em; align-items: flex-start; }
.first > section { min-width: 0; max-width: 100%; }
.first table { margin-top: 0.2em; } .first h2 { margin-top: 0.6em; }
.scroll { overflow-x: auto; max-width: 100%; }
th .name { display: block; font-weight: normal; }
td.diff { white-space: nowrap; } .pos { color: #1a6b2f; } .neg { color: #a52a2a; }
section.pair { border-left: 3px solid #c8d3e0; padding-left: 0.8em; margin-bottom: 1.2em; }
section.pair h3 { margin: 0.4em 0 0.2em; font-size: 1.05em; }
.pairing.weak { color: #a52a2a; }
td.flag { color: #a52a2a; font-weight: 600; text-align: left; }
table.rules td, table.rules th { text-align: left; overflow-wrap: anywhere; }
section.pair h4 { margin: 0.3em 0 0; font-size: 0.95em; }
@media (max-width: 600px) {
  body { margin: 0.5em auto; padding: 0 0.5em; } h1 { font-size: 1.25em; }
  table { font-size: 0.8em; } th, td { padding: 0.15em 0.3em; }
}
"""

#: the rules a pair's section shows before the rest are folded away
RULES_SHOWN = 8
#: the rules that decide whether two presets draw the same tiles from a wall (docs/simulation.md, "Duplicate
#: play"): shown first
PAIRING_RULES = ("tiles", "table.replacement")


def _pair_cells(summary: SimulationSummary) -> list[tuple[str, str]]:
    return [(a, b) for a, rows in summary.differences.items() for b in rows]


def _scroll(table: str) -> str:
    """A table in a block that scrolls sideways on a narrow screen (the page itself does not)."""
    return f'<div class="scroll">{table}</div>'


def _preset_head(pid: str, summary: SimulationSummary) -> str:
    """A column head naming a preset: its name, with its id beneath when they differ."""
    e = html.escape
    p = summary.presets[pid]
    if p.name and p.name != pid:
        return f'<th data-preset="{e(pid)}">{e(p.name)}<span class="name">{e(pid)}</span></th>'
    return f'<th data-preset="{e(pid)}">{e(pid)}</th>'


def _pair_rules(a: str, b: str, known: dict[str, Preset], names: dict[str, tuple[str, str]]) -> str:
    """The rules on which A differs from B (its base), first in the pair's section."""
    e = html.escape
    if a not in known or b not in known:
        missing = ", ".join(x for x in (a, b) if x not in known)
        return (f'<p class="note rules-unknown">Rules that differ: not known here for {e(missing)} (a summary '
                "older than the presets' TOML in it).</p>")
    rows = rule_rows({b: known[b], a: known[a]})
    rows.sort(key=lambda row: row[0] not in PAIRING_RULES)   # stable: the rest in rule_rows' order
    if not rows:
        return '<p class="note">Rules that differ: none (the same rules under two ids).</p>'
    head = (f'<table class="rules" data-a="{e(a)}" data-b="{e(b)}"><tr><th class="id">rule</th>'
            f"<th>{e(b)}</th><th>{e(a)}</th></tr>")
    shown = rule_table_rows(rows[:RULES_SHOWN], names)
    out = (f'<h4>Rules that differ ({len(rows)})</h4>' + _scroll(head + "".join(shown) + "</table>"))
    if len(rows) > RULES_SHOWN:
        rest = rule_table_rows(rows[RULES_SHOWN:], names)
        out += (f"<details><summary>{len(rows) - RULES_SHOWN} more rules</summary>"
                + _scroll(head + "".join(rest) + "</table>") + "</details>")
    return out


def _pairing_note(a: str, b: str, mixes: list[SimulationSummary], known: dict[str, Preset]) -> str:
    """How well A and B share their walls under each mix: walls whose draws stayed in step, the correlation."""
    e = html.escape
    parts = []
    weak = False
    if not any(m.differences[a][b].pairing.walls for m in mixes):
        return '<p class="pairing note">Pairing: not counted in this summary (written before it was).</p>'
    for i, m in enumerate(mixes):
        pairing = m.differences[a][b].pairing
        steps, r = pairing_text(pairing)
        corr = pairing.correlation()
        weak |= in_name_only(pairing)
        who = f"{e(mix_label(m.bots))}: " if len(mixes) > 1 else ""
        parts.append(f'{who}draws in step on <span data-a="{e(a)}" data-b="{e(b)}" data-mix="{i}" '
                     f'data-field="in_step" data-value="{pairing.in_step}">{e(steps)}</span> of the walls, '
                     f'correlation <span data-a="{e(a)}" data-b="{e(b)}" data-mix="{i}" data-field="correlation"'
                     f'{data_attrs(value=corr)}>{e(r)}</span>')
    text = "; ".join(parts)
    if weak:
        why = "bonus tiles or kongs replaced from another end of the wall"
        if a in known and b in known and known[a].table.replacement != known[b].table.replacement:
            why = (f"table.replacement: {known[a].table.replacement} under {a}, {known[b].table.replacement} under "
                   f"{b}")
        return (f'<p class="pairing weak"><b>Paired in name only</b>: {text}. After the deal the two presets draw '
                f"other tiles ({e(why)}): their differences are those of unpaired samples, with wider intervals.</p>")
    return f'<p class="pairing note">Pairing: {text}.</p>'


def _pair_section(a: str, b: str, summary: SimulationSummary, mixes: list[SimulationSummary],
                  by: list[dict[tuple[str, str, str], Any]], known: dict[str, Preset],
                  names: dict[str, tuple[str, str]]) -> str:
    """One pair's section: its rules that differ, how well it is paired, and what changed under each mix."""
    e = html.escape
    pa, pb = summary.presets[a], summary.presets[b]
    out = [f'<section class="pair" id="pair-{e(a)}--{e(b)}"><h3>{e(title(a, pa))} &minus; {e(title(b, pb))}</h3>',
           _pair_rules(a, b, known, names), _pairing_note(a, b, mixes, known)]
    several = len(mixes) > 1
    table = [f'<table class="changes" data-a="{e(a)}" data-b="{e(b)}"><tr><th class="id">A &minus; B per hand</th>'
             + "".join(f"<th>{e(mix_label(m.bots))}</th>" if several else "<th>difference (95 % interval)</th>"
                       for m in mixes)
             + ("<th>depends on the bots</th>" if several else "") + "</tr>"]
    for field, label, _ in CHANGES:
        row = []
        found = [by_mix[a, b, field] for by_mix in by]
        for i, c in enumerate(found):
            low, high = c.interval if c.interval is not None else (None, None)
            cls = "" if low is None or high is None else " pos" if low > 0 else " neg" if high < 0 else ""
            attrs = data_attrs(a=a, b=b, field=field, mix=i, value=c.mean, low=low, high=high)
            row.append(f'<td class="diff{cls}"{attrs}>{e(c.text)}</td>')
        if several:
            flag = depends_on_bots(found)
            row.append(f'<td class="flag"{data_attrs(a=a, b=b, field=field, depends=flag or "")}>'
                       f'{e(flag or "")}</td>')
        table.append(f'<tr><td class="id">{e(label)}</td>{"".join(row)}</tr>')
    table.append("</table>")
    out.append(_scroll("".join(table)))
    out.append("</section>")
    return "".join(out)


def simulation_page(summary: SimulationSummary, presets: list[Preset] | None = None) -> str:
    """The report as one self-contained HTML page (``presets``: see ``write_simulation_report``)."""
    e = html.escape
    ids = list(summary.presets)
    mixes = summary.by_mix()
    figures = glance(summary)
    pairs = _pair_cells(summary)
    names = pattern_names()
    plots = _figures(summary)
    known = known_presets(ids, presets)
    for pid, p in summary.presets.items():   # a house preset the summary carries, read as a record reads it
        if pid not in known and p.toml is not None:
            with contextlib.suppress(HkcoreError):   # unreadable: its rules are said to be unknown here
                known[pid] = resolve_preset(p.toml, f"presets.{pid}.toml")
    title_text = f"Rule economics: {summary.hands:,} walls under {len(ids)} preset{'s' * (len(ids) != 1)}"
    if len(mixes) == 1:
        bots = (f"Bots {e(mix_label(summary.bots))}" if one_bot(summary.bots)
                else f"Bots {e(', '.join(summary.bots))} (E, S, W, N in the first rotation)")
    else:
        bots = ("Mixes of bots, each on the same walls: " + "; ".join(e(mix_label(m.bots)) for m in mixes)
                + " (E, S, W, N in the first rotation; the presets side by side are under the first)")
    based = "" if summary.base is None else (
        f" Each preset is compared with <b>{e(title(summary.base, summary.presets[summary.base]))}</b> (another "
        "tile set's with the first of theirs).")
    page_head = head(f"hkcore: {title_text}", _CSS).replace(
        "<title>", '<meta name="viewport" content="width=device-width, initial-scale=1"><title>', 1)
    parts = [page_head + "<body>",
             f'<h1 data-field="hands" data-value="{summary.hands}">{e(title_text)}</h1>',
             f'<p class="note">{bots}, seed '
             f'<span data-field="seed" data-value="{summary.seed}">{summary.seed}</span>: the same walls and bots '
             "under every preset, so a difference is a paired one, as far as the draws stay in step (how, at the "
             "foot of the page)." + based + " Payments in each preset's unit ("
             + "; ".join(f"{e(pid)}: {e(unit(p))}" for pid, p in summary.presets.items()) + ").</p>"]
    # the first screen: the presets side by side, and what changed
    parts.append('<div class="first"><section><h2 id="s-glance">At a glance</h2>'
                 + _scroll('<table id="glance"><tr><th class="id"></th>'
                           + "".join(_preset_head(p, summary) for p in ids) + "</tr>"
                           + "".join(f'<tr><td class="id">{e(label)}</td>'
                                     + "".join(cell(figures[p][field].text, preset=p, field=field,
                                                    value=figures[p][field].value) for p in ids) + "</tr>"
                                     for field, label in GLANCE) + "</table>")
                 + '<p class="note">Hands played: walls &times; 4 rotations; <i>distinct</i>: those whose play '
                 "differs (one bot that always plays alike in every seat plays a wall's four rotations as one "
                 "hand).</p></section>")
    if pairs:
        by = [{(c.a, c.b, c.field): c for c in changes(m)} for m in mixes]
        parts.append('<section id="changes"><h2 id="s-changes">What changed</h2><p class="note">A less B per hand '
                     "on the same walls and seats, with its 95 % interval (pp: percentage points); green: higher "
                     "under A, red: lower (the interval clear of 0)."
                     + (" <i>Depends on the bots</i>: its sign, or whether its interval is clear of 0, is not the "
                        "same under every mix." if len(mixes) > 1 else "") + "</p>"
                     + "".join(_pair_section(a, b, summary, mixes, by, known, names) for a, b in pairs)
                     + "</section>")
    parts.append("</div>")
    if pairs:
        parts.append(figure("changes", plots["changes"]))
    parts.append(warnings_html({pid: p.warnings for pid, p in summary.presets.items()}))
    # the plots
    parts.append('<h2 id="s-outcomes">How hands end</h2>' + figure("outcomes", plots["outcomes"])
                 + '<h2 id="s-length">How long hands last</h2>' + figure("length", plots["length"])
                 + '<h2 id="s-faan">What a win is worth</h2><p class="note">Faan (points under a points preset) of '
                 "each win, as a share of the preset's wins.</p>" + figure("faan", plots["faan"])
                 + '<h2 id="s-seats">Who pays</h2><p class="note">Each seat\'s net payment per hand with its 95 % '
                 "interval; E is the dealer. Under a ledger (no payments) a seat's faan won.</p>"
                 + figure("seats", plots["seats"]))
    rows = ['<table id="seats"><tr><th class="id">preset</th>' + "".join(f"<th>{s}</th>" for s in "ESWN") + "</tr>"]
    for pid, p in summary.presets.items():
        rows.append(f'<tr><td class="id">{e(pid)}</td>' + "".join(
            cell(f"{num(st.mean())} ({ci(st)})", preset=pid, field="payments_by_seat", key=s, value=st.mean())
            for s, st in p.payments_by_seat.items()) + "</tr>")
    parts.append(_scroll("".join(rows) + "</table>"))
    # bots
    parts.append('<h2 id="s-bots">Bots</h2><p class="note">Each bot over its seats (seat-hands); payments per '
                 "seat-hand with the 95 % interval.</p>")
    for i, m in enumerate(mixes):
        if len(mixes) > 1:
            parts.append(f"<h3>{e(mix_label(m.bots))}</h3>")
        if one_bot(m.bots):
            parts.append(f'<p class="note">{e(m.bots[0])} in every seat: its payments are the whole table\'s (zero '
                         "under a settlement), so there is no table of bots.</p>")
            continue
        rows = ['<table class="bots"><tr><th class="id">preset</th><th class="id">bot</th><th>seat-hands</th>'
                "<th>win rate</th><th>as dealer</th><th>deal-in</th><th>declined</th><th>payments per hand</th></tr>"]
        for pid, p in m.presets.items():
            for name, bot in p.bots.items():
                dealer = bot.wins_by_seat["E"] / bot.hands_by_seat["E"] if bot.hands_by_seat["E"] else None
                cells = [(f"{bot.hands:,}", "hands", bot.hands),
                         (pct(bot.rate(bot.wins)), "win_rate", bot.rate(bot.wins)),
                         (pct(dealer), "dealer_win_rate", dealer),
                         (pct(bot.rate(bot.deal_ins)), "deal_in_rate", bot.rate(bot.deal_ins)),
                         (f"{bot.declined:,}", "declined", bot.declined),
                         (f"{num(bot.payments.mean())} ({ci(bot.payments)})", "payments", bot.payments.mean())]
                rows.append(f'<tr><td class="id">{e(pid)}</td><td class="id">{e(name)}</td>'
                            + "".join(cell(t, preset=pid, bot=name, field=f, value=v, mix=i) for t, f, v in cells)
                            + "</tr>")
        parts.append(_scroll("".join(rows) + "</table>"))
        compared = [(a, b_, name, st) for a, r in m.pairs.items() for b_, per_bot in r.items()
                    if same_measure(summary, a, b_) for name, st in per_bot.items()]
        if compared:
            rows = ['<table class="bot-pairs"><tr><th class="id">A</th><th class="id">B</th><th class="id">bot</th>'
                    "<th>A &minus; B per seat-hand (95 % interval)</th></tr>"]
            for a, b_, name, st in compared:
                rows.append(f'<tr><td class="id">{e(a)}</td><td class="id">{e(b_)}</td><td class="id">{e(name)}</td>'
                            + cell(f"{num(st.mean())} ({ci(st)})", a=a, b=b_, bot=name, field="pairs", mix=i,
                                   value=st.mean()) + "</tr>")
            parts.append("<h4>Paired differences by bot</h4><p class=\"note\">Presets that pay in different units "
                         "are not compared.</p>" + _scroll("".join(rows) + "</table>"))
    # patterns
    rows = ['<table id="patterns"><tr><th class="id">pattern</th>' + "".join(f"<th>{e(p)}</th>" for p in ids)
            + "</tr>"]
    total: dict[str, int] = {}
    for p in summary.presets.values():
        for k, n in p.patterns.items():
            total[k] = total.get(k, 0) + n
    for pat in sorted(total, key=lambda k: (-total[k], k)):
        row = []
        for pid in ids:
            p = summary.presets[pid]
            met = p.patterns.get(pat)
            row.append(cell("" if met is None else f"{met:,} ({pct(met / p.win_records if p.win_records else None)})",
                            preset=pid, field="patterns", key=pat, value=met))
        rows.append(f'<tr>{pattern_label(pat, names)}{"".join(row)}</tr>')
    parts.append('<h2 id="s-patterns">Patterns met</h2><p class="note">Wins whose record lists the pattern (share '
                 "of the preset's wins).</p>" + _scroll("".join(rows) + "</table>"))
    parts.append(f'<p class="note">{e(summary.duplicate[0].upper() + summary.duplicate[1:])}. Walls shared by: '
                 + "; ".join(e(", ".join(g)) for g in summary.groups) + ".</p></body></html>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# plots (matplotlib, as inline SVG)


def _figures(summary: SimulationSummary) -> dict[str, str]:
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import PercentFormatter

    ids = list(summary.presets)
    palette = colours(ids)
    out = {}

    # how hands end: stacked shares
    fig = Figure(figsize=(8, 0.45 * len(ids) + 1.2))
    ax = fig.subplots()
    kinds = (("self_draw", "self-draw", "#2c7fb8"), ("discard", "on a discard", "#7fcdbb"),
             ("robbing", "robbing a kong", "#edf8b1"), ("exhausted", "drawn", "#bbbbbb"))
    for y, pid in enumerate(ids):
        p = summary.presets[pid]
        left = 0.0
        for field, label, colour in kinds:
            share = (p.rate(getattr(p, field)) or 0.0)
            ax.barh(y, share, left=left, color=colour, label=label if y == 0 else None, edgecolor="white")
            left += share
    ax.set_yticks(range(len(ids)), [plain_text(p) for p in ids])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of the hands played")
    ax.legend(ncols=4, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    out["outcomes"] = svg(fig)

    # how long hands last
    fig = Figure(figsize=(8, 3))
    ax = fig.subplots()
    for pid in ids:
        h = {int(k): n for k, n in summary.presets[pid].turns_histogram.items()}
        n_all = sum(h.values()) or 1
        xs = list(range(min(h, default=0) - 1, max(h, default=0) + 2))
        ax.step(xs, [h.get(x, 0) / n_all for x in xs], where="mid", color=palette[pid], label=plain_text(pid))
    ax.set_xlabel("discards in the hand")
    ax.set_ylabel("hands")
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.legend(fontsize=8)
    out["length"] = svg(fig)

    # what a win is worth
    out["faan"] = preset_bars({pid: (sorted((int(k), n) for k, n in p.faan_histogram.items()), max(p.win_records, 1),
                                     p.unit) for pid, p in summary.presets.items()}, palette, "wins")

    # who pays: each seat's net per hand, with its interval
    fig = Figure(figsize=(2.6 * len(ids) + 0.5, 2.8))
    axes = fig.subplots(1, len(ids), squeeze=False)[0]
    for ax, pid in zip(axes, ids):
        p = summary.presets[pid]
        seats = list(p.payments_by_seat)
        means = [p.payments_by_seat[s].mean() or 0.0 for s in seats]
        errs = []
        for s in seats:
            iv = p.payments_by_seat[s].interval()
            errs.append(0.0 if iv is None else (iv[1] - iv[0]) / 2)
        ax.bar(seats, means, yerr=errs, color=palette[pid], capsize=3)
        ax.axhline(0, color="#444", linewidth=0.8)
        ax.set_title(plain_text(pid), fontsize=10)
        ax.set_xlabel("seat (E: dealer)")
    axes[0].set_ylabel("net per hand")
    fig.tight_layout()
    out["seats"] = svg(fig)

    # what changed: the rates' paired differences with their intervals, under each mix (one marker a mix)
    rates = [(f, label) for f, label, rate in CHANGES if rate]
    mixes = summary.by_mix()
    found = [{(c.a, c.b, c.field): c for c in changes(m)} for m in mixes]
    pairs = _pair_cells(summary)
    if pairs:
        fig = Figure(figsize=(8, 0.5 + 0.3 * len(rates) * len(pairs) * (1 + 0.3 * (len(mixes) - 1))))
        ax = fig.subplots()
        row = 0.0
        ticks: list[float] = []
        labels: list[str] = []
        markers = "osD^v<>"
        step = 0.8 / len(mixes)
        for k, (a, b) in enumerate(pairs):
            for field, label in rates:
                for i, by in enumerate(found):
                    c = by[a, b, field]
                    m = 100 * (c.mean or 0.0)
                    at = row + (i - (len(mixes) - 1) / 2) * step
                    style: dict[str, Any] = {
                        "fmt": markers[i % len(markers)], "color": matplotlib.colormaps["tab10"](k % 10), "capsize": 3,
                        "label": plain_text(mix_label(mixes[i].bots))
                        if k == 0 and field == rates[0][0] and len(mixes) > 1 else None}
                    if c.interval is not None:
                        ax.errorbar(m, at, xerr=[[m - 100 * c.interval[0]], [100 * c.interval[1] - m]], **style)
                    else:
                        ax.errorbar(m, at, **style)
                ticks.append(row)
                labels.append(plain_text(f"{a} − {b}: {label}"))
                row += 1
        ax.axvline(0, color="#444", linewidth=0.8)
        ax.set_yticks(ticks, labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlabel("A less B, percentage points (95 % interval)")
        if len(mixes) > 1:
            ax.legend(fontsize=8, title="bots", title_fontsize=8)
        out["changes"] = svg(fig)
    return out


__all__ = ["MAX_SUMMARY_BYTES", "is_simulation_summary", "read_summary", "simulation_page",
           "write_simulation_report"]
