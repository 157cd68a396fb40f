"""The built-in bots (hkcore.table.players.bots): legal decisions only, the same for
the same seed, and the efficiency bot's choices on positions worked by hand."""
from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from hkcore.errors import TableError
from hkcore.preset import builtin_ids, load_preset
from hkcore.table import Table
from hkcore.table.players.bots import EfficiencyBot, available_bots, builtin_bots, make_bot
from hkcore.tiles import parse_tiles

PRESET = load_preset("mistboard")


def play(preset: str, seed: int, bot: str) -> list[dict[str, Any]]:
    """One hand by four copies of ``bot``; every decision goes through ``submit``, which refuses any
    action not among the prompt's."""
    t = Table({"event": "start", "preset": preset, "seed": seed})
    bots = {s: make_bot(bot, t.preset, seed * 4 + i) for i, s in enumerate("ESWN")}
    for _ in range(2000):
        if t.over:
            break
        p = t.prompts()[0]
        t.submit(bots[p["seat"]].decide(p))
    assert t.over
    return t.log


@pytest.mark.parametrize("preset", builtin_ids())
@pytest.mark.parametrize("bot", ["random", "simple", "efficiency", "value", "guard"])
def test_bots_play_whole_hands_legally_and_alike_for_a_seed(preset: str, bot: str) -> None:
    for seed in (1, 2):
        first = play(preset, seed, bot)
        assert play(preset, seed, bot) == first
        assert first[-1]["event"] in ("end_hand", "end_match")  # a one-hand match under mistboard


def test_efficiency_wins_hands_that_random_play_does_not() -> None:
    # random play rarely completes a hand (bench/RESULTS.md: 68 of 14,000); fewest tiles away does
    wins = sum(any(r["event"] == "win" for r in play("bga-old-style", seed, "efficiency")) for seed in range(20))
    assert wins >= 5


def prompt(tiles: str, drawn: str | None, actions: list[dict[str, Any]], *, phase: str = "turn",
           tile: str | None = None, ponds: dict[str, str] | None = None) -> dict[str, Any]:
    p: dict[str, Any] = {"prompt": 7, "seat": "E", "phase": phase, "actions": actions,
                         "view": {"seat": "E", "tiles": tiles, "drawn": drawn,
                                  "melds": {s: [] for s in "ESWN"},
                                  "ponds": ponds or {s: "" for s in "ESWN"}}}
    if tile is not None:
        p["tile"], p["from"] = tile, "N"
    return p


def discards(*tiles: str) -> list[dict[str, Any]]:
    return [{"act": "discard", "tile": t} for t in tiles]


def test_efficiency_discards_the_tile_that_leaves_the_fewest_tiles_away() -> None:
    # 123m 456p 789s 11z 46m + 9p drawn: without 9p the hand waits on 5m (0 away); without 4m or 6m it
    # needs one more tile (1 away); without 1z, more still
    p = prompt("1234m6m456p789s11z", "9p", discards("1m", "2m", "3m", "4m", "6m", "4p", "5p", "6p", "9p",
                                                   "7s", "8s", "9s", "1z"))
    assert EfficiencyBot(PRESET, 0).decide(p) == {"prompt": 7, "seat": "E", "act": "discard", "tile": "9p"}


def test_efficiency_breaks_a_tie_by_the_unseen_tiles_that_win() -> None:
    # 123m 456p 789s 11z 467m: without 4m it waits on 5m and 8m (8 unseen), without 7m on 5m only (4);
    # both are waiting (0 away), so the two-sided wait is kept
    p = prompt("123467m456p789s11z", None, discards("4m", "7m", "1z"))
    assert EfficiencyBot(PRESET, 0).decide(p)["tile"] == "4m"
    # with three 8m in the ponds the two-sided wait has 5 unseen winning tiles, still more than 4
    ponds = {"E": "", "S": "8m", "W": "8m", "N": "8m"}
    assert EfficiencyBot(PRESET, 0).decide(prompt("123467m456p789s11z", None, discards("4m", "7m"),
                                                  ponds=ponds))["tile"] == "4m"
    # with all four 5m seen, only 8m wins after discarding 4m (4 unseen) and nothing after discarding 7m
    ponds = {"E": "", "S": "5m5m", "W": "5m", "N": "5m"}
    assert EfficiencyBot(PRESET, 0).decide(prompt("123467m456p789s11z", None, discards("4m", "7m"),
                                                  ponds=ponds))["tile"] == "4m"


