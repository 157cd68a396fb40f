"""The table engine (hkcore.table) against GAME.md: hand-worked logs replayed,
refusals, prompts and views, copies, and properties of random legal play.

Expected records come from the logs in tests/cases/games/ (worked by hand
from GAME.md and RULES.md, see its README) and from GAME.md §8.3/§8.4.
"""
from __future__ import annotations

import json
import pickle
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import hkcore
from helpers.tables import BUILTIN, conserved, house, junk_decisions, play, played_randomly, twin_tables
from hkcore.errors import HkcoreError, TableError
from hkcore.table import ReplayError, Table, replay
from hkcore.table.match import Match

GAMES = Path(__file__).resolve().parent / "cases" / "games"
REFUSED = {r["file"]: r for r in json.loads((GAMES / "refused.json").read_text())}
LOGS = sorted(p.name for p in GAMES.glob("*.jsonl"))


def lines(name: str) -> list[dict]:
    return [json.loads(x) for x in (GAMES / name).read_text().splitlines() if x.strip()]


@pytest.mark.parametrize("name", [n for n in LOGS if n not in REFUSED])
def test_hand_worked_log_replays(name: str) -> None:
    records = lines(name)
    out = replay(json.dumps(r) for r in records)
    kept = [r for r in records if r["event"] not in ("claim", "pass")]
    assert len(out) == len(kept)
    assert [r["event"] for r in out] == [r["event"] for r in kept]


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_hand_worked_refusal(name: str) -> None:
    with pytest.raises(ReplayError) as info:
        replay(json.dumps(r) for r in lines(name))
    assert str(info.value).startswith(REFUSED[name]["expect"]), str(info.value)
    assert info.value.line == REFUSED[name]["line"]
    assert info.value.kind == "illegal"


def example_start() -> dict:
    return lines("example_bga.jsonl")[0]


def test_example_prompts_as_game_md_tables_them() -> None:
    """GAME.md §8.3's table of prompts, one by one."""
    t = Table(example_start())
    (p1,) = t.prompts()
    assert (p1["seat"], p1["phase"]) == ("E", "turn")
    assert [a["tile"] for a in p1["actions"]] == ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "2s", "6s", "1z", "4z",
                                                  "5z"]
    t.submit({"prompt": p1["prompt"], "seat": "E", "act": "discard", "tile": "5z"})
    (p2,) = t.prompts()  # W and N hold no 5z: not asked
    assert (p2["seat"], p2["phase"], p2["tile"], p2["from"]) == ("S", "claim", "5z", "E")
    assert p2["actions"] == [{"act": "pass"}, {"act": "pung", "tiles": "555z"}]
    # §8.4's prompt, view and all
    assert p2["view"] == {
        "seat": "S", "hand": 1, "round": "E", "live_left": 91, "tiles": "11m78p334s223556z", "drawn": None,
        "melds": {"E": [], "S": [], "W": [], "N": []}, "bonus": {"E": "", "S": "", "W": "", "N": ""},
        "ponds": {"E": "5z", "S": "", "W": "", "N": ""}, "held": {"E": 13, "S": 13, "W": 13, "N": 13},
        "points": {"E": 10000, "S": 10000, "W": 10000, "N": 10000}}
    t.submit({"prompt": p2["prompt"], "seat": "S", "act": "pung", "tiles": "555z"})
    (p3,) = t.prompts()
    assert (p3["seat"], p3["phase"]) == ("S", "discard")
    assert [a["tile"] for a in p3["actions"]] == ["1m", "7p", "8p", "3s", "4s", "2z", "3z", "6z"]
    t.submit({"prompt": p3["prompt"], "seat": "S", "act": "discard", "tile": "3z"})
    (p4,) = t.prompts()  # 3z: nobody can claim it
    assert (p4["seat"], p4["phase"], p4["view"]["drawn"]) == ("W", "turn", "7z")
    assert [a["act"] for a in p4["actions"]] == ["discard"] * 10
    t.submit({"prompt": p4["prompt"], "seat": "W", "act": "discard", "tile": "1p"})
    (p5,) = t.prompts()
    assert (p5["seat"], p5["view"]["drawn"]) == ("N", "1z")
    t.submit({"prompt": p5["prompt"], "seat": "N", "act": "discard", "tile": "1z"})
    (p6,) = t.prompts()
    assert p6["seat"] == "E" and p6["actions"][0] == {"act": "kong", "kind": "concealed", "tiles": "9999p"}
    assert [a["tile"] for a in p6["actions"][1:]] == ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "2s", "6s", "1z", "4z"]
    t.submit({"prompt": p6["prompt"], "seat": "E", "act": "kong", "kind": "concealed", "tiles": "9999p"})
    (p7,) = t.prompts()
    assert (p7["seat"], p7["view"]["drawn"]) == ("E", "9s")
    t.submit({"prompt": p7["prompt"], "seat": "E", "act": "discard", "tile": "9s"})
    (p8,) = t.prompts()
    assert (p8["seat"], p8["phase"]) == ("W", "claim")
    assert p8["actions"] == [{"act": "pass"}, {"act": "win", "faan": 6}]
    t.submit({"prompt": p8["prompt"], "seat": "W", "act": "win"})
    assert t.over and t.prompts() == []
    assert t.log == [r for r in lines("example_bga.jsonl")]


