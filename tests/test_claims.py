"""Tests of hkcore.claims: what a waiting hand may claim on a discard, and who gets it.

Every expected value is worked out by hand from the seed texts (Mistboard
"Claiming a discard", Just Cards "Claiming a discard" / "Four matching
tiles", the Hong Kong reference, PlayingCards.io) and RULES.md; the comment
next to each hand counts its tiles (a waiting hand has 13, each declared set
counted as three) and, for a win, adds up its faan from the RULES.md values
table.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from hkcore.claims import Claim, legal_claims, may_discard, resolve_claims
from hkcore.errors import HandError
from hkcore.models import Position
from hkcore.preset import load_preset


def kinds(claims: list[Claim]) -> list[tuple[str, str]]:
    """(kind, tiles) of each claim, in list order."""
    return [(c.kind, c.tiles) for c in claims]


def pos(tiles: str, seat: str = "E", **extra: object) -> Position:
    return Position.parse({"tiles": tiles, "seat_wind": seat, **extra})


# --------------------------------------------------------------------------
# hands

# 2356m 147p 258s 135z = 4 + 3 + 3 + 3 = 13, no pair, no two-away shape: never
# complete with one tile, so only chows can be offered (and no pung: no pair).
RUNS = "2356m147p258s135z"

# 567p 789s 34s 55m = 3 + 3 + 2 + 2 = 10, plus the chow 234m claimed from E
# = 13, seat S (E is the seat before S, so the chow from E is legal).
# On 2s (or 5s): 234m 567p 789s 234s + pair 55m = four chows and a pair.
# Faan on a discard: all_chows 1, no concealed_hand (a claimed chow),
#   mistboard / bga-old-style: + no_bonus 1 = 2 (minimum 3: cannot win);
#   just-cards / hk-classic:   1 (no no_bonus there; cannot win);
#   playingcards-io:           all_chows 2 points, no minimum: wins.
TWO_FAAN = "567p789s34s55m 234m:E seat:S"

# 555z 666z 123m 789s 5p = 3 + 3 + 3 + 3 + 1 = 13, single wait on 5p (the pair).
# On a 5p discard (bga-old-style): dragon_pung 2 (white, green) + concealed_hand 1
# (a discard win keeps it, ruling 3) + no_bonus 1 = 4.
DRAGONS = "555z666z123m789s5p"

# 777z 111p 999p 234s 5p = 3 + 3 + 3 + 3 + 1 = 13, single wait on 5p.
# On a 5p discard (bga-old-style): dragon_pung 1 + concealed_hand 1 + no_bonus 1 = 3.
RED = "777z111p999p234s5p"

# 777z 111p 999p 22s 34s = 3 + 3 + 3 + 2 + 2 = 13, waits on 2s or 5s (pair 22s, run 34s).
# It holds no 5s, so it can rob a kong of 5s (the other three 5s are in the pung).
# On 5s: 777z 111p 999p 345s + pair 22s.
#   plain discard: bga dragon 1 + concealed 1 + no_bonus 1 = 3; mistboard the same 3;
#                  hk-classic dragon 1 + concealed 1 = 2 (no no_bonus): cannot win.
#   robbing an added kong: + robbing_kong 1 -> bga 4, hk-classic 3.
ROBBER = "777z111p999p22s34s"

# 99m 19p 19s 1234567z = 2 + 2 + 2 + 7 = 13: thirteen orphans missing 1m (9m is
# the duplicate), so it wins on 1m only and holds no 1m: it can rob a concealed
# kong of 1m (all four 1m are in it but the robbed one).
ORPHANS = "99m19p19s1234567z"


# --------------------------------------------------------------------------
# chow


def test_chow_offered_only_to_the_seat_after_the_discarder() -> None:
    # Turn order E -> S -> W -> N: only S plays right after E. The same tiles
    # at W or N get nothing on E's 4m (no pung: one 4m would need two in hand).
    assert kinds(legal_claims(pos(RUNS, "S"), "4m", "E")) == [("chow", "234m"), ("chow", "345m"), ("chow", "456m")]
    assert legal_claims(pos(RUNS, "W"), "4m", "E") == []
    assert legal_claims(pos(RUNS, "N"), "4m", "E") == []


def test_chow_order_wraps_from_north_to_east() -> None:
    # E plays after N, so E may chow N's 4m, but not S's or W's.
    assert len(legal_claims(pos(RUNS, "E"), "4m", "N")) == 3
    assert legal_claims(pos(RUNS, "E"), "4m", "S") == []
    assert legal_claims(pos(RUNS, "E"), "4m", "W") == []


@pytest.mark.parametrize(("discard", "expected"), [
    # 4m: 2-3-[4] (2m, 3m held), 3-[4]-5 (3m, 5m held), [4]-5-6 (5m, 6m held): all three.
    ("4m", ["234m", "345m", "456m"]),
    # 1m: only [1]-2-3 exists below the suit's end, and 2m, 3m are held.
    ("1m", ["123m"]),
    # 7m: 5-6-[7] (held); 6-[7]-8 needs 8m, [7]-8-9 needs 8m and 9m: one chow.
    ("7m", ["567m"]),
    # 3m: 1-2-[3] needs 1m, 2-[3]-4 needs 4m, [3]-4-5 needs 4m: none, though 2m and 5m are held.
    ("3m", []),
    # 9m: only 7-8-[9], and neither 7m nor 8m is held.
    ("9m", []),
    # 4p: the hand holds 1p 4p 7p: 2-3-4, 3-4-5, 4-5-6 each miss a tile.
    ("4p", []),
])
def test_every_chow_that_fits(discard: str, expected: list[str]) -> None:
    claims = legal_claims(RUNS + " seat:S", discard, "E")
    assert [c.tiles for c in claims] == expected
    assert all(c.kind == "chow" and c.discard == discard and c.seat == "S" for c in claims)


def test_runs_do_not_wrap_and_honours_have_none() -> None:
    # 89m + 1m is not a run ("8-9-1 is not a run"); 12z + 3z: honours have no runs.
    # 89m 12z 147p 258s 36s 7z = 2 + 2 + 3 + 3 + 2 + 1 = 13.
    hand = pos("89m12z147p258s36s7z", "S")
    assert legal_claims(hand, "1m", "E") == []
    assert legal_claims(hand, "3z", "E") == []
    # ... while 7m does make 7-8-9 with the same 8m 9m.
    assert kinds(legal_claims(hand, "7m", "E")) == [("chow", "789m")]


# --------------------------------------------------------------------------
# pung and kong

# 555z 66z 147m 258p 39s = 3 + 2 + 3 + 3 + 2 = 13, seat E. Never complete with one
# tile (three singles groups plus 39s).
PUNGS = "555z66z147m258p39s"


def test_kong_and_pung_with_three_copies() -> None:
    # Three 5z in hand: W's 5z may make a kong (three held) or a pung (two of them);
    # kong listed before pung.
    assert kinds(legal_claims(pos(PUNGS), "5z", "W")) == [("kong", "5555z"), ("pung", "555z")]


def test_pung_with_two_copies_from_any_seat() -> None:
    # Two 6z: a pung, from any other seat (no kong: that needs three).
    for discarder in ("S", "W", "N"):
        assert kinds(legal_claims(pos(PUNGS), "6z", discarder)) == [("pung", "666z")]
    # One 1m in hand: no pung; E is not after W, so no chow either.
    assert legal_claims(pos(PUNGS), "1m", "W") == []


def test_claim_order_win_kong_pung_chows() -> None:
    # 555p 46p 789m 88s 127z = 3 + 2 + 3 + 2 + 3 = 13 (with 5p: 555p 456p 789m 88s + 127z, not complete).
    # On W's 5p, seat N (after W): kong 5555p, pung 555p, chow 4-[5]-6 p. Also
    # 3-4-[5] needs 3p, [5]-6-7 needs 7p: no. Not complete: no win.
    hand = pos("555p46p789m88s127z", "N")
    assert kinds(legal_claims(hand, "5p", "W")) == [("kong", "5555p"), ("pung", "555p"), ("chow", "456p")]
    # With a win: TWO_FAAN under playingcards-io on E's 2s: win first, then the chow 2-3-4 s.
    assert kinds(legal_claims(TWO_FAAN, "2s", "E", "playingcards-io")) == [("win", "2s"), ("chow", "234s")]


def test_four_declared_sets_leave_only_the_win() -> None:
    # Four declared pungs (12) + 5m = 13. E after N; N throws 5m: the single 5m
    # cannot make a pung or chow, and with four sets declared no set is offered;
    # the win: 555z 666z 777z 999p + pair 55m, bga: big_three_dragons 5 +
    # dragon_pung 3 + all_pungs 3 + no_bonus 1 = 12.
    hand = Position.parse({"tiles": "5m", "melds": [
        {"kind": "pung", "tiles": "555z", "from": "W"}, {"kind": "pung", "tiles": "666z", "from": "S"},
        {"kind": "pung", "tiles": "777z", "from": "W"}, {"kind": "pung", "tiles": "999p", "from": "N"},
    ]})
    claims = legal_claims(hand, "5m", "N")
    assert kinds(claims) == [("win", "5m")]
    assert claims[0].result is not None and claims[0].result.faan == 12


# --------------------------------------------------------------------------
# win


@pytest.mark.parametrize(("preset", "wins"), [
    ("mistboard", False),        # 2 faan (all_chows 1, no_bonus 1) < 3
    ("bga-old-style", False),    # the same 2 < 3
    ("just-cards", False),       # all_chows 1 < 3
    ("hk-classic", False),       # all_chows 1 < 3
    ("playingcards-io", True),   # all_chows 2 points, no minimum
])
def test_win_offered_only_when_winnable(preset: str, wins: bool) -> None:
    # W throws 2s to S: S is not after W, so no chow; no pair of 2s: no pung.
    claims = legal_claims(TWO_FAAN, "2s", "W", preset)
    assert kinds(claims) == ([("win", "2s")] if wins else [])


def test_win_claim_carries_its_result() -> None:
    (win,) = legal_claims(TWO_FAAN, "2s", "W", "playingcards-io")
    assert win.seat == "S" and win.discard == "2s" and win.robbing is None
    assert win.forbidden_discards == ()
    assert win.result is not None
    assert win.result.winnable and win.result.faan == 2
    assert [p.id for p in win.result.patterns] == ["all_chows"]


def test_last_discard_can_lift_a_hand_to_the_minimum() -> None:
    # bga-old-style has last_discard 1: 2 + 1 = 3, now it may win. On the last discard only a win may be
    # claimed (GAME.md G5): the chow S could make on any other discard is not offered. Mistboard has no
    # last-discard pattern: still 2, so nothing at all.
    claims = legal_claims(TWO_FAAN, "2s", "E", "bga-old-style", last_tile=True)
    assert kinds(claims) == [("win", "2s")]
    assert claims[0].result is not None and claims[0].result.faan == 3
    assert kinds(legal_claims(TWO_FAAN, "2s", "E", "mistboard", last_tile=True)) == []
    assert kinds(legal_claims(TWO_FAAN, "2s", "E", "bga-old-style")) == [("chow", "234s")]
    # a house that lets sets be claimed on the last discard ([table] last_discard = "any") keeps the chow
    anything = load_preset('extends = "bga-old-style"\n[table]\nlast_discard = "any"\n')
    assert kinds(legal_claims(TWO_FAAN, "2s", "E", anything, last_tile=True)) == [("win", "2s"), ("chow", "234s")]


def test_no_claim_that_leaves_nothing_to_discard_under_the_swap_rule() -> None:
    # S holds three chows and 4567s. Chowing E's 4s as 456s leaves 4s and 7s, which the swap rule forbids
    # (the claimed tile, and 7s beyond the run's other end): nothing to discard, so it is not offered
    # (GAME.md G10). The win on 4s (44 + 567s) is all_chows 1, below just-cards' minimum 3. Without the
    # swap rule (hk-classic) the chow is offered.
    hand = {"tiles": "4567s", "melds": [{"kind": "chow", "tiles": "123m", "from": "E"},
                                         {"kind": "chow", "tiles": "789p", "from": "E"},
                                         {"kind": "chow", "tiles": "234p", "from": "E"}], "seat_wind": "S"}
    assert kinds(legal_claims(hand, "4s", "E", "just-cards")) == []
    assert kinds(legal_claims(hand, "4s", "E", "hk-classic")) == [("chow", "456s")]


def test_hand_accepted_as_position_dict_or_notation() -> None:
    # The three spellings of DRAGONS at seat N give the same win on E's 5p (4 faan).
    as_dict = {"tiles": DRAGONS, "seat_wind": "N"}
    for hand in (Position.parse(as_dict), as_dict, DRAGONS + " seat:N"):
        claims = legal_claims(hand, "5p", "E")
        assert kinds(claims) == [("win", "5p")]
        assert claims[0].result is not None and claims[0].result.faan == 4


# --------------------------------------------------------------------------
# resolving


def _three_claimants() -> tuple[list[Claim], list[Claim], list[Claim]]:
    """E throws 5p. S: 46p 147m 258s 12347z (2+3+3+5 = 13) chows 4-5-6 p.
    W: 55p 147m 258s 12347z (13) pungs 5p. N: DRAGONS wins on 5p (4 faan).
    5p copies: W 2 + N 1 + the discard = 4."""
    s = legal_claims(pos("46p147m258s12347z", "S"), "5p", "E")
    w = legal_claims(pos("55p147m258s12347z", "W"), "5p", "E")
    n = legal_claims(pos(DRAGONS, "N"), "5p", "E")
    assert (kinds(s), kinds(w), kinds(n)) == ([("chow", "456p")], [("pung", "555p")], [("win", "5p")])
    return s, w, n


def test_win_beats_pung_beats_chow() -> None:
    s, w, n = _three_claimants()
    # The win goes to N although N is the farthest seat after E.
    assert [(c.seat, c.kind) for c in resolve_claims(s + w + n, "E")] == [("N", "win")]
    # Without the win, W's pung beats S's chow although S is nearer.
    assert [(c.seat, c.kind) for c in resolve_claims(s + w, "E")] == [("W", "pung")]
    assert [(c.seat, c.kind) for c in resolve_claims(s, "E")] == [("S", "chow")]


def test_one_seat_claiming_twice_gets_its_best() -> None:
    # The hand of test_claim_order_win_kong_pung_chows offers kong, pung and chow:
    # resolving its own list alone gives the kong (a kong ranks with a pung, and
    # between equals the first given).
    claims = legal_claims(pos("555p46p789m88s127z", "N"), "5p", "W")
    assert [c.kind for c in resolve_claims(list(reversed(claims)), "W")] == ["pung"]
    assert [c.kind for c in resolve_claims(claims, "W")] == ["kong"]


def _two_winners(discarder: str, seats: tuple[str, str]) -> list[Claim]:
    """DRAGONS (4 faan) at seats[0] and RED (3 faan) at seats[1], both winning on
    ``discarder``'s 5p (5p copies: 1 + 1 + the discard = 3)."""
    a = legal_claims(pos(DRAGONS, seats[0]), "5p", discarder)
    b = legal_claims(pos(RED, seats[1]), "5p", discarder)
    assert [c.kind for c in a + b] == ["win", "win"]
    return a + b


