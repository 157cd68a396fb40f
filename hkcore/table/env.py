"""The agent interface: one hand as an environment for learning agents
(docs/env.md).

``Env.reset(seed=..., preset=...)`` deals a hand and returns an
``Observation`` for each seat that must act; ``Env.step({seat: action})``
takes one action id from each of those seats (every seat asked in a claim
window answers in the same step) and returns the observations of the seats
that must act next, the rewards by seat, whether the hand is over and what
happened (``info["records"]``). Legality is the table's: an action id not
among the seat's prompt's actions is refused with a ``TableError`` naming the
seat and the action, and the environment stays as it was.

Actions are integers in a fixed space of ``N_ACTIONS`` ids (``action_id``,
``action_name``); an observation carries the seat's prompt (with its
``view``), a legal-action ``mask`` and a numeric ``vector`` built from that
view alone (``encode``, laid out as ``OBS_LAYOUT`` says). Masks and vectors
are ``bytes``: ``numpy.frombuffer(obs.vector, numpy.uint8)`` reads one
without a copy, and numpy stays optional.
"""
from __future__ import annotations

import operator
import random
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.flow.wall import CODES, SEATS
from hkcore.table.start import MAX_SEED, check_seed, given_preset, record_preset
from hkcore.table.table import Table

# ---------------------------------------------------------------- actions

#: the first id of each block of 34 (one id per tile index, 1m = 0 ... 7z = 33)
DISCARD, CHOW, PUNG, EXPOSED_KONG, CONCEALED_KONG, ADDED_KONG, FACE_UP_PUNG = (0, 34, 68, 102, 136, 170, 204)
#: the two ids that take no tile
WIN, PASS = 238, 239
#: how many action ids there are
N_ACTIONS = 240

_BLOCKS = (("discard", DISCARD), ("chow", CHOW), ("pung", PUNG), ("kong exposed", EXPOSED_KONG),
           ("kong concealed", CONCEALED_KONG), ("kong added", ADDED_KONG), ("face-up pung", FACE_UP_PUNG))
_KONG = {"exposed": EXPOSED_KONG, "concealed": CONCEALED_KONG, "added": ADDED_KONG}
_INDEX = {code: i for i, code in enumerate(CODES[:34])}
_PHASES = ("turn", "discard", "claim", "rob", "instant")


def action_id(phase: str, action: Mapping[str, Any]) -> int:
    """The id of one of a prompt's ``actions`` (a prompt of ``phase``).

    >>> action_id("claim", {"act": "chow", "tiles": "789s"}), action_id("turn", {"act": "discard", "tile": "5z"})
    (58, 32)
    """
    act = action.get("act")
    if act == "discard":
        return DISCARD + _INDEX[action["tile"]]
    if act == "pass":
        return PASS
    if act == "win":
        return WIN
    tiles = action["tiles"]
    low = _INDEX[tiles[0] + tiles[-1]]  # the lowest tile of a set written in one suit
    if act == "chow":
        return CHOW + low
    if act == "pung":
        return (FACE_UP_PUNG if phase == "turn" else PUNG) + low
    if act == "kong":
        return _KONG[action["kind"]] + low
    raise TableError(f"act = {shown(act)}: not an action of a prompt", "act", act)


