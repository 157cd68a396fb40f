"""A resolved preset written out as TOML, and the rules on which two presets differ."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import tomli_w

from hkcore.preset.model import Preset
from hkcore.preset.schema import TOP_KEYS


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