def test_example_ends_the_match_under_a_one_hand_house_preset() -> None:
    """GAME.md §8.3's house preset (rounds = false, hands = 1): end_match as the contract writes it."""
    house = 'extends = "bga-old-style"\n[table]\nrounds = false\nhands = 1\n'
    records = lines("example_bga.jsonl")
    records[0]["preset"] = house
    records[-1]["next"] = None
    records.append({"event": "end_match", "reason": "hands", "standings": [
        {"place": 1, "player": "p3", "points": 10128, "hands_won": 1, "faan": 6},
        {"place": 2, "player": "p2", "points": 9968, "hands_won": 0, "faan": 0},
        {"place": 2, "player": "p4", "points": 9968, "hands_won": 0, "faan": 0},
        {"place": 4, "player": "p1", "points": 9936, "hands_won": 0, "faan": 0}]})
    assert replay(records) == records


def test_a_difference_is_reported_with_its_line_and_field() -> None:
    records = lines("example_bga.jsonl")
    records[4] = {**records[4], "tile": "6z"}  # W's draw
    with pytest.raises(ReplayError) as info:
        replay(records)
    assert str(info.value) == "line 5: tile: expected '6z', engine '7z'"
    assert info.value.kind == "difference"
    records = lines("example_bga.jsonl")
    records[12]["payments"] = {**records[12]["payments"], "E": -65}
    with pytest.raises(ReplayError, match=r"^line 13: payments.E: expected -65, engine -64$"):
        replay(records)


@pytest.mark.parametrize("bad, field", [
    ("not json", "line"), ('{"event": "deal"}', "event"), ("[1, 2]", "line"),
])
def test_records_that_are_not_records(bad: str, field: str) -> None:
    with pytest.raises(ReplayError) as info:
        replay([json.dumps(example_start()), bad])
    assert info.value.kind == "invalid" and info.value.field == field and info.value.line == 2


def _state(t: Table) -> bytes:
    return pickle.dumps(t)


@pytest.mark.parametrize("decision, field", [
    ({"prompt": 2, "seat": "E", "act": "discard", "tile": "5z"}, "prompt"),
    ({"prompt": True, "seat": "E", "act": "discard", "tile": "5z"}, "prompt"),
    ({"prompt": 1, "seat": "S", "act": "discard", "tile": "1m"}, "seat"),
    ({"prompt": 1, "seat": "E", "act": "pung", "tiles": "999p"}, "act"),
    ({"prompt": 1, "seat": "E", "act": "discard", "tile": "7z"}, "tile"),
    ({"prompt": 1, "seat": "E", "act": "discard"}, "tile"),
    ({"prompt": 1, "seat": "E", "act": "kong", "kind": "concealed", "tiles": "9999p"}, "act"),
    ("discard 5z", "decision"),
])
def test_a_decision_not_listed_is_refused_and_the_table_stays(decision: object, field: str) -> None:
    t = Table(example_start())
    before = _state(t)
    with pytest.raises(TableError) as info:
        t.submit(decision)
    assert info.value.field == field
    assert isinstance(info.value, HkcoreError)
    assert _state(t) == before


