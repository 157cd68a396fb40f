"""An RLlib ``MultiAgentEnv`` of one table's four players, on ``VecEnv``
through ``hkcore.table.rl.HkcoreParallel`` (needs ``ray[rllib]``, which
hkcore does not depend on: ``pip install "ray[rllib]"``).

Only the player asked gets an observation each step, the convention of
RLlib's turn-based multi-agent environments; rewards are given to every
player as the step pays them; ``"__all__"`` ends with the episode.
"""
from __future__ import annotations

from typing import Any

from gymnasium import spaces
from ray.rllib.env.multi_agent_env import MultiAgentEnv  # type: ignore[import-not-found]

from hkcore.table.env import N_ACTIONS
from hkcore.table.rl import AGENTS, HkcoreParallel, observation_space


class HkcoreMultiAgentEnv(MultiAgentEnv):  # type: ignore[misc]
    """``config``: ``preset``, ``seed``, ``episode`` ("hand" or "match"), ``illegal``, ``penalty``, ``logs``,
    as ``VecEnv`` takes them."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        c = dict(config or {})
        self.par = HkcoreParallel(c.pop("preset", "bga-old-style"), c.pop("seed", None), **c)
        self.agents = self.possible_agents = list(AGENTS)
        self.observation_spaces = {a: observation_space() for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in AGENTS}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, _ = self.par.reset(seed, options)
        asked = self.par.asked
        return {asked: obs[asked]}, {asked: {}}

    def step(self, action_dict: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        asked = self.par.asked
        obs, rewards, terms, _truncs, infos = self.par.step({asked: action_dict[asked]})
        done = terms[asked]
        if done:
            return (dict(obs), rewards, {**terms, "__all__": True}, {**dict.fromkeys(AGENTS, False), "__all__": False},
                    infos)
        nxt = self.par.asked
        return {nxt: obs[nxt]}, rewards, {"__all__": False}, {"__all__": False}, {}
