"""hkcore.table.learning.VecEnv (docs/training.md): the compiled core gives the pure one's arrays and logs to
the bit; observations hold what the acting seat's view and the log show, in the documented places; rewards are
the log's payments; an illegal action changes nothing (or is the pass, at a cost); every episode replays."""
from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

np = pytest.importorskip("numpy")

from hkcore.errors import TableError  # noqa: E402
from hkcore.table.env import N_ACTIONS, PASS, action_name  # noqa: E402
from hkcore.table.learning import IMPLEMENTATION, OBS_SIZE, OFFSET, VecEnv, hand_rewards  # noqa: E402
from hkcore.table.learning.encoding import FIELDS, MAX_DISCARDS, SCHEMES  # noqa: E402
from hkcore.table.replay import replay  # noqa: E402
from hkcore.table.start import wall_seed  # noqa: E402

SEATS = "ESWN"
TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
compiled_only = pytest.mark.skipif(IMPLEMENTATION != "cython", reason="the compiled core is not in use here")


def _random_actions(mask: Any, rng: random.Random) -> Any:
    """A uniformly random legal action of each table (from the mask)."""
    return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask], np.int64)


def _snapshot(env: VecEnv) -> tuple[Any, ...]:
    return (env.obs.copy(), env.mask.copy(), env.player.copy(), env.reward.copy(), env.done.copy())


def _field(obs: Any, name: str) -> Any:
    size = next(size for n, size, _ in FIELDS if n == name)
    return obs[OFFSET[name]:OFFSET[name] + size]


def _counts(text: str) -> list[int]:
    out = [0] * 34
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            for d in digits:
                if ch != "f" and ch != "g":
                    out[TILES.index(d + ch)] += 1
            digits = ""
    return out


# --------------------------------------------------------------- the twins

#: Just Cards with seven pairs at 4 faan (the rule atlas's variant): a shape the kernels count beside the core's
SEVEN_PAIRS = ('extends = "just-cards"\nid = "jc-seven-pairs"\n'
               'shapes = ["standard", "thirteen_orphans", "seven_pairs"]\n[patterns]\nseven_pairs = 4\n')


@compiled_only
@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(["bga-old-style", "mistboard", "just-cards", "playingcards-io", "hk-classic",
                               SEVEN_PAIRS]),
       seed=st.integers(0, 2**40), n=st.integers(1, 3),
       learners=st.sets(st.integers(0, 3), min_size=1).map(sorted),
       bots=st.sampled_from(["random", "efficiency", "value", "guard", "simple"]),
       episode=st.sampled_from(["hand", "hand", "match"]), steps=st.integers(1, 120), logs=st.booleans())
def test_the_compiled_core_is_the_pure_one(preset: str, seed: int, n: int, learners: list[int], bots: str,
                                           episode: str, steps: int, logs: bool) -> None:
    envs = [VecEnv(n, preset, learners=learners, bots=bots, seed=seed, episode=episode, logs=logs, core=core)
            for core in ("cython", "python")]
    first = [e.reset() for e in envs]
    for a, b in zip(*first):
        assert np.array_equal(a, b)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = _random_actions(envs[0].mask, rng)
        out = [e.step(actions) for e in envs]
        for a, b in zip(*out):
            assert np.array_equal(a, b)
        for i in range(n):
            assert envs[0].finished_log(i) == envs[1].finished_log(i)
    for i in range(n):
        assert envs[0].log(i) == envs[1].log(i)
        assert envs[0].episode_index(i) == envs[1].episode_index(i)


# --------------------------------------------------------------- observations