def test_mistboard_refuses_the_concealed_kong() -> None:
    start = {**example_start(), "preset": "mistboard", "points": None}
    with pytest.raises(ReplayError, match=r"^line 10: kong: not legal for E"):
        replay([start, *lines("example_bga.jsonl")[1:]])


@pytest.mark.parametrize("start, field", [
    ({"event": "start", "preset": "nope", "seed": 1}, "start.preset"),
    ({"event": "start", "preset": "/etc/passwd", "seed": 1}, "start.preset"),
    ({"event": "start", "preset": 'extends = "../x.toml"\n', "seed": 1}, "start.preset"),
    ({"event": "start", "preset": "hk-classic", "seed": -1}, "start.seed"),
    ({"event": "start", "preset": "hk-classic", "seed": 1, "round": "X"}, "start.round"),
    ({"event": "start", "preset": "hk-classic", "seed": 1, "points": {"E": 0, "S": 0, "W": 0, "N": 0}},
     "start.points"),
    ({"event": "start", "preset": "hk-classic", "seed": 1, "colour": 1}, "start.colour"),
    ({"event": "start", "preset": "hk-classic", "hands": {"E": "1111m", "S": "", "W": "", "N": ""}},
     "start.hands.E"),
    ({"event": "start", "preset": "hk-classic", "seats": {"E": "a", "S": "a", "W": "b", "N": "c"}, "seed": 1},
     "start.seats"),
])
def test_bad_start_records(start: dict, field: str) -> None:
    with pytest.raises(TableError) as info:
        Table(start)
    assert info.value.field == field


def test_five_copies_named_in_an_explicit_wall_are_refused() -> None:
    start = {**example_start(), "live": "9p9p"}  # E holds 999p: a fifth 9p
    with pytest.raises(TableError) as info:
        Table(start)
    assert info.value.field == "start.live"


def test_a_seeded_deal_follows_the_contract() -> None:
    """GAME.md §8.1 and §2: Fisher-Yates on random.Random(seed).random() over the
    canonical set, then E, S, W, N take 4 at a time to 12, 1 each, 1 more to E."""
    tiles = [t.code for t in hkcore.TILES[:34] for _ in range(4)]  # hk-classic: 136 tiles
    rng = random.Random(11)
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    hands: dict[str, list[str]] = {s: [] for s in "ESWN"}
    pos = 0
    for _ in range(3):
        for s in "ESWN":
            hands[s] += tiles[pos:pos + 4]
            pos += 4
    for s in "ESWN":
        hands[s].append(tiles[pos])
        pos += 1
    hands["E"].append(tiles[pos])
    pos += 1
    t = Table({"event": "start", "preset": "hk-classic", "seed": 11})
    start = t.log[0]
    for s in "ESWN":
        assert start["hands"][s] == hkcore.format_tiles(hands[s])
    assert start["live"] == "".join(tiles[pos:]) and start["dead"] == ""
    # a record with the seed and its own tiles replays; one whose tiles differ is refused
    assert Table(start).log[0] == start
    with pytest.raises(TableError) as info:
        Table({**start, "live": start["live"][2:] + start["live"][:2]})
    assert info.value.field == "start.live"


