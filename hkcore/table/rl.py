"""Gymnasium and PettingZoo adapters, all built on ``VecEnv``
(docs/training.md, "Adapters"; the ``rl`` extra: ``pip install "hkcore[rl]"``).

- ``GymEnv``: one learning player against three bots, a Gymnasium ``Env``.
- ``GymVectorEnv``: ``num_envs`` such tables, a Gymnasium ``VectorEnv``
  stepped by one call (its autoreset mode ``SAME_STEP``).
- ``parallel_env`` and ``aec_env``: the four players of one table as a
  PettingZoo ``ParallelEnv`` and ``AECEnv`` (agents ``player_0`` ..
  ``player_3``; player p sits at seat p of a hand, and where a match seats
  it).

Observations are ``{"observation": float32[OBS_SIZE], "action_mask":
int8[N_ACTIONS]}``, the convention of PettingZoo's classic games (the
encoding: ``hkcore.table.learning.encoding``). One player is asked at a
time; an action outside the mask is refused with a ``TableError`` and
changes nothing (``illegal="pass"``: the pass at a ``penalty``, as
``VecEnv`` takes it). ``render()`` (text) shows what the player asked sees.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.env import N_ACTIONS
from hkcore.table.learning.encoding import OBS_SIZE, describe
from hkcore.table.learning.vecenv import VecEnv
from hkcore.table.start import MAX_SEED, check_seed

SEATS = ("E", "S", "W", "N")
#: what an agent not yet asked sees, and the mask of an agent not asked now (read-only, shared)
_NO_VIEW = np.zeros(OBS_SIZE, np.float32)
_NO_VIEW.flags.writeable = False
_NO_ACTIONS = np.zeros(N_ACTIONS, np.int8)
_NO_ACTIONS.flags.writeable = False
AGENTS = ("player_0", "player_1", "player_2", "player_3")


def observation_space() -> spaces.Dict:
    """One player's observation: the encoded view and the mask of its legal actions."""
    return spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (OBS_SIZE,), np.float32),
                        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)})


def _player(seat: Any) -> int:
    if isinstance(seat, str) and seat in SEATS:
        return SEATS.index(seat)
    if type(seat) is int and 0 <= seat < 4:
        return seat
    raise TableError(f"seat = {shown(seat)}: E, S, W or N (or a player, 0 to 3)", "seat", seat)


def _opponents(opponents: Any, learner: int) -> list[str | None]:
    names = [opponents] * 3 if isinstance(opponents, str) else list(opponents) \
        if isinstance(opponents, (list, tuple)) else []
    if len(names) != 3:
        raise TableError(f"opponents = {shown(opponents)}: one bot name, or three in seat order", "opponents",
                         opponents)
    out: list[str | None] = []
    for p in range(4):
        out.append(None if p == learner else names.pop(0))
    return out


def _seed(seed: Any) -> int:
    if seed is None:
        return int(np.random.default_rng().integers(0, MAX_SEED))
    return check_seed(seed)


def _learner_kw(preset: str | Preset, learner: int, opponents: Any, episode: str, illegal: str, penalty: float,
                logs: bool) -> dict[str, Any]:
    """``VecEnv``'s arguments (but the number of tables and the seed) for one learner against ``opponents``."""
    return {"preset": preset, "learners": [learner], "bots": _opponents(opponents, learner), "episode": episode,
            "illegal": illegal, "penalty": penalty, "logs": logs}


def _dealt(kw: dict[str, Any], seed: int | None, vec: VecEnv, begun: bool, fresh: bool) -> VecEnv:
    """The tables an adapter's ``reset`` shows (as many as ``vec``'s): the walls of ``seed`` from the first when
    it is given, or of ``vec``'s seed before any reset (``begun``); else ``vec`` if its tables already show their
    next episodes (``fresh``), else tables dealt from the run's walls no table has played (episodes left
    half-played are dropped)."""
    if seed is None and not begun:
        seed = vec.seed
    if seed is not None:
        vec = VecEnv(vec.n, seed=_seed(seed), **kw)
    elif fresh:
        return vec
    else:
        first = max(vec.episode_index(i) for i in range(vec.n)) + 1
        vec = VecEnv(vec.n, seed=vec.seed, first=first, **kw)
    vec.reset()
    return vec


def _shown(text: Any, mode: str | None) -> Any:
    """What ``render()`` gives in ``mode``: the text, or None after printing it (``"human"``)."""
    if mode == "human":
        print(text)
        return None
    return text


