"""Scoring: every reading of a hand, its patterns, the best total, payments.

For each reading the core gives (and each place the winning tile can sit in
it), every pattern in play is detected; the preset's values are added up
(docs/rules.md ruling 1): what an ``includes`` names is not added; a limit hand
scores its highest limit alone (equal limits: the one listed first), plus
the preset's ``limit_adds``; a limit never lowers a hand (the ordinary count
stands when it is worth strictly more after the cap; on a tie the limit is
shown); then the cap.

Best reading (ruling 2): the highest capped total, then the highest uncapped
total, then the first in this fixed order: readings in the core's sorted
order, within a reading the winning tile in the pair first, then in each set
in ascending set code; thirteen orphans after the standard readings; then a
bonus-tile instant win; last the shapes plugins add, in the preset's order.

A pattern whose preset entry has a ``when`` counts only where its
conditions hold (``hkcore.core.WHEN``): elsewhere it is not detected
at all, so it excludes nothing through its ``includes``.

Two evaluators give identical outcomes: the compiled kernel
(``hkcore.core``'s ``Kernel``), used when the compiled core is active, and
the pure-Python one (``evaluator``), the reference (tests hold them equal).

The package, by job: ``entries`` (a pattern in play, the ``Outcome`` both
evaluators return), ``evaluator`` (the pure-Python evaluator), ``parts``
(the reading a result shows), ``settlement`` (payment scheme and
adjustments), ``compiled`` (``CompiledPreset``: a preset ready to score and
analyse, immutable once built) and ``scoring`` (``score``; ``Rulesets``
keeps the compiled built-in presets of the current plugin registry for the
process's life and others in a bounded LRU, keyed by the ``Preset`` object,
never by an id).
"""
from __future__ import annotations

from hkcore.engine.compiled import INTERNED, CompiledPreset
from hkcore.engine.entries import Entry, Outcome, native_code
from hkcore.engine.evaluator import Evaluator, placements
from hkcore.engine.scoring import Rulesets, compile_preset, compiled_for, rulesets, score
from hkcore.engine.settlement import Settlement

__all__ = [
    "INTERNED", "CompiledPreset", "Entry", "Evaluator", "Outcome", "Rulesets", "Settlement", "compile_preset",
    "compiled_for", "native_code", "placements", "rulesets", "score",
]
