"""The schema of a preset file: one pydantic model per section.

``PresetFile`` is at once the validator of a preset file's data (after
``extends`` is merged), its JSON Schema (``hkscore schema preset``) and the
key table of docs/house-rules.md (``docs_table``). Every key's check raises a
``problem``: pydantic collects them and ``first_problem`` reads the first back
as a dotted TOML path, a message and the value found. What needs the plugin
catalogue (pattern, shape, plugin and scheme ids, and their options: each
checked by a model made from that plugin's own option table) takes it from
the validation context (``{"catalogue": ...}``; the current registry's
without one). Combinations of keys are checked after, by ``hkcore.preset.checks``.
"""
from __future__ import annotations

import importlib.metadata
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from pydantic_core import PydanticCustomError

from hkcore import registry
from hkcore.core import WHEN
from hkcore.errors import shown
from hkcore.options import (
    Options,
    Section,
    checked_options,
    first_problem,
    joined,
    nearest,
    one_of,
    options_model,
    problem,
)
from hkcore.registry import Catalogue
from hkcore.table_rules import TableRules

#: the largest value, limit, minimum or cap a preset may give (faan or points)
MAX_VALUE = 1000
#: the longest by_count table
MAX_BY_COUNT = 8
BUILTIN_SHAPES = ("standard", "thirteen_orphans")
_DIST_NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]{0,98}[A-Za-z0-9])?")


def _catalogue(info: ValidationInfo) -> Catalogue:
    found = info.context.get("catalogue") if isinstance(info.context, Mapping) else None
    return found if found is not None else registry.catalogue()


# ---------------------------------------------------------------- the checks of single values

def _count(low: int) -> Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if type(value) is not int or not low <= value <= MAX_VALUE:
            raise problem(f"expected a whole number {low}..{MAX_VALUE}, got {shown(value)}", value)
        return value
    return check


def _strings(value: Any) -> Any:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise problem(f"expected a list of strings, got {shown(value)}", value)
    return value


def _string(value: Any) -> Any:
    if not isinstance(value, str):
        raise problem(f"expected a string, got {shown(value)}", value)
    return value


def _flag(value: Any) -> Any:
    if not isinstance(value, bool):
        raise problem(f"expected true or false, got {shown(value)}", value)
    return value


#: a whole number 0..MAX_VALUE
Count = Annotated[int, Field(ge=0, le=MAX_VALUE), BeforeValidator(_count(0))]
_Maybe = Annotated[Annotated[int, Field(ge=0, le=MAX_VALUE)] | None,
                   BeforeValidator(lambda v: v if v is None else _count(0)(v))]
#: a list of strings
Strings = Annotated[list[str], BeforeValidator(_strings)]
if TYPE_CHECKING:  # a Literal built from WHEN at run time; a checker reads it as the text it is
    _When = str
else:
    _When = Literal[tuple(WHEN)]


def _by_count(value: Any) -> Any:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_BY_COUNT:
        raise problem(f"expected a list of 1..{MAX_BY_COUNT} whole numbers by count, got {shown(value)}", value)
    for i, x in enumerate(value):
        if type(x) is not int or not 0 <= x <= MAX_VALUE:
            raise problem(f"expected a whole number 0..{MAX_VALUE}, got {shown(x)}", x, f"[{i}]")
    return value


def _when(raw: Any) -> Any:
    """``when = "self_draw"`` or a list of conditions that must all hold, as a list in ``WHEN`` order."""
    words = [raw] if isinstance(raw, str) else raw
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise problem(f"expected one of {', '.join(WHEN)} or a non-empty list of them, got {shown(raw)}", raw)
    for i, w in enumerate(words):
        if w not in WHEN:
            raise problem(f"unknown condition {shown(w)}{nearest(w, WHEN)}; when takes {', '.join(WHEN)}", w,
                          "" if isinstance(raw, str) else f"[{i}]")
    found = [w for w in WHEN if w in words]
    for a, b in zip(tuple(WHEN)[::2], tuple(WHEN)[1::2]):  # WHEN lists each condition beside its opposite
        if a in found and b in found:
            raise problem(f"{shown(raw)} can never hold: {a!r} and {b!r} exclude each other", raw)
    return found


# ---------------------------------------------------------------- sections