def test_two_wins_go_to_the_nearest_seat_after_the_discarder() -> None:
    # E throws: S is nearest after E, then W, then N. Input order does not decide.
    claims = _two_winners("E", ("N", "S"))
    assert [c.seat for c in resolve_claims(claims, "E")] == ["S"]
    assert [c.seat for c in resolve_claims(list(reversed(claims)), "E")] == ["S"]
    # W throws: after W come N, then E, then S: E beats S.
    claims = _two_winners("W", ("S", "E"))
    assert [c.seat for c in resolve_claims(claims, "W")] == ["E"]


def test_multiple_winners_all_paid(tmp_path: Path) -> None:
    custom = tmp_path / "double-win.toml"
    custom.write_text('extends = "bga-old-style"\n\n[claims]\nmultiple_winners = true\n', encoding="utf-8")
    claims = _two_winners("E", ("N", "S"))
    # Both wins, the nearest first (S then N), whatever the input order.
    assert [c.seat for c in resolve_claims(claims, "E", str(custom))] == ["S", "N"]
    # A pung or chow is still a single claim under that preset (E's 5p: W pungs, S chows).
    s, w, _ = _three_claimants()
    assert [c.seat for c in resolve_claims(s + w, "E", str(custom))] == ["W"]
    # A win beats a pung: only the wins come back.
    s, w, n = _three_claimants()
    assert [(c.seat, c.kind) for c in resolve_claims(w + n, "E", str(custom))] == [("N", "win")]