def _render_mode(mode: Any, modes: Sequence[str]) -> str | None:
    if mode is not None and mode not in modes:
        raise TableError(f"render_mode = {shown(mode)}: None or one of {', '.join(map(repr, modes))}",
                         "render_mode", mode)
    return mode  # type: ignore[no-any-return]


class GymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One learning player (``seat``) against ``opponents`` (a bot's name, or three in seat order) under
    ``preset``, episodes of a hand or a match; the reward is the player's payments in the step (``VecEnv``'s).
    ``reset(seed=S)`` begins the walls of seed S (episode 0, then 1, 2, ... at each later ``reset()``); a
    hand that ends before the player is asked is played through (its payments in ``info["skipped"]``)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(self, preset: str | Preset = "bga-old-style", seat: str | int = "E",
                 opponents: str | Sequence[str] = "efficiency", seed: int | None = None, *, episode: str = "hand",
                 illegal: str = "raise", penalty: float = 0.0, logs: bool = True,
                 render_mode: str | None = None) -> None:
        self.render_mode = _render_mode(render_mode, self.metadata["render_modes"])
        self.learner = _player(seat)
        self._kw = _learner_kw(preset, self.learner, opponents, episode, illegal, penalty, logs)
        self.vec = VecEnv(1, seed=_seed(seed), **self._kw)
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._fresh = False  # the table shows an episode's first observation, not yet returned by reset
        self._begun = False

    def _obs(self) -> dict[str, Any]:
        return {"observation": self.vec.obs[0].copy(), "action_mask": self.vec.mask[0].view(np.int8).copy()}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        shown_next = self._begun and self._fresh and seed is None  # (its reward was the ended episode's)
        self.vec = _dealt(self._kw, seed, self.vec, self._begun, self._fresh)
        self._begun = True
        skipped = 0.0 if shown_next else float(self.vec.reward[0, self.learner])
        self._fresh = False
        return self._obs(), ({"skipped": skipped} if skipped else {})

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if not self._begun:
            raise TableError("action: call reset() first", "action", action)
        if self._fresh:
            raise TableError("action: the episode is over; call reset()", "action", action)
        last = self.vec.obs[0].copy()
        self.vec.step(np.array([action], np.int64) if isinstance(action, (int, np.integer)) else action)
        reward = float(self.vec.reward[0, self.learner])
        if self.vec.done[0]:  # the table already shows the next episode: the ended one's last view, no actions
            self._fresh = True
            return ({"observation": last, "action_mask": np.zeros(N_ACTIONS, np.int8)}, reward, True, False,
                    {"log": self.vec.finished_log(0)})
        return self._obs(), reward, False, False, {}

    def render(self) -> str | None:
        return _shown(describe(self.vec.obs[0], self.vec.mask[0]), self.render_mode)  # type: ignore[no-any-return]


