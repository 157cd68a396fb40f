"""A hand in play under a preset: tiles away, waits with their value, discards.

``analyse`` answers what a table tells a player: how far the hand is from
complete (every shape the preset allows), what it waits on, how many copies
of each wait are still unseen, and what each wait is worth on a discard and
on a self-draw, with the reason when a complete hand cannot be declared.
For a hand about to discard it lists each discard that leaves it waiting,
ranked by the unseen copies that would win, then by value.
"""
from __future__ import annotations

from typing import Any, Literal

from hkcore import core
from hkcore.engine import INTERNED, CompiledPreset, compiled_for
from hkcore.errors import HandError, TileError
from hkcore.models import Position
from hkcore.preset import Preset
from hkcore.tiles import TILES, copies_used, parse_tiles
from hkcore.values import Value, trusted


class WaitValue(Value):
    """What completing on a wait is worth: faan (or points), winnable, why not."""

    faan: int
    winnable: bool
    reason: str | None = None


class Wait(Value):
    """One tile the hand waits on."""

    tile: str
    unseen: int
    on_discard: WaitValue
    on_self_draw: WaitValue


class DiscardOption(Value):
    """A discard that leaves the hand waiting, with those waits."""

    discard: str
    waits: list[Wait]
    unseen: int
    winnable_unseen: int


class Analysis(Value):
    """A hand in play under one preset.

    ``waits`` is filled for a waiting hand (13 - 3k tiles), ``discards`` for
    a hand about to discard (14 - 3k), best first: most unseen copies that
    would win (on a discard or a self-draw), then the highest self-draw
    value, then most unseen copies, then tile order.
    """

    preset: str
    unit: Literal["faan", "points"]
    tiles: str
    tiles_away: int
    waiting: bool
    waits: list[Wait] = []  # noqa: RUF012 - a pydantic field
    discards: list[DiscardOption] = []  # noqa: RUF012 - a pydantic field


def analyse(hand: Any, preset: str | Preset = "bga-old-style", visible: str = "") -> Analysis:
    """Analyse a hand that has not won yet (see the module docstring).

    ``hand`` is a ``Position``, a dict (the hand JSON without the win), or
    compact notation; ``visible`` is a tile string of what else is face up
    (ponds, other players' melds), for the unseen counts.
    """
    pos = hand if type(hand) is Position else Position.parse(hand)
    compiled = compiled_for(preset)
    if compiled.no_bonus and (pos.flowers or pos.seasons):
        compiled.check(pos)  # type: ignore[arg-type]
    private = pos.__pydantic_private__
    assert private is not None
    ctx = private["_kernel_ctx"]
    if compiled.fast and sum(ctx[0]) + 3 * len(ctx[1]) == 13:
        # one call: tiles away, the waits, and each wait scored both ways
        p = compiled.preset
        away, rows = compiled.kernel.analyse_waiting(ctx, "thirteen_orphans" in p.shapes)
        if visible:
            shown = _seen(pos, visible)
            rows = [(row[0], 4 - shown[row[0]], *row[2:]) for row in rows]
        interned = compiled.interned
        waits = []
        for row in rows:
            wait = interned.get(row)
            if wait is None:
                wait = _wait(compiled, row)
                if len(interned) < INTERNED:
                    interned[row] = wait
            waits.append(wait)
        return trusted(Analysis, {"preset": p.id, "unit": p.unit, "tiles": pos.tiles, "tiles_away": away,
                                  "waiting": away == 0, "waits": waits, "discards": []})
    seen = _seen(pos, visible)
    codes = tuple(m.code for m in pos.melds)
    k = len(codes)
    counts = list(pos.counts)
    if pos.waiting_size:
        away = _away(compiled, counts, codes, k)
        waits = _wait_values(compiled, pos, counts, codes, seen) if away == 0 else []
        return trusted(Analysis, {"preset": compiled.preset.id, "unit": compiled.preset.unit, "tiles": pos.tiles,
                                  "tiles_away": away, "waiting": away == 0, "waits": waits, "discards": []})
    away = _away(compiled, counts, codes, k)
    options = []
    for d in range(34):
        if not counts[d]:
            continue
        counts[d] -= 1
        if _away(compiled, counts, codes, k) == 0:
            left = _position(pos, counts)
            ws = _wait_values(compiled, left, counts, codes, seen)
            unseen = sum(w.unseen for w in ws)
            good = sum(w.unseen for w in ws if w.on_discard.winnable or w.on_self_draw.winnable)
            options.append(DiscardOption(discard=TILES[d].code, waits=ws, unseen=unseen, winnable_unseen=good))
        counts[d] += 1
    options.sort(key=lambda o: (-o.winnable_unseen, -max((w.on_self_draw.faan for w in o.waits), default=0),
                                -o.unseen, TILES.index(parse_tiles(o.discard)[0])))
    return Analysis(preset=compiled.preset.id, unit=compiled.preset.unit, tiles=pos.tiles, tiles_away=away,
                    waiting=away <= 0, discards=options)