def test_efficiency_takes_a_win_and_claims_only_what_brings_the_hand_nearer() -> None:
    win = {"act": "win"}
    assert EfficiencyBot(PRESET, 0).decide(prompt("123m456p789s11z55z", None, [{"act": "pass"}, win],
                                                  phase="claim", tile="5z"))["act"] == "win"
    # 123m 456p 789s 11z 55z waits on 1z or 5z (0 away): a pung of 5z leaves 123m 456p 789s 11z, and
    # after its best discard 123m 456p 789s 1z, still waiting: no nearer, so it passes
    actions = [{"act": "pass"}, {"act": "pung", "tiles": "555z"}]
    assert EfficiencyBot(PRESET, 0).decide(prompt("123m456p789s1155z", None, actions, phase="claim",
                                                  tile="5z"))["act"] == "pass"
    # 123m 456p 789s 66z 1z 5z needs two tiles (1 away); a pung of 6z leaves 123m 456p 789s 1z 5z and,
    # discarding either single, waits on the other (0 away): nearer, so it claims
    actions = [{"act": "pass"}, {"act": "pung", "tiles": "666z"}]
    assert EfficiencyBot(PRESET, 0).decide(prompt("123m456p789s1566z", None, actions, phase="claim",
                                                  tile="6z"))["act"] == "pung"


def test_bots_are_listed_and_a_bad_name_is_refused() -> None:
    assert {"random", "simple", "efficiency"} <= set(builtin_bots()) <= set(available_bots())
    with pytest.raises(TableError) as err:
        make_bot("cleverest", PRESET)
    assert err.value.field == "bot" and "efficiency" in str(err.value)


# --------------------------------------------------------------------------
# value: positions worked by hand from the preset's values (docs/rules.md) and docs/bots.md's rules

HK = load_preset("hk-classic")  # minimum 3 faan; half flush 3, full flush 7, concealed hand 1, self-draw 1


def seat_prompt(tiles: str, drawn: str | None, actions: list[dict[str, Any]], *, melds: dict[str, list[Any]],
                phase: str = "turn", tile: str | None = None, ponds: dict[str, str] | None = None,
                live_left: int = 60) -> dict[str, Any]:
    """E's prompt under hk-classic (no bonus tiles, round E), with the declared sets given."""
    p = prompt(tiles, drawn, actions, phase=phase, tile=tile, ponds=ponds)
    p["view"].update({"hand": 1, "round": "E", "live_left": live_left, "bonus": {s: "" for s in "ESWN"},
                      "melds": {s: melds.get(s, []) for s in "ESWN"}})
    return p


def meld(kind: str, tiles: str, frm: str = "N") -> dict[str, Any]:
    return {"kind": kind, "tiles": tiles, "from": frm}


def test_value_takes_every_win_offered() -> None:
    win = {"act": "win", "faan": 3}
    p = seat_prompt("123m456p789s1155z", None, [{"act": "pass"}, win], melds={}, phase="claim", tile="5z")
    assert make_bot("value", HK).decide(p)["act"] == "win"
    p = seat_prompt("123m456p789s1155z", "5z", [win, *discards("1m", "5z")], melds={})
    assert make_bot("value", HK).decide(p)["act"] == "win"


