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
"""
from __future__ import annotations

import difflib
import importlib.metadata
import importlib.resources
import json
import re
import threading
import tomllib
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any, Callable, Literal

import tomli_w
from pydantic import ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import Required, TypedDict

from hkcore import registry
from hkcore.core._codes import WHEN
from hkcore.errors import SHOWN, HkcoreError, shown
from hkcore.registry import Catalogue
from hkcore.table_rules import TableRules, table_problems

BUILTIN_SHAPES = ("standard", "thirteen_orphans")
TOP_KEYS = (
    "id", "name", "source", "extends", "requires", "unit", "minimum", "cap", "tiles", "shapes", "plugins",
    "limit_adds", "claims", "patterns", "payments", "table",
)
#: claim rules (``[claims]``), each with its allowed values, the first the default
CLAIM_RULES: dict[str, tuple[Any, ...]] = {
    # which kongs another player may rob: none at all, only added kongs, or also a
    # concealed kong when the robbing hand is thirteen orphans (ruling 13)
    "robbing_kong": ("added", "none", "added_and_concealed_orphans"),
    # several players may win on one discard (each paid separately); else the
    # nearest seat after the discarder wins
    "multiple_winners": (False, True),
    # after a chow or pung the claimant may not at once discard a tile that would
    # swap the claimed set: the claimed tile, or a chow's tile at the other end
    "swap_rule": (False, True),
}
ENTRY_KEYS = ("value", "by_count", "limit", "includes", "wins_below_minimum", "when")
_DIST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]{0,98}[A-Za-z0-9])?")


class PresetError(HkcoreError, ValueError):
    """A preset that cannot be loaded: names the file and the TOML path."""

    def __init__(self, message: str, file: str | None = None, path: str | None = None, *, value: Any = None):
        where = ": ".join(x if len(x) <= 2 * SHOWN else x[:2 * SHOWN - 3] + "..." for x in (file, path) if x)
        super().__init__(f"{where}: {message}" if where else message)
        self.file = file
        self.path = path
        #: the value found at ``path`` (the offending key for an unknown key), where there is one
        self.value = value


def freeze(value: Any) -> Any:
    """``value`` read-only all the way down: tables become read-only mappings, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A frozen value as plain dicts and lists again (TOML- and JSON-ready)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


_EMPTY: Mapping[str, Any] = MappingProxyType({})


def _nearest(word: Any, choices: Iterable[Any]) -> str:
    if not isinstance(word, str) or len(word) > 100:
        return ""
    found = difflib.get_close_matches(word, [str(c) for c in choices], n=1, cutoff=0.5)
    return f" (did you mean {found[0]!r}?)" if found else ""


@dataclass(frozen=True)
class PatternRule:
    """What a preset makes of one pattern."""

    id: str
    value: int | None = None
    by_count: tuple[int, ...] | None = None
    limit: int | None = None
    includes: tuple[str, ...] = ()
    wins_below_minimum: bool = False
    options: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)
    #: conditions that must all hold for the pattern to count (words of ``WHEN``, in its order)
    when: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", freeze(self.options))

    def __hash__(self) -> int:
        return hash((self.id, self.value, self.by_count, self.limit, self.includes, self.when))

    def worth(self, count: int) -> int:
        """Faan (or points) for meeting the pattern ``count`` times (not for limits)."""
        if self.by_count is not None:
            return self.by_count[min(count, len(self.by_count) - 1)]
        return (self.value or 0) * count

    def to_toml(self) -> Any:
        """This rule as a TOML value (a bare number where it is one)."""
        if self.value is not None and not (self.includes or self.wins_below_minimum or self.options or self.when):
            return self.value
        out: dict[str, Any] = {}
        for key in ENTRY_KEYS:
            v = getattr(self, key)
            if v not in (None, (), False):
                out[key] = v[0] if key == "when" and len(v) == 1 else list(v) if isinstance(v, tuple) else v
        out.update(thaw(self.options))
        return out


