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
    "PatternScore": "hkcore.models",
    "ScoreResult": "hkcore.models",
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
                         "comparison", "batch", "questions", "shaping", "tiles", "errors", "patterns", "shapes", "payments",
                         "hookspecs", "cli", "summary", "report", "sample", "table"})

__all__ = [*_WHERE, "core", "notation"]


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


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs
    from hkcore import core, notation
    from hkcore.analysis import Analysis, analyse
    from hkcore.batch import score_many
    from hkcore.claims import Claim, legal_claims, may_discard, resolve_claims
    from hkcore.comparison import Comparison, compare
    from hkcore.summary import ComparisonSummary, compare_many
    from hkcore.engine import score
    from hkcore.errors import HandError, HkcoreError, TableError, TileError
    from hkcore.hookspecs import hookimpl
    from hkcore.models import Hand, Meld, PatternScore, Position, ScoreResult
    from hkcore.preset import Preset, PresetError, load_preset, presets
    from hkcore.registry import PluginError, register_plugin, reload_plugins, unregister_plugin
    from hkcore.questions import is_complete, readings, tiles_away, waits
    from hkcore.table.match import Match
    from hkcore.table.replay import ReplayError, replay
    from hkcore.table.table import Table
    from hkcore.tiles import TILES, Tile, format_tiles, parse_tiles, tile
