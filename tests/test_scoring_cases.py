"""Every hand-worked expectation in tests/cases/ against hkcore.score."""
from __future__ import annotations

import importlib

import pytest

import hkcore
from cases import Case, Expect

MODULES = ("cases.patterns", "cases.examples", "cases.handworked")


def _load() -> list[tuple[Case, str, Expect]]:
    out = []
    for name in MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError:
            continue
        for case in module.CASES:
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