class GymVectorEnv(VectorEnv[Any, Any, Any]):
    """``num_envs`` tables, one learning player (``seat``) at each against ``opponents``, as a Gymnasium
    ``VectorEnv`` on one ``VecEnv``: observations batched as ``{"observation": (n, OBS_SIZE) float32,
    "action_mask": (n, N_ACTIONS) int8}``, actions one id a table. Autoreset in the same step: a table whose
    episode ended shows the next one's first observation; ``infos["final_obs"]`` holds the last observation
    its player acted on, ``infos["final_info"]["log"]`` the ended episode's log (``_final_obs`` and
    ``_final_info`` mark those tables), as gymnasium's ``SyncVectorEnv`` of ``GymEnv`` gives them. Table i
    plays episodes i, i + n, ... of the run's walls (``VecEnv``); ``reset()`` goes on to walls no table has
    played, ``reset(seed=S)`` starts the walls of S again. ``copy``: observations are arrays of their own
    (False: ``VecEnv``'s, written in place by the next step)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(self, num_envs: int = 8, preset: str | Preset = "bga-old-style", seat: str | int = "E",
                 opponents: str | Sequence[str] = "efficiency", seed: int | None = None, *, episode: str = "hand",
                 illegal: str = "raise", penalty: float = 0.0, logs: bool = True, copy: bool = True) -> None:
        self.learner = _player(seat)
        self.copy = copy
        self._kw = _learner_kw(preset, self.learner, opponents, episode, illegal, penalty, logs)
        self.vec = VecEnv(num_envs, seed=_seed(seed), **self._kw)
        self.num_envs = num_envs
        self.single_observation_space = observation_space()
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (num_envs, OBS_SIZE), np.float32),
            "action_mask": spaces.Box(0, 1, (num_envs, N_ACTIONS), np.int8)})
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, N_ACTIONS))
        self.render_mode = "ansi"
        self._last = np.zeros((num_envs, OBS_SIZE), np.float32)
        self._begun = False

    def _obs(self) -> dict[str, Any]:
        if self.copy:
            return {"observation": self.vec.obs.copy(), "action_mask": self.vec.mask.view(np.int8).copy()}
        return {"observation": self.vec.obs, "action_mask": self.vec.mask.view(np.int8)}

    def reset(self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        self.vec = _dealt(self._kw, seed, self.vec, self._begun, False)   # (tables reset themselves as they end)
        self._begun = True
        return self._obs(), {}

    def step(self, actions: Any) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        if not self._begun:
            raise TableError("actions: call reset() first", "actions", actions)
        np.copyto(self._last, self.vec.obs)
        self.vec.step(actions)
        done = self.vec.done.copy()
        infos: dict[str, Any] = {}
        if done.any():
            rows = np.flatnonzero(done)
            final_obs = np.empty(self.num_envs, object)
            logs = np.empty(self.num_envs, object)
            for i in rows:
                final_obs[i] = {"observation": self._last[i].copy(),
                                "action_mask": np.zeros(N_ACTIONS, np.int8)}
                logs[i] = self.vec.finished_log(int(i))
            infos = {"final_obs": final_obs, "_final_obs": done, "final_info": {"log": logs, "_log": done},
                     "_final_info": done}
        return (self._obs(), self.vec.reward[:, self.learner].astype(np.float64), done,
                np.zeros(self.num_envs, np.bool_), infos)

    def render(self) -> tuple[str, ...] | None:
        return tuple(describe(self.vec.obs[i], self.vec.mask[i]) for i in range(self.num_envs))


class HkcoreParallel(ParallelEnv):  # type: ignore[misc]
    """The four players of one table as a PettingZoo ``ParallelEnv``: each step, only the player asked has a
    legal action (its mask); the others' actions are ignored and their masks empty. Observations are given
    for every agent: the asked one's view, the others' last view (all zero before their first; arrays not
    asked now are shared and read-only). ``reset()``
    after an episode's end plays the run's next wall (``reset(seed=S)``: the walls of seed S from the first)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "hkcore_v1", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": True}

    def __init__(self, preset: str | Preset = "bga-old-style", seed: int | None = None, *, episode: str = "hand",
                 illegal: str = "raise", penalty: float = 0.0, logs: bool = True,
                 render_mode: str | None = None) -> None:
        self.render_mode = _render_mode(render_mode, self.metadata["render_modes"])
        self._kw: dict[str, Any] = {"preset": preset, "learners": [0, 1, 2, 3], "episode": episode,
                                    "illegal": illegal, "penalty": penalty, "logs": logs}
        self.vec = VecEnv(1, seed=_seed(seed), **self._kw)
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self._space = observation_space()
        self._actions = spaces.Discrete(N_ACTIONS)
        self._given: dict[str, dict[str, Any]] = {}
        self._rows: tuple[Any, Any] = (self.vec.obs[0], self.vec.mask.view(np.int8)[0])
        self._last_asked: str | None = None
        self._action = np.zeros(1, np.int64)
        self._begun = False
        self._fresh = False
        #: the agent asked now
        self.asked = AGENTS[0]
        self.log: list[dict[str, Any]] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._actions

    def _observations(self, copy: bool = True) -> dict[str, dict[str, Any]]:
        """Every agent's observation: the asked one's new, the others' as last given (their masks empty); at
        an episode's end each one's last, no actions. ``copy``: a dict of the caller's own (False: the one this
        env changes at the next step)."""
        given = self._given
        if not self.agents:
            return {a: {"observation": given[a]["observation"], "action_mask": _NO_ACTIONS} for a in AGENTS}
        agent = self.asked
        last = self._last_asked
        if last is not None and last != agent:
            given[last] = {"observation": given[last]["observation"], "action_mask": _NO_ACTIONS}
        obs, mask = self._rows
        given[agent] = {"observation": obs.copy(), "action_mask": mask.copy()}
        self._last_asked = agent
        return given.copy() if copy else given

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        self.vec = _dealt(self._kw, seed, self.vec, self._begun, self._fresh)
        self._rows = (self.vec.obs[0], self.vec.mask.view(np.int8)[0])  # (views of the table's arrays, made once)
        self._begun = True
        self._fresh = False
        self._given = {a: {"observation": _NO_VIEW, "action_mask": _NO_ACTIONS} for a in AGENTS}
        self._last_asked = None
        self.asked = AGENTS[self.vec.player.item(0)]
        self.agents = list(AGENTS)
        self.log = None
        return self._observations(), {a: {} for a in AGENTS}

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        if not self.agents:
            raise TableError("actions: the episode is over; call reset()", "actions", actions)
        asked = self.asked
        if not isinstance(actions, dict) or asked not in actions:
            raise TableError(f"actions = {shown(actions)}: an action for {asked}, the agent asked", "actions",
                             actions)
        rewards, done = self._play(actions[asked])
        if done:
            infos: dict[str, dict[str, Any]] = {a: {"log": self.log} for a in AGENTS}
            self.agents = []
        else:
            infos = {"player_0": {}, "player_1": {}, "player_2": {}, "player_3": {}}
        obs = self._observations()
        return (obs, rewards, {"player_0": done, "player_1": done, "player_2": done, "player_3": done},
                {"player_0": False, "player_1": False, "player_2": False, "player_3": False}, infos)

    def _play(self, action: Any) -> tuple[dict[str, float], bool]:
        """The asked agent takes ``action``; every agent's reward, and whether the episode ended."""
        vec = self.vec
        if type(action) is int or (isinstance(action, np.integer) and not isinstance(action, bool)):
            self._action[0] = action
            vec.step(self._action)
        else:
            vec.step([action])
        done: bool = vec.done.item(0)
        if done:
            self.log = vec.finished_log(0)
            self._fresh = True
        self.asked = AGENTS[vec.player.item(0)]
        r = vec.reward[0].tolist()
        return {"player_0": r[0], "player_1": r[1], "player_2": r[2], "player_3": r[3]}, done

    def render(self) -> str | None:
        return _shown(describe(self.vec.obs[0], self.vec.mask[0]), self.render_mode)  # type: ignore[no-any-return]

    def close(self) -> None:
        pass


