"""``VecEnv``: N tables of Hong Kong mahjong stepped by one call, for
learning agents (docs/training.md).

>>> import numpy as np
>>> env = VecEnv(4, "bga-old-style", learners=[0], bots="efficiency", seed=1)
>>> obs, mask, player = env.reset()
>>> obs.shape == (4, OBS_SIZE), mask.shape == (4, N_ACTIONS), set(player.tolist())
(True, True, {0})
>>> actions = mask.argmax(axis=1)           # the first legal action of each table
>>> obs, mask, player, reward, done = env.step(actions)
>>> reward.shape, done.dtype
((4, 4), dtype('bool'))
"""
from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.env import N_ACTIONS
from hkcore.table.flow import engine as _engine
from hkcore.table.learning import _pyvec
from hkcore.table.learning.encoding import OBS_SIZE, preset_features
from hkcore.table.players.bots import available_bots
from hkcore.table.players.fastplay import IMPLEMENTATION as _LOOP, value_params
from hkcore.table.start import MAX_SEED, check_seed, given_preset
from hkcore.table.table import engine_rules

if TYPE_CHECKING:  # the compiled core has the pure one's surface
    _CompiledCore: Any = None
else:
    try:
        from hkcore.table.learning._cvec import CompiledCore as _CompiledCore
    except ImportError:  # pragma: no cover - a build without the compiled core
        _CompiledCore = None

#: which core ``VecEnv`` runs by default: "cython" (the compiled one, on the compiled engine) or "python"
IMPLEMENTATION = "cython" if _CompiledCore is not None and _engine.IMPLEMENTATION == _LOOP == "cython" else "python"
#: the most tables one ``VecEnv`` steps
MAX_TABLES = 1 << 16
#: the policy a seat not learned may play besides the registered bots
RANDOM = "random"


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:  # pragma: no cover - numpy comes with the rl extra
        raise TableError("VecEnv needs numpy: pip install 'hkcore[rl]'", "numpy", None) from None
    return numpy


