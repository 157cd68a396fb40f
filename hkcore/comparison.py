"""The same hand under several presets, side by side."""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, model_validator

from hkcore.engine import compile_preset
from hkcore.errors import HkcoreError, shown
from hkcore.models import Hand
from hkcore.preset import Preset, PresetError, builtin_ids, load_preset
from hkcore.results import ScoreResult
from hkcore.tiles import SEATS
from hkcore.values import Value


def _absent(value: Any) -> bool:
    return value is None


class Column(Value):
    """One preset's verdict: its id with its result, or with the error it
    gave for this hand (its message, type and field, as a list of results
    from ``POST /score`` gives them); what it does not hold is left out of
    the dump."""

    # what the column does not hold is left out of its dump: not required there
    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    preset: str
    result: ScoreResult | None = Field(None, exclude_if=_absent)
    error: str | None = Field(None, exclude_if=_absent)
    type: str | None = Field(None, exclude_if=_absent, description="the error's type (HandError, PresetError, ...)")
    field: str | None = Field(None, exclude_if=_absent, description="the field (or TOML path) the error names")

    @model_validator(mode="after")
    def _one_of(self) -> Column:
        if (self.result is None) == (self.error is None):
            raise ValueError("a column holds a result or an error (exactly one)")
        if self.result is not None and (self.type is not None or self.field is not None):
            raise ValueError("a column with a result holds no error type or field")
        return self



class Comparison(Value):
    """A hand scored under several presets: ``columns`` (``presets`` in its
    dump), one per preset in the order asked."""

    hand: Hand
    columns: tuple[Column, ...] = Field(alias="presets")

    def pattern_rows(self) -> list[str]:
        """Pattern ids met under any preset, in the order they first appear."""
        rows: list[str] = []
        for col in self.columns:
            for p in col.result.patterns if col.result else ():
                if p.id not in rows:
                    rows.append(p.id)
        return rows

    def grid(self) -> list[list[str]]:
        """The table's cells: a header (``pattern`` and the preset ids), a row
        per pattern, then total, winnable and what each seat pays; an
        ``error`` row and a ``cannot win`` row where any preset has one."""
        heads = [c.preset for c in self.columns]
        rows: list[list[str]] = [["pattern", *heads]]
        for pid in self.pattern_rows():
            row = [pid]
            for col in self.columns:
                hit = next((p for p in col.result.patterns if p.id == pid), None) if col.result else None
                row.append("" if hit is None else str(hit.faan))
            rows.append(row)
        total = ["total"]
        winnable = ["winnable"]
        pay: dict[str, list[str]] = {s: [f"pays {s}"] for s in SEATS}
        for col in self.columns:
            r = col.result
            if r is None:
                total.append("error")
                winnable.append("-")
                for s in pay:
                    pay[s].append("")
                continue
            capped = f" ({r.uncapped})" if r.uncapped != r.faan else ""
            total.append(f"{r.faan}{capped} {r.unit}")
            winnable.append("yes" if r.winnable else "no")
            for s in pay:
                pay[s].append("-" if r.payments is None else f"{r.payments[s]:+d}")
        rows += [total, winnable, *pay.values()]
        if any(c.error for c in self.columns):
            rows.append(["error", *(c.error or "" for c in self.columns)])
        if any(c.result and c.result.reason for c in self.columns):
            rows.append(["cannot win", *((c.result.reason or "") if c.result else "" for c in self.columns)])
        return rows

    def table(self) -> str:
        """Patterns as rows, presets as columns, then total, winnable, payments;
        errors and reasons a hand cannot win below."""
        body = [row for row in self.grid() if row[0] not in ("error", "cannot win")]  # those go below
        body.insert(len(self.pattern_rows()) + 1, ["-" * 4] + ["" for _ in self.columns])
        widths = [max(len(r[i]) for r in body) for i in range(len(body[0]))]
        lines = ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths)))
                 for r in body]
        errors = [f"{c.preset}: {c.error}" for c in self.columns if c.error]
        if errors:
            lines.append("")
            lines += ["error under " + e for e in errors]
        notes = [f"{c.preset}: {c.result.reason}" for c in self.columns if c.result and c.result.reason]
        if notes:
            lines.append("")
            lines += ["cannot win under " + n for n in notes]
        return "\n".join(lines)


#: the most presets one comparison scores under
_MOST = 64


def preset_refs(presets: Any, what: str) -> list[Any]:
    """The presets asked for (default, or ``"all"``: every built-in one), at most ``_MOST``."""
    if presets is None:
        refs: Sequence[Any] = builtin_ids()
    elif isinstance(presets, (str, Path, Preset)):
        refs = [presets]
    else:
        try:
            refs = list(islice(presets, _MOST + 1))
        except TypeError:
            raise PresetError(f"expected preset ids, paths or Presets, got {shown(presets)}", None,
                              "presets") from None
        if len(refs) > _MOST:
            raise PresetError(f"more than {_MOST} presets in one {what}", None, "presets")
    return [r for ref in refs for r in (builtin_ids() if ref == "all" else [ref])]


def compare(hand: Any, presets: Iterable[str | Preset] | None = None) -> Comparison:
    """Score ``hand`` under each preset (default, or ``"all"``: every built-in one).

    A preset that rejects the hand (bonus tiles at a 136-tile table, say)
    gives its error in its column instead of stopping the comparison.
    """
    h = Hand.parse(hand)
    refs = preset_refs(presets, "comparison")
    columns = []
    for ref in refs:
        preset = load_preset(ref)
        try:
            columns.append(Column(preset=preset.id, result=compile_preset(preset).score(h)))
        except HkcoreError as exc:
            columns.append(Column(preset=preset.id, error=str(exc), type=type(exc).__name__,
                                  field=getattr(exc, "field", None) or getattr(exc, "path", None)))
    return Comparison(hand=h, presets=tuple(columns))
