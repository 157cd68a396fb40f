"""A simulation's summary as figures a club reads (``glance``, ``changes``)
and as a Markdown page (``summary_markdown``); the report page
(``hkcore.reports.simulation``) shows the same figures."""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from hkcore.reports.page import md_table, warnings_markdown
from hkcore.simulation.summary import Pairing, PresetSimulation, SimulationSummary, Stat


class Figure(NamedTuple):
    """One figure of a preset: its text and the number it shows (None: none)."""

    text: str
    value: float | None


class Change(NamedTuple):
    """A paired difference between presets ``a`` and ``b`` (A less B, per hand)."""

    a: str
    b: str
    field: str
    label: str
    mean: float | None
    interval: tuple[float, float] | None
    text: str


def pct(x: float | None) -> str:
    """A share as a percentage ("12.5 %"), "-" for none."""
    return "-" if x is None else f"{100 * x:.1f} %"


def num(x: float | None) -> str:
    """A number with two decimals and thousands separators, "-" for none."""
    return "-" if x is None else f"{x:,.2f}"


def ci(s: Stat, scale: float = 1.0) -> str:
    """A ``Stat``'s 95 % interval as "low .. high" (times ``scale``), "-" below two walls."""
    iv = s.interval()
    return "-" if iv is None else f"{scale * iv[0]:,.2f} .. {scale * iv[1]:,.2f}"


def unit(p: PresetSimulation) -> str:
    """What a preset's payments count: points, or faan (or points) won under a ledger."""
    return p.measure()


def title(pid: str, p: PresetSimulation) -> str:
    """A preset as a page names it: its name with its id ("Our club (house)"), or its id alone where the name
    is the id or unknown."""
    return f"{p.name} ({pid})" if p.name and p.name != pid else pid


def mix_label(bots: Sequence[str]) -> str:
    """A mix of bots as the pages name it: "guard x4", or the four names (E, S, W, N in the first rotation)."""
    return f"{bots[0]} x4" if len(set(bots)) == 1 else ", ".join(bots)


def one_bot(bots: Sequence[str]) -> bool:
    """Whether one bot sits in every seat: its payments are then the whole table's (zero under a settlement)
    and a table of them says nothing."""
    return len(set(bots)) == 1


def hands_text(p: PresetSimulation) -> str:
    """Hands played, with the distinct ones among them when fewer ("20,000 (5,000 distinct)")."""
    if p.distinct_hands is None or p.distinct_hands == p.hands:
        return f"{p.hands:,}"
    return f"{p.hands:,} ({p.distinct_hands:,} distinct)"


#: a pair whose draws stayed in step on fewer walls than this share, with a correlation below ``WEAK_R``, is
#: paired in name only
WEAK_STEP = 0.5
#: see ``WEAK_STEP``
WEAK_R = 0.3


def in_name_only(pairing: Pairing) -> bool:
    """Whether a pair shared its walls in name only: its draws seldom stayed in step and its results on a wall
    hardly go together (``WEAK_STEP``, ``WEAK_R``)."""
    share, r = pairing.in_step_share(), pairing.correlation()
    return share is not None and share < WEAK_STEP and (r is None or r < WEAK_R)


def same_measure(summary: SimulationSummary, a: str, b: str) -> bool:
    """Whether presets ``a`` and ``b`` count their payments alike (points, or a ledger's faan): only then is a
    difference of payments shown (a summary written before kept some across units)."""
    return unit(summary.presets[a]) == unit(summary.presets[b])


def pairing_verdict(pairing: Pairing) -> str:
    """"paired", "paired in name only" (``in_name_only``), or "-" where the summary did not count it."""
    if not pairing.walls:
        return "-"
    return "paired in name only" if in_name_only(pairing) else "paired"


def pairing_text(pairing: Pairing) -> tuple[str, str]:
    """A pair's pairing as two texts: its walls whose draws stayed in step, and the correlation."""
    share = pairing.in_step_share()
    r = pairing.correlation()
    steps = "-" if share is None else f"{pct(share)} ({pairing.in_step:,} of {pairing.walls:,})"
    return steps, "-" if r is None else f"{r:.2f}"


