"""The flow of a hand: the engine that plays it, on tile indices and small
integer codes (docs/architecture.md, "The table's three rooms").

``engine`` selects the compiled engine (``_cengine``, Cython) or its
pure-Python twin (``_pyengine``), which answer identically; ``codes`` is the
only home of the action, phase and meld codes (``_codes.pxd`` is its
compiled mirror, held equal by a test); ``wall`` shuffles and deals. The
flow knows no preset, no scorer and no player: a ``Table``
(``hkcore.table.table``) gives it the rules as one value and answers what a
win is worth.
"""
