"""What a preset makes of one pattern: ``PatternRule``."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator
from pydantic.dataclasses import dataclass

from hkcore.preset.errors import EMPTY, freeze, thaw
from hkcore.preset.schema import ENTRY_KEYS

#: a table read-only all the way down
Frozen = Annotated[Mapping[str, Any], AfterValidator(freeze)]


@dataclass(frozen=True)
class PatternRule:
    """What a preset makes of one pattern (a frozen pydantic dataclass: checked when made)."""

    id: str
    value: int | None = None
    by_count: tuple[int, ...] | None = None
    limit: int | None = None
    includes: tuple[str, ...] = ()
    wins_below_minimum: bool = False
    options: Frozen = dataclasses.field(default_factory=lambda: EMPTY)
    #: conditions that must all hold for the pattern to count (words of ``WHEN``, in its order)
    when: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash((self.id, self.value, self.by_count, self.limit, self.includes, self.when))

    def worth(self, count: int) -> int:
        """Faan (or points) for meeting the pattern ``count`` times (not for limits)."""
        return pattern_worth(self.value, self.by_count, count)

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


def pattern_worth(value: int | None, by_count: tuple[int, ...] | None, count: int) -> int:
    """Faan (or points) of a pattern of ``value`` or ``by_count`` met ``count`` times (not for limits)."""
    if by_count is not None:
        return by_count[min(count, len(by_count) - 1)]
    return (value or 0) * count