def _rate(p: PresetSimulation, count: int) -> Figure:
    return Figure(pct(p.rate(count)), p.rate(count))


def _stat(s: Stat) -> Figure:
    iv = ci(s)
    return Figure(num(s.mean()) + ("" if iv == "-" else f" ({iv})"), s.mean())


#: the rows of ``glance``: (field, label) in the page's order
GLANCE = (("hands", "hands played"),
          ("win_rate", "hands won"),
          ("self_draw_rate", "won on a self-draw"),
          ("discard_rate", "won on a discard (a deal-in)"),
          ("robbing_rate", "won robbing a kong"),
          ("exhausted_rate", "drawn (the wall ran out)"),
          ("mean_turns", "hand length (discards)"),
          ("mean_faan", "faan of a win (points under a points preset)"),
          ("win_worth", "a win is worth (the winners' net gain)"),
          ("won", "won per hand (95 % interval)"),
          ("discarder_share", "paid by the discarder (share of the winners' gains)"),
          ("dealer_win_rate", "dealer wins"),
          ("dealer_retained_rate", "dealer keeps the deal"),
          ("dealer_payments", "dealer's net per hand (95 % interval)"),
          ("declined_rate", "hands with a complete hand that could not be won"))


def glance(summary: SimulationSummary) -> dict[str, dict[str, Figure]]:
    """Preset id -> field -> figure, the fields of ``GLANCE``: what a club asks
    (how often a hand is won, how long it lasts, what a win is worth, who pays)."""
    out: dict[str, dict[str, Figure]] = {}
    for pid, p in summary.presets.items():
        out[pid] = {
            "hands": Figure(hands_text(p), p.hands),
            "win_rate": _rate(p, p.wins),
            "self_draw_rate": _rate(p, p.self_draw),
            "discard_rate": _rate(p, p.discard),
            "robbing_rate": _rate(p, p.robbing),
            "exhausted_rate": _rate(p, p.exhausted),
            "mean_turns": Figure(num(p.mean_turns()), p.mean_turns()),
            "mean_faan": Figure(num(p.mean_faan()), p.mean_faan()),
            "win_worth": Figure(num(p.win_worth()) + " " + unit(p), p.win_worth()),
            "won": _stat(p.won),
            "discarder_share": Figure(pct(p.discarder_share()), p.discarder_share()),
            "dealer_win_rate": _rate(p, p.wins_by_seat["E"]),
            "dealer_retained_rate": _rate(p, p.dealer_retained),
            "dealer_payments": _stat(p.payments_by_seat["E"]),
            "declined_rate": _rate(p, p.hands_declined),
        }
    return out


#: the rows of ``changes``: (PairSimulation field, label, a rate shown in percentage points)
CHANGES = (("wins", "hands won", True),
           ("exhausted", "hands drawn", True),
           ("self_draw", "won on a self-draw", True),
           ("turns", "hand length (discards)", False),
           ("won", "won per hand", False),
           ("dealer_retained", "dealer keeps the deal", True),
           ("dealer_payments", "dealer's net per hand", False),
           ("declined", "complete hands that could not be won, per hand", False))


#: the ``CHANGES`` fields in a preset's unit of payment: no difference between presets of different units
PAID = ("won", "dealer_payments")


def changes(summary: SimulationSummary) -> list[Change]:
    """Every pair's paired differences (A less B per hand, on the same walls
    and seats) with their 95 % intervals; rates in percentage points. Payments
    of presets of different units (points and a faan ledger) are not compared."""
    out = []
    for a, rows in summary.differences.items():
        for b, d in rows.items():
            for field, label, rate in CHANGES:
                scale = 100.0 if rate else 1.0
                if field in PAID and (d.won is None or d.payments_by_seat is None
                                      or unit(summary.presets[a]) != unit(summary.presets[b])):
                    out.append(Change(a, b, field, label, None, None, "- (other units)"))
                    continue
                s = d.payments_by_seat["E"] if field == "dealer_payments" and d.payments_by_seat is not None \
                    else getattr(d, field)
                mean = s.mean()
                iv = s.interval()
                text = "-" if mean is None else f"{scale * mean:+,.2f}" + (" pp" if rate else "")
                if iv is not None:
                    text += f" ({ci(s, scale)})"
                out.append(Change(a, b, field, label, mean, iv, text))
    return out