def test_the_first_observation_is_easts_deal() -> None:
    """bga-old-style, East's first turn: its 14 tiles as the start record deals them (bonus tiles replaced
    as the log says), nothing shown, 136 - 14 tiles unseen, the preset's features (minimum 3, cap 13, 144
    tiles with bonus tiles, base points), East is the seat and the dealer."""
    env = VecEnv(2, "bga-old-style", seed=5)
    obs, mask, player = env.reset()
    for i in range(2):
        log = env.log(i)
        start = log[0]
        assert start["seed"] == wall_seed(5, i)
        view = _east_view(env, i)
        o = obs[i]
        hand = _counts(view["tiles"])
        assert view["drawn"] is None  # East's first turn shows no drawn tile
        assert _field(o, "hand").tolist() == hand and sum(hand) == 14
        assert not _field(o, "drawn").any()
        assert _field(o, "unseen").sum() == 136 - 14
        assert _field(o, "live_left")[0] == view["live_left"]
        assert _field(o, "seat_wind").tolist() == [1, 0, 0, 0]
        assert _field(o, "dealer").tolist() == [1, 0, 0, 0]
        assert _field(o, "round_wind").tolist() == [1, 0, 0, 0]
        assert _field(o, "phase").tolist() == [1, 0, 0, 0, 0]
        assert not _field(o, "melds").any() and not _field(o, "discards").any()
        pre = _field(o, "preset")
        assert pre[:8].tolist() == [3, 13, 13, 0, 1, 0, 0, 0]  # base points: 14 steps, 0 .. 13 faan
        assert pre[8:8 + len(SCHEMES)].tolist() == [0, 1, 0, 0, 0]
        assert player[i] == 0
        # East may discard each tile it holds, and nothing else but its wins and kongs
        held = {f"discard {TILES[t]}" for t in range(34) if hand[t]}
        offered = {action_name(int(a)) for a in np.flatnonzero(mask[i])}
        assert held <= offered and all(x.startswith(("discard", "win", "kong")) for x in offered)


def _east_view(env: VecEnv, i: int) -> dict[str, Any]:
    from hkcore.table.table import Table

    t = Table(env.log(i)[0])
    return t.view("E")


def _discards_from_the_log(log: list[dict[str, Any]]) -> dict[str, list[tuple[str, bool, bool]]]:
    """By seat, its discards in order, each (tile, claimed, drawn then discarded), worked from the records: a
    discard is drawn-then-discarded when it is the tile the seat's last draw of the turn brought in (a bonus
    tile's replacement, a kong's replacement draw); claimed when a set declared from the seat follows it before
    the seat's next discard."""
    out: dict[str, list[list[Any]]] = {s: [] for s in SEATS}
    drawn: str | None = None
    dealing = True
    for r in log:
        ev = r["event"]
        if ev == "draw":
            dealing = False
            drawn = r["tile"] if r["tile"][1] in "mpsz" else None
        elif ev == "bonus" and not dealing:
            drawn = r["replacement"] if r["replacement"] and r["replacement"][1] in "mpsz" else None
        elif ev in ("chow", "pung") or (ev == "kong" and r.get("from") is not None):
            drawn = None
            if r.get("from") is not None:
                out[r["from"]][-1][1] = True
        elif ev == "discard":
            dealing = False
            out[r["seat"]].append([r["tile"], False, r["tile"] == drawn])
            drawn = None
    return {s: [tuple(x) for x in v] for s, v in out.items()}  # type: ignore[misc]


def test_discards_are_kept_in_order_with_their_flags() -> None:
    """Every seat learned, random play: each seat's discards in the observation are those of the log in order,
    flagged as the records show (``_discards_from_the_log``)."""
    env = VecEnv(1, "hk-classic", seed=11)
    env.reset()
    rng = random.Random(3)
    drew = claimed = 0
    for _ in range(400):
        obs, _mask, _player, _reward, _done = env.step(_random_actions(env.mask, rng))
        expect = _discards_from_the_log(env.log(0))
        me = int(np.flatnonzero(_field(obs[0], "seat_wind"))[0])
        d = _field(obs[0], "discards").reshape(4, MAX_DISCARDS, 3)
        for j in range(4):
            theirs = expect[SEATS[(me + j) % 4]][:MAX_DISCARDS]
            got = [(TILES[int(x[0]) - 1], bool(x[1]), bool(x[2])) for x in d[j, :len(theirs)]]
            assert got == theirs
            assert not d[j, len(theirs):].any()
            drew += sum(x[2] for x in theirs)
            claimed += sum(x[1] for x in theirs)
    assert drew > 10 and claimed > 0


def test_the_offered_tile_and_its_discarder_in_a_claim() -> None:
    env = VecEnv(1, "bga-old-style", seed=2)
    env.reset()
    rng = random.Random(1)
    seen = 0
    for _ in range(600):
        obs, _m, _p, _r, _d = env.step(_random_actions(env.mask, rng))
        o = obs[0]
        if _field(o, "phase")[2]:  # a claim
            last = [r for r in env.log(0) if r["event"] == "discard"][-1]
            me = int(np.flatnonzero(_field(o, "seat_wind"))[0])
            assert _field(o, "offered").tolist() == [int(TILES[t] == last["tile"]) for t in range(34)]
            assert np.flatnonzero(_field(o, "offered_from")).tolist() == [(SEATS.index(last["seat"]) - me) % 4]
            seen += 1
    assert seen > 5