def test_resolve_empty() -> None:
    assert resolve_claims([], "E") == []


# --------------------------------------------------------------------------
# swap rule (just-cards)

# 56m 147p 258s 12357z = 2 + 3 + 3 + 5 = 13, seat S, never complete with one tile.
SWAP = "56m147p258s12357z"


def test_swap_rule_chow_at_an_end() -> None:
    # Chowing 4 with 5-6: neither 4 nor 7 ("after chowing 4 with 5-6").
    (c,) = legal_claims(pos(SWAP, "S"), "4m", "E", "just-cards")
    assert (c.tiles, c.forbidden_discards) == ("456m", ("4m", "7m"))
    assert not may_discard(c, "4m") and not may_discard(c, "7m")
    assert may_discard(c, "5m") and may_discard(c, "1p")
    # Chowing 7 with 5-6: 7 and, beyond the 5 end, 4.
    (c,) = legal_claims(pos(SWAP, "S"), "7m", "E", "just-cards")
    assert (c.tiles, c.forbidden_discards) == ("567m", ("7m", "4m"))


def test_swap_rule_middle_tile_and_suit_ends() -> None:
    # 46m + 5m: the middle tile, only itself.
    (c,) = legal_claims(pos("46m147p258s12357z", "S"), "5m", "E", "just-cards")
    assert (c.tiles, c.forbidden_discards) == ("456m", ("5m",))
    assert may_discard(c, "4m") and may_discard(c, "6m") and may_discard(c, "3m") and may_discard(c, "7m")
    # 12m + 3m: beyond the 1 end is no tile; 89m + 7m: nothing beyond 9.
    (c,) = legal_claims(pos("12m147p258s12357z", "S"), "3m", "E", "just-cards")
    assert (c.tiles, c.forbidden_discards) == ("123m", ("3m",))
    (c,) = legal_claims(pos("89m147p258s12357z", "S"), "7m", "E", "just-cards")
    assert (c.tiles, c.forbidden_discards) == ("789m", ("7m",))


