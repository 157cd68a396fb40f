"""The reports hkcore writes, each as summary.json, summary.md and one
self-contained report.html: ``comparison`` (hands under several presets,
``hkscore report``; its plots in ``plots``) and ``simulation`` (the rule
economics of a simulation). ``page`` is what both pages share: the head and
its style sheet, the tables' cells, the rules that differ, the pattern names,
the files written. Import the modules; this package imports none of them
(the simulation report sits above ``hkcore.simulation``, the rest below it).
"""