# --------------------------------------------------------------- rewards, episodes

@pytest.mark.parametrize("preset", ["mistboard", "bga-old-style"])
def test_rewards_are_the_payments_of_the_log(preset: str) -> None:
    """Summed over an episode, each player's rewards are what the finished log pays it: under bga-old-style
    the end record's delta; under mistboard (a faan ledger) the zero-sum measure worked from its win records
    (winner +F; discarder -F; on a self-draw each other seat -F/3)."""
    env = VecEnv(3, preset, seed=4)
    env.reset()
    rng = random.Random(9)
    total = np.zeros((3, 4))
    ends = 0
    for _ in range(1500):
        _o, _m, _p, reward, done = env.step(_random_actions(env.mask, rng))
        total += reward
        for i in np.flatnonzero(done):
            log = env.finished_log(int(i))
            end = next(r for r in reversed(log) if r["event"] == "end_hand")  # (an end_match may follow)
            if end["delta"] is not None:
                expect = [end["delta"][s] for s in SEATS]
            else:
                expect = [0.0] * 4
                for w in (r for r in log if r["event"] == "win"):
                    expect[SEATS.index(w["seat"])] += w["faan"]
                    if w["from"] is None:
                        for s in range(4):
                            if SEATS[s] != w["seat"]:
                                expect[s] -= w["faan"] / 3
                    else:
                        expect[SEATS.index(w["from"])] -= w["faan"]
            assert total[i] == pytest.approx(expect, abs=1e-3)
            assert sum(expect) == pytest.approx(0, abs=1e-6)
            total[i] = 0
            ends += 1
            assert replay(log)  # the log replays record for record
    assert ends >= 3


def test_episodes_are_numbered_by_table_and_dealt_from_the_runs_walls() -> None:
    env = VecEnv(3, "mistboard", learners=[0], bots="efficiency", seed=8)
    env.reset()
    assert [env.episode_index(i) for i in range(3)] == [0, 1, 2]
    rng = random.Random(2)
    begun = [1, 1, 1]
    for _ in range(400):
        _o, _m, _p, _r, done = env.step(_random_actions(env.mask, rng))
        for i in np.flatnonzero(done):
            i = int(i)
            assert env.finished_log(i)[0]["seed"] == wall_seed(8, env.episode_index(i) - 3)
            assert env.episode_index(i) == i + 3 * begun[i]
            begun[i] += 1
    assert sum(begun) > 6


def test_a_match_is_one_episode() -> None:
    env = VecEnv(1, "playingcards-io", learners=[2], bots="efficiency", episode="match", seed=1)
    env.reset()
    rng = random.Random(5)
    total = 0.0
    for _ in range(20000):
        _o, _m, player, reward, done = env.step(_random_actions(env.mask, rng))
        assert player[0] == 2
        total += float(reward[0, 2])
        if done[0]:
            break
    log = env.finished_log(0)
    assert log is not None and log[-1]["event"] == "end_match"
    hands = [r for r in log if r["event"] == "end_hand"]
    assert len(hands) > 1
    # player 2 (p3) won what its seat was paid in each hand
    paid = 0.0
    start = None
    for r in log:
        if r["event"] == "start":
            start = r
        elif r["event"] == "end_hand":
            seat = next(s for s, name in start["seats"].items() if name == "p3")
            paid += r["delta"][seat]
    assert total == pytest.approx(paid)
    assert replay(log)


# --------------------------------------------------------------- hostile input

def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = VecEnv(3, "bga-old-style", seed=6)
    env.reset()
    rng = random.Random(4)
    for _ in range(30):
        env.step(_random_actions(env.mask, rng))
    before = _snapshot(env)
    logs = [env.log(i) for i in range(3)]
    actions = _random_actions(env.mask, rng)
    bad = next(a for a in range(N_ACTIONS) if not env.mask[1, a])
    actions[1] = bad
    with pytest.raises(TableError) as exc:
        env.step(actions)
    assert exc.value.field == "actions[1]" and f"actions[1] = {bad}" in str(exc.value)
    assert all(np.array_equal(a, b) for a, b in zip(before, _snapshot(env)))
    assert [env.log(i) for i in range(3)] == logs
    for wrong in ([0, 0], [[0, 0, 0]], ["a", "b", "c"], None):
        with pytest.raises(TableError):
            env.step(wrong)
    env.step(actions[:0].tolist() + [int(np.flatnonzero(env.mask[i])[0]) for i in range(3)])


