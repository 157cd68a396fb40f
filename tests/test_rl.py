"""hkcore.table.rl (docs/training.md, "Adapters"): the Gymnasium and PettingZoo adapters built on VecEnv pass
those libraries' own checkers, give VecEnv's observations, refuse an illegal action changing nothing, pay what
the logs pay, and render only what the player asked sees."""
from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium", reason="the rl extra is not installed: pip install 'hkcore[rl]'")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install 'hkcore[rl]'")

from hkcore.errors import TableError  # noqa: E402
from hkcore.table.env import N_ACTIONS  # noqa: E402
from hkcore.table.learning import VecEnv  # noqa: E402
from hkcore.table.rl import AGENTS, GymEnv, GymVectorEnv, aec_env, parallel_env  # noqa: E402

SEATS = "ESWN"


def _paid(log: list[dict[str, Any]], player: str) -> float:
    """What ``player`` (p1..p4) was paid over a finished log: each hand's delta at its seat, or under a faan
    ledger the zero-sum measure worked from the win records."""
    total, seats = 0.0, {}
    for r in log:
        if r["event"] == "start":
            seats = {name: s for s, name in r["seats"].items()}
            wins: list[dict[str, Any]] = []
        elif r["event"] == "win":
            wins.append(r)
        elif r["event"] == "end_hand":
            seat = seats[player]
            if r["delta"] is not None:
                total += r["delta"][seat]
            else:
                for w in wins:
                    if w["seat"] == seat:
                        total += w["faan"]
                    elif w["from"] == seat:
                        total -= w["faan"]
                    elif w["from"] is None:
                        total -= w["faan"] / 3
    return total


def _legal(mask: Any, rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(mask).tolist()))


def test_gymnasiums_checker_passes_with_illegal_actions_as_passes() -> None:
    from gymnasium.utils.env_checker import check_env

    check_env(GymEnv("bga-old-style", "S", "efficiency", seed=3, illegal="pass", penalty=1.0, render_mode="ansi"),
              skip_render_check=False)


def test_pettingzoos_checkers_pass() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    parallel_api_test(parallel_env("hk-classic", seed=1), num_cycles=300)
    api_test(aec_env("hk-classic", seed=1), num_cycles=300, verbose_progress=False)
    api_test(aec_env("playingcards-io", seed=2, episode="match"), num_cycles=200, verbose_progress=False)


def test_gym_env_is_vecenvs_table_and_pays_the_log() -> None:
    """GymEnv(seat S, three guard bots) and VecEnv(1, learners=[1], bots=guard) on the same seed give the same
    observations; an illegal action raises naming actions[0] and changes nothing; the rewards of an episode
    sum to what its log pays S's player."""
    env = GymEnv("bga-old-style", "S", "guard", seed=9)
    vec = VecEnv(1, "bga-old-style", learners=[1], bots="guard", seed=9)
    obs, _ = env.reset(seed=9)
    vec.reset()
    rng = random.Random(4)
    total, episodes = 0.0, 0
    for _ in range(400):
        assert np.array_equal(obs["observation"], vec.obs[0])
        assert np.array_equal(obs["action_mask"], vec.mask[0].view(np.int8))
        wrong = next(a for a in range(N_ACTIONS) if not obs["action_mask"][a])
        before = (obs["observation"].copy(), env.vec.log(0))
        with pytest.raises(TableError) as exc:
            env.step(wrong)
        assert exc.value.field == "actions[0]"
        assert np.array_equal(env.vec.obs[0], before[0]) and env.vec.log(0) == before[1]
        action = _legal(obs["action_mask"], rng)
        obs, reward, done, truncated, info = env.step(action)
        vec.step(np.array([action]))
        assert reward == vec.reward[0, 1] and not truncated
        total += reward
        if done:
            assert total == pytest.approx(_paid(info["log"], "p2"))
            total, episodes = 0.0, episodes + 1
            obs, _ = env.reset()
            with pytest.raises(TableError):
                VecEnv(1, "bga-old-style", learners=[1], bots="guard", seed=9).step([0])
    assert episodes >= 2


def test_the_vector_env_steps_its_tables_at_once_and_hands_back_finished_episodes() -> None:
    envs = GymVectorEnv(6, "mistboard", "W", ["value", "efficiency", "guard"], seed=5)
    vec = VecEnv(6, "mistboard", learners=[2], bots=["value", "efficiency", None, "guard"], seed=5)
    obs, _ = envs.reset(seed=5)
    vec.reset()
    assert envs.observation_space.contains({k: v.copy() for k, v in obs.items()})
    rng = random.Random(8)
    totals = np.zeros(6)
    finished = 0
    for _ in range(300):
        assert np.array_equal(obs["observation"], vec.obs)
        actions = np.array([_legal(m, rng) for m in obs["action_mask"]])
        last = obs["observation"].copy()
        obs, rewards, terms, truncs, infos = envs.step(actions)
        vec.step(actions)
        assert np.array_equal(rewards, vec.reward[:, 2]) and not truncs.any()
        totals += rewards
        for i in np.flatnonzero(terms):
            assert infos["_final_obs"][i] and np.array_equal(infos["final_obs"][i]["observation"], last[i])
            log = infos["final_info"]["log"][i]
            assert totals[i] == pytest.approx(_paid(log, "p3"))
            totals[i] = 0
            finished += 1
    assert finished >= 6


