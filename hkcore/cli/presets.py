"""``hkscore presets``, ``plugins`` and ``schema``."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hkcore.cli.common import output_options, print_json, print_rows, show
from hkcore.errors import HkcoreError, shown

if TYPE_CHECKING:
    from hkcore.preset import Preset


def _preset_data(p: Preset) -> dict[str, Any]:
    """Everything a preset holds, as its TOML data (``cap`` and ``payments``
    false for none), every key always present."""
    data = p.model_dump()
    data.setdefault("source", "")
    data.setdefault("requires", [])
    return data


def _preset_rules(p: Preset) -> list[tuple[str, Any]]:
    """(dotted TOML path, value) of every rule, with the paths of ``presets diff``."""
    data = _preset_data(p)
    rows: list[tuple[str, Any]] = []
    for key, value in data.items():
        if key == "shapes":
            rows.append(("shapes", list(p.shapes)))
            rows += [(f"shapes.{sid}.{k}", v) for sid, opts in p.shape_options.items() for k, v in opts.items()]
        elif key == "plugins":
            rows.append(("plugins", list(p.plugins)))
            rows += [(f"plugins.{pid}.{k}", v) for pid, opts in p.plugins.items() for k, v in opts.items()]
        elif isinstance(value, dict):
            for k, v in value.items():
                if isinstance(v, dict):
                    rows += [(f"{key}.{k}.{kk}", vv) for kk, vv in v.items()]
                else:
                    rows.append((f"{key}.{k}", v))
        else:
            rows.append((key, value))
    return rows


def _source_shown(p: Preset, builtin: bool) -> str | None:
    """The preset's ``source`` when it can be followed: a web address, a
    file that exists next to the preset file, or words that name no file."""
    src = p.source
    if not src or "://" in src:
        return src or None
    if "/" not in src and "\\" not in src and "." not in src:
        return src  # a name ("our club"), not a file
    if builtin:
        return None  # the rules texts that the built-in presets follow are not shipped
    found = Path(p.file).parent / src
    return str(found) if found.is_file() else None


def _options_text(options: Any) -> str:
    return ", ".join(f"{k}={show(v)}" for k, v in options.items())


def _render_preset(p: Preset, builtin: bool) -> str:
    """Everything a preset holds, as a person reads it."""
    def named(items: Any, options: Any) -> str:
        return ", ".join(i + (f" ({_options_text(options[i])})" if options.get(i) else "") for i in items)

    cap = p.cap if p.cap is not None else "none"
    lines = [f"{p.id}: {p.name}", f"  {'from':<9} {'built-in' if builtin else p.file}"]
    source = _source_shown(p, builtin)
    if source:
        lines.append(f"  {'source':<9} {source}")
    lines.append(f"  unit {p.unit}, minimum {p.minimum}, cap {cap}, {p.tiles} tiles")
    lines.append(f"  {'shapes':<9} {named(p.shapes, p.shape_options)}")
    lines.append(f"  {'plugins':<9} {named(p.plugins, p.plugins) or 'none'}")
    if p.requires:
        lines.append(f"  {'requires':<9} {', '.join(p.requires)}")
    lines.append(f"  {'claims':<9} {_options_text(p.claims)}")
    if p.limit_adds:
        lines.append(f"  limit hands still add: {', '.join(p.limit_adds)}")
    lines.append("  patterns")
    for r in p.patterns:
        if r.limit is not None:
            worth = f"limit {r.limit}"
        elif r.by_count is not None:
            worth = "by count " + "/".join(map(str, r.by_count))
        else:
            worth = str(r.value)
        extra = []
        if r.includes:
            extra.append("incl. " + ", ".join(r.includes))
        if r.wins_below_minimum:
            extra.append("wins below the minimum")
        if r.when:
            extra.append("when " + " and ".join(r.when))
        extra += [f"{k}={show(v)}" for k, v in r.options.items()]
        lines.append(f"    {r.id:<22} {worth:<14} {'; '.join(extra)}".rstrip())
    lines.append(f"  {'payments':<9} {_options_text(p.payments) if p.payments else 'none'}")
    lines.append(textwrap.fill(_options_text(_preset_data(p)["table"]), width=100, initial_indent=f"  {'table':<9} ",
                               subsequent_indent=" " * 12, break_long_words=False, break_on_hyphens=False))
    return "\n".join(lines)


def _cmd_presets(args: argparse.Namespace) -> int:
    from hkcore.preset import builtin_ids, diff, export_toml, load_preset

    fmt = args.format or "table"
    if args.action is None:
        listed = [load_preset(pid) for pid in builtin_ids()]
        if fmt == "json":
            keys = ("id", "name", "unit", "minimum", "cap", "tiles")
            print_json([{k: v for k, v in _preset_data(p).items() if k in keys} for p in listed])
        else:
            print_rows([("id", "name", "unit", "minimum", "cap", "tiles"),
                        *((p.id, p.name, p.unit, p.minimum, p.cap if p.cap is not None else "none", p.tiles)
                          for p in listed)], fmt)
        return 0
    if args.action == "check":
        return _check(args, fmt)
    if args.ref is None and args.other:  # the preset named after an option (presets show --json ID)
        args.ref = args.other.pop(0)
    if args.action in ("show", "export") and not args.ref:
        raise HkcoreError(f"presets {args.action}: give a preset id or path")
    if args.action in ("show", "export") and args.other:
        raise HkcoreError(f"presets {args.action}: give one preset id or path, not {len(args.other) + 1}")
    if args.action == "show":
        p = load_preset(args.ref)
        if fmt == "json":
            print_json(_preset_data(p))
        elif fmt == "table":
            print(_render_preset(p, args.ref in builtin_ids()))
        else:
            print_rows([("rule", "value"), *((k, show(v)) for k, v in _preset_rules(p))], fmt)
        return 0
    if args.action == "export":
        if fmt not in ("table", "json"):
            raise HkcoreError(f"presets export writes TOML, or JSON with --json; not {fmt}")
        p = load_preset(args.ref)
        text = export_toml(p) if fmt == "table" else json.dumps(_preset_data(p), ensure_ascii=False, indent=2) + "\n"
        if args.output:
            try:
                Path(args.output).write_text(text, encoding="utf-8")
            except OSError as exc:
                raise HkcoreError(f"presets export: cannot write {shown(args.output)}: {exc.strerror}") from None
        else:
            sys.stdout.write(text)
        return 0
    if args.action == "diff":
        if not args.ref or len(args.other) != 1:
            raise HkcoreError("presets diff: give two preset ids or paths")
        a, b = load_preset(args.ref), load_preset(args.other[0])
        found = diff(a, b)
        if fmt == "json":
            print_json({"a": a.id, "b": b.id, "differences": [{"path": d.path, "a": d.a, "b": d.b} for d in found]})
        elif fmt == "table" and not found:
            print(f"{a.id} and {b.id} have the same rules")
        else:
            print_rows([("rule", a.id, b.id), *((d.path, show(d.a), show(d.b)) for d in found)], fmt)
        return 1 if found else 0  # as diff(1): 1 when the presets differ
    raise HkcoreError(f"presets: unknown action {args.action!r}")


def _check(args: argparse.Namespace, fmt: str) -> int:
    """``presets check FILE...``: each preset's warnings (``Preset.warnings``) on
    stderr as ``FILE: path: code: message``; exit 1 with ``--strict`` when any,
    2 when a file cannot be loaded (its one-line error, the others still checked)."""
    import warnings

    from hkcore.preset import PresetError, load_preset
    from hkcore.registry import PresetWarning

    refs = [r for r in (args.ref, *args.other) if r]
    if not refs:
        raise HkcoreError("presets check: give one or more preset files (or ids)")
    if fmt not in ("table", "json"):
        raise HkcoreError(f"presets check prints its warnings, or JSON with --json; not {fmt}")
    entries: list[dict[str, Any]] = []
    bad = found = 0
    for ref in refs:
        try:
            with warnings.catch_warnings():  # a pattern without its shape: told below, with the rest
                warnings.simplefilter("ignore", PresetWarning)
                p = load_preset(ref)
        except PresetError as exc:
            bad += 1
            entries.append({"file": ref, "error": str(exc)})
            print(f"hkscore: error: {exc}", file=sys.stderr)
            continue
        said = p.warnings
        found += len(said)
        entries.append({"file": ref, "preset": p.id, "warnings": [w.as_dict() for w in said]})
        if fmt != "json":
            for w in said:
                print(f"{ref}: {w}", file=sys.stderr)
    if fmt == "json":
        print_json(entries)
    return 2 if bad else 1 if found and args.strict else 0


def _cmd_plugins(args: argparse.Namespace) -> int:
    from hkcore.registry import current as current_registry
    reg = current_registry()
    cat = reg.catalogue
    provided: dict[str, list[str]] = {}
    for (kind, item), plugin in cat.owner.items():
        provided.setdefault(plugin, []).append(f"{kind} {item}")
    names = [reg.plugin_manager.get_name(p) or repr(p) for p in reg.plugin_manager.get_plugins()]
    names = sorted(set(names) | set(cat.broken_plugins), key=lambda n: (not n.startswith("hkcore."), n))
    rows: list[dict[str, Any]] = [
        {"plugin": name,
         "source": cat.available.get(name, "built in" if name.startswith("hkcore.") else "registered in this process"),
         "provides": sorted(provided.get(name, [])), "problem": cat.broken_plugins.get(name)}
        for name in names]
    status = 1 if any(row["problem"] for row in rows) else 0
    if args.format == "json":
        print_json(rows)
        return status
    for row in rows:
        print(f"{row['plugin']}  ({row['source']})")
        kinds: dict[str, list[str]] = {}
        for item in row["provides"]:
            kind, _, name = item.rpartition(" ")
            kinds.setdefault(kind, []).append(name)
        for kind, items in kinds.items():
            print(f"    {kind}s: {', '.join(items)}" if len(items) > 1 else f"    {kind}: {items[0]}")
        if row["problem"]:
            print(f"    problem: {row['problem']}")
    return status


_SCHEMAS = ("hand", "meld", "result", "position", "analysis", "comparison", "claim", "preset", "summary", "simulation")


def _cmd_schema(args: argparse.Namespace) -> int:
    from pydantic import BaseModel

    from hkcore.analysis import Analysis
    from hkcore.claims import Claim
    from hkcore.comparison import Comparison
    from hkcore.models import Hand, Meld, Position
    from hkcore.preset import Preset
    from hkcore.results import ScoreResult
    from hkcore.simulation import SimulationSummary
    from hkcore.summary import ComparisonSummary

    schemas: dict[str, type[BaseModel] | type[Preset]] = {
        "hand": Hand, "meld": Meld, "result": ScoreResult, "position": Position, "analysis": Analysis,
        "comparison": Comparison, "claim": Claim, "preset": Preset, "summary": ComparisonSummary,
        "simulation": SimulationSummary}
    model = schemas[args.model]
    print(json.dumps(model.model_json_schema(by_alias=True), ensure_ascii=False, indent=2))
    return 0


def presets_options(pr: argparse.ArgumentParser) -> None:
    """``hkscore presets``' arguments."""
    pr.add_argument("action", nargs="?", choices=["show", "export", "diff", "check"],
                    help="show: everything one preset holds; export: the resolved preset as TOML (JSON with --json); "
                         "diff: every rule on which two presets differ; check: what each preset's rules say that "
                         "cannot mean what they say (patterns that always or never hold, ...), on stderr")
    pr.add_argument("ref", nargs="?", help="preset id or TOML path")
    pr.add_argument("other", nargs="*", help="the second preset (diff); more presets (check)")
    pr.add_argument("--strict", action="store_true", help="check: exit 1 when any preset has a warning")
    pr.add_argument("--output", "-o", help="export: write to this file instead of stdout")
    output_options(pr, "list: a list of presets; show and export: the preset's TOML data; "
                       'diff: {"a": ..., "b": ..., "differences": [...]}; check: [{"file": ..., "preset": ..., '
                       '"warnings": [{"code": ..., "path": ..., "message": ...}]} or {"file": ..., "error": ...}]',
                   table=True)
    pr.set_defaults(func=_cmd_presets, intermixed="other")  # check FILE --strict FILE


def plugins_options(pl: argparse.ArgumentParser) -> None:
    """``hkscore plugins``' arguments."""
    output_options(pl, "a list of plugins")
    pl.set_defaults(func=_cmd_plugins)


def schema_options(sh: argparse.ArgumentParser) -> None:
    """``hkscore schema``'s arguments."""
    sh.add_argument("model", nargs="?", default="hand", choices=_SCHEMAS)
    output_options(sh, "always JSON")
    sh.set_defaults(func=_cmd_schema)