def test_with_illegal_pass_an_illegal_action_is_the_pass_at_a_cost() -> None:
    """Two tables on the same walls: one given illegal actions, the other what they become (the pass, else the
    discard of the tile just drawn, else the lowest discard offered): the same play, less the penalty."""
    cheat = VecEnv(2, "bga-old-style", learners=[0, 2], bots="efficiency", seed=6, illegal="pass", penalty=2.5)
    fair = VecEnv(2, "bga-old-style", learners=[0, 2], bots="efficiency", seed=6)
    cheat.reset()
    fair.reset()
    kinds = set()
    for _ in range(300):
        bad = np.array([next(a for a in range(N_ACTIONS) if not row[a]) for row in cheat.mask])
        good = []
        for i in range(2):
            legal = np.flatnonzero(fair.mask[i]).tolist()
            drawn = np.flatnonzero(_field(fair.obs[i], "drawn")).tolist()
            if PASS in legal:
                good.append(PASS)
                kinds.add("pass")
            elif drawn and drawn[0] in legal:
                good.append(drawn[0])
                kinds.add("drawn")
            else:
                good.append(min(a for a in legal if a < 34))
                kinds.add("lowest")
        asked = cheat.player.copy()
        _o, _m, _p, paid, _d = cheat.step(bad)
        fair.step(np.array(good))
        for a, b in zip(_snapshot(cheat)[:3], _snapshot(fair)[:3]):
            assert np.array_equal(a, b)
        expect = fair.reward.copy()
        expect[[0, 1], asked] -= 2.5
        assert np.array_equal(paid, expect)
    assert kinds == {"pass", "drawn", "lowest"}


@pytest.mark.parametrize("kwargs, field", [
    ({"n": 0}, "n"), ({"n": 1.5}, "n"), ({"learners": []}, "learners"), ({"learners": [4]}, "learners"),
    ({"learners": [0, 0]}, "learners"), ({"learners": [1], "bots": "nobody"}, "bots[0]"),
    ({"bots": ["random"] * 3}, "bots"), ({"episode": "game"}, "episode"), ({"seed": -1}, "seed"),
    ({"illegal": "ignore"}, "illegal"), ({"penalty": -1}, "penalty"), ({"penalty": float("nan")}, "penalty"),
    ({"core": "rust"}, "core"), ({"preset": "nope"}, "preset"),
])
def test_bad_arguments_name_the_field(kwargs: dict[str, Any], field: str) -> None:
    args: dict[str, Any] = {"n": 1, "preset": "mistboard"}
    args.update(kwargs)
    n = args.pop("n")
    preset = args.pop("preset")
    with pytest.raises(Exception) as exc:
        VecEnv(n, preset, **args)
    assert getattr(exc.value, "field", None) == field or field in str(exc.value)


def test_the_encoding_is_laid_out_without_gaps() -> None:
    at = 0
    for name, size, what in FIELDS:
        assert OFFSET[name] == at and size > 0 and what
        at += size
    assert at == OBS_SIZE


def test_hand_rewards_worked_by_hand() -> None:
    """A mistboard (ledger) log with one discard win of 5 faan by S from W, and one with a self-draw of 6 by N."""
    end = {"event": "end_hand", "delta": None}
    assert hand_rewards([{"event": "win", "seat": "S", "from": "W", "faan": 5}, end]) == [0, 5, -5, 0]
    assert hand_rewards([{"event": "win", "seat": "N", "from": None, "faan": 6}, end]) == [-2, -2, -2, 6]
    paid = {"event": "end_hand", "delta": {"E": -16, "S": 48, "W": -16, "N": -16}}
    assert hand_rewards([{"event": "win", "seat": "S", "from": None, "faan": 3}, paid]) == [-16, 48, -16, -16]


# --------------------------------------------------------------- the bots' own actions