def _seen(pos: Position, visible: str) -> list[int]:
    """Copies of each tile the player can see: hand, melds and ``visible``."""
    seen = copies_used([m.code for m in pos.melds], pos.counts)
    try:
        shown = parse_tiles(visible) if visible else []
    except TileError as exc:
        raise HandError(f"visible: {exc}", "visible", visible) from None
    for t in shown:
        if t.is_bonus:
            continue
        seen[t.index] += 1
        if seen[t.index] > 4:
            raise HandError(f"visible: {t} seen {seen[t.index]} times counting the hand and its melds (at most 4)",
                            "visible", visible)
    return seen


def _away(compiled: CompiledPreset, counts: list[int], codes: tuple[int, ...], k: int) -> int:
    return core.tiles_away_of_counts(counts, codes, k, compiled.shape_set)


def _waits(compiled: CompiledPreset, counts: list[int], codes: tuple[int, ...], k: int) -> list[int]:
    return core.waits_of_counts(counts, codes, k, compiled.shape_set)


def _position(pos: Position, counts: list[int]) -> Position:
    """``pos`` with these concealed counts (already checked by the caller)."""
    tiles = "".join(TILES[t].code * c for t, c in enumerate(counts) if c)
    return Position.model_validate({**pos.model_dump(), "tiles": tiles})


def _wait_values(compiled: CompiledPreset, pos: Position, counts: list[int], codes: tuple[int, ...],
                 seen: list[int]) -> list[Wait]:
    k = len(codes)
    waits = _waits(compiled, counts, codes, k)
    values: dict[int, tuple[WaitValue, WaitValue]] = {}
    if compiled.kernel is not None and not compiled.extra_shapes and not compiled.python_entries:
        for t, on_discard, on_self in compiled.kernel.score_waits(pos.kernel_context, waits):
            values[t] = (_value(compiled, on_discard), _value(compiled, on_self))
    else:
        for t in waits:
            pair = []
            for self_draw in (False, True):
                r = compiled.score(pos.with_tile(TILES[t].code, self_draw=self_draw))
                pair.append(WaitValue(faan=r.faan, winnable=r.winnable, reason=r.reason))
            values[t] = (pair[0], pair[1])
    return [trusted(Wait, {"tile": TILES[t].code, "unseen": max(0, 4 - seen[t]), "on_discard": values[t][0],
                           "on_self_draw": values[t][1]})
            for t in waits]


def _wait(compiled: CompiledPreset, row: tuple[int, ...]) -> Wait:
    t, unseen, d_capped, d_below, s_capped, s_below = row
    return trusted(Wait, {"tile": _CODES[t], "unseen": max(0, unseen),
                          "on_discard": _value(compiled, (d_capped, 0, d_below)),
                          "on_self_draw": _value(compiled, (s_capped, 0, s_below))})


_CODES = tuple(t.code for t in TILES)


def _value(compiled: CompiledPreset, raw: tuple[int, int, int] | None) -> WaitValue:
    if raw is None:  # pragma: no cover - waits always complete the hand
        return WaitValue(faan=0, winnable=False, reason="not a complete hand")
    capped, _uncapped, below = raw
    winnable = capped >= compiled.minimum or bool(below)
    return trusted(WaitValue, {"faan": capped, "winnable": winnable,
                               "reason": None if winnable else compiled.not_winnable(capped)})
