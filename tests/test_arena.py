"""The arena (hkcore.arena, hkscore arena; docs/bots.md "The arena"): one challenger against three champions
on duplicate walls, the figures worked by hand on hands made up here, and the whole run's invariants."""
from __future__ import annotations

import json
import math
from typing import Any

import pytest

from helpers.command import hkscore
from hkcore.errors import HkcoreError
from hkcore.simulation import Z95, arena
from hkcore.simulation.strength import _interval, _ratio, tally_wall


def _hand(winner: str | None = None, frm: str | None = None, faan: int = 0,
          delta: dict[str, int] | None = None, tile: str = "1m") -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = [{"event": "start", "seed": 1}, {"event": "discard", "seat": "E", "tile": tile}]
    credit = dict.fromkeys("ESWN", 0)
    if winner is not None:
        log.append({"event": "win", "seat": winner, "from": frm, "faan": faan})
        credit[winner] = faan
    log.append({"event": "end_hand", "winner": winner, "delta": delta, "faan": credit})
    return log


def test_a_wall_under_a_ledger_is_tallied_by_hand() -> None:
    """Rotation 0: the challenger is East (seat (4 - 0) % 4); it self-draws 6 faan: it is credited 6 and,
    zero-sum, +6 while each champion pays 6/3 = 2. Rotation 1: the challenger is North; East wins 4 faan on
    North's discard: the challenger -4 zero-sum and one deal-in. Rotation 2: a draw. Rotation 3: the
    challenger (South) wins 3 on West's discard: +3, West -3."""
    hands = [(0, _hand("E", None, 6), [0, 0, 0, 0]), (1, _hand("E", "N", 4), [0, 0, 0, 2]),
             (2, _hand(), [0, 1, 0, 0]), (3, _hand("S", "W", 3), [0, 0, 0, 0])]
    (ch_net, ch_zs, ch_wins, ch_dealins, ch_faan, cp_net, cp_zs, cp_wins, cp_dealins, cp_faan, draws, distinct,
     ch_faults, cp_faults) = tally_wall(hands)
    assert (ch_net, ch_zs, ch_wins, ch_dealins, ch_faan) == (9.0, 6 - 4 + 3, 2, 1, 9)
    assert (cp_net, cp_wins, cp_dealins, cp_faan) == (4.0, 1, 1, 4)
    assert cp_zs == pytest.approx(-2 * 3 + 4 - 3)
    assert (draws, distinct) == (1, 4)
    assert (ch_faults, cp_faults) == (1, 1)  # rotation 1: North, the challenger; rotation 2: South, a champion


def test_a_wall_under_payments_takes_each_seats_delta_and_counts_hands_played_alike_once() -> None:
    """Two rotations with the same play are one distinct hand; payments are the delta of the challenger's
    seat (rotation 0: East, rotation 2: West)."""
    d = {"E": 48, "S": -16, "W": -16, "N": -16}
    none = [0, 0, 0, 0]
    hands = [(0, _hand("E", None, 3, d), none), (1, _hand("E", None, 3, d), none), (2, _hand("E", None, 3, d), none),
             (3, _hand("E", None, 3, d, tile="2m"), none)]
    t = tally_wall(hands)
    assert t[0] == 48 - 16 - 16 - 16  # E, N, W, S in rotations 0..3
    assert t[5] == 3 * 48 + 3 * (-16) * 3 - (48 - 16 - 16 - 16)
    assert t[11] == 2  # rotations 0-2 alike, rotation 3 another


def test_intervals_are_clustered_by_wall() -> None:
    """Three walls' means 1, 2, 6: mean 3, sample sd sqrt(7), half-width Z95 * sqrt(7/3)."""
    x = _interval([1.0, 2.0, 6.0])
    half = Z95 * math.sqrt(7 / 3)
    assert x.mean == 3.0 and x.low == pytest.approx(3 - half) and x.high == pytest.approx(3 + half)
    one = _interval([2.0])
    assert (one.mean, one.low, one.high) == (2.0, None, None)
    # faan per win: 12 faan over 3 wins and 4 faan over 1: 16 / 4 = 4; z = (12 - 12, 4 - 4) / 2 = (0, 0)
    r = _ratio([12.0, 4.0], [3.0, 1.0])
    assert (r.mean, r.low, r.high) == (4.0, 4.0, 4.0)
    assert _ratio([0.0], [0.0]).mean is None


def test_a_bot_against_itself_plays_one_hand_a_wall_and_gains_nothing() -> None:
    r = arena("hk-classic", "value", "value", walls=12, seed=5)
    assert r.distinct_hands == r.walls == 12 and r.hands == 48
    assert r.difference["net_per_hand"] is not None and r.difference["net_per_hand"].mean == 0.0
    assert r.net_per_hand.mean == pytest.approx(r.champions.net_per_hand.mean)


def test_the_result_does_not_depend_on_the_jobs() -> None:
    one = arena("just-cards", "guard", "efficiency", walls=10, seed=2)
    two = arena("just-cards", "guard", "efficiency", walls=10, seed=2, jobs=2)
    assert one == two
    assert one.zero_sum_per_hand is None and one.pays  # a paying preset
    assert arena("mistboard", "guard", "efficiency", walls=4, seed=2).zero_sum_per_hand is not None


def test_bots_played_through_their_prompts_take_part() -> None:
    r = arena("mistboard", "simple", "random", walls=3, seed=1)
    assert r.hands == 12 and r.win_rate.mean is not None and r.win_rate.mean >= r.champions.win_rate.mean


@pytest.mark.parametrize(("kwargs", "field"), [({"walls": 0}, "walls"), ({"walls": 2.5}, "walls"),
                                               ({"seed": -1}, "seed"), ({"jobs": 0}, "jobs")])
def test_bad_counts_are_refused_naming_them(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(HkcoreError, match=field):
        arena("mistboard", "value", "value", **kwargs)


def test_bad_bots_and_presets_are_refused_naming_them() -> None:
    with pytest.raises(HkcoreError, match="challenger"):
        arena("mistboard", "nobody", "value", walls=1)
    with pytest.raises(HkcoreError, match="champion"):
        arena("mistboard", "value", "", walls=1)
    with pytest.raises(HkcoreError, match="preset"):
        arena("all", "value", "value", walls=1)


def test_the_command_prints_the_figures_and_refuses_bad_input_in_one_line() -> None:
    proc = hkscore("arena", "--preset", "mistboard", "--bots", "guard,value", "--walls", "6", "--seed", "3",
                   "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"preset", "challenger", "champion", "walls", "distinct_hands", "net_per_hand", "zero_sum_per_hand",
            "win_rate", "deal_in_rate", "draw_rate", "faan_per_win"} <= set(out)
    assert (out["preset"], out["challenger"], out["champion"], out["walls"]) == ("mistboard", "guard", "value", 6)
    assert set(out["net_per_hand"]) == {"mean", "low", "high"}
    text = hkscore("arena", "--preset", "mistboard", "--bots", "guard,value", "--walls", "6", "--seed", "3")
    assert text.returncode == 0 and "challenger guard" in text.stdout and "zero-sum" in text.stdout
    for args, said in ((["--bots", "guard"], "--bots"), (["--bots", "guard,nobody"], "champion"),
                       (["--bots", "guard,value", "--walls", "-3"], "walls"),
                       (["--bots", "guard,value", "-p", "nope"], "preset")):
        bad = hkscore("arena", *args)
        assert bad.returncode == 2 and bad.stdout == ""
        lines = bad.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("hkscore: error:") and said in lines[0], bad.stderr
