"""A preset file's data, ``extends`` merged, checked: each key by the
``PresetFile`` model, then what the keys may not say together; every
problem a ``PresetError`` naming the file the key came from."""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from pydantic import ValidationError

from hkcore.errors import shown
from hkcore.options import first_problem, nearest, options_model
from hkcore.preset.errors import PresetError, freeze
from hkcore.preset.rules import PatternRule
from hkcore.preset.schema import CHECK_ORDER, PresetFile, options_of, scheme_params
from hkcore.registry import Catalogue, warn_shapes_missing
from hkcore.table_rules import table_problems

#: the key of the merged data listing the (pattern id, file) pairs switched off with ``false``
DISABLED = "__disabled__"
#: the key of ``origin`` naming the outermost file
SELF = "__file__"


#: the keys of a preset file the preset holds in another form (or not at all)
_DERIVED = frozenset({"extends", "name", "cap", "shapes", "plugins", "limit_adds", "claims", "patterns", "payments",
                      "requires", "table"})


def checked(data: dict[str, Any], origin: Mapping[str, str], cat: Catalogue) -> dict[str, Any]:
    """The fields of a ``Preset`` from a preset file's merged ``data`` (see
    ``reading.resolve``): ``origin`` names the file each key came from."""

    def where(path: str) -> str:
        parts = re.split(r"[.\[]", path)
        key = ".".join(parts[:2]) if parts[0] == "patterns" else parts[0]
        return origin.get(key) or origin.get(parts[0]) or origin.get("id") or "preset"

    data = dict(data)
    disabled = data.pop(DISABLED, [])
    table = data.get("table", {})
    paying = data.get("payments", False) is not False
    if isinstance(table, dict) and ("start_points" not in table or (
            origin.get("table.start_points") != origin[SELF] and (table["start_points"] is False) == paying)):
        # points from 0 under a payment table, a faan ledger without one (also when a house preset switches
        # payments on or off and keeps its parent's start_points)
        data["table"] = {**table, "start_points": 0 if paying else False}
    try:
        file = PresetFile.model_validate(data, context={"catalogue": cat})
    except ValidationError as exc:
        path, message, value = first_problem(exc, CHECK_ORDER)
        raise PresetError(message, where(path), path, value=value) from None

    rules = [PatternRule(id=pid, value=e.value, by_count=None if e.by_count is None else tuple(e.by_count),
                         limit=e.limit, includes=tuple(e.includes), wins_below_minimum=e.wins_below_minimum,
                         options=e.options(), when=tuple([e.when] if isinstance(e.when, str) else e.when or ()))
             for pid, e in file.patterns.items() if e is not False and not isinstance(e, int)]
    in_play = {r.id for r in rules}
    # a pattern whose shape the preset leaves off can never be met: said when the preset is read
    warn_shapes_missing(where("patterns"), [r.id for r in rules], tuple(file.shapes), cat, stacklevel=6)
    for off, name in disabled:
        if off not in cat.patterns:
            raise PresetError(f"unknown pattern id {shown(off)}{nearest(off, cat.patterns)}", name,
                              f"patterns.{off}", value=off)
    for r in rules:
        for j, inc in enumerate(r.includes):
            if inc not in cat.patterns:
                raise PresetError(f"unknown pattern id {shown(inc)}{nearest(inc, cat.patterns)}",
                                  where(f"patterns.{r.id}"), f"patterns.{r.id}.includes[{j}]", value=inc)
    limit_adds = tuple(file.limit_adds)
    if where("limit_adds") != origin[SELF]:
        # inherited: a pattern this file switched off no longer adds to limits
        limit_adds = tuple(a for a in limit_adds if a in in_play)
    for i, a in enumerate(limit_adds):
        if a not in in_play:
            raise PresetError(f"{shown(a)} is not a pattern in play{nearest(a, in_play)}",
                              where("limit_adds"), f"limit_adds[{i}]", value=a)
    cap = None if file.cap is False else file.cap
    if cap is not None and file.minimum > cap:
        raise PresetError(f"minimum {file.minimum} is above the cap {cap}: no hand could ever reach it",
                          where("minimum"), "minimum", value=file.minimum)
    payments = file.payments if isinstance(file.payments, dict) else None
    if payments is not None:
        scheme = cat.schemes[payments["scheme"]]
        params = scheme_params(cat, payments["scheme"], {k: v for k, v in payments.items() if k != "scheme"})
        top = scheme.covers(params) if scheme.covers is not None else None
        if cap is not None and top is not None and top < cap and not params.short_table:
            raise PresetError(f"scheme {payments['scheme']!r} pays distinct amounts only up to {top} but the cap is "
                              f"{cap}: a {cap}-faan hand would be paid as {top}; give amounts up to the cap, or set "
                              "short_table = true if the table really pays that way", where("payments"), "payments")
    claims = file.claims.model_dump()
    problems = table_problems(file.table, payments=payments is not None, robbing_kong=claims["robbing_kong"],
                              tiles=file.tiles)
    if problems:
        path, message, value = problems[0]
        raise PresetError(message, where(path), path, value=value)
    # a key no check below names reaches the preset as the model gave it
    plain = {k: getattr(file, k) for k in type(file).model_fields if k not in _DERIVED}
    return {
        **plain,
        "id": file.id, "name": file.name if "name" in file.model_fields_set else file.id, "unit": file.unit,
        "minimum": file.minimum, "cap": cap, "tiles": file.tiles, "shapes": tuple(file.shapes),
        "plugins": file.plugins, "limit_adds": limit_adds, "patterns": tuple(rules), "payments": payments,
        "claims": claims, "source": file.source, "file": origin[SELF],
        "shape_options": {sid: opts for sid, opts in cast(dict[str, dict[str, Any]], file.shapes).items() if opts},
        "requires": tuple(file.requires), "table": file.table,
    }


def shape_options(shape: Any, given: Mapping[str, Any], catalogue: Catalogue | None = None) -> Mapping[str, Any]:
    """A shape's options with defaults filled in (by the model of its options
    in ``catalogue``, when it has them); errors name the option."""
    model = options_of(catalogue, "shape", shape) if catalogue is not None else options_model(shape)
    try:
        found = model.model_validate(dict(given), context={"what": "shape", "owner": shape.id})
    except ValidationError as exc:
        path, message, value = first_problem(exc)
        raise PresetError(message, None, f"shapes.{shape.id}.{path}", value=value) from None
    options: Mapping[str, Any] = freeze(found.model_dump())
    return options
