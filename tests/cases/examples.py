"""Worked examples of the source texts and one or more cases per RULES.md ruling.

Every number below was worked out by hand from /work/shared/RULES.md and the
seed texts (the arithmetic is in the comment beside it); none was taken from
running hkcore.

Conventions used in the comments:
  * "b(n)" is the bga-old-style base-point table: 0..13 faan ->
    1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384.
  * "jc(n)" is the just-cards self-draw share for n faan (3..10) ->
    16, 32, 48, 64, 96, 128, 192, 256; a discarder alone pays 2 * jc(n).
  * playingcards-io: self-draw each pays 8+v; discard: discarder 8+v, others 8.
  * Seats: the winner is `seat_wind`; E is the dealer.
  * Payments are given only for hands that win; for a complete hand that cannot
    be declared they are left unchecked (RULES.md does not say whether they are
    null or all zero: see the open questions in the helper's report).

Where a source statement leaves context out, the case adds the least context
that makes its arithmetic hold; the `source` string says what was added.
Typical additions: a flower that is not the seat's (so mistboard/bga do not add
`no_bonus`), a claimed set (so `concealed_hand` does not add), sets spread over
two suits (so `half_flush` does not add).
"""
from __future__ import annotations

from cases import Case, Expect


def pay(E: int, S: int, W: int, N: int) -> dict[str, int]:
    """Net payments of the four seats (must sum to zero)."""
    d = {"E": E, "S": S, "W": W, "N": N}
    assert sum(d.values()) == 0, d
    return d


def err(text: str) -> Expect:
    return Expect(error=text)


FLOWERS_ERR = err("flowers")  # ruling 14: bonus tiles at a 136-tile table
SEASONS_ERR = err("seasons")


