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


_TILE = tuple(f"{n}{suit}" for suit in "mps" for n in range(1, 10)) + tuple(f"{n}z" for n in range(1, 8))
_BONUS = ("1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g")
_WHO = ("you", "next", "opposite", "previous")
_KINDS = ("", "chow", "pung", "kong")


def _tiles_text(counts: Sequence[float]) -> str:
    return " ".join(_TILE[t] for t in range(34) for _ in range(int(counts[t]))) or "-"


def describe(obs: Sequence[float], mask: Sequence[int]) -> str:
    """The seat's observation and legal actions in words (a few lines of text): what ``render()`` shows. Read
    from the observation alone, it shows nothing the seat may not see."""
    from hkcore.table.env import action_name

    def field(name: str) -> Sequence[float]:
        size = next(size for n, size, _what in FIELDS if n == name)
        return obs[OFFSET[name]:OFFSET[name] + size]

    winds = "ESWN"
    seat = winds[[int(x) for x in field("seat_wind")].index(1)]
    phase = ("turn", "discard", "claim", "rob", "instant")[[int(x) for x in field("phase")].index(1)] \
        if any(field("phase")) else "-"
    lines = [f"seat {seat}, round {winds[[int(x) for x in field('round_wind')].index(1)]}, "
             f"{int(field('live_left')[0])} tiles left in the wall; asked: {phase}"]
    drawn = [t for t in range(34) if field("drawn")[t]]
    lines.append(f"  hand: {_tiles_text(field('hand'))}" + (f" (drew {_TILE[drawn[0]]})" if drawn else ""))
    if any(field("offered")):
        t = next(t for t in range(34) if field("offered")[t])
        who = _WHO[[int(x) for x in field("offered_from")].index(1)]
        lines.append(f"  offered: {_TILE[t]} from {who}")
    melds, discards, bonus = field("melds"), field("discards"), field("bonus")
    for j, who in enumerate(_WHO):
        sets = []
        for m in range(4):
            kind, low, concealed, _src = (int(x) for x in melds[(j * 4 + m) * 4:(j * 4 + m) * 4 + 4])
            if kind:
                tile = _TILE[low - 1] if low else "?"
                text = (f"{tile[0]}{int(tile[0]) + 1}{int(tile[0]) + 2}{tile[1]}" if kind == 1 else
                        tile[0] * (4 if kind == 3 else 3) + tile[1] if low else "????")
                sets.append(f"{_KINDS[kind]} {text}" + (" (concealed)" if concealed else ""))
        pond = [_TILE[int(discards[(j * MAX_DISCARDS + d) * 3]) - 1]
                + ("*" if discards[(j * MAX_DISCARDS + d) * 3 + 1] else "")
                for d in range(MAX_DISCARDS) if discards[(j * MAX_DISCARDS + d) * 3]]
        flowers = [_BONUS[b] for b in range(8) if bonus[j * 8 + b]]
        lines.append(f"  {who}: sets [{', '.join(sets)}] bonus [{' '.join(flowers)}] "
                     f"discards [{' '.join(pond)}] (* claimed)")
    lines.append("  legal: " + ", ".join(action_name(a) for a in range(len(mask)) if mask[a]))
    return "\n".join(lines)


#: by engine action code and tile (code * 34 + tile), the action id (what the compiled core reads)
ACTION_OF = tuple(code_action(c, t if c not in (_codes.WIN, _codes.PASS) else 0)
                  for c in range(9) for t in range(34))

__all__ = ["ACTION_OF", "FIELDS", "MAX_DISCARDS", "N_ACTIONS", "OBS_SIZE", "OFFSET", "PHASE_SLOT", "RULE_FLAGS",
           "SCHEMES", "code_action", "describe", "hand_rewards", "preset_features"]
