"""What the report pages share (``hkcore.reports.comparison`` and
``hkcore.reports.simulation``): the page's head and style sheet, table
cells with ``data-`` attributes, Markdown tables, the rules on which presets
differ, the pattern names, the figures, the presets' warnings, and the files written."""
from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hkcore.errors import HkcoreError, shown
from hkcore.preset import Lint, Preset, builtin_ids, diff, load_preset

INSTALL = "hkscore report needs matplotlib: pip install 'hkcore[report]'"


class MissingExtra(HkcoreError):
    """An optional dependency is not installed (the message says how to install it)."""


def require_matplotlib() -> None:
    """Raise ``MissingExtra`` (one line, how to install) when matplotlib is missing."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingExtra(INSTALL) from None


def report_folder(out: str | Path, field: str = "out") -> Path:
    """The folder a report or a run's results are written into, made if missing; an HkcoreError naming
    ``field`` when it is a file or cannot be made (checked before any hand is read)."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise HkcoreError(f"{field}: {shown(str(out))} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise HkcoreError(f"{field}: cannot make the folder {shown(str(out))}: {exc.strerror or exc}") from None
    return folder


def write_files(folder: Path, files: dict[str, str]) -> list[Path]:
    """Write each named text into ``folder``; the paths written. An interrupted
    write leaves no file that looks complete."""
    written = []
    for name, text in files.items():
        path = folder / name
        partial = folder / f".{name}.partial"
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
        written.append(path)
    return written


# --------------------------------------------------------------------------
# the page

#: the report pages' style sheet
CSS = """
nav#contents { background: #f5f5f0; border: 1px solid #ddd; padding: 0.4em 1em; display: inline-block; }
nav#contents ol { margin: 0.2em 0; padding-left: 1.4em; columns: 2; column-gap: 3em; }
.name { color: #555; font-size: 0.85em; }
.why { color: #555; font-size: 0.85em; }
details summary { cursor: pointer; font-weight: 600; margin: 0.4em 0; }
#rules { table-layout: fixed; width: 100%; } #rules td { text-align: left; overflow-wrap: anywhere; }
#rules th.id { width: 24%; }
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 1.5em auto; max-width: 1200px; color: #222;
       background: #fff; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f3f7; } td.id, th.id { text-align: left; }
.figure svg { max-width: 100%; height: auto; }
.tiles { font-size: 1.8em; font-family: "Symbola", "Noto Sans Symbols 2", sans-serif; white-space: nowrap; }
code { font-size: 0.95em; } ol.examples li { margin: 0.2em 0; }
.note { color: #555; font-size: 0.9em; }
"""


def head(title: str, css: str = CSS) -> str:
    """A page's start up to its ``</head>``: the doctype, the escaped ``title`` and the style sheet ``css``."""
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      f"<title>{html.escape(title)}</title>", f"<style>{css}</style></head>"])


def data_attrs(**kw: Any) -> str:
    """``data-`` attributes from keywords (``None`` left out; ``_`` in a name as ``-``), escaped."""
    return "".join(f' data-{k.replace("_", "-")}="{html.escape(str(v))}"' for k, v in kw.items() if v is not None)


def cell(text: str, **kw: Any) -> str:
    """A table cell of escaped text with ``data-`` attributes."""
    return f"<td{data_attrs(**kw)}>{html.escape(text)}</td>"


def code_html(text: str) -> str:
    """Escaped text with its `backticked` parts as <code> (Markdown's code spans as HTML)."""
    pieces = html.escape(text).split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(pieces))


def figure(name: str, svg: str) -> str:
    """A plot (SVG text) in its block, ``id="fig-NAME"``."""
    return f'<div class="figure" id="fig-{name}">{svg}</div>'


def md_table(rows: list[list[str]]) -> str:
    """Rows (the first the header) as a GitHub Markdown table, pipes in cells escaped."""
    def line(row: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in row) + " |"
    return "\n".join([line(rows[0]), "|" + "---|" * len(rows[0]), *map(line, rows[1:])])


# --------------------------------------------------------------------------
# presets, their rules and their patterns


def known_presets(ids: Iterable[str], presets: Sequence[Preset] | None) -> dict[str, Preset]:
    """The presets of ``ids`` by id: those given, and the built-in ones (any other is unknown here)."""
    given = {p.id: p for p in presets or ()}
    builtin = set(builtin_ids())
    return {pid: given[pid] if pid in given else load_preset(pid) for pid in ids if pid in given or pid in builtin}


def pattern_names() -> dict[str, tuple[str, str]]:
    """Pattern id -> (English, Chinese) name, from the current plugins."""
    from hkcore.registry import current

    return {pid: (p.name_en, p.name_zh) for pid, p in current().catalogue.patterns.items()}


