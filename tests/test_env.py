"""hkcore.table.Env, the agent interface (docs/env.md): only legal actions
are accepted, masks are the prompts' actions, GAME.md §8.3's hand played
through it, observations never show hidden tiles, rewards are the log's
payments, and the same seed plays the same hand."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from hkcore.errors import HkcoreError, TableError
from hkcore.preset import builtin_ids
from hkcore.table import Env, Table
from hkcore.table.env import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    EXPOSED_KONG,
    FACE_UP_PUNG,
    N_ACTIONS,
    OBS_LAYOUT,
    OBS_SIZE,
    PASS,
    PUNG,
    WIN,
    action_id,
    action_name,
    action_to_decision,
    decision_to_action,
    encode,
    legal_actions,
)
from hkcore.table.flow.engine import IMPLEMENTATION

#: GAME.md §8.3
START = {"event": "start", "preset": "bga-old-style",
         "hands": {"E": "123456m999p26s145z", "S": "11m78p334s223556z",
                   "W": "1p2345678889s77z", "N": "147m258p369s2466z"},
         "live": "7z1z9p", "dead": "9s"}
AT = {name: (at, size) for name, at, size in OBS_LAYOUT}


def idx(code: str) -> int:
    """A tile's index by hand: 1m..9m 0..8, 1p..9p 9..17, 1s..9s 18..26, 1z..7z 27..33."""
    return {"m": 0, "p": 9, "s": 18, "z": 27}[code[1]] + int(code[0]) - 1


def field(vector: bytes, name: str, k: int = 0, width: int = 34) -> list[int]:
    at, size = AT[name]
    return list(vector[at + k * width: at + (k + 1) * width]) if size > width else list(vector[at: at + size])


def counts(*tiles: str) -> list[int]:
    out = [0] * 34
    for t in tiles:
        out[idx(t)] += 1
    return out


def random_play(env: Env, rng: random.Random) -> tuple[dict[str, int], int]:
    """Play the hand to its end with random legal actions: (summed rewards, steps)."""
    total = dict.fromkeys("ESWN", 0)
    obs = env.reset(seed=rng.randrange(10**6)) if env.done else None
    assert obs is not None
    steps = 0
    while True:
        obs, rewards, done, _ = env.step({s: rng.choice(o.legal()) for s, o in obs.items()})
        steps += 1
        for s in total:
            total[s] += rewards[s]
        if done:
            assert obs == {}
            return total, steps


# ---------------------------------------------------------------- actions

def test_action_ids_by_hand() -> None:
    # blocks of 34, one id per tile index (1m 0 ... 7z 33), then win and pass
    assert (DISCARD, CHOW, PUNG, EXPOSED_KONG, CONCEALED_KONG, ADDED_KONG, FACE_UP_PUNG, WIN, PASS, N_ACTIONS) == (
        0, 34, 68, 102, 136, 170, 204, 238, 239, 240)
    assert action_id("turn", {"act": "discard", "tile": "5z"}) == 31
    assert action_id("claim", {"act": "chow", "tiles": "789s"}) == 34 + 24
    assert action_id("claim", {"act": "pung", "tiles": "555z"}) == 68 + 31
    assert action_id("turn", {"act": "pung", "tiles": "888m"}) == 204 + 7  # the face-up pung from the draw
    assert action_id("claim", {"act": "kong", "kind": "exposed", "tiles": "1111p"}) == 102 + 9
    assert action_id("turn", {"act": "kong", "kind": "concealed", "tiles": "9999p"}) == 136 + 17
    assert action_id("turn", {"act": "kong", "kind": "added", "tiles": "2222s"}) == 170 + 19
    assert action_id("rob", {"act": "win", "faan": 8, "robbing": "added"}) == WIN
    assert [action_name(i) for i in (31, 58, 99, 211, 111, 153, 189, 238, 239)] == [
        "discard 5z", "chow 789s", "pung 555z", "face-up pung 888m", "kong exposed 1111p",
        "kong concealed 9999p", "kong added 2222s", "win", "pass"]
    for bad in (-1, 240, "3", 2.0, True):
        with pytest.raises(TableError):
            action_name(bad)  # type: ignore[arg-type]


