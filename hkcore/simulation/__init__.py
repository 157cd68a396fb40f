"""Hands played by bots under several presets, in duplicate, summarised by
counts (docs/simulation.md).

The modules: ``summary`` (``SimulationSummary`` and its parts: counts that
add with ``+``), ``play`` (the walls, the seats, the bots, the process pool:
``simulate``), ``markdown`` (the summary as a Markdown page), ``strength`` (the
arena: one challenger bot against three champions, ``arena``). Every public
name is re-exported here.
"""
from __future__ import annotations

from hkcore.simulation.markdown import (
    CHANGES,
    GLANCE,
    Change,
    Figure,
    changes,
    ci,
    glance,
    num,
    pct,
    summary_markdown,
    unit,
)
from hkcore.simulation.play import (
    MAX_HANDS,
    Plan,
    bot_seed,
    check_walls,
    fast_path,
    plan,
    play_walls,
    seating,
    shards,
    simulate,
    simulation_logs,
    simulation_starts,
    wall_ranges,
    wall_seed,
)
from hkcore.simulation.strength import ArenaResult, Interval, Side, arena
from hkcore.simulation.summary import (
    DUPLICATE,
    ROTATIONS,
    Z95,
    BotSimulation,
    PairSimulation,
    PresetSimulation,
    SimulationSummary,
    Stat,
)

__all__ = [
    "CHANGES",
    "ArenaResult",
    "Interval",
    "Side",
    "arena",
    "DUPLICATE",
    "GLANCE",
    "MAX_HANDS",
    "ROTATIONS",
    "Z95",
    "BotSimulation",
    "Change",
    "Figure",
    "PairSimulation",
    "Plan",
    "PresetSimulation",
    "SimulationSummary",
    "Stat",
    "bot_seed",
    "changes",
    "check_walls",
    "ci",
    "fast_path",
    "glance",
    "num",
    "pct",
    "plan",
    "play_walls",
    "seating",
    "shards",
    "simulate",
    "simulation_logs",
    "simulation_starts",
    "summary_markdown",
    "unit",
    "wall_ranges",
    "wall_seed",
]