def parallel_env(preset: str | Preset = "bga-old-style", seed: int | None = None, **kwargs: Any) -> HkcoreParallel:
    """The four players of one table as a PettingZoo ``ParallelEnv`` (``HkcoreParallel``)."""
    return HkcoreParallel(preset, seed, **kwargs)


class HkcoreAEC(AECEnv):  # type: ignore[misc]
    """The four players of one table as a PettingZoo ``AECEnv``: ``agent_selection`` is the player asked
    (in a claim window each player asked answers in turn, none seeing another's answer). An episode is a
    hand or a match; the finished log is in every agent's info."""

    metadata: ClassVar[dict[str, Any]] = {"name": "hkcore_v1", "render_modes": ["ansi", "human"],
                                          "is_parallelizable": True}

    def __init__(self, preset: str | Preset = "bga-old-style", seed: int | None = None, *, episode: str = "hand",
                 illegal: str = "raise", penalty: float = 0.0, logs: bool = True,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.render_mode = _render_mode(render_mode, self.metadata["render_modes"])
        self.par = HkcoreParallel(preset, seed, episode=episode, illegal=illegal, penalty=penalty, logs=logs)
        self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: self.par._space for a in AGENTS}
        self.action_spaces = {a: self.par._actions for a in AGENTS}
        self._obs: dict[str, dict[str, Any]] = {}
        self._stale = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.par._space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.par._actions

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._obs, _ = self.par.reset(seed, options)
        self._stale = False
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = self.par.asked

    def observe(self, agent: str) -> dict[str, Any]:
        if self._stale:  # (made when first asked for after a step)
            self._obs = self.par._observations(copy=False)
            self._stale = False
        return self._obs[agent]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards, done = self.par._play(action)
        self._stale = True
        if done:
            self.par.agents = []
            self.terminations = dict.fromkeys(AGENTS, True)
            self.infos = {a: {"log": self.par.log} for a in AGENTS}
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.par.asked
        self._accumulate_rewards()

    def render(self) -> str | None:
        return _shown(describe(self.par.vec.obs[0], self.par.vec.mask[0]),  # type: ignore[no-any-return]
                      self.render_mode)

    def close(self) -> None:
        pass


def aec_env(preset: str | Preset = "bga-old-style", seed: int | None = None, **kwargs: Any) -> HkcoreAEC:
    """The four players of one table as a PettingZoo ``AECEnv`` (``HkcoreAEC``)."""
    return HkcoreAEC(preset, seed, **kwargs)


__all__ = ["AGENTS", "GymEnv", "GymVectorEnv", "HkcoreAEC", "HkcoreParallel", "aec_env", "observation_space",
           "parallel_env"]