class PatternEntry(Section):
    """A pattern entry given as a table: exactly one of value, by_count or
    limit; the pattern's own options go beside them (each pattern's checked
    by the model of its option table, and kept as the entry's extra keys)."""

    model_config = ConfigDict(extra="allow", title="PatternEntry")  # in the schema: options beside the keys

    value: Annotated[_Maybe, Field(description="faan (or points) each time the pattern is met; give exactly "
                                                "one of `value`, `by_count` and `limit`")] = None
    by_count: Annotated[Annotated[list[Count], Field(min_length=1, max_length=MAX_BY_COUNT)] | None,
                        BeforeValidator(lambda v: v if v is None else _by_count(v)),
                        Field(description="faan by how many times it is met (`[0, 2, 6, 6]`: the last for more), "
                                          "1 to 8 entries")] = None
    limit: Annotated[_Maybe, Field(description="a limit hand: scores this alone (plus `limit_adds`)")] = None
    includes: Annotated[Strings, Field(
        description="patterns this value already contains: met with it, they add nothing")] = []  # noqa: RUF012 - a pydantic field
    wins_below_minimum: Annotated[bool, BeforeValidator(_flag),
                                  Field(description="the hand may win with it below the minimum")] = False
    when: Annotated[_When | Annotated[list[_When], Field(min_length=1)] | None,
                    BeforeValidator(lambda v: v if v is None else _when(v)),
                    Field(description="a condition, or a list of them that must all hold, for the pattern to "
                                      "count (below)")] = None

    @classmethod
    def whole(cls, data: dict[str, Any]) -> None:
        kinds = [k for k in ("value", "by_count", "limit") if k in data]
        if len(kinds) != 1:
            raise problem(f"give exactly one of value, by_count or limit (found {kinds or 'none'})")

    def options(self) -> dict[str, Any]:
        """The pattern's options, defaults filled in (checked by the pattern's own options model)."""
        return dict(self.model_extra or {})


#: the keys of a pattern entry given as a table (beside the pattern's options)
ENTRY_KEYS = tuple(PatternEntry.model_fields)


class _PatternEntry(PatternEntry):
    model_config = ConfigDict(extra="forbid")


def options_of(cat: Catalogue, kind: str, item: Any) -> type[Options]:
    """The model of a pattern's, shape's or adjustment's options (``kind``: as the catalogue names them)."""
    found = cat.options.get((kind, item.id))
    return found if found is not None else options_model(item)


class Claims(Section):
    """Claim rules, each one of its allowed values (the first the default)."""

    robbing_kong: Annotated[Literal["added", "none", "added_and_concealed_orphans"], Field(
        description="which kongs another player may rob: none at all, only added kongs, or also a concealed kong "
                    "when the robbing hand is thirteen orphans (rules.md, ruling 13)")] = "added"
    multiple_winners: Annotated[Literal[False, True], Field(
        description="several players may win on one discard (each paid separately); else the nearest seat after "
                    "the discarder wins")] = False
    swap_rule: Annotated[Literal[False, True], Field(
        description="after a chow or pung the claimant may not at once discard a tile that would swap the claimed "
                    "set: the claimed tile, or a chow's tile at the other end")] = False

    @classmethod
    def unknown(cls, key: str, info: ValidationInfo) -> str:
        return f"unknown key {shown(key)}{nearest(key, cls.model_fields)}; claims take " + ", ".join(cls.model_fields)

    @classmethod
    def holds(cls) -> str:
        return "claim rules"

    @field_validator("*", mode="before")
    @classmethod
    def _allowed(cls, value: Any, info: ValidationInfo) -> Any:
        assert info.field_name is not None
        return one_of(CLAIM_RULES[info.field_name], by_text=True)(value)


def _claim_values(name: str) -> tuple[Any, ...]:
    info = Claims.model_fields[name]
    values = get_args(info.annotation)
    return (info.default, *(v for v in values if v != info.default or type(v) is not type(info.default)))


#: claim rules (``[claims]``), each with its allowed values, the first the default
CLAIM_RULES: Mapping[str, tuple[Any, ...]] = MappingProxyType({name: _claim_values(name)
                                                               for name in Claims.model_fields})


class Payments(BaseModel):
    """The payment scheme and its parameters (each scheme's own model checks them)."""

    model_config = ConfigDict(extra="allow", frozen=True)

    scheme: str


def _id(value: Any) -> Any:
    _string(value)
    if not 0 < len(value) <= 100:
        raise problem(f"id must be 1 to 100 characters, got {shown(value)}", value)
    return value