def test_swap_rule_pung_and_kong() -> None:
    # 555p + W's 5p under just-cards: the kong has none, the pung forbids 5p.
    hand = pos("555p147m258s1237z", "E")  # 3 + 3 + 3 + 4 = 13
    kong, pung = legal_claims(hand, "5p", "W", "just-cards")
    assert (kong.kind, kong.forbidden_discards) == ("kong", ())
    assert (pung.kind, pung.forbidden_discards) == ("pung", ("5p",))
    assert not may_discard(pung, "5p") and may_discard(kong, "5p")


@pytest.mark.parametrize("preset", ["bga-old-style", "mistboard", "hk-classic", "playingcards-io"])
def test_no_swap_rule_elsewhere(preset: str) -> None:
    (c,) = legal_claims(pos(SWAP, "S"), "4m", "E", preset)
    assert c.forbidden_discards == ()
    assert may_discard(c, "4m") and may_discard(c, "7m")


# --------------------------------------------------------------------------
# robbing the kong


@pytest.mark.parametrize(("preset", "faan"), [("bga-old-style", 4), ("hk-classic", 3)])
def test_added_kong_robbed(preset: str, faan: int) -> None:
    # E adds 5s to its exposed pung; S (right after E) holds ROBBER. Only the win
    # is offered: no chow 3-4-5 s although S follows E and holds 34s.
    claims = legal_claims(pos(ROBBER, "S"), "5s", "E", preset, kong="added")
    assert kinds(claims) == [("win", "5s")]
    win = claims[0]
    assert win.robbing == "added"
    assert win.result is not None and win.result.faan == faan
    assert "robbing_kong" in [p.id for p in win.result.patterns]


