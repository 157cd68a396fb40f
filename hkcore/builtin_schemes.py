"""The built-in payment schemes, registered exactly like a plugin's (see
:mod:`hkcore.payments` for what each one pays)."""
from __future__ import annotations

from hkcore.hookspecs import hookimpl
from hkcore.payments import (
    BasePointsParams,
    FaanTableParams,
    PaymentScheme,
    PointsParams,
    SpicyParams,
    full_spicy_amount,
    half_spicy_amount,
    settle_base_points,
    settle_by_roles,
    settle_faan_table,
    settle_points,
)

BUILTIN_SCHEMES = (
    PaymentScheme("base_points", "base points by faan; self-draw 2b each, discard 2b + b + b, robbed kong 6b",
                  BasePointsParams, settle_base_points, symmetric=True, covers=lambda p: len(p.table) - 1),
    PaymentScheme("faan_table", "amount by faan; self-draw t each, discard: discarder alone pays 2t",
                  FaanTableParams, settle_faan_table, symmetric=True, covers=lambda p: p.first_faan + len(p.table) - 1),
    PaymentScheme("points", "points plus a fixed amount; self-draw fixed+v each, discard fixed+v and fixed, fixed",
                  PointsParams, settle_points, symmetric=True),
    PaymentScheme("full_spicy", "全辣上: b = base x 2^faan up to the cap; paid by roles as base_points",
                  SpicyParams, lambda win, p: settle_by_roles(win, full_spicy_amount(win.total, p), p), symmetric=True),
    PaymentScheme("half_spicy", "半辣上: b doubles to 4 faan, then 16, 24, 32, 48, 64 ... x base up to the cap; "
                  "paid by roles as base_points", SpicyParams,
                  lambda win, p: settle_by_roles(win, half_spicy_amount(win.total, p), p), symmetric=True),
)


@hookimpl
def hkcore_payment_schemes() -> list[PaymentScheme]:
    """The payment schemes of the built-in presets."""
    return list(BUILTIN_SCHEMES)
