"""``Preset``: a fully resolved ruleset, a frozen pydantic value whose data is a preset file's TOML."""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import tomli_w
from pydantic import ConfigDict, TypeAdapter, model_serializer
from pydantic.dataclasses import dataclass
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaMode

from hkcore import registry
from hkcore.errors import SHOWN, shown
from hkcore.preset.checks import checked
from hkcore.preset.errors import EMPTY, PresetError, freeze, thaw
from hkcore.preset.lint import Lint, lint
from hkcore.preset.reading import apply_extends, existing_folder, resolve, toml_data
from hkcore.preset.rules import Frozen, PatternRule
from hkcore.preset.schema import CLAIM_RULES, PresetFile
from hkcore.registry import Catalogue
from hkcore.table_rules import TableRules

_Tuple = tuple[str, ...]


@dataclass(frozen=True, config=ConfigDict(arbitrary_types_allowed=True))
class Preset:
    """A fully resolved ruleset (extends applied, everything checked).

    A frozen pydantic dataclass, immutable all the way down: its tables are
    read-only mappings and its lists tuples, so a preset can be shared by
    every thread and table. Its data (``model_dump``, ``model_validate``,
    ``model_json_schema``, and pydantic's ``TypeAdapter(Preset)``) is the
    TOML of a preset file (``PresetFile``), resolved: no ``extends``, ``cap``
    and ``payments`` false for none.
    """

    id: str
    name: str
    unit: Literal["faan", "points"]
    minimum: int
    cap: int | None
    tiles: int
    shapes: _Tuple
    plugins: Frozen
    limit_adds: _Tuple
    patterns: tuple[PatternRule, ...]
    payments: Frozen | None
    claims: Frozen = dataclasses.field(default_factory=lambda: freeze({k: v[0] for k, v in CLAIM_RULES.items()}))
    source: str = ""
    #: the file it was read from (its outermost file), or ``<toml>``, ``<mapping>``; not compared
    file: str = dataclasses.field(default="", compare=False)
    #: options of the shapes that have any, by shape id
    shape_options: Frozen = dataclasses.field(default_factory=lambda: EMPTY)
    #: plugin distributions the preset needs installed
    requires: _Tuple = ()
    #: how a hand and a match are played (``[table]``)
    table: TableRules = dataclasses.field(default_factory=TableRules)

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
        folder = existing_folder(root, "root") if root is not None else None
        here = existing_folder(base_dir, "base_dir") if base_dir is not None else folder
        return from_data(toml_data(text), here, folder, catalogue)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its data (``model_dump``) and its file, validated again when loaded: an equal preset
        (a preset using a plugin needs that plugin where it is loaded)."""
        return _loaded, (self.model_dump(), self.file)

    def __copy__(self) -> Preset:
        return self  # immutable: a copy is the preset itself

    def __deepcopy__(self, memo: dict[int, Any]) -> Preset:
        return self

    @property
    def bonus_tiles(self) -> bool:
        """True when the table plays with flowers and seasons (144 tiles)."""
        return self.tiles == 144

    @property
    def warnings(self) -> tuple[Lint, ...]:
        """What in this preset loads but cannot mean what it says: patterns that
        always or never hold under its own rules, limits below the minimum,
        values above the cap, keys nothing reads (``hkcore.preset.lint``; each a
        ``Lint`` with its code, dotted TOML path and message). Empty for a
        preset that lints clean."""
        return lint(self)

    def rule(self, pattern_id: str) -> PatternRule | None:
        """The rule for a pattern id, or None when it is not in play."""
        for r in self.patterns:
            if r.id == pattern_id:
                return r
        return None

    @model_serializer(mode="plain")
    def _file_data(self) -> dict[str, Any]:
        """The resolved preset as the data of a preset file (no ``extends``;
        ``cap`` and ``payments`` false for none), TOML- and JSON-ready in
        either mode: ``Preset.model_validate`` of it gives an equal preset."""
        out: dict[str, Any] = {
            "id": self.id, "name": self.name, "unit": self.unit, "minimum": self.minimum,
            "cap": self.cap if self.cap is not None else False, "tiles": self.tiles,
            "shapes": ({sid: thaw(self.shape_options.get(sid, {})) for sid in self.shapes}
                       if self.shape_options else list(self.shapes)), "plugins": thaw(self.plugins),
            "limit_adds": list(self.limit_adds), "claims": thaw(self.claims),
        }
        for key in _PLAIN:  # a key the preset holds as the file says it
            out.setdefault(key, thaw(getattr(self, key)))
        if not self.source:
            del out["source"]
        if self.requires:
            out["requires"] = list(self.requires)
        out["patterns"] = {r.id: r.to_toml() for r in self.patterns}
        out["payments"] = thaw(self.payments) if self.payments is not None else False
        out["table"] = self.table.to_toml()
        return out

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """The resolved preset as the data of a preset file (see ``_file_data``), the same in either ``mode``."""
        return _ADAPTER.dump_python(self, mode=mode)  # type: ignore[no-any-return]

    def model_dump_json(self, *, indent: int | None = None) -> str:
        """``model_dump()`` as JSON (compact unless ``indent``)."""
        return _ADAPTER.dump_json(self, indent=indent).decode()

    to_json = model_dump_json

    @classmethod
    def model_validate(cls, obj: Any) -> Preset:
        """A preset from the data of a preset file (``model_dump`` gives it;
        ``extends`` a built-in preset is allowed), checked as a file is:
        errors are PresetErrors naming the TOML path. A Preset is returned as is."""
        if isinstance(obj, cls):
            return obj
        if not isinstance(obj, Mapping):
            raise PresetError(f"expected the preset's data as a mapping, got {type(obj).__name__}", "<mapping>")
        return from_mapping(obj)

    @classmethod
    def model_validate_json(cls, text: str | bytes) -> Preset:
        """A preset from ``model_dump_json`` text (see ``model_validate``)."""
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise PresetError(f"not valid JSON: {str(exc)[:2 * SHOWN]}", "<json>") from None
        return cls.model_validate(data)

    @classmethod
    def model_json_schema(cls, by_alias: bool | None = None, ref_template: str = "#/$defs/{model}",
                          schema_generator: type[GenerateJsonSchema] = GenerateJsonSchema,
                          mode: JsonSchemaMode = "validation", **kwargs: Any) -> dict[str, Any]:
        """The JSON Schema of a preset's data: of a preset file (``PresetFile``)."""
        return PresetFile.model_json_schema(by_alias=True if by_alias is None else by_alias,
                                            ref_template=ref_template, schema_generator=schema_generator,
                                            mode=mode, **kwargs)


