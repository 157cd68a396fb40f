"""A simulation's summary as figures a club reads (``glance``, ``changes``)
and as a Markdown page (``summary_markdown``); the report page
(``hkcore.reports.simulation``) shows the same figures."""
from __future__ import annotations

from typing import NamedTuple

from hkcore.reports.page import md_table, warnings_markdown
from hkcore.simulation.summary import PresetSimulation, SimulationSummary, Stat


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
    return "points" if p.pays else f"{p.unit} (ledger)"


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
            "hands": Figure(f"{p.hands:,}", p.hands),
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
                s = d.payments_by_seat["E"] if field == "dealer_payments" else getattr(d, field)
                scale = 100.0 if rate else 1.0
                if field in PAID and unit(summary.presets[a]) != unit(summary.presets[b]):
                    out.append(Change(a, b, field, label, None, None, "- (other units)"))
                    continue
                mean = s.mean()
                iv = s.interval()
                text = "-" if mean is None else f"{scale * mean:+,.2f}" + (" pp" if rate else "")
                if iv is not None:
                    text += f" ({ci(s, scale)})"
                out.append(Change(a, b, field, label, mean, iv, text))
    return out


def faults(summary: SimulationSummary) -> list[tuple[str, str, int]]:
    """``(preset id, bot name, seat-hands)`` for each preset's bots that faulted (programs' bots,
    docs/bots.md), in the summary's order."""
    return [(pid, name, bot.faults) for pid, p in summary.presets.items() for name, bot in p.bots.items()
            if bot.faults]


def summary_markdown(summary: SimulationSummary) -> str:
    """The summary as a Markdown page: the presets side by side, what changed
    between them, each preset's bots, the bots' paired differences, and the
    presets' warnings (``Preset.warnings``), if any."""
    ids = list(summary.presets)
    figures = glance(summary)
    out = [f"# Simulation: {summary.hands:,} walls, seed {summary.seed}", "",
           f"Bots (E, S, W, N in the first rotation): {', '.join(summary.bots)}.", "",
           summary.duplicate[0].upper() + summary.duplicate[1:] + ".", "",
           "Walls shared by: " + "; ".join(", ".join(g) for g in summary.groups) + ".", "",
           "## At a glance", "", "Rates are per hand played; payments in each preset's unit "
           "(" + "; ".join(f"{pid}: {unit(p)}" for pid, p in summary.presets.items()) + ").", ""]
    out += [md_table([["", *ids], *([label, *(figures[pid][field].text for pid in ids)] for field, label in GLANCE)])]
    found = changes(summary)
    if found:
        out += ["", "## What changed", "",
                "A less B per hand, on the same walls with the same bots in the same seats, with its 95 % interval "
                "(pp: percentage points).", ""]
        out += [md_table([["A", "B", "", "difference (95 % interval)"],
                          *([c.a, c.b, c.label, c.text] for c in found)])]
    out += ["", "## Bots", "",
            "| preset | bot | seat-hands | win rate | as dealer | deal-in | payments per hand (95 % interval) |",
            "|---|---|---|---|---|---|---|"]
    for pid, p in summary.presets.items():
        for name, bot in p.bots.items():
            dealer = bot.wins_by_seat["E"] / bot.hands_by_seat["E"] if bot.hands_by_seat["E"] else None
            out.append(f"| {pid} | {name} | {bot.hands:,} | {pct(bot.rate(bot.wins))} "
                       f"| {pct(dealer)} | {pct(bot.rate(bot.deal_ins))} "
                       f"| {num(bot.payments.mean())} ({ci(bot.payments)}) |")
    faulted = faults(summary)
    if faulted:
        out += ["", "Faults: seat-hands in which a program's bot (cmd:...) faulted and the fallback bot played on: "
                + "; ".join(f"{pid} {name}: {n:,}" for pid, name, n in faulted) + "."]
    out += ["", "## Paired differences by bot", "",
            "A's payments per seat-hand less B's, on the same walls with the same bots in the same seats.", "",
            "| A | B | bot | difference per hand | 95 % interval |", "|---|---|---|---|---|"]
    for a, rows in summary.pairs.items():
        for other, per_bot in rows.items():
            for name, st in per_bot.items():
                out.append(f"| {a} | {other} | {name} | {num(st.mean())} | {ci(st)} |")
    warned = warnings_markdown({pid: p.warnings for pid, p in summary.presets.items()})
    out += ["", *warned[:-1]] if warned else []
    return "\n".join(out) + "\n"


__all__ = ["CHANGES", "GLANCE", "Change", "Figure", "changes", "ci", "faults", "glance", "num", "pct",
           "summary_markdown", "unit"]