def test_worked_example_through_env() -> None:
    """GAME.md §8.3: the prompts, as action ids, and W's win paid E -64, S -32, W +128, N -32."""
    env = Env()
    obs = env.reset(start=START)
    assert list(obs) == ["E"]
    assert obs["E"].legal() == [idx(t) for t in
                                ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "2s", "6s", "1z", "4z", "5z"]]
    answers: list[tuple[dict[str, int], list[str], list[int]]] = [
        ({"E": idx("5z")}, ["S"], [PASS, PUNG + idx("5z")]),
        ({"S": PUNG + idx("5z")}, ["S"], [idx(t) for t in ["1m", "7p", "8p", "3s", "4s", "2z", "3z", "6z"]]),
        ({"S": idx("3z")}, ["W"], [idx(t) for t in ["1p", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "7z"]]),
        ({"W": idx("1p")}, ["N"], [idx(t) for t in
                                   ["1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "1z", "2z", "4z", "6z"]]),
        ({"N": idx("1z")}, ["E"], [CONCEALED_KONG + idx("9p"), *(idx(t) for t in
                                   ["1m", "2m", "3m", "4m", "5m", "6m", "9p", "2s", "6s", "1z", "4z"])]),
        ({"E": CONCEALED_KONG + idx("9p")}, ["E"],
         [idx(t) for t in ["1m", "2m", "3m", "4m", "5m", "6m", "2s", "6s", "9s", "1z", "4z"]]),
        ({"E": idx("9s")}, ["W"], [PASS, WIN]),
    ]
    for actions, asked, legal in answers:
        obs, rewards, done, info = env.step(actions)
        assert (list(obs), obs[asked[0]].legal(), rewards, done) == (asked, legal, dict.fromkeys("ESWN", 0), False)
    obs, rewards, done, info = env.step({"W": WIN})
    assert (obs, rewards, done) == ({}, {"E": -64, "S": -32, "W": 128, "N": -32}, True)
    assert [r["event"] for r in info["records"]] == ["win", "end_hand"]
    assert info["records"][0]["faan"] == 6


def test_worked_example_observation_by_hand() -> None:
    """S's vector at prompt 2 (the claim on E's 5z), field by field from GAME.md §8.3."""
    env = Env()
    env.reset(start=START)
    obs, *_ = env.step({"E": idx("5z")})
    v = obs["S"].vector
    assert len(v) == OBS_SIZE == sum(size for _, _, size in OBS_LAYOUT)
    assert field(v, "hand") == counts(*["1m", "1m", "7p", "8p", "3s", "3s", "4s", "2z", "2z", "3z", "5z", "5z", "6z"])
    assert field(v, "drawn") == [0] * 34
    # relative seats: S itself, W (next), N (opposite), E (before): E's pond is the fourth
    assert [field(v, "ponds", k) for k in range(4)] == [[0] * 34, [0] * 34, [0] * 34, counts("5z")]
    assert all(field(v, "melds", k) == [0] * 34 for k in range(4))
    assert field(v, "held") == [13, 13, 13, 13]  # E has discarded its 14th
    assert field(v, "seat_wind") == [0, 1, 0, 0] and field(v, "round_wind") == [1, 0, 0, 0]
    assert field(v, "live_left") == [91]
    assert field(v, "phase") == [0, 0, 1, 0, 0]  # turn, discard, claim, rob, instant
    assert field(v, "offered") == counts("5z") and field(v, "offered_from") == [0, 0, 0, 1]
    mask = obs["S"].mask
    assert [i for i in range(N_ACTIONS) if mask[i]] == [PUNG + idx("5z"), PASS]
    # after the pung, W sees S's set (relative seat 3) and E's pond without the claimed 5z
    obs, *_ = env.step({"S": PUNG + idx("5z")})
    obs, *_ = env.step({"S": idx("3z")})
    w = obs["W"].vector
    assert field(w, "melds", 3) == [3 if i == idx("5z") else 0 for i in range(34)]
    assert field(w, "ponds", 2) == [0] * 34 and field(w, "ponds", 3) == counts("3z")
    assert field(w, "drawn") == counts("7z") and field(w, "phase") == [1, 0, 0, 0, 0]


# ----------------------------------------------------------- legality

def test_refusals_leave_the_env_as_it_was() -> None:
    env = Env()
    obs = env.reset(start=START)
    before = (list(env.table.log), env.table.prompts())
    wrong: list[Any] = [{"E": idx("7z")}, {"E": PASS}, {"E": N_ACTIONS}, {"E": -1}, {"E": "31"}, {"E": True},
                        {"E": 31.0}, {}, {"S": 0}, {"E": 31, "S": 0}, [("E", 31)], None]
    for actions in wrong:
        with pytest.raises(TableError) as exc:
            env.step(actions)
        assert isinstance(exc.value, HkcoreError)
        assert (list(env.table.log), env.table.prompts()) == before
    with pytest.raises(TableError, match=r"actions\.E = 33 \(discard 7z\): not legal for E"):
        env.step({"E": idx("7z")})
    with pytest.raises(TableError, match=r"actions\.S = 0: 'S' is not asked now \(asked: E\)"):
        env.step({"E": 31, "S": 0})
    assert obs["E"].decision(31) == {"prompt": 1, "seat": "E", "act": "discard", "tile": "5z"}


def test_a_claim_window_answers_together() -> None:
    """Every seat asked in a window answers in the one step; one missing is refused, nothing played."""
    rng = random.Random(4)
    env = Env("bga-old-style", seed=4)
    for _ in range(200):
        obs = env.reset()
        while len(obs) < 2 and not env.done:
            obs, *_ = env.step({s: rng.choice(o.legal()) for s, o in obs.items()})
        if len(obs) >= 2:
            break
    else:
        pytest.fail("no window with two seats in 200 hands")
    seats = list(obs)
    assert all(o.prompt is not None and o.prompt["phase"] in ("claim", "rob", "instant") for o in obs.values())
    log = list(env.table.log)
    with pytest.raises(TableError, match=rf"actions: no action for {seats[1]}"):
        env.step({seats[0]: PASS})
    assert env.table.log == log
    wrong = next(i for i in range(N_ACTIONS) if not obs[seats[1]].mask[i])
    with pytest.raises(TableError, match=rf"actions\.{seats[1]} = {wrong} "):
        env.step({seats[0]: obs[seats[0]].legal()[-1], seats[1]: wrong})  # the first answer legal, not played
    assert env.table.log == log and [p["seat"] for p in env.table.prompts()] == seats
    _, _, _, info = env.step(dict.fromkeys(seats, PASS))
    assert not any(r["event"] in ("chow", "pung", "kong", "win") for r in info["records"])  # all passed


@settings(max_examples=25)
@given(st.sampled_from(sorted(builtin_ids())), st.integers(0, 10**6), st.integers(0, 40))
def test_masks_are_the_prompts_actions(preset: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    env = Env(preset)
    obs = env.reset(seed=seed)
    for _ in range(steps):
        prompts = {p["seat"]: p for p in env.table.prompts()}
        assert set(obs) == set(prompts)
        for seat, o in obs.items():
            p = prompts[seat]
            ids = [action_id(p["phase"], a) for a in p["actions"]]
            assert len(set(ids)) == len(ids)  # one id per action offered
            assert [i for i in range(N_ACTIONS) if o.mask[i]] == sorted(ids)
            for i in ids:
                d = action_to_decision(p, i)
                assert decision_to_action(p, d) == i
                assert {k: v for k, v in d.items() if k not in ("prompt", "seat")} in p["actions"]
            illegal = rng.choice([i for i in range(N_ACTIONS) if not o.mask[i]])
            with pytest.raises(TableError, match=rf"actions\.{seat}"):
                action_to_decision(p, illegal)
        obs, _, done, _ = env.step({s: rng.choice(o.legal()) for s, o in obs.items()})
        if done:
            break


# ------------------------------------------------------- hidden information

def with_counts(table: Table, seat: int, new: list[int]) -> None:
    """Give ``seat`` other concealed tiles, as many as before (the engine's own state, either engine)."""
    state = list(table._engine_state())
    if IMPLEMENTATION == "python":
        from hkcore.table.flow._pyengine.state import STATE
        k = STATE.index("_counts")
    else:
        k = 1  # the compiled engine's state: (rules, counts, ...)
    rows = [list(r) for r in state[k]]
    rows[seat] = new
    state[k] = rows
    table._load_engine_state(tuple(state))


@settings(max_examples=30)
@given(st.sampled_from(sorted(builtin_ids())), st.integers(0, 10**6), st.integers(0, 30),
       st.integers(0, 3), st.integers(1, 3), st.randoms(use_true_random=False))
def test_an_observation_never_shows_another_seats_concealed_tiles(
        preset: str, seed: int, steps: int, seat: int, shift: int, rnd: random.Random) -> None:
    env = Env(preset)
    obs = env.reset(seed=seed)
    for _ in range(steps):
        obs, _, done, _ = env.step({s: rnd.choice(o.legal()) for s, o in obs.items()})
        if done:
            return
    me, other = "ESWN"[seat], (seat + shift) % 4
    before = env.observe(me)
    assert before.vector == encode(env.table.view(me), before.prompt)
    old = env.table._counts_of(other)
    new = [0] * 34  # as many tiles as before, drawn at random
    held = sum(old)
    choices = [i for i in range(34) if old[i] < 4]
    for _ in range(held):
        i = rnd.choice(choices)
        new[i] += 1
    assert sum(new) == held
    with_counts(env.table, other, new)
    assert env.table._counts_of(other) == new  # the other seat's tiles did change
    after = env.observe(me)
    assert (after.vector, after.mask) == (before.vector, before.mask)
    if me in obs:
        assert after.vector == obs[me].vector


# ------------------------------------------------------- rewards, presets

@pytest.mark.parametrize("preset", sorted(builtin_ids()))
def test_episodes_end_and_rewards_are_the_logs_payments(preset: str) -> None:
    rng = random.Random(11)
    env = Env(preset, seed=11)
    ledger = None
    for _ in range(8):
        total, _ = random_play(env, rng)
        log = env.table.log
        wins = [r for r in log if r["event"] == "win"]
        end = log[-1] if log[-1]["event"] == "end_hand" else log[-2]
        assert end["event"] == "end_hand" and env.done
        expected = dict.fromkeys("ESWN", 0)
        for w in wins:
            for s in "ESWN":
                expected[s] += w["payments"][s] if w["payments"] is not None else (w["faan"] if w["seat"] == s else 0)
        assert total == expected
        ledger = end["delta"] is None
        if not ledger:
            assert total == end["delta"] and sum(total.values()) == 0
        else:
            assert total == end["faan"]
    assert ledger == (preset in ("mistboard", "hk-classic"))


def test_determinism_per_seed() -> None:
    def logs(env: Env, seeds: list[int | None]) -> list[list[dict[str, Any]]]:
        rng = random.Random(5)
        out = []
        for s in seeds:
            obs = env.reset(seed=s)
            while not env.done:
                obs, *_ = env.step({x: rng.choice(o.legal()) for x, o in obs.items()})
            out.append(env.table.log)
        return out

    assert logs(Env("just-cards"), [3, 4]) == logs(Env("just-cards", seed=99), [3, 4])
    assert logs(Env("just-cards", seed=8), [None, None]) == logs(Env("just-cards", seed=8), [None, None])
    assert logs(Env("just-cards", seed=8), [None]) != logs(Env("just-cards", seed=9), [None])
    a, b = logs(Env("mistboard"), [7, None]), logs(Env("mistboard", seed=1), [7, None])
    assert a == b  # a seed given re-seeds the generator the next seedless reset draws from


def test_reset_refuses_bad_input() -> None:
    env = Env()
    with pytest.raises(TableError, match="reset"):
        _ = env.table
    with pytest.raises(TableError, match="seed"):
        env.reset(seed=-1)
    with pytest.raises(TableError, match="seed"):
        env.reset(seed="1")  # type: ignore[arg-type]
    with pytest.raises(TableError, match="preset"):
        env.reset(seed=1, preset="nope")
    with pytest.raises(TableError, match="start"):
        env.reset(seed=1, start=START)
    env.reset(start=START)
    while not env.done:
        env.step({p["seat"]: legal_actions(p)[0] for p in env.table.prompts()})
    with pytest.raises(TableError, match="the hand is over"):
        env.step({"E": 0})
