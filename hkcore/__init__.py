"""hkcore: score Hong Kong mahjong hands under any house ruleset.

The names below are imported on first use (so that ``hkscore`` and a
program using one corner of hkcore load only what they need); ``import
hkcore`` then ``hkcore.score(...)`` works as with any package.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"


def _source_tree_plugins() -> None:
    """In a source checkout (``import hkcore`` from the repository root), the
    optional plugins live in plugins/, which an install ships as
    ``hkcore.plugins``: make them importable under that name here too."""
    here = Path(__file__).resolve().parent
    shipped = here.parent / "plugins"
    if (here / "plugins").exists() or "hkcore.plugins" in sys.modules or not (shipped / "liability.py").is_file():
        return
    spec = importlib.util.spec_from_file_location("hkcore.plugins", shipped / "__init__.py",
                                                  submodule_search_locations=[str(shipped)])
    if spec is None or spec.loader is None:  # pragma: no cover
        return
    module = importlib.util.module_from_spec(spec)
    sys.modules["hkcore.plugins"] = module
    spec.loader.exec_module(module)


_source_tree_plugins()

#: public name -> the module that defines it
_WHERE = {
    "score": "hkcore.engine",
    "score_many": "hkcore.batch",
    "compare": "hkcore.comparison",
    "Comparison": "hkcore.comparison",
    "compare_many": "hkcore.summary",
    "ComparisonSummary": "hkcore.summary",
    "analyse": "hkcore.analysis",
    "Analysis": "hkcore.analysis",
    "Claim": "hkcore.claims",
    "legal_claims": "hkcore.claims",
    "may_discard": "hkcore.claims",
    "resolve_claims": "hkcore.claims",
    "Hand": "hkcore.models",
    "Meld": "hkcore.models",
    "Position": "hkcore.models",
    "PatternScore": "hkcore.results",
    "ScoreResult": "hkcore.results",
    "Preset": "hkcore.preset",
    "PresetError": "hkcore.preset",
    "load_preset": "hkcore.preset",
    "presets": "hkcore.preset",
    "PluginError": "hkcore.registry",
    "register_plugin": "hkcore.registry",
    "reload_plugins": "hkcore.registry",
    "unregister_plugin": "hkcore.registry",
    "hookimpl": "hkcore.hookspecs",
    "is_complete": "hkcore.questions",
    "readings": "hkcore.questions",
    "tiles_away": "hkcore.questions",
    "waits": "hkcore.questions",
    "Table": "hkcore.table.table",
    "Match": "hkcore.table.match",
    "replay": "hkcore.table.replay",
    "ReplayError": "hkcore.table.replay",
    "Env": "hkcore.table.env",
    "simulate": "hkcore.simulation",
    "SimulationSummary": "hkcore.simulation",
    "arena": "hkcore.simulation",
    "ArenaResult": "hkcore.simulation",
    "TableError": "hkcore.errors",
    "HandError": "hkcore.errors",
    "HkcoreError": "hkcore.errors",
    "TileError": "hkcore.errors",
    "TILES": "hkcore.tiles",
    "Tile": "hkcore.tiles",
    "format_tiles": "hkcore.tiles",
    "parse_tiles": "hkcore.tiles",
    "tile": "hkcore.tiles",
}
_SUBMODULES = frozenset({"core", "notation", "engine", "models", "preset", "registry", "analysis", "claims",
                         "comparison", "batch", "questions", "shaping", "tiles", "errors", "patterns", "shapes",
                         "payments", "hookspecs", "cli", "summary", "report", "sample", "table", "results", "values",
                         "simulation"})

#: written out (not built from ``_WHERE``) so that type checkers read it; tests hold the two equal
__all__ = [
    "score", "score_many", "compare", "Comparison", "compare_many", "ComparisonSummary", "analyse", "Analysis",
    "Claim", "legal_claims", "may_discard", "resolve_claims", "Hand", "Meld", "Position", "PatternScore",
    "ScoreResult", "Preset", "PresetError", "load_preset", "presets", "PluginError", "register_plugin",
    "reload_plugins", "unregister_plugin", "hookimpl", "is_complete", "readings", "tiles_away", "waits",
    "Table", "Match", "replay", "ReplayError", "Env", "simulate", "SimulationSummary", "arena", "ArenaResult",
    "TableError", "HandError", "HkcoreError", "TileError", "TILES", "Tile", "format_tiles", "parse_tiles", "tile",
    "core", "notation",
]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name]), name)
    elif name in _SUBMODULES:
        value = importlib.import_module(f"hkcore.{name}")
    else:
        raise AttributeError(f"module 'hkcore' has no attribute {name!r}")
    globals()[name] = value  # as an import would: the next lookup finds it directly
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs: each name re-exported explicitly
    from hkcore import core as core, notation as notation
    from hkcore.analysis import Analysis as Analysis, analyse as analyse
    from hkcore.batch import score_many as score_many
    from hkcore.claims import (
        Claim as Claim,
        legal_claims as legal_claims,
        may_discard as may_discard,
        resolve_claims as resolve_claims,
    )
    from hkcore.comparison import Comparison as Comparison, compare as compare
    from hkcore.engine import score as score
    from hkcore.errors import (
        HandError as HandError,
        HkcoreError as HkcoreError,
        TableError as TableError,
        TileError as TileError,
    )
    from hkcore.hookspecs import hookimpl as hookimpl
    from hkcore.models import Hand as Hand, Meld as Meld, Position as Position
    from hkcore.preset import (
        Preset as Preset,
        PresetError as PresetError,
        load_preset as load_preset,
        presets as presets,
    )
    from hkcore.questions import (
        is_complete as is_complete,
        readings as readings,
        tiles_away as tiles_away,
        waits as waits,
    )
    from hkcore.registry import (
        PluginError as PluginError,
        register_plugin as register_plugin,
        reload_plugins as reload_plugins,
        unregister_plugin as unregister_plugin,
    )
    from hkcore.results import PatternScore as PatternScore, ScoreResult as ScoreResult
    from hkcore.simulation import (
        ArenaResult as ArenaResult,
        SimulationSummary as SimulationSummary,
        arena as arena,
        simulate as simulate,
    )
    from hkcore.summary import ComparisonSummary as ComparisonSummary, compare_many as compare_many
    from hkcore.table.env import Env as Env
    from hkcore.table.match import Match as Match
    from hkcore.table.replay import ReplayError as ReplayError, replay as replay
    from hkcore.table.table import Table as Table
    from hkcore.tiles import (
        TILES as TILES,
        Tile as Tile,
        format_tiles as format_tiles,
        parse_tiles as parse_tiles,
        tile as tile,
    )
