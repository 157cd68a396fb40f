"""hkcore.simulation: duplicate play of bots under several presets, its
summary, and ``hkscore simulate`` (docs/simulation.md)."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import hkcore
from helpers.cli import check_schema, run
from helpers.simulation import SEATS, counted, play_again
from hkcore.errors import HkcoreError
from hkcore.simulation import (
    SimulationSummary,
    simulate,
    simulation_logs,
    simulation_starts,
    wall_seed,
)
from hkcore.table import replay
from hkcore.table.records import lines

MIXED = ["simple", "simple", "random", "random"]
# one preset of each tile set's group twice, and one of 144 tiles alone
PRESETS = ["hk-classic", "just-cards", "bga-old-style"]


@pytest.fixture(scope="module")
def whole() -> SimulationSummary:
    return simulate(PRESETS, MIXED, hands=6, seed=3)


def test_the_facade_names_it() -> None:
    assert hkcore.simulate is simulate and hkcore.SimulationSummary is SimulationSummary
    import importlib

    importlib.import_module("hkcore.simulation")   # importing the module leaves the facade's function in place
    assert hkcore.simulate is simulate


def test_the_same_seed_gives_the_same_summary(whole: SimulationSummary) -> None:
    again = simulate(PRESETS, MIXED, hands=6, seed=3)
    assert again == whole and again.to_json() == whole.to_json()
    other = simulate(PRESETS, MIXED, hands=6, seed=4)
    assert other.presets != whole.presets   # another seed, other walls


def test_jobs_do_not_change_the_summary(whole: SimulationSummary) -> None:
    assert simulate(PRESETS, MIXED, hands=6, seed=3, jobs=2) == whole


@settings(max_examples=8, deadline=None)
@given(cuts=st.lists(st.integers(0, 6), max_size=4), order=st.randoms(use_true_random=False))
def test_shards_add_up_to_the_whole(whole: SimulationSummary, cuts: list[int], order: random.Random) -> None:
    points = sorted({0, 6, *cuts})
    parts = [simulate(PRESETS, MIXED, hands=b - a, seed=3, first=a) for a, b in itertools.pairwise(points)]
    order.shuffle(parts)      # in any order,
    total = parts[0]
    for part in parts[1:]:
        total = total + part
    assert total == whole
    if len(parts) >= 3:       # and grouped either way
        assert parts[0] + (parts[1] + parts[2]) == (parts[0] + parts[1]) + parts[2]


def test_a_wall_counted_twice_or_another_run_is_refused(whole: SimulationSummary) -> None:
    part = simulate(PRESETS, MIXED, hands=2, seed=3, first=1)
    with pytest.raises(HkcoreError, match="counted twice"):
        whole + part
    with pytest.raises(HkcoreError, match="seed"):
        part + simulate(PRESETS, MIXED, hands=2, seed=4, first=3)
    with pytest.raises(HkcoreError, match="presets"):
        part + simulate(PRESETS[:2], MIXED, hands=2, seed=3, first=3)


def _wall(record: dict[str, object]) -> tuple[object, ...]:
    """The whole shuffle a start record deals: the hands and the wall with its dead tiles at the back."""
    hands = record["hands"]
    assert isinstance(hands, dict)
    dead = str(record["dead"])
    back = "".join(reversed([dead[i:i + 2] for i in range(0, len(dead), 2)]))
    return tuple(hands[s] for s in SEATS), str(record["live"]) + back


def test_presets_with_the_same_tile_set_play_the_same_walls() -> None:
    starts = list(simulation_starts("all", hands=3, seed=9))
    assert len(starts) == 3 * 5
    for k in range(3):
        by = {pid: r for w, pid, r in starts if w == k}
        assert {r["seed"] for r in by.values()} == {wall_seed(9, k)}
        # 144 tiles: mistboard keeps a dead wall of 14, the others none: the same shuffle all the same
        assert _wall(by["mistboard"]) == _wall(by["bga-old-style"]) == _wall(by["playingcards-io"])
        assert len(by["mistboard"]["dead"]) == 28 and by["bga-old-style"]["dead"] == ""
        assert _wall(by["hk-classic"]) == _wall(by["just-cards"])
        assert _wall(by["hk-classic"]) != _wall(by["bga-old-style"])   # 136 tiles against 144: another deal
    assert len({_wall(r) for w, pid, r in starts if pid == "hk-classic"}) == 3  # each wall its own
    summary = simulate("all", "random", hands=1, seed=9)
    # "all": the built-in presets in id order, grouped by tile set in that order
    assert summary.groups == [["bga-old-style", "mistboard", "playingcards-io"], ["hk-classic", "just-cards"]]
    # each preset against the first of its group (the base, bga-old-style, in its own): A less the base
    assert {a: list(b) for a, b in summary.pairs.items()} == {
        "mistboard": ["bga-old-style"], "playingcards-io": ["bga-old-style"], "just-cards": ["hk-classic"]}
    assert "duplicate play" in summary.duplicate


def test_every_rotation_plays_the_start_record_of_its_wall() -> None:
    starts = {(k, pid): r for k, pid, r in simulation_starts(PRESETS, hands=2, seed=5)}
    seen = set()
    for k, pid, rotation, who, log in simulation_logs(PRESETS, MIXED, hands=2, seed=5):
        assert log[0] == starts[k, pid]
        seen.add((k, pid, rotation))
        assert sorted(who.values()) == sorted(MIXED)
    assert len(seen) == 2 * 3 * 4


def test_the_counts_agree_with_each_other(whole: SimulationSummary) -> None:
    assert whole.hands == 6 and whole.walls == [(0, 6)]
    for p in whole.presets.values():
        assert p.hands == 24
        assert p.wins + p.exhausted == p.hands
        assert sum(p.wins_by_seat.values()) == p.wins
        assert p.self_draw + p.discard + p.robbing == p.wins
        assert p.win_records >= p.wins and sum(p.faan_histogram.values()) == p.win_records
        assert sum(p.turns_histogram.values()) == p.hands
        assert p.hands_declined <= min(p.declined, p.hands)
        assert p.dealer_retained <= p.wins_by_seat["E"]   # these presets keep the dealer after a dealer win only
        assert list(p.bots) == ["simple", "random"]
        for b in p.bots.values():
            assert b.hands == 48 and b.hands_by_seat == {s: 12 for s in SEATS}   # each bot at each seat
            assert sum(b.wins_by_seat.values()) == b.wins == b.self_draw + b.discard + b.robbing
        assert sum(b.wins for b in p.bots.values()) == p.win_records
        assert sum(b.deal_ins for b in p.bots.values()) == p.discard + p.robbing
        assert sum(b.declined for b in p.bots.values()) == p.declined
        if p.pays:   # a settlement sums to nothing
            assert sum(b.payments.total for b in p.bots.values()) == 0
    # a pair's difference is the difference of the two presets' sums, on the same seat-hands
    first, second = whole.presets["just-cards"], whole.presets["hk-classic"]
    for name, diff in whole.pairs["just-cards"]["hk-classic"].items():
        assert diff.total == first.bots[name].payments.total - second.bots[name].payments.total
        assert diff.hands == first.bots[name].payments.hands == 48 and diff.walls == 6


def test_the_summary_is_what_the_logs_say() -> None:
    presets = ["hk-classic", "playingcards-io"]
    summary = simulate(presets, MIXED, hands=3, seed=11)
    mine = play_again(presets, MIXED, 3, seed=11)
    theirs = list(simulation_logs(presets, MIXED, hands=3, seed=11))
    assert [(k, pid, r, who) for k, pid, r, who, _ in theirs] == [(k, pid, r, who) for k, pid, r, who, _ in mine]
    assert [lines(log) for *_, log in theirs] == [lines(log) for *_, log in mine]
    for *_, log in mine:
        assert replay(lines(log).splitlines()) == log   # every hand replays: the bots played legally
    for pid, c in counted(mine).items():
        p = summary.presets[pid]
        assert (p.hands, p.wins, p.exhausted) == (c["hands"], c["wins"], c["exhausted"])
        assert p.wins_by_seat == {s: c["by_seat"][s] for s in SEATS}
        assert p.turns_histogram == dict(c["turns"]) and p.faan_histogram == dict(c["faan"])
        assert p.patterns == dict(c["patterns"])
        assert (p.self_draw, p.discard, p.robbing) == (c["kinds"]["self_draw"], c["kinds"]["discard"],
                                                       c["kinds"]["robbing"])
        for name, b in p.bots.items():
            assert b.payments.total == c["pay"][name]
            assert b.wins == c["bot_wins"][name] and b.deal_ins == c["deal_ins"][name]
        mean = p.bots["simple"].payments.mean()
        assert mean == c["pay"]["simple"] / 24


def test_stat_mean_and_interval() -> None:
    from hkcore.simulation import Stat

    # walls with totals 2, 4, 6, 8 over 2 hands each: per-hand means 1, 2, 3, 4
    s = Stat(walls=4, hands=8, total=20, squares=4 + 16 + 36 + 64)
    assert s.mean() == 2.5
    found = s.interval()
    assert found is not None
    low, high = found   # sd of 1, 2, 3, 4 is sqrt(5/3); 1.96 * sqrt(5/3) / 2 = 1.265
    assert abs(high - low - 2 * 1.959964 * (5 / 3) ** 0.5 / 2) < 1e-9 and abs((low + high) / 2 - 2.5) < 1e-12
    assert Stat(walls=1, hands=2, total=3, squares=9).interval() is None
    assert Stat(walls=0, hands=0, total=0, squares=0).mean() is None


def test_declined_hands_are_those_below_the_minimum(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "hk-classic"\nid = "house"\nminimum = 0\n', encoding="utf-8")
    s = simulate(["hk-classic", str(house)], "simple", hands=8, seed=2)
    # the same walls and bots: hk-classic's minimum of 3 turns down complete hands the house (0) takes
    assert s.presets["hk-classic"].declined > 0
    assert s.presets["house"].declined == 0
    assert s.presets["house"].wins > s.presets["hk-classic"].wins
    assert s.groups == [["hk-classic", "house"]]
    # a house preset's hands replay alone: their start records carry its TOML
    for *_, log in simulation_logs([str(house)], "simple", hands=1, seed=2):
        assert "minimum = 0" in log[0]["preset"]
        assert replay(lines(log).splitlines()) == log


def test_bad_arguments_name_themselves() -> None:
    with pytest.raises(HkcoreError, match="bots"):
        simulate("hk-classic", ["simple", "random"], hands=1)
    with pytest.raises(HkcoreError, match="nobody"):
        simulate("hk-classic", "nobody", hands=1)
    with pytest.raises(HkcoreError, match="hands"):
        simulate("hk-classic", "simple", hands=-1)
    with pytest.raises(HkcoreError, match="jobs"):
        simulate("hk-classic", "simple", hands=1, jobs=0)


def test_hkscore_simulate_writes_the_summary_and_the_page(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "hk-classic"\nid = "house"\nminimum = 0\n', encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = run(capsys, "simulate", "--preset", "hk-classic", "--preset", str(house), "--bots",
                            "simple,simple,random,random", "--hands", "3", "--seed", "1", "--out", str(out))
    assert code == 0, err
    assert stdout.split() == [str(out / "summary.json"), str(out / "summary.md")]
    summary = SimulationSummary.model_validate_json((out / "summary.json").read_text(encoding="utf-8"))
    assert summary == simulate(["hk-classic", str(house)], MIXED, hands=3, seed=1)
    page = (out / "summary.md").read_text(encoding="utf-8")
    assert "|  | hk-classic | house |" in page and "| hands played | 12 | 12 |" in page
    assert "| house | hk-classic | simple |" in page
    code, _, err = run(capsys, "simulate", "--bots", "simple,random", "--hands", "1", "--out", str(out))
    assert code == 2 and "--bots" in err


def test_hkscore_simulate_json_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, stdout, err = run(capsys, "simulate", "-p", "hk-classic", "--bots", "simple", "--hands", "2",
                            "--seed", "3", "--json")
    assert code == 0, err
    assert SimulationSummary.model_validate_json(stdout) == simulate("hk-classic", "simple", hands=2, seed=3)
    code, _, err = run(capsys, "simulate", "-p", "hk-classic", "--hands", "1")
    assert code == 2 and "--out" in err and "--json" in err


def test_hkscore_schema_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "simulation")
    assert code == 0
    schema = json.loads(out)
    check_schema(schema)
    assert {"presets", "pairs", "groups", "walls", "duplicate"} <= set(schema["properties"])


def test_ratio_interval_worked_by_hand() -> None:
    from hkcore.simulation import Ratio, RatioDifference

    # three walls, numerator and denominator (2, 1), (4, 2), (3, 1): 9 / 4 = 2.25, a mean denominator of 4/3;
    # each wall's (x - 2.25 y) / (4/3): -0.1875, -0.375, 0.5625 (they sum to 0), squares summing to 0.4921875
    a = Ratio(walls=3, x=9, y=4, xx=4 + 16 + 9, xy=2 + 8 + 3, yy=1 + 4 + 1)
    assert a.value() == 2.25
    found = a.interval()
    assert found is not None
    half = 1.959964 * (0.4921875 / (3 * 2)) ** 0.5
    assert abs(found[0] - (2.25 - half)) < 1e-12 and abs(found[1] - (2.25 + half)) < 1e-12
    # B on the same walls: (1, 1), (2, 1), (0, 2): 3 / 4 = 0.75; its terms (x - 0.75 y) / (4/3): 0.1875, 0.9375,
    # -1.125; A's less B's: -0.375, -1.3125, 1.6875, squares summing to 4.7109375
    b = Ratio(walls=3, x=3, y=4, xx=1 + 4 + 0, xy=1 + 2 + 0, yy=1 + 1 + 4)
    d = RatioDifference(a=a, b=b, cross={"xa*xb": 2 + 8 + 0, "xa*yb": 2 + 4 + 6, "xb*ya": 1 + 4 + 0,
                                          "ya*yb": 1 + 2 + 2})
    assert d.difference() == 1.5
    found = d.interval()
    assert found is not None
    half = 1.959964 * (4.7109375 / (3 * 2)) ** 0.5
    assert abs(found[0] - (1.5 - half)) < 1e-12 and abs(found[1] - (1.5 + half)) < 1e-12
    assert Ratio(walls=1, x=1, y=1, xx=1, xy=1, yy=1).interval() is None and Ratio().value() is None
    assert d + d == RatioDifference(a=a + a, b=b + b, cross={k: 2 * v for k, v in d.cross.items()})
    # counts that cannot be a paired difference are refused, naming what is wrong
    from pydantic import ValidationError
    for bad, said in (({"a": a, "b": b, "cross": {}}, "cross"), ({"a": a, "b": a + a, "cross": d.cross}, "b.walls")):
        with pytest.raises(ValidationError, match=said):
            RatioDifference(**bad)
    with pytest.raises(ValidationError, match="walls"):
        Ratio(walls=-3)


def test_the_atlas_counts_are_what_the_logs_say() -> None:
    """Deal-ins, the spread of payments, faan per win and the discarders' share, per wall, from the logs."""
    presets = ["bga-old-style", "playingcards-io"]   # both settle points: their payments compare
    summary = simulate(presets, MIXED, hands=3, seed=5)
    walls: dict[str, dict[int, dict[str, int]]] = {p: {} for p in presets}
    for k, pid, _r, _who, log in play_again(presets, MIXED, 3, seed=5):
        w = walls[pid].setdefault(k, {"deal_in": 0, "swing": 0, "faan": 0, "records": 0, "paid": 0, "won": 0})
        [end] = [x for x in log if x["event"] == "end_hand"]
        wins = [x for x in log if x["event"] == "win"]
        w["swing"] += sum(v * v for v in end["delta"].values())
        w["faan"] += sum(x["faan"] for x in wins)
        w["records"] += len(wins)
        w["won"] += sum(end["delta"][x["seat"]] for x in wins)
        if wins and wins[0]["from"] is not None:
            w["deal_in"] += 1
            w["paid"] -= end["delta"][wins[0]["from"]]
    for pid in presets:
        p, per = summary.presets[pid], walls[pid].values()
        for q in ("deal_in", "swing"):
            s = p.per_hand[q]
            assert (s.walls, s.hands, s.total, s.squares) == (3, 12, sum(w[q] for w in per),
                                                              sum(w[q] ** 2 for w in per))
        assert p.per_hand["deal_in"].total == p.discard + p.robbing
        assert p.faan_per_win == hkcore.simulation.Ratio(
            walls=3, x=sum(w["faan"] for w in per), y=sum(w["records"] for w in per),
            xx=sum(w["faan"] ** 2 for w in per), xy=sum(w["faan"] * w["records"] for w in per),
            yy=sum(w["records"] ** 2 for w in per))
        assert p.discarder_paid.x == p.paid_by_discarder == sum(w["paid"] for w in per)
        assert p.discarder_paid.y == p.won.total and p.discarder_paid.xy == sum(w["paid"] * w["won"] for w in per)
        assert p.spread() == (sum(w["swing"] for w in per) / 48) ** 0.5
    d = summary.differences["playingcards-io"]["bga-old-style"]
    a, b = walls["playingcards-io"], walls["bga-old-style"]
    assert d.swing is not None and d.swing.total == sum(a[k]["swing"] - b[k]["swing"] for k in range(3))
    assert d.deal_in.squares == sum((a[k]["deal_in"] - b[k]["deal_in"]) ** 2 for k in range(3))
    assert d.faan_per_win.cross == {"xa*xb": sum(a[k]["faan"] * b[k]["faan"] for k in range(3)),
                                    "xa*yb": sum(a[k]["faan"] * b[k]["records"] for k in range(3)),
                                    "xb*ya": sum(b[k]["faan"] * a[k]["records"] for k in range(3)),
                                    "ya*yb": sum(a[k]["records"] * b[k]["records"] for k in range(3))}
    assert d.discarder_share is not None and d.discarder_share.a == summary.presets["playingcards-io"].discarder_paid
    # a ledger and a paying preset: no payment compared
    mixed = simulate(["hk-classic", "just-cards"], MIXED, hands=2, seed=5).differences["just-cards"]["hk-classic"]
    assert mixed.swing is None and mixed.discarder_share is None and mixed.faan_per_win.a.walls == 2


