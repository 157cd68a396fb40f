"""The built-in bots (hkcore.table.bots): legal decisions only, the same for
the same seed, and the efficiency bot's choices on positions worked by hand."""
from __future__ import annotations

from typing import Any

import pytest

from hkcore.errors import TableError
from hkcore.preset import builtin_ids, load_preset
from hkcore.table import Table
from hkcore.table.bots import EfficiencyBot, available_bots, builtin_bots, make_bot

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
@pytest.mark.parametrize("bot", ["random", "simple", "efficiency", "value"])
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
