"""Twelve hands worked by hand from RULES.md, every built-in preset each
(tests/cases/handworked.json, written by a helper who never saw or ran
hkcore; its "why" cites the RULES.md section behind each value).

In the file a preset's ``faan`` is null where the hand is not complete or the
preset refuses it: RULES.md scores an incomplete hand 0 faan, and refuses
bonus tiles at a 136-tile table naming the field (ruling 14).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cases import Case, Expect


def _expect(hand: dict[str, Any], want: dict[str, Any]) -> Expect:
    patterns: dict[str, int] = {}
    for pid, faan in want["patterns"]:
        patterns[pid] = patterns.get(pid, 0) + faan
    if want["faan"] is None:
        if "error" in want["why"]:
            return Expect(error="flowers" if hand.get("flowers") else "seasons")
        return Expect(faan=0, winnable=False, complete=False, patterns={}, payments=...)
    return Expect(faan=want["faan"], winnable=want["winnable"], patterns=patterns,
                  payments=want["payments"] if want["winnable"] else ...)


CASES: list[Case] = [
    Case(id="handworked-" + "-".join(entry["name"].split()[:6]).strip(":,()"),
         source="tests/cases/handworked.json: " + entry["name"],
         hand=entry["hand"],
         expect={pid: _expect(entry["hand"], want) for pid, want in entry["expected"].items()})
    for entry in json.loads((Path(__file__).parent / "handworked.json").read_text(encoding="utf-8"))
]