def test_the_aec_env_pays_each_agent_what_its_log_pays() -> None:
    env = aec_env("bga-old-style", seed=2)
    env.reset(seed=2)
    rng = random.Random(2)
    total = dict.fromkeys(AGENTS, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(_legal(obs["action_mask"], rng))
    log = env.par.log  # (the infos of agents done are dropped as each takes its last step)
    assert log is not None
    assert total == {a: pytest.approx(_paid(log, f"p{q + 1}")) for q, a in enumerate(AGENTS)}


def test_render_shows_the_asked_seats_own_tiles() -> None:
    """At the first decision East is asked: render's hand is East's dealt hand as a table from the same start
    record shows it (bonus tiles set aside), and no other seat's concealed tiles are listed."""
    from hkcore.table.table import Table

    env = parallel_env("bga-old-style", seed=17, render_mode="ansi")
    env.reset()
    assert env.asked == "player_0"
    text = env.render()
    assert text is not None
    view = Table(env.vec.log(0)[0]).view("E")
    hand_line = next(line for line in text.splitlines() if line.strip().startswith("hand:"))
    digits = sorted(hand_line.split(":", 1)[1].split())
    expect = sorted(f"{d}{s}" for d, s in _pairs(view["tiles"]))
    assert digits == expect and len(digits) == 14
    assert sum(line.strip().startswith("hand:") for line in text.splitlines()) == 1


def _pairs(text: str) -> list[tuple[str, str]]:
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [(d, ch) for d in digits]
            digits = ""
    return out


def test_a_parallel_step_needs_the_asked_agents_action() -> None:
    env = parallel_env("mistboard", seed=4)
    obs, _ = env.reset()
    asked = env.asked
    assert [a for a in AGENTS if obs[a]["action_mask"].any()] == [asked]
    other = next(a for a in AGENTS if a != asked)
    with pytest.raises(TableError):
        env.step({other: 0})
    legal = int(np.flatnonzero(obs[asked]["action_mask"])[0])
    env.step({asked: legal, other: 123})  # the others' actions are ignored


def test_the_rllib_adapter_plays_a_hand_where_ray_is_installed() -> None:
    pytest.importorskip("ray.rllib", reason="ray[rllib] is not installed (pip install 'ray[rllib]'): not tested here")
    from hkcore.table.rl_rllib import HkcoreMultiAgentEnv

    env = HkcoreMultiAgentEnv({"preset": "mistboard", "seed": 3})
    obs, _ = env.reset(seed=3)
    rng = random.Random(3)
    total = dict.fromkeys(AGENTS, 0.0)
    while True:
        (agent, o), = obs.items()
        obs, rewards, terms, _truncs, _infos = env.step({agent: _legal(o["action_mask"], rng)})
        for a, r in rewards.items():
            total[a] += r
        if terms["__all__"]:
            break
    log = env.par.log
    assert log is not None and total == {a: pytest.approx(_paid(log, f"p{q + 1}")) for q, a in enumerate(AGENTS)}


def _played_out(step: Any, mask_of: Any, rng: random.Random) -> list[dict[str, Any]]:
    """Legal random actions until the episode ends: its log."""
    while True:
        done, log = step(_legal(mask_of(), rng))
        if done:
            return log


def test_a_reset_goes_on_to_the_runs_next_wall_whether_the_episode_ended_or_not() -> None:
    """Episode k of seed S is dealt from wall_seed(S, k) (docs/training.md): a reset after a finished episode,
    and a reset that drops one half-played, both deal the next wall; reset(seed=S) starts at wall 0 again."""
    from hkcore.table.start import wall_seed

    rng = random.Random(1)
    env = GymEnv("hk-classic", "E", "efficiency", seed=3)
    obs, _ = env.reset()

    def gym_step(a: int) -> tuple[bool, Any]:
        nonlocal obs
        obs, _r, done, _t, info = env.step(a)
        return done, info.get("log")

    assert _played_out(gym_step, lambda: obs["action_mask"], rng)[0]["seed"] == wall_seed(3, 0)
    obs, _ = env.reset()
    env.step(_legal(obs["action_mask"], rng))   # episode 1 half-played, then dropped
    obs, _ = env.reset()
    assert _played_out(gym_step, lambda: obs["action_mask"], rng)[0]["seed"] == wall_seed(3, 2)
    obs, _ = env.reset(seed=3)
    assert _played_out(gym_step, lambda: obs["action_mask"], rng)[0]["seed"] == wall_seed(3, 0)

    par = parallel_env("hk-classic", seed=4)
    pobs, _ = par.reset()

    def par_step(a: int) -> tuple[bool, Any]:
        nonlocal pobs
        pobs, _r, terms, _t, infos = par.step({par.asked: a})
        return terms[AGENTS[0]], infos[AGENTS[0]].get("log")

    assert _played_out(par_step, lambda: pobs[par.asked]["action_mask"], rng)[0]["seed"] == wall_seed(4, 0)
    pobs, _ = par.reset()
    par_step(_legal(pobs[par.asked]["action_mask"], rng))
    pobs, _ = par.reset()
    assert _played_out(par_step, lambda: pobs[par.asked]["action_mask"], rng)[0]["seed"] == wall_seed(4, 2)


def test_render_modes_are_checked_and_human_prints() -> None:
    with pytest.raises(TableError) as exc:
        parallel_env("hk-classic", seed=1, render_mode="rgb_array")
    assert exc.value.field == "render_mode"
    env = aec_env("hk-classic", seed=1, render_mode="human")
    env.reset()
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert env.render() is None
    ansi = aec_env("hk-classic", seed=1, render_mode="ansi")
    ansi.reset()
    text = ansi.render()
    assert text and out.getvalue() == text + "\n"


def test_the_vector_env_steps_as_gymnasiums_sync_vector_env_of_gym_envs() -> None:
    """GymVectorEnv(1) gives what gymnasium's own SyncVectorEnv of one GymEnv gives (same-step autoreset,
    final_obs and final_info included) over several episodes."""
    from gymnasium.utils.env_checker import data_equivalence
    from gymnasium.vector import AutoresetMode, SyncVectorEnv

    ours = GymVectorEnv(1, "bga-old-style", "W", "guard")
    theirs = SyncVectorEnv([lambda: GymEnv("bga-old-style", "W", "guard")], autoreset_mode=AutoresetMode.SAME_STEP)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    a, b = ours.reset(seed=5), theirs.reset(seed=5)
    assert data_equivalence(a, b, exact=True)
    rng = random.Random(5)
    ended = 0
    for n in range(400):
        kept = a[0]["observation"].copy(), a[0]["observation"]
        act = np.array([_legal(a[0]["action_mask"][0], rng)])
        a, b = ours.step(act), theirs.step(act)
        assert data_equivalence(a, b, exact=True)
        assert np.array_equal(*kept)   # an observation given is the caller's: the next step does not write it
        ended += int(a[2][0])
        if n in (150, 151):   # a reset in the middle of an episode: both go on to the run's next wall
            a, b = ours.reset(), theirs.reset()
            assert data_equivalence(a, b, exact=True)
    assert ended >= 3
    assert ours.single_observation_space == theirs.single_observation_space


def test_an_episodes_last_step_shows_each_agent_its_last_view_and_no_actions() -> None:
    """The step that ends an episode of the parallel env (and the AEC env after it) shows each agent the view
    it last had with an empty mask, not the next episode's; the reset after it shows the next episode."""
    rng = random.Random(3)
    par = parallel_env("hk-classic", seed=3)
    obs, _ = par.reset()
    seen: dict[str, Any] = {}
    while True:
        asked = par.asked
        seen[asked] = obs[asked]["observation"].copy()
        obs, _r, terms, _t, _i = par.step({asked: _legal(obs[asked]["action_mask"], rng)})
        if terms[asked]:
            break
    assert all(not obs[a]["action_mask"].any() and np.array_equal(obs[a]["observation"], seen[a]) for a in seen)
    fresh, _ = par.reset()
    assert fresh[par.asked]["action_mask"].any() and not np.array_equal(fresh[par.asked]["observation"],
                                                                         seen[par.asked])
    env = aec_env("hk-classic", seed=3)
    env.reset()
    for _agent in env.agent_iter():
        o, _r, term, trunc, _i = env.last()
        if term or trunc:
            assert not o["action_mask"].any()
            env.step(None)
        else:
            env.step(_legal(o["action_mask"], rng))


def test_pettingzoos_seed_and_render_tests_pass() -> None:
    from pettingzoo.test import render_test, seed_test

    seed_test(lambda: aec_env("bga-old-style"), num_cycles=200)
    render_test(lambda render_mode=None: aec_env("bga-old-style", seed=4, render_mode=render_mode))
