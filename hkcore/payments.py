"""Payment schemes: who pays whom for a winning hand.

A scheme is registered through the ``hkcore_payment_schemes`` hook (the
built-in ones by :mod:`hkcore.builtin_schemes`); a preset's
``[payments]`` table names it (``scheme = "base_points"``) and gives its
parameters. ``settle`` returns the net change of every seat (E, S, W, N),
summing to zero.

Built-in schemes:

``base_points`` (Board Game Arena): base points b = ``table[faan]``.
    Self-draw: each other seat pays ``self_draw_each`` x b (2b); discard: the
    discarder pays ``discarder`` x b (2b), the other two ``others`` x b (b);
    robbing the kong: the kong-maker alone pays ``robbing_kong`` x b (6b).
``faan_table`` (Just Cards, classical): t = ``table[faan - first_faan]``
    (faan above the table use its last entry). Self-draw: each opponent pays t;
    discard (and a robbed kong): the discarder alone pays ``discarder_multiple`` x t.
``points`` (PlayingCards.io): v = the hand's points. Self-draw: each player
    pays ``fixed`` + v; discard (and a robbed kong): the discarder pays
    ``fixed`` + v, the other two ``fixed`` each.
``full_spicy`` (全辣上): b = ``base`` x 2^faan, faan above ``cap`` counting as
    ``cap``; paid by the same roles as ``base_points`` (self-draw 2b each,
    discard 2b + b + b, robbed kong 6b by default).
``half_spicy`` (半辣上): b = ``base`` x 1, 2, 4, 8, 16 up to 4 faan, then one
    doubling every two faan with the half steps between: 24, 32, 48, 64, 96,
    128, 192, 256, 384 ... (BGA's table is half-spicy with base 1, cap 13);
    paid by roles as ``base_points``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from hkcore.tiles import SEATS


class Win(NamedTuple):
    """What a payment scheme needs to know about a win.

    ``discarder`` is the seat that threw the winning tile, or the kong-maker
    when ``robbing_kong``; None on a self-draw. ``total`` is the counted
    total after the cap (faan, or points).
    """

    winner: str
    total: int
    self_draw: bool
    discarder: str | None
    robbing_kong: bool


#: an amount a payment table may hold (whole points, 0..MAX_AMOUNT), and a multiple of one
MAX_AMOUNT = 1_000_000
Amount = Annotated[int, Field(strict=True, ge=0, le=MAX_AMOUNT)]
Multiple = Annotated[int, Field(strict=True, ge=0, le=1000)]


class SchemeParams(BaseModel):
    """Base of every scheme's parameters: unknown keys are refused.

    ``short_table``: the table really stops below the preset's cap (hands
    above its last entry are paid that entry); without it such a preset is
    refused.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    short_table: bool = Field(default=False, strict=True)


@dataclass(frozen=True)
class PaymentScheme:
    """A named way to settle a win. ``params`` validates the preset's table."""

    id: str
    doc: str
    params: type[SchemeParams]
    settle: Callable[[Win, Any], dict[str, int]]
    #: what a seat pays depends only on its role (winner, discarder, other) and
    #: the total, never on which seat it is: the scoring kernel may then settle
    #: from a table of role amounts instead of calling ``settle``
    symmetric: bool = False
    #: the highest total the parameters pay distinctly (a table's last entry),
    #: or None when every total is paid its own amount
    covers: Callable[[Any], int | None] | None = None


@dataclass(frozen=True)
class PaymentAdjustment:
    """A rule that moves payments after the scheme has settled (liability).

    ``adjust(hand, win, payments, options)`` returns the new net changes;
    ``options`` maps each option to its default, as for patterns.
    ``min_declared_sets``: the adjustment never changes the payments of a
    hand with fewer declared sets, and is not called for one.
    """

    id: str
    doc: str
    adjust: Callable[[Any, Win, dict[str, int], Mapping[str, Any]], dict[str, int]]
    options: Mapping[str, Any] = field(default_factory=dict)
    min_declared_sets: int = 0