@pytest.mark.parametrize("bot", ["efficiency", "value", "guard"])
def test_a_learner_playing_the_experts_actions_plays_the_bots_hand(bot: str) -> None:
    """One learner given ``expert(bot)`` each step, three seats of the bot: every finished hand is the hand four
    of the bot play inside the engine on the same wall (``fastplay.play_bots``, dealt as simulate deals wall k)."""
    from hkcore.table.players.fastplay import new_memo, play_bots, value_params
    from hkcore.table.start import read_start, record_preset
    from hkcore.table.table import Table

    env = VecEnv(2, "hk-classic", learners=[1], bots=bot, seed=3)
    env.reset()
    params = value_params(env.preset)
    hands = 0
    for _ in range(200):
        _o, _m, _p, _r, done = env.step(env.expert(bot))
        for i in np.flatnonzero(done):
            log = env.finished_log(int(i))
            k = env.episode_index(int(i)) - 2
            t = Table.dealt(read_start({"event": "start", "preset": record_preset(env.preset), "hand": 1,
                                        "round": "E", "seed": wall_seed(3, k)}, env.preset))
            play_bots(t, [bot] * 4, [0, 0, 0, 0], memo=new_memo(), params=params)
            assert log == t.log
            hands += 1
    assert hands >= 2


@compiled_only
@pytest.mark.parametrize("bot", ["efficiency", "value", "guard", "simple", "random"])
def test_the_compiled_experts_are_the_pure_ones(bot: str) -> None:
    envs = [VecEnv(3, "bga-old-style", seed=7, core=core) for core in ("cython", "python")]
    for e in envs:
        e.reset()
    rng = random.Random(1)
    for _ in range(60):
        a, b = (e.expert(bot) for e in envs)
        assert np.array_equal(a, b)
        assert all(envs[0].mask[i, a[i]] for i in range(3))
        actions = _random_actions(envs[0].mask, rng)
        for e in envs:
            e.step(actions)


def test_docs_list_the_fields_as_the_encoding_lays_them_out() -> None:
    from pathlib import Path

    doc = Path(__file__).resolve().parent.parent / "docs" / "training.md"
    if not doc.is_file():
        pytest.skip("docs/training.md is not beside tests/")
    text = doc.read_text(encoding="utf-8")
    section = text[text.index("## The observation"):]
    section = section[:section.index("\n## ", 1)]
    rows = [line.split("|")[1:5] for line in section.splitlines() if line.startswith("| `")]
    assert [(a.strip(" `"), int(b), int(c), d.strip()) for a, b, c, d in rows] == \
        [(n, OFFSET[n], size, what) for n, size, what in FIELDS]


def test_the_modules_examples_run() -> None:
    import doctest

    from hkcore.table.learning import vecenv

    assert doctest.testmod(vecenv).failed == 0


@pytest.mark.parametrize("preset", ["bga-old-style", "mistboard", "just-cards", "playingcards-io", "hk-classic"])
def test_first_deal_is_read_starts_deal(preset: str) -> None:
    from hkcore.table.start import first_deal, read_start
    from hkcore.table.table import Table

    p = Table({"event": "start", "preset": preset, "seed": 1}).preset
    for seed in (0, 1, 2**40 + 3, 2**63 - 1):
        a, b = first_deal(p, seed), read_start({"event": "start", "preset": preset, "hand": 1, "round": "E",
                                                "seed": seed}, p)
        assert (a.record, a.hands, a.wall, a.e_last) == (b.record, b.hands, b.wall, b.e_last)


def test_without_logs_the_same_play_keeps_only_the_deal_and_the_outcome() -> None:
    """logs=False: the same observations, masks and rewards as with logs; each finished log is the full one less
    the records of play (bonus tiles after the deal, draws, discards, declared sets)."""
    envs = [VecEnv(2, "bga-old-style", seed=12, logs=logs) for logs in (True, False)]
    for e in envs:
        e.reset()
    rng = random.Random(6)
    ended = 0
    for _ in range(500):
        actions = _random_actions(envs[0].mask, rng)
        out = [e.step(actions) for e in envs]
        for a, b in zip(*out):
            assert np.array_equal(a, b)
        for i in np.flatnonzero(out[0][4]):
            full, short = envs[0].finished_log(int(i)), envs[1].finished_log(int(i))
            play = ("draw", "discard", "chow", "pung", "kong", "bonus")
            first = next(k for k, r in enumerate(full) if r["event"] in ("draw", "discard"))
            assert short == full[:first] + [r for r in full[first:] if r["event"] not in play]
            assert short[-1]["event"] == "end_hand" and not any(r["event"] in ("draw", "discard") for r in short)
            ended += 1
    assert ended >= 2