@dataclass(frozen=True)
class Preset:
    """A fully resolved ruleset (extends applied, everything checked).

    Immutable all the way down: its tables are read-only mappings and its
    lists tuples, so a preset can be shared by every thread and table.
    """

    id: str
    name: str
    unit: str
    minimum: int
    cap: int | None
    tiles: int
    shapes: tuple[str, ...]
    plugins: Mapping[str, Mapping[str, Any]]
    limit_adds: tuple[str, ...]
    patterns: tuple[PatternRule, ...]
    payments: Mapping[str, Any] | None
    claims: Mapping[str, Any] = field(default_factory=lambda: {k: v[0] for k, v in CLAIM_RULES.items()})
    source: str = ""
    file: str = field(default="", compare=False)
    #: options of the shapes that have any, by shape id
    shape_options: Mapping[str, Mapping[str, Any]] = field(default_factory=lambda: _EMPTY)
    #: plugin distributions the preset needs installed
    requires: tuple[str, ...] = ()
    #: how a hand and a match are played (``[table]``)
    table: TableRules = field(default_factory=TableRules)

    def __post_init__(self) -> None:
        for name in ("shapes", "plugins", "limit_adds", "patterns", "payments", "claims", "shape_options",
                     "requires"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, PatternRule):
                object.__setattr__(self, name, freeze(value) if name != "patterns" else tuple(value))

    def __hash__(self) -> int:
        return hash((self.id, self.unit, self.minimum, self.cap, self.tiles, self.shapes, self.patterns))

    @classmethod
    def from_toml(cls, text: str, base_dir: str | Path | None = None, *, root: str | Path | None = None,
                  catalogue: Catalogue | None = None) -> Preset:
        """A preset from TOML text (a database row, an upload). ``extends``
        names a built-in preset, or a file relative to ``base_dir``; with
        ``root``, only files inside ``root`` (see ``load_preset``)."""
        if not isinstance(text, str):
            raise PresetError(f"TOML text must be a str, not {type(text).__name__}", "<toml>", None)
        folder = _folder(root, "root") if root is not None else None
        here = _folder(base_dir, "base_dir") if base_dir is not None else folder
        return _from_data(_toml_data(text), here, folder, catalogue)

    @property
    def bonus_tiles(self) -> bool:
        """True when the table plays with flowers and seasons (144 tiles)."""
        return self.tiles == 144

    def rule(self, pattern_id: str) -> PatternRule | None:
        """The rule for a pattern id, or None when it is not in play."""
        for r in self.patterns:
            if r.id == pattern_id:
                return r
        return None

    # The surface of hkcore's pydantic values. A Preset keeps its own frozen
    # dataclass inside (read-only mappings, checked against the plugin
    # catalogue when built); its data is the TOML of a preset file.

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The resolved preset as the data of a preset file (no ``extends``;
        ``cap`` and ``payments`` false for none), TOML- and JSON-ready in
        either ``mode``: ``Preset.model_validate`` of it gives an equal preset."""
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "unit": self.unit, "minimum": self.minimum,
            "cap": self.cap if self.cap is not None else False, "tiles": self.tiles,
            "shapes": ({sid: thaw(self.shape_options.get(sid, {})) for sid in self.shapes}
                       if self.shape_options else list(self.shapes)), "plugins": thaw(self.plugins),
            "limit_adds": list(self.limit_adds), "claims": thaw(self.claims),
        }
        if self.source:
            out["source"] = self.source
        if self.requires:
            out["requires"] = list(self.requires)
        out["patterns"] = {r.id: r.to_toml() for r in self.patterns}
        out["payments"] = thaw(self.payments) if self.payments is not None else False
        out["table"] = self.table.to_toml()
        return out

    def model_dump_json(self, *, indent: int | None = None) -> str:
        """``model_dump()`` as JSON (compact, as pydantic writes it, unless ``indent``)."""
        if indent is None:
            return json.dumps(self.model_dump(), ensure_ascii=False, separators=(",", ":"))
        return json.dumps(self.model_dump(), ensure_ascii=False, indent=indent)

    to_json = model_dump_json

    @classmethod
    def model_validate(cls, obj: Any) -> Preset:
        """A preset from the data of a preset file (``model_dump`` gives it;
        ``extends`` a built-in preset is allowed), checked as a file is:
        errors are PresetErrors naming the TOML path. A Preset is returned as is."""
        if isinstance(obj, Preset):
            return obj
        if not isinstance(obj, Mapping):
            raise PresetError(f"expected the preset's data as a mapping, got {type(obj).__name__}", "<mapping>")
        return load_preset(obj)

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Preset:
        """A preset from ``model_dump_json`` text (see ``model_validate``)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise PresetError(f"not valid JSON: {str(exc)[:2 * SHOWN]}", "<json>") from None
        return cls.model_validate(data)

    @classmethod
    def model_json_schema(cls, by_alias: bool = True) -> dict[str, Any]:
        """The JSON Schema of a preset's data (of a preset file), as pydantic writes it."""
        return TypeAdapter(PresetData).json_schema(by_alias=by_alias)


# ---------------------------------------------------------------- loading

#: the most parts a dotted key may have (``a.b.c`` has 3): the TOML parser's time grows with the square of a
#: key's parts, so a 32 KB key of 16,000 parts would take seconds and a gigabyte
MAX_KEY_PARTS = 32
_LONG_KEY = re.compile(r"""(?:(?:[A-Za-z0-9_-]+|"[^"\n]{0,200}"|'[^'\n]{0,200}')[ \t]*\.[ \t]*){%d}""" % MAX_KEY_PARTS)


def _bounded(text: str, label: str) -> None:
    """Refuse TOML text whose cost to parse is not bounded by its length (a dotted key of too many parts)."""
    found = _LONG_KEY.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise PresetError(f"a dotted key of more than {MAX_KEY_PARTS} parts at line {line:,} "
                          f"(at most {MAX_KEY_PARTS})", label, None, value=found.group(0))


def _toml_data(text: str) -> dict[str, Any]:
    """The data of TOML text given as a string (at most ``MAX_FILE`` characters)."""
    if len(text) > MAX_FILE:
        raise PresetError(f"TOML text of {len(text):,} characters; at most {MAX_FILE:,}", "<toml>", None)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a TOML document is UTF-8 text; a lone surrogate is not
        raise PresetError(f"not valid TOML: character {exc.start + 1:,} is a lone surrogate "
                          f"{shown(text[exc.start])}, not text", "<toml>", value=text[exc.start]) from None
    return _parsed(text, "<toml>")


def _parsed(text: str, label: str) -> dict[str, Any]:
    """TOML text (from ``label``) parsed, in time bounded by its length; errors are PresetErrors."""
    _bounded(text, label)
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an int too long to read
        raise PresetError(f"not valid TOML: {str(exc)[:2 * SHOWN]}", label) from None
    except RecursionError:
        raise PresetError("not valid TOML: nested too deeply", label) from None


def _from_data(data: dict[str, Any], here: Path | None, folder: Path | None,
               catalogue: Catalogue | None = None) -> Preset:
    """A preset from TOML data given as text or a mapping (``extends`` from
    ``here``, only inside ``folder`` when given)."""
    data.setdefault("id", "custom")
    merged, origin = _apply_extends(data, "<toml>", here, (), [], folder)
    return _build(merged, origin, catalogue if catalogue is not None else registry.catalogue())


def _builtin_root() -> Any:
    """The folder of the built-in preset files: the installed package
    ``hkcore.preset_files``, or the repository's presets/ when running from a
    source tree that was not installed."""
    try:
        return importlib.resources.files("hkcore.preset_files")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "presets"


