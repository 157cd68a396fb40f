"""Payments for a win: the preset's payment scheme, then its payment
adjustments, each plugin's answer checked (a PluginError names the plugin)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from hkcore.errors import shown
from hkcore.models import Hand
from hkcore.payments import Win, role_amounts
from hkcore.preset import Preset, PresetError
from hkcore.registry import Catalogue, checked_payments, raised


class Settlement:
    """How a preset settles a win: its scheme with its checked parameters
    (None without a payment table) and its adjustments with their options.
    Immutable once built.

    ``owner`` maps ("payment scheme" | "payment adjustment", id) to the
    plugin that provides it, for errors.
    """

    def __init__(self, preset: Preset, cat: Catalogue, owner: Mapping[tuple[str, str], str]) -> None:
        self.owner = owner
        self.scheme = None
        self.params: Any = None
        if preset.payments is not None:
            self.scheme = cat.schemes[preset.payments["scheme"]]
            try:
                self.params = self.scheme.params.model_validate(
                    {k: v for k, v in preset.payments.items() if k != "scheme"})
            except ValidationError as exc:
                raise PresetError(f"payments: {shown(str(exc))}", preset.file or preset.id, "payments") from None
        self.adjustments = tuple((cat.adjustments[name], opts) for name, opts in preset.plugins.items())
        #: the fewest declared sets at which some adjustment applies
        self.adjust_min_melds = min((a.min_declared_sets for a, _ in self.adjustments), default=0)

    def role_amounts(self, total: int) -> tuple[int, int, int, int, int]:
        """What each role pays at ``total`` (a symmetric scheme only: see ``hkcore.payments.role_amounts``)."""
        return role_amounts(self.scheme_settle, total)

    def scheme_settle(self, win: Win) -> dict[str, int]:
        """The scheme's payments for ``win``, checked."""
        assert self.scheme is not None
        plugin, what = self.owner[("payment scheme", self.scheme.id)], f"scheme {self.scheme.id!r}"
        try:
            pays = self.scheme.settle(win, self.params)
        except Exception as exc:  # noqa: BLE001 - a plugin's scheme may raise anything: named as a PluginError
            raise raised(plugin, "hkcore_payment_schemes", what, exc) from None
        return checked_payments(pays, plugin, "hkcore_payment_schemes", what)

    def adjust(self, hand: Hand, capped: int, instant: bool, payments: dict[str, int]) -> dict[str, int]:
        """The adjustments on payments already settled for ``hand`` won at ``capped``."""
        self_draw = hand.self_draw or instant
        win = Win(hand.seat_wind, capped, self_draw, None if self_draw else hand.discarder,
                  hand.robbing_kong and not self_draw)
        return self.apply_adjustments(hand, win, payments)

    def apply_adjustments(self, hand: Hand, win: Win, payments: dict[str, int]) -> dict[str, int]:
        """Each adjustment in turn on ``payments``, where the hand has its declared sets."""
        for adjustment, options in self.adjustments:
            if len(hand.melds) >= adjustment.min_declared_sets:
                plugin, what = self.owner[("payment adjustment", adjustment.id)], f"adjustment {adjustment.id!r}"
                try:
                    found = adjustment.adjust(hand, win, dict(payments), options)
                except Exception as exc:  # noqa: BLE001 - a plugin's adjustment may raise anything: named as a PluginError
                    raise raised(plugin, "hkcore_payment_adjustments", what, exc) from None
                payments = checked_payments(found, plugin, "hkcore_payment_adjustments", what)
        return payments

    def settle_total(self, hand: Hand, capped: int, instant: bool) -> tuple[dict[str, int] | None, str | None]:
        """Payments for a winnable hand counted at ``capped``, and a note; ``instant``: a
        bonus-tile instant win (paid as a self-draw)."""
        self_draw = hand.self_draw or instant
        if not self_draw and hand.discarder is None:
            who = "the kong-maker" if hand.robbing_kong else "the discarder"
            return None, f"payments need {who}: give 'discarder'"
        win = Win(hand.seat_wind, capped, self_draw, None if self_draw else hand.discarder,
                  hand.robbing_kong and not self_draw)
        # a scheme's answer depends on the win alone: settle each distinct win once
        payments = self.apply_adjustments(hand, win, self.scheme_settle(win))
        return payments, ("paid as a self-draw" if instant else None)
