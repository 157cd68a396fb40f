"""Gymnasium and PettingZoo adapters of ``hkcore.table.Env`` (docs/env.md;
the ``rl`` extra: ``pip install "hkcore[rl]"``).

``aec_env(preset)`` is a PettingZoo AEC environment of the four seats: in a
claim window each seat asked answers in turn and the window is played once
all have answered. ``GymEnv(preset, seat, opponents)`` is a Gymnasium
environment for one learning seat, the other three played by bots
(``hkcore.table.players.bots``). Observations are ``{"observation": vector,
"action_mask": mask}`` (numpy ``uint8`` and ``int8``), the convention of
PettingZoo's classic games; an action not in the mask is refused with a
``TableError``.
"""
from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.env import N_ACTIONS, OBS_SIZE, Env, Observation, decision_to_action
from hkcore.table.flow.wall import SEATS
from hkcore.table.players.bots import make_bot


def _spaces() -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict({"observation": spaces.Box(0, 255, (OBS_SIZE,), np.uint8),
                       "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8)})
    return obs, spaces.Discrete(N_ACTIONS)


def _arrays(o: Observation) -> dict[str, Any]:
    return {"observation": np.frombuffer(o.vector, np.uint8).copy(),
            "action_mask": np.frombuffer(o.mask, np.int8).copy()}


class HkcoreAEC(AECEnv):  # type: ignore[misc]
    """The four seats of one hand as a PettingZoo AEC environment; one
    episode is one hand. ``reset(seed, options)``: ``options`` may give
    ``preset`` or a ``start`` record."""

    metadata: ClassVar[dict[str, Any]] = {"name": "hkcore_v0", "render_modes": [], "is_parallelizable": False}

    def __init__(self, preset: str | Preset = "bga-old-style", seed: int | None = None) -> None:
        super().__init__()
        self.env = Env(preset, seed)
        self.possible_agents = list(SEATS)
        self._obs_space, self._act_space = _spaces()
        self.observation_spaces = {a: self._obs_space for a in SEATS}
        self.action_spaces = {a: self._act_space for a in SEATS}
        self._pending: dict[str, int] = {}
        self._current: dict[str, Observation] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        opts = dict(options or {})
        if "start" in opts:
            self._current = self.env.reset(start=opts["start"])
        else:
            self._current = self.env.reset(seed, opts.get("preset"))
        self.agents = list(SEATS)
        self.rewards = dict.fromkeys(SEATS, 0)
        self._cumulative_rewards = dict.fromkeys(SEATS, 0)
        self.terminations = dict.fromkeys(SEATS, False)
        self.truncations = dict.fromkeys(SEATS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in SEATS}
        self._pending = {}
        self._select()

    def _select(self) -> None:
        for seat in self._current:
            if seat not in self._pending:
                self.agent_selection = seat
                return

    def observe(self, agent: str) -> dict[str, Any]:
        o = self._current.get(agent)
        if o is None:
            o = self.env.observe(agent)
        elif agent in self._pending:  # answered: nothing more to do until the window is played
            o = Observation(agent, None, bytes(N_ACTIONS), o.vector)
        return _arrays(o)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._current[agent].decision(action)  # checked now: a wrong action leaves everything as it was
        self._cumulative_rewards[agent] = 0
        self._pending[agent] = int(action)
        self.rewards = dict.fromkeys(SEATS, 0)
        if len(self._pending) == len(self._current):
            self._current, rewards, done, info = self.env.step(self._pending)
            self._pending = {}
            self.rewards = rewards
            if done:
                self.terminations = dict.fromkeys(SEATS, True)
                for a in SEATS:
                    self.infos[a] = {"records": info["records"]}
        if self.env.done:
            self.agent_selection = self.agents[0]
        else:
            self._select()
        self._accumulate_rewards()


def aec_env(preset: str | Preset = "bga-old-style", seed: int | None = None) -> HkcoreAEC:
    """A PettingZoo AEC environment of one hand under ``preset``."""
    return HkcoreAEC(preset, seed)


class GymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of one hand as a Gymnasium environment: the agent plays
    ``seat``, ``opponents`` (a bot name, or three by seat order) play the
    others. The reward is the agent's share of the hand's payments (faan
    under a ledger), given on the step that ends it. A hand that ends
    before the agent is asked anything is skipped at ``reset``: the next
    seed is dealt."""

    metadata = {"render_modes": []}  # noqa: RUF012 - gymnasium's own attribute

    def __init__(self, preset: str | Preset = "bga-old-style", seat: str = "E",
                 opponents: str | list[str] = "efficiency", seed: int | None = None) -> None:
        if seat not in SEATS:
            raise TableError(f"seat = {shown(seat)}: E, S, W or N", "seat", seat)
        names = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise TableError(f"opponents = {shown(opponents)}: one bot name, or three", "opponents", opponents)
        self.env = Env(preset, seed)
        self.seat = seat
        self._names = names
        self.observation_space, self.action_space = _spaces()
        self._obs: dict[str, Observation] = {}
        self._bots: dict[str, Any] = {}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        preset = (options or {}).get("preset")
        while True:
            self._obs = self.env.reset(seed, preset)
            others = [s for s in SEATS if s != self.seat]
            hand_seed = self.env.table.log[0].get("seed", 0)
            self._bots = {s: make_bot(n, self.env.table.preset, hand_seed + k)
                          for k, (s, n) in enumerate(zip(others, self._names))}
            reward, done, _ = self._play_others()
            if not done:
                return _arrays(self._obs[self.seat]), {"skipped_reward": reward} if reward else {}
            seed = None

    def _play_others(self, mine: int | None = None) -> tuple[int, bool, list[dict[str, Any]]]:
        """Step until the agent must act (its action ``mine`` given in the first step)."""
        total, records = 0, list[dict[str, Any]]()
        while True:
            if self.seat in self._obs and mine is None:
                return total, False, records
            actions = {s: decision_to_action(o.prompt, self._bots[s].decide(o.prompt))  # type: ignore[arg-type]
                       for s, o in self._obs.items() if s != self.seat}
            if mine is not None:
                actions[self.seat] = mine
                mine = None
            self._obs, rewards, done, info = self.env.step(actions)
            total += rewards[self.seat]
            records += info["records"]
            if done:
                return total, True, records

    def step(self, action: Any) -> tuple[dict[str, Any], int, bool, bool, dict[str, Any]]:
        if self.env.done or self.seat not in self._obs:
            raise TableError("action: the hand is over; call reset()", "action", action)
        self._obs[self.seat].decision(action)  # checked before anything is played
        reward, done, records = self._play_others(int(action))
        obs = self.env.observe(self.seat)
        return _arrays(obs), reward, done, False, {"records": records}