def action_name(action: int) -> str:
    """What an action id means, in words: ``"chow 789s"``, ``"kong concealed 9999p"``, ``"win"``."""
    if type(action) is not int or not 0 <= action < N_ACTIONS:
        raise TableError(f"action = {shown(action)}: an action id from 0 to {N_ACTIONS - 1}", "action", action)
    if action == WIN:
        return "win"
    if action == PASS:
        return "pass"
    name, first = _BLOCKS[action // 34]
    i = action - first
    code = CODES[i]
    if name == "discard":
        return f"discard {code}"
    if name == "chow":
        return f"chow {CODES[i][0]}{int(code[0]) + 1}{int(code[0]) + 2}{code[1]}"
    n = 4 if name.startswith("kong") else 3
    return f"{name} {code[0] * n}{code[1]}"


def legal_actions(prompt: Mapping[str, Any]) -> list[int]:
    """The ids of a prompt's actions, in the prompt's order."""
    phase = prompt["phase"]
    return [action_id(phase, a) for a in prompt["actions"]]


def action_mask(prompt: Mapping[str, Any] | None) -> bytes:
    """``N_ACTIONS`` bytes, 1 where the prompt offers the action (all 0 for no prompt)."""
    mask = bytearray(N_ACTIONS)
    if prompt is not None:
        for i in legal_actions(prompt):
            mask[i] = 1
    return bytes(mask)


def action_to_decision(prompt: Mapping[str, Any], action: Any) -> dict[str, Any]:
    """The decision ``Table.submit`` takes for action id ``action`` on
    ``prompt``; an id the prompt does not offer raises a ``TableError``
    naming the seat and the action."""
    seat = prompt["seat"]
    ids = legal_actions(prompt)
    a = _as_id(action)
    if a is None or a not in ids:
        legal = ", ".join(f"{i} {action_name(i)}" for i in ids)
        what = "" if a is None or not 0 <= a < N_ACTIONS else f" ({action_name(a)})"
        raise TableError(f"actions.{seat} = {shown(action)}{what}: not legal for {seat} (legal: {legal})",
                         f"actions.{seat}", action)
    out = {"prompt": prompt["prompt"], "seat": seat}
    out.update(prompt["actions"][ids.index(a)])
    return out


def decision_to_action(prompt: Mapping[str, Any], decision: Mapping[str, Any]) -> int:
    """The action id of ``decision`` (one of ``prompt``'s actions, as a bot
    returns it); the inverse of ``action_to_decision``."""
    return action_id(prompt["phase"], decision)


def _as_id(action: Any) -> int | None:
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)  # an int, or numpy's integers
    except TypeError:
        return None


# ------------------------------------------------------------ observation

def _layout() -> tuple[tuple[str, int, int], ...]:
    sizes = (("hand", 34), ("drawn", 34), ("melds", 4 * 34), ("hidden_kongs", 4), ("ponds", 4 * 34),
             ("bonus", 4 * 8), ("held", 4), ("seat_wind", 4), ("round_wind", 4), ("live_left", 1),
             ("phase", 5), ("offered", 34), ("offered_from", 4))
    out, at = [], 0
    for name, size in sizes:
        out.append((name, at, size))
        at += size
    return tuple(out)


#: (name, offset, size) of each field of an observation vector (docs/env.md)
OBS_LAYOUT = _layout()
OBS_SIZE = OBS_LAYOUT[-1][1] + OBS_LAYOUT[-1][2]
_AT = {name: at for name, at, _ in OBS_LAYOUT}
_BONUS = {code: i for i, code in enumerate(("1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"))}
_SUIT_AT = {"m": 0, "p": 9, "s": 18, "z": 27}
_DIGIT = {str(d): d - 1 for d in range(1, 10)}


def _add_tiles(out: bytearray, at: int, text: str) -> None:
    """Count the tiles of ``text`` (the engine's notation: ``123m55z``) into ``out[at:at + 34]``."""
    base = at
    for ch in reversed(text):  # the suit letter follows its digits
        d = _DIGIT.get(ch)
        if d is None:
            base = at + _SUIT_AT[ch]
        else:
            out[base + d] += 1