def builtin_ids() -> list[str]:
    """Ids of the presets shipped with hkcore."""
    return sorted(p.name[:-5] for p in _builtin_root().iterdir() if p.name.endswith(".toml"))


def _is_path(ref: str) -> bool:
    return "/" in ref or "\\" in ref or ref.endswith(".toml")


#: the longest chain of ``extends``, the largest preset file read
MAX_EXTENDS = 32
MAX_FILE = 1 << 20


def _read(ref: str, base_dir: Path | None, files: list[tuple[str, bytes]],
          root: Path | None) -> tuple[dict[str, Any], str, Path | None]:
    """Raw TOML of a preset id or path: (data, file label, its folder); a
    file read is added to ``files`` with its content. With ``root``, only
    built-in presets and files inside ``root`` are read, and nothing is said
    about any other file."""
    if not _is_path(ref):
        ids = builtin_ids()
        if ref not in ids:
            raise PresetError(f"unknown preset {shown(ref)}{_nearest(ref, ids)}; built-in presets: {', '.join(ids)}",
                              None, "preset", value=ref)
        text = (_builtin_root() / f"{ref}.toml").read_text(encoding="utf-8")
        label, folder = f"{ref}.toml", None
    else:
        try:
            path = Path(ref)
            if base_dir is not None and not path.is_absolute():
                path = base_dir / path
            full = path.resolve()
        except (OSError, ValueError, RuntimeError):
            raise PresetError(f"no preset file {shown(ref)}", None, "preset", value=ref) from None
        if root is not None and not full.is_relative_to(root):
            raise PresetError(f"{shown(ref)}: presets may extend only a built-in preset or a file inside the "
                              "presets folder", None, "preset", value=ref)
        said = shown(ref if root is not None else str(path))  # a server's folder is not shown to its clients
        try:
            found, size = full.is_file(), full.stat().st_size if full.exists() else 0
            raw = full.read_bytes() if found and size <= MAX_FILE else b""
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
            raise PresetError(f"cannot read preset file {said}: {reason}", None, "preset", value=ref) from None
        if not found:
            raise PresetError(f"no preset file {said}", None, "preset", value=ref)
        if size > MAX_FILE:
            raise PresetError(f"{said} is larger than {MAX_FILE:,} bytes", None, "preset", value=ref)
        label, folder = str(path), full.parent
        files.append((str(full), raw))
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PresetError(f"not UTF-8 text (byte {exc.start:,} is {raw[exc.start]:#04x})", label) from None
    return _parsed(text, label), label, folder


_DISABLED = "__disabled__"
_SELF = "__file__"


