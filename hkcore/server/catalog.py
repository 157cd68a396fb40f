"""The presets one server knows (``ServerPresets``), and the dependency that gives them to an endpoint."""
from __future__ import annotations

import copy
import importlib.metadata
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Annotated, Any

from fastapi import Depends, Request

from hkcore.errors import shown
from hkcore.preset import Preset, PresetError, builtin_ids, is_path, load_preset, nearest, toml_data
from hkcore.registry import ENTRY_POINT_GROUP, current
from hkcore.server.problems import guard


def unsaid(exc: PresetError, path: str, ref: str) -> PresetError:
    """``exc`` with the server-side ``path`` it names told as ``ref``, the id the request gave."""
    if path not in str(exc) and exc.value != path and exc.file != path:
        return exc
    out = copy.copy(exc)
    out.args = (str(exc).replace(path, ref),)
    out.value = ref if exc.value == path else exc.value
    out.file = ref if exc.file == path else exc.file
    return out


def is_toml(ref: str) -> bool:
    """Whether a preset named in a request is TOML text (read and compiled for the request) rather than an id."""
    return "\n" in ref or "=" in ref


def package_key(name: str) -> str:
    """A package name as pip compares them (PEP 503: case and runs of ``-_.`` do not count)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def offered_packages() -> frozenset[str]:
    """The packages (``package_key``) whose plugins this process has loaded:
    the ones ``hkscore plugins`` lists from installed entry points, working."""
    cat = current().catalogue
    return frozenset(package_key(ep.dist.name) for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
                     if ep.dist is not None and ep.name in cat.available and ep.name not in cat.broken_plugins)


@dataclass(frozen=True)
class ServerPresets:
    """The presets one server knows: the built-in ones and those of its
    presets folder (read once, when the server starts), by id. A preset
    given in a request as TOML text may extend these only: a built-in id, a
    folder preset's id, or a file inside the folder; it reads no other file;
    its ``requires`` may name only the packages of the plugins the server
    offers (``offered``), so that a client learns nothing of what else is
    installed."""

    folder: Path | None
    builtin: tuple[str, ...]
    local: Mapping[str, Preset]
    files: Mapping[str, str]
    offered: frozenset[str] = frozenset()

    @classmethod
    def load(cls, folder: str | Path | None) -> ServerPresets:
        """The built-in presets and those of ``folder``; an id that is taken twice, or that a request
        could not name as an id (it holds ``=`` or a line break, as TOML text does), is refused."""
        builtin = tuple(builtin_ids())
        offered = offered_packages()
        if folder is None:
            return cls(None, builtin, MappingProxyType({}), MappingProxyType({}), offered)
        root = Path(folder).resolve()
        if not root.is_dir():
            raise PresetError(f"no folder {shown(str(folder))}", None, "presets")
        local: dict[str, Preset] = {}
        files: dict[str, str] = {}
        for path in sorted(root.glob("*.toml")):
            preset = load_preset(path, root=root)
            if is_toml(preset.id):
                raise PresetError(f"preset id {shown(preset.id)}: an id holds no '=' and no line break "
                                  "(a request would read it as TOML text)", str(path), "id",
                                  value=preset.id)
            if preset.id in builtin or preset.id in local:
                raise PresetError(f"preset id {preset.id!r} is already taken "
                                  f"({'built in' if preset.id in builtin else files[preset.id]})", str(path), "id")
            local[preset.id] = preset
            files[preset.id] = str(path)
        return cls(root, builtin, MappingProxyType(local), MappingProxyType(files), offered)

    def ids(self) -> list[str]:
        """Every id: the built-in ones, then the folder's."""
        return [*self.builtin, *self.local]

    def by_id(self, ref: str, field: str = "preset") -> Preset:
        """A preset by its id (never read as TOML text)."""
        if ref in self.builtin:
            return load_preset(ref)
        found = self.local.get(ref)
        if found is not None:
            return found
        ids = self.ids()
        raise PresetError(f"unknown preset {shown(ref)}{nearest(ref, ids)}; presets here: {', '.join(ids)}",
                          None, field, value=ref)

    def get(self, ref: Any, field: str = "preset") -> Preset:
        """A preset by id, or from TOML text (``ref`` holding a newline or ``=``)."""
        if not isinstance(ref, str):
            raise PresetError(f"expected a preset id or TOML text, got {shown(ref)}", None, field, value=ref)
        if is_toml(ref):
            return self.custom(ref, field)
        return self.by_id(ref, field)

    def custom(self, text: str, field: str = "preset") -> Preset:
        """A preset from TOML text sent in a request (see the class)."""
        data = toml_data(text)
        self.check_requires(data.get("requires"))
        parent = data.get("extends")
        if isinstance(parent, str) and parent in self.local:  # a folder preset, by its id
            data["extends"] = self.files[parent]
        elif isinstance(parent, str) and is_path(parent) and self.folder is None:
            raise PresetError(f"{shown(parent)}: presets may extend only a built-in preset or a file inside the "
                              "presets folder (this server has none)", "<toml>", "extends", value=parent)
        try:
            return load_preset(data, root=self.folder) if self.folder is not None else load_preset(data)
        except PresetError as exc:
            if isinstance(parent, str) and parent in self.local:  # the folder's path is not the client's to see
                exc = unsaid(exc, self.files[parent], parent)
            if exc.file is None and exc.path is not None and not exc.path.startswith(field):
                raise PresetError(str(exc), "<toml>", exc.path, value=exc.value) from None
            raise exc from None

    def check_requires(self, requires: Any) -> None:
        """A request's ``requires`` names only offered packages: anything else,
        installed or not, a package name or not, is one answer (a list that is
        not of strings is left to the preset reader)."""
        if not isinstance(requires, list):
            return
        for i, dist in enumerate(requires):
            if isinstance(dist, str) and package_key(dist) not in self.offered:
                packages = ", ".join(sorted(self.offered)) or "none"
                raise PresetError(f"{shown(dist)} is not the package of a plugin this server offers "
                                  f"(the packages of its plugins: {packages})", "<toml>", f"requires[{i}]",
                                  value=dist)

    def summary(self, preset: Preset) -> dict[str, Any]:
        """The fields of a ``PresetListing`` of ``preset``."""
        return {"id": preset.id, "name": preset.name, "unit": preset.unit, "minimum": preset.minimum,
                "cap": preset.cap, "tiles": preset.tiles,
                "origin": "built-in" if preset.id in self.builtin and preset.file == f"{preset.id}.toml"
                else "presets folder"}

    def named(self, ref: Any, field: str, listed: bool = False) -> Preset:
        """The preset ``ref`` names, its error an ApiError naming ``field`` (for an item of a list, a
        custom preset's TOML path under it: ``preset.1.toml.minimum``)."""
        return guard(field if listed else None, lambda: self.get(ref, field))


def app_presets(request: Request) -> ServerPresets:
    """The application's presets (``app.state.presets``, set by ``create_app``). ``POST /score`` calls it
    itself: as a FastAPI dependency (``Known``) it costs a third of that endpoint's own time."""
    return request.app.state.presets  # type: ignore[no-any-return]


async def presets_of(request: Request) -> ServerPresets:
    """The dependency behind ``Known``: the application's presets."""
    return app_presets(request)


#: an endpoint's argument that receives the application's presets
Known = Annotated[ServerPresets, Depends(presets_of)]