def test_value_keeps_a_flush_when_only_a_flush_reaches_the_minimum() -> None:
    # E has claimed 123m and 999m: no concealed hand, no honour, so the only way to 3 faan is a flush of
    # characters (full flush, 7). Every discard leaves the hand one tile from waiting either way (the hand
    # as it is needs a set and a pair: 78m or 3p_5p, and a pair); keeping the flush means giving up 3p, 5p
    # or 6s, never a character.
    melds = {"E": [meld("chow", "123m"), meld("pung", "999m")]}
    p = seat_prompt("45678m35p", "6s", discards("4m", "5m", "6m", "7m", "8m", "3p", "5p", "6s"), melds=melds)
    assert make_bot("value", HK).decide(p)["tile"] in ("3p", "5p", "6s")


def test_value_declines_a_claim_that_leaves_no_hand_worth_the_minimum() -> None:
    # E has claimed 123p; it holds 456m 78m 22s 67s 9s 1p and N discards 8s. Chowing 678s (or 789s) would
    # bring the hand nearer, but then its sets are of two suits (no flush), it holds no honour, it is not
    # concealed: at most the self-draw, 1 faan, against hk-classic's 3. Value passes; efficiency claims.
    melds = {"E": [meld("chow", "123p")]}
    actions = [{"act": "pass"}, {"act": "chow", "tiles": "678s"}, {"act": "chow", "tiles": "789s"}]
    p = seat_prompt("45678m1p22679s", None, actions, melds=melds, phase="claim", tile="8s")
    assert make_bot("value", HK).decide(p)["act"] == "pass"
    assert make_bot("efficiency", HK).decide(p)["act"] == "chow"


def test_value_claims_a_dragon_pung_that_makes_the_hand_worth_the_minimum() -> None:
    # E has claimed 123m and holds 456789m 55z 1p 9s: a pung of 5z (1 faan) and a flush of characters
    # with honours (half flush, 3) make 4; it claims and has 1p and 9s left to shed
    melds = {"E": [meld("chow", "123m")]}
    actions = [{"act": "pass"}, {"act": "pung", "tiles": "555z"}]
    p = seat_prompt("456789m1p9s55z", None, actions, melds=melds, phase="claim", tile="5z")
    assert make_bot("value", HK).decide(p)["act"] == "pung"


def test_value_discards_the_safe_tile_of_equal_worth_when_an_opponent_is_close() -> None:
    # E: 123456789m 22m 5p 5s + 9p drawn, concealed. Its best plan is the full flush of characters
    # (7 + concealed 1): 5p, 5s and 9p are worth the same to give up. S has declared three sets of dots
    # (four concealed tiles left: close, and keeping to dots), so a dot may win for S and a bamboo may
    # not: value gives up 5s.
    actions = discards("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p", "9p", "5s")
    s_sets = [meld("pung", "111p", "W"), meld("chow", "234p", "E"), meld("pung", "777p", "N")]
    p = seat_prompt("12234567892m5p5s", "9p", actions, melds={"S": s_sets})
    assert make_bot("value", HK).decide(p)["tile"] == "5s"
    # no opponent close: among the three the bot keeps 5p and 5s, which more unseen tiles join
    p = seat_prompt("12234567892m5p5s", "9p", actions, melds={})
    assert make_bot("value", HK).decide(p)["tile"] == "9p"
    # S has discarded 9p itself: a tile S has let go is as safe as the bamboo, and of the two the bot
    # keeps the 5s, which joins more tiles
    ponds = {"E": "", "S": "9p", "W": "", "N": ""}
    p = seat_prompt("12234567892m5p5s", "9p", actions, melds={"S": s_sets}, ponds=ponds)
    assert make_bot("value", HK).decide(p)["tile"] == "9p"


def test_value_reads_the_minimum_from_the_preset() -> None:
    # the chow that hk-classic's 3-faan minimum makes worthless (above) is worth taking under
    # playingcards-io, which has no minimum: it brings the hand from one tile short of waiting to waiting
    melds = {"E": [meld("chow", "123p")]}
    actions = [{"act": "pass"}, {"act": "chow", "tiles": "678s"}, {"act": "chow", "tiles": "789s"}]
    p = seat_prompt("45678m1p22679s", None, actions, melds=melds, phase="claim", tile="8s")
    assert make_bot("value", load_preset("playingcards-io")).decide(p)["act"] == "chow"
    assert "value" in builtin_bots()


