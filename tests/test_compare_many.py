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
from hypothesis import given, settings
from hypothesis import strategies as st

from hkcore.cli import main
from hkcore.errors import HkcoreError
from hkcore.models import Hand
from hkcore.sample import sample
from hkcore.summary import ComparisonSummary, Flip, compare_many

ALL = ["bga-old-style", "hk-classic", "just-cards", "mistboard", "playingcards-io"]

# H1, the README example: bga 9 (no_bonus 1, dragon_pung 2, half_flush 3, little_three_dragons 3),
# hk-classic 8 (half_flush 3, little_three_dragons 5 incl. dragon_pung), just-cards 8 (dragon_pung 2,
# half_flush 3, little_three_dragons 3), mistboard 9 (no_bonus 1, half_flush 3, little_three_dragons 5),
# playingcards-io 6 points (two dragon pungs); all winnable. Payments (discard by N, winner S):
# bga base 384/4 = 96: N 2b = 192, E and W b = 96 each, S +384; just-cards 8 faan: N alone 2 x 128 = 256;
# playingcards-io v = 6: N pays 8 + 6 = 14, E and W 8 each, S +30.
H1 = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
# H2: a claimed pung and chow, South's own flower (2), won on W's discard: bga and mistboard 1 faan
# (seat_flower), complete, below their minimum 3; just-cards and hk-classic refuse bonus tiles;
# playingcards-io 1 point (bonus_tile), no minimum: W pays 8 + 1 = 9, E and N 8 each, S +25.
H2 = {"tiles": "123m456p22s", "melds": [{"kind": "pung", "tiles": "888s", "from": "W"},
                                        {"kind": "chow", "tiles": "345m", "from": "E"}],
      "win_tile": "2s", "discarder": "W", "seat_wind": "S", "flowers": [2]}
# H3: H2 without the flower: bga and mistboard 1 (no_bonus), hk-classic and just-cards 0 (chicken_hand),
# none winnable there; playingcards-io 0 points (chicken_hand), winnable: W pays 8, E and N 8, S +24.
H3 = {**H2, "flowers": []}
# H4: fourteen tiles that form no winning shape: readable, complete under none.
H4 = "123m456p789s12344z win:4z self-draw"
# H5: not a hand at all: an error under every preset.
H5 = "this is not a hand"

CORPUS = [H1, H2, H3, H4, H5]
N2 = "123m456p22s 888s:W 345m:E win:2s from:W seat:S flowers:2"
N3 = "123m456p22s 888s:W 345m:E win:2s from:W seat:S"


def _preset(unit: str, pays: bool, errors: int, complete: int, winnable: int, faan: dict[str, int],
            patterns: dict[str, int], payouts: list[int] = (), discarders: list[int] = (),
            refused: dict[str, int] | None = None) -> dict[str, Any]:
    return {"unit": unit, "pays": pays, "hands": 5, "errors": errors, "refused": refused or {},
            "complete": complete, "winnable": winnable,
            "limit": 0, "faan_histogram": faan, "pattern_counts": patterns, "paid": len(payouts),
            "payout_histogram": {str(g): payouts.count(g) for g in sorted(set(payouts))},
            "winner_gain": sum(payouts), "discarder_paid": sum(discarders), "discard_wins_paid": len(discarders),
            "discard_wins_gain": sum(payouts)}


def _flips(**found: tuple[int, list[tuple[int, str]]]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {a: {b: {"count": 0, "examples": []} for b in ALL if b != a} for a in ALL}
    for key, (count, examples) in found.items():
        a, b = (ALL[int(i)] for i in key[1:].split("_"))
        out[a][b] = {"count": count, "examples": [{"index": i, "hand": h} for i, h in examples]}
    return out


EXPECTED = {
    "hands": 5, "unreadable": 1,
    "presets": {
        "bga-old-style": _preset("faan", True, 1, 3, 1, {"1": 2, "9": 1},
                                 {"no_bonus": 2, "dragon_pung": 1, "half_flush": 1, "little_three_dragons": 1,
                                  "seat_flower": 1}, [384], [192]),
        # H5 unreadable; H2 read, refused for its flowers (ruling 14: the error names the field)
        "hk-classic": _preset("faan", False, 2, 2, 1, {"0": 1, "8": 1},
                              {"half_flush": 1, "little_three_dragons": 1, "chicken_hand": 1},
                              refused={"flowers": 1}),
        "just-cards": _preset("faan", True, 2, 2, 1, {"0": 1, "8": 1},
                              {"dragon_pung": 1, "half_flush": 1, "little_three_dragons": 1, "chicken_hand": 1},
                              [256], [256], refused={"flowers": 1}),
        "mistboard": _preset("faan", False, 1, 3, 1, {"1": 2, "9": 1},
                             {"no_bonus": 2, "half_flush": 1, "little_three_dragons": 1, "seat_flower": 1}),
        "playingcards-io": _preset("points", True, 1, 3, 3, {"0": 1, "1": 1, "6": 1},
                                   {"dragon_pung": 1, "bonus_tile": 1, "chicken_hand": 1},
                                   [30, 25, 24], [14, 9, 8]),
    },
    # playingcards-io (4) wins H2 and H3 where bga (0) and mistboard (3) cannot; H3 where hk-classic (1)
    # and just-cards (2) cannot (they refuse H2)
    "flips": _flips(f4_0=(2, [(1, N2), (2, N3)]), f4_3=(2, [(1, N2), (2, N3)]), f4_1=(1, [(2, N3)]),
                    f4_2=(1, [(2, N3)])),
    # faan under A less faan under B over H1, H2, H3 where both read them
    "faan_differences": {
        "bga-old-style": {"hk-classic": {"1": 2}, "just-cards": {"1": 2}, "mistboard": {"0": 3},
                          "playingcards-io": {"0": 1, "1": 1, "3": 1}},
        "hk-classic": {"just-cards": {"0": 2}, "mistboard": {"-1": 2}, "playingcards-io": {"0": 1, "2": 1}},
        "just-cards": {"mistboard": {"-1": 2}, "playingcards-io": {"0": 1, "2": 1}},
        "mistboard": {"playingcards-io": {"0": 1, "1": 1, "3": 1}},
    },
}


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