def pattern_label(pattern: str, names: dict[str, tuple[str, str]]) -> str:
    """A pattern's first cell: its id, and its English and Chinese names (from ``pattern_names``)."""
    e = html.escape
    en, zh = names.get(pattern, ("", ""))
    return f'<td class="id">{e(pattern)} <span class="name">{e(en)} <span lang="zh-Hant">{e(zh)}</span></span></td>'


def rule_value(v: Any) -> str:
    """A rule's value as the rules table shows it: none for absent (a pattern off), yes/no, a payment table
    by its scheme, anything longer than 60 characters cut."""
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict) and "scheme" in v:
        return f"scheme {v['scheme']}"  # a payment table: its scheme (presets diff shows the rest)
    text = json.dumps(v, ensure_ascii=False, separators=(", ", ": ")) if isinstance(v, (dict, list)) else str(v)
    return text if len(text) <= 60 else text[:57] + "..."


def rule_table_rows(rules: list[tuple[str, list[Any]]], names: dict[str, tuple[str, str]]) -> list[str]:
    """The rules table's rows in HTML: each rule's dotted path (a pattern's names beside its id, from
    ``names``) and each preset's value as ``rule_value`` shows it."""
    e = html.escape
    rows = []
    for path, values in rules:
        head = path.split(".")
        label = e(path)
        if head[0] == "patterns" and len(head) > 1 and head[1] in names:
            label += f' <span class="name">{e(names[head[1]][0])} {e(names[head[1]][1])}</span>'
        rows.append(f'<tr><td class="id">{label}</td>' + "".join(f"<td>{e(rule_value(v))}</td>" for v in values)
                    + "</tr>")
    return rows


#: the order of the rules table: the table's size and thresholds first, then shapes, patterns, payments
_RULE_ORDER = {key: i for i, key in enumerate(("unit", "tiles", "minimum", "cap", "payments", "shapes", "limit_adds",
                                               "claims", "patterns", "plugins", "table"))}


def rule_rows(presets: dict[str, Preset]) -> list[tuple[str, list[Any]]]:
    """Every rule on which the presets do not all agree (``hkscore presets diff``'s dotted paths),
    with each preset's value in order (None: absent, a pattern off)."""
    ids = list(presets)
    if len(ids) < 2:
        return []
    first = presets[ids[0]]
    found = {pid: {d.path: d for d in diff(first, presets[pid])} for pid in ids[1:]}
    paths: list[str] = []
    for by_path in found.values():
        paths.extend(path for path in by_path if path not in paths)
    paths.sort(key=lambda path: _RULE_ORDER.get(path.split(".")[0], len(_RULE_ORDER)))
    def at(by_path: dict[str, Any], path: str, base: Any) -> Any:
        """A preset's value at ``path``: its difference there, inside a difference of a containing rule
        (``payments`` when one side has no table), else the first preset's value."""
        keys = path.split(".")
        for n in range(len(keys), 0, -1):
            d = by_path.get(".".join(keys[:n]))
            if d is not None:
                v = d.b
                for k in keys[n:]:
                    v = v.get(k) if isinstance(v, dict) else None
                return v
        return base

    rows = []
    for path in paths:
        base = next(by_path[path].a for by_path in found.values() if path in by_path)
        rows.append((path, [base, *(at(found[pid], path, base) for pid in ids[1:])]))
    return rows


#: what the warnings block of a report says first
WARNINGS_NOTE = ("Rules of these presets that cannot mean what they say (hkscore presets check; docs/house-rules.md, "
                 "\"Warnings\"): the figures above are those of the rules as written.")


def warnings_markdown(found: Mapping[str, Sequence[Lint]]) -> list[str]:
    """The presets' warnings (``Preset.warnings`` by preset id) as a Markdown
    section, one item each; no lines when there are none."""
    if not any(found.values()):
        return []
    return ["## Preset warnings", "", WARNINGS_NOTE, "",
            *(f"- {pid}: `{w.path}`: {w.code}: {w.message}" for pid, ws in found.items() for w in ws), ""]


def warnings_html(found: Mapping[str, Sequence[Lint]]) -> str:
    """The presets' warnings (``Preset.warnings`` by preset id) as a short list
    (``id="warnings"``, each item's ``data-preset``, ``data-path`` and
    ``data-code``); empty when there are none."""
    if not any(found.values()):
        return ""
    e = html.escape
    items = "".join(f"<li{data_attrs(preset=pid, path=w.path, code=w.code)}><b>{e(pid)}</b> <code>{e(w.path)}</code>"
                    f" {e(w.code)}: {e(w.message)}</li>" for pid, ws in found.items() for w in ws)
    return (f'<section id="warnings"><h2 id="s-warnings">Preset warnings</h2><p class="note">{e(WARNINGS_NOTE)}'
            f"</p><ul>{items}</ul></section>")