def test_added_kong_not_robbed_under_mistboard() -> None:
    # On a plain discard the hand wins at Mistboard (3 faan: dragon, concealed, no bonus)...
    assert kinds(legal_claims(pos(ROBBER, "S"), "5s", "E", "mistboard")) == [("win", "5s"), ("chow", "345s")]
    # ... but Mistboard has no robbing at all, and nothing else may be claimed on a kong tile.
    assert legal_claims(pos(ROBBER, "S"), "5s", "E", "mistboard", kong="added") == []


def test_robbing_can_lift_a_hand_to_the_minimum() -> None:
    # hk-classic: on a plain discard 2 faan (no win, only the chow), robbing makes 3.
    assert kinds(legal_claims(pos(ROBBER, "S"), "5s", "E", "hk-classic")) == [("chow", "345s")]
    assert kinds(legal_claims(pos(ROBBER, "S"), "5s", "E", "hk-classic", kong="added")) == [("win", "5s")]


@pytest.mark.parametrize(("preset", "robbed"), [
    ("bga-old-style", True),      # "May rob a Concealed Kong" (thirteen orphans)
    ("just-cards", True),         # "A concealed quad can only be robbed for thirteen orphans"
    ("hk-classic", False),        # added kongs only (ruling 13)
    ("mistboard", False),         # no robbing at all
    ("playingcards-io", False),   # added kongs only (and no thirteen orphans)
])
def test_concealed_kong_robbed_only_by_thirteen_orphans(preset: str, robbed: bool) -> None:
    claims = legal_claims(pos(ORPHANS, "S"), "1m", "W", preset, kong="concealed")
    assert kinds(claims) == ([("win", "1m")] if robbed else [])
    if robbed:
        assert claims[0].robbing == "concealed"
        assert claims[0].result is not None and claims[0].result.shape == "thirteen_orphans"


