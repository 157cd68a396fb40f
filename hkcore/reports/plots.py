"""The reports' plots (matplotlib, the optional extra ``hkcore[report]``,
imported only when a plot is drawn) as inline SVG: what both reports' plots
share, the comparison report's plots, and the small figures they share with
its tables."""
from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from hkcore.summary import PresetSummary


def pct(part: int, whole: int) -> str:
    """``part`` as a share of ``whole`` ("-" of nothing)."""
    return f"{100 * part / whole:.1f}%" if whole else "-"


def hist(h: dict[str, int]) -> list[tuple[int, int]]:
    """A histogram's (value, count) pairs by value."""
    return sorted((int(k), n) for k, n in h.items())


def unit(s: PresetSummary) -> str:
    """The unit a preset counts in."""
    return "points" if s.unit == "points" else "faan"


def svg(fig: Any) -> str:
    """A matplotlib figure as SVG text, from its ``<svg`` on (no date: the same figure, the same text)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def plain_text(text: str) -> str:
    """Text matplotlib draws as it is: every ``$`` escaped, so that a preset id is never read as mathtext."""
    return text.replace("$", r"\$")


def colours(ids: Sequence[str]) -> dict[str, Any]:
    """Matplotlib set to draw the same SVG on every run, its text as text; each preset's colour."""
    import matplotlib

    matplotlib.rcParams["svg.hashsalt"] = "hkcore"  # the same ids on every run
    matplotlib.rcParams["svg.fonttype"] = "none"    # text stays text (the page's font)
    return {p: matplotlib.colormaps["tab10"](i % 10) for i, p in enumerate(ids)}


def preset_bars(bars: dict[str, tuple[list[tuple[int, int]], int, str]], palette: dict[str, Any],
                ylabel: str) -> str:
    """One bar chart a preset, side by side: ``bars`` maps each preset to its (value, count) pairs, the
    total the counts are shares of, and the label of its values; ``ylabel`` says what the shares are of."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator, PercentFormatter

    fig = Figure(figsize=(2.6 * len(bars) + 0.5, 2.8))
    axes = fig.subplots(1, len(bars), squeeze=False)[0]
    for ax, (p, (pts, total, xlabel)) in zip(axes, bars.items()):
        ax.bar([k for k, _ in pts], [n / total for _, n in pts], color=palette[p], width=0.8)
        ax.set_title(plain_text(p), fontsize=10)
        ax.set_xlabel(xlabel)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes[0].set_ylabel(ylabel)
    fig.tight_layout()
    return svg(fig)


def figures(presets: dict[str, PresetSummary], compared: int) -> dict[str, str]:
    """The plots ``winnable``, ``faan`` and ``payout`` of each preset's counts over the same ``compared``
    hands (``ComparisonSummary.compared``), as SVG text."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import NullFormatter, PercentFormatter

    ids = list(presets)
    palette = colours(ids)
    out = {}

    fig = Figure(figsize=(8, 0.45 * len(ids) + 1))
    ax = fig.subplots()
    ys = range(len(ids))
    for y, p in zip(ys, ids):
        s = presets[p]
        read = max(compared, 1)
        ax.barh(y, s.complete / read, color=palette[p], alpha=0.3)
        ax.barh(y, s.winnable / read, color=palette[p])
        ax.text(s.winnable / read + 0.01, y, pct(s.winnable, compared), va="center", fontsize=9)
    ax.set_yticks(list(ys), [plain_text(p) for p in ids])
    ax.invert_yaxis()
    ax.set_xlim(0, 1.08)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of the hands every preset reads: winnable (solid), complete (pale)")
    out["winnable"] = svg(fig)

    out["faan"] = preset_bars({p: (hist(presets[p].faan_histogram), max(presets[p].complete, 1), unit(presets[p]))
                               for p in ids}, palette, "complete hands")

    paying = [p for p in ids if presets[p].pays and presets[p].paid]
    fig = Figure(figsize=(8, 3.2))
    ax = fig.subplots()
    for p in paying:
        pts = hist(presets[p].payout_histogram)
        total = sum(n for _, n in pts)
        xs, ys_, seen = [], [], 0
        for k, n in pts:
            seen += n
            xs.append(max(k, 1))
            ys_.append(seen / total)
        ax.step(xs, ys_, where="post", color=palette[p], label=plain_text(p), linewidth=2)
    if paying:
        ax.set_xscale("log")
        gains = [max(int(k), 1) for p in paying for k in presets[p].payout_histogram] or [1]
        low, top = min(gains), max(gains)
        ticks = [m * 10 ** d for d in range(len(str(top))) for m in (1, 2, 5) if low / 2.5 <= m * 10 ** d <= top]
        ax.set_xticks(ticks, [f"{t:,}" for t in ticks])  # 1, 2, 5, 10, 20, ... (a log axis labels only 10^n)
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.legend(fontsize=9)
    ax.set_xlabel("winner's net gain")
    ax.set_ylabel("paid hands, cumulative")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    out["payout"] = svg(fig)
    return out