def test_a_dead_wall_is_kept_back() -> None:
    """mistboard reserves 14 tiles (G2): the seeded record's dead holds them in replacement order."""
    t = Table({"event": "start", "preset": "mistboard", "seed": 5})
    start = t.log[0]
    assert len(hkcore.parse_tiles(start["dead"])) == 14
    live = len(hkcore.parse_tiles(start["live"]))
    assert live == 144 - 53 - 14
    replaced = sum(1 for r in t.log if r["event"] == "bonus")
    assert t.prompts()[0]["view"]["live_left"] == live - max(0, replaced - 14)


# ------------------------------------------------------------ properties

RANK = {"win": 0, "kong": 1, "pung": 1, "chow": 2}


def same_outcome_in_any_order(t: Table, prompts: list[dict], rng: random.Random) -> None:
    """The window's outcome does not depend on the order the answers arrive in, and it is the
    highest claim answered: a win over a pung or kong over a chow, then the seat nearest after
    the discarder (GAME.md §3.4); never a lower one while a higher was pending."""
    answers = [(p["seat"], p["actions"][int(rng.random() * len(p["actions"]))]) for p in prompts]
    frm = "ESWN".index(prompts[0]["from"])
    claimed = [(RANK[a["act"]], ("ESWN".index(seat) - frm) % 4, seat, a) for seat, a in answers if a["act"] != "pass"]
    outcomes = []
    for order in (answers, answers[::-1]):
        c = t.copy()
        for seat, a in order:
            if any(q["seat"] == seat for q in c.prompts()):
                c.submit({"prompt": prompts[0]["prompt"], "seat": seat, **a})
        outcomes.append(c.log[len(t.log):])
    assert outcomes[0] == outcomes[1]
    first = outcomes[0][0]
    if claimed:
        _, _, seat, a = min(claimed, key=lambda x: (x[0], x[1]))
        assert (first["event"], first["seat"]) == (a["act"], seat)
    else:
        assert first["event"] in ("draw", "exhausted")


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_play_keeps_the_contract(data: st.DataObject) -> None:
    preset = data.draw(st.composite(house)())
    seed = data.draw(st.integers(0, 2**32))
    t = Table({"event": "start", "preset": preset, "seed": seed})
    start_points = None if t.points is None else sum(t.points.values())
    play(t, random.Random(seed), window_check=same_outcome_in_any_order)
    conserved(t)
    end = t.log[-1] if t.log[-1]["event"] == "end_hand" else t.log[-2]
    if start_points is not None:
        assert sum(end["points"].values()) == start_points
        assert sum(end["delta"].values()) == 0
    else:
        assert end["points"] is None and end["delta"] is None
    assert replay(json.dumps(r) for r in t.log) == t.log


@settings(max_examples=10, deadline=None, derandomize=True)
@given(st.sampled_from(BUILTIN), st.integers(0, 2**32), st.integers(1, 60))
def test_a_pickled_table_plays_on_identically(preset: str, seed: int, cut: int) -> None:
    t = Table({"event": "start", "preset": preset, "seed": seed})
    rng = random.Random(seed)
    for _ in range(cut):
        if t.over:
            break
        p = t.prompts()[0]
        t.submit({"prompt": p["prompt"], "seat": p["seat"], **p["actions"][-1]})
    copy = pickle.loads(pickle.dumps(t))
    state = rng.getstate()
    play(t, rng, check=False)
    rng.setstate(state)
    play(copy, rng, check=False)
    assert copy.log == t.log


@pytest.mark.parametrize("preset", BUILTIN)
def test_a_match_plays_to_its_end_and_replays(preset: str) -> None:
    m = Match(preset, seed=2)
    rng = random.Random(2)
    while not m.over:
        p = m.prompts()[0]
        a = next((x for x in p["actions"] if x["act"] == "win"), p["actions"][int(rng.random() * len(p["actions"]))])
        m.submit({"prompt": p["prompt"], "seat": p["seat"], **a})
    last = m.log[-1]
    assert last["event"] == "end_match"
    rules = hkcore.load_preset(preset).table
    hands = sum(r["event"] == "end_hand" for r in m.log)
    if rules.hands is not None:
        assert hands <= rules.hands
    if rules.rounds is not None:
        assert hands >= 4 * rules.rounds  # every player deals at least once a round
    assert last["standings"][0]["place"] == 1
    assert replay(m.log) == m.log
    assert m.standings == last["standings"] and m.view("E") == m.table.view("E")


