"""hkcore.sample / hkscore sample: random complete hands, deterministic for a seed."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import hkcore.sample as sm
from hkcore.cli import main
from hkcore.engine import compiled_for
from hkcore.errors import HkcoreError
from hkcore.models import Hand

SEAT_INDEX = {s: i for i, s in enumerate(sm.SEATS)}


def test_deterministic_for_a_seed(capsys: pytest.CaptureFixture[str]) -> None:
    a = list(sm.sample(50, 7))
    assert a == list(sm.sample(50, 7))
    assert a != list(sm.sample(50, 8))
    assert list(sm.sample(20, 7)) == a[:20]
    assert main(["sample", "--n", "50", "--seed", "7"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == a


def test_every_hand_parses_and_is_complete() -> None:
    bga = compiled_for("bga-old-style")  # thirteen orphans is a shape there
    for d in sm.sample(400, 3):
        hand = Hand.parse(d)
        r = bga.score(hand)
        assert r.complete, d
        # claims come from the right seats: a chow from the seat before, any other set from another seat
        seat = SEAT_INDEX[hand.seat_wind]
        for m in hand.melds:
            if m.concealed:
                assert m.kind == "kong" and m.from_ is None
            elif m.kind == "chow":
                assert SEAT_INDEX[m.from_] == (seat - 1) % 4
            else:
                assert m.from_ != hand.seat_wind


def test_a_136_tile_preset_gets_no_bonus_tiles() -> None:
    hands = list(sm.sample(300, 5, "just-cards"))
    assert all(not d["flowers"] and not d["seasons"] for d in hands)
    jc = compiled_for("just-cards")
    assert all(jc.score(d).complete for d in hands)
    assert any(d["flowers"] for d in sm.sample(50, 5, "mistboard"))


@pytest.mark.parametrize("only", ["complete", "winnable"])
def test_only_keeps_hands_complete_or_winnable_under_the_preset(only: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    pcio = compiled_for("playingcards-io")  # thirteen orphans is not complete there
    hands = list(sm.sample(300, 2, "playingcards-io", only=only))
    assert len(hands) == 300 and all(getattr(pcio.score(d), only) for d in hands)
    assert main(["sample", "-n", "5", "--seed", "2", "--preset", "just-cards", "--only", "winnable"]) == 0
    jc = compiled_for("just-cards")
    assert all(jc.score(line).winnable for line in capsys.readouterr().out.splitlines())


def test_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(HkcoreError, match="give the preset"):
        sm.sample(5, 1, only="complete")
    with pytest.raises(HkcoreError, match="n:"):
        sm.sample(-1)
    assert main(["sample", "--n", "3", "--only", "complete"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_documented_proportions_hold_roughly() -> None:
    """Over 5,000 hands, the shares of hkcore.sample's docstring (tolerance about 4 standard deviations)."""
    n = 5000
    hands = [Hand.parse(d) for d in sm.sample(n, 1)]
    orphans = [h for h in hands if not h.melds and len(set(h.tiles)) > 0 and _is_orphans(h)]
    assert abs(len(orphans) / n - sm.ORPHANS_SHARE) < 0.006
    standard = [h for h in hands if h not in orphans]
    declared = Counter(len(h.melds) for h in standard)
    for k, weight in enumerate(sm.MELD_WEIGHTS):
        assert abs(declared[k] / len(standard) - weight / 100) < 0.03, (k, declared)
    assert abs(sum(h.self_draw for h in hands) / n - sm.SELF_DRAW_SHARE) < 0.03
    bonus = sum(len(h.flowers) + len(h.seasons) for h in hands) / n
    assert abs(bonus - 8 * sm.BONUS_SHARE) < 0.1
    assert all(not (h.self_draw and h.robbing_kong) for h in hands)
    assert 0.01 < sum(h.last_tile for h in hands) / n < 0.05
    kongs = [m for h in standard for m in h.melds if m.kind == "kong"]
    assert kongs and abs(sum(m.concealed for m in kongs) / len(kongs) - sm.CONCEALED_KONG_SHARE) < 0.08
    winds = Counter(h.seat_wind for h in hands)
    assert all(abs(winds[s] / n - 0.25) < 0.03 for s in sm.SEATS)


def _is_orphans(h: Hand) -> bool:
    from hkcore.tiles import parse_tiles

    return len({t.code for t in parse_tiles(h.tiles)}) == 13 and len(parse_tiles(h.tiles)) == 14


def test_bench_score_uses_the_package_generator() -> None:
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parent.parent / "bench"
    if not (bench / "bench_score.py").is_file():
        pytest.skip("no bench/ beside tests/ (the tests run from an unpacked sdist or an installed package)")
    sys.path.insert(0, str(bench))
    try:
        import bench_score
    finally:
        sys.path.remove(str(bench))
    assert bench_score.HandSource is sm.HandSource and bench_score.hk_dict is sm.hk_dict


def test_only_under_a_preset_no_drawn_hand_satisfies_ends_with_an_error(monkeypatch: pytest.MonkeyPatch,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        tmp_path: Path) -> None:
    # minimum 1000 with no cap: no hand can win (RULES.md: a hand wins at the minimum or more); it drew for ever
    monkeypatch.setattr(sm, "MOST_MISSES", 2_000)
    house = tmp_path / "unwinnable.toml"
    house.write_text('extends = "mistboard"\nid = "unwinnable"\nminimum = 1000\ncap = false\n')
    with pytest.raises(HkcoreError, match=r"^only=winnable: no hand winnable under 'unwinnable' in 2,000 draws"):
        list(sm.sample(1, 3, str(house), only="winnable"))
    assert main(["sample", "-n", "1", "--preset", str(house), "--only", "winnable"]) == 2
    assert "no hand winnable under 'unwinnable'" in capsys.readouterr().err
    # a rare but possible hand still comes: the count is of misses in a row, not in all
    assert len(list(sm.sample(3, 3, "mistboard", only="winnable"))) == 3
