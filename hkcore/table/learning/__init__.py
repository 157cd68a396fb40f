"""Learning environments: ``VecEnv``, N tables stepped by one call with
observations, masks and rewards in numpy arrays (docs/training.md), its
fixed observation encoding (``encoding``), a compiled core and its pure
twin."""
from __future__ import annotations

from hkcore.table.learning.encoding import FIELDS, MAX_DISCARDS, OBS_SIZE, OFFSET, hand_rewards
from hkcore.table.learning.vecenv import IMPLEMENTATION, VecEnv

__all__ = ["FIELDS", "IMPLEMENTATION", "MAX_DISCARDS", "OBS_SIZE", "OFFSET", "VecEnv", "hand_rewards"]