def test_a_match_s_standings_so_far_are_end_match_s() -> None:
    """Before a hand is finished every player stands level at the start points; after hands are played and
    the match is stopped mid-hand, the standings are those of stop()'s end_match (the hand in play dropped)."""
    m = Match("bga-old-style", players=["ann", "bob", "cy", "dee"], seed=3)
    assert m.standings == [{"place": 1, "player": n, "points": 10000, "hands_won": 0, "faan": 0}
                           for n in ("ann", "bob", "cy", "dee")]
    rng = random.Random(3)
    while sum(r["event"] == "end_hand" for r in m.log) < 2:
        m.play_random(rng)
    p = m.prompts()[0]
    m.submit({"prompt": p["prompt"], "seat": p["seat"], **p["actions"][0]})  # the third hand is in play
    so_far = m.standings
    assert m.stop()[0]["standings"] == so_far == m.standings
    with pytest.raises(TableError) as info:
        m.view("X")
    assert info.value.field == "seat"


@pytest.mark.parametrize("preset", BUILTIN)
def test_a_line_is_the_record_as_compact_json(preset: str) -> None:
    from hkcore.table.records import line
    t = Table({"event": "start", "preset": preset, "seed": 9})
    play(t, random.Random(9), check=False)
    for r in t.log:
        assert line(r) == json.dumps(r, separators=(",", ":"), ensure_ascii=False)
    from hkcore.table.records import lines
    want = "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in t.log)
    assert t.log_lines() == want == lines(t.log)  # the engine's own lines beside its log
    odd = [{"event": "draw", "tile": "1m", "seat": "E", "source": "live"}, {"event": "draw", "seat": "E", "tile": [1],
           "source": "live"}, {"event": "discard", "seat": "X", "tile": "1m"}, {"event": "discard", "seat": "E"}]
    for r in odd:  # not as the engine writes them: written by json all the same
        assert line(r) == json.dumps(r, separators=(",", ":"), ensure_ascii=False)


def test_lines_with_players_whose_names_need_escaping() -> None:
    m = Match("playingcards-io", players=['a"b', "é", "x\\y", "p4"], seed=3)
    while not m.over:
        m.play_random(random.Random(3))
    t = m.table
    want = "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in t.log)
    assert t.log_lines() == want


def test_the_compiled_deal_is_the_contract_s() -> None:
    from hkcore.table.flow import engine, wall
    tiles = wall.tile_set(True)
    random.Random(4).shuffle(tiles)
    assert engine.deal(tiles) == wall.deal(tiles)
    assert engine.codes(tiles[:20]) == wall.codes(tiles[:20])
    assert engine.canonical(tiles[:14]) == wall.canonical(tiles[:14])


@given(st.lists(st.integers(0, 41), max_size=150))
def test_the_compiled_tile_texts_are_the_contract_s(tiles: list[int]) -> None:
    """Any tiles, more than four of a kind and whole walls included."""
    from hkcore.table.flow import engine, wall
    assert engine.codes(tiles) == wall.codes(tiles)
    assert engine.canonical(tiles) == wall.canonical(tiles)