_ADAPTER: TypeAdapter[Preset] = TypeAdapter(Preset)


def _loaded(data: dict[str, Any], file: str) -> Preset:
    """A pickled preset loaded again (``Preset.__reduce__``); what loading it warned was said when it was
    first loaded, not again."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", registry.PresetWarning)
        return dataclasses.replace(Preset.model_validate(data), file=file)


#: the keys of a preset file a Preset holds as they are, in the file's order
_PLAIN = tuple(k for k in PresetFile.model_fields if k in {f.name for f in dataclasses.fields(Preset)}
               and k not in ("shapes", "plugins", "limit_adds", "claims", "patterns", "payments", "requires", "table",
                             "cap", "name"))


def build(data: dict[str, Any], origin: Mapping[str, str], cat: Catalogue) -> Preset:
    """A preset from a preset file's merged data (see ``checks.checked``)."""
    fields = checked(data, origin, cat)
    return Preset(**{f.name: fields[f.name] for f in dataclasses.fields(Preset) if f.name in fields})


def from_data(data: dict[str, Any], here: Path | None, folder: Path | None,
              catalogue: Catalogue | None = None) -> Preset:
    """A preset from TOML data given as text or a mapping (``extends`` from
    ``here``, only inside ``folder`` when given)."""
    data.setdefault("id", "custom")
    merged, origin = apply_extends(data, "<toml>", here, (), [], folder)
    return build(merged, origin, catalogue if catalogue is not None else registry.catalogue())


def from_mapping(ref: Mapping[str, Any], root: str | Path | None = None) -> Preset:
    """A preset from the TOML data as a mapping (a row of a database, say)."""
    plain = thaw(ref)
    try:
        text = tomli_w.dumps(plain)  # only what a TOML file can say
    except (TypeError, ValueError) as exc:
        raise PresetError(f"not TOML data: {shown(str(exc))}", "<mapping>", None) from None
    data = toml_data(text)
    if isinstance(plain.get("patterns"), dict):  # tomli_w writes table entries last: their order counts
        data["patterns"] = {pid: data["patterns"][pid] for pid in plain["patterns"]}
    folder = existing_folder(root, "root") if root is not None else None
    return from_data(data, folder, folder)


def load(ref: str, cat: Catalogue, root: Path | None = None) -> tuple[Preset, tuple[tuple[str, bytes], ...]]:
    """A preset from its id or path, and every file read for it with its content."""
    files: list[tuple[str, bytes]] = []
    data, origin = resolve(ref, None, (), files, root)
    return build(data, origin, cat), tuple(files)