def _resolve(ref: str, base_dir: Path | None, seen: tuple[str, ...],
             files: list[tuple[str, bytes]], root: Path | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Raw data with extends applied, and the file each key came from.

    ``origin[_SELF]`` is the outermost file; ``data[_DISABLED]`` lists the
    (pattern id, file) pairs switched off with ``false``.
    """
    data, label, folder = _read(ref, base_dir, files, root)
    return _apply_extends(data, label, folder, seen, files, root)


def _apply_extends(data: dict[str, Any], label: str, folder: Path | None, seen: tuple[str, ...],
                   files: list[tuple[str, bytes]], root: Path | None) -> tuple[dict[str, Any], dict[str, str]]:
    """``data`` (read from ``label``) with what it extends merged under it; see ``_resolve``."""
    if label in seen:
        raise PresetError(f"extends loops back: {' -> '.join((*seen, label))}", label, "extends")
    if len(seen) >= MAX_EXTENDS:
        raise PresetError(f"extends goes {len(seen)} files deep (at most {MAX_EXTENDS})", seen[0], "extends")
    origin = {key: label for key in data}
    origin[_SELF] = label
    raw_patterns = data.get("patterns") if isinstance(data.get("patterns"), dict) else {}
    for key in raw_patterns:
        origin[f"patterns.{key}"] = label
    if isinstance(data.get("table"), dict) and "start_points" in data["table"]:
        origin["table.start_points"] = label
    disabled = [(pid, label) for pid, entry in raw_patterns.items() if entry is False]
    parent = data.get("extends")
    if parent is None:
        out = {**data, _DISABLED: disabled}
        if "id" not in data and not label.startswith("<"):  # a file's id defaults to its name
            out["id"] = Path(label).stem
        if disabled:
            out["patterns"] = {k: v for k, v in raw_patterns.items() if v is not False}
        return out, origin
    if not isinstance(parent, str):
        raise PresetError(f"extends must be a preset id or a file path, not {shown(parent)}", label, "extends", value=parent)
    try:
        base, base_origin = _resolve(parent, folder, (*seen, label), files, root)
    except PresetError as exc:
        if exc.file is None:  # the parent itself could not be found: say who named it
            raise PresetError(str(exc).removeprefix("preset: "), label, "extends", value=parent) from None
        raise
    merged = {k: v for k, v in base.items() if k not in ("id", "name", "source")}
    merged[_DISABLED] = [*base.get(_DISABLED, []), *disabled]
    merged_origin = dict(base_origin)
    for key, value in data.items():
        if key == "extends":
            continue
        if key == "patterns" and isinstance(value, dict) and isinstance(merged.get("patterns"), dict):
            pats = dict(merged["patterns"])
            for pid, entry in value.items():
                if entry is False:
                    pats.pop(pid, None)
                else:
                    pats[pid] = entry
            merged["patterns"] = pats
        elif key == "payments" and isinstance(value, dict) and "scheme" not in value \
                and isinstance(merged.get("payments"), dict):
            merged["payments"] = {**merged["payments"], **value}
        elif key in ("claims", "table") and isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = {**merged[key], **value}
        else:
            merged[key] = value
        merged_origin[key] = label
    for key in raw_patterns:
        merged_origin[f"patterns.{key}"] = label
    if isinstance(data.get("table"), dict) and "start_points" in data["table"]:
        merged_origin["table.start_points"] = label
    merged_origin[_SELF] = label
    if "id" not in data:
        merged["id"] = Path(label).stem
    return merged, merged_origin


#: the largest value, limit, minimum or cap a preset may give (faan or points)
MAX_VALUE = 1000


def _check_count(value: Any, file: str, path: str, low: int = 0) -> int:
    """A whole number ``low``..MAX_VALUE."""
    if type(value) is not int or not low <= value <= MAX_VALUE:
        raise PresetError(f"expected a whole number {low}..{MAX_VALUE}, got {shown(value)}", file, path, value=value)
    return value


def _check_type(value: Any, kinds: tuple[type, ...], what: str, file: str, path: str) -> Any:
    if isinstance(value, bool) and bool not in kinds:
        raise PresetError(f"expected {what}, got {shown(value)}", file, path, value=value)
    if not isinstance(value, kinds):
        raise PresetError(f"expected {what}, got {shown(value)}", file, path, value=value)
    return value


def _build(data: dict[str, Any], origin: dict[str, str], cat: Catalogue) -> Preset:
    def where(key: str) -> str:
        return origin.get(key) or origin.get(key.split(".")[0]) or origin.get("id") or "preset"

    disabled = data.pop(_DISABLED, [])
    for key in data:
        if key not in TOP_KEYS:
            raise PresetError(f"unknown key {shown(key)}{_nearest(key, TOP_KEYS)}", where(key), key, value=key)
    for i, dist in enumerate(_check_list(data.get("requires", []), where("requires"), "requires")):
        if not _DIST_NAME.fullmatch(dist):
            raise PresetError(f"{shown(dist)} is not a package name", where("requires"), f"requires[{i}]", value=dist)
        try:
            importlib.metadata.distribution(dist)
        except (importlib.metadata.PackageNotFoundError, ValueError):
            raise PresetError(f"needs the plugin package {shown(dist)}, which is not installed (pip install {dist})",
                              where("requires"), f"requires[{i}]", value=dist) from None
    pid = _check_type(data.get("id", ""), (str,), "a string", where("id"), "id")
    if not 0 < len(pid) <= 100:
        raise PresetError(f"id must be 1 to 100 characters, got {shown(pid)}", where("id"), "id", value=pid)
    for key in ("name", "source"):
        if key in data:
            _check_type(data[key], (str,), "a string", where(key), key)
    unit = data.get("unit", "faan")
    if unit not in ("faan", "points"):
        raise PresetError(f"unit must be 'faan' or 'points', not {shown(unit)}", where("unit"), "unit", value=unit)
    minimum = _check_count(data.get("minimum", 0), where("minimum"), "minimum")
    cap = data.get("cap", False)
    if cap is not False:
        if type(cap) is not int or not 1 <= cap <= MAX_VALUE:
            raise PresetError(f"expected a whole number 1..{MAX_VALUE}, or false for no cap, got {shown(cap)}",
                              where("cap"), "cap", value=cap)
    tiles = data.get("tiles", 144)
    if type(tiles) is not int or tiles not in (136, 144):
        raise PresetError(f"tiles must be 136 or 144, not {shown(tiles)}", where("tiles"), "tiles", value=tiles)

    plugins = _plugins(data.get("plugins", []), where("plugins"), cat)
    shapes, shape_opts = _shapes(data.get("shapes", ["standard", "thirteen_orphans"]), where("shapes"), cat)

    raw_patterns = data.get("patterns", {})
    if not isinstance(raw_patterns, dict):
        raise PresetError("expected a table of pattern ids", where("patterns"), "patterns")
    rules = []
    for pat_id, entry in raw_patterns.items():
        rules.append(_rule(pat_id, entry, where(f"patterns.{pat_id}"), cat))
    in_play = {r.id for r in rules}
    for off, file in disabled:
        if off not in cat.patterns:
            raise PresetError(f"unknown pattern id {shown(off)}{_nearest(off, cat.patterns)}", file, f"patterns.{off}", value=off)
    for r in rules:
        for j, inc in enumerate(r.includes):
            if inc not in cat.patterns:
                raise PresetError(f"unknown pattern id {shown(inc)}{_nearest(inc, cat.patterns)}",
                                  where(f"patterns.{r.id}"), f"patterns.{r.id}.includes[{j}]", value=inc)
    limit_adds = tuple(_check_list(data.get("limit_adds", []), where("limit_adds"), "limit_adds"))
    if where("limit_adds") != origin[_SELF]:
        # inherited: a pattern this file switched off no longer adds to limits
        limit_adds = tuple(a for a in limit_adds if a in in_play)
    for i, a in enumerate(limit_adds):
        if a not in in_play:
            raise PresetError(f"{shown(a)} is not a pattern in play{_nearest(a, in_play)}",
                              where("limit_adds"), f"limit_adds[{i}]", value=a)

    if cap is not False and minimum > cap:
        raise PresetError(f"minimum {minimum} is above the cap {cap}: no hand could ever reach it",
                          where("minimum"), "minimum", value=minimum)
    payments = data.get("payments", False)
    if payments is not False:
        payments = _payments(payments, where("payments"), cat, None if cap is False else cap)
    claims = _claims(data.get("claims", {}), where("claims"))
    table = _table(data.get("table", {}), where, payments is not False, claims["robbing_kong"],
                   origin.get("table.start_points") == origin[_SELF])
    return Preset(
        id=pid, name=str(data.get("name", pid)), unit=unit, minimum=minimum,
        cap=None if cap is False else cap, tiles=tiles, shapes=shapes, plugins=plugins,
        limit_adds=limit_adds, patterns=tuple(rules), payments=payments or None, claims=claims,
        source=str(data.get("source", "")), file=origin[_SELF], shape_options=shape_opts,
        requires=tuple(data.get("requires", [])), table=table,
    )


def _check_list(value: Any, file: str, path: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise PresetError(f"expected a list of strings, got {shown(value)}", file, path, value=value)
    return value


def _rule(pat_id: str, entry: Any, file: str, cat: Any) -> PatternRule:
    path = f"patterns.{pat_id}"
    if pat_id not in cat.patterns:
        broken = cat.broken_ids.get(("pattern", pat_id))
        if broken:
            raise PresetError(broken, file, path)
        hint = _nearest(pat_id, cat.patterns)
        if cat.broken_plugins:
            hint += "; plugins that failed: " + "; ".join(cat.broken_plugins.values())
        raise PresetError(f"unknown pattern id {shown(pat_id)}{hint} (is the plugin that provides it installed?)",
                          file, path, value=pat_id)
    pattern = cat.patterns[pat_id]
    if type(entry) is int:
        return PatternRule(pat_id, value=_check_count(entry, file, path), options=_options(pattern, {}, file, path))
    if not isinstance(entry, dict):
        raise PresetError(f"expected a number or a table, got {shown(entry)}", file, path, value=entry)
    opts = _options(pattern, {k: v for k, v in entry.items() if k not in ENTRY_KEYS}, file, path)
    kinds = [k for k in ("value", "by_count", "limit") if k in entry]
    if len(kinds) != 1:
        raise PresetError(f"give exactly one of value, by_count or limit (found {kinds or 'none'})", file, path)
    value = entry.get("value")
    if value is not None:
        _check_count(value, file, f"{path}.value")
    by_count = entry.get("by_count")
    if by_count is not None:
        if not isinstance(by_count, list) or not 1 <= len(by_count) <= MAX_BY_COUNT:
            raise PresetError(f"expected a list of 1..{MAX_BY_COUNT} whole numbers by count, got {shown(by_count)}",
                              file, f"{path}.by_count", value=by_count)
        by_count = tuple(_check_count(x, file, f"{path}.by_count[{i}]") for i, x in enumerate(by_count))
    limit = entry.get("limit")
    if limit is not None:
        _check_count(limit, file, f"{path}.limit")
    includes = tuple(_check_list(entry.get("includes", []), file, f"{path}.includes"))
    below = entry.get("wins_below_minimum", False)
    _check_type(below, (bool,), "true or false", file, f"{path}.wins_below_minimum")
    when = _when(entry["when"], file, f"{path}.when") if "when" in entry else ()
    return PatternRule(pat_id, value=value, by_count=by_count, limit=limit, includes=includes,
                       wins_below_minimum=below, options=opts, when=when)


def _when(raw: Any, file: str, path: str) -> tuple[str, ...]:
    """``when = "self_draw"`` or a list of conditions that must all hold, in ``WHEN`` order."""
    words = [raw] if isinstance(raw, str) else raw
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise PresetError(f"expected one of {', '.join(WHEN)} or a non-empty list of them, got {shown(raw)}",
                          file, path, value=raw)
    for i, w in enumerate(words):
        if w not in WHEN:
            raise PresetError(f"unknown condition {shown(w)}{_nearest(w, WHEN)}; when takes {', '.join(WHEN)}",
                              file, path if isinstance(raw, str) else f"{path}[{i}]", value=w)
    found = tuple(w for w in WHEN if w in words)
    for a, b in zip(tuple(WHEN)[::2], tuple(WHEN)[1::2]):  # WHEN lists each condition beside its opposite
        if a in found and b in found:
            raise PresetError(f"{shown(raw)} can never hold: {a!r} and {b!r} exclude each other", file, path, value=raw)
    return found


#: the longest by_count table
MAX_BY_COUNT = 8


def _options(pattern: Any, given: dict[str, Any], file: str, path: str, what: str = "pattern") -> dict[str, Any]:
    spec = pattern.options
    out: dict[str, Any] = {}
    for key, default in spec.items():
        out[key] = default[0] if isinstance(default, tuple) else default
    for key, value in given.items():
        if key not in spec:
            valid = [*ENTRY_KEYS, *spec] if what == "pattern" else list(spec)
            raise PresetError(f"unknown key {shown(key)}{_nearest(key, valid)}; {what} {shown(pattern.id)} takes "
                              + (", ".join(valid) or "no options"), file, f"{path}.{key}", value=key)
        default = spec[key]
        if isinstance(default, tuple):
            if not any(type(value) is type(d) and value == d for d in default):
                raise PresetError(f"{shown(value)} is not one of {', '.join(map(repr, default))}"
                                  f"{_nearest(value, default)}", file, f"{path}.{key}", value=value)
        elif type(value) is not type(default):
            raise PresetError(f"expected {type(default).__name__}, got {shown(value)}", file, f"{path}.{key}", value=value)
        out[key] = value
    return out


def _shapes(raw: Any, file: str, cat: Any) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    """``shapes = ["standard", ...]`` or a table of shape ids to their options."""
    as_list = isinstance(raw, list)
    if as_list:
        raw = {sid: {} for sid in _check_list(raw, file, "shapes")}
    if not isinstance(raw, dict):
        raise PresetError(f"expected a list of shape ids or a table of their options, got {shown(raw)}", file, "shapes", value=raw)
    options: dict[str, dict[str, Any]] = {}
    for i, (sid, opts) in enumerate(raw.items()):
        if sid not in cat.shapes:
            hint = _nearest(sid, cat.shapes)
            if cat.broken_plugins:
                hint += "; plugins that failed: " + "; ".join(cat.broken_plugins.values())
            else:
                hint += " (is the plugin that provides it installed?)"
            raise PresetError(f"unknown shape {shown(sid)}{hint}", file, f"shapes[{i}]" if as_list else f"shapes.{sid}", value=sid)
        if not isinstance(opts, dict):
            raise PresetError(f"expected a table of options, got {shown(opts)}", file, f"shapes.{sid}", value=opts)
        filled = _options(cat.shapes[sid], opts, file, f"shapes.{sid}", "shape")
        if filled:
            options[sid] = filled
    if "standard" not in raw:
        raise PresetError("shapes must include 'standard'", file, "shapes")
    return tuple(raw), options


def shape_options(shape: Any, given: Mapping[str, Any]) -> Mapping[str, Any]:
    """A shape's options with defaults filled in; errors name the option."""
    return freeze(_options(shape, dict(given), None, f"shapes.{shape.id}", "shape"))  # type: ignore[arg-type]


def _plugins(raw: Any, file: str, cat: Any) -> dict[str, dict[str, Any]]:
    """``plugins = ["liability"]`` or ``[plugins.liability]`` tables of options."""
    if isinstance(raw, list):
        raw = {name: {} for name in _check_list(raw, file, "plugins")}
    if not isinstance(raw, dict):
        raise PresetError(f"expected a list of plugin ids or a table of their options, got {shown(raw)}", file, "plugins", value=raw)
    out = {}
    for name, opts in raw.items():
        if name not in cat.adjustments:
            hint = _nearest(name, cat.adjustments)
            if name in cat.available:
                hint += f"; plugin {shown(name)} is installed but failed: {cat.broken_plugins.get(name, 'see above')}"
            elif cat.broken_plugins:
                hint += "; plugins that failed: " + "; ".join(cat.broken_plugins.values())
            else:
                hint += " (is the plugin that provides it installed?)"
            raise PresetError(f"unknown plugin {shown(name)}{hint}", file, f"plugins.{name}", value=name)
        if opts is True:
            opts = {}
        if not isinstance(opts, dict):
            raise PresetError(f"expected a table of options, got {shown(opts)}", file, f"plugins.{name}", value=opts)
        out[name] = _options(cat.adjustments[name], opts, file, f"plugins.{name}", "plugin")
    return out


def _claims(raw: Any, file: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise PresetError(f"expected a table of claim rules, got {shown(raw)}", file, "claims", value=raw)
    out = {k: v[0] for k, v in CLAIM_RULES.items()}
    for key, value in raw.items():
        if key not in CLAIM_RULES:
            raise PresetError(f"unknown key {shown(key)}{_nearest(key, CLAIM_RULES)}; claims take "
                              + ", ".join(CLAIM_RULES), file, f"claims.{key}", value=key)
        allowed = CLAIM_RULES[key]
        if value not in allowed or type(value) is not type(allowed[0]):
            raise PresetError(f"{shown(value)} is not one of {', '.join(map(repr, allowed))}"
                              f"{_nearest(str(value), map(str, allowed))}", file, f"claims.{key}", value=value)
        out[key] = value
    return out


def _table(raw: Any, where: Callable[[str], str], payments: bool, robbing_kong: str, own_start: bool) -> TableRules:
    """The ``[table]`` section checked: each key by ``TableRules``, then the
    combinations it may not make with the rest of the preset (``own_start``:
    ``start_points`` is given by the file itself, not inherited)."""
    file = where("table")
    if not isinstance(raw, dict):
        raise PresetError(f"expected a table of play rules, got {shown(raw)}", file, "table", value=raw)
    given = dict(raw)
    if "start_points" not in given or (not own_start and (given["start_points"] is False) == payments):
        # points from 0 under a payment table, a faan ledger without one (also when a house preset switches
        # payments on or off and keeps its parent's start_points)
        given["start_points"] = 0 if payments else False
    try:
        rules = TableRules.model_validate(given)
    except ValidationError as exc:
        err = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")[0]
        key = str(err["loc"][0])
        path = "table." + ".".join(str(x) for x in err["loc"])
        if err["type"] == "extra_forbidden":
            raise PresetError(f"unknown key {shown(key)}{_nearest(key, TableRules.model_fields)}; table takes "
                              + ", ".join(TableRules.model_fields), file, f"table.{key}", value=key) from None
        value = raw.get(key, err.get("input"))
        raise PresetError(f"{err['msg']}, got {shown(value)}", file, path, value=value) from None
    problems = table_problems(rules, payments=payments, robbing_kong=robbing_kong)
    if problems:
        path, message, value = problems[0]
        raise PresetError(message, where(path.split(".")[0]), path, value=value)
    return rules


def _payments(raw: Any, file: str, cat: Any, cap: int | None) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise PresetError(f"expected a table (or false for none), got {shown(raw)}", file, "payments", value=raw)
    if "scheme" not in raw:
        raise PresetError(f"scheme is required; schemes: {', '.join(cat.schemes)}", file, "payments.scheme")
    scheme_id = raw["scheme"]
    if not isinstance(scheme_id, str) or scheme_id not in cat.schemes:
        raise PresetError(f"unknown payment scheme {shown(scheme_id)}{_nearest(scheme_id, cat.schemes)}; "
                          f"schemes: {', '.join(cat.schemes)}", file, "payments.scheme", value=scheme_id)
    scheme = cat.schemes[scheme_id]
    params = {k: v for k, v in raw.items() if k != "scheme"}
    try:
        checked = scheme.params.model_validate(params)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        err = errors[0]
        loc = ".".join(str(x) for x in err["loc"])
        fields = list(scheme.params.model_fields)
        hint = _nearest(loc, fields) if err["type"] == "extra_forbidden" else ""
        msg = "unknown key" if err["type"] == "extra_forbidden" else f"{err['msg']} (got {shown(err.get('input'))})"
        raise PresetError(f"{msg}{hint}; scheme {shown(scheme_id)} takes {', '.join(fields)}", file,
                          f"payments.{loc}") from None
    top = scheme.covers(checked) if scheme.covers is not None else None
    if cap is not None and top is not None and top < cap and not checked.short_table:
        raise PresetError(f"scheme {scheme_id!r} pays distinct amounts only up to {top} but the cap is {cap}: "
                          f"a {cap}-faan hand would be paid as {top}; give amounts up to the cap, or set "
                          "short_table = true if the table really pays that way", file, "payments")
    return dict(raw)


def read_preset(ref: str, catalogue: Catalogue) -> Preset:
    """A built-in preset by id or a preset file by path, read now with the
    patterns of ``catalogue`` (and kept nowhere)."""
    return _load(ref, catalogue)[0]


def _load(ref: str, cat: Catalogue, root: Path | None = None) -> tuple[Preset, tuple[tuple[str, bytes], ...]]:
    """A preset from its id or path, and every file read for it with its content."""
    files: list[tuple[str, bytes]] = []
    data, origin = _resolve(ref, None, (), files, root)
    return _build(data, origin, cat), tuple(files)


# ---------------------------------------------------------------- the data's schema

_Count = Annotated[int, Field(ge=0, le=MAX_VALUE)]
_When = Literal[tuple(WHEN)]  # type: ignore[valid-type]


class PatternEntry(TypedDict, total=False):
    """A pattern entry given as a table: exactly one of value, by_count or
    limit; the pattern's own options go beside them."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]

    value: _Count
    by_count: Annotated[list[_Count], Field(min_length=1, max_length=MAX_BY_COUNT)]
    limit: _Count
    includes: list[str]
    wins_below_minimum: bool
    when: _When | Annotated[list[_When], Field(min_length=1)]


class Payments(TypedDict, total=False):
    """The payment scheme and its parameters (each scheme names its own)."""

    __pydantic_config__ = ConfigDict(extra="allow")  # type: ignore[misc]

    scheme: Required[str]


Claims = TypedDict("Claims", {key: Literal[values] for key, values in CLAIM_RULES.items()},  # type: ignore[misc]
                   total=False)
Claims.__doc__ = "Claim rules, each one of its allowed values (the first the default)."


class PresetData(TypedDict, total=False):
    """A preset file's data (docs/house-rules.md, "Everything a preset can
    say"); ``Preset.model_dump()`` gives it resolved, without ``extends``."""

    __pydantic_config__ = ConfigDict(extra="forbid", title="Preset")  # type: ignore[misc]

    id: Annotated[str, Field(min_length=1, max_length=100)]
    name: str
    source: str
    extends: str
    requires: list[str]
    unit: Literal["faan", "points"]
    minimum: _Count
    cap: Annotated[int, Field(ge=1, le=MAX_VALUE)] | Literal[False]
    tiles: Literal[136, 144]
    shapes: list[str] | dict[str, dict[str, Any]]
    plugins: list[str] | dict[str, dict[str, Any] | Literal[True]]
    limit_adds: list[str]
    claims: Claims
    patterns: dict[str, _Count | Literal[False] | PatternEntry]
    payments: Payments | Literal[False]
    table: TableRules


#: custom presets kept by path, least recently used dropped first
CACHE_SIZE = 64


class PresetStore:
    """The presets of one plugin registry: every built-in one, loaded
    together and kept for the store's life, and presets loaded by path, the
    ``CACHE_SIZE`` most recently used kept, each checked against the
    contents of its files on every use (an edited file is read again)."""

    def __init__(self, reg: registry.Registry) -> None:
        self.registry = reg
        loaded: dict[str, Preset | PresetError] = {}
        for pid in builtin_ids():
            try:
                loaded[pid] = _load(pid, reg.catalogue)[0]
            except PresetError as exc:  # raised when the preset is asked for
                loaded[pid] = exc
        self.builtins: Mapping[str, Preset | PresetError] = MappingProxyType(loaded)
        self._by_path: OrderedDict[tuple[str, Path | None], tuple[tuple[tuple[str, bytes], ...], Preset]] = \
            OrderedDict()
        self._lock = threading.Lock()

    def load(self, ref: str, root: Path | None = None) -> Preset:
        """A built-in preset by id, or a preset file by path (inside ``root``
        with its every ``extends``, when given)."""
        if not _is_path(ref):
            found = self.builtins.get(ref)
            if isinstance(found, Preset):
                return found
            if isinstance(found, PresetError):
                raise found
            return _load(ref, self.registry.catalogue)[0]  # raises: unknown preset
        try:
            key = (str(Path(ref).resolve()), root)
        except (OSError, ValueError, RuntimeError):
            raise PresetError(f"no preset file {shown(ref)}", None, "preset", value=ref) from None
        with self._lock:
            hit = self._by_path.get(key)
        if hit is not None and all(_content(f) == raw for f, raw in hit[0]):
            with self._lock:
                if key in self._by_path:
                    self._by_path.move_to_end(key)
            return hit[1]
        preset, files = _load(key[0], self.registry.catalogue, root)
        with self._lock:
            self._by_path[key] = (files, preset)
            self._by_path.move_to_end(key)
            while len(self._by_path) > CACHE_SIZE:
                self._by_path.popitem(last=False)
        return preset

    def __len__(self) -> int:
        """Presets kept by path."""
        return len(self._by_path)


def _content(path: str) -> bytes | None:
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


_STORE_LOCK = threading.Lock()
_STORE: list[PresetStore | None] = [None]


def store() -> PresetStore:
    """The preset store of the current plugin registry (a new one after
    ``reload_plugins``)."""
    reg = registry.current()
    found = _STORE[0]
    if found is None or found.registry is not reg:
        with _STORE_LOCK:
            found = _STORE[0]
            if found is None or found.registry is not reg:
                found = _STORE[0] = PresetStore(reg)
    return found


def load_preset(ref: str | Path | Preset | Mapping[str, Any], *, root: str | Path | None = None) -> Preset:
    """A preset by built-in id (``"bga-old-style"``), TOML path, TOML text or
    the TOML data as a mapping; a Preset is returned as is.

    ``root``, for presets from untrusted sources (a club admin's upload):
    the file and every file it ``extends`` must lie inside this folder
    (built-in presets may always be extended); a path outside it is refused
    with the same words whether or not it exists.
    """
    if isinstance(ref, Preset):
        return ref
    if isinstance(ref, Mapping):  # the TOML data itself (a row of a database, say)
        plain = thaw(ref)
        try:
            text = tomli_w.dumps(plain)  # only what a TOML file can say
        except (TypeError, ValueError) as exc:
            raise PresetError(f"not TOML data: {shown(str(exc))}", "<mapping>", None) from None
        data = _toml_data(text)
        if isinstance(plain.get("patterns"), dict):  # tomli_w writes table entries last: their order counts
            data["patterns"] = {pid: data["patterns"][pid] for pid in plain["patterns"]}
        folder = _folder(root, "root") if root is not None else None
        return _from_data(data, folder, folder)
    if isinstance(ref, Path):
        ref = str(ref)
    if not isinstance(ref, str):
        raise PresetError(f"a preset is an id, a path, TOML text, a mapping or a Preset, not {type(ref).__name__}",
                          None, "preset")
    if "\n" in ref or "=" in ref:  # TOML text: ids and paths hold neither
        return Preset.from_toml(ref, root=root)
    return store().load(ref, _folder(root, "root") if root is not None else None)


def _folder(path: str | Path, what: str) -> Path:
    try:
        found = Path(path).resolve(strict=True)
    except (OSError, ValueError, RuntimeError, TypeError):
        raise PresetError(f"no folder {shown(str(path))}", None, what, value=str(path)) from None
    if not found.is_dir():
        raise PresetError(f"no folder {shown(str(path))}", None, what, value=str(path))
    return found


def presets() -> list[str]:
    """Ids of the built-in presets."""
    return builtin_ids()


def export_toml(preset: Preset) -> str:
    """The fully resolved preset as TOML (no ``extends``): loading it gives an equal preset."""

    data = preset.model_dump()
    patterns = data.pop("patterns")
    payments = data.pop("payments")
    plugins = data.pop("plugins")
    claims = data.pop("claims")
    shapes = data.pop("shapes")
    table = data.pop("table")
    out = [f"# {preset.name}: resolved by hkcore from {preset.file or preset.id}", tomli_w.dumps(data).rstrip()]
    if payments is False:
        out.append("payments = false")
    out.append("shapes = " + _inline(shapes))
    out.append("plugins = " + _inline(plugins))
    out.append("claims = " + _inline(claims))
    out.append("table = " + _inline(table))
    # one line per pattern, in preset order (it decides between equal limits)
    out.append("\n[patterns]")
    out += [f"{pid} = {_inline(entry)}" for pid, entry in patterns.items()]
    if payments is not False:
        out.append("\n" + tomli_w.dumps({"payments": payments}).rstrip())
    return "\n".join(out) + "\n"


def _inline(value: Any) -> str:
    """A TOML value on one line (tables inline)."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_inline(v)}" for k, v in value.items()) + " }" if value else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return tomli_w.dumps({"v": value}).strip()[len("v = "):].replace("\n", " ")


@dataclass(frozen=True)
class Difference:
    """One rule on which two presets differ; ``None`` = absent."""

    path: str
    a: Any
    b: Any


def diff(a: Preset, b: Preset) -> list[Difference]:
    """Every rule on which two resolved presets differ, by dotted path."""
    da, db = a.model_dump(), b.model_dump()
    out: list[Difference] = []
    for key in da.keys() | db.keys():
        if key in ("id", "name", "source", "patterns", "payments", "plugins", "shapes", "claims", "table"):
            continue
        if da.get(key) != db.get(key):
            out.append(Difference(key, da.get(key), db.get(key)))
    if a.shapes != b.shapes:
        out.append(Difference("shapes", list(a.shapes), list(b.shapes)))
    for sid in [*a.shapes, *(x for x in b.shapes if x not in a.shapes)]:
        oa, ob = a.shape_options.get(sid, {}), b.shape_options.get(sid, {})
        if sid in a.shapes and sid in b.shapes and oa != ob:
            for k in [*oa, *(x for x in ob if x not in oa)]:
                if oa.get(k) != ob.get(k):
                    out.append(Difference(f"shapes.{sid}.{k}", oa.get(k), ob.get(k)))
    pa, pb = da["patterns"], db["patterns"]
    order = list(pa) + [k for k in pb if k not in pa]
    for pid in order:
        ra, rb = pa.get(pid), pb.get(pid)
        if ra == rb:
            continue
        if ra is None or rb is None or isinstance(ra, int) or isinstance(rb, int):
            out.append(Difference(f"patterns.{pid}", ra, rb))
            continue
        for k in list(ra) + [k for k in rb if k not in ra]:
            if ra.get(k) != rb.get(k):
                out.append(Difference(f"patterns.{pid}.{k}", ra.get(k), rb.get(k)))
    for key in ("claims", "table", "plugins", "payments"):
        xa, xb = da.get(key), db.get(key)
        if xa == xb:
            continue
        if isinstance(xa, dict) and isinstance(xb, dict):
            for k in list(xa) + [k for k in xb if k not in xa]:
                if xa.get(k) != xb.get(k):
                    out.append(Difference(f"{key}.{k}", xa.get(k), xb.get(k)))
        else:
            out.append(Difference(key, xa, xb))
    order_keys = [*TOP_KEYS]
    out.sort(key=lambda d: (order_keys.index(d.path.split(".")[0]) if d.path.split(".")[0] in order_keys else 99))
    return out

# public names of the helpers the server uses (the preset package will export them as such)
is_path = _is_path
nearest = _nearest
toml_data = _toml_data
