"""Presets: a house ruleset as TOML data, loaded, checked and compiled.

A preset file says, as data: the unit (faan or points), the minimum to win,
the cap, the tile set, the winning shapes in play, the plugins turned on,
the patterns in play with their values and options, what a value includes,
limit hands, what still adds to a limit hand, patterns that win below the
minimum, and the payment scheme. ``extends`` names a built-in preset or
another file (relative to the file naming it) whose rules this one starts
from. Unknown keys, pattern ids and options are errors naming the file, the
dotted TOML path and the nearest valid name.

Pattern entries (under ``[patterns]``)::

    all_chows = 1                                    # 1 faan each time it is met
    dragon_pung = { by_count = [0, 2, 6, 6] }         # a table by count
    kong_on_kong = { value = 8, includes = ["kong_replacement"] }
    all_honours = { limit = 10 }                      # a limit hand, flat
    seven_bonus = { value = 3, wins_below_minimum = true }
    nine_gates = { limit = 10, wait = "pure" }        # pattern options inline
    robbing_kong = false                              # off (in a file that extends)
    four_concealed_pungs = { limit = 13, when = "self_draw" }   # counts only where it holds

``when`` is one of ``hkcore.core._codes.WHEN`` or a list of them (all must
hold). A file that extends replaces a pattern's whole entry, ``when``
included: an entry it restates without ``when`` has no condition.

The package, by job: ``errors`` (``PresetError``), ``schema`` (the models of
a preset file: the one source of its validation, its JSON Schema and the key
tables of docs/house-rules.md), ``rules`` (``PatternRule``), ``checks`` (a
file's merged data to a preset's fields), ``reading`` (TOML, files inside a
root, ``extends``), ``lint`` (``Lint``: what loads but cannot mean what it says, ``Preset.warnings``),
``model`` (``Preset``), ``store`` (the presets of a
registry, ``load_preset``) and ``export`` (TOML out, ``diff``).
"""
from __future__ import annotations

from hkcore.options import nearest
from hkcore.preset.checks import shape_options
from hkcore.preset.errors import PresetError, freeze, thaw
from hkcore.preset.export import Difference, diff, export_toml
from hkcore.preset.lint import LINT_CODES, Lint, lint
from hkcore.preset.model import Preset
from hkcore.preset.reading import MAX_EXTENDS, MAX_FILE, MAX_KEY_PARTS, builtin_ids, builtin_root, is_path, toml_data
from hkcore.preset.rules import PatternRule, pattern_worth
from hkcore.preset.schema import (
                                   BUILTIN_SHAPES,
                                   CLAIM_RULES,
                                   ENTRY_KEYS,
                                   MAX_BY_COUNT,
                                   MAX_VALUE,
                                   TOP_KEYS,
                                   Claims,
                                   PatternEntry,
                                   Payments,
                                   PresetFile,
                                   docs_claims_table,
                                   docs_entry_table,
                                   docs_table,
)
from hkcore.preset.store import CACHE_SIZE, PresetStore, load_preset, presets, read_preset, store

#: the schema of a preset file's data (``PresetFile``, by its former name)
PresetData = PresetFile
# the former private names, for the tests and scripts that read them
_builtin_root = builtin_root
_is_path = is_path
_nearest = nearest
_toml_data = toml_data

__all__ = [
    "BUILTIN_SHAPES", "CACHE_SIZE", "CLAIM_RULES", "ENTRY_KEYS", "LINT_CODES", "MAX_BY_COUNT", "MAX_EXTENDS",
    "MAX_FILE", "MAX_KEY_PARTS", "MAX_VALUE", "TOP_KEYS", "Claims", "Difference", "Lint", "PatternEntry",
    "PatternRule", "Payments", "Preset", "PresetData", "PresetError", "PresetFile", "PresetStore", "builtin_ids",
    "builtin_root", "diff", "docs_claims_table", "docs_entry_table", "docs_table", "export_toml", "freeze", "is_path",
    "lint", "load_preset", "nearest", "pattern_worth", "presets", "read_preset", "shape_options", "store", "thaw",
    "toml_data",
]
