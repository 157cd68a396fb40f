"""The hand-made corpus of compare_many and its summary worked by hand, shared by
tests/test_compare_many.py and tests/test_report.py.

The expected summary is worked by hand from RULES.md (values by preset,
payments) and the README's example (its scores are doctested there), not
from running the code under test.
"""
from __future__ import annotations

from typing import Any

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
            refused: dict[str, int] | None = None, apart: dict[str, Any] | None = None,
            hands: int = 5) -> dict[str, Any]:
    return {"unit": unit, "pays": pays, "hands": hands, "errors": errors, "refused": refused or {},
            "complete": complete, "winnable": winnable,
            "limit": 0, "faan_histogram": faan, "pattern_counts": patterns, "paid": len(payouts),
            "payout_histogram": {str(g): payouts.count(g) for g in sorted(set(payouts))},
            "winner_gain": sum(payouts), "discarder_paid": sum(discarders), "discard_wins_paid": len(discarders),
            "discard_wins_gain": sum(payouts), "apart": apart}


# Apart: the hands some preset cannot read while another can, each preset's counts over them alone. Here
# H2 alone (hk-classic and just-cards refuse its flower): bga and mistboard complete at 1 (seat_flower), not
# winnable; playingcards-io 1 point (bonus_tile), winnable and paid: W 9, S +25 (see H2 above).
APART = {
    "bga-old-style": _preset("faan", True, 0, 1, 0, {"1": 1}, {"seat_flower": 1}, hands=1),
    "hk-classic": _preset("faan", False, 1, 0, 0, {}, {}, refused={"flowers": 1}, hands=1),
    "just-cards": _preset("faan", True, 1, 0, 0, {}, {}, refused={"flowers": 1}, hands=1),
    "mistboard": _preset("faan", False, 0, 1, 0, {"1": 1}, {"seat_flower": 1}, hands=1),
    "playingcards-io": _preset("points", True, 0, 1, 1, {"1": 1}, {"bonus_tile": 1}, [25], [9], hands=1),
}


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
                                  "seat_flower": 1}, [384], [192], apart=APART["bga-old-style"]),
        # H5 unreadable; H2 read, refused for its flowers (ruling 14: the error names the field)
        "hk-classic": _preset("faan", False, 2, 2, 1, {"0": 1, "8": 1},
                              {"half_flush": 1, "little_three_dragons": 1, "chicken_hand": 1},
                              refused={"flowers": 1}, apart=APART["hk-classic"]),
        "just-cards": _preset("faan", True, 2, 2, 1, {"0": 1, "8": 1},
                              {"dragon_pung": 1, "half_flush": 1, "little_three_dragons": 1, "chicken_hand": 1},
                              [256], [256], refused={"flowers": 1}, apart=APART["just-cards"]),
        "mistboard": _preset("faan", False, 1, 3, 1, {"1": 2, "9": 1},
                             {"no_bonus": 2, "half_flush": 1, "little_three_dragons": 1, "seat_flower": 1},
                             apart=APART["mistboard"]),
        "playingcards-io": _preset("points", True, 1, 3, 3, {"0": 1, "1": 1, "6": 1},
                                   {"dragon_pung": 1, "bonus_tile": 1, "chicken_hand": 1},
                                   [30, 25, 24], [14, 9, 8], apart=APART["playingcards-io"]),
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