@pytest.mark.io
def test_finished_episodes_replay_with_hkscore_replay() -> None:
    """A hand and a match, one learner against three guard bots: their logs, as JSON lines, pass ``hkscore
    replay`` (exit 0); a log whose first discard is changed to another tile does not (exit 1)."""
    import json

    from helpers.command import hkscore

    logs = []
    for episode in ("hand", "match"):
        env = VecEnv(1, "mistboard" if episode == "hand" else "playingcards-io", learners=[3], bots="guard",
                     episode=episode, seed=21)
        env.reset()
        while True:
            _o, _m, _p, _r, done = env.step(env.expert("efficiency"))
            if done[0]:
                logs.append(env.finished_log(0))
                break
    for log in logs:
        done = hkscore("replay", "-", stdin="".join(json.dumps(r) + "\n" for r in log))
        assert done.returncode == 0, done.stderr
    bad = [dict(r) for r in logs[0]]
    k = next(k for k, r in enumerate(bad) if r["event"] == "discard")
    bad[k]["tile"] = next(t for t in TILES if t != bad[k]["tile"])
    done = hkscore("replay", "-", stdin="".join(json.dumps(r) + "\n" for r in bad))
    assert done.returncode == 1


def test_the_presets_features_tell_just_cards_liability_and_seven_pairs() -> None:
    """just-cards: minimum 3, cap 10, a faan table from 3 faan of 8 steps (limit 10), 136 tiles, no bonus
    tiles, liability; a house preset adding the seven_pairs shape says so."""
    from hkcore.table.learning.encoding import preset_features
    from hkcore.table.table import Table, engine_rules

    p = Table({"event": "start", "preset": "just-cards", "seed": 1}).preset
    f = preset_features(p, engine_rules(p).flags())
    assert f[:8] == [3, 10, 10, 1, 0, p.table.dead_wall, 1, 0]
    assert f[8:8 + len(SCHEMES)] == [0, 0, 1, 0, 0]
    from hkcore.table.start import given_preset

    house = given_preset('extends = "bga-old-style"\nshapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
                         "[patterns]\nseven_pairs = { value = 4 }\n")
    g = preset_features(house, engine_rules(house).flags())
    assert g[6:8] == [0, 1] and g[:6] == [3, 13, 13, 0, 1, 0]


@pytest.mark.parametrize("core", ["cython", "python"])
@pytest.mark.parametrize("episode", ["hand", "match"])
def test_a_copy_or_a_pickle_plays_on_alone_as_the_original(core: str, episode: str) -> None:
    """A VecEnv pickled or deep-copied in the middle of its episodes (bots of each kind seated, logs kept or
    not) gives, step for step, the original's arrays and logs, and shares none of its arrays."""
    import copy
    import pickle

    if core == "cython" and IMPLEMENTATION != "cython":
        pytest.skip("the compiled core is not in use here")
    v = VecEnv(4, "bga-old-style", learners=[2], bots=["random", "value", None, "guard"], seed=3, core=core,
               episode=episode, logs=episode == "hand")
    v.reset()
    rng = random.Random(1)

    def actions() -> Any:
        return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in v.mask])

    for _ in range(40):
        v.step(actions())
    copies = [pickle.loads(pickle.dumps(v)), copy.deepcopy(v)]
    assert all(c.obs is not v.obs and c.mask is not v.mask for c in copies)
    ended = 0
    for _ in range(250):
        a = actions()
        v.step(a)
        ended += int(v.done.sum())
        for c in copies:
            c.step(a)
            for name in ("obs", "mask", "player", "reward", "done"):
                assert np.array_equal(getattr(c, name), getattr(v, name)), name
            assert [c.finished_log(i) for i in range(4)] == [v.finished_log(i) for i in range(4)]
    assert all([c.log(i) for i in range(4)] == [v.log(i) for i in range(4)] for c in copies)
    if episode == "hand":
        assert ended >= 4
    else:  # hands of the match were dealt after the copy
        assert max(sum(r["event"] == "start" for r in v.log(i)) for i in range(4)) >= 3