@pytest.mark.parametrize("preset", BUILTIN)
def test_the_engine_plays_random_as_the_random_policy_does(preset: str) -> None:
    """Match.play_random makes the choices the random policy makes from the same generator."""
    from hkcore.table.players import RandomBot
    fast = Match(preset, seed=4)
    fast.play_random(random.Random(5))
    slow = Match(preset, seed=4)
    choose = RandomBot(None, 0, rng=random.Random(5)).decide
    hand = slow.table
    while slow.table is hand and not slow.over:
        slow.submit(choose(slow.prompts()[0]))
    assert fast.log == slow.log


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.data())
def test_the_compiled_engine_and_its_twin_write_the_same_log(data: st.DataObject) -> None:
    found = twin_tables()
    if found is None:
        pytest.skip("the compiled engine is not in use")
    compiled, pure = found
    preset = data.draw(st.composite(house)())
    seed = data.draw(st.integers(0, 2**32))
    logs, prompts = [], []
    for cls in (compiled, pure):
        t = cls({"event": "start", "preset": preset, "seed": seed})
        prompts.append(played_randomly(t, random.Random(seed)))
        logs.append(t.log)
    assert logs[0] == logs[1]
    assert prompts[0] == prompts[1]


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.sampled_from(BUILTIN), st.integers(0, 2**32), st.integers(0, 80), st.randoms(use_true_random=False))
def test_hostile_decisions_are_refused_and_change_nothing(preset: str, seed: int, cut: int,
                                                          rnd: random.Random) -> None:
    t = Table({"event": "start", "preset": preset, "seed": seed})
    for _ in range(cut):
        if t.over:
            break
        p = t.prompts()[0]
        t.submit({"prompt": p["prompt"], "seat": p["seat"], **p["actions"][int(rnd.random() * len(p["actions"]))]})
    for bad in junk_decisions(t, rnd, 20):
        before = pickle.dumps(t)
        with pytest.raises(TableError) as info:
            t.submit(bad)
        assert info.value.field in ("decision", "prompt", "seat", "act", "kind", "tiles", "tile")
        assert len(str(info.value).splitlines()) == 1 and len(str(info.value)) < 400
        assert pickle.dumps(t) == before


def test_the_largest_dead_wall_leaves_one_live_tile() -> None:
    """Live tiles left = tiles left - max(0, D - replacements) (GAME.md §1): with 144 tiles the deal leaves
    144 - 53 = 91, and D = 90, the largest a preset may give, leaves one live tile however many bonus
    replacements come from the back ((91 - r) - (90 - r) = 1); S draws it, and S's discard is the last."""
    t = Table({"event": "start", "preset": 'extends = "bga-old-style"\n[table]\ndead_wall = 90\n', "seed": 1})
    assert len(hkcore.parse_tiles(t.log[0]["live"])) == 1
    assert t.live_left() == 1 and t.prompts()[0]["view"]["live_left"] == 1
    p = t.prompts()[0]
    t.submit({"prompt": p["prompt"], "seat": "E", **next(a for a in p["actions"] if a["act"] == "discard")})
    while t.prompts() and t.prompts()[0]["phase"] != "turn":
        q = t.prompts()[0]
        t.submit({"prompt": q["prompt"], "seat": q["seat"], "act": "pass"})
    assert t.live_left() == 0
    p = t.prompts()[0]
    assert all(a["act"] in ("discard", "win") for a in p["actions"])  # no kong on an empty live wall (G5)


def test_the_compiled_codes_are_the_codes_modules() -> None:
    """hkcore/table/flow/_codes.pxd, the C mirror the compiled engine and players cimport, holds every action,
    phase, instant-window and meld code of hkcore/table/flow/codes.py, each with the same value, and no other."""
    import re
    from pathlib import Path

    from hkcore.table.flow import codes

    pxd = (Path(codes.__file__).parent / "_codes.pxd").read_text(encoding="utf-8")
    declared = {name: int(value) for name, value in re.findall(r"^\s+([A-Z_0-9]+) = (\d+)\s*$", pxd, re.M)}
    names = ("PASS", "WIN", "CONCEALED", "ADDED", "EXPOSED", "PUNG", "CHOW", "DISCARD", "SELF_PUNG",
             "TURN", "DISCARD_ONLY", "CLAIM", "ROB", "INSTANT", "OVER", "DEAL", "AFTER_DEAL", "AFTER_G4",
             "M_CHOW", "M_PUNG", "M_KONG")
    assert declared == {n: getattr(codes, n) for n in names}
    # the values the contract's records spell: a prompt lists pass first, then win; the phases as logs name them
    assert (codes.PASS, codes.WIN) == (0, 1) and codes.PHASES[codes.CLAIM] == "claim"
    assert codes.MELD_KIND[codes.M_KONG] == "kong" and codes.ACTS[codes.CHOW] == "chow"


