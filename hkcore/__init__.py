"""hkcore: score Hong Kong mahjong hands under any house ruleset."""
from __future__ import annotations

from hkcore import core, notation
from hkcore.analysis import Analysis, analyse
from hkcore.claims import Claim, legal_claims, may_discard, resolve_claims
from hkcore.compare import Comparison, compare
from hkcore.engine import score
from hkcore.errors import HandError, HkcoreError, TileError
from hkcore.hookspecs import hookimpl
from hkcore.models import Hand, Meld, PatternScore, Position, ScoreResult
from hkcore.preset import Preset, PresetError, load_preset, presets
from hkcore.registry import PluginError, register_plugin, reload_plugins, unregister_plugin
from hkcore.shaping import is_complete, readings, tiles_away, waits
from hkcore.tiles import TILES, Tile, format_tiles, parse_tiles, tile

__version__ = "0.1.0"

__all__ = [
    "score",
    "compare",
    "analyse",
    "Claim",
    "legal_claims",
    "may_discard",
    "resolve_claims",
    "Analysis",
    "Position",
    "Comparison",
    "load_preset",
    "presets",
    "Hand",
    "Meld",
    "PatternScore",
    "ScoreResult",
    "Preset",
    "PresetError",
    "core",
    "notation",
    "hookimpl",
    "PluginError",
    "register_plugin",
    "reload_plugins",
    "unregister_plugin",
    "is_complete",
    "readings",
    "tiles_away",
    "waits",
    "HandError",
    "HkcoreError",
    "TileError",
    "TILES",
    "Tile",
    "format_tiles",
    "parse_tiles",
    "tile",
]