def role_amounts(settle: Callable[[Win], Mapping[str, int]], total: int) -> tuple[int, int, int, int, int]:
    """What each role pays at ``total`` under a symmetric scheme's ``settle``
    (a win -> payments): (each on a self-draw, the discarder, each other seat
    on a discard, the kong-maker, each other seat on a robbed kong)."""
    sd = settle(Win("E", total, True, None, False))
    d = settle(Win("E", total, False, "S", False))
    rob = settle(Win("E", total, False, "S", True))
    return -sd["S"], -d["S"], -d["W"], -rob["S"], -rob["W"]


def _net(win: Win, pays: Mapping[str, int]) -> dict[str, int]:
    out = dict.fromkeys(SEATS, 0)
    for seat, amount in pays.items():
        out[seat] -= amount
        out[win.winner] += amount
    return out


def _others(win: Win) -> list[str]:
    return [s for s in SEATS if s != win.winner]


class BasePointsParams(SchemeParams):
    table: list[Amount] = Field(min_length=1, max_length=1001)
    self_draw_each: Multiple = 2
    discarder: Multiple = 2
    others: Multiple = 1
    robbing_kong: Multiple = 6


def settle_base_points(win: Win, p: BasePointsParams) -> dict[str, int]:
    """``base_points``: b = ``table[faan]``, paid by roles (see ``settle_by_roles``)."""
    return settle_by_roles(win, p.table[min(win.total, len(p.table) - 1)], p)


class FaanTableParams(SchemeParams):
    first_faan: Annotated[int, Field(strict=True, ge=0, le=1000)] = 0
    table: list[Amount] = Field(min_length=1, max_length=1001)
    discarder_multiple: Multiple = 2


def settle_faan_table(win: Win, p: FaanTableParams) -> dict[str, int]:
    """``faan_table``: t each on a self-draw, the discarder alone pays ``discarder_multiple`` x t."""
    t = p.table[max(0, min(win.total - p.first_faan, len(p.table) - 1))]
    if win.self_draw:
        return _net(win, {s: t for s in _others(win)})
    assert win.discarder is not None
    return _net(win, {win.discarder: p.discarder_multiple * t})


class PointsParams(SchemeParams):
    fixed: Amount = 8


def settle_points(win: Win, p: PointsParams) -> dict[str, int]:
    """``points``: ``fixed`` + v each on a self-draw; on a discard the discarder adds v."""
    v = win.total
    if win.self_draw:
        return _net(win, {s: p.fixed + v for s in _others(win)})
    assert win.discarder is not None
    return _net(win, {s: p.fixed + (v if s == win.discarder else 0) for s in _others(win)})


class SpicyParams(SchemeParams):
    base: Annotated[int, Field(strict=True, ge=1, le=MAX_AMOUNT)] = 1
    cap: Annotated[int, Field(strict=True, ge=0, le=30)] = 13
    self_draw_each: Multiple = 2
    discarder: Multiple = 2
    others: Multiple = 1
    robbing_kong: Multiple = 6


def full_spicy_amount(faan: int, p: SpicyParams) -> int:
    """全辣上: the base doubles with every faan, up to the cap."""
    amount: int = p.base * 2 ** min(faan, p.cap)  # int ** int is typed Any (a negative power is a float)
    return amount


def half_spicy_amount(faan: int, p: SpicyParams) -> int:
    """半辣上: doubles up to 4 faan, then once every two faan with the half
    steps between (16, 24, 32, 48, 64 ... times the base), up to the cap."""
    f = min(faan, p.cap)
    if f <= 4:
        amount: int = p.base * 2 ** f
        return amount
    step, odd = divmod(f - 4, 2)
    amount = p.base * 2 ** (4 + step)
    return amount * 3 // 2 if odd else amount


def settle_by_roles(win: Win, b: int, p: Any) -> dict[str, int]:
    """Net changes when each role pays a multiple of ``b``: ``self_draw_each``
    on a self-draw, ``discarder`` and ``others`` on a discard, the kong-maker
    ``robbing_kong`` alone on a robbed kong (``p`` holds the multiples)."""
    if win.self_draw:
        return _net(win, {s: p.self_draw_each * b for s in _others(win)})
    assert win.discarder is not None
    if win.robbing_kong:
        return _net(win, {win.discarder: p.robbing_kong * b})
    return _net(win, {s: (p.discarder if s == win.discarder else p.others) * b for s in _others(win)})
