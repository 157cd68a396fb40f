"""The comparison report's plots (matplotlib, the optional extra
``hkcore[report]``, imported only when a plot is drawn) as inline SVG, and
the small figures they share with the report's tables."""
from __future__ import annotations

import io
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
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    return text[text.index("<svg"):]


def plain_text(text: str) -> str:
    """Text matplotlib draws as it is: every ``$`` escaped, so that a preset id is never read as mathtext."""
    return text.replace("$", r"\$")


def figures(presets: dict[str, PresetSummary], compared: int) -> dict[str, str]:
    """The plots ``winnable``, ``faan`` and ``payout`` of each preset's counts over the same ``compared``
    hands (``ComparisonSummary.compared``), as SVG text."""
    import matplotlib
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator, NullFormatter, PercentFormatter

    matplotlib.rcParams["svg.hashsalt"] = "hkcore"  # the same ids on every run
    matplotlib.rcParams["svg.fonttype"] = "none"    # text stays text (the page's font)
    ids = list(presets)
    colours = {p: matplotlib.colormaps["tab10"](i % 10) for i, p in enumerate(ids)}
    out = {}

    fig = Figure(figsize=(8, 0.45 * len(ids) + 1))
    ax = fig.subplots()
    ys = range(len(ids))
    for y, p in zip(ys, ids):
        s = presets[p]
        read = max(compared, 1)
        ax.barh(y, s.complete / read, color=colours[p], alpha=0.3)
        ax.barh(y, s.winnable / read, color=colours[p])
        ax.text(s.winnable / read + 0.01, y, pct(s.winnable, compared), va="center", fontsize=9)
    ax.set_yticks(list(ys), [plain_text(p) for p in ids])
    ax.invert_yaxis()
    ax.set_xlim(0, 1.08)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xlabel("share of the hands every preset reads: winnable (solid), complete (pale)")
    out["winnable"] = svg(fig)

    fig = Figure(figsize=(2.6 * len(ids) + 0.5, 2.8))
    axes = fig.subplots(1, len(ids), squeeze=False)[0]
    for ax, p in zip(axes, ids):
        s = presets[p]
        pts = hist(s.faan_histogram)
        total = max(s.complete, 1)
        ax.bar([k for k, _ in pts], [n / total for _, n in pts], color=colours[p], width=0.8)
        ax.set_title(plain_text(p), fontsize=10)
        ax.set_xlabel(unit(s))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes[0].set_ylabel("complete hands")
    fig.tight_layout()
    out["faan"] = svg(fig)

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
        ax.step(xs, ys_, where="post", color=colours[p], label=plain_text(p), linewidth=2)
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