class VecEnv:
    """``n`` tables under one preset, each playing episodes of a hand (``episode="hand"``) or a match
    (``"match"``) one after another. The players listed in ``learners`` (0..3; player p sits at seat p in a
    hand, and at the seats a match gives it) are asked; the others are played inside the engine by ``bots``
    (a bot's name for all, or four by player, learners' entries ignored: ``random``, ``efficiency``,
    ``value``, ``guard``, or any registered bot, which plays through its prompts).

    After ``reset()`` and each ``step(actions)``, for each table ``i``: ``player[i]`` is the learned player
    asked now, ``obs[i]`` what its seat sees (``OBS_SIZE`` float32s, laid out as
    ``hkcore.table.learning.encoding.FIELDS`` says), ``mask[i]`` its legal actions (``N_ACTIONS`` bytes, the
    action ids of ``hkcore.table.env``); ``reward[i, p]`` what player p was paid during the step (a hand's
    ``delta``, or under a faan ledger the zero-sum measure, ``encoding.hand_rewards``); ``done[i]``
    whether table i's episode ended during the step: the arrays then show the next episode's first
    observation, and ``finished_log(i)`` the log of the one that ended. The arrays are the same objects on
    every call, written in place.

    Each table's episodes are numbered ``first + i``, ``first + i + n``, ...; episode ``k`` is dealt from
    ``hkcore.table.start.wall_seed(seed, k)``: the walls ``hkscore simulate`` and the arena deal with the same
    seed. A random seat of episode k draws from ``bot_seed(seed, k, 0, seat)``. An action not in the mask is
    a TableError naming the table and the action, nothing changed; with ``illegal="pass"`` it becomes the
    pass (else the discard of the tile just drawn, else the first discard offered) and costs ``penalty``.
    ``logs=False`` keeps, of each hand's log, only the start, the deal and the outcome (wins, the end): faster
    and lighter, but not a log that replays. ``core``: "cython" (the compiled core), "python" (the pure one, the
    reference) or None (``IMPLEMENTATION``). A VecEnv pickles and deep-copies with every table's state: the
    copy, with arrays of its own, plays on as the original would.
    """

    def __init__(self, n: int = 1, preset: str | Preset = "bga-old-style", *,
                 learners: Sequence[int] = (0, 1, 2, 3), bots: str | Sequence[str | None] = RANDOM,
                 episode: str = "hand", seed: int = 0, illegal: str = "raise", penalty: float = 0.0,
                 logs: bool = True, first: int = 0, core: str | None = None) -> None:
        np = _numpy()
        if type(n) is not int or not 1 <= n <= MAX_TABLES:
            raise TableError(f"n = {shown(n)}: a whole number of tables from 1 to {MAX_TABLES:,}", "n", n)
        p = given_preset(preset, "preset")
        learned = self._learners(learners)
        names = self._bots(bots, learned)
        if episode not in ("hand", "match"):
            raise TableError(f"episode = {shown(episode)}: \"hand\" or \"match\"", "episode", episode)
        check_seed(seed)
        if illegal not in ("raise", "pass"):
            raise TableError(f"illegal = {shown(illegal)}: \"raise\" or \"pass\"", "illegal", illegal)
        if isinstance(penalty, bool) or not isinstance(penalty, (int, float)) or not 0 <= penalty < float("inf"):
            raise TableError(f"penalty = {shown(penalty)}: a number, 0 or more", "penalty", penalty)
        if type(first) is not int or not 0 <= first <= MAX_SEED:
            raise TableError(f"first = {shown(first)}: an episode number from 0 to {MAX_SEED}", "first", first)
        if type(logs) is not bool:
            raise TableError(f"logs = {shown(logs)}: true or false", "logs", logs)
        if core is None:
            core = IMPLEMENTATION
        if core not in ("cython", "python") or (core == "cython" and IMPLEMENTATION != "cython"):
            raise TableError(f"core = {shown(core)}: \"python\"" + (" or \"cython\"" if IMPLEMENTATION == "cython"
                                                                     else " (the compiled core is not built)"),
                             "core", core)
        self.n = n
        self.preset = p
        self.learners = tuple(x for x in range(4) if learned[x])
        self.bots = tuple(names)
        self.episode = episode
        self.seed = seed
        self.illegal = illegal
        self.penalty = float(penalty)
        self.core = core
        self.logs = logs
        self.first = first
        self.obs = np.zeros((n, OBS_SIZE), np.float32)
        self.mask = np.zeros((n, N_ACTIONS), np.uint8)
        self.player = np.zeros(n, np.int8)
        self.reward = np.zeros((n, 4), np.float32)
        self.done = np.zeros(n, np.bool_)
        arrays = {"obs": self.obs, "mask": self.mask, "player": self.player, "reward": self.reward,
                  "done": self.done}
        features = preset_features(p, engine_rules(p).flags())
        params = value_params(p) if {"value", "guard"} & set(names) else None
        self._params = params is not None
        if core == "cython":
            self._core: Any = _CompiledCore(n, p, learned, names, seed, episode == "match", features, arrays, params,
                                            logs, first)
        else:
            self._core = _pyvec.PureCore(n, p, learned, names, seed, episode == "match", features, arrays, logs,
                                         first)
        self._started = False
        self._pass = illegal == "pass"
        self._ndarray, self._int64, self._shape = np.ndarray, np.dtype(np.int64), (n,)

    @staticmethod
    def _learners(learners: Any) -> list[bool]:
        try:
            given = [operator.index(x) for x in learners]
        except TypeError:
            given = []
        if not given or len(set(given)) != len(given) or not all(0 <= x < 4 for x in given):
            raise TableError(f"learners = {shown(learners)}: one to four different players, 0 to 3", "learners",
                             learners)
        return [x in given for x in range(4)]

    def _bots(self, bots: Any, learned: list[bool]) -> list[str | None]:
        #: the bots this environment may seat or ask (the registry as it was when it was made)
        self._known = frozenset(available_bots()) | {RANDOM}
        known = self._known
        names = [bots] * 4 if isinstance(bots, str) else list(bots) if isinstance(bots, (list, tuple)) else None
        if names is None or len(names) != 4:
            raise TableError(f"bots = {shown(bots)}: a bot's name, or four by player", "bots", bots)
        out: list[str | None] = []
        for x in range(4):
            if learned[x]:
                out.append(None)
            elif names[x] not in known:
                raise TableError(f"bots[{x}] = {shown(names[x])}: one of {', '.join(sorted(known))}", f"bots[{x}]",
                                 names[x])
            else:
                out.append(names[x])
        return out

    def reset(self) -> tuple[Any, Any, Any]:
        """Every table begins its first episode (episode ``i`` for table ``i``); ``(obs, mask, player)``."""
        self._core.reset()
        self._started = True
        return self.obs, self.mask, self.player

    def step(self, actions: Any) -> tuple[Any, Any, Any, Any, Any]:
        """Each table's asked player takes ``actions[i]`` (an action id); ``(obs, mask, player, reward, done)``."""
        if not self._started:
            raise TableError("step: reset() first", "step", None)
        if (type(actions) is self._ndarray and actions.dtype == self._int64 and actions.shape == self._shape
                and actions.flags.c_contiguous and self.core == "cython"):  # (the common case, checked at once)
            self._core.step(actions, self._pass, self.penalty)
            return self.obs, self.mask, self.player, self.reward, self.done
        np = _numpy()
        try:
            acts = np.ascontiguousarray(actions)
            ok = acts.shape == (self.n,) and (acts.dtype.kind in "iu" or acts.size == 0)
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise TableError(f"actions = {shown(actions)}: {self.n} action ids, one by table", "actions", actions)
        self._core.step(acts.astype(np.int64, copy=False) if self.core == "cython" else acts.tolist(),
                        self._pass, self.penalty)
        return self.obs, self.mask, self.player, self.reward, self.done

    def expert(self, bot: str) -> Any:
        """The action the bot ``bot`` would take now for each table's asked player (int64 ids, one by table):
        the compiled choice of ``efficiency``, ``value`` and ``guard``, any other registered bot's through its
        prompt (a ``random`` bot's seeded ``bot_seed(seed, episode, 1, seat)``, afresh on each call). Changes
        nothing: pass it to ``step`` to play it (an imitation dataset: ``hkscore dataset``)."""
        np = _numpy()
        if not self._started:
            raise TableError("expert: reset() first", "expert", None)
        if not isinstance(bot, str) or bot not in self._known:
            raise TableError(f"bot = {shown(bot)}: one of {', '.join(sorted(self._known))}", "bot", bot)
        if bot in ("value", "guard") and not self._params:
            self._core.use_params(value_params(self.preset))
            self._params = True
        out = np.empty(self.n, np.int64)
        self._core.expert(bot, out)
        return out

    def log(self, i: int) -> list[dict[str, Any]]:
        """The records of table ``i``'s episode so far (a log ``hkscore replay`` checks)."""
        return list(self._core.log(self._table(i)))

    def finished_log(self, i: int) -> list[dict[str, Any]] | None:
        """The log of the episode table ``i`` ended during the last step (None if it did not end one)."""
        log = self._core.finished[self._table(i)]
        return None if log is None else list(log)

    def episode_index(self, i: int) -> int:
        """The number of table ``i``'s episode in play (its wall: ``wall_seed(seed, number)``)."""
        return int(self._core.index[self._table(i)])

    def _table(self, i: Any) -> int:
        if type(i) is not int or not 0 <= i < self.n:
            raise TableError(f"table = {shown(i)}: 0 to {self.n - 1}", "table", i)
        return i
