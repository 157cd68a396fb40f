"""One hand that meets each pattern id and one that narrowly misses it.

Worked by hand from /work/shared/RULES.md (values table, table rules, rulings)
and the seed texts; no scoring code was read or run. Every expectation carries
its arithmetic. Presets: M = mistboard, B = bga-old-style, J = just-cards,
H = hk-classic, P = playingcards-io (points).

Incidentals to keep in mind when reading the sums:
- no_bonus 1 under M and B whenever no flower/season is held;
- concealed_hand 1 under M/B/J/H when nothing is claimed (a discard win keeps
  it, ruling 3; a concealed kong keeps it except under J);
- seat E / round E by default, so a pung of 1z is seat_wind 1 + round_wind 1
  (P: seat_wind 2, no round_wind);
- minimum 3 under M/B/J/H (winnable only at >= 3), none under P;
- caps: M 10, J 10, B 13, H 13, P none.

Where a preset is left out of a case, the value is open in RULES.md (see the
note beside the case).
"""
from __future__ import annotations

from cases import Case, Expect

M, B, J, H, P = "mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io"

# A hand that is not complete under the preset scores nothing.
INCOMPLETE = Expect(faan=0, winnable=False, complete=False, patterns={})
# Bonus tiles under a 136-tile preset (just-cards, hk-classic) are bad input.
ERR_FLOWERS = Expect(error="flowers")
ERR_SEASONS = Expect(error="seasons")
# A complete hand with nothing at all.
CHICKEN_LOSE = Expect(faan=0, winnable=False, patterns={"chicken_hand": 0})  # min 3
CHICKEN_P = Expect(faan=0, winnable=True, patterns={"chicken_hand": 0})  # P: no minimum

# ------------------------------------------------------------------ base hands
# Four chows and a number pair, three suits, fully concealed: 123m 456m 789p 234s 55s.
AC = {"tiles": "123m456m789p234s55s", "win_tile": "2s"}
# Same shape with one chow claimed.
AC_CLAIMED = {"tiles": "456m789p234s55s", "melds": [{"kind": "chow", "tiles": "123m"}], "win_tile": "2s"}
# Two kongs (one claimed, one concealed), two chows, a pair: kong hands.
KONGS2 = {
    "tiles": "345s678s99p",
    "melds": [{"kind": "kong", "tiles": "2222m"}, {"kind": "kong", "tiles": "8888p", "concealed": True}],
    "win_tile": "3s",
    "self_draw": True,
}
# Four concealed pungs in three suits and a pair.
FCP = {"tiles": "222m444p666s888s99m"}
NINE_GATES_PLUS5 = "11123455678999m"  # 1112345678999m + 5m


def h(base: dict, **kw) -> dict:
    d = dict(base)
    d.update(kw)
    return d