def encode(view: Mapping[str, Any], prompt: Mapping[str, Any] | None = None) -> bytes:
    """A seat's observation vector (``OBS_SIZE`` bytes) from its ``view``
    and, when it is asked, its prompt (phase, the tile on offer and from
    whom). Seats are relative: the seat itself, then the next seat in play,
    the one opposite, the one before."""
    out = bytearray(OBS_SIZE)
    me = SEATS.index(view["seat"])
    order = [SEATS[(me + k) % 4] for k in range(4)]
    add = _add_tiles
    add(out, _AT["hand"], view["tiles"])
    if view["drawn"]:
        _add_tiles(out, _AT["drawn"], view["drawn"])
    for k, seat in enumerate(order):
        for m in view["melds"][seat]:
            if m["tiles"] is None:
                out[_AT["hidden_kongs"] + k] += 1
            else:
                add(out, _AT["melds"] + 34 * k, m["tiles"])
        pond = view["ponds"][seat]
        if pond:
            add(out, _AT["ponds"] + 34 * k, pond)
        bonus = view["bonus"][seat]
        if bonus:
            for code in _bonus_codes(bonus):
                out[_AT["bonus"] + 8 * k + _BONUS[code]] = 1
        out[_AT["held"] + k] = view["held"][seat]
    out[_AT["seat_wind"] + me] = 1
    out[_AT["round_wind"] + SEATS.index(view["round"])] = 1
    out[_AT["live_left"]] = min(255, view["live_left"])
    if prompt is not None:
        out[_AT["phase"] + _PHASES.index(prompt["phase"])] = 1
        if prompt.get("tile"):
            out[_AT["offered"] + _INDEX[prompt["tile"]]] = 1
            out[_AT["offered_from"] + (SEATS.index(prompt["from"]) - me) % 4] = 1
    return bytes(out)


def _bonus_codes(text: str) -> list[str]:
    """``"13f2g"`` -> ``["1f", "3f", "2g"]``."""
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch in "fg":
            out.extend(d + ch for d in digits)
            digits = ""
        else:
            digits += ch
    return out


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat observes: its ``prompt`` (GAME.md §8.4's JSON with its
    ``view``; None when the seat is not asked), the legal-action ``mask``
    (``N_ACTIONS`` bytes) and the numeric ``vector`` (``OBS_SIZE`` bytes)."""

    seat: str
    prompt: dict[str, Any] | None
    mask: bytes
    vector: bytes
    #: the legal action ids, in the prompt's order
    actions: tuple[int, ...] = ()

    def legal(self) -> list[int]:
        """The legal action ids, in the prompt's order."""
        return list(self.actions)

    def decision(self, action: int) -> dict[str, Any]:
        """The ``Table.submit`` decision for ``action`` (``action_to_decision``)."""
        if self.prompt is None:
            raise TableError(f"actions.{self.seat} = {shown(action)}: {self.seat} is not asked now",
                             f"actions.{self.seat}", action)
        return action_to_decision(self.prompt, action)


def observation(prompt: Mapping[str, Any]) -> Observation:
    """The observation of a prompt's seat (the prompt with its ``view``)."""
    p = dict(prompt)
    ids = legal_actions(p)
    mask = bytearray(N_ACTIONS)
    for i in ids:
        mask[i] = 1
    return Observation(p["seat"], p, bytes(mask), encode(p["view"], p), tuple(ids))


# -------------------------------------------------------------------- Env

