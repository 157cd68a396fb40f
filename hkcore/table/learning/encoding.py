"""The fixed encoding of a seat's observation, the action ids, a preset's
features and a hand's rewards: what ``VecEnv`` writes, in one place (both of
its cores read their offsets from here). docs/training.md, "The observation",
lists the fields.

Every field is seen from the acting seat: seat blocks run *self, next (the
seat on its right, who plays after it), opposite, previous*. Tiles are the
34 indices 1m .. 9m, 1p .. 9p, 1s .. 9s, E S W N, C F P (0 .. 33); a field
that holds a tile holds its index + 1 (0: none), for an embedding.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkcore.preset import Preset
from hkcore.table.env import (
    ADDED_KONG,
    CHOW,
    CONCEALED_KONG,
    DISCARD,
    EXPOSED_KONG,
    FACE_UP_PUNG,
    N_ACTIONS,
    PASS,
    PUNG,
    WIN as WIN_ID,
)
from hkcore.table.flow import codes as _codes
from hkcore.table.rotation import zero_sum

#: the discards of each seat kept in order (a seat has never been seen to make more than 40 in a hand; later
#: ones are not written)
MAX_DISCARDS = 40
#: the payment schemes told apart (a scheme of a plugin's is "other")
SCHEMES = ("ledger", "base_points", "faan_table", "points", "other")
#: the preset's rule flags, in the order ``EngineRules.flags()`` gives them
RULE_FLAGS = ("concealed_kong", "added_kong", "kong_tile_drawn_only", "self_pung", "last_discard_any",
              "swap_rule", "robbing", "multiple_winners", "instant_wins", "thirteen_orphans", "extra_shapes",
              "replacement_from_front")

#: (name, size, what it holds), in order
FIELDS: tuple[tuple[str, int, str], ...] = (
    ("hand", 34, "copies of each tile in the seat's concealed hand, the drawn tile included"),
    ("drawn", 34, "1 at the tile just drawn (a turn after a draw)"),
    ("shown", 4 * 34, "by seat: copies of each tile in its declared sets that the seat sees"),
    ("melds", 4 * 4 * 4, "by seat, its declared sets in order, each: kind (1 chow, 2 pung, 3 kong), lowest tile "
                         "+ 1 (0: a concealed kong not shown), concealed (1), from whom (seat + 1; 0: its own)"),
    ("discards", 4 * MAX_DISCARDS * 3, "by seat, its discards in order, each: tile + 1, claimed (1), "
                                       "drawn then discarded (1)"),
    ("bonus", 4 * 8, "by seat: 1 for each bonus tile set aside (1-4 flowers, 1-4 seasons)"),
    ("unseen", 34, "copies of each tile the seat has not seen"),
    ("live_left", 1, "tiles the live wall still holds"),
    ("seat_wind", 4, "1 at the seat's wind (E S W N)"),
    ("round_wind", 4, "1 at the round's wind"),
    ("dealer", 4, "1 at the dealer's seat"),
    ("phase", 5, "1 at the prompt's phase: turn, discard (after a claim), claim, rob, instant"),
    ("offered", 34, "1 at the tile offered to claim or rob"),
    ("offered_from", 4, "1 at the seat that offered it"),
    ("points", 4, "by seat: what it has won in the episode so far, in the preset's unit"),
    ("preset", 8 + len(SCHEMES) + len(RULE_FLAGS), "the preset: minimum faan, cap (0: none), limit faan of the "
                                                  "scheme's table, 136 tiles (1), bonus tiles (1), dead wall, "
                                                  "liability (1), seven pairs (1); payment scheme one-hot ("
                                                  + ", ".join(SCHEMES) + "); rule flags ("
                                                  + ", ".join(RULE_FLAGS) + ")"),
)


def _offsets() -> dict[str, int]:
    out, at = {}, 0
    for name, size, _what in FIELDS:
        out[name] = at
        at += size
    return out


#: where each field starts
OFFSET: Mapping[str, int] = _offsets()
#: the observation's length (float32)
OBS_SIZE = sum(size for _name, size, _what in FIELDS)
#: the phases the ``phase`` field tells apart, by engine phase code
PHASE_SLOT = {_codes.TURN: 0, _codes.DISCARD_ONLY: 1, _codes.CLAIM: 2, _codes.ROB: 3, _codes.INSTANT: 4}

#: by engine action code, the first action id of its block (+ the action's tile); WIN and PASS take none
_BLOCK = {_codes.DISCARD: DISCARD, _codes.CHOW: CHOW, _codes.PUNG: PUNG, _codes.EXPOSED: EXPOSED_KONG,
          _codes.CONCEALED: CONCEALED_KONG, _codes.ADDED: ADDED_KONG, _codes.SELF_PUNG: FACE_UP_PUNG}


def code_action(code: int, tile: int) -> int:
    """The action id (``hkcore.table.env``'s space of ``N_ACTIONS``) of an engine action ``code`` on
    ``tile`` (a set's lowest tile)."""
    if code == _codes.WIN:
        return WIN_ID
    if code == _codes.PASS:
        return PASS
    return _BLOCK[code] + tile


def preset_features(preset: Preset, rule_flags: Sequence[int]) -> list[float]:
    """The ``preset`` field's values for ``preset``, whose ``EngineRules.flags()`` are ``rule_flags``."""
    pay = preset.payments
    scheme = "ledger" if not pay else str(pay["scheme"])
    table = pay.get("table") if pay else None
    limit = 0.0
    if pay and scheme == "faan_table" and table:
        limit = float(int(pay.get("first_faan", 0)) + len(table) - 1)
    elif pay and scheme == "base_points" and table:
        limit = float(len(table) - 1)
    out = [float(preset.minimum), float(preset.cap or 0), limit, float(preset.tiles == 136),
           float(bool(preset.bonus_tiles)), float(preset.table.dead_wall), float("liability" in preset.plugins),
           float("seven_pairs" in preset.shapes)]
    out += [float(scheme == s or (s == "other" and scheme not in SCHEMES)) for s in SCHEMES]
    out += [float(f) for f in rule_flags]
    return out


def hand_rewards(log: Sequence[Mapping[str, Any]]) -> list[float]:
    """By seat (E S W N), what a finished hand pays each: its ``delta``, or under a faan ledger (no delta) the
    zero-sum measure (``hkcore.table.rotation.zero_sum``)."""
    end = log[-1]
    if end["event"] != "end_hand":
        end = next(x for x in reversed(log) if x["event"] == "end_hand")
    if end["delta"] is not None:
        return [float(end["delta"][s]) for s in ("E", "S", "W", "N")]
    return zero_sum(log)


#: by engine action code and tile (code * 34 + tile), the action id (what the compiled core reads)
ACTION_OF = tuple(code_action(c, t if c not in (_codes.WIN, _codes.PASS) else 0)
                  for c in range(9) for t in range(34))

__all__ = ["ACTION_OF", "FIELDS", "MAX_DISCARDS", "N_ACTIONS", "OBS_SIZE", "OFFSET", "PHASE_SLOT", "RULE_FLAGS",
           "SCHEMES", "code_action", "hand_rewards", "preset_features"]