CASES: list[Case] = [
    # ================================================================ chicken_hand
    Case(
        id="chicken_bga_example_with_bonus",
        source="seed 001 example (three chows, claimed pung of 6m, eyes of South, West seat, bonus tiles)",
        hand={
            "tiles": "123p456s789s22z",
            "melds": [{"kind": "pung", "tiles": "666m"}],
            "win_tile": "2z",
            "seat_wind": "W",
            "flowers": [1, 2],
        },
        expect={
            M: CHICKEN_LOSE,  # flowers 1,2 are not West's 3; no no_bonus; claimed pung -> nothing = 0
            B: CHICKEN_LOSE,  # same as the seed example: 0, cannot win at a 3-faan table
            J: ERR_FLOWERS,  # 136 tiles
            H: ERR_FLOWERS,  # 136 tiles
            P: Expect(faan=2, winnable=True, patterns={"bonus_tile": 2}),  # bonus_tile 1 x 2 = 2
        },
    ),
    Case(
        id="chicken_without_bonus",
        source="RULES.md chicken_hand; no_bonus M/B",
        hand={
            "tiles": "123p456s789s22z",
            "melds": [{"kind": "pung", "tiles": "666m"}],
            "win_tile": "2z",
            "seat_wind": "W",
        },
        expect={
            M: Expect(faan=1, patterns={"no_bonus": 1}),  # no_bonus 1 = 1 (not chicken), < 3
            B: Expect(faan=1, patterns={"no_bonus": 1}),  # no_bonus 1 = 1
            J: CHICKEN_LOSE,  # nothing = 0
            H: CHICKEN_LOSE,  # nothing = 0
            P: CHICKEN_P,  # nothing = 0, no minimum
        },
    ),
    # ================================================================ all_chows
    Case(
        id="all_chows_concealed_discard",
        source="RULES.md all_chows, concealed_hand; seed 000 one-faan bits",
        hand=dict(AC),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2 < 3
            H: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2 < 3
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # all_chows 2 = 2
        },
    ),
    Case(
        id="all_chows_miss_one_pung",
        source="RULES.md all_chows (four chows)",
        hand={"tiles": "123m456m789p222s55s", "win_tile": "1m"},
        expect={
            M: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            B: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            J: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            H: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            P: CHICKEN_P,  # one pung: no all_chows, no all_pungs = 0
        },
    ),
    Case(
        id="all_chows_best_reading_111222333",
        source="RULES.md ruling 2 (best reading): 111222333m read as 123m x3",
        hand={"tiles": "111222333m789p55s", "win_tile": "9p"},
        expect={
            # pung reading: concealed 1 + no_bonus 1 = 2; chow reading below is better
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2 (pung reading 1)
            H: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # chows 2 (pung reading 0)
        },
    ),
    # ================================================================ concealed_hand
    Case(
        id="concealed_hand_miss_claimed_chow",
        source="RULES.md concealed_hand (claimed chow breaks it)",
        hand=dict(AC_CLAIMED),
        expect={
            M: Expect(faan=2, patterns={"all_chows": 1, "no_bonus": 1}),  # 1+1 = 2, seed 000: "drops to two"
            B: Expect(faan=2, patterns={"all_chows": 1, "no_bonus": 1}),  # 1+1 = 2
            J: Expect(faan=1, patterns={"all_chows": 1}),  # 1
            H: Expect(faan=1, patterns={"all_chows": 1}),  # 1
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
    Case(
        id="concealed_hand_with_concealed_kong",
        source="RULES.md table rule 'concealed kong keeps the hand concealed' (M/B/H yes, J no), rulings 12-13",
        hand={
            "tiles": "345p678p789s55s",
            "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}],
            "win_tile": "3p",
        },
        expect={
            M: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            B: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            J: CHICKEN_LOSE,  # concealed kong breaks concealment in J: nothing = 0
            H: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            P: CHICKEN_P,  # kong + chows: nothing = 0
        },
    ),
    # ================================================================ self_draw
    Case(
        id="self_draw_all_chows_concealed",
        source="seed 000: 'four chows ... never claimed ... self-draw is three'",
        hand=h(AC, self_draw=True),
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1}),  # 1+1+1 = 3
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "self_draw": 1}),  # 2+1 = 3
        },
    ),
    # ================================================================ no_bonus / seat_flower / seat_season
    Case(
        id="no_bonus_miss_flower_of_other_seat",
        source="RULES.md no_bonus, seat_flower (flower 3 is West's, seat E)",
        hand=h(AC, flowers=[3]),
        expect={
            M: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2, no no_bonus
            B: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "bonus_tile": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="seat_flower_east_1",
        source="RULES.md seat_flower (East = 1)",
        hand=h(AC, flowers=[1]),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1}),  # 1+1+1 = 3
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "bonus_tile": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="seat_season_south_2",
        source="RULES.md seat_season (South = 2)",
        hand=h(AC, seat_wind="S", seasons=[2]),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_season": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_season": 1}),  # 1+1+1 = 3
            J: ERR_SEASONS,
            H: ERR_SEASONS,
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "bonus_tile": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="seat_season_miss_west_holds_1_2",
        source="RULES.md seat_season (West = 3; seasons 1, 2 are not West's)",
        hand=h(AC, seat_wind="W", seasons=[1, 2]),
        expect={
            M: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2
            B: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2
            J: ERR_SEASONS,
            H: ERR_SEASONS,
            P: Expect(faan=4, winnable=True, patterns={"all_chows": 2, "bonus_tile": 2}),  # 2+1+1 = 4
        },
    ),
    # ================================================================ flower_set / season_set
    Case(
        id="flower_set_east",
        source="RULES.md flower_set (seat tile inside it not counted again)",
        hand=h(AC, flowers=[1, 2, 3, 4]),
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "flower_set": 2}),  # 1+1+2 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "flower_set": 2}),  # 1+1+2 = 4
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=6, winnable=True, patterns={"all_chows": 2, "bonus_tile": 4}),  # 2+4 = 6
        },
    ),
    Case(
        id="flower_set_miss_three_flowers",
        source="RULES.md flower_set (all four) vs seat_flower",
        hand=h(AC, flowers=[1, 2, 3]),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1}),  # 1+1+1 = 3
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=5, winnable=True, patterns={"all_chows": 2, "bonus_tile": 3}),  # 2+3 = 5
        },
    ),
    Case(
        id="season_set_south",
        source="RULES.md season_set",
        hand=h(AC, seat_wind="S", seasons=[1, 2, 3, 4]),
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "season_set": 2}),  # 1+1+2 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "season_set": 2}),  # 1+1+2 = 4
            J: ERR_SEASONS,
            H: ERR_SEASONS,
            P: Expect(faan=6, winnable=True, patterns={"all_chows": 2, "bonus_tile": 4}),  # 2+4 = 6
        },
    ),
    Case(
        id="season_set_miss_three_seasons_north",
        source="RULES.md season_set vs seat_season (North = 4)",
        hand=h(AC, seat_wind="N", seasons=[1, 2, 4]),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_season": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "seat_season": 1}),  # 1+1+1 = 3
            J: ERR_SEASONS,
            H: ERR_SEASONS,
            P: Expect(faan=5, winnable=True, patterns={"all_chows": 2, "bonus_tile": 3}),  # 2+3 = 5
        },
    ),
    # ================================================================ seven_bonus / eight_bonus
    # Instant wins need no complete hand (ruling 8). The hand below is 14 tiles that
    # form nothing; the win_tile is the tile just drawn (see the report's question
    # about how an instant win is given as data).
    Case(
        id="seven_bonus_instant_win",
        source="RULES.md seven_bonus (B only: 3 + bonus patterns, no self-draw faan), ruling 8",
        hand={
            "tiles": "13579m2468p13579s",
            "win_tile": "9s",
            "self_draw": True,
            "flowers": [1, 2, 3, 4],
            "seasons": [1, 2, 3],
        },
        expect={
            M: INCOMPLETE,  # no seven_bonus in M, tiles form nothing
            B: Expect(faan=6, winnable=True, patterns={"seven_bonus": 3, "flower_set": 2, "seat_season": 1}),  # 3+2+1 = 6
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: INCOMPLETE,  # no instant win; bonus points only come with a mahjong
        },
    ),
    Case(
        id="seven_bonus_miss_six_bonus",
        source="RULES.md seven_bonus needs seven",
        hand={
            "tiles": "13579m2468p13579s",
            "win_tile": "9s",
            "self_draw": True,
            "flowers": [1, 2, 3, 4],
            "seasons": [2, 3],
        },
        expect={
            M: INCOMPLETE,
            B: INCOMPLETE,  # six bonus tiles: no instant win, tiles form nothing
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: INCOMPLETE,
        },
    ),
    Case(
        id="eight_bonus_instant_win",
        source="RULES.md eight_bonus (M 8 scored alone, B L13), ruling 8",
        hand={
            "tiles": "13579m2468p13579s",
            "win_tile": "9s",
            "self_draw": True,
            "flowers": [1, 2, 3, 4],
            "seasons": [1, 2, 3, 4],
        },
        expect={
            M: Expect(faan=8, winnable=True, patterns={"eight_bonus": 8}),  # 8 alone (flower/season sets not added)
            B: Expect(faan=13, winnable=True, patterns={"eight_bonus": 13}),  # L13 flat
            J: ERR_FLOWERS,  # both flowers and seasons given; the message is assumed to name flowers
            H: ERR_FLOWERS,
            P: INCOMPLETE,
        },
    ),
    # ================================================================ dragon_pung
    Case(
        id="dragon_pung_one",
        source="RULES.md dragon_pung; P: 1 dragon pung = 2",
        hand={"tiles": "123m456p789s555z99m", "win_tile": "1m"},
        expect={
            M: Expect(faan=3, winnable=True, patterns={"dragon_pung": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"dragon_pung": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"dragon_pung": 1, "concealed_hand": 1}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"dragon_pung": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: Expect(faan=2, winnable=True, patterns={"dragon_pung": 2}),  # one dragon pung = 2
        },
    ),
    Case(
        id="dragon_pung_miss_wind_of_nobody",
        source="RULES.md dragon_pung vs a South pung at East seat, East round",
        hand={"tiles": "123m456p789s222z99m", "win_tile": "1m"},
        expect={
            M: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            B: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            J: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            H: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            P: CHICKEN_P,  # South is not the seat wind: 0
        },
    ),
    Case(
        id="dragon_pungs_two_kong_and_pung",
        source="RULES.md dragon_pung per pung or kong; P: two dragon pungs = 6",
        hand={
            "tiles": "123m456p99s",
            "melds": [{"kind": "kong", "tiles": "5555z"}, {"kind": "pung", "tiles": "666z"}],
            "win_tile": "1m",
        },
        expect={
            M: Expect(faan=3, winnable=True, patterns={"dragon_pung": 2, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"dragon_pung": 2, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"dragon_pung": 2}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"dragon_pung": 2}),  # 1+1 = 2
            P: Expect(faan=6, winnable=True, patterns={"dragon_pung": 6}),  # two dragon pungs = 6
        },
    ),
    # ================================================================ little / big three dragons
    Case(
        id="little_three_dragons",
        source="RULES.md little_three_dragons (M/H 5 incl. dragon_pung; B/J 3 + dragon pungs)",
        hand={
            "tiles": "123m456p77z",
            "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}],
            "win_tile": "1m",
        },
        expect={
            M: Expect(faan=6, winnable=True, patterns={"little_three_dragons": 5, "no_bonus": 1}),  # 5+1 = 6
            B: Expect(faan=6, winnable=True, patterns={"little_three_dragons": 3, "dragon_pung": 2, "no_bonus": 1}),  # 3+2+1 = 6
            J: Expect(faan=5, winnable=True, patterns={"little_three_dragons": 3, "dragon_pung": 2}),  # 3+2 = 5
            H: Expect(faan=5, winnable=True, patterns={"little_three_dragons": 5}),  # 5 incl. dragons
            P: Expect(faan=6, winnable=True, patterns={"dragon_pung": 6}),  # two dragon pungs = 6
        },
    ),
    Case(
        id="little_three_dragons_miss_other_pair",
        source="RULES.md little_three_dragons needs the third dragon as the pair",
        hand={
            "tiles": "123m456p99s",
            "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}],
            "win_tile": "1m",
        },
        expect={
            M: Expect(faan=3, winnable=True, patterns={"dragon_pung": 2, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"dragon_pung": 2, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"dragon_pung": 2}),  # 2
            H: Expect(faan=2, patterns={"dragon_pung": 2}),  # 2
            P: Expect(faan=6, winnable=True, patterns={"dragon_pung": 6}),  # 6
        },
    ),
    Case(
        id="big_three_dragons",
        source="RULES.md big_three_dragons; seed 001 example 'Great Dragons 5 + three Dragon Pungs 3 = 8'",
        hand={
            "tiles": "123p99m",
            "melds": [
                {"kind": "pung", "tiles": "555z"},
                {"kind": "pung", "tiles": "666z"},
                {"kind": "pung", "tiles": "777z"},
            ],
            "win_tile": "1p",
        },
        expect={
            M: Expect(faan=9, winnable=True, patterns={"big_three_dragons": 8, "no_bonus": 1}),  # 8+1 = 9
            B: Expect(faan=9, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3, "no_bonus": 1}),  # 5+3+1 = 9
            J: Expect(faan=8, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3}),  # 5+3 = 8
            H: Expect(faan=8, winnable=True, patterns={"big_three_dragons": 8}),  # 8 incl.
            P: Expect(faan=6, winnable=True, patterns={"dragon_pung": 6}),  # three dragon pungs = 6 (ruling 14)
        },
    ),
    Case(
        id="big_three_dragons_with_all_pungs",
        source="seed 003 'scores all pungs if the fourth meld is also a pung'; caps",
        hand={
            "tiles": "222m99p",
            "melds": [
                {"kind": "pung", "tiles": "555z"},
                {"kind": "pung", "tiles": "666z"},
                {"kind": "pung", "tiles": "777z"},
            ],
            "win_tile": "9p",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"big_three_dragons": 8, "all_pungs": 3, "no_bonus": 1}),  # 8+3+1 = 12 -> cap 10
            B: Expect(faan=12, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3, "all_pungs": 3, "no_bonus": 1}),  # 5+3+3+1 = 12
            J: Expect(faan=10, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3, "all_pungs": 3}),  # 5+3+3 = 11 -> cap 10
            H: Expect(faan=11, winnable=True, patterns={"big_three_dragons": 8, "all_pungs": 3}),  # 8+3 = 11
            P: Expect(faan=12, winnable=True, patterns={"dragon_pung": 6, "all_pungs": 6}),  # 6+6 = 12
        },
    ),
    Case(
        id="big_three_dragons_all_pungs_half_flush_caps",
        source="RULES.md caps (M/J 10, B/H 13, P none)",
        hand={
            "tiles": "222m99m",
            "melds": [
                {"kind": "pung", "tiles": "555z"},
                {"kind": "pung", "tiles": "666z"},
                {"kind": "pung", "tiles": "777z"},
            ],
            "win_tile": "9m",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"big_three_dragons": 8, "all_pungs": 3, "half_flush": 3, "no_bonus": 1}),  # 8+3+3+1 = 15 -> 10
            B: Expect(faan=13, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3, "all_pungs": 3, "half_flush": 3, "no_bonus": 1}),  # 5+3+3+3+1 = 15 -> 13
            J: Expect(faan=10, winnable=True, patterns={"big_three_dragons": 5, "dragon_pung": 3, "all_pungs": 3, "half_flush": 3}),  # 5+3+3+3 = 14 -> 10
            H: Expect(faan=13, winnable=True, patterns={"big_three_dragons": 8, "all_pungs": 3, "half_flush": 3}),  # 8+3+3 = 14 -> 13
            P: Expect(faan=12, winnable=True, patterns={"dragon_pung": 6, "all_pungs": 6}),  # 6+6 = 12 (no half_flush in P)
        },
    ),
    # ================================================================ seat_wind / round_wind
    Case(
        id="seat_wind_south",
        source="RULES.md seat_wind (seat S, round E, pung of 2z)",
        hand={"tiles": "123m456p789s222z99m", "win_tile": "1m", "seat_wind": "S"},
        expect={
            M: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"seat_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"seat_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # 2
        },
    ),
    Case(
        id="round_wind_east_at_south_seat",
        source="RULES.md round_wind (seat S, round E, pung of 1z); P has no round_wind",
        hand={"tiles": "123m456p789s111z99m", "win_tile": "1m", "seat_wind": "S"},
        expect={
            M: Expect(faan=3, winnable=True, patterns={"round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"round_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"round_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: CHICKEN_P,  # round wind scores nothing in P, 1z is not South's wind
        },
    ),
    Case(
        id="round_wind_south_round_west_seat",
        source="RULES.md round_wind (seat W, round S, pung of 2z)",
        hand={"tiles": "123m456p789s222z99m", "win_tile": "1m", "seat_wind": "W", "round_wind": "S"},
        expect={
            M: Expect(faan=3, winnable=True, patterns={"round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"round_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"round_wind": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: CHICKEN_P,  # 0
        },
    ),
    Case(
        id="double_wind_east_east",
        source="RULES.md ruling 4 (East seat, East round: 2)",
        hand={"tiles": "123m456p789s111z99m", "win_tile": "1m"},
        expect={
            M: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # seat wind 2, no round wind
        },
    ),
    Case(
        id="double_wind_south_south",
        source="RULES.md ruling 4 (South seat, South round)",
        hand={"tiles": "123m456p789s222z99m", "win_tile": "1m", "seat_wind": "S", "round_wind": "S"},
        expect={
            M: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # 2
        },
    ),
    Case(
        id="wind_miss_north_pung_at_south_seat",
        source="RULES.md seat_wind/round_wind (4z is neither S nor E)",
        hand={"tiles": "123m456p789s444z99m", "win_tile": "1m", "seat_wind": "S"},
        expect={
            M: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            B: Expect(faan=2, patterns={"concealed_hand": 1, "no_bonus": 1}),  # 1+1 = 2
            J: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            H: Expect(faan=1, patterns={"concealed_hand": 1}),  # 1
            P: CHICKEN_P,  # 0
        },
    ),
    # ================================================================ last_tile / last_discard
    Case(
        id="last_tile_self_draw",
        source="RULES.md last_tile (self-draw of the last tile; not in P)",
        hand=h(AC, self_draw=True, last_tile=True),
        expect={
            M: Expect(faan=5, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "last_tile": 1, "no_bonus": 1}),  # 1+1+1+1+1 = 5
            B: Expect(faan=5, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "last_tile": 1, "no_bonus": 1}),  # 1+1+1+1+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "last_tile": 1}),  # 1+1+1+1 = 4
            H: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "last_tile": 1}),  # 1+1+1+1 = 4
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "self_draw": 1}),  # 2+1 = 3
        },
    ),
    # RULES.md "A hand as data": last_tile = "the last tile of the live wall (self-draw)
    # or on the discard of it"; a discard win with last_tile is last_discard (B and H
    # only). NOTE: the same section also lists "either of them on a discard win" among
    # impossible contexts; see the report.
    Case(
        id="last_discard_win",
        source="RULES.md last_discard (B 1, H 1, absent elsewhere)",
        hand=h(AC, last_tile=True),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3, no last_discard in M
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "last_discard": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 1+1 = 2, no last_discard in J
            H: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "last_discard": 1}),  # 1+1+1 = 3
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
    # ================================================================ kong_replacement / kong_on_kong
    Case(
        id="kong_miss_self_draw_no_replacement",
        source="RULES.md kong_replacement (not met: plain self-draw)",
        hand=dict(KONGS2),
        expect={
            M: Expect(faan=2, patterns={"self_draw": 1, "no_bonus": 1}),  # 1+1 = 2 (claimed kong: not concealed)
            B: Expect(faan=2, patterns={"self_draw": 1, "no_bonus": 1}),  # 1+1 = 2
            J: Expect(faan=1, patterns={"self_draw": 1}),  # 1
            H: Expect(faan=1, patterns={"self_draw": 1}),  # 1
            P: Expect(faan=1, winnable=True, patterns={"self_draw": 1}),  # 1
        },
    ),
    Case(
        id="kong_replacement_single",
        source="RULES.md kong_replacement (M 2 incl. self_draw; B/J/H 1 + self_draw; not in P)",
        hand=h(KONGS2, kong_replacement=1),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"kong_replacement": 2, "no_bonus": 1}),  # 2 (incl. self_draw) + 1 = 3
            B: Expect(faan=3, winnable=True, patterns={"kong_replacement": 1, "self_draw": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"kong_replacement": 1, "self_draw": 1}),  # 1+1 = 2
            H: Expect(faan=2, patterns={"kong_replacement": 1, "self_draw": 1}),  # 1+1 = 2
            P: Expect(faan=1, winnable=True, patterns={"self_draw": 1}),  # replacement draws are self-draws: 1
        },
    ),
    Case(
        id="kong_on_kong",
        source="RULES.md kong_on_kong, ruling 13 (M 8 incl. both; B 8 + self_draw; J L10; H only kong_replacement 1)",
        hand=h(KONGS2, kong_replacement=2),
        expect={
            M: Expect(faan=9, winnable=True, patterns={"kong_on_kong": 8, "no_bonus": 1}),  # 8 (incl. kong_replacement, self_draw) + 1 = 9
            B: Expect(faan=10, winnable=True, patterns={"kong_on_kong": 8, "self_draw": 1, "no_bonus": 1}),  # 8+1+1 = 10
            J: Expect(faan=10, winnable=True, patterns={"kong_on_kong": 10}),  # L10 (ordinary 1+1 = 2 is lower)
            H: Expect(faan=2, patterns={"kong_replacement": 1, "self_draw": 1}),  # no kong_on_kong in H: 1+1 = 2
            P: Expect(faan=1, winnable=True, patterns={"self_draw": 1}),  # 1
        },
    ),
    # ================================================================ robbing_kong
    Case(
        id="robbing_kong",
        source="RULES.md robbing_kong (B/J/H 1; M scores no pattern for it, ruling 13; not in P)",
        hand=h(AC, robbing_kong=True),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1}),  # 1+1+1 = 3
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
    # ================================================================ all_pungs
    Case(
        id="all_pungs",
        source="RULES.md all_pungs (3; P 6)",
        hand={"tiles": "444p666s888s99m", "melds": [{"kind": "pung", "tiles": "222m"}], "win_tile": "9m"},
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            H: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="all_pungs_miss_one_chow",
        source="RULES.md all_pungs (one chow breaks it)",
        hand={"tiles": "444p345s888s99m", "melds": [{"kind": "pung", "tiles": "222m"}], "win_tile": "9m"},
        expect={
            M: Expect(faan=1, patterns={"no_bonus": 1}),  # 1
            B: Expect(faan=1, patterns={"no_bonus": 1}),  # 1
            J: CHICKEN_LOSE,  # 0
            H: CHICKEN_LOSE,  # 0
            P: CHICKEN_P,  # 0
        },
    ),
    # ================================================================ half_flush / full_flush
    Case(
        id="half_flush",
        source="RULES.md half_flush (one numbered suit + honours); full_flush narrowly missed",
        hand={"tiles": "456m789m222z55m", "melds": [{"kind": "chow", "tiles": "123m"}], "win_tile": "5m"},
        expect={
            M: Expect(faan=4, winnable=True, patterns={"half_flush": 3, "no_bonus": 1}),  # 3+1 = 4 (2z pung: no wind faan at E/E)
            B: Expect(faan=4, winnable=True, patterns={"half_flush": 3, "no_bonus": 1}),  # 3+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"half_flush": 3}),  # 3
            H: Expect(faan=3, winnable=True, patterns={"half_flush": 3}),  # 3
            P: CHICKEN_P,  # no half_flush in P: 0
        },
    ),
    Case(
        id="half_flush_miss_second_suit",
        source="RULES.md half_flush (a second numbered suit breaks it)",
        hand={"tiles": "456m789m222z55p", "melds": [{"kind": "chow", "tiles": "123m"}], "win_tile": "5p"},
        expect={
            M: Expect(faan=1, patterns={"no_bonus": 1}),  # 1
            B: Expect(faan=1, patterns={"no_bonus": 1}),  # 1
            J: CHICKEN_LOSE,  # 0
            H: CHICKEN_LOSE,  # 0
            P: CHICKEN_P,  # 0
        },
    ),
    Case(
        id="half_flush_all_pungs_dragon_mistboard_example",
        source="seed 000: 'a half flush made of pungs is 3 plus 3, and a pung of a dragon inside it adds one more'",
        hand={
            "tiles": "444m888m99m",
            "melds": [{"kind": "pung", "tiles": "222m"}, {"kind": "pung", "tiles": "555z"}],
            "win_tile": "9m",
        },
        expect={
            M: Expect(faan=8, winnable=True, patterns={"half_flush": 3, "all_pungs": 3, "dragon_pung": 1, "no_bonus": 1}),  # 3+3+1+1 = 8
            B: Expect(faan=8, winnable=True, patterns={"half_flush": 3, "all_pungs": 3, "dragon_pung": 1, "no_bonus": 1}),  # 3+3+1+1 = 8
            J: Expect(faan=7, winnable=True, patterns={"half_flush": 3, "all_pungs": 3, "dragon_pung": 1}),  # 3+3+1 = 7
            H: Expect(faan=7, winnable=True, patterns={"half_flush": 3, "all_pungs": 3, "dragon_pung": 1}),  # 3+3+1 = 7
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "dragon_pung": 2}),  # 6+2 = 8
        },
    ),
    Case(
        id="full_flush",
        source="RULES.md full_flush (7)",
        hand={"tiles": "222m456m789m55m", "melds": [{"kind": "chow", "tiles": "123m"}], "win_tile": "5m"},
        expect={
            M: Expect(faan=8, winnable=True, patterns={"full_flush": 7, "no_bonus": 1}),  # 7+1 = 8
            B: Expect(faan=8, winnable=True, patterns={"full_flush": 7, "no_bonus": 1}),  # 7+1 = 8
            J: Expect(faan=7, winnable=True, patterns={"full_flush": 7}),  # 7
            H: Expect(faan=7, winnable=True, patterns={"full_flush": 7}),  # 7
            P: CHICKEN_P,  # no flush in P; a pung and chows: 0
        },
    ),
    Case(
        id="full_flush_all_chows_concealed",
        source="RULES.md full_flush + all_chows + concealed_hand",
        hand={"tiles": "123m234m456m789m55m", "win_tile": "9m"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 7+1+1+1 = 10
            B: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 7+1+1+1 = 10
            J: Expect(faan=9, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1}),  # 7+1+1 = 9
            H: Expect(faan=9, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1}),  # 7+1+1 = 9
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
    # ================================================================ mixed_terminals
    Case(
        id="mixed_terminals",
        source="RULES.md mixed_terminals (M 4 incl. all_pungs; B/J/H 1 + all_pungs 3)",
        hand={
            "tiles": "111s222z99s",
            "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999p"}],
            "win_tile": "9s",
        },
        expect={
            M: Expect(faan=5, winnable=True, patterns={"mixed_terminals": 4, "no_bonus": 1}),  # 4 (incl. all_pungs) + 1 = 5
            B: Expect(faan=5, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "no_bonus": 1}),  # 1+3+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3}),  # 1+3 = 4
            H: Expect(faan=4, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3}),  # 1+3 = 4
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="mixed_terminals_miss_pung_of_2",
        source="RULES.md mixed_terminals (a pung of 2m breaks it)",
        hand={
            "tiles": "111s222z99s",
            "melds": [{"kind": "pung", "tiles": "222m"}, {"kind": "pung", "tiles": "999p"}],
            "win_tile": "9s",
        },
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            H: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    # ================================================================ little / big four winds
    Case(
        id="little_four_winds_south_seat",
        source="RULES.md little_four_winds (M/B/H 6, J L10); wind pungs and half flush add",
        hand={
            "tiles": "123m11z",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "3m",
            "seat_wind": "S",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1, "no_bonus": 1}),  # 6+3+1+1 = 11 -> cap 10
            B: Expect(faan=11, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1, "no_bonus": 1}),  # 6+3+1+1 = 11
            J: Expect(faan=10, winnable=True, patterns={"little_four_winds": 10}),  # L10 (ordinary 3+1 = 4 lower)
            H: Expect(faan=10, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1}),  # 6+3+1 = 10
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # South pung at South seat = 2
        },
    ),
    Case(
        id="little_four_winds_miss_number_pair",
        source="RULES.md little_four_winds needs the fourth wind as the pair",
        hand={
            "tiles": "123m55m",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "3m",
            "seat_wind": "S",
        },
        expect={
            M: Expect(faan=5, winnable=True, patterns={"half_flush": 3, "seat_wind": 1, "no_bonus": 1}),  # 3+1+1 = 5
            B: Expect(faan=5, winnable=True, patterns={"half_flush": 3, "seat_wind": 1, "no_bonus": 1}),  # 3+1+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"half_flush": 3, "seat_wind": 1}),  # 3+1 = 4
            H: Expect(faan=4, winnable=True, patterns={"half_flush": 3, "seat_wind": 1}),  # 3+1 = 4
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # 2
        },
    ),
    Case(
        id="big_four_winds",
        source="RULES.md big_four_winds (M/J L10, B/H L13)",
        hand={
            "tiles": "111z55m",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "5m",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"big_four_winds": 10}),  # L10 (ordinary 1+1+3+3+1 = 9)
            B: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13
            J: Expect(faan=10, winnable=True, patterns={"big_four_winds": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13, no win-condition faan
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "seat_wind": 2}),  # 6+2 = 8
        },
    ),
    Case(
        id="big_four_winds_last_discard_hk_classic_cap",
        source="RULES.md ruling 1 (H: win-condition faan add to a limit, then cap 13)",
        hand={
            "tiles": "111z55m",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "5m",
            "last_tile": True,
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"big_four_winds": 10}),  # L10 alone
            B: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13 alone (last_discard not added)
            J: Expect(faan=10, winnable=True, patterns={"big_four_winds": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13, "last_discard": 1}),  # 13+1 = 14 -> cap 13
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "seat_wind": 2}),  # 6+2 = 8
        },
    ),
    # ================================================================ all_honours
    Case(
        id="all_honours",
        source="RULES.md all_honours (L10 in all four faan presets)",
        hand={
            "tiles": "444z555z66z",
            "melds": [{"kind": "pung", "tiles": "222z"}, {"kind": "pung", "tiles": "333z"}],
            "win_tile": "6z",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # L10
            B: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # L10 (ordinary at most 3+1+1+3 = 8)
            J: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # L10
            H: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # L10, discard: nothing added
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "dragon_pung": 2}),  # 6+2 = 8
        },
    ),
    Case(
        id="all_honours_miss_terminal_pair",
        source="RULES.md ruling 5 (honours + a terminal pair = mixed_terminals, not all_honours)",
        hand={
            "tiles": "444z555z99m",
            "melds": [{"kind": "pung", "tiles": "222z"}, {"kind": "pung", "tiles": "333z"}],
            "win_tile": "9m",
        },
        expect={
            M: Expect(faan=9, winnable=True, patterns={"mixed_terminals": 4, "half_flush": 3, "dragon_pung": 1, "no_bonus": 1}),  # 4+3+1+1 = 9
            B: Expect(faan=9, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "half_flush": 3, "dragon_pung": 1, "no_bonus": 1}),  # 1+3+3+1+1 = 9
            J: Expect(faan=8, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "half_flush": 3, "dragon_pung": 1}),  # 1+3+3+1 = 8
            H: Expect(faan=8, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "half_flush": 3, "dragon_pung": 1}),  # 1+3+3+1 = 8
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "dragon_pung": 2}),  # 6+2 = 8
        },
    ),
    Case(
        id="all_honours_and_big_four_winds",
        source="RULES.md ruling 1 (highest limit; equal limits: first in the values table); B 'both 10 and 13 -> 13'",
        hand={
            "tiles": "111z55z",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "5z",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # both L10: all_honours listed first
            B: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13 beats L10
            J: Expect(faan=10, winnable=True, patterns={"all_honours": 10}),  # both L10: all_honours first
            H: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13 beats L10
            P: Expect(faan=8, winnable=True, patterns={"all_pungs": 6, "seat_wind": 2}),  # 6+2 = 8 (55z is a pair)
        },
    ),
    # ================================================================ all_terminals
    Case(
        id="all_terminals",
        source="RULES.md all_terminals (L10 in all four faan presets)",
        hand={
            "tiles": "111p999p11s",
            "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999m"}],
            "win_tile": "1s",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10
            B: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10 (ordinary 3+1 = 4)
            J: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10
            H: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="all_terminals_miss_honour_pair",
        source="RULES.md ruling 5 (a wind pair makes it mixed_terminals)",
        hand={
            "tiles": "111p999p11z",
            "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999m"}],
            "win_tile": "1z",
        },
        expect={
            M: Expect(faan=5, winnable=True, patterns={"mixed_terminals": 4, "no_bonus": 1}),  # 4+1 = 5 (1z only a pair)
            B: Expect(faan=5, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "no_bonus": 1}),  # 1+3+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3}),  # 1+3 = 4
            H: Expect(faan=4, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3}),  # 1+3 = 4
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="all_terminals_self_drawn_last_tile",
        source="RULES.md ruling 1 (H adds self_draw and last_tile to the limit)",
        hand={
            "tiles": "111p999p11s",
            "melds": [{"kind": "pung", "tiles": "111m"}, {"kind": "pung", "tiles": "999m"}],
            "win_tile": "1s",
            "self_draw": True,
            "last_tile": True,
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10 alone
            B: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10 alone (ordinary 3+1+1+1 = 6)
            J: Expect(faan=10, winnable=True, patterns={"all_terminals": 10}),  # L10 alone
            H: Expect(faan=12, winnable=True, patterns={"all_terminals": 10, "self_draw": 1, "last_tile": 1}),  # 10+1+1 = 12
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    # ================================================================ four_concealed_pungs
    Case(
        id="four_concealed_pungs_self_draw",
        source="RULES.md four_concealed_pungs (M 8 incl. all_pungs+concealed, ruling 10; B/J/H L10)",
        hand=h(FCP, win_tile="8s", self_draw=True),
        expect={
            M: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 8, "self_draw": 1, "no_bonus": 1}),  # 8+1+1 = 10
            B: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10 (ordinary 3+1+1+1 = 6)
            J: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10
            H: Expect(faan=11, winnable=True, patterns={"four_concealed_pungs": 10, "self_draw": 1}),  # 10+1 = 11
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    Case(
        id="four_concealed_pungs_discard_completes_pair",
        source="RULES.md four_concealed_pungs ('a winning discard may complete only the pair')",
        hand=h(FCP, win_tile="9m"),
        expect={
            M: Expect(faan=9, winnable=True, patterns={"four_concealed_pungs": 8, "no_bonus": 1}),  # 8+1 = 9
            B: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10
            J: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10
            H: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="four_concealed_pungs_miss_discard_completes_pung",
        source="RULES.md ruling 3 (pung completed by a discard counts as claimed, hand stays concealed)",
        hand=h(FCP, win_tile="8s"),
        expect={
            M: Expect(faan=5, winnable=True, patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1}),  # 3+1+1 = 5
            B: Expect(faan=5, winnable=True, patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1}),  # 3+1+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "concealed_hand": 1}),  # 3+1 = 4
            H: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "concealed_hand": 1}),  # 3+1 = 4
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="four_concealed_pungs_miss_one_claimed",
        source="RULES.md four_concealed_pungs (none claimed)",
        hand={
            "tiles": "444p666s888s99m",
            "melds": [{"kind": "pung", "tiles": "222m"}],
            "win_tile": "8s",
            "self_draw": True,
        },
        expect={
            M: Expect(faan=5, winnable=True, patterns={"all_pungs": 3, "self_draw": 1, "no_bonus": 1}),  # 3+1+1 = 5
            B: Expect(faan=5, winnable=True, patterns={"all_pungs": 3, "self_draw": 1, "no_bonus": 1}),  # 3+1+1 = 5
            J: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "self_draw": 1}),  # 3+1 = 4
            H: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "self_draw": 1}),  # 3+1 = 4
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    Case(
        id="four_concealed_pungs_with_concealed_kong",
        source="RULES.md four_concealed_pungs (J: no kongs; J concealed kong not concealed; seed 001 'Concealed Kongs allowed')",
        hand={
            "tiles": "444p666s888s99m",
            "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}],
            "win_tile": "8s",
            "self_draw": True,
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 8, "self_draw": 1, "no_bonus": 1}),  # 8+1+1 = 10
            B: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10}),  # L10 (ordinary 3+1+1+1 = 6)
            J: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "self_draw": 1}),  # not fcp, not concealed: 3+1 = 4
            H: Expect(faan=11, winnable=True, patterns={"four_concealed_pungs": 10, "self_draw": 1}),  # 10+1 = 11
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    Case(
        id="four_concealed_pungs_full_flush_limit_never_lowers",
        source="RULES.md ruling 1 example (concealed self-drawn full flush of four pungs in B)",
        hand={"tiles": "111m333m555m777m99m", "win_tile": "7m", "self_draw": True},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 8, "full_flush": 7, "self_draw": 1, "no_bonus": 1}),  # 8+7+1+1 = 17 -> cap 10
            # ordinary 3+7+1+1+1 = 13 beats the limit's 10 (the ruling's example omits no_bonus)
            B: Expect(faan=13, winnable=True, patterns={"all_pungs": 3, "full_flush": 7, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 3+7+1+1+1 = 13
            # J left out: ordinary 3+7+1+1 = 12 -> cap 10 equals the L10 (which listing? see report)
            # ordinary 3+7+1+1 = 12 beats limit 10 + self_draw 1 = 11
            H: Expect(faan=12, winnable=True, patterns={"all_pungs": 3, "full_flush": 7, "concealed_hand": 1, "self_draw": 1}),  # 3+7+1+1 = 12
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    # ================================================================ nine_gates
    Case(
        id="nine_gates_pure_wait_discard",
        source="RULES.md nine_gates, ruling 6 (pure: hand without the winning tile is 1112345678999)",
        hand={"tiles": NINE_GATES_PLUS5, "win_tile": "5m"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 (ordinary 7+1+1 = 9)
            B: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 (ordinary 9)
            J: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 pure on a discard
            H: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 any
            P: CHICKEN_P,  # 111 234 55 678 999: two pungs, two chows, no flush in P = 0
        },
    ),
    Case(
        id="nine_gates_not_pure_discard",
        source="RULES.md ruling 6 (won on 1m: without it 1123455678999, not pure; H 'any')",
        hand={"tiles": NINE_GATES_PLUS5, "win_tile": "1m"},
        expect={
            M: Expect(faan=9, winnable=True, patterns={"full_flush": 7, "concealed_hand": 1, "no_bonus": 1}),  # 7+1+1 = 9
            B: Expect(faan=9, winnable=True, patterns={"full_flush": 7, "concealed_hand": 1, "no_bonus": 1}),  # 7+1+1 = 9
            J: Expect(faan=8, winnable=True, patterns={"full_flush": 7, "concealed_hand": 1}),  # discard needs pure: 7+1 = 8
            H: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 any (ordinary 8)
            P: CHICKEN_P,  # 0
        },
    ),
    Case(
        id="nine_gates_not_pure_self_draw",
        source="RULES.md ruling 6 (J: any on a self-draw)",
        hand={"tiles": NINE_GATES_PLUS5, "win_tile": "1m", "self_draw": True},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 7+1+1+1 = 10
            B: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 7+1+1+1 = 10
            J: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 any on a self-draw (ordinary 9)
            H: Expect(faan=11, winnable=True, patterns={"nine_gates": 10, "self_draw": 1}),  # 10+1 = 11
            P: Expect(faan=1, winnable=True, patterns={"self_draw": 1}),  # 1
        },
    ),
    Case(
        id="nine_gates_pure_self_draw",
        source="RULES.md ruling 6, ruling 1 (H adds self_draw)",
        hand={"tiles": NINE_GATES_PLUS5, "win_tile": "5m", "self_draw": True},
        expect={
            # M and B left out: ordinary 7+1+1+1 = 10 ties the L10 after the cap (which listing? see report)
            J: Expect(faan=10, winnable=True, patterns={"nine_gates": 10}),  # L10 (ordinary 7+1+1 = 9)
            H: Expect(faan=11, winnable=True, patterns={"nine_gates": 10, "self_draw": 1}),  # 10+1 = 11
            P: Expect(faan=1, winnable=True, patterns={"self_draw": 1}),  # 1
        },
    ),
    # ================================================================ thirteen_orphans
    Case(
        id="thirteen_orphans",
        source="RULES.md thirteen_orphans (M/J L10, B/H L13, no such shape in P)",
        hand={"tiles": "19m19p19s12345677z", "win_tile": "7z"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # L10
            B: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13}),  # L13
            J: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13}),  # L13
            P: INCOMPLETE,  # not a winning shape in P
        },
    ),
    Case(
        id="thirteen_orphans_miss_no_red_dragon",
        source="RULES.md thirteen_orphans (one of each orphan); missing 7z is not complete",
        hand={"tiles": "19m19p19s12345566z", "win_tile": "6z"},
        expect={
            M: INCOMPLETE,
            B: INCOMPLETE,
            J: INCOMPLETE,
            H: INCOMPLETE,
            P: INCOMPLETE,
        },
    ),
    Case(
        id="thirteen_orphans_robbing_kong",
        source="RULES.md ruling 1 (H adds robbing_kong to a limit, cap 13), ruling 13 (M no robbing pattern)",
        hand={"tiles": "19m19p19s12345677z", "win_tile": "1m", "robbing_kong": True},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # L10
            B: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13}),  # L13 alone
            J: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # L10 alone
            H: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13, "robbing_kong": 1}),  # 13+1 = 14 -> cap 13
            P: INCOMPLETE,
        },
    ),
    # ================================================================ four_kongs
    Case(
        id="four_kongs",
        source="RULES.md four_kongs (M/J L10, B/H L13)",
        hand={
            "tiles": "99m",
            "melds": [
                {"kind": "kong", "tiles": "2222m"},
                {"kind": "kong", "tiles": "4444p"},
                {"kind": "kong", "tiles": "6666s"},
                {"kind": "kong", "tiles": "8888s"},
            ],
            "win_tile": "9m",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"four_kongs": 10}),  # L10 (ordinary 3+1 = 4)
            B: Expect(faan=13, winnable=True, patterns={"four_kongs": 13}),  # L13
            J: Expect(faan=10, winnable=True, patterns={"four_kongs": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"four_kongs": 13}),  # L13
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # four kongs: all_pungs 6
        },
    ),
    Case(
        id="four_kongs_miss_three_kongs_and_pung",
        source="RULES.md four_kongs (four kongs)",
        hand={
            "tiles": "99m",
            "melds": [
                {"kind": "kong", "tiles": "2222m"},
                {"kind": "kong", "tiles": "4444p"},
                {"kind": "kong", "tiles": "6666s"},
                {"kind": "pung", "tiles": "888s"},
            ],
            "win_tile": "9m",
        },
        expect={
            M: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"all_pungs": 3, "no_bonus": 1}),  # 3+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            H: Expect(faan=3, winnable=True, patterns={"all_pungs": 3}),  # 3
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="four_kongs_on_kong_replacement_hk_classic_cap",
        source="RULES.md ruling 1 (H: 13 + self_draw + kong_replacement, cap 13)",
        hand={
            "tiles": "99m",
            "melds": [
                {"kind": "kong", "tiles": "2222m"},
                {"kind": "kong", "tiles": "4444p"},
                {"kind": "kong", "tiles": "6666s"},
                {"kind": "kong", "tiles": "8888s", "concealed": True},
            ],
            "win_tile": "9m",
            "self_draw": True,
            "kong_replacement": 1,
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"four_kongs": 10}),  # L10 alone (ordinary 3+2+1 = 6)
            B: Expect(faan=13, winnable=True, patterns={"four_kongs": 13}),  # L13 alone
            J: Expect(faan=10, winnable=True, patterns={"four_kongs": 10}),  # L10 alone
            H: Expect(faan=13, winnable=True, patterns={"four_kongs": 13, "self_draw": 1, "kong_replacement": 1}),  # 13+1+1 = 15 -> 13
            P: Expect(faan=7, winnable=True, patterns={"all_pungs": 6, "self_draw": 1}),  # 6+1 = 7
        },
    ),
    # ================================================================ combinations from the seed texts
    Case(
        id="bga_example_common_hand_self_draw_own_season",
        source="seed 001 example: 'Common hand 1 + Self-draw 1 + Own-seat Season 1 = 3' (read with one chow claimed)",
        hand=h(AC_CLAIMED, self_draw=True, seasons=[1]),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "self_draw": 1, "seat_season": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "self_draw": 1, "seat_season": 1}),  # 1+1+1 = 3
            J: ERR_SEASONS,
            H: ERR_SEASONS,
            P: Expect(faan=4, winnable=True, patterns={"all_chows": 2, "self_draw": 1, "bonus_tile": 1}),  # 2+1+1 = 4
        },
    ),
    Case(
        id="bga_example_great_winds_self_draw_own_flower",
        source="seed 001 example: 'Great Winds won by Self-draw with an own-seat Flower: 13 Faan, nothing added'",
        hand={
            "tiles": "111z55m",
            "melds": [
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "333z"},
                {"kind": "pung", "tiles": "444z"},
            ],
            "win_tile": "5m",
            "self_draw": True,
            "flowers": [1],
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"big_four_winds": 10}),  # L10 alone
            B: Expect(faan=13, winnable=True, patterns={"big_four_winds": 13}),  # L13, nothing added
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=10, winnable=True, patterns={"all_pungs": 6, "seat_wind": 2, "self_draw": 1, "bonus_tile": 1}),  # 6+2+1+1 = 10
        },
    ),
    Case(
        id="mistboard_example_seat_wind_dragon_flower",
        source="seed 000: 'A pung of your seat wind plus a pung of a dragon plus your flower is three with any shape around it'",
        hand={
            "tiles": "456p99s",
            "melds": [
                {"kind": "chow", "tiles": "123m"},
                {"kind": "pung", "tiles": "222z"},
                {"kind": "pung", "tiles": "555z"},
            ],
            "win_tile": "4p",
            "seat_wind": "S",
            "flowers": [2],
        },
        expect={
            M: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "dragon_pung": 1, "seat_flower": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "dragon_pung": 1, "seat_flower": 1}),  # 1+1+1 = 3
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=5, winnable=True, patterns={"seat_wind": 2, "dragon_pung": 2, "bonus_tile": 1}),  # 2+2+1 = 5
        },
    ),
    Case(
        id="flower_set_and_seat_season",
        source="RULES.md flower_set + seat_season (different series add)",
        hand=h(AC, flowers=[1, 2, 3, 4], seasons=[1]),
        expect={
            M: Expect(faan=5, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "flower_set": 2, "seat_season": 1}),  # 1+1+2+1 = 5
            B: Expect(faan=5, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "flower_set": 2, "seat_season": 1}),  # 1+1+2+1 = 5
            J: ERR_FLOWERS,  # both flowers and seasons given; the message is assumed to name flowers
            H: ERR_FLOWERS,
            P: Expect(faan=7, winnable=True, patterns={"all_chows": 2, "bonus_tile": 5}),  # 2+5 = 7
        },
    ),
    Case(
        id="seven_bonus_but_complete_hand_worth_more",
        source="RULES.md ruling 8 ('Where the hand is also complete, the better result stands')",
        hand={
            "tiles": "123m234m456m789m55m",
            "win_tile": "9m",
            "self_draw": True,
            "flowers": [1, 2, 3, 4],
            "seasons": [1, 2, 3],
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1, "self_draw": 1, "flower_set": 2, "seat_season": 1}),  # 7+1+1+1+2+1 = 13 -> cap 10
            # complete reading 13 beats seven_bonus 3 + flower_set 2 + seat_season 1 = 6
            B: Expect(faan=13, winnable=True, patterns={"full_flush": 7, "all_chows": 1, "concealed_hand": 1, "self_draw": 1, "flower_set": 2, "seat_season": 1}),  # 7+1+1+1+2+1 = 13
            J: ERR_FLOWERS,
            H: ERR_FLOWERS,
            P: Expect(faan=10, winnable=True, patterns={"all_chows": 2, "self_draw": 1, "bonus_tile": 7}),  # 2+1+7 = 10
        },
    ),
    Case(
        id="mixed_terminals_little_three_dragons_half_flush",
        source="RULES.md incl. entries of mixed_terminals (M) and little_three_dragons (M/H); caps",
        hand={
            "tiles": "111m999m77z",
            "melds": [{"kind": "pung", "tiles": "555z"}, {"kind": "pung", "tiles": "666z"}],
            "win_tile": "7z",
        },
        expect={
            M: Expect(faan=10, winnable=True, patterns={"mixed_terminals": 4, "little_three_dragons": 5, "half_flush": 3, "no_bonus": 1}),  # 4+5+3+1 = 13 -> cap 10
            B: Expect(faan=13, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "little_three_dragons": 3, "dragon_pung": 2, "half_flush": 3, "no_bonus": 1}),  # 1+3+3+2+3+1 = 13
            J: Expect(faan=10, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "little_three_dragons": 3, "dragon_pung": 2, "half_flush": 3}),  # 1+3+3+2+3 = 12 -> cap 10
            H: Expect(faan=12, winnable=True, patterns={"mixed_terminals": 1, "all_pungs": 3, "little_three_dragons": 5, "half_flush": 3}),  # 1+3+5+3 = 12
            P: Expect(faan=12, winnable=True, patterns={"all_pungs": 6, "dragon_pung": 6}),  # 6+6 = 12
        },
    ),
    Case(
        id="full_flush_all_pungs_one_claimed",
        source="RULES.md full_flush + all_pungs; caps",
        hand={"tiles": "444m666m888m99m", "melds": [{"kind": "pung", "tiles": "222m"}], "win_tile": "9m"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_pungs": 3, "no_bonus": 1}),  # 7+3+1 = 11 -> cap 10
            B: Expect(faan=11, winnable=True, patterns={"full_flush": 7, "all_pungs": 3, "no_bonus": 1}),  # 7+3+1 = 11
            J: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_pungs": 3}),  # 7+3 = 10
            H: Expect(faan=10, winnable=True, patterns={"full_flush": 7, "all_pungs": 3}),  # 7+3 = 10
            P: Expect(faan=6, winnable=True, patterns={"all_pungs": 6}),  # 6
        },
    ),
    Case(
        id="seat_wind_and_round_wind_separate_pungs",
        source="RULES.md seat_wind, round_wind (seat S: 2z pung; round E: 1z pung)",
        hand={"tiles": "123m456p111z222z99s", "win_tile": "1m", "seat_wind": "S"},
        expect={
            M: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            B: Expect(faan=4, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"seat_wind": 1, "round_wind": 1, "concealed_hand": 1}),  # 1+1+1 = 3
            P: Expect(faan=2, winnable=True, patterns={"seat_wind": 2}),  # seat 2, no round wind
        },
    ),
    Case(
        id="dragon_concealed_kong",
        source="RULES.md dragon_pung (kong counts); concealed-kong table rule",
        hand={
            "tiles": "123m456p789s99s",
            "melds": [{"kind": "kong", "tiles": "5555z", "concealed": True}],
            "win_tile": "1m",
        },
        expect={
            M: Expect(faan=3, winnable=True, patterns={"dragon_pung": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"dragon_pung": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=1, patterns={"dragon_pung": 1}),  # concealed kong breaks concealment: 1
            H: Expect(faan=2, patterns={"dragon_pung": 1, "concealed_hand": 1}),  # 1+1 = 2
            P: Expect(faan=2, winnable=True, patterns={"dragon_pung": 2}),  # 2
        },
    ),
    Case(
        id="little_four_winds_concealed_self_draw",
        source="RULES.md little_four_winds; caps; J L10 vs ordinary",
        hand={"tiles": "123m11z222z333z444z", "win_tile": "3m", "self_draw": True, "seat_wind": "S"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 6+3+1+1+1+1 = 13 -> cap 10
            B: Expect(faan=13, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # 6+3+1+1+1+1 = 13
            J: Expect(faan=10, winnable=True, patterns={"little_four_winds": 10}),  # L10 (ordinary 3+1+1+1 = 6)
            H: Expect(faan=12, winnable=True, patterns={"little_four_winds": 6, "half_flush": 3, "seat_wind": 1, "concealed_hand": 1, "self_draw": 1}),  # 6+3+1+1+1 = 12
            P: Expect(faan=3, winnable=True, patterns={"seat_wind": 2, "self_draw": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="thirteen_orphans_and_heavenly_hand",
        source="RULES.md ruling 1 (equal limits: the one first in the values table, thirteen_orphans before heavenly_hand)",
        hand={"tiles": "19m19p19s12345677z", "win_tile": "7z", "self_draw": True, "first_turn": "deal"},
        expect={
            M: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # both L10: thirteen_orphans first
            B: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13}),  # both L13: thirteen_orphans first
            J: Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10}),  # both L10
            H: Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13, "self_draw": 1}),  # 13+1 = 14 -> cap 13
            P: INCOMPLETE,  # no thirteen orphans shape in P
        },
    ),
    # ================================================================ first-turn hands
    Case(
        id="heavenly_hand",
        source="RULES.md heavenly_hand (M/J L10, B/H L13), ruling 7 (deal)",
        hand=h(AC, self_draw=True, first_turn="deal"),
        expect={
            M: Expect(faan=10, winnable=True, patterns={"heavenly_hand": 10}),  # L10 (ordinary 1+1+1+1 = 4)
            B: Expect(faan=13, winnable=True, patterns={"heavenly_hand": 13}),  # L13
            J: Expect(faan=10, winnable=True, patterns={"heavenly_hand": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"heavenly_hand": 13, "self_draw": 1}),  # 13+1 = 14 -> 13
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "self_draw": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="earthly_hand_first_draw_south",
        source="RULES.md earthly_hand (M: first draw; B/J/H: first discard only), ruling 7",
        hand=h(AC, self_draw=True, seat_wind="S", first_turn="first_draw"),
        expect={
            M: Expect(faan=10, winnable=True, patterns={"earthly_hand": 10}),  # L10 (first draw)
            B: Expect(faan=4, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1, "no_bonus": 1}),  # no pattern for first_draw: 1+1+1+1 = 4
            J: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1}),  # 1+1+1 = 3
            H: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1}),  # 1+1+1 = 3
            P: Expect(faan=3, winnable=True, patterns={"all_chows": 2, "self_draw": 1}),  # 2+1 = 3
        },
    ),
    Case(
        id="earthly_or_human_hand_first_discard_south",
        source="RULES.md earthly_hand (B/J/H first discard), human_hand (M first discard), ruling 7",
        hand=h(AC, seat_wind="S", first_turn="first_discard", discarder="E"),
        expect={
            M: Expect(faan=10, winnable=True, patterns={"human_hand": 10}),  # L10 (first discard)
            B: Expect(faan=13, winnable=True, patterns={"earthly_hand": 13}),  # L13
            J: Expect(faan=10, winnable=True, patterns={"earthly_hand": 10}),  # L10
            H: Expect(faan=13, winnable=True, patterns={"earthly_hand": 13}),  # L13, discard: nothing added
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
    Case(
        id="first_turn_miss_south_ordinary_discard",
        source="RULES.md earthly_hand/human_hand (no first_turn given)",
        hand=h(AC, seat_wind="S", discarder="E"),
        expect={
            M: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            B: Expect(faan=3, winnable=True, patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1}),  # 1+1+1 = 3
            J: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 2
            H: Expect(faan=2, patterns={"all_chows": 1, "concealed_hand": 1}),  # 2
            P: Expect(faan=2, winnable=True, patterns={"all_chows": 2}),  # 2
        },
    ),
]