def test_the_engine_is_told_the_rules_by_name() -> None:
    """What each built-in preset file says (presets/*.toml), as the one value the engine reads."""
    import dataclasses

    from hkcore.table.flow.rules import ROB_ADDED, ROB_NONE, ROB_ORPHANS, EngineRules
    from hkcore.table.table import engine_rules

    mist = engine_rules(hkcore.load_preset("mistboard"))
    assert (mist.concealed_kong, mist.added_kong, mist.robbing) == (False, False, ROB_NONE)
    just = engine_rules(hkcore.load_preset("just-cards"))
    assert (just.swap_rule, just.robbing, just.concealed_kong) == (True, ROB_ORPHANS, True)
    pcio = engine_rules(hkcore.load_preset("playingcards-io"))
    assert (pcio.replacement_from_front, pcio.kong_tile_drawn_only, pcio.self_pung, pcio.robbing) == (
        True, True, True, ROB_ADDED)
    assert not any((pcio.last_discard_any, pcio.multiple_winners, mist.extra_shapes))
    with pytest.raises(dataclasses.FrozenInstanceError):
        mist.swap_rule = True  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(just)) == just
    for rules in (mist, just, pcio):  # the engines' flags: every field, in the fields' order, but seven_pairs
        assert rules.flags() == tuple(int(v) for v in dataclasses.astuple(rules))[:-1]
    with pytest.raises(ValueError, match="robbing"):
        EngineRules(**{**dataclasses.asdict(just), "robbing": 3})
    # seven pairs (the plugin's shape) alone beyond the core's shapes: the engine counts it (2: with four of a
    # kind as two pairs); it is among the extra shapes, and only there
    pairs = 'extends = "just-cards"\nid = "p"\nshapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
    fours = ('extends = "just-cards"\nid = "q"\n[shapes.standard]\n[shapes.thirteen_orphans]\n'
             "[shapes.seven_pairs]\nfour_as_two_pairs = true\n")
    assert [(r.extra_shapes, r.seven_pairs) for r in (just, engine_rules(hkcore.load_preset(pairs)),
                                                      engine_rules(hkcore.load_preset(fours)))] == [
        (False, 0), (True, 1), (True, 2)]
    with pytest.raises(ValueError, match="seven_pairs"):
        EngineRules(**{**dataclasses.asdict(just), "seven_pairs": 1})  # without extra shapes
    with pytest.raises(ValueError, match="seven_pairs"):
        EngineRules(**{**dataclasses.asdict(just), "extra_shapes": True, "seven_pairs": 3})
    house = hkcore.load_preset('extends = "just-cards"\nid = "h"\n[claims]\nswap_rule = false\n')
    t = Table({"event": "start", "preset": "just-cards", "seed": 1}, house)
    assert t._rules == dataclasses.replace(just, swap_rule=False)


def test_a_match_pickled_before_seven_pairs_was_an_engine_rule_deals_its_next_hand() -> None:
    """A table pickled before ``EngineRules`` had ``seven_pairs`` (its rules the first twelve fields) loads them
    with seven pairs not in play (no preset then had the engine count it), and lends them to the next deal of
    its match, which plays on as the match never pickled does."""
    import copyreg
    import dataclasses

    from hkcore.table.flow.rules import EngineRules

    class Before:  # pickles as EngineRules did: every field but the last
        def __init__(self, rules: EngineRules) -> None:
            self.state = [getattr(rules, f.name) for f in dataclasses.fields(rules)][:-1]

        @property  # type: ignore[misc]
        def __class__(self) -> type:  # what the pickler asks of an object made by __newobj__
            return EngineRules

        def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
            return copyreg.__newobj__, (EngineRules,), self.state

    m = Match("just-cards", seed=5)
    rules = m.table._rules
    m.table._rules = Before(rules)  # type: ignore[assignment]
    old = pickle.dumps(m)
    m.table._rules = rules
    again = pickle.loads(old)
    assert again.table._rules == rules and again.table._rules.seven_pairs == 0
    for match in (m, again):
        match.play_random(random.Random(7))
        assert [r["event"] for r in match.log].count("start") == 2  # the next hand dealt, with those rules
        match.play_random(random.Random(8))
    assert again.log == m.log