BOTS = ["random", "simple", "efficiency", "value", "guard"]


def _prompt(phase: str) -> dict[str, Any]:
    """The first prompt of ``phase`` in a hand of four value bots under bga-old-style."""
    for seed in range(1, 50):
        t = Table({"event": "start", "preset": "bga-old-style", "seed": seed})
        bots = {s: make_bot("value", t.preset, i) for i, s in enumerate("ESWN")}
        while not t.over:
            ps = t.prompts()
            for p in ps:
                if p["phase"] == phase and (phase != "claim" or any(a["act"] == "pung" for a in p["actions"])):
                    return p
            t.submit(bots[ps[0]["seat"]].decide(ps[0]))
    raise AssertionError(f"no {phase} prompt")


def _turn_mutations(p: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(what is changed, how, the field the refusal must name) for a turn prompt."""
    held = p["view"]["tiles"] + (p["view"]["drawn"] or "")
    not_held = next(t + s for s in "mpsz" for t in "1234567" if t + s not in held)
    j = next(k for k, a in enumerate(p["actions"]) if a["act"] == "discard")
    return [
        ("prompt", None, "prompt"), ("prompt", True, "prompt"), ("prompt", -1, "prompt"),
        ("seat", "X", "seat"), ("seat", ["E"], "seat"), ("phase", {"turn": 1}, "phase"),
        ("actions", [], "actions"), ("actions", "discard", "actions"), ("actions", [1], "actions[0]"),
        ("actions", [{"act": "dance"}], "actions[0].act"),
        ("actions", [{"act": "kong", "kind": "secret", "tiles": "1111m"}], "actions[0].kind"),
        (f"actions.{j}.tile", "99z", f"actions[{j}].tile"), (f"actions.{j}.tile", "1m2m", f"actions[{j}].tile"),
        (f"actions.{j}.tile", "1f", f"actions[{j}].tile"), (f"actions.{j}.tile", not_held, f"actions[{j}].tile"),
        ("view", None, "view"), ("view.tiles", 13, "view.tiles"), ("view.drawn", "1f", "view.drawn"),
        ("view.tiles", "1111122222333m", "view.tiles"), ("view.live_left", -3, "view.live_left"),
        ("view.round", "X", "view.round"), ("view.ponds", {"E": ""}, "view.ponds"),
        ("view.ponds.S", "0m", "view.ponds.S"), ("view.melds.W", [{"kind": "pair", "tiles": "11m"}],
                                                 "view.melds.W[0]"),
        ("view.melds.N", [{"kind": "pung", "tiles": "12m"}], "view.melds.N[0].tiles"),
    ]


def _changed(p: dict[str, Any], where: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(p)
    keys = where.split(".")
    target: Any = out
    for k in keys[:-1]:
        target = target[int(k)] if isinstance(target, list) else target[k]
    target[keys[-1]] = value
    return out


@pytest.mark.parametrize("bot", BOTS)
def test_every_bot_refuses_a_prompt_no_table_makes_naming_the_field(bot: str) -> None:
    """GAME.md §8.4's prompt: a number, a seat, a phase, a non-empty list of the listed acts with tiles in the
    table's notation (a discard one held tile, a set three or four tiles; a claim's set holds the offered
    tile and held ones), and the seat's view (its tiles with the one drawn at most 14, four of a kind, by
    seat: melds, ponds, bonus). Anything else is a TableError naming the field, for every bot alike."""
    b = make_bot(bot, load_preset("bga-old-style"), 0)
    turn, claim = _prompt("turn"), _prompt("claim")
    assert b.decide(turn)["seat"] == turn["seat"] and b.decide(claim)["seat"] == claim["seat"]
    cases = _turn_mutations(turn)
    j = next(k for k, a in enumerate(claim["actions"]) if a["act"] == "pung")
    other = next(t + "s" for t in "123456789" if t + "s" != claim["tile"])
    cases += [("tile", None, "tile"), ("tile", "55m", "tile"),
              (f"actions.{j}.tiles", other * 3, f"actions[{j}].tiles")]
    for where, value, field in cases:
        on_claim = where == "tile" or (where == f"actions.{j}.tiles" and value == other * 3)
        p = _changed(claim if on_claim else turn, where, value)
        with pytest.raises(TableError) as e:
            b.decide(p)
        assert e.value.field == field, (where, value, e.value)
        assert str(e.value).startswith(f"{field} = "), (where, str(e.value))
    for junk in (None, 1, "prompt", [], {}):
        with pytest.raises(TableError) as e:
            b.decide(junk)  # type: ignore[arg-type]
        assert e.value.field == "prompt"


@settings(max_examples=150, derandomize=True, deadline=None)
@given(st.data())
def test_a_prompt_changed_anywhere_is_decided_or_refused_never_an_escape(data: st.DataObject) -> None:
    """A real prompt with one value anywhere in it replaced (or removed): each bot answers with one of the
    prompt's own actions, or refuses with a TableError; no other exception escapes."""
    p = copy.deepcopy(_prompt(data.draw(st.sampled_from(["turn", "claim", "discard"]))))
    paths: list[list[Any]] = []

    def walk(x: Any, path: list[Any]) -> None:
        paths.append(path)
        for k, v in (x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()):
            walk(v, [*path, k])
    walk(p, [])
    path = data.draw(st.sampled_from(paths[1:]))
    target: Any = p
    for k in path[:-1]:
        target = target[k]
    if isinstance(target, dict) and data.draw(st.booleans()):
        del target[path[-1]]
    else:
        target[path[-1]] = data.draw(st.sampled_from([None, 0, -1, 1.5, True, "", "x", "1m", "99z", "1f", [],
                                                       {}, [1], "1111m", 10**20]))
    for bot in BOTS:
        try:
            d = make_bot(bot, load_preset("bga-old-style"), 0).decide(p)
        except TableError:
            continue
        assert {k: v for k, v in d.items() if k not in ("prompt", "seat")} in p["actions"]