def test_concealed_kong_not_robbed_by_other_hands() -> None:
    # ROBBER wins on an added kong of 5s under bga-old-style, but it is not
    # thirteen orphans, so it may not rob a concealed kong of 5s.
    assert kinds(legal_claims(pos(ROBBER, "S"), "5s", "E", kong="added")) == [("win", "5s")]
    assert legal_claims(pos(ROBBER, "S"), "5s", "E", kong="concealed") == []


def test_thirteen_orphans_robs_an_added_kong_under_hk_classic() -> None:
    # Where only added kongs may be robbed, thirteen orphans robs those like any hand:
    # limit 13 + robbing_kong 1 (a win-condition faan that adds to limits there), capped at 13.
    (win,) = legal_claims(pos(ORPHANS, "S"), "1m", "W", "hk-classic", kong="added")
    assert win.robbing == "added" and win.result is not None and win.result.faan == 13


def test_robbing_wins_resolve_like_other_wins() -> None:
    # Two robbers of an added 5s by E: S (ROBBER) and W (a second robber:
    # 666z 111m 999m 22p 34s = 13, 6z pung: dragon 1 + concealed 1 + no_bonus 1 + robbing 1 = 4).
    a = legal_claims(pos(ROBBER, "S"), "5s", "E", kong="added")
    b = legal_claims(pos("666z111m999m22p34s", "W"), "5s", "E", kong="added")
    assert [c.seat for c in resolve_claims(b + a, "E")] == ["S"]


# --------------------------------------------------------------------------
# errors


def test_discarder_is_own_seat() -> None:
    with pytest.raises(HandError) as err:
        legal_claims(pos(RUNS, "S"), "4m", "S")
    assert err.value.field == "discarder" and err.value.value == "S"


def test_discarder_not_a_seat() -> None:
    with pytest.raises(HandError) as err:
        legal_claims(pos(RUNS, "S"), "4m", "X")
    assert err.value.field == "discarder"


def test_fourteen_tile_position() -> None:
    # RUNS + 7z = 14: a hand about to discard, not waiting for one.
    with pytest.raises(HandError) as err:
        legal_claims(pos(RUNS + "7z", "S"), "4m", "E")
    assert err.value.field == "tiles"


@pytest.mark.parametrize("discard", ["1f", "0m", "xx", "44m"])
def test_discard_not_a_hand_tile(discard: str) -> None:
    with pytest.raises(HandError) as err:
        legal_claims(pos(RUNS, "S"), discard, "E")
    assert err.value.field == "discard"


def test_fifth_copy() -> None:
    # 5555z in hand (4 copies) + 147m 258p 36s = 4 + 3 + 3 + 2 + 1z = 13: a fifth 5z cannot be thrown.
    with pytest.raises(HandError) as err:
        legal_claims(pos("5555z147m258p36s1z"), "5z", "W")
    assert err.value.field == "discard"


def test_robbed_tile_held_in_hand() -> None:
    # ROBBER holds 22s: an added kong of 2s would make 2 + 3 + 1 = 6 copies.
    with pytest.raises(HandError) as err:
        legal_claims(pos(ROBBER, "S"), "2s", "E", kong="added")
    assert err.value.field == "discard"


def test_bad_kong_and_last_tile_with_kong() -> None:
    with pytest.raises(HandError) as err:
        legal_claims(pos(ROBBER, "S"), "5s", "E", kong="open")  # type: ignore[arg-type]
    assert err.value.field == "kong"
    with pytest.raises(HandError) as err:
        legal_claims(pos(ROBBER, "S"), "5s", "E", kong="added", last_tile=True)
    assert err.value.field == "last_tile"


