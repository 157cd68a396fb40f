"""The liability plugin (RULES.md "Payments", just-cards), worked by hand.

just-cards pays by faan 3..10: 16, 32, 48, 64, 96, 128, 192, 256 each on a
self-draw; the discarder alone pays twice that on a discard.
"""
from __future__ import annotations

from typing import Any

import hkcore

# S wins; a half flush in dots: 123p 999p 567p + 333z + 88p, all declared
MELDS = [{"kind": "chow", "tiles": "123p", "from": "E"},
         {"kind": "pung", "tiles": "999p", "from": "W"},
         {"kind": "chow", "tiles": "567p", "from": "E"},
         {"kind": "pung", "tiles": "333z", "from": "N"}]


def hand(**over: Any) -> dict[str, Any]:
    base = {"tiles": "88p", "melds": MELDS, "win_tile": "8p", "self_draw": True, "seat_wind": "S"}
    base.update(over)
    return base


def test_feeder_of_the_fourth_set_pays_a_self_draw() -> None:
    # half_flush 3 + self_draw 1 = 4 faan -> 32 from each of three: N pays all 96
    r = hkcore.score(hand(), "just-cards")
    assert r.faan == 4
    assert r.payments == {"E": 0, "S": 96, "W": 0, "N": -96}


def test_discard_win_is_paid_by_the_discarder_alone() -> None:
    # half_flush 3 on a discard from W: W pays 2 x 16 = 32, liability does not move it
    r = hkcore.score(hand(self_draw=False, discarder="W"), "just-cards")
    assert r.faan == 3
    assert r.payments == {"E": 0, "S": 32, "W": -32, "N": 0}


def test_no_liability_without_from() -> None:
    melds = [dict(m) for m in MELDS]
    del melds[3]["from"]
    r = hkcore.score(hand(melds=melds), "just-cards")
    assert r.payments == {"E": -32, "S": 96, "W": -32, "N": -32}


def test_third_dragon_set_and_a_newer_liability() -> None:
    # S holds 555z 666z 777z declared (W fed the third dragon set) and a fourth set
    # fed by N: N's liability is newer and replaces W's.
    melds = [{"kind": "pung", "tiles": "555z", "from": "E"},
             {"kind": "pung", "tiles": "666z", "from": "N"},
             {"kind": "pung", "tiles": "777z", "from": "W"},
             {"kind": "chow", "tiles": "123m", "from": "E"}]
    h = {"tiles": "99m", "melds": melds, "win_tile": "9m", "self_draw": True, "seat_wind": "S"}
    # big_three_dragons 5 + dragon_pung 3 + half_flush 3 + self_draw 1 = 12 -> cap 10: 256 each
    r = hkcore.score(h, "just-cards")
    assert r.faan == 10
    # E fed the fourth declared set (123m), the newest liability: E pays all 3 x 256
    assert r.payments == {"E": -768, "S": 768, "W": 0, "N": 0}


def test_third_dragon_set_alone() -> None:
    # the dragon sets are the 2nd, 3rd and 4th declared; the third dragon (777z, from W)
    # is also the fourth declared set: W is liable either way
    melds = [{"kind": "chow", "tiles": "123m", "from": "E"},
             {"kind": "pung", "tiles": "555z", "from": "E"},
             {"kind": "pung", "tiles": "666z", "from": "N"},
             {"kind": "pung", "tiles": "777z", "from": "W"}]
    h = {"tiles": "99m", "melds": melds, "win_tile": "9m", "self_draw": True, "seat_wind": "S"}
    r = hkcore.score(h, "just-cards")
    assert r.payments == {"E": 0, "S": 768, "W": -768, "N": 0}


def test_third_dragon_set_before_the_fourth() -> None:
    # dragons declared 1st..3rd (the third, 777z, fed by N), then a concealed kong as the
    # fourth declared set: nobody fed it, so N stays liable.
    melds = [{"kind": "pung", "tiles": "555z", "from": "E"},
             {"kind": "pung", "tiles": "666z", "from": "W"},
             {"kind": "pung", "tiles": "777z", "from": "N"},
             {"kind": "kong", "tiles": "1111m", "concealed": True}]
    h = {"tiles": "99m", "melds": melds, "win_tile": "9m", "self_draw": True, "seat_wind": "S"}
    r = hkcore.score(h, "just-cards")
    # big three dragons: capped at 10 -> 256 from each -> N pays 768
    assert r.payments == {"E": 0, "S": 768, "W": 0, "N": -768}


def test_option_wind_set(tmp_path) -> None:
    path = tmp_path / "winds.toml"
    path.write_text('extends = "just-cards"\n[plugins.liability]\nwind_set = 3\n')
    # three wind pungs declared (the third, 333z, fed by W), 444z and the pair concealed;
    # self-drawn big four winds: limit 10 -> 256 from each
    melds = [{"kind": "pung", "tiles": "111z", "from": "E"},
             {"kind": "pung", "tiles": "222z", "from": "N"},
             {"kind": "pung", "tiles": "333z", "from": "W"}]
    h = {"tiles": "444z99m", "melds": melds, "win_tile": "9m", "self_draw": True, "seat_wind": "S"}
    assert hkcore.score(h, str(path)).payments == {"E": 0, "S": 768, "W": -768, "N": 0}
    # without the option only three sets are declared: nobody is liable
    assert hkcore.score(h, "just-cards").payments == {"E": -256, "S": 768, "W": -256, "N": -256}


def test_option_liable_pays_discard(tmp_path) -> None:
    path = tmp_path / "strict.toml"
    path.write_text('extends = "just-cards"\n[plugins.liability]\nliable_pays_discard = true\n')
    # half_flush 3 on E's discard: E would pay 2 x 16 = 32; N fed the fourth set and pays instead
    h = hand(self_draw=False, discarder="E")
    assert hkcore.score(h, str(path)).payments == {"E": 0, "S": 32, "W": 0, "N": -32}
    assert hkcore.score(h, "just-cards").payments == {"E": -32, "S": 32, "W": 0, "N": 0}
