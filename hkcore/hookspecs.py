"""The hooks through which plugins extend hkcore (project name ``hkcore``).

A plugin is a module or object with functions marked ``@hookimpl``. The
built-in patterns, shapes and payment schemes (``hkcore.builtin_patterns``,
``hkcore.builtin_shapes``, ``hkcore.builtin_schemes``) are registered exactly like a
third-party plugin; third-party plugins are found through the entry-point
group ``hkcore``. The built-in bots (``hkcore.table.players.builtin``) answer
``hkcore_bots`` the same way; the players' registry
(``hkcore.table.players.bots.bot_catalogue``) reads that hook. Every hook here is documented and tested
(tests/test_hooks.py checks both).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pluggy

from hkcore.patterns import Pattern
from hkcore.payments import PaymentAdjustment, PaymentScheme
from hkcore.shapes import Shape

PROJECT = "hkcore"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def hkcore_patterns() -> list[Pattern]:
    """Return the faan patterns this plugin provides.

    Each pattern has a stable id (unique across all plugins), English and
    Chinese names and a detector. Patterns carry no value: a preset names the
    ids it uses and says what each is worth. Called once per preset
    compilation, never while scoring.
    """


@hookspec
def hkcore_payment_schemes() -> list[PaymentScheme]:
    """Return the payment schemes this plugin provides.

    A scheme turns a winning result into the net change of each seat; a
    preset's ``[payments]`` table names a scheme by id and gives its
    parameters, which the scheme validates.
    """


@hookspec
def hkcore_payment_adjustments() -> list[PaymentAdjustment]:
    """Return the payment adjustments this plugin provides (liability, say).

    An adjustment changes who pays after the preset's scheme has settled a
    win. It is off unless a preset names it in ``plugins``; the preset's
    ``[plugins.ID]`` table sets its options. One that can only apply to
    hands with several declared sets says so in ``min_declared_sets``, and
    other hands are scored without calling it.
    """


@hookspec
def hkcore_shapes() -> list[Shape]:
    """Return the winning shapes this plugin provides (seven pairs, say).

    A shape says which readings a hand's concealed tiles have in it and how
    many tiles away they are from it; a preset turns it on by naming it in
    ``shapes``, and then scoring, ``tiles_away`` and ``waits`` count it.
    """


@hookspec
def hkcore_bots() -> Mapping[str, Callable[[Any, int], Any]]:
    """Return the bots this plugin provides, by name: each a factory ``(preset, seed) -> Bot``.

    A bot answers a seat's prompt with a decision (docs/bots.md). The names
    are unique across all plugins: a second bot of a name already given is
    recorded as a problem and skipped. Called each time the players'
    registry is read (``hkcore.table.players.bots.bot_catalogue``), never
    while a bot plays.
    """