CASES: list[Case] = [
    # ------------------------------------------------------------------
    # Board Game Arena (001): the four "Examples" and the payment example
    # ------------------------------------------------------------------
    Case(
        id="bga-example-1-common-hand-self-draw-seat-season",
        source="001 Examples #1 'Four Chows and Eyes, won by Self-draw, holding your own-seat "
               "Season: 1+1+1 = 3'; 001 Payment example 3 faan self-draw (+48). Context added: one "
               "chow claimed (else concealed_hand), chows over two suits (else half flush), "
               "West seat holding season 3.",
        hand={
            "tiles": "456p23467899s",
            "melds": [{"kind": "chow", "tiles": "123m", "from": "S"}],
            "win_tile": "6s", "self_draw": True,
            "seat_wind": "W", "round_wind": "E",
            "seasons": [3],
        },
        expect={
            # all_chows 1 + self_draw 1 + seat_season 1 = 3; b(3)=8, each pays 2b=16 -> W +48
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "self_draw": 1, "seat_season": 1},
                                    payments=pay(E=-16, S=-16, W=48, N=-16)),
            # same values on mistboard: 1 + 1 + 1 = 3 (a season held: no no_bonus)
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "self_draw": 1, "seat_season": 1},
                                payments=None),
            # all_chows 2 + self_draw 1 + bonus_tile 1 = 4; each pays 8+4=12 -> +36
            "playingcards-io": Expect(faan=4, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1, "bonus_tile": 1},
                                      payments=pay(E=-12, S=-12, W=36, N=-12)),
            "just-cards": SEASONS_ERR,   # 136 tiles: a season is an error (ruling 14)
            "hk-classic": SEASONS_ERR,
        },
    ),
    Case(
        id="bga-example-2-great-dragons-discard",
        source="001 Examples #2 'Three Dragon Pungs, a Chow and Eyes, won on a discard: 5 + 3 = 8'; "
               "001 Payment table (discard). Context added: a non-seat flower (else no_bonus), two "
               "dragon pungs claimed (else concealed_hand), eyes in another suit than the chow "
               "(else half flush).",
        hand={
            "tiles": "234m88p777z",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "W"},
                      {"kind": "pung", "tiles": "666z", "from": "N"}],
            "win_tile": "3m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            # big_three_dragons 5 + dragon_pung 3x1 = 8; b(8)=64: W pays 128, E,N 64 -> S +256
            "bga-old-style": Expect(faan=8, winnable=True,
                                    patterns={"big_three_dragons": 5, "dragon_pung": 3},
                                    payments=pay(E=-64, S=256, W=-128, N=-64)),
            # big_three_dragons 8 incl. dragon_pung = 8 (flower 1 is not South's)
            "mistboard": Expect(faan=8, winnable=True, patterns={"big_three_dragons": 8},
                                payments=None),
            # three dragon pungs 6 (ruling 14) + bonus_tile 1 = 7; W pays 15, E,N 8 -> +31
            "playingcards-io": Expect(faan=7, winnable=True,
                                      patterns={"dragon_pung": 6, "bonus_tile": 1},
                                      payments=pay(E=-8, S=31, W=-15, N=-8)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="great-dragons-discard-no-bonus",
        source="001 Examples #2 hand without the flower, for the 136-tile presets; "
               "hk-classic big three dragons 8 incl. dragon_pung; ruling 9/14 (three dragon pungs = 6).",
        hand={
            "tiles": "234m88p777z",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "W"},
                      {"kind": "pung", "tiles": "666z", "from": "N"}],
            "win_tile": "3m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 5 + 3 + no_bonus 1 = 9; b(9)=96: W 192, E,N 96 -> S +384
            "bga-old-style": Expect(faan=9, winnable=True,
                                    patterns={"big_three_dragons": 5, "dragon_pung": 3, "no_bonus": 1},
                                    payments=pay(E=-96, S=384, W=-192, N=-96)),
            # 8 (incl. dragon_pung) + no_bonus 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"big_three_dragons": 8, "no_bonus": 1}, payments=None),
            # 5 + 3 = 8; jc(8)=128, discarder alone pays 2x = 256
            "just-cards": Expect(faan=8, winnable=True,
                                 patterns={"big_three_dragons": 5, "dragon_pung": 3},
                                 payments=pay(E=0, S=256, W=-256, N=0)),
            # big_three_dragons 8 incl. dragon_pung = 8
            "hk-classic": Expect(faan=8, winnable=True, patterns={"big_three_dragons": 8},
                                 payments=None),
            # three dragon pungs: 6; W pays 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"dragon_pung": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    Case(
        id="bga-example-3-great-winds-self-draw-seat-flower",
        source="001 Examples #3 'Great Winds won by Self-draw with an own-seat Flower: 13 Faan, "
               "nothing added'. Context added: the wind pungs claimed, eyes 5m, South seat, East "
               "round. mistboard left out (open question: its ordinary count is 10 = its limit).",
        hand={
            "tiles": "55m222z",
            "melds": [{"kind": "pung", "tiles": "111z"},
                      {"kind": "pung", "tiles": "333z"},
                      {"kind": "pung", "tiles": "444z"}],
            "win_tile": "5m", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [2],
        },
        expect={
            # big_four_winds L13 flat (ordinary: all_pungs 3 + half_flush 3 + seat 1 + round 1
            # + self_draw 1 + seat_flower 1 = 10 < 13); b(13)=384, each pays 768 -> +2304
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"big_four_winds": 13},
                                    payments=pay(E=-768, S=2304, W=-768, N=-768)),
            # all_pungs 6 + seat_wind 2 + self_draw 1 + bonus_tile 1 = 10; each pays 18 -> +54
            "playingcards-io": Expect(faan=10, winnable=True,
                                      patterns={"all_pungs": 6, "seat_wind": 2, "self_draw": 1,
                                                "bonus_tile": 1},
                                      payments=pay(E=-18, S=54, W=-18, N=-18)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="bga-example-4-no-element-zero-faan",
        source="001 Examples #4 'Three Chows, one claimed Pung of 6 Characters, Eyes of South, as "
               "West in an East Round, holding Bonus tiles: 0 Faan, can't win at a 3-Faan table'. "
               "Context added: chows over two suits, flowers 1 and 2 (not West's 3), discard win.",
        hand={
            "tiles": "123p456789s22z",
            "melds": [{"kind": "pung", "tiles": "666m", "from": "N"}],
            "win_tile": "5s", "discarder": "N",
            "seat_wind": "W", "round_wind": "E",
            "flowers": [1, 2],
        },
        expect={
            # nothing: chicken_hand 0; below the minimum 3
            "bga-old-style": Expect(faan=0, winnable=False, patterns={"chicken_hand": 0}),
            "mistboard": Expect(faan=0, winnable=False, patterns={"chicken_hand": 0}),
            # bonus_tile 2 = 2, no minimum; N pays 10, E,S 8 -> W +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"bonus_tile": 2},
                                      payments=pay(E=-8, S=-8, W=26, N=-10)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="bga-payment-3-faan-discard",
        source="001 Payment example: '3 Faan (b = 8) ... A Discard win collects 16 from the "
               "Discarder and 8 from each of the other two (+32)'. Hand: concealed four chows, "
               "no bonus tiles.",
        hand={
            "tiles": "234567m34599p678s",
            "win_tile": "6s", "discarder": "N",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # all_chows 1 + concealed_hand 1 + no_bonus 1 = 3; N 16, E,W 8 -> S +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                    payments=pay(E=-8, S=32, W=-8, N=-16)),
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # all_chows 1 + concealed_hand 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "concealed_hand": 1}),
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "concealed_hand": 1}),
            # all_chows 2; N pays 10, E,W 8 -> +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-8, S=26, W=-8, N=-10)),
        },
    ),
    Case(
        id="bga-payment-3-faan-robbing-the-kong",
        source="001 Payment example: 'Robbing the Kong collects 48 from the Kong-maker alone "
               "(+48)'; ruling 11 (just-cards/playingcards-io pay a robbed kong as a discard); "
               "ruling 13 (mistboard scores no pattern for robbing). East adds a 6p to its pung.",
        hand={
            "tiles": "678m456p23499s",
            "melds": [{"kind": "chow", "tiles": "345m", "from": "W"}],
            "win_tile": "6p", "robbing_kong": True, "discarder": "E",
            "seat_wind": "N", "round_wind": "E",
        },
        expect={
            # all_chows 1 + robbing_kong 1 + no_bonus 1 = 3; b(3)=8, E alone pays 6b=48
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "robbing_kong": 1, "no_bonus": 1},
                                    payments=pay(E=-48, S=0, W=0, N=48)),
            # robbing_kong is not a mistboard pattern: all_chows 1 + no_bonus 1 = 2 < 3
            "mistboard": Expect(faan=2, winnable=False,
                                patterns={"all_chows": 1, "no_bonus": 1}),
            # all_chows 1 + robbing_kong 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "robbing_kong": 1}),
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "robbing_kong": 1}),
            # all_chows 2; paid as a discard by kong-maker E: E 10, S,W 8 -> N +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-10, S=-8, W=-8, N=26)),
        },
    ),
    # ------------------------------------------------------------------
    # Just Cards (002): payment table
    # ------------------------------------------------------------------
    Case(
        id="just-cards-3-faan-self-draw-dealer",
        source="002 'For 3-10 faan, each opponent pays 16, 32, ... on a self draw': a 3-faan "
               "self-draw by the dealer (16 each). Concealed four chows, no bonus tiles.",
        hand={
            "tiles": "123456m789p34555s",
            "win_tile": "9p", "self_draw": True,
            "seat_wind": "E", "round_wind": "E",
        },
        expect={
            # all_chows 1 + concealed_hand 1 + self_draw 1 = 3; jc(3)=16 each -> E +48
            "just-cards": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                 payments=pay(E=48, S=-16, W=-16, N=-16)),
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                 payments=None),
            # 1 + 1 + 1 + no_bonus 1 = 4
            "mistboard": Expect(faan=4, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1,
                                          "no_bonus": 1},
                                payments=None),
            # 4; b(4)=16, each pays 32 -> E +96 (the dealer receives like everyone else)
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1,
                                              "no_bonus": 1},
                                    payments=pay(E=96, S=-32, W=-32, N=-32)),
            # all_chows 2 + self_draw 1 = 3; each pays 11 -> +33
            "playingcards-io": Expect(faan=3, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1},
                                      payments=pay(E=33, S=-11, W=-11, N=-11)),
        },
    ),
    Case(
        id="just-cards-3-faan-discard-half-flush",
        source="002 'A discarder alone pays twice the listed amount': 3 faan on a discard, the "
               "discarder pays 32. Half flush with an honour pair; ruling 5 (one honour suffices).",
        hand={
            "tiles": "456678999p33z",
            "melds": [{"kind": "chow", "tiles": "123p", "from": "E"}],
            "win_tile": "3z", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # half_flush 3 = 3; jc(3)=16, W alone pays 32
            "just-cards": Expect(faan=3, winnable=True, patterns={"half_flush": 3},
                                 payments=pay(E=0, S=32, W=-32, N=0)),
            "hk-classic": Expect(faan=3, winnable=True, patterns={"half_flush": 3}, payments=None),
            # half_flush 3 + no_bonus 1 = 4
            "mistboard": Expect(faan=4, winnable=True, patterns={"half_flush": 3, "no_bonus": 1},
                                payments=None),
            # 4; b(4)=16: W 32, E,N 16 -> S +64
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"half_flush": 3, "no_bonus": 1},
                                    payments=pay(E=-16, S=64, W=-32, N=-16)),
            # nothing scores: chicken 0 (no minimum); W 8, E 8, N 8 -> +24
            "playingcards-io": Expect(faan=0, winnable=True, patterns={"chicken_hand": 0},
                                      payments=pay(E=-8, S=24, W=-8, N=-8)),
        },
    ),
    Case(
        id="just-cards-liability-fourth-declared-set",
        source="RULES.md Payments just-cards liability: N fed S's fourth declared set (333z), S "
               "later self-draws: N pays all three shares.",
        hand={
            "tiles": "88p",
            "melds": [{"kind": "chow", "tiles": "123p", "from": "E"},
                      {"kind": "pung", "tiles": "999p", "from": "W"},
                      {"kind": "chow", "tiles": "567p", "from": "E"},
                      {"kind": "pung", "tiles": "333z", "from": "N"}],
            "win_tile": "8p", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # half_flush 3 + self_draw 1 = 4; jc(4)=32, N pays 3 x 32 = 96
            "just-cards": Expect(faan=4, winnable=True,
                                 patterns={"half_flush": 3, "self_draw": 1},
                                 payments=pay(E=0, S=96, W=0, N=-96)),
            "hk-classic": Expect(faan=4, winnable=True,
                                 patterns={"half_flush": 3, "self_draw": 1}, payments=None),
            # 3 + 1 + no_bonus 1 = 5
            "mistboard": Expect(faan=5, winnable=True,
                                patterns={"half_flush": 3, "self_draw": 1, "no_bonus": 1},
                                payments=None),
            # 5; b(5)=24, no liability in bga: each pays 48 -> +144
            "bga-old-style": Expect(faan=5, winnable=True,
                                    patterns={"half_flush": 3, "self_draw": 1, "no_bonus": 1},
                                    payments=pay(E=-48, S=144, W=-48, N=-48)),
            # self_draw 1; each pays 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=27, W=-9, N=-9)),
        },
    ),
    # ------------------------------------------------------------------
    # Mistboard (000): worked statements
    # ------------------------------------------------------------------
    Case(
        id="mistboard-four-concealed-chows-self-draw-three",
        source="000 'a hand of four chows that you never claimed from and finish by self-draw is "
               "three: all chows, fully concealed, self-drawn'. Context added: a flower that is "
               "not the seat's (flower 1 at South), else no_bonus makes it 4.",
        hand={
            "tiles": "123456m789p23466s",
            "win_tile": "4s", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            # all_chows 1 + concealed_hand 1 + self_draw 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                payments=None),
            # same 3; b(3)=8, each pays 16 -> +48
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                    payments=pay(E=-16, S=48, W=-16, N=-16)),
            # all_chows 2 + self_draw 1 + bonus_tile 1 = 4; each pays 12 -> +36
            "playingcards-io": Expect(faan=4, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1, "bonus_tile": 1},
                                      payments=pay(E=-12, S=36, W=-12, N=-12)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-one-chow-claimed-drops-to-two",
        source="000 'The same hand with one chow claimed drops to two and cannot be declared'.",
        hand={
            "tiles": "456m789p23466s",
            "melds": [{"kind": "chow", "tiles": "123m", "from": "E"}],
            "win_tile": "4s", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            # all_chows 1 + self_draw 1 = 2 < 3
            "mistboard": Expect(faan=2, winnable=False,
                                patterns={"all_chows": 1, "self_draw": 1}),
            "bga-old-style": Expect(faan=2, winnable=False,
                                    patterns={"all_chows": 1, "self_draw": 1}),
            # all_chows 2 + self_draw 1 + bonus_tile 1 = 4; each pays 12 -> +36
            "playingcards-io": Expect(faan=4, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1, "bonus_tile": 1},
                                      payments=pay(E=-12, S=36, W=-12, N=-12)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-half-flush-of-pungs-with-dragon",
        source="000 'a half flush made of pungs is 3 plus 3, and a pung of a dragon inside it adds "
               "one more' = 7. Context added: claimed pungs, discard win, non-seat flower.",
        hand={
            "tiles": "88899m",
            "melds": [{"kind": "pung", "tiles": "222m", "from": "W"},
                      {"kind": "pung", "tiles": "555m", "from": "N"},
                      {"kind": "pung", "tiles": "777z", "from": "E"}],
            "win_tile": "9m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            # all_pungs 3 + half_flush 3 + dragon_pung 1 = 7
            "mistboard": Expect(faan=7, winnable=True,
                                patterns={"all_pungs": 3, "half_flush": 3, "dragon_pung": 1},
                                payments=None),
            # 7; b(7)=48: W 96, E,N 48 -> S +192
            "bga-old-style": Expect(faan=7, winnable=True,
                                    patterns={"all_pungs": 3, "half_flush": 3, "dragon_pung": 1},
                                    payments=pay(E=-48, S=192, W=-96, N=-48)),
            # all_pungs 6 + dragon 2 + bonus 1 = 9; W 17, E,N 8 -> +33
            "playingcards-io": Expect(faan=9, winnable=True,
                                      patterns={"all_pungs": 6, "dragon_pung": 2, "bonus_tile": 1},
                                      payments=pay(E=-8, S=33, W=-17, N=-8)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-east-pung-of-east-in-east-round-is-two",
        source="000 'East's pung of East in an East round is two'; ruling 4. Context added: the "
               "rest chows over three suits, a claimed pung, flower 2 (not East's), discard win.",
        hand={
            "tiles": "234m567p55789s",
            "melds": [{"kind": "pung", "tiles": "111z", "from": "S"}],
            "win_tile": "2m", "discarder": "N",
            "seat_wind": "E", "round_wind": "E",
            "flowers": [2],
        },
        expect={
            # seat_wind 1 + round_wind 1 = 2 < 3
            "mistboard": Expect(faan=2, winnable=False,
                                patterns={"seat_wind": 1, "round_wind": 1}),
            "bga-old-style": Expect(faan=2, winnable=False,
                                    patterns={"seat_wind": 1, "round_wind": 1}),
            # seat_wind 2 (no round_wind in pcio) + bonus_tile 1 = 3; N 11, S,W 8 -> E +27
            "playingcards-io": Expect(faan=3, winnable=True,
                                      patterns={"seat_wind": 2, "bonus_tile": 1},
                                      payments=pay(E=27, S=-8, W=-8, N=-11)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-wind-not-yours-scores-your-flowers-seat-flower",
        source="000 'two chows, a pung of a wind that is not yours, and a pair ... on a discard "
               "scores whatever your flowers are worth'. Context added: a third (claimed) chow to "
               "make four sets; the wind is neither seat nor round wind; South holds flower 2.",
        hand={
            "tiles": "456p22789s",
            "melds": [{"kind": "chow", "tiles": "123m", "from": "E"},
                      {"kind": "pung", "tiles": "444z", "from": "W"}],
            "win_tile": "7s", "discarder": "N",
            "seat_wind": "S", "round_wind": "E",
            "flowers": [2],
        },
        expect={
            # seat_flower 1 = 1 (the flowers' worth), not declarable
            "mistboard": Expect(faan=1, winnable=False, patterns={"seat_flower": 1}),
            "bga-old-style": Expect(faan=1, winnable=False, patterns={"seat_flower": 1}),
            # bonus_tile 1; N 9, E,W 8 -> S +25
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"bonus_tile": 1},
                                      payments=pay(E=-8, S=25, W=-8, N=-9)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-wind-not-yours-scores-your-flowers-none",
        source="000 same statement with no bonus tiles: the flowers are worth no_bonus 1 where it "
               "exists, nothing elsewhere (chicken hand).",
        hand={
            "tiles": "456p22789s",
            "melds": [{"kind": "chow", "tiles": "123m", "from": "E"},
                      {"kind": "pung", "tiles": "444z", "from": "W"}],
            "win_tile": "7s", "discarder": "N",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "mistboard": Expect(faan=1, winnable=False, patterns={"no_bonus": 1}),      # no_bonus 1
            "bga-old-style": Expect(faan=1, winnable=False, patterns={"no_bonus": 1}),  # no_bonus 1
            "just-cards": Expect(faan=0, winnable=False, patterns={"chicken_hand": 0}),  # nothing
            "hk-classic": Expect(faan=0, winnable=False, patterns={"chicken_hand": 0}),  # nothing
            # chicken 0 but no minimum: N 8, E 8, W 8 -> S +24
            "playingcards-io": Expect(faan=0, winnable=True, patterns={"chicken_hand": 0},
                                      payments=pay(E=-8, S=24, W=-8, N=-8)),
        },
    ),
    Case(
        id="mistboard-seat-wind-dragon-seat-flower-three",
        source="000 'A pung of your seat wind plus a pung of a dragon plus your flower is three "
               "with any shape around it'. North seat, flower 4, rest chows, discard win.",
        hand={
            "tiles": "123m55p789s",
            "melds": [{"kind": "pung", "tiles": "444z", "from": "S"},
                      {"kind": "pung", "tiles": "666z", "from": "E"}],
            "win_tile": "5p", "discarder": "W",
            "seat_wind": "N", "round_wind": "E",
            "flowers": [4],
        },
        expect={
            # seat_wind 1 + dragon_pung 1 + seat_flower 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"seat_wind": 1, "dragon_pung": 1, "seat_flower": 1},
                                payments=None),
            # 3; b(3)=8: W 16, E,S 8 -> N +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"seat_wind": 1, "dragon_pung": 1, "seat_flower": 1},
                                    payments=pay(E=-8, S=-8, W=-16, N=32)),
            # seat_wind 2 + dragon 2 + bonus 1 = 5; W 13, E,S 8 -> N +29
            "playingcards-io": Expect(faan=5, winnable=True,
                                      patterns={"seat_wind": 2, "dragon_pung": 2, "bonus_tile": 1},
                                      payments=pay(E=-8, S=-8, W=-13, N=29)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="mistboard-all-pungs-three-by-itself",
        source="000 'All pungs is three by itself'. Context added: claimed pungs over three suits, "
               "flower 1 (not West's), discard win.",
        hand={
            "tiles": "33p888s",
            "melds": [{"kind": "pung", "tiles": "222m", "from": "S"},
                      {"kind": "pung", "tiles": "444p", "from": "E"},
                      {"kind": "pung", "tiles": "666s", "from": "N"}],
            "win_tile": "3p", "discarder": "N",
            "seat_wind": "W", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            "mistboard": Expect(faan=3, winnable=True, patterns={"all_pungs": 3},
                                payments=None),  # all_pungs 3
            # 3; b(3)=8: N 16, E,S 8 -> W +32
            "bga-old-style": Expect(faan=3, winnable=True, patterns={"all_pungs": 3},
                                    payments=pay(E=-8, S=-8, W=32, N=-16)),
            # all_pungs 6 + bonus 1 = 7; N 15, E,S 8 -> W +31
            "playingcards-io": Expect(faan=7, winnable=True,
                                      patterns={"all_pungs": 6, "bonus_tile": 1},
                                      payments=pay(E=-8, S=-8, W=31, N=-15)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    # ------------------------------------------------------------------
    # PlayingCards.io (004): scoring chart and payments
    # ------------------------------------------------------------------
    Case(
        id="playingcards-io-self-draw-two-dragons-seat-wind-flowers",
        source="004 Scoring: two dragon pungs 6 (not 2 each), seated wind 2, bonus tiles 1 each, "
               "self-draw 1; payment 3.1 'each player pays the winner 8 points plus the total'.",
        hand={
            "tiles": "22m789p",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "N"},
                      {"kind": "pung", "tiles": "666z", "from": "E"},
                      {"kind": "pung", "tiles": "333z", "from": "S"}],
            "win_tile": "9p", "self_draw": True,
            "seat_wind": "W", "round_wind": "S",
            "flowers": [1, 2],
        },
        expect={
            # dragon_pung 6 + seat_wind 2 + self_draw 1 + bonus_tile 2 = 11; each pays 19 -> +57
            "playingcards-io": Expect(faan=11, winnable=True,
                                      patterns={"dragon_pung": 6, "seat_wind": 2, "self_draw": 1,
                                                "bonus_tile": 2},
                                      payments=pay(E=-19, S=-19, W=57, N=-19)),
            # dragon 2 + seat_wind 1 + self_draw 1 = 4 (round S: no 2z pung; flowers not West's)
            "mistboard": Expect(faan=4, winnable=True,
                                patterns={"dragon_pung": 2, "seat_wind": 1, "self_draw": 1},
                                payments=None),
            # 4; b(4)=16, each pays 32 -> +96
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"dragon_pung": 2, "seat_wind": 1, "self_draw": 1},
                                    payments=pay(E=-32, S=-32, W=96, N=-32)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="playingcards-io-discard-four-chows-flowers",
        source="004 Scoring: four chows 2, bonus tiles 1 each; payment 3.2 'the player who "
               "discarded it pays 8 points plus the total ... The other two players then pay 8 each'.",
        hand={
            "tiles": "23499m456789p345s",
            "win_tile": "4p", "discarder": "W",
            "seat_wind": "N", "round_wind": "E",
            "flowers": [1, 3, 4],
        },
        expect={
            # all_chows 2 + bonus_tile 3 = 5; W 13, E,S 8 -> N +29
            "playingcards-io": Expect(faan=5, winnable=True,
                                      patterns={"all_chows": 2, "bonus_tile": 3},
                                      payments=pay(E=-8, S=-8, W=-13, N=29)),
            # all_chows 1 + concealed_hand 1 + seat_flower 1 (flower 4 = North) = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1},
                                payments=None),
            # 3; b(3)=8: W 16, E,S 8 -> N +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "seat_flower": 1},
                                    payments=pay(E=-8, S=-8, W=-16, N=32)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 1: adding up, includes, limits, cap, limit never lowers
    # ------------------------------------------------------------------
    Case(
        id="r1-includes-little-three-dragons",
        source="Ruling 1 / values table: little_three_dragons 5 incl. dragon_pung (mistboard, "
               "hk-classic) vs 3 plus the dragon pungs (bga, just-cards); pcio two dragons 6.",
        hand={
            "tiles": "234m567p77z",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "N"},
                      {"kind": "pung", "tiles": "666z", "from": "W"}],
            "win_tile": "7z", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # little_three_dragons 5 (incl. dragon_pung) + no_bonus 1 = 6
            "mistboard": Expect(faan=6, winnable=True,
                                patterns={"little_three_dragons": 5, "no_bonus": 1}, payments=None),
            # 3 + dragon_pung 2 + no_bonus 1 = 6; b(6)=32: W 64, E,N 32 -> S +128
            "bga-old-style": Expect(faan=6, winnable=True,
                                    patterns={"little_three_dragons": 3, "dragon_pung": 2,
                                              "no_bonus": 1},
                                    payments=pay(E=-32, S=128, W=-64, N=-32)),
            # 3 + 2 = 5; jc(5)=48, W pays 96
            "just-cards": Expect(faan=5, winnable=True,
                                 patterns={"little_three_dragons": 3, "dragon_pung": 2},
                                 payments=pay(E=0, S=96, W=-96, N=0)),
            # 5 incl. dragon_pung
            "hk-classic": Expect(faan=5, winnable=True, patterns={"little_three_dragons": 5},
                                 payments=None),
            # two dragon pungs 6; W 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"dragon_pung": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    Case(
        id="r1-cap-little-three-dragons-half-flush-all-pungs",
        source="Ruling 1 'Then the cap applies'; patterns list the values before the cap "
               "(mistboard 12 -> 10, just-cards 11 -> 10); pcio has no cap.",
        hand={
            "tiles": "777p77z",
            "melds": [{"kind": "pung", "tiles": "555z", "from": "N"},
                      {"kind": "pung", "tiles": "666z", "from": "E"},
                      {"kind": "pung", "tiles": "222p", "from": "W"}],
            "win_tile": "7p", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 5 + all_pungs 3 + half_flush 3 + no_bonus 1 = 12 -> cap 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"little_three_dragons": 5, "all_pungs": 3,
                                          "half_flush": 3, "no_bonus": 1},
                                payments=None),
            # 3 + 2 + 3 + 3 + 1 = 12 (cap 13); b(12)=256: W 512, E,N 256 -> S +1024
            "bga-old-style": Expect(faan=12, winnable=True,
                                    patterns={"little_three_dragons": 3, "dragon_pung": 2,
                                              "all_pungs": 3, "half_flush": 3, "no_bonus": 1},
                                    payments=pay(E=-256, S=1024, W=-512, N=-256)),
            # 3 + 2 + 3 + 3 = 11 -> cap 10; jc(10)=256, W pays 512
            "just-cards": Expect(faan=10, winnable=True,
                                 patterns={"little_three_dragons": 3, "dragon_pung": 2,
                                           "all_pungs": 3, "half_flush": 3},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            # 5 + 3 + 3 = 11 (cap 13)
            "hk-classic": Expect(faan=11, winnable=True,
                                 patterns={"little_three_dragons": 5, "all_pungs": 3,
                                           "half_flush": 3},
                                 payments=None),
            # all_pungs 6 + two dragons 6 = 12; W 20, E,N 8 -> +36
            "playingcards-io": Expect(faan=12, winnable=True,
                                      patterns={"all_pungs": 6, "dragon_pung": 6},
                                      payments=pay(E=-8, S=36, W=-20, N=-8)),
        },
    ),
    Case(
        id="r1-limit-never-lowers-bga-12",
        source="Ruling 1: 'a concealed, self-drawn full flush of four pungs in bga-old-style: "
               "3 + 7 + 1 + 1 = 12 against the limit's 10'. A non-seat flower (2 at East) so that "
               "no_bonus does not add, as the ruling's arithmetic assumes.",
        hand={
            "tiles": "22244455666888p",
            "win_tile": "5p", "self_draw": True,
            "seat_wind": "E", "round_wind": "E",
            "flowers": [2],
        },
        expect={
            # ordinary: all_pungs 3 + full_flush 7 + concealed 1 + self_draw 1 = 12 > L10
            # b(12)=256, each pays 512 -> E +1536
            "bga-old-style": Expect(faan=12, winnable=True,
                                    patterns={"all_pungs": 3, "full_flush": 7, "concealed_hand": 1,
                                              "self_draw": 1},
                                    payments=pay(E=1536, S=-512, W=-512, N=-512)),
            # four_concealed_pungs 8 (incl. all_pungs, concealed) + full_flush 7 + self_draw 1
            # = 16 -> cap 10 (not a limit on mistboard, ruling 10)
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"four_concealed_pungs": 8, "full_flush": 7,
                                          "self_draw": 1},
                                payments=None),
            # all_pungs 6 + self_draw 1 + bonus 1 = 8; each pays 16 -> +48
            "playingcards-io": Expect(faan=8, winnable=True,
                                      patterns={"all_pungs": 6, "self_draw": 1, "bonus_tile": 1},
                                      payments=pay(E=48, S=-16, W=-16, N=-16)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    Case(
        id="r1-limit-never-lowers-no-bonus",
        source="Ruling 1 'a limit never lowers a hand', without bonus tiles; hk-classic compares "
               "with its limit plus win-condition faan (10 + 1 = 11 < 12). just-cards left out "
               "(open question: ordinary 12 capped to 10 equals its limit 10).",
        hand={
            "tiles": "22244455666888p",
            "win_tile": "5p", "self_draw": True,
            "seat_wind": "E", "round_wind": "E",
        },
        expect={
            # 3 + 7 + 1 + 1 + no_bonus 1 = 13 > L10; b(13)=384, each pays 768 -> +2304
            "bga-old-style": Expect(faan=13, winnable=True,
                                    patterns={"all_pungs": 3, "full_flush": 7, "concealed_hand": 1,
                                              "self_draw": 1, "no_bonus": 1},
                                    payments=pay(E=2304, S=-768, W=-768, N=-768)),
            # 8 + 7 + 1 + 1 = 17 -> 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"four_concealed_pungs": 8, "full_flush": 7,
                                          "self_draw": 1, "no_bonus": 1},
                                payments=None),
            # ordinary 3 + 7 + 1 + 1 = 12 > limit 10 + self_draw 1 = 11
            "hk-classic": Expect(faan=12, winnable=True,
                                 patterns={"all_pungs": 3, "full_flush": 7, "concealed_hand": 1,
                                           "self_draw": 1},
                                 payments=None),
            # all_pungs 6 + self_draw 1 = 7; each pays 15 -> +45
            "playingcards-io": Expect(faan=7, winnable=True,
                                      patterns={"all_pungs": 6, "self_draw": 1},
                                      payments=pay(E=45, S=-15, W=-15, N=-15)),
        },
    ),
    Case(
        id="r1-hk-classic-limit-plus-win-conditions",
        source="Ruling 1: in hk-classic the win-condition patterns still add to a limit "
               "(all honours 10 + self_draw 1 + last_tile 1 = 12); elsewhere the limit is flat.",
        hand={
            "tiles": "33355566z",
            "melds": [{"kind": "pung", "tiles": "111z"},
                      {"kind": "pung", "tiles": "222z"}],
            "win_tile": "6z", "self_draw": True, "last_tile": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "hk-classic": Expect(faan=12, winnable=True,
                                 patterns={"all_honours": 10, "self_draw": 1, "last_tile": 1},
                                 payments=None),
            # L10 flat (ordinary: all_pungs 3 + seat 1 + round 1 + dragon 1 + self 1 + last 1
            # + no_bonus 1 = 9 < 10)
            "mistboard": Expect(faan=10, winnable=True, patterns={"all_honours": 10},
                                payments=None),
            # L10 (ordinary 9); b(10)=128, each pays 256 -> +768
            "bga-old-style": Expect(faan=10, winnable=True, patterns={"all_honours": 10},
                                    payments=pay(E=-256, S=768, W=-256, N=-256)),
            # L10 (ordinary 8); jc(10)=256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"all_honours": 10},
                                 payments=pay(E=-256, S=768, W=-256, N=-256)),
            # no limits: all_pungs 6 + dragon 2 + seat_wind 2 + self_draw 1 = 11; each 19 -> +57
            "playingcards-io": Expect(faan=11, winnable=True,
                                      patterns={"all_pungs": 6, "dragon_pung": 2, "seat_wind": 2,
                                                "self_draw": 1},
                                      payments=pay(E=-19, S=57, W=-19, N=-19)),
        },
    ),
    Case(
        id="r1-hk-classic-limit-13-plus-self-draw-capped",
        source="Ruling 1 + hk-classic cap 13 (ruling 12): thirteen orphans L13 + self_draw 1 = 14 "
               "-> 13; ruling 9: no thirteen orphans under playingcards-io.",
        hand={
            "tiles": "19m19p19s12345677z",
            "win_tile": "7z", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "hk-classic": Expect(faan=13, winnable=True,
                                 patterns={"thirteen_orphans": 13, "self_draw": 1}, payments=None),
            "mistboard": Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10},
                                payments=None),
            # L13; b(13)=384, each pays 768 -> +2304
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"thirteen_orphans": 13},
                                    payments=pay(E=-768, S=2304, W=-768, N=-768)),
            # L10; 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"thirteen_orphans": 10},
                                 payments=pay(E=-256, S=768, W=-256, N=-256)),
            # not a winning shape: nothing
            "playingcards-io": Expect(faan=0, winnable=False, complete=False, patterns={}),
        },
    ),
    Case(
        id="r1-equal-limits-first-listed-and-10-vs-13",
        source="Ruling 1: 'between equal limits, the one listed first ... in the values table' "
               "(all_honours before big_four_winds, both L10 in mistboard and just-cards); bga 'a "
               "hand that is both a 10- and a 13-Faan limit hand scores 13'.",
        hand={
            "tiles": "55z",
            "melds": [{"kind": "pung", "tiles": "111z"},
                      {"kind": "pung", "tiles": "222z"},
                      {"kind": "pung", "tiles": "333z"},
                      {"kind": "pung", "tiles": "444z"}],
            "win_tile": "5z", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # all_honours L10 shown (ordinary: all_pungs 3 + seat 1 + round 1 + no_bonus 1 = 6)
            "mistboard": Expect(faan=10, winnable=True, patterns={"all_honours": 10},
                                payments=None),
            # big_four_winds L13 > all_honours L10; b(13)=384: W 768, E,N 384 -> S +1536
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"big_four_winds": 13},
                                    payments=pay(E=-384, S=1536, W=-768, N=-384)),
            # both L10 -> all_honours; W pays 2 x 256 = 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"all_honours": 10},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            # big_four_winds L13 > all_honours L10; no win-condition faan on a plain discard
            "hk-classic": Expect(faan=13, winnable=True, patterns={"big_four_winds": 13},
                                 payments=None),
            # all_pungs 6 + seat_wind 2 = 8 (a dragon pair scores nothing); W 16, E,N 8 -> +32
            "playingcards-io": Expect(faan=8, winnable=True,
                                      patterns={"all_pungs": 6, "seat_wind": 2},
                                      payments=pay(E=-8, S=32, W=-16, N=-8)),
        },
    ),
    Case(
        id="r1-little-four-winds-limit-in-just-cards-only",
        source="Values table: little_four_winds 6 (mistboard, bga, hk-classic; wind and half-flush "
               "faan add, 003 'wind and half-flush faan may also apply'), L10 in just-cards.",
        hand={
            "tiles": "234m33344z",
            "melds": [{"kind": "pung", "tiles": "111z"},
                      {"kind": "pung", "tiles": "222z"}],
            "win_tile": "2m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 6 + seat 1 + round 1 + half_flush 3 + no_bonus 1 = 12 -> 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"little_four_winds": 6, "seat_wind": 1, "round_wind": 1,
                                          "half_flush": 3, "no_bonus": 1},
                                payments=None),
            # 12; b(12)=256: W 512, E,N 256 -> S +1024
            "bga-old-style": Expect(faan=12, winnable=True,
                                    patterns={"little_four_winds": 6, "seat_wind": 1,
                                              "round_wind": 1, "half_flush": 3, "no_bonus": 1},
                                    payments=pay(E=-256, S=1024, W=-512, N=-256)),
            # L10 (ordinary seat 1 + round 1 + half_flush 3 = 5); W pays 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"little_four_winds": 10},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            # 6 + 1 + 1 + 3 = 11
            "hk-classic": Expect(faan=11, winnable=True,
                                 patterns={"little_four_winds": 6, "seat_wind": 1, "round_wind": 1,
                                           "half_flush": 3},
                                 payments=None),
            # seat_wind 2 (South pung); W 10, E,N 8 -> +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"seat_wind": 2},
                                      payments=pay(E=-8, S=26, W=-10, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 2: best reading
    # ------------------------------------------------------------------
    Case(
        id="r2-best-reading-pungs-beat-chows",
        source="Ruling 2: 111222333m reads as three pungs or three chows; with a 555p pung the "
               "pung reading (all pungs) is worth more. The winning 5p completes 555p (claimed, "
               "ruling 3), so no four concealed pungs.",
        hand={
            "tiles": "111222333m555p99s",
            "win_tile": "5p", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # pungs: all_pungs 3 + concealed 1 + no_bonus 1 = 5 (chows: 1 + 1 = 2)
            "mistboard": Expect(faan=5, winnable=True,
                                patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # 5; b(5)=24: W 48, E,N 24 -> S +96
            "bga-old-style": Expect(faan=5, winnable=True,
                                    patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1},
                                    payments=pay(E=-24, S=96, W=-48, N=-24)),
            # 3 + 1 = 4; jc(4)=32, W pays 64
            "just-cards": Expect(faan=4, winnable=True,
                                 patterns={"all_pungs": 3, "concealed_hand": 1},
                                 payments=pay(E=0, S=64, W=-64, N=0)),
            "hk-classic": Expect(faan=4, winnable=True,
                                 patterns={"all_pungs": 3, "concealed_hand": 1}, payments=None),
            # all_pungs 6 (chow reading 0); W 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"all_pungs": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    Case(
        id="r2-best-reading-chows-beat-pungs",
        source="Ruling 2: 111222333m with a 789p chow: the chow reading (four chows) is worth "
               "more than three pungs and a chow (nothing).",
        hand={
            "tiles": "111222333m789p55s",
            "win_tile": "8p", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # chows: all_chows 1 + concealed 1 + no_bonus 1 = 3 (pungs: 1 + 1 = 2)
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # 3; b(3)=8: W 16, E,N 8 -> S +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                    payments=pay(E=-8, S=32, W=-16, N=-8)),
            # 1 + 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "concealed_hand": 1}),
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "concealed_hand": 1}),
            # all_chows 2; W 10, E,N 8 -> +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-8, S=26, W=-10, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 3: four concealed pungs on a discard
    # ------------------------------------------------------------------
    Case(
        id="r3-two-pair-wait-on-discard-not-four-concealed",
        source="Ruling 3: a pung completed by a winning discard counts as claimed, so a two-pair "
               "wait won on a discard is not four concealed pungs; concealed_hand stays.",
        hand={
            "tiles": "111m555p77799s444z",
            "win_tile": "4z", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # all_pungs 3 + concealed 1 + no_bonus 1 = 5
            "mistboard": Expect(faan=5, winnable=True,
                                patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # 5; b(5)=24: W 48, E,N 24 -> S +96
            "bga-old-style": Expect(faan=5, winnable=True,
                                    patterns={"all_pungs": 3, "concealed_hand": 1, "no_bonus": 1},
                                    payments=pay(E=-24, S=96, W=-48, N=-24)),
            # 3 + 1 = 4; W pays 2 x 32 = 64
            "just-cards": Expect(faan=4, winnable=True,
                                 patterns={"all_pungs": 3, "concealed_hand": 1},
                                 payments=pay(E=0, S=64, W=-64, N=0)),
            "hk-classic": Expect(faan=4, winnable=True,
                                 patterns={"all_pungs": 3, "concealed_hand": 1}, payments=None),
            # all_pungs 6; W 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"all_pungs": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    Case(
        id="r3-pair-wait-on-discard-is-four-concealed-dealer",
        source="Ruling 3 / pattern table: 'a winning discard may complete only the pair'. Same "
               "tiles, single wait on 9s, won by the dealer on South's discard.",
        hand={
            "tiles": "111m555p77799s444z",
            "win_tile": "9s", "discarder": "S",
            "seat_wind": "E", "round_wind": "E",
        },
        expect={
            # four_concealed_pungs 8 (incl. all_pungs, concealed_hand) + no_bonus 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"four_concealed_pungs": 8, "no_bonus": 1},
                                payments=None),
            # L10; b(10)=128: S 256, W,N 128 -> E +512
            "bga-old-style": Expect(faan=10, winnable=True,
                                    patterns={"four_concealed_pungs": 10},
                                    payments=pay(E=512, S=-256, W=-128, N=-128)),
            # L10 (no kongs); S pays 2 x 256 = 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10},
                                 payments=pay(E=512, S=-512, W=0, N=0)),
            "hk-classic": Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10},
                                 payments=None),
            # all_pungs 6; S 14, W,N 8 -> E +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"all_pungs": 6},
                                      payments=pay(E=30, S=-14, W=-8, N=-8)),
        },
    ),
    Case(
        id="r3-two-pair-wait-self-drawn-is-four-concealed",
        source="Ruling 3 / 001 'Waiting on either of two pairs, the win must be a Self-draw'.",
        hand={
            "tiles": "111m555p77799s444z",
            "win_tile": "4z", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 8 + self_draw 1 + no_bonus 1 = 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"four_concealed_pungs": 8, "self_draw": 1, "no_bonus": 1},
                                payments=None),
            # L10 (ordinary 3 + 1 + 1 + 1 = 6); each pays 256 -> +768
            "bga-old-style": Expect(faan=10, winnable=True,
                                    patterns={"four_concealed_pungs": 10},
                                    payments=pay(E=-256, S=768, W=-256, N=-256)),
            # L10 (ordinary 5); 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10},
                                 payments=pay(E=-256, S=768, W=-256, N=-256)),
            # L10 + self_draw 1 = 11
            "hk-classic": Expect(faan=11, winnable=True,
                                 patterns={"four_concealed_pungs": 10, "self_draw": 1},
                                 payments=None),
            # all_pungs 6 + self_draw 1 = 7; each pays 15 -> +45
            "playingcards-io": Expect(faan=7, winnable=True,
                                      patterns={"all_pungs": 6, "self_draw": 1},
                                      payments=pay(E=-15, S=45, W=-15, N=-15)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 4: seat and round wind
    # ------------------------------------------------------------------
    Case(
        id="r4-double-wind-dealer-discard",
        source="Ruling 4: East seat, East round, one pung of East: seat_wind 1 + round_wind 1. "
               "Dealer wins on a discard.",
        hand={
            "tiles": "234m567p55789s",
            "melds": [{"kind": "pung", "tiles": "111z", "from": "S"}],
            "win_tile": "2m", "discarder": "N",
            "seat_wind": "E", "round_wind": "E",
        },
        expect={
            # seat 1 + round 1 + no_bonus 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"seat_wind": 1, "round_wind": 1, "no_bonus": 1},
                                payments=None),
            # 3; b(3)=8: N 16, S,W 8 -> E +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"seat_wind": 1, "round_wind": 1, "no_bonus": 1},
                                    payments=pay(E=32, S=-8, W=-8, N=-16)),
            # 1 + 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"seat_wind": 1, "round_wind": 1}),
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"seat_wind": 1, "round_wind": 1}),
            # seat_wind 2 only; N 10, S,W 8 -> E +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"seat_wind": 2},
                                      payments=pay(E=26, S=-8, W=-8, N=-10)),
        },
    ),
    Case(
        id="r4-seat-and-round-wind-separate-pungs",
        source="Ruling 4: West seat in an East round with pungs of East and West: round_wind 1 "
               "and seat_wind 1 from two pungs.",
        hand={
            "tiles": "234m678p99s",
            "melds": [{"kind": "pung", "tiles": "111z", "from": "S"},
                      {"kind": "pung", "tiles": "333z", "from": "N"}],
            "win_tile": "9s", "discarder": "S",
            "seat_wind": "W", "round_wind": "E",
        },
        expect={
            # seat 1 + round 1 + no_bonus 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"seat_wind": 1, "round_wind": 1, "no_bonus": 1},
                                payments=None),
            # 3; b(3)=8: S 16, E,N 8 -> W +32
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"seat_wind": 1, "round_wind": 1, "no_bonus": 1},
                                    payments=pay(E=-8, S=-16, W=32, N=-8)),
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"seat_wind": 1, "round_wind": 1}),  # 1 + 1
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"seat_wind": 1, "round_wind": 1}),  # 1 + 1
            # seat_wind 2 (West pung; no round wind in pcio); S 10, E,N 8 -> W +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"seat_wind": 2},
                                      payments=pay(E=-8, S=-10, W=26, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 5: half flush / full flush, mixed terminals / all terminals
    # ------------------------------------------------------------------
    Case(
        id="r5-full-flush-of-chows",
        source="Ruling 5: one suit with no honour is full_flush, not half_flush.",
        hand={
            "tiles": "23445556789s",
            "melds": [{"kind": "chow", "tiles": "123s", "from": "W"}],
            "win_tile": "6s", "discarder": "E",
            "seat_wind": "N", "round_wind": "E",
        },
        expect={
            # all_chows 1 + full_flush 7 + no_bonus 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"all_chows": 1, "full_flush": 7, "no_bonus": 1},
                                payments=None),
            # 9; b(9)=96: E 192, S,W 96 -> N +384
            "bga-old-style": Expect(faan=9, winnable=True,
                                    patterns={"all_chows": 1, "full_flush": 7, "no_bonus": 1},
                                    payments=pay(E=-192, S=-96, W=-96, N=384)),
            # 1 + 7 = 8; jc(8)=128, E pays 256
            "just-cards": Expect(faan=8, winnable=True,
                                 patterns={"all_chows": 1, "full_flush": 7},
                                 payments=pay(E=-256, S=0, W=0, N=256)),
            "hk-classic": Expect(faan=8, winnable=True,
                                 patterns={"all_chows": 1, "full_flush": 7}, payments=None),
            # all_chows 2 (no flush in pcio); E 10, S,W 8 -> N +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-10, S=-8, W=-8, N=26)),
        },
    ),
    Case(
        id="r5-mixed-terminals",
        source="Ruling 5 / values table: mixed_terminals 4 incl. all_pungs (mistboard), 1 plus "
               "all_pungs 3 elsewhere (001 'With All Pungs: 4', 003 'also scores all pungs').",
        hand={
            "tiles": "999s44z",
            "melds": [{"kind": "pung", "tiles": "111m", "from": "W"},
                      {"kind": "pung", "tiles": "999p", "from": "N"},
                      {"kind": "pung", "tiles": "777z", "from": "E"}],
            "win_tile": "9s", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 4 (incl. all_pungs) + dragon 1 + no_bonus 1 = 6
            "mistboard": Expect(faan=6, winnable=True,
                                patterns={"mixed_terminals": 4, "dragon_pung": 1, "no_bonus": 1},
                                payments=None),
            # 1 + 3 + 1 + 1 = 6; b(6)=32: W 64, E,N 32 -> S +128
            "bga-old-style": Expect(faan=6, winnable=True,
                                    patterns={"mixed_terminals": 1, "all_pungs": 3,
                                              "dragon_pung": 1, "no_bonus": 1},
                                    payments=pay(E=-32, S=128, W=-64, N=-32)),
            # 1 + 3 + 1 = 5; jc(5)=48, W pays 96
            "just-cards": Expect(faan=5, winnable=True,
                                 patterns={"mixed_terminals": 1, "all_pungs": 3, "dragon_pung": 1},
                                 payments=pay(E=0, S=96, W=-96, N=0)),
            "hk-classic": Expect(faan=5, winnable=True,
                                 patterns={"mixed_terminals": 1, "all_pungs": 3, "dragon_pung": 1},
                                 payments=None),
            # all_pungs 6 + one dragon 2 = 8; W 16, E,N 8 -> +32
            "playingcards-io": Expect(faan=8, winnable=True,
                                      patterns={"all_pungs": 6, "dragon_pung": 2},
                                      payments=pay(E=-8, S=32, W=-16, N=-8)),
        },
    ),
    Case(
        id="r5-terminals-only-is-all-terminals",
        source="Ruling 5: mixed_terminals needs an honour; with only terminals it is the limit "
               "all_terminals.",
        hand={
            "tiles": "11p999s",
            "melds": [{"kind": "pung", "tiles": "111m", "from": "W"},
                      {"kind": "pung", "tiles": "999p", "from": "N"},
                      {"kind": "pung", "tiles": "111s", "from": "E"}],
            "win_tile": "9s", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # L10 (ordinary: all_pungs 3 + no_bonus 1 = 4)
            "mistboard": Expect(faan=10, winnable=True, patterns={"all_terminals": 10},
                                payments=None),
            # L10; b(10)=128: W 256, E,N 128 -> S +512
            "bga-old-style": Expect(faan=10, winnable=True, patterns={"all_terminals": 10},
                                    payments=pay(E=-128, S=512, W=-256, N=-128)),
            # L10; W pays 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"all_terminals": 10},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            "hk-classic": Expect(faan=10, winnable=True, patterns={"all_terminals": 10},
                                 payments=None),
            # all_pungs 6; W 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"all_pungs": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 6: nine gates
    # ------------------------------------------------------------------
    Case(
        id="r6-nine-gates-pure-wait-discard",
        source="Ruling 6: 1112345678999m waiting, won on a discard 5m: pure (every preset's "
               "nine gates).",
        hand={
            "tiles": "11123455678999m",
            "win_tile": "5m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "mistboard": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                payments=None),
            # b(10)=128: W 256, E,N 128 -> S +512
            "bga-old-style": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                    payments=pay(E=-128, S=512, W=-256, N=-128)),
            # pure on a discard: L10; W pays 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            "hk-classic": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                 payments=None),
            # only reading 111 234 678 999 + 55: nothing scores; W,E,N 8 each -> +24
            "playingcards-io": Expect(faan=0, winnable=True, patterns={"chicken_hand": 0},
                                      payments=pay(E=-8, S=24, W=-8, N=-8)),
        },
    ),
    Case(
        id="r6-nine-gates-any-discard",
        source="Ruling 6/12: 11123456789999m won on a discard 2m (before it: 1113456789999m, not "
               "the pure wait): nine gates only under hk-classic ('any').",
        hand={
            "tiles": "11123456789999m",
            "win_tile": "2m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # only reading 11 + 123 456 789 999: full_flush 7 + concealed 1 + no_bonus 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"full_flush": 7, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # 9; b(9)=96: W 192, E,N 96 -> S +384
            "bga-old-style": Expect(faan=9, winnable=True,
                                    patterns={"full_flush": 7, "concealed_hand": 1, "no_bonus": 1},
                                    payments=pay(E=-96, S=384, W=-192, N=-96)),
            # discard needs the pure wait: 7 + 1 = 8; W pays 2 x 128 = 256
            "just-cards": Expect(faan=8, winnable=True,
                                 patterns={"full_flush": 7, "concealed_hand": 1},
                                 payments=pay(E=0, S=256, W=-256, N=0)),
            # any: L10
            "hk-classic": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                 payments=None),
            # nothing; +24
            "playingcards-io": Expect(faan=0, winnable=True, patterns={"chicken_hand": 0},
                                      payments=pay(E=-8, S=24, W=-8, N=-8)),
        },
    ),
    Case(
        id="r6-nine-gates-any-self-draw",
        source="Ruling 6: the same tiles self-drawn: just-cards takes 'any' on a self-draw; "
               "mistboard and bga still need the pure wait.",
        hand={
            "tiles": "11123456789999m",
            "win_tile": "2m", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 7 + 1 + self_draw 1 + no_bonus 1 = 10 (ordinary, no limit)
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"full_flush": 7, "concealed_hand": 1, "self_draw": 1,
                                          "no_bonus": 1},
                                payments=None),
            # 10; b(10)=128, each pays 256 -> +768
            "bga-old-style": Expect(faan=10, winnable=True,
                                    patterns={"full_flush": 7, "concealed_hand": 1, "self_draw": 1,
                                              "no_bonus": 1},
                                    payments=pay(E=-256, S=768, W=-256, N=-256)),
            # any on a self-draw: L10 (ordinary 9); 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"nine_gates": 10},
                                 payments=pay(E=-256, S=768, W=-256, N=-256)),
            # L10 + self_draw 1 = 11 (ordinary 9)
            "hk-classic": Expect(faan=11, winnable=True,
                                 patterns={"nine_gates": 10, "self_draw": 1}, payments=None),
            # self_draw 1; each pays 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=27, W=-9, N=-9)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 7: first turn
    # ------------------------------------------------------------------
    Case(
        id="r7-first-turn-deal",
        source="Ruling 7: 'deal' -> heavenly_hand (L10 mistboard/just-cards, L13 bga/hk-classic), "
               "nothing in playingcards-io. Given as a self-draw by East (the dealer's fourteenth "
               "tile came from the wall).",
        hand={
            "tiles": "345m234567p11678s",
            "win_tile": "5p", "self_draw": True, "first_turn": "deal",
            "seat_wind": "E", "round_wind": "E",
        },
        expect={
            # L10 (ordinary all_chows 1 + concealed 1 + self 1 + no_bonus 1 = 4)
            "mistboard": Expect(faan=10, winnable=True, patterns={"heavenly_hand": 10},
                                payments=None),
            # L13; b(13)=384, each pays 768 -> E +2304
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"heavenly_hand": 13},
                                    payments=pay(E=2304, S=-768, W=-768, N=-768)),
            # L10; 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"heavenly_hand": 10},
                                 payments=pay(E=768, S=-256, W=-256, N=-256)),
            # L13 + self_draw 1 = 14 -> cap 13
            "hk-classic": Expect(faan=13, winnable=True,
                                 patterns={"heavenly_hand": 13, "self_draw": 1}, payments=None),
            # all_chows 2 + self_draw 1 = 3; each pays 11 -> +33
            "playingcards-io": Expect(faan=3, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1},
                                      payments=pay(E=33, S=-11, W=-11, N=-11)),
        },
    ),
    Case(
        id="r7-first-turn-first-draw",
        source="Ruling 7: 'first_draw' -> earthly_hand only in mistboard; an ordinary hand "
               "elsewhere.",
        hand={
            "tiles": "345m234567p11678s",
            "win_tile": "5p", "self_draw": True, "first_turn": "first_draw",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "mistboard": Expect(faan=10, winnable=True, patterns={"earthly_hand": 10},
                                payments=None),
            # all_chows 1 + concealed 1 + self 1 + no_bonus 1 = 4; b(4)=16, each 32 -> +96
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1,
                                              "no_bonus": 1},
                                    payments=pay(E=-32, S=96, W=-32, N=-32)),
            # 1 + 1 + 1 = 3; 16 each -> +48
            "just-cards": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                 payments=pay(E=-16, S=48, W=-16, N=-16)),
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "self_draw": 1},
                                 payments=None),
            # 2 + 1 = 3; each 11 -> +33
            "playingcards-io": Expect(faan=3, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1},
                                      payments=pay(E=-11, S=33, W=-11, N=-11)),
        },
    ),
    Case(
        id="r7-first-turn-first-discard",
        source="Ruling 7/14: 'first_discard' -> human_hand (mistboard), earthly_hand (bga L13, "
               "just-cards L10, hk-classic L13), nothing in playingcards-io.",
        hand={
            "tiles": "345m234567p11678s",
            "win_tile": "5p", "discarder": "E", "first_turn": "first_discard",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "mistboard": Expect(faan=10, winnable=True, patterns={"human_hand": 10},
                                payments=None),
            # L13; b(13)=384: E 768, W,N 384 -> S +1536
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"earthly_hand": 13},
                                    payments=pay(E=-768, S=1536, W=-384, N=-384)),
            # L10; E pays 2 x 256 = 512
            "just-cards": Expect(faan=10, winnable=True, patterns={"earthly_hand": 10},
                                 payments=pay(E=-512, S=512, W=0, N=0)),
            "hk-classic": Expect(faan=13, winnable=True, patterns={"earthly_hand": 13},
                                 payments=None),
            # all_chows 2; E 10, W,N 8 -> S +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-10, S=26, W=-8, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 8: bonus-tile instant wins
    # ------------------------------------------------------------------
    Case(
        id="r8-bga-small-flower-hand-paid-as-self-draw",
        source="Ruling 8 / 001 'Small Flower hand 3: holding seven Bonus tiles. Wins at once, "
               "counted as a Self-draw with no extra Self-draw Faan'. Fourteen tiles that are not "
               "a complete hand; South holds all flowers and seasons 1-3.",
        hand={
            "tiles": "147m258p369s12345z",
            "win_tile": "5z", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1, 2, 3, 4], "seasons": [1, 2, 3],
        },
        expect={
            # seven_bonus 3 + flower_set 2 (seat flower inside) + seat_season 1 = 6;
            # b(6)=32, each pays 2b=64 -> +192
            "bga-old-style": Expect(faan=6, winnable=True, complete=True,
                                    patterns={"seven_bonus": 3, "flower_set": 2, "seat_season": 1},
                                    payments=pay(E=-64, S=192, W=-64, N=-64)),
            # no seven_bonus in mistboard: not complete, nothing
            "mistboard": Expect(faan=0, winnable=False, complete=False, patterns={}),
            # no instant wins: not complete, nothing
            "playingcards-io": Expect(faan=0, winnable=False, complete=False, patterns={}),
        },
    ),
    Case(
        id="r8-eight-bonus-instant-win",
        source="Ruling 8: eight_bonus 8 scored alone (mistboard), L13 (bga, paid as a self-draw); "
               "fourteen tiles that are not a complete hand.",
        hand={
            "tiles": "147m258p369s12345z",
            "win_tile": "5z", "self_draw": True,
            "seat_wind": "W", "round_wind": "E",
            "flowers": [1, 2, 3, 4], "seasons": [1, 2, 3, 4],
        },
        expect={
            # eight_bonus 8 alone (flower/season sets not added)
            "mistboard": Expect(faan=8, winnable=True, complete=True,
                                patterns={"eight_bonus": 8}, payments=None),
            # L13; b(13)=384, each pays 768 -> W +2304
            "bga-old-style": Expect(faan=13, winnable=True, complete=True,
                                    patterns={"eight_bonus": 13},
                                    payments=pay(E=-768, S=-768, W=2304, N=-768)),
            "playingcards-io": Expect(faan=0, winnable=False, complete=False, patterns={}),
        },
    ),
    Case(
        id="r8-seven-bonus-with-complete-hand-better-result",
        source="Ruling 8 'Where the hand is also complete, the better result stands': the complete "
               "hand (7) beats the small flower hand (3 + 2 + 1 = 6) in bga.",
        hand={
            "tiles": "333m99p",
            "melds": [{"kind": "pung", "tiles": "222m"},
                      {"kind": "pung", "tiles": "555p"},
                      {"kind": "pung", "tiles": "888s"}],
            "win_tile": "9p", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1, 2, 3, 4], "seasons": [1, 2, 3],
        },
        expect={
            # all_pungs 3 + self_draw 1 + flower_set 2 + seat_season 1 = 7 > 6;
            # b(7)=48, each pays 96 -> +288
            "bga-old-style": Expect(faan=7, winnable=True,
                                    patterns={"all_pungs": 3, "self_draw": 1, "flower_set": 2,
                                              "seat_season": 1},
                                    payments=pay(E=-96, S=288, W=-96, N=-96)),
            # same 7
            "mistboard": Expect(faan=7, winnable=True,
                                patterns={"all_pungs": 3, "self_draw": 1, "flower_set": 2,
                                          "seat_season": 1},
                                payments=None),
            # all_pungs 6 + self_draw 1 + bonus_tile 7 = 14 (no cap); each pays 22 -> +66
            "playingcards-io": Expect(faan=14, winnable=True,
                                      patterns={"all_pungs": 6, "self_draw": 1, "bonus_tile": 7},
                                      payments=pay(E=-22, S=66, W=-22, N=-22)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 10: mistboard four concealed pungs is declarable and others add
    # ------------------------------------------------------------------
    Case(
        id="r10-mistboard-four-concealed-pungs-stands-alone-plus-dragon",
        source="Ruling 10: mistboard four_concealed_pungs 8 contains all_pungs and concealed_hand; "
               "other patterns add. Single wait on the pair, won on a discard; flower 1 at South "
               "so no_bonus does not add.",
        hand={
            "tiles": "222m444p77788s666z",
            "win_tile": "8s", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1],
        },
        expect={
            # 8 + dragon_pung 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"four_concealed_pungs": 8, "dragon_pung": 1},
                                payments=None),
            # L10 (ordinary all_pungs 3 + concealed 1 + dragon 1 = 5); b(10)=128:
            # W 256, E,N 128 -> S +512
            "bga-old-style": Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10},
                                    payments=pay(E=-128, S=512, W=-256, N=-128)),
            # all_pungs 6 + dragon 2 + bonus 1 = 9; W 17, E,N 8 -> +33
            "playingcards-io": Expect(faan=9, winnable=True,
                                      patterns={"all_pungs": 6, "dragon_pung": 2, "bonus_tile": 1},
                                      payments=pay(E=-8, S=33, W=-17, N=-8)),
            "just-cards": FLOWERS_ERR,
            "hk-classic": FLOWERS_ERR,
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 11: payments need the discarder
    # ------------------------------------------------------------------
    Case(
        id="r11-discard-win-without-discarder-payments-null",
        source="Ruling 11: a discard win without `discarder` is scored, payments null.",
        hand={
            "tiles": "456678999p33z",
            "melds": [{"kind": "chow", "tiles": "123p", "from": "E"}],
            "win_tile": "3z",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            "just-cards": Expect(faan=3, winnable=True, patterns={"half_flush": 3},
                                 payments=None),  # half_flush 3
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"half_flush": 3, "no_bonus": 1},
                                    payments=None),  # 3 + 1
            "playingcards-io": Expect(faan=0, winnable=True, patterns={"chicken_hand": 0},
                                      payments=None),
            "mistboard": Expect(faan=4, winnable=True, patterns={"half_flush": 3, "no_bonus": 1},
                                payments=None),
            "hk-classic": Expect(faan=3, winnable=True, patterns={"half_flush": 3}, payments=None),
        },
    ),
    Case(
        id="r11-robbed-kong-just-cards-paid-as-discard",
        source="Ruling 11: in just-cards and playingcards-io a robbed kong is paid as a discard by "
               "the kong-maker (South adds a 5p to its pung); bga: the kong-maker alone pays 6b.",
        hand={
            "tiles": "234567m34599p678s",
            "win_tile": "5p", "robbing_kong": True, "discarder": "S",
            "seat_wind": "W", "round_wind": "E",
        },
        expect={
            # all_chows 1 + concealed 1 + robbing_kong 1 = 3; S pays 2 x 16 = 32
            "just-cards": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1},
                                 payments=pay(E=0, S=-32, W=32, N=0)),
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1},
                                 payments=None),
            # 1 + 1 + 1 + no_bonus 1 = 4; b(4)=16, S alone pays 6b = 96
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1,
                                              "robbing_kong": 1, "no_bonus": 1},
                                    payments=pay(E=0, S=-96, W=96, N=0)),
            # no robbing pattern: 1 + 1 + no_bonus 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # all_chows 2; as a discard by S: S 10, E,N 8 -> W +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-8, S=-10, W=26, N=-8)),
        },
    ),
    Case(
        id="r11-robbed-kong-without-kong-maker-payments-null",
        source="Ruling 11: on a robbed kong `discarder` is the kong-maker; without it payments "
               "are null.",
        hand={
            "tiles": "234567m34599p678s",
            "win_tile": "5p", "robbing_kong": True,
            "seat_wind": "W", "round_wind": "E",
        },
        expect={
            "just-cards": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1},
                                 payments=None),
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1,
                                              "robbing_kong": 1, "no_bonus": 1},
                                    payments=None),
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=None),
        },
    ),
    # ------------------------------------------------------------------
    # Rulings 12 and 13: concealed kongs, kong replacement, kong on kong
    # ------------------------------------------------------------------
    Case(
        id="r12-r13-concealed-kong-replacement",
        source="Rulings 12/13 + table rule 'concealed kong keeps the hand concealed' (yes in "
               "mistboard, bga, hk-classic; no in just-cards); mistboard kong_replacement 2 "
               "incl. self_draw.",
        hand={
            "tiles": "23499m678p123s",
            "melds": [{"kind": "kong", "tiles": "5555s", "concealed": True}],
            "win_tile": "3s", "self_draw": True, "kong_replacement": 1,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # concealed 1 + kong_replacement 2 (incl. self_draw) + no_bonus 1 = 4
            "mistboard": Expect(faan=4, winnable=True,
                                patterns={"concealed_hand": 1, "kong_replacement": 2,
                                          "no_bonus": 1},
                                payments=None),
            # 1 + 1 + self 1 + no_bonus 1 = 4; b(4)=16, each pays 32 -> +96
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"concealed_hand": 1, "kong_replacement": 1,
                                              "self_draw": 1, "no_bonus": 1},
                                    payments=pay(E=-32, S=96, W=-32, N=-32)),
            # concealed kong breaks concealment: kong_replacement 1 + self_draw 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"kong_replacement": 1, "self_draw": 1}),
            # 1 + 1 + 1 = 3
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"concealed_hand": 1, "kong_replacement": 1,
                                           "self_draw": 1},
                                 payments=None),
            # self_draw 1; each pays 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=27, W=-9, N=-9)),
        },
    ),
    Case(
        id="r13-exposed-kong-replacement",
        source="Ruling 13 / values table: kong_replacement 2 incl. self_draw (mistboard), 1 plus "
               "self_draw elsewhere; none in playingcards-io.",
        hand={
            "tiles": "123567m33789s",
            "melds": [{"kind": "kong", "tiles": "4444p", "from": "N"}],
            "win_tile": "8s", "self_draw": True, "kong_replacement": 1,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # kong_replacement 2 + no_bonus 1 = 3 (self_draw not listed)
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"kong_replacement": 2, "no_bonus": 1}, payments=None),
            # 1 + self 1 + no_bonus 1 = 3; b(3)=8, each pays 16 -> +48
            "bga-old-style": Expect(faan=3, winnable=True,
                                    patterns={"kong_replacement": 1, "self_draw": 1, "no_bonus": 1},
                                    payments=pay(E=-16, S=48, W=-16, N=-16)),
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"kong_replacement": 1, "self_draw": 1}),  # 1 + 1
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"kong_replacement": 1, "self_draw": 1}),  # 1 + 1
            # self_draw 1; each 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=27, W=-9, N=-9)),
        },
    ),
    Case(
        id="r13-kong-on-kong",
        source="Ruling 13: kong_replacement 2 -> kong_on_kong: mistboard 8 incl. kong_replacement "
               "and self_draw; bga 8 + self_draw; just-cards L10; hk-classic has none (its "
               "kong_replacement 1 + self_draw 1).",
        hand={
            "tiles": "234p45699s",
            "melds": [{"kind": "kong", "tiles": "3333m", "from": "W"},
                      {"kind": "kong", "tiles": "7777p", "from": "N"}],
            "win_tile": "4s", "self_draw": True, "kong_replacement": 2,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # kong_on_kong 8 + no_bonus 1 = 9
            "mistboard": Expect(faan=9, winnable=True,
                                patterns={"kong_on_kong": 8, "no_bonus": 1}, payments=None),
            # 8 + self_draw 1 + no_bonus 1 = 10; b(10)=128, each pays 256 -> +768
            "bga-old-style": Expect(faan=10, winnable=True,
                                    patterns={"kong_on_kong": 8, "self_draw": 1, "no_bonus": 1},
                                    payments=pay(E=-256, S=768, W=-256, N=-256)),
            # L10; 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"kong_on_kong": 10},
                                 payments=pay(E=-256, S=768, W=-256, N=-256)),
            # kong_replacement 1 + self_draw 1 = 2 < 3
            "hk-classic": Expect(faan=2, winnable=False,
                                 patterns={"kong_replacement": 1, "self_draw": 1}),
            # self_draw 1; each 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=27, W=-9, N=-9)),
        },
    ),
    Case(
        id="r13-kong-on-kong-full-flush-capped",
        source="Ruling 13 + cap: bga kong_on_kong 8 + self 1 + full_flush 7 + no_bonus 1 = 17 -> 13.",
        hand={
            "tiles": "11345789p",
            "melds": [{"kind": "kong", "tiles": "2222p", "from": "N"},
                      {"kind": "kong", "tiles": "6666p", "from": "E"}],
            "win_tile": "5p", "self_draw": True, "kong_replacement": 2,
            "seat_wind": "W", "round_wind": "S",
        },
        expect={
            # 8 + 7 + no_bonus 1 = 16 -> 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"kong_on_kong": 8, "full_flush": 7, "no_bonus": 1},
                                payments=None),
            # 17 -> 13; b(13)=384, each pays 768 -> W +2304
            "bga-old-style": Expect(faan=13, winnable=True,
                                    patterns={"kong_on_kong": 8, "self_draw": 1, "full_flush": 7,
                                              "no_bonus": 1},
                                    payments=pay(E=-768, S=-768, W=2304, N=-768)),
            # L10 (ordinary at most 7 + 1 + 1 = 9); 256 each -> +768
            "just-cards": Expect(faan=10, winnable=True, patterns={"kong_on_kong": 10},
                                 payments=pay(E=-256, S=-256, W=768, N=-256)),
            # kong_replacement 1 + self 1 + full_flush 7 = 9
            "hk-classic": Expect(faan=9, winnable=True,
                                 patterns={"kong_replacement": 1, "self_draw": 1, "full_flush": 7},
                                 payments=None),
            # self_draw 1; each 9 -> +27
            "playingcards-io": Expect(faan=1, winnable=True, patterns={"self_draw": 1},
                                      payments=pay(E=-9, S=-9, W=27, N=-9)),
        },
    ),
    Case(
        id="r13-four-concealed-pungs-with-concealed-kong",
        source="Values table: four_concealed_pungs allows a concealed kong in mistboard, bga and "
               "hk-classic; just-cards 'no kongs' (and its concealed kong breaks concealed_hand).",
        hand={
            "tiles": "33555p777999s",
            "melds": [{"kind": "kong", "tiles": "2222m", "concealed": True}],
            "win_tile": "5p", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # 8 + self_draw 1 + no_bonus 1 = 10
            "mistboard": Expect(faan=10, winnable=True,
                                patterns={"four_concealed_pungs": 8, "self_draw": 1, "no_bonus": 1},
                                payments=None),
            # L10 (ordinary 3 + 1 + 1 + 1 = 6); b(10)=128, each pays 256 -> +768
            "bga-old-style": Expect(faan=10, winnable=True, patterns={"four_concealed_pungs": 10},
                                    payments=pay(E=-256, S=768, W=-256, N=-256)),
            # all_pungs 3 + self_draw 1 = 4; jc(4)=32 each -> +96
            "just-cards": Expect(faan=4, winnable=True,
                                 patterns={"all_pungs": 3, "self_draw": 1},
                                 payments=pay(E=-32, S=96, W=-32, N=-32)),
            # L10 + self_draw 1 = 11
            "hk-classic": Expect(faan=11, winnable=True,
                                 patterns={"four_concealed_pungs": 10, "self_draw": 1},
                                 payments=None),
            # all_pungs 6 + self 1 = 7; each 15 -> +45
            "playingcards-io": Expect(faan=7, winnable=True,
                                      patterns={"all_pungs": 6, "self_draw": 1},
                                      payments=pay(E=-15, S=45, W=-15, N=-15)),
        },
    ),
    Case(
        id="four-kongs-discard",
        source="Values table: four_kongs L10 (mistboard, just-cards), L13 (bga, hk-classic).",
        hand={
            "tiles": "99m",
            "melds": [{"kind": "kong", "tiles": "2222m", "from": "W"},
                      {"kind": "kong", "tiles": "5555p", "from": "N"},
                      {"kind": "kong", "tiles": "8888s", "from": "E"},
                      {"kind": "kong", "tiles": "4444z", "from": "W"}],
            "win_tile": "9m", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={
            # L10 (ordinary all_pungs 3 + no_bonus 1 = 4)
            "mistboard": Expect(faan=10, winnable=True, patterns={"four_kongs": 10},
                                payments=None),
            # L13: W 768, E,N 384 -> S +1536
            "bga-old-style": Expect(faan=13, winnable=True, patterns={"four_kongs": 13},
                                    payments=pay(E=-384, S=1536, W=-768, N=-384)),
            # L10: W pays 512 (discard wins are paid by the discarder alone)
            "just-cards": Expect(faan=10, winnable=True, patterns={"four_kongs": 10},
                                 payments=pay(E=0, S=512, W=-512, N=0)),
            "hk-classic": Expect(faan=13, winnable=True, patterns={"four_kongs": 13},
                                 payments=None),
            # all_pungs 6; W 14, E,N 8 -> +30
            "playingcards-io": Expect(faan=6, winnable=True, patterns={"all_pungs": 6},
                                      payments=pay(E=-8, S=30, W=-14, N=-8)),
        },
    ),
    # ------------------------------------------------------------------
    # Last tile / last discard
    # ------------------------------------------------------------------
    Case(
        id="last-tile-self-draw",
        source="Values table: last_tile 1 (self-draw of the last live-wall tile) in all four faan "
               "presets; none in playingcards-io.",
        hand={
            "tiles": "789m567p34566s",
            "melds": [{"kind": "chow", "tiles": "234p", "from": "W"}],
            "win_tile": "5s", "self_draw": True, "last_tile": True,
            "seat_wind": "N", "round_wind": "E",
        },
        expect={
            # all_chows 1 + self 1 + last_tile 1 + no_bonus 1 = 4
            "mistboard": Expect(faan=4, winnable=True,
                                patterns={"all_chows": 1, "self_draw": 1, "last_tile": 1,
                                          "no_bonus": 1},
                                payments=None),
            # 4; b(4)=16, each 32 -> N +96
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "self_draw": 1, "last_tile": 1,
                                              "no_bonus": 1},
                                    payments=pay(E=-32, S=-32, W=-32, N=96)),
            # 1 + 1 + 1 = 3; 16 each -> +48
            "just-cards": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "self_draw": 1, "last_tile": 1},
                                 payments=pay(E=-16, S=-16, W=-16, N=48)),
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "self_draw": 1, "last_tile": 1},
                                 payments=None),
            # all_chows 2 + self 1 = 3; each 11 -> +33
            "playingcards-io": Expect(faan=3, winnable=True,
                                      patterns={"all_chows": 2, "self_draw": 1},
                                      payments=pay(E=-11, S=-11, W=-11, N=33)),
        },
    ),
    Case(
        id="last-discard",
        source="Values table: last_discard 1 only in bga and hk-classic (mistboard and just-cards "
               "have no pattern for a win on the last discard).",
        hand={
            "tiles": "123456m678p23488s",
            "win_tile": "6p", "discarder": "N", "last_tile": True,
            "seat_wind": "W", "round_wind": "E",
        },
        expect={
            # all_chows 1 + concealed 1 + no_bonus 1 = 3
            "mistboard": Expect(faan=3, winnable=True,
                                patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1},
                                payments=None),
            # + last_discard 1 = 4; b(4)=16: N 32, E,S 16 -> W +64
            "bga-old-style": Expect(faan=4, winnable=True,
                                    patterns={"all_chows": 1, "concealed_hand": 1, "no_bonus": 1,
                                              "last_discard": 1},
                                    payments=pay(E=-16, S=-16, W=64, N=-32)),
            # 1 + 1 = 2 < 3
            "just-cards": Expect(faan=2, winnable=False,
                                 patterns={"all_chows": 1, "concealed_hand": 1}),
            # 1 + 1 + last_discard 1 = 3
            "hk-classic": Expect(faan=3, winnable=True,
                                 patterns={"all_chows": 1, "concealed_hand": 1, "last_discard": 1},
                                 payments=None),
            # all_chows 2; N 10, E,S 8 -> W +26
            "playingcards-io": Expect(faan=2, winnable=True, patterns={"all_chows": 2},
                                      payments=pay(E=-8, S=-8, W=26, N=-10)),
        },
    ),
    # ------------------------------------------------------------------
    # Ruling 14 and input errors
    # ------------------------------------------------------------------
    Case(
        id="r14-seven-pairs-off-everywhere",
        source="Ruling 14: seven_pairs is off in all five presets: seven pairs is not complete.",
        hand={
            "tiles": "1133m5577p2299s11z",
            "win_tile": "1z", "discarder": "W",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={p: Expect(faan=0, winnable=False, complete=False, patterns={})
                for p in ("mistboard", "bga-old-style", "just-cards", "hk-classic",
                          "playingcards-io")},
    ),
    Case(
        id="r14-duplicate-flower-is-an-error",
        source="RULES.md 'A hand as data': a duplicated bonus tile is an error naming the field "
               "(and any bonus tile is an error at a 136-tile table, ruling 14).",
        hand={
            "tiles": "123456m789p23466s",
            "win_tile": "4s", "self_draw": True,
            "seat_wind": "S", "round_wind": "E",
            "flowers": [1, 1],
        },
        expect={p: err("flowers")
                for p in ("mistboard", "bga-old-style", "just-cards", "hk-classic",
                          "playingcards-io")},
    ),
    Case(
        id="error-first-turn-deal-for-non-east",
        source="RULES.md 'A hand as data': first_turn 'deal' for a seat other than East is an error.",
        hand={
            "tiles": "345m234567p11678s",
            "win_tile": "5p", "self_draw": True, "first_turn": "deal",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={p: err("first_turn")
                for p in ("mistboard", "bga-old-style", "just-cards", "hk-classic",
                          "playingcards-io")},
    ),
    Case(
        id="error-discarder-is-the-winner",
        source="RULES.md 'A hand as data': a discarder who is the winner is an error.",
        hand={
            "tiles": "234567m34599p678s",
            "win_tile": "6s", "discarder": "S",
            "seat_wind": "S", "round_wind": "E",
        },
        expect={p: err("discarder")
                for p in ("mistboard", "bga-old-style", "just-cards", "hk-classic",
                          "playingcards-io")},
    ),
]