def test_bonus_tiles_under_a_136_tile_preset() -> None:
    with pytest.raises(HandError) as err:
        legal_claims(pos(RUNS, "S", flowers=[1]), "4m", "E", "just-cards")
    assert err.value.field == "flowers"
    # The same hand is fine at a table with bonus tiles.
    assert len(legal_claims(pos(RUNS, "S", flowers=[1]), "4m", "E", "bga-old-style")) == 3


def test_resolve_refuses_a_claim_by_the_discarder() -> None:
    claims = legal_claims(pos(DRAGONS, "S"), "5p", "E")
    with pytest.raises(HandError) as err:
        resolve_claims(claims, "S")
    assert err.value.field == "claims.0.seat"


def test_resolve_refuses_a_chow_by_a_seat_not_next() -> None:
    # S may chow E's 4m, not W's: resolving S's chow as if W had thrown it is an error.
    (chow, *_) = legal_claims(pos(RUNS, "S"), "4m", "E")
    assert resolve_claims([chow], "E") == [chow]
    with pytest.raises(HandError) as err:
        resolve_claims([chow], "W")
    assert err.value.field == "claims.0.seat"


def test_resolve_refuses_claims_on_different_tiles() -> None:
    a = Claim(seat="S", kind="pung", tiles="555p", discard="5p")
    b = Claim(seat="W", kind="pung", tiles="666p", discard="6p")
    with pytest.raises(HandError) as err:
        resolve_claims([a, b], "E")
    assert err.value.field == "claims.1.discard"


def test_resolve_refuses_robbing_the_preset_forbids() -> None:
    rob = Claim(seat="S", kind="win", tiles="5s", discard="5s", robbing="added")
    assert resolve_claims([rob], "E", "bga-old-style") == [rob]
    with pytest.raises(HandError) as err:
        resolve_claims([rob], "E", "mistboard")
    assert err.value.field == "claims.0.robbing"


@pytest.mark.parametrize(("data", "field"), [
    ({"seat": "S", "kind": "chow", "tiles": "457m", "discard": "4m"}, "tiles"),   # not a run
    ({"seat": "S", "kind": "chow", "tiles": "567m", "discard": "4m"}, "tiles"),   # run without the discard
    ({"seat": "S", "kind": "chow", "tiles": "123z", "discard": "1z"}, "tiles"),   # honours have no runs
    ({"seat": "S", "kind": "pung", "tiles": "55p", "discard": "5p"}, "tiles"),
    ({"seat": "S", "kind": "pung", "tiles": "555p", "discard": "5p", "robbing": "added"}, "robbing"),
    ({"seat": "X", "kind": "pung", "tiles": "555p", "discard": "5p"}, "seat"),
    ({"seat": "S", "kind": "win", "tiles": "5p", "discard": "1f"}, "discard"),
])
def test_claim_validation(data: dict[str, object], field: str) -> None:
    with pytest.raises(HandError) as err:
        Claim.parse(data)
    assert err.value.field == field


def test_claim_parse_canonical() -> None:
    # Any order parses; the tiles print canonical.
    c = Claim.parse({"seat": "S", "kind": "chow", "tiles": "6m54m", "discard": "4m"})
    assert c.tiles == "456m"
    assert resolve_claims([{"seat": "S", "kind": "chow", "tiles": "465m", "discard": "4m"}], "E") == [c]


def test_may_discard_checks_the_tile() -> None:
    (c,) = legal_claims(pos(SWAP, "S"), "4m", "E", "just-cards")
    with pytest.raises(HandError) as err:
        may_discard(c, "1f")  # a flower is never discarded
    assert err.value.field == "tile"
    # Spelled as a Unicode tile, 7m (🀍) is still forbidden.
    assert not may_discard(c, "\U0001F00D")


def test_claims_are_hashable_and_frozen() -> None:
    # A win carries its result, yet claims can go in a set (the result is not hashed).
    claims = legal_claims(TWO_FAAN, "2s", "E", "playingcards-io")
    assert len(set(claims + claims)) == 2
    with pytest.raises(ValidationError):
        claims[0].seat = "W"  # type: ignore[misc]
