"""hkcore.analyse: tiles away, waits, unseen copies and values, hand-worked."""
from __future__ import annotations

import pytest

import hkcore
from hkcore.errors import HandError

# S holds 123m 456p 23s 55z with 789s claimed from E (the seat before S): waits on 1s or 4s
OPEN_CHOWS = "123m456p23s55z 789s:E seat:S"


def by_tile(a: hkcore.Analysis) -> dict[str, hkcore.analysis.Wait]:
    return {w.tile: w for w in a.waits}


def test_complete_but_unwinnable_under_one_preset_winnable_under_another() -> None:
    # on a discard: all_chows 1 + no_bonus 1 = 2 at mistboard (needs 3): cannot win;
    # self-draw adds 1 -> 3, winnable. playingcards-io: all_chows 2 points, no minimum.
    m = by_tile(hkcore.analyse(OPEN_CHOWS, "mistboard"))
    assert set(m) == {"1s", "4s"}
    assert (m["1s"].on_discard.faan, m["1s"].on_discard.winnable) == (2, False)
    assert "needs 3" in (m["1s"].on_discard.reason or "")
    assert (m["1s"].on_self_draw.faan, m["1s"].on_self_draw.winnable) == (3, True)
    p = by_tile(hkcore.analyse(OPEN_CHOWS, "playingcards-io"))
    assert (p["4s"].on_discard.faan, p["4s"].on_discard.winnable) == (2, True)
    assert (p["4s"].on_self_draw.faan, p["4s"].on_self_draw.winnable) == (3, True)


def test_nine_gates_values_differ_between_presets() -> None:
    # 1112345678999m waits on all nine; every wait keeps the pure nine-gates shape
    # (the hand without the winning tile is 1112345678999): limit 10 in mistboard;
    # hk-classic adds self_draw to a limit: 11 on a self-draw; playingcards-io: no
    # nine gates, chicken 0 on a discard, self_draw 1.
    for pid, discard, self_draw in (("mistboard", 10, 10), ("hk-classic", 10, 11), ("playingcards-io", 0, 1)):
        a = hkcore.analyse("1112345678999m", pid)
        assert [w.tile for w in a.waits] == [f"{n}m" for n in range(1, 10)]
        assert {(w.on_discard.faan, w.on_self_draw.faan) for w in a.waits} == {(discard, self_draw)}


def test_unseen_counts_hand_melds_and_visible() -> None:
    a = by_tile(hkcore.analyse("1112345678999m", "mistboard", visible="5m5m1p"))
    # 1m: 3 held -> 1 unseen; 5m: 1 held + 2 visible -> 1; 2m: 1 held -> 3
    assert (a["1m"].unseen, a["5m"].unseen, a["2m"].unseen) == (1, 1, 3)
    b = by_tile(hkcore.analyse(OPEN_CHOWS, "mistboard", visible="1s1s4s"))
    assert (b["1s"].unseen, b["4s"].unseen) == (2, 3)
    # a declared 1111s kong would leave no 1s at all: not a wait (RULES: four copies out)
    c = hkcore.analyse("23s55z 123m:N 456p 1111s", "mistboard")
    assert [w.tile for w in c.waits] == ["4s"]


def test_visible_that_cannot_be() -> None:
    with pytest.raises(HandError) as info:
        hkcore.analyse("1112345678999m", "mistboard", visible="1m1m")
    assert info.value.field == "visible"


def test_not_waiting() -> None:
    # 123m456p789s + 1z 4z and 2 more singles... 13 tiles, two tiles away: no waits
    a = hkcore.analyse("123m456p789s1234z", "bga-old-style")
    assert (a.tiles_away, a.waiting, a.waits) == (2, False, [])


def test_discards_ranked_by_winnable_unseen_copies() -> None:
    # 11 tiles with 789s declared: 123m 4556p 23s 55z. Discarding 5p leaves 123m 456p
    # 23s 55z waiting on 1s/4s: 4 + 4 unseen = 8, all winnable at playingcards-io.
    a = hkcore.analyse("123m4556p23s55z 789s:E seat:S", "playingcards-io")
    assert a.tiles_away == 0
    assert a.discards[0].discard == "5p"
    assert [w.tile for w in a.discards[0].waits] == ["1s", "4s"]
    assert (a.discards[0].unseen, a.discards[0].winnable_unseen) == (8, 8)
    # under mistboard a discard win is 2 faan (cannot win) but a self-draw 3: still winnable
    m = hkcore.analyse("123m4556p23s55z 789s:E seat:S", "mistboard")
    assert (m.discards[0].discard, m.discards[0].winnable_unseen) == ("5p", 8)
    ranks = [(-d.winnable_unseen) for d in m.discards]
    assert ranks == sorted(ranks)


def test_counts_seven_pairs_where_on(tmp_path) -> None:
    house = tmp_path / "sp.toml"
    house.write_text('extends = "bga-old-style"\nminimum = 0\n'
                     'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n[patterns]\nseven_pairs = 4\n')
    a = hkcore.analyse("1133m5577p99s112z", str(house))
    assert a.tiles_away == 0 and [w.tile for w in a.waits] == ["2z"]
    # concealed 1 + no_bonus 1 + seven_pairs 4 = 6 on a discard, 7 self-drawn
    assert (a.waits[0].on_discard.faan, a.waits[0].on_self_draw.faan) == (6, 7)
    assert hkcore.analyse("1133m5577p99s112z", "bga-old-style").tiles_away == 3


from hypothesis import HealthCheck, given, settings  # noqa: E402

from helpers.strategies import WHEN_PRESETS, complete_hands  # noqa: E402
from hkcore.engine import CompiledPreset  # noqa: E402
from hkcore.models import Hand, Position  # noqa: E402


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(complete_hands(bonus=False))
def test_wait_values_equal_scoring_each_completed_hand(data) -> None:
    """analyse's shared-decomposition values == scoring each 14-tile hand from scratch."""
    hand = Hand.parse(data)
    tiles = hkcore.parse_tiles(hand.tiles)
    tiles.remove(hkcore.tile(hand.win_tile))
    pos = Position.parse({"tiles": hkcore.format_tiles(tiles), "seat_wind": hand.seat_wind,
                          "round_wind": hand.round_wind,
                          "melds": [m.model_dump(by_alias=True, exclude_none=True) for m in hand.melds]})
    for pid in [*hkcore.presets(), *WHEN_PRESETS.values()]:
        preset = hkcore.load_preset(pid)
        reference = CompiledPreset(preset, use_kernel=False)
        a = hkcore.analyse(pos, preset)
        assert hand.win_tile in [w.tile for w in a.waits]
        for w in a.waits:
            for self_draw, value in ((False, w.on_discard), (True, w.on_self_draw)):
                r = reference.score(pos.with_tile(w.tile, self_draw=self_draw))
                assert (value.faan, value.winnable) == (r.faan, r.winnable), (pid, w.tile, self_draw)