@pytest.mark.parametrize("bot", BOTS)
def test_a_prompt_the_checks_took_but_a_bot_could_not_read_is_refused(bot: str) -> None:
    """What check_prompt once took and a bot then failed on: a tile written as parse_tiles reads it but the table
    never writes it (spaces, a Unicode tile: the efficiency bot's KeyError), a bonus tile in a pond (its
    IndexError), a set without its tiles (its KeyError), and a concealed kong of a tile held once (the compiled
    efficiency bot read outside its tables, a segmentation fault)."""
    b = make_bot(bot, load_preset("bga-old-style"), 0)
    turn, claim = _prompt("turn"), _prompt("claim")
    held = turn["view"]["tiles"] + (turn["view"]["drawn"] or "")
    codes = [t.code for t in parse_tiles(held)]
    once = max((c for c in codes if codes.count(c) == 1 and c[1] in "mps"), key=lambda c: c[0])  # 9m: furthest
    j = next(k for k, a in enumerate(turn["actions"]) if a["act"] == "discard")
    tile = turn["actions"][j]["tile"]
    other = "S" if turn["seat"] != "S" else "W"
    cases = [(turn, f"actions.{j}.tile", f"{tile} ", f"actions[{j}].tile"),
             (turn, f"actions.{j}.tile", f" {tile}", f"actions[{j}].tile"),
             (turn, f"actions.{j}.tile", "\U0001F007", f"actions[{j}].tile"),
             (turn, f"view.ponds.{other}", "1m2g", f"view.ponds.{other}"),
             (turn, f"view.melds.{other}", [{"kind": "kong", "from": "E"}], f"view.melds.{other}[0]"),
             (turn, "actions", [{"act": "kong", "kind": "concealed", "tiles": once[0] * 4 + once[1]},
                                *turn["actions"]], "actions[0].tiles"),
             (claim, "tile", " " + claim["tile"], "tile")]
    for p, where, value, field in cases:
        with pytest.raises(TableError) as e:
            b.decide(_changed(p, where, value))
        assert e.value.field == field, (where, value, e.value)