def depends_on_bots(found: Sequence[Change]) -> str | None:
    """Whether one difference, measured under several mixes of bots (``found``: a ``Change`` a mix), depends on
    the bots: "sign" (higher under some mixes, lower under others), "significance" (its 95 % interval clear of
    0 under some, not under others), both ("sign and significance"), or None."""
    known = [c for c in found if c.mean is not None]
    if len(known) < 2:
        return None
    signs = {c.mean > 0 for c in known if c.mean}
    sure = {c.interval is not None and (c.interval[0] > 0 or c.interval[1] < 0) for c in known}
    flags = [name for name, varies in (("sign", len(signs) > 1), ("significance", len(sure) > 1)) if varies]
    return " and ".join(flags) or None


class Across(NamedTuple):
    """One difference between presets ``a`` and ``b`` under each mix of bots, and whether it depends on them."""

    a: str
    b: str
    field: str
    label: str
    by_mix: list[Change]
    depends: str | None


def across_mixes(summary: SimulationSummary) -> list[Across]:
    """Every pair's paired differences under each mix of bots (``changes`` of each of ``by_mix()``), in
    ``changes``' order, each flagged when it depends on the bots (``depends_on_bots``)."""
    per_mix = [changes(s) for s in summary.by_mix()]
    out = []
    for row in zip(*per_mix):
        c = row[0]
        out.append(Across(c.a, c.b, c.field, c.label, list(row), depends_on_bots(row)))
    return out


def faults(summary: SimulationSummary) -> list[tuple[str, str, int]]:
    """``(preset id, bot name, seat-hands)`` for each preset's bots that faulted (programs' bots,
    docs/bots.md), in the summary's order."""
    return [(pid, name, bot.faults) for pid, p in summary.presets.items() for name, bot in p.bots.items()
            if bot.faults]


