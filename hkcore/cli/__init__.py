"""The ``hkscore`` command line.

    hkscore example                        the example hand of docs/rules.md, as JSON
    hkscore score HAND --preset all        score a hand (JSON file, - for stdin, or notation)
    hkscore compare HAND [--preset P]      one hand under several presets, side by side
    hkscore waits HAND [--preset P]        a hand in play: tiles away, waits and their value
    hkscore presets [show|export ID]       the presets, everything one preset holds, or it resolved as TOML
    hkscore presets diff A B               every rule on which two presets differ
    hkscore presets check FILE...          what a preset says that cannot mean what it says (stderr;
                                           --strict: exit 1 when any)
    hkscore plugins                        installed plugins, what each provides, any problem
    hkscore schema [MODEL]                 JSON Schema of the data (hand, meld, position, result,
                                           analysis, comparison, claim, preset, summary)
    hkscore decompose TILES                readings, tiles away and waits
    hkscore sample --n N --seed S          random complete hands, one JSON line each
    hkscore report FILE|- --out DIR        hands under several presets: summary.json, summary.md,
                                           report.html (FILE a simulation's summary.json: its report)
    hkscore report --simulate --out DIR    a simulation and its report (rule economics)
    hkscore serve [--port 8000]            the HTTP service and the scoring page (the server extra)
    hkscore play [--bots B] [--human SEAT] hands played by bots (or you), the log as JSON lines
    hkscore replay LOG                     a game log played again: exit 1 at the first difference
    hkscore simulate -p P --bots B -o DIR  bots playing the same walls under several presets
    hkscore bots                           the bots there are to play with

Every command takes ``--json``; the commands that print a table (compare,
waits, presets list/show/diff) take ``--format table|json|csv|markdown``.
Exit status: 0 done; 1 some preset, line or plugin failed, the presets
differ (presets diff), or a preset warns (presets check --strict); 2 a usage
or input error (one line on stderr); 3 an internal error.

The package holds one module per family of commands: ``scoring`` (score,
compare, example, sample), ``hand`` (waits, claims, decompose), ``presets``
(presets, plugins, schema), ``report``, ``serve``, ``table`` (play, replay),
``simulate`` (simulate, bots), and ``common``, what they share. ``commands``
holds the list of commands (``COMMANDS``), the parser built from it and
``main``.
"""
from __future__ import annotations

from hkcore.cli.commands import COMMANDS, build_parser, main
from hkcore.cli.common import EXAMPLE_HAND

__all__ = ["COMMANDS", "EXAMPLE_HAND", "build_parser", "main"]
