"""Every hand-worked expectation in tests/cases/ against hkcore.score.

tests/cases/<preset>.json holds that preset's cases (tests/cases/README.md
says how they were worked and what the arithmetic in ``why`` abbreviates);
tests/cases/handworked.json twelve more hands, every preset each.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from cases import PRESETS, Case, Expect
from cases.handworked import CASES as HANDWORKED

import hkcore

CASES_DIR = Path(__file__).resolve().parent / "cases"


def _expect(data: dict[str, Any]) -> Expect:
    if "error" in data:
        return Expect(error=data["error"])
    return Expect(faan=data["faan"], winnable=data["winnable"], complete=data["complete"],
                  patterns=dict(data["patterns"]), payments=data.get("payments", ...),
                  reason=data.get("reason"))


def _load() -> list[tuple[Case, str, Expect]]:
    out = []
    for preset in PRESETS:
        for entry in json.loads((CASES_DIR / f"{preset}.json").read_text(encoding="utf-8")):
            expect = _expect(entry["expect"])
            out.append((Case(entry["id"], entry["source"], entry["hand"], {preset: expect}), preset, expect))
    for case in HANDWORKED:
        for preset, expect in case.expect.items():
            out.append((case, preset, expect))
    return out


ALL = _load()


def test_cases_exist() -> None:
    ids = [c.id for c, _, _ in ALL]
    assert len(ALL) > 300
    assert len({(c.id, p) for c, p, _ in ALL}) == len(ALL), "duplicate case ids"
    assert ids


@pytest.mark.parametrize(("case", "preset", "expect"), ALL, ids=[f"{c.id}[{p}]" for c, p, _ in ALL])
def test_case(case: Case, preset: str, expect: Expect) -> None:
    if expect.error is not None:
        with pytest.raises(hkcore.HkcoreError) as info:
            hkcore.score(case.hand, preset)
        assert expect.error in str(info.value)
        return
    result = hkcore.score(case.hand, preset)
    assert {p.id: p.faan for p in result.patterns} == expect.patterns
    assert (result.faan, result.winnable, result.complete) == (expect.faan, expect.winnable, expect.complete)
    assert sum(p.faan for p in result.patterns) == result.uncapped
    if expect.payments is not ...:
        assert result.payments == expect.payments
    if expect.reason is not None:
        assert result.reason is not None and expect.reason in result.reason