def summary_markdown(summary: SimulationSummary) -> str:
    """The summary as a Markdown page: the presets side by side, what changed
    between each and its base (under each mix of bots, flagged where it depends
    on them), how well each pair shares its walls, each preset's bots, the
    bots' paired differences, and the presets' warnings (``Preset.warnings``),
    if any."""
    ids = list(summary.presets)
    mixes = summary.by_mix()
    figures = glance(summary)
    out = [f"# Simulation: {summary.hands:,} walls, seed {summary.seed}", ""]
    if len(mixes) == 1:
        out += [f"Bots (E, S, W, N in the first rotation): {', '.join(summary.bots)}.", ""]
    else:
        out += ["Mixes of bots, each on the same walls (E, S, W, N in the first rotation): "
                + "; ".join(mix_label(m.bots) for m in mixes) + ". The presets side by side are under the first.", ""]
    out += [summary.duplicate[0].upper() + summary.duplicate[1:] + ".", "",
            "Presets: " + "; ".join(f"{title(pid, p)}, {unit(p)}" for pid, p in summary.presets.items()) + ".", "",
            "Walls shared by: " + "; ".join(", ".join(g) for g in summary.groups) + "."
            + (f" Each preset is compared with {summary.base} (a group without it: with its first)."
               if summary.base is not None else ""), "",
            "## At a glance", "", "Rates are per hand played; payments in each preset's unit. Hands played: walls x 4 "
            "rotations; distinct: those whose play differs (one bot in every seat that always plays alike plays the "
            "four rotations of a wall as one hand).", ""]
    out += [md_table([["", *ids], *([label, *(figures[pid][field].text for pid in ids)] for field, label in GLANCE)])]
    found = across_mixes(summary)
    if found:
        out += ["", "## What changed", "",
                "A less B per hand, on the same walls with the same bots in the same seats, with its 95 % interval "
                "(pp: percentage points).", ""]
        if len(mixes) == 1:
            out += [md_table([["A", "B", "", "difference (95 % interval)"],
                              *([x.a, x.b, x.label, x.by_mix[0].text] for x in found)])]
        else:
            out += ["Under each mix of bots; *depends on the bots*: the sign, or whether the interval is clear of "
                    "0, is not the same under every mix.", ""]
            out += [md_table([["A", "B", "", *(mix_label(m.bots) for m in mixes), "depends on the bots"],
                              *([x.a, x.b, x.label, *(c.text for c in x.by_mix), x.depends or ""]
                                for x in found)])]
        out += ["", "### How well each pair shares its walls", "",
                "Draws in step: walls whose tiles came off the wall in the same order under both presets, in "
                "every rotation (a rule that replaces bonus tiles or kongs from another end breaks it). "
                "Correlation: of a seat's net on a wall under A and under B (near 0: paired in name only).", ""]
        rows = [["A", "B", *(["bots"] if len(mixes) > 1 else []), "draws in step", "correlation", ""]]
        for m in mixes:
            for a, row in m.differences.items():
                for b, d in row.items():
                    rows.append([a, b, *([mix_label(m.bots)] if len(mixes) > 1 else []), *pairing_text(d.pairing),
                                 pairing_verdict(d.pairing)])
        out += [md_table(rows)]
    out += ["", "## Bots", ""]
    table = ["| " + " | ".join([*(["bots"] if len(mixes) > 1 else []), "preset", "bot", "seat-hands", "win rate",
                                "as dealer", "deal-in", "payments per hand (95 % interval)"]) + " |",
             "|" + "---|" * (7 + (len(mixes) > 1))]
    alone = []
    for m in mixes:
        if one_bot(m.bots):
            alone.append(mix_label(m.bots))
            continue
        for pid, p in m.presets.items():
            for name, bot in p.bots.items():
                dealer = bot.wins_by_seat["E"] / bot.hands_by_seat["E"] if bot.hands_by_seat["E"] else None
                lead = f"| {mix_label(m.bots)} " if len(mixes) > 1 else ""
                table.append(f"{lead}| {pid} | {name} | {bot.hands:,} | {pct(bot.rate(bot.wins))} "
                             f"| {pct(dealer)} | {pct(bot.rate(bot.deal_ins))} "
                             f"| {num(bot.payments.mean())} ({ci(bot.payments)}) |")
    if alone:
        out += [f"{'; '.join(alone)}: one bot in every seat, whose payments are the whole table's (zero under a "
                "settlement): no table of bots.", ""]
    if len(table) > 2:
        out += table
    faulted = faults(summary)
    if faulted:
        out += ["", "Faults: seat-hands in which a program's bot (cmd:...) faulted and the fallback bot played on: "
                + "; ".join(f"{pid} {name}: {n:,}" for pid, name, n in faulted) + "."]
    rows = []
    for m in mixes:
        if one_bot(m.bots):
            continue
        for a, per_pair in m.pairs.items():
            for other, per_bot in per_pair.items():
                if not same_measure(summary, a, other):
                    continue
                for name, st in per_bot.items():
                    rows.append([*([mix_label(m.bots)] if len(mixes) > 1 else []), a, other, name, num(st.mean()),
                                 ci(st)])
    if rows:
        out += ["", "## Paired differences by bot", "",
                "A's payments per seat-hand less B's, on the same walls with the same bots in the same seats "
                "(presets that pay in different units are not compared).", ""]
        out += [md_table([[*(["bots"] if len(mixes) > 1 else []), "A", "B", "bot", "difference per hand",
                           "95 % interval"], *rows])]
    warned = warnings_markdown({pid: p.warnings for pid, p in summary.presets.items()})
    out += ["", *warned[:-1]] if warned else []
    return "\n".join(out) + "\n"


__all__ = ["CHANGES", "GLANCE", "WEAK_R", "WEAK_STEP", "Across", "Change", "Figure", "across_mixes", "changes", "ci",
           "depends_on_bots", "faults", "glance", "hands_text", "in_name_only", "mix_label", "num", "one_bot",
           "pairing_text", "pairing_verdict", "pct", "same_measure", "summary_markdown", "title", "unit"]