def test_a_tables_public_names_are_what_docs_table_md_documents() -> None:
    """docs/table.md, "What a `Table` offers": every public name a Table has, on either engine, and no other."""
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "table.md").read_text(encoding="utf-8")
    section = doc.split("## What a `Table` offers", 1)[1].split("\n## ", 1)[0]
    documented = set()
    for row in re.findall(r"^\| (`.*?) \|", section, re.M):
        documented |= {re.sub(r"^Table\.|\(.*", "", n) for n in re.findall(r"`([^`]+)`", row)}
    documented.discard("Table")
    t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
    assert {n for n in dir(t) if not n.startswith("_")} == documented


def test_the_table_answers_every_hook_of_the_engines_contract() -> None:
    """hkcore.table.flow.hooks.TableHooks: each hook the engine calls is Table's own, with the contract's
    parameters; and the pure engine stubs no hook the contract leaves out."""
    import inspect

    from hkcore.table.flow._pyengine.state import EngineState
    from hkcore.table.flow.hooks import TableHooks

    hooks = {n for n, v in vars(TableHooks).items() if callable(v) and not n.startswith("__")}
    assert hooks == {"_self_win", "_discard_win", "_rob_win", "_instant_win", "_win", "_exhausted", "_g15_tile",
                     "view"}
    for name in hooks:
        assert name in vars(Table), name
        want = list(inspect.signature(getattr(TableHooks, name)).parameters)
        assert list(inspect.signature(vars(Table)[name]).parameters) == want, name
    stubs = {n for n, v in vars(EngineState).items()
             if callable(v) and "NotImplementedError" in inspect.getsource(v)}
    assert stubs <= hooks, stubs - hooks


def test_a_quiet_table_stays_quiet_in_its_copies() -> None:
    """A table told to keep no records of play (``quiet``) keeps none in a pickle, a deep copy or ``copy()``
    either, and a table that keeps them keeps them."""
    import copy

    for quiet in (True, False):
        t = Table({"event": "start", "preset": "hk-classic", "hand": 1, "round": "E", "seed": 5})
        t.quiet = quiet
        for c in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t), t.copy()):
            assert c.quiet is quiet
            before = len(c.log)
            q = c.prompts()[0]
            c.submit(q["actions"][0] | {"seat": q["seat"], "prompt": q["prompt"]})
            assert (len(c.log) == before) is quiet


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.one_of(st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1, 2**64, 2**70]),
                 st.integers(0, 2**64 + 5)), st.booleans())
def test_a_seeded_deal_shuffles_as_pythons_random_does(seed: int, bonus: bool) -> None:
    """The engine in use shuffles a seeded deal's tiles as Fisher-Yates on random.Random(seed).random() does
    (docs/table.md: the seed names the deal on every machine), the compiled one without Python's generator."""
    from hkcore.table.flow.engine import seeded_shuffle
    from hkcore.table.flow.wall import tile_set

    tiles = tile_set(bonus)
    rand = random.Random(seed).random
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]
    assert seeded_shuffle(tile_set(bonus), seed) == tiles


@pytest.mark.parametrize("seed", [-1, 3.5, "7", None, True])
def test_a_seeded_shuffle_takes_only_a_whole_number_seed(seed: Any) -> None:
    from hkcore.table.flow.engine import seeded_shuffle
    from hkcore.table.flow.wall import tile_set

    with pytest.raises(TableError) as exc:
        seeded_shuffle(tile_set(True), seed)
    assert exc.value.field == "seed"
