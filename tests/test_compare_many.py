"""compare_many: a summary of many hands under several presets, built from counts.

The expected summary of the hand-made corpus is worked by hand from RULES.md
(values by preset, payments) and the README's example (its scores are
doctested there), not from running the code under test.
"""
from __future__ import annotations

import json
import sys
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from helpers.corpus import ALL, CORPUS, EXPECTED, H1, H2, H3, H4, H5
from hkcore.cli import main
from hkcore.errors import HkcoreError
from hkcore.models import Hand
from hkcore.sample import sample
from hkcore.summary import ComparisonSummary, Flip, compare_many


def test_hand_made_corpus() -> None:
    summary = compare_many(CORPUS, "all")
    assert summary.model_dump() == EXPECTED
    assert summary == ComparisonSummary.model_validate(EXPECTED)
    bga = summary.presets["bga-old-style"]
    assert bga.discarder_share() == 0.5 and bga.discarder_share_on_discard() == 0.5
    assert summary.presets["mistboard"].discarder_share() is None


def test_every_input_form_gives_the_same_summary() -> None:
    as_text = [json.dumps(h) if isinstance(h, dict) else h for h in CORPUS]
    as_bytes = [t.encode() for t in as_text]
    hands = [Hand.parse(h) for h in CORPUS[:4]] + [H5]
    expected = ComparisonSummary.model_validate(EXPECTED)
    for corpus in (as_text, as_bytes, hands):
        assert compare_many(corpus, ALL) == expected


def test_worker_processes_give_the_same_summary(monkeypatch: pytest.MonkeyPatch) -> None:
    import hkcore.batch

    monkeypatch.setattr(hkcore.batch, "CHUNK", 2)  # three chunks, merged in order
    assert compare_many(CORPUS, "all", jobs=2) == ComparisonSummary.model_validate(EXPECTED)


def test_json_round_trip_and_schema(capsys: pytest.CaptureFixture[str]) -> None:
    summary = compare_many(CORPUS, "all")
    assert ComparisonSummary.model_validate_json(summary.to_json()) == summary
    assert main(["schema", "summary"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert {"hands", "presets", "flips", "faan_differences"} <= set(schema["properties"])
    assert "faan_histogram" in schema["$defs"]["PresetSummary"]["properties"]


def test_examples_keep_the_first_ten_in_input_order() -> None:
    hands = [H3] * 25
    flip = compare_many(hands, ["playingcards-io", "bga-old-style"]).flips["playingcards-io"]["bga-old-style"]
    assert flip.count == 25 and [e.index for e in flip.examples] == list(range(10))
    half = compare_many(hands[:7], ["playingcards-io", "bga-old-style"])
    rest = compare_many(hands[7:], ["playingcards-io", "bga-old-style"])
    assert (half + rest).flips["playingcards-io"]["bga-old-style"] == flip
    assert Flip(count=1, examples=[]) + Flip() == Flip(count=1)


def test_errors() -> None:
    a = compare_many([H1], ["mistboard"])
    b = compare_many([H1], ["bga-old-style"])
    with pytest.raises(HkcoreError, match="different presets"):
        a + b
    with pytest.raises(HkcoreError, match="same id"):
        compare_many([H1], ["mistboard", "mistboard"])
    with pytest.raises(HkcoreError, match="jobs"):
        compare_many([H1], "all", jobs=0)
    with pytest.raises(HkcoreError, match="iterable"):
        compare_many(5, "all")  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# summaries add up: summary(a + b) == summary(a) + summary(b)

POOL = [json.dumps(h) for h in sample(40, 11)] + [json.dumps(h) for h in sample(10, 12, "just-cards")] + [
    json.dumps(H2), json.dumps(H3), H1, H4, H5]
MERGE_PRESETS = ["bga-old-style", "just-cards", "playingcards-io"]
corpora = st.lists(st.sampled_from(POOL), max_size=14)


@settings(max_examples=40, deadline=None)
@given(corpora, corpora, corpora)
def test_summaries_add_up(a: list[str], b: list[str], c: list[str]) -> None:
    sa, sb, sc = (compare_many(x, MERGE_PRESETS) for x in (a, b, c))
    assert compare_many(a + b, MERGE_PRESETS) == sa + sb
    assert (sa + sb) + sc == sa + (sb + sc) == compare_many(a + b + c, MERGE_PRESETS)
    assert sa + compare_many([], MERGE_PRESETS) == sa


def test_report_without_matplotlib_says_how_to_install(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    src = tmp_path / "hands.jsonl"
    src.write_text(H1 + "\n", encoding="utf-8")
    assert main(["report", str(src), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'hkcore[report]'" in err
    assert not (tmp_path / "out").exists()


def test_a_summary_read_back_has_whole_number_histogram_keys() -> None:
    # a summary.json edited by hand: its histograms' keys are read as numbers by + and the report
    # (a ValueError from int() there); refused when the summary is read instead, naming the field
    from pydantic import ValidationError

    good = compare_many(CORPUS, ["bga-old-style", "mistboard"]).model_dump()
    for field, key in (("faan_histogram", "abc"), ("payout_histogram", "1.5"), ("faan_histogram", "01")):
        data = json.loads(json.dumps(good))
        data["presets"]["bga-old-style"][field] = {key: 1}
        with pytest.raises(ValidationError, match=field):
            ComparisonSummary.model_validate(data)
    data = json.loads(json.dumps(good))
    data["faan_differences"]["bga-old-style"]["mistboard"] = {"x": 3}
    with pytest.raises(ValidationError, match="faan_differences"):
        ComparisonSummary.model_validate(data)
    assert ComparisonSummary.model_validate(good).presets["bga-old-style"].faan_histogram == {"1": 2, "9": 1}