class Env:
    """One hand of Hong Kong mahjong as a multi-agent environment, seats
    ``"E"``, ``"S"``, ``"W"``, ``"N"`` (docs/env.md).

    ``preset`` (a preset id, a path to a preset file, TOML text or a
    ``Preset``) is the default of
    ``reset``; ``seed`` seeds the generator that gives each ``reset`` without
    a seed its hand's seed (None: an unpredictable one).

    >>> env = Env("hk-classic")
    >>> obs = env.reset(seed=7)
    >>> list(obs), obs["E"].prompt["phase"], len(obs["E"].vector) == OBS_SIZE
    (['E'], 'turn', True)
    """

    def __init__(self, preset: str | Preset = "bga-old-style", seed: int | None = None) -> None:
        #: the preset of a ``reset`` that names none, and how its start records name it
        self.preset = given_preset(preset, "preset")
        self._ref = record_preset(self.preset)
        self._rng = random.Random(secrets.randbits(63) if seed is None else seed)
        self._table: Table | None = None
        self._prompts: list[dict[str, Any]] = []
        self._obs: dict[str, Observation] = {}

    @property
    def table(self) -> Table:
        """The hand in play (its ``log``, ``view(seat)``, ``copy()``...)."""
        if self._table is None:
            raise TableError("reset: no hand yet; call reset() first", "reset", None)
        return self._table

    @property
    def done(self) -> bool:
        """True once the hand is over (and before the first ``reset``)."""
        return self._table is None or self._table.over

    def reset(self, seed: int | None = None, preset: str | Preset | None = None, *,
              start: Mapping[str, Any] | None = None) -> dict[str, Observation]:
        """Deal a new hand and return the observations of the seats that must
        act. The hand is dealt from ``seed`` under ``preset`` (the env's own
        by default), or is the ``start`` record given (an explicit deal, as
        ``Table`` takes it; then neither ``seed`` nor ``preset``)."""
        if start is not None:
            if seed is not None or preset is not None:
                raise TableError("reset: give a start record, or a seed and a preset, not both", "start", None)
            table = Table(start)
        else:
            if seed is None:
                seed = self._rng.randrange(MAX_SEED + 1)
            else:
                self._rng.seed(check_seed(seed))
            p = self.preset if preset is None else given_preset(preset, "preset")
            ref = self._ref if p is self.preset else record_preset(p)
            table = Table({"event": "start", "preset": ref, "seed": seed}, p)
        self._table = table
        return self._observe()

    def step(self, actions: Mapping[str, Any]) -> tuple[dict[str, Observation], dict[str, int], bool,
                                                         dict[str, Any]]:
        """Every seat that must act answers with an action id; returns
        ``(observations, rewards, done, info)``: the observations of the seats
        that must act next (none once the hand is over), each seat's reward
        for this step, whether the hand is over, and ``info["records"]``, the
        records the step added to the log. Checked before anything is
        played: a seat missing or not asked, or an action not legal, raises
        a ``TableError`` and the hand stays as it was."""
        table = self.table
        if table.over:
            raise TableError("actions: the hand is over; call reset()", "actions", None)
        if not isinstance(actions, Mapping):
            raise TableError(f"actions = {shown(actions)}: a mapping of seat to action id", "actions", actions)
        asked = [p["seat"] for p in self._prompts]
        for seat in actions:
            if seat not in asked:
                raise TableError(f"actions.{seat} = {shown(actions[seat])}: {shown(seat)} is not asked now "
                                 f"(asked: {', '.join(asked)})", f"actions.{seat}", actions[seat])
        missing = [s for s in asked if s not in actions]
        if missing:
            raise TableError(f"actions: no action for {', '.join(missing)} (asked: {', '.join(asked)})",
                             "actions", dict(actions))
        decisions = [self._decision(p, actions[p["seat"]]) for p in self._prompts]
        number = self._prompts[0]["prompt"]
        before = len(table.log)
        for d in decisions:
            table.submit(d)
            if table.over or table._prompt_no != number:
                break  # the window resolved: the answers still to come cannot change it
        records = table.log[before:]
        rewards = dict.fromkeys(SEATS, 0)
        for r in records:
            if r["event"] == "win":
                if r["payments"] is not None:
                    for s in SEATS:
                        rewards[s] += r["payments"][s]
                else:  # a faan ledger: the winner is credited its faan
                    rewards[r["seat"]] += r["faan"]
        return self._observe(), rewards, table.over, {"records": records}

    def observe(self, seat: str) -> Observation:
        """``seat``'s observation now, asked or not (not asked: no prompt, a
        mask of zeros, a vector without phase or offered tile)."""
        if seat in self._obs:
            return self._obs[seat]
        view = self.table.view(seat)
        return Observation(seat, None, bytes(N_ACTIONS), encode(view))

    def _decision(self, prompt: dict[str, Any], action: Any) -> dict[str, Any]:
        ids = self._obs[prompt["seat"]].actions
        if type(action) is int and action in ids:  # the common case, without building the ids again
            out = {"prompt": prompt["prompt"], "seat": prompt["seat"]}
            out.update(prompt["actions"][ids.index(action)])
            return out
        return action_to_decision(prompt, action)

    def _observe(self) -> dict[str, Observation]:
        self._prompts = self.table.prompts()
        self._obs = {p["seat"]: observation(p) for p in self._prompts}
        return dict(self._obs)
