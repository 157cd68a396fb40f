"""Liability (包): the seat that fed a dangerous set pays for the win.

RULES.md "Payments" (Just Cards): a player who fed the winner's fourth
declared set, or third dragon set, pays all three shares if the winner later
self-draws; a newer liability replaces an older one; discard wins are paid by
the discarder alone. Melds are read in declaration order; ``from`` on a meld
names the seat that fed it; a concealed kong was fed by nobody.

Options (``[plugins.liability]`` in a preset):

- ``wind_set`` (0): 3 or 4 makes the seat that fed the winner's third (or
  fourth) wind set liable too, protecting the four-winds hands as the third
  dragon set protects big three dragons (a common variant; with four sets,
  feeding the fourth wind set is already feeding the fourth declared set
  unless a wind set was declared as a concealed kong);
- ``liable_pays_discard`` (false): on a discard win the liable seat pays
  what the discarder would have paid, instead of the discarder.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hkcore.hookspecs import hookimpl
from hkcore.payments import PaymentAdjustment, Win


def liable_seat(hand: Any, options: Mapping[str, Any]) -> str | None:
    """The seat liable for ``hand``'s win, or None."""
    liable = None
    sets = dragons = winds = 0
    for meld in hand.melds:
        kind, t = divmod(meld.code, 34)
        sets += 1
        is_dragon = kind != 0 and t >= 31
        is_wind = kind != 0 and 27 <= t <= 30
        dragons += is_dragon
        winds += is_wind
        if meld.from_ is None:
            continue
        if sets == 4 or (is_dragon and dragons == 3) or (
                is_wind and options["wind_set"] and winds == options["wind_set"]):
            liable = meld.from_
    return liable


def adjust(hand: Any, win: Win, payments: dict[str, int], options: Mapping[str, Any]) -> dict[str, int]:
    """Move the losers' payments onto the liable seat where the rule says so."""
    if len(hand.melds) < 3 or not (win.self_draw or options["liable_pays_discard"]):
        return payments  # no third dragon, wind or fourth set was fed; or nothing to move
    seat = liable_seat(hand, options)
    if seat is None or seat == win.winner:
        return payments
    if win.self_draw:
        payers = [s for s in payments if s != win.winner]
    elif options["liable_pays_discard"] and win.discarder is not None:
        payers = [win.discarder]
    else:
        return payments
    out = dict(payments)
    total = 0
    for s in payers:
        total += -out[s]
        out[s] = 0
    out[seat] -= total
    return out


LIABILITY = PaymentAdjustment(
    "liability",
    "the seat that fed the fourth declared set or the third dragon set pays all of a self-draw",
    adjust,
    {"wind_set": (0, 3, 4), "liable_pays_discard": False},
    min_declared_sets=3,  # a third dragon or wind set, or a fourth set, was fed
)


@hookimpl
def hkcore_payment_adjustments() -> list[PaymentAdjustment]:
    """The liability rule."""
    return [LIABILITY]
