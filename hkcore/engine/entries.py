"""What both evaluators work on and return: a preset's pattern entries in
play (``Entry``), the counted outcome of one placement (``Outcome``), and
whether the compiled kernel detects a pattern itself (``native_code``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from hkcore import core
from hkcore.errors import shown
from hkcore.patterns import Pattern
from hkcore.preset import Preset, PresetError, pattern_worth
from hkcore.registry import Catalogue

#: the pattern scopes detected in each shape (a plugin's shape: ``OTHER_SHAPE_SCOPES``)
SCOPES = {
    "standard": ("sets", "hand", "bonus"),
    "bonus": ("bonus", "instant"),
}
OTHER_SHAPE_SCOPES = ("hand", "bonus")
#: the kernel's bit for each scope
SCOPE_BITS = {"sets": 1, "hand": 2, "bonus": 4, "instant": 8}
#: the shape names by the kernel's shape number
SHAPE_NAMES = ("standard", "thirteen_orphans", "bonus")


@dataclass(frozen=True)
class Entry:
    """A pattern in play under a compiled preset."""

    index: int
    pattern: Pattern
    id: str
    options: Mapping[str, Any]
    value: int | None
    by_count: tuple[int, ...] | None
    limit: int | None
    includes: frozenset[str]
    wins_below_minimum: bool
    adds_to_limit: bool
    #: bits of the ``WHEN`` conditions that must hold (0: none)
    when: int = 0

    def worth(self, count: int) -> int:
        """Faan for meeting the pattern ``count`` times (not for limits)."""
        return pattern_worth(self.value, self.by_count, count)

    def contribution(self, count: int) -> int:
        """What the pattern adds when listed in a result: its limit, 0 for a
        fallback, else its worth."""
        if self.limit is not None:
            return self.limit
        if self.pattern.fallback:
            return 0
        return self.worth(count)


def entries_in(entries: tuple[Entry, ...], shape: str) -> tuple[Entry, ...]:
    """The entries detected in ``shape``, in preset order."""
    scopes = SCOPES.get(shape, OTHER_SHAPE_SCOPES)
    return tuple(e for e in entries if e.pattern.scope in scopes)


class Outcome(NamedTuple):
    """The counted result of one placement: what both evaluators return."""

    capped: int
    uncapped: int
    limit: bool
    shape: str
    reading: tuple[int, ...]
    win_set: int
    below_minimum: bool
    listed: tuple[tuple[int, int, int], ...]  # (entry index, count, contribution), preset order


def better(best: Outcome | None, new: Outcome) -> Outcome:
    """The better of two outcomes (docs/rules.md ruling 2): the higher capped
    total, then the higher uncapped one, else the one found first."""
    if best is None or (new.capped, new.uncapped) > (best.capped, best.uncapped):
        return new
    return best


def native_code(pattern: Pattern) -> int:
    """The compiled kernel's code of ``pattern``'s native detector; 0 when it
    has none (``native`` unset or unknown to the kernel, or no compiled core):
    then the pattern's own ``detect`` scores it."""
    if pattern.native is None or core.compiled is None:
        return 0
    return int(core.compiled.NATIVE_CODES.get(pattern.native, 0))


def kernel_class() -> Any:
    """The compiled kernel's class, or None without the compiled core."""
    if core.compiled is None:
        return None
    return getattr(core.compiled, "Kernel", None)


def check_provided(preset: Preset, cat: Catalogue) -> None:
    """Every pattern, shape, scheme and adjustment the preset names is in the catalogue
    (a preset loaded before a plugin was unregistered may name one that is gone)."""
    wanted: list[tuple[str, Any, Mapping[str, Any]]] = [("pattern", r.id, cat.patterns) for r in preset.patterns]
    wanted += [("shape", sid, cat.shapes) for sid in preset.shapes]
    wanted += [("payment adjustment", name, cat.adjustments) for name in preset.plugins]
    if preset.payments is not None:
        wanted.append(("payment scheme", preset.payments.get("scheme"), cat.schemes))
    for kind, item, found in wanted:
        if item not in found:
            raise PresetError(f"{kind} {shown(item)} is not provided by any registered plugin (was its plugin "
                              "removed or reloaded since the preset was loaded?)", preset.file or preset.id, kind)