def test_one_engine_bot_in_every_seat_plays_a_wall_once_for_its_four_rotations() -> None:
    # the engine's bots take no seed: with one in every seat the four rotations are one hand, played once;
    # asked through prompts, seat by seat with their seeds, each rotation is played and comes out the same
    # (seven pairs: a shape the kernels do not know, played through prompts, once for the four rotations too)
    pairs = hkcore.load_preset('extends = "just-cards"\nid = "jc-pairs"\n'
                               'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
                               '[patterns]\nseven_pairs = 4\n')
    presets: list[Any] = ["just-cards", "bga-old-style", pairs]
    once = simulate(presets, [["guard"], ["value", "guard", "value", "guard"]], hands=2, seed=6)
    every = simulate(presets, [["guard"], ["value", "guard", "value", "guard"]], hands=2, seed=6, fast=False)
    assert once == every
    for p in once.presets.values():
        assert p.hands == 8 and p.distinct_hands == 2   # two walls, each one hand four times
    # the logs too: the same as played rotation by rotation, and each the caller's own
    fast = list(simulation_logs(presets, "value", 2, 6))
    slow = list(simulation_logs(presets, "value", 2, 6, fast=False))
    assert fast == slow and len(fast) == 24   # 3 presets x 2 walls x 4 rotations
    assert all(a[4] == b[4] and a[4] is not b[4] for a, b in itertools.pairwise(fast) if a[:2] == b[:2])
