"""Reading a preset: TOML text in time bounded by its length, built-in
presets and files (inside a ``root`` folder, for presets from untrusted
sources), and ``extends`` merged into one table of raw data."""
from __future__ import annotations

import importlib.resources
import re
import tomllib
from pathlib import Path
from typing import Any

from hkcore.errors import SHOWN, shown
from hkcore.options import nearest
from hkcore.preset.checks import DISABLED, SELF
from hkcore.preset.errors import PresetError

#: the longest chain of ``extends``, the largest preset file read
MAX_EXTENDS = 32
MAX_FILE = 1 << 20

#: the most parts a dotted key may have (``a.b.c`` has 3): the TOML parser's time grows with the square of a
#: key's parts, so a 32 KB key of 16,000 parts would take seconds and a gigabyte
MAX_KEY_PARTS = 32
_LONG_KEY = re.compile(r"""(?:(?:[A-Za-z0-9_-]+|"[^"\n]{0,200}"|'[^'\n]{0,200}')[ \t]*\.[ \t]*)"""
                       + f"{{{MAX_KEY_PARTS}}}")


def bounded(text: str, label: str) -> None:
    """Refuse TOML text whose cost to parse is not bounded by its length (a dotted key of too many parts)."""
    found = _LONG_KEY.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        raise PresetError(f"a dotted key of more than {MAX_KEY_PARTS} parts at line {line:,} "
                          f"(at most {MAX_KEY_PARTS})", label, None, value=found.group(0))


def toml_data(text: str) -> dict[str, Any]:
    """The data of TOML text given as a string (at most ``MAX_FILE`` characters)."""
    if len(text) > MAX_FILE:
        raise PresetError(f"TOML text of {len(text):,} characters; at most {MAX_FILE:,}", "<toml>", None)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a TOML document is UTF-8 text; a lone surrogate is not
        raise PresetError(f"not valid TOML: character {exc.start + 1:,} is a lone surrogate "
                          f"{shown(text[exc.start])}, not text", "<toml>", value=text[exc.start]) from None
    return parsed(text, "<toml>")


def parsed(text: str, label: str) -> dict[str, Any]:
    """TOML text (from ``label``) parsed, in time bounded by its length; errors are PresetErrors."""
    bounded(text, label)
    try:
        return tomllib.loads(text)
    except ValueError as exc:  # TOMLDecodeError, or an int too long to read
        raise PresetError(f"not valid TOML: {str(exc)[:2 * SHOWN]}", label) from None
    except RecursionError:
        raise PresetError("not valid TOML: nested too deeply", label) from None


def builtin_root() -> Any:
    """The folder of the built-in preset files: the installed package
    ``hkcore.preset_files``, or the repository's presets/ when running from a
    source tree that was not installed."""
    try:
        return importlib.resources.files("hkcore.preset_files")
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / "presets"


def builtin_ids() -> list[str]:
    """Ids of the presets shipped with hkcore."""
    return sorted(p.name[:-5] for p in builtin_root().iterdir() if p.name.endswith(".toml"))


def is_path(ref: str) -> bool:
    """Whether a preset reference is a file path (else a built-in id)."""
    return "/" in ref or "\\" in ref or ref.endswith(".toml")


def read(ref: str, base_dir: Path | None, files: list[tuple[str, bytes]],
         root: Path | None) -> tuple[dict[str, Any], str, Path | None]:
    """Raw TOML of a preset id or path: (data, file label, its folder); a
    file read is added to ``files`` with its content. With ``root``, only
    built-in presets and files inside ``root`` are read, and nothing is said
    about any other file."""
    if not is_path(ref):
        ids = builtin_ids()
        if ref not in ids:
            raise PresetError(f"unknown preset {shown(ref)}{nearest(ref, ids)}; built-in presets: {', '.join(ids)}",
                              None, "preset", value=ref)
        text = (builtin_root() / f"{ref}.toml").read_text(encoding="utf-8")
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
    return parsed(text, label), label, folder




def resolve(ref: str, base_dir: Path | None, seen: tuple[str, ...],
             files: list[tuple[str, bytes]], root: Path | None = None) -> tuple[dict[str, Any], dict[str, str]]:
    """Raw data with extends applied, and the file each key came from.

    ``origin[SELF]`` is the outermost file; ``data[DISABLED]`` lists the
    (pattern id, file) pairs switched off with ``false``.
    """
    data, label, folder = read(ref, base_dir, files, root)
    return apply_extends(data, label, folder, seen, files, root)


def apply_extends(data: dict[str, Any], label: str, folder: Path | None, seen: tuple[str, ...],
                   files: list[tuple[str, bytes]], root: Path | None) -> tuple[dict[str, Any], dict[str, str]]:
    """``data`` (read from ``label``) with what it extends merged under it; see ``resolve``."""
    if label in seen:
        raise PresetError(f"extends loops back: {' -> '.join((*seen, label))}", label, "extends")
    if len(seen) >= MAX_EXTENDS:
        raise PresetError(f"extends goes {len(seen)} files deep (at most {MAX_EXTENDS})", seen[0], "extends")
    origin = {key: label for key in data}
    origin[SELF] = label
    given = data.get("patterns")
    raw_patterns: dict[str, Any] = given if isinstance(given, dict) else {}
    for key in raw_patterns:
        origin[f"patterns.{key}"] = label
    if isinstance(data.get("table"), dict) and "start_points" in data["table"]:
        origin["table.start_points"] = label
    disabled = [(pid, label) for pid, entry in raw_patterns.items() if entry is False]
    parent = data.get("extends")
    if parent is None:
        out = {**data, DISABLED: disabled}
        if "id" not in data and not label.startswith("<"):  # a file's id defaults to its name
            out["id"] = Path(label).stem
        if disabled:
            out["patterns"] = {k: v for k, v in raw_patterns.items() if v is not False}
        return out, origin
    if not isinstance(parent, str):
        raise PresetError(f"extends must be a preset id or a file path, not {shown(parent)}", label, "extends",
                          value=parent)
    try:
        base, base_origin = resolve(parent, folder, (*seen, label), files, root)
    except PresetError as exc:
        if exc.file is None:  # the parent itself could not be found: say who named it
            raise PresetError(str(exc).removeprefix("preset: "), label, "extends", value=parent) from None
        raise
    merged = {k: v for k, v in base.items() if k not in ("id", "name", "source")}
    merged[DISABLED] = [*base.get(DISABLED, []), *disabled]
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
    merged_origin[SELF] = label
    if "id" not in data:
        merged["id"] = Path(label).stem
    return merged, merged_origin


def existing_folder(path: str | Path, what: str) -> Path:
    """``path`` as an existing folder, resolved; else a PresetError naming ``what``."""
    try:
        found = Path(path).resolve(strict=True)
    except (OSError, ValueError, RuntimeError, TypeError):
        raise PresetError(f"no folder {shown(str(path))}", None, what, value=str(path)) from None
    if not found.is_dir():
        raise PresetError(f"no folder {shown(str(path))}", None, what, value=str(path))
    return found