def _unit(value: Any) -> Any:
    if value not in ("faan", "points"):
        raise problem(f"unit must be 'faan' or 'points', not {shown(value)}", value)
    return value


def _cap(value: Any) -> Any:
    if value is not False and (type(value) is not int or not 1 <= value <= MAX_VALUE):
        raise problem(f"expected a whole number 1..{MAX_VALUE}, or false for no cap, got {shown(value)}", value)
    return value


def _tiles(value: Any) -> Any:
    if type(value) is not int or value not in (136, 144):
        raise problem(f"tiles must be 136 or 144, not {shown(value)}", value)
    return value


def _requires(value: Any) -> Any:
    for i, dist in enumerate(_strings(value)):
        if not _DIST_NAME.fullmatch(dist):
            raise problem(f"{shown(dist)} is not a package name", dist, f"[{i}]")
        try:
            importlib.metadata.distribution(dist)
        except (importlib.metadata.PackageNotFoundError, ValueError):
            raise problem(f"needs the plugin package {shown(dist)}, which is not installed (pip install {dist})",
                          dist, f"[{i}]") from None
    return value


def _failed(cat: Catalogue) -> str:
    return "; plugins that failed: " + "; ".join(cat.broken_plugins.values()) if cat.broken_plugins else ""


class PresetFile(Section):
    """A preset file's data (docs/house-rules.md, "Everything a preset can
    say"); ``Preset.model_dump()`` gives it resolved, without ``extends``."""

    model_config = ConfigDict(title="Preset", validate_default=True)

    id: Annotated[str, Field(min_length=1, max_length=100), BeforeValidator(_id), Field(
        description="how the preset is called (defaults to the file's name)")] = "custom"
    name: Annotated[str, BeforeValidator(_string), Field(description="its name, to show (defaults to its id)")] = ""
    source: Annotated[str, BeforeValidator(_string), Field(description="where its rules come from")] = ""
    extends: Annotated[str, Field(description="a built-in id or a path to start from")] = ""
    requires: Annotated[list[str], BeforeValidator(_requires), Field(
        description='plugin distributions the preset needs (`["hkcore-all-green"]`): a missing one is named')] = []  # noqa: RUF012 - a pydantic field
    unit: Annotated[Literal["faan", "points"], BeforeValidator(_unit), Field(
        description='`"faan"` or `"points"`')] = "faan"
    minimum: Annotated[Count, Field(description="the least total that may win (bonus-tile patterns count)")] = 0
    cap: Annotated[Annotated[int, Field(ge=1, le=MAX_VALUE)] | Literal[False], BeforeValidator(_cap), Field(
        description="the most a hand is counted at, or `false` for none")] = False
    tiles: Annotated[Literal[136, 144], BeforeValidator(_tiles), Field(
        description="`144` (with flowers and seasons) or `136` (a hand with bonus tiles is then an error)")] = 144
    shapes: Annotated[list[str] | dict[str, dict[str, Any]], Field(
        description="winning shapes: a list of ids, or a table of ids to their options; `standard` is required")] \
        = list(BUILTIN_SHAPES)  # noqa: RUF012 - a pydantic field
    plugins: Annotated[list[str] | dict[str, dict[str, Any] | Literal[True]], Field(
        description='payment adjustments turned on (`["liability"]`), or `[plugins.ID]` tables of their options')] = []  # noqa: RUF012 - a pydantic field
    limit_adds: Annotated[Strings, Field(
        description="patterns that still add to a limit hand (hk-classic: the win conditions)")] = []  # noqa: RUF012 - a pydantic field
    claims: Annotated[Claims, Field(description="the claim rules (below)")] = Claims()
    patterns: Annotated[dict[str, Count | Literal[False] | PatternEntry], Field(
        description="the patterns in play, in order (between equal limits the first listed is shown)")] = {}  # noqa: RUF012 - a pydantic field
    payments: Annotated[Payments | Literal[False], Field(
        description="the payment scheme and its parameters, or `payments = false`")] = False
    table: Annotated[TableRules, Field(description="how a hand and a match are played: the wall, kongs, the claim "
                                       "window, the deal, the match's length (below)")] = TableRules()

    @field_validator("shapes", mode="wrap")
    @classmethod
    def _shapes(cls, raw: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        """``shapes = ["standard", ...]`` or a table of shape ids to their options: a table of them, checked."""
        cat = _catalogue(info)
        as_list = isinstance(raw, list)
        if as_list:
            raw = {sid: {} for sid in _strings(raw)}
        if not isinstance(raw, dict):
            raise problem(f"expected a list of shape ids or a table of their options, got {shown(raw)}", raw)
        out: dict[str, dict[str, Any]] = {}
        for i, (sid, opts) in enumerate(raw.items()):
            at = f"[{i}]" if as_list else sid
            if sid not in cat.shapes:
                hint = nearest(sid, cat.shapes) + (_failed(cat) or " (is the plugin that provides it installed?)")
                raise problem(f"unknown shape {shown(sid)}{hint}", sid, at)
            if not isinstance(opts, dict):
                raise problem(f"expected a table of options, got {shown(opts)}", opts, sid)
            out[sid] = checked_options(options_of(cat, "shape", cat.shapes[sid]), opts, "shape", sid).model_dump()
        if "standard" not in raw:
            raise problem("shapes must include 'standard'")
        return out

    @field_validator("plugins", mode="wrap")
    @classmethod
    def _plugins(cls, raw: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        """``plugins = ["liability"]`` or ``[plugins.liability]`` tables of options: a table of them, checked."""
        cat = _catalogue(info)
        if isinstance(raw, list):
            raw = {name: {} for name in _strings(raw)}
        if not isinstance(raw, dict):
            raise problem(f"expected a list of plugin ids or a table of their options, got {shown(raw)}", raw)
        out: dict[str, dict[str, Any]] = {}
        for name, opts in raw.items():
            if name not in cat.adjustments:
                hint = nearest(name, cat.adjustments)
                if name in cat.available:
                    hint += f"; plugin {shown(name)} is installed but failed: " \
                            f"{cat.broken_plugins.get(name, 'see above')}"
                else:
                    hint += _failed(cat) or " (is the plugin that provides it installed?)"
                raise problem(f"unknown plugin {shown(name)}{hint}", name, name)
            if opts is True:
                opts = {}
            if not isinstance(opts, dict):
                raise problem(f"expected a table of options, got {shown(opts)}", opts, name)
            out[name] = checked_options(options_of(cat, "payment adjustment", cat.adjustments[name]), opts, "plugin",
                                        name).model_dump()
        return out

    @field_validator("patterns", mode="wrap")
    @classmethod
    def _patterns(cls, raw: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        """The patterns in play, each entry checked by its pattern's own model (a bare number as its ``value``)."""
        cat = _catalogue(info)
        if not isinstance(raw, dict):
            raise problem("expected a table of pattern ids")
        out: dict[str, PatternEntry] = {}
        for pid, entry in raw.items():
            if pid not in cat.patterns:
                broken = cat.broken_ids.get(("pattern", pid))
                if broken:
                    raise problem(broken, None, pid)
                raise problem(f"unknown pattern id {shown(pid)}{nearest(pid, cat.patterns)}{_failed(cat)} "
                              "(is the plugin that provides it installed?)", pid, pid)
            model = options_of(cat, "pattern", cat.patterns[pid])
            if type(entry) is int:  # a bare value: the options at their defaults
                _checked(_count(0), entry, pid)
                out[pid] = PatternEntry.model_construct(value=entry, **(model().model_dump() if model.model_fields
                                                                        else {}))
                continue
            if not isinstance(entry, dict):
                raise problem(f"expected a number or a table, got {shown(entry)}", entry, pid)
            opts = checked_options(model, {k: v for k, v in entry.items() if k not in ENTRY_KEYS}, "pattern", pid,
                                   ENTRY_KEYS)
            keys = checked_entry({k: v for k, v in entry.items() if k in ENTRY_KEYS}, pid)
            out[pid] = PatternEntry.model_construct(**keys.model_dump(), **opts.model_dump())
        return out

    @field_validator("payments", mode="wrap")
    @classmethod
    def _payments(cls, raw: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        """The scheme named and its parameters, checked by the scheme's own model."""
        if raw is False:
            return False
        cat = _catalogue(info)
        if not isinstance(raw, dict):
            raise problem(f"expected a table (or false for none), got {shown(raw)}", raw)
        if "scheme" not in raw:
            raise problem(f"scheme is required; schemes: {', '.join(cat.schemes)}", None, "scheme")
        scheme_id = raw["scheme"]
        if not isinstance(scheme_id, str) or scheme_id not in cat.schemes:
            raise problem(f"unknown payment scheme {shown(scheme_id)}{nearest(scheme_id, cat.schemes)}; "
                          f"schemes: {', '.join(cat.schemes)}", scheme_id, "scheme")
        params = {k: v for k, v in raw.items() if k != "scheme"}
        scheme_params(cat, scheme_id, params)
        return dict(raw)

    @field_validator("table", mode="wrap")
    @classmethod
    def _table(cls, raw: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        """The ``[table]`` section, each key checked by ``TableRules``."""
        if isinstance(raw, TableRules):
            return raw
        if not isinstance(raw, dict):
            raise problem(f"expected a table of play rules, got {shown(raw)}", raw)
        try:
            return TableRules.model_validate(raw)
        except ValidationError as exc:
            err = min(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
            key = str(err["loc"][0])
            if err["type"] == "extra_forbidden":
                raise problem(f"unknown key {shown(key)}{nearest(key, TableRules.model_fields)}; table takes "
                              + ", ".join(TableRules.model_fields), key, key) from None
            value = raw.get(key, err.get("input"))
            raise problem(f"{err['msg']}, got {shown(value)}", value,
                          ".".join(str(x) for x in err["loc"])) from None


def _checked(check: Callable[[Any], Any], value: Any, at: str) -> Any:
    try:
        return check(value)
    except PydanticCustomError as exc:
        ctx = exc.context or {}
        raise problem(ctx["message"], ctx.get("value"), joined(at, ctx.get("at", ""))) from None


def checked_entry(entry: dict[str, Any], pid: str) -> PatternEntry:
    """The keys of a pattern's entry given as a table (not its options),
    checked; a problem names the key under ``pid``."""
    try:
        return _PatternEntry.model_validate(entry, context={"what": "pattern", "owner": pid})
    except ValidationError as exc:
        path, message, value = first_problem(exc)
        raise problem(message, value, joined(pid, path)) from None


def scheme_params(cat: Catalogue, scheme_id: str, params: dict[str, Any]) -> Any:
    """A payment scheme's parameters checked by its own model; a problem names the parameter."""
    scheme = cat.schemes[scheme_id]
    try:
        return scheme.params.model_validate(params)
    except ValidationError as exc:
        err = min(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
        loc = ".".join(str(x) for x in err["loc"])
        fields = list(scheme.params.model_fields)
        hint = nearest(loc, fields) if err["type"] == "extra_forbidden" else ""
        msg = "unknown key" if err["type"] == "extra_forbidden" else f"{err['msg']} (got {shown(err.get('input'))})"
        raise problem(f"{msg}{hint}; scheme {shown(scheme_id)} takes {', '.join(fields)}", None, loc) from None


#: the top-level keys of a preset file, in the model's order
TOP_KEYS = tuple(PresetFile.model_fields)
#: the order the keys are checked in (the first problem found is told)
CHECK_ORDER = ("requires", "id", "name", "source", "unit", "minimum", "cap", "tiles", "plugins", "shapes",
               "patterns", "limit_adds", "payments", "claims", "table", "extends")
#: the sections that are tables of their own
SECTIONS = ("claims", "patterns", "payments", "table")


def _cell(value: Any) -> str:
    if value is False or value is True:
        return str(value).lower()
    return repr(value).replace("'", '"')


def docs_table() -> str:
    """The top-level keys of a preset file as the Markdown table of docs/house-rules.md."""
    rows = ["| key | meaning |", "|---|---|"]
    for key, info in PresetFile.model_fields.items():
        rows.append(f"| `{f'[{key}]' if key in SECTIONS else key}` | {info.description} |")
    return "\n".join(rows)


def docs_entry_table() -> str:
    """The keys of a pattern entry given as a table, as the Markdown table of docs/house-rules.md."""
    rows = ["| key | default | meaning |", "|---|---|---|"]
    for key, info in PatternEntry.model_fields.items():
        default = "none" if info.default is None else f"`{_cell(info.default)}`"
        rows.append(f"| `{key}` | {default} | {info.description} |")
    return "\n".join(rows)


def docs_claims_table() -> str:
    """The claim rules as the Markdown table of docs/house-rules.md."""
    rows = ["| key | values (the first the default) | meaning |", "|---|---|---|"]
    for key, info in Claims.model_fields.items():
        values = ", ".join(f"`{_cell(v)}`" for v in CLAIM_RULES[key])
        rows.append(f"| `{key}` | {values} | {info.description} |")
    return "\n".join(rows)
