"""The ``start`` record of a hand: read, checked field by field, and turned
into the dealt hands and the wall (docs/table.md, "Records")."""
from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hkcore.errors import TableError, TileError, shown
from hkcore.preset import Preset, PresetError, builtin_ids, export_toml, load_preset, store, toml_data
from hkcore.table.commitment import check_salt, commitment
from hkcore.table.flow.engine import canonical, codes, deal, seeded_shuffle
from hkcore.table.flow.wall import BONUS, SEATS, one_by_one, tile_set
from hkcore.tiles import parse_tiles

#: the longest player name, and the largest seed, a start record may give
MAX_NAME = 40
MAX_SEED = 2**63
#: the fields a start record may have
START_FIELDS = ("event", "preset", "hand", "round", "seats", "points", "seed", "hands", "live", "dead", "salt",
                "commitment")


def _seeded(*parts: Any) -> int:
    """A seed from ``parts`` (a stable hash, the same on every machine and Python)."""
    digest = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % MAX_SEED


def check_seed(seed: Any) -> int:
    """``seed`` where it is a whole number 0..``MAX_SEED``; else a ``TableError`` naming it."""
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise TableError(f"seed = {shown(seed)}: a whole number from 0 to {MAX_SEED}", "seed", seed)
    return seed


def wall_seed(seed: int, k: int) -> int:
    """The seed of wall ``k`` of a run seeded ``seed`` (a simulation's, an arena's, a learning environment's
    episode ``k``): the ``seed`` of its start records."""
    return _seeded("wall", seed, k)


def bot_seed(seed: int, k: int, rotation: int, seat: str) -> int:
    """The seed of the bot at ``seat`` on wall ``k`` in ``rotation`` (of a run seeded ``seed``)."""
    return _seeded("bot", seed, k, rotation, seat)


@dataclass(frozen=True)
class Deal:
    """A hand ready to play: the preset, the record as the engine writes it,
    the four dealt hands (tile indices, E first) and the wall in draw order
    with the number of tiles it reserves at the back."""

    preset: Preset
    record: dict[str, Any]
    hands: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    #: E's last hand tile as ``hands.E`` is written (G15) where the deal knows it without reading the text
    #: (a seeded deal writes it sorted: the highest), else -1
    e_last: int = -1


def default_seats() -> dict[str, str]:
    """The players of a first hand when a start record names none."""
    return {"E": "p1", "S": "p2", "W": "p3", "N": "p4"}


def resolve_preset(ref: Any, field: str = "start.preset") -> Preset:
    """A start record's preset: a built-in id, or TOML text that extends only
    built-in presets (a record never names a file)."""
    if isinstance(ref, Preset):
        return ref
    if not isinstance(ref, str) or not ref:
        raise TableError(f"{field} = {shown(ref)}: a preset id or preset TOML text", field, ref)
    try:
        if "\n" in ref or "=" in ref:
            parent = toml_data(ref).get("extends")
            if parent is not None and parent not in store().builtins:
                raise TableError(f"{field}: extends = {shown(parent)}: a preset in a record extends a built-in "
                                 f"preset ({', '.join(builtin_ids())})", field, parent)
            return load_preset(ref)
        if ref not in store().builtins:  # the store's own list: no folder read for each record
            raise TableError(f"{field} = {shown(ref)}: not a built-in preset ({', '.join(builtin_ids())}); give "
                             "other presets as TOML text", field, ref)
        return load_preset(ref)
    except PresetError as exc:
        raise TableError(f"{field}: {exc}", field, ref) from None


#: what a caller may give for a preset, as its errors say
ACCEPTED = "a preset id, a path to a preset file, TOML text, or a Preset from load_preset"


def given_preset(ref: Any, field: str = "preset") -> Preset:
    """A preset as ``hkcore.score`` takes one (a ``Preset``, a built-in id, a
    path to a preset file, TOML text), for ``Table``, ``Match`` and ``Env``; a
    TableError naming ``field`` and showing the value otherwise."""
    if isinstance(ref, Preset):
        return ref
    if not isinstance(ref, str) or not ref:
        raise TableError(f"{field} = {shown(ref)}: {ACCEPTED}", field, ref)
    try:
        return load_preset(ref)
    except PresetError as exc:
        toml = "\n" in ref or "=" in ref  # read as TOML: the error is in the text, not in what was given
        raise TableError(f"{field} = {shown(ref)}: {exc}" + ("" if toml else f" ({ACCEPTED})"), field,
                         ref) from None


def record_preset(preset: Preset) -> str:
    """What a start record names as its preset (the one writer of it): a
    built-in preset's id, any other preset as its resolved TOML
    (``export_toml``), so that the record replays anywhere without a file."""
    builtin = store().builtins.get(preset.id)
    if builtin is preset or (isinstance(builtin, Preset) and builtin == preset):
        return preset.id
    return export_toml(preset)


def _int(record: Mapping[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = record.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise TableError(f"start.{key} = {shown(value)}: a whole number from {low} to {high}", f"start.{key}",
                         value)
    return value


def _tiles(value: Any, field: str, ordered: bool) -> list[int]:
    if not isinstance(value, str):
        raise TableError(f"{field} = {shown(value)}: tiles as a string in hkcore's notation", field, value)
    try:
        return one_by_one(value) if ordered else [t.index for t in parse_tiles(value)]
    except TileError as exc:
        raise TableError(f"{field} = {shown(value)}: {exc}", field, value) from None


def read_start(record: Any, preset: Preset | None = None) -> Deal:
    """A start record checked and dealt; a TableError names the field. With
    ``preset``, the hand is played under it, and the record written names it
    by ``record_preset`` (unless its own ``preset`` is TOML text)."""
    if not isinstance(record, Mapping):
        raise TableError(f"start: a JSON object, not {shown(record)}", "start", record)
    if record.get("event") != "start":
        raise TableError(f"start.event = {shown(record.get('event'))}: a hand begins with a start record",
                         "start.event", record.get("event"))
    for key in record:
        if key not in START_FIELDS:
            raise TableError(f"start.{shown(key)}: not a field of a start record ({', '.join(START_FIELDS)})",
                             f"start.{key}", key)
    p = preset if preset is not None else resolve_preset(record.get("preset"))
    hand = _int(record, "hand", 1, 1_000_000, 1)
    wind = record.get("round", "E")
    if wind not in SEATS:
        raise TableError(f"start.round = {shown(wind)}: a wind (E, S, W or N)", "start.round", wind)
    seats = record.get("seats", default_seats())
    if not isinstance(seats, Mapping) or sorted(seats) != sorted(SEATS):
        raise TableError(f"start.seats = {shown(seats)}: the player in each seat, E, S, W and N", "start.seats",
                         seats)
    for s in SEATS:
        name = seats[s]
        if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or not name.isprintable():
            raise TableError(f"start.seats.{s} = {shown(name)}: a player's name (1 to {MAX_NAME} printable "
                             "characters)", f"start.seats.{s}", name)
    if len(set(seats.values())) != 4:
        raise TableError(f"start.seats = {shown(dict(seats))}: four different players", "start.seats", seats)
    ledger = p.table.start_points is None
    default_points = None if ledger else {s: p.table.start_points for s in SEATS}
    points = record.get("points", default_points)
    if ledger:
        if points is not None:
            raise TableError(f"start.points = {shown(points)}: preset {p.id!r} keeps a faan ledger (no payments): "
                             "points is null", "start.points", points)
    else:
        if not isinstance(points, Mapping) or sorted(points) != sorted(SEATS):
            raise TableError(f"start.points = {shown(points)}: each seat's points (E, S, W, N)", "start.points",
                             points)
        for s in SEATS:
            v = points[s]
            if type(v) is not int or abs(v) > 10**12:
                raise TableError(f"start.points.{s} = {shown(v)}: a whole number of points", f"start.points.{s}", v)
    name = record.get("preset")
    if preset is not None and not (isinstance(name, str) and ("\n" in name or "=" in name)):
        name = record_preset(preset)  # TOML text the caller gave for it stays as given
    out: dict[str, Any] = {"event": "start", "preset": name, "hand": hand, "round": wind,
                           "seats": {s: seats[s] for s in SEATS},
                           "points": None if points is None else {s: points[s] for s in SEATS}}
    full = tile_set(p.bonus_tiles)
    reserve = p.table.dead_wall
    salt = None
    if "salt" in record:
        salt = check_salt(record["salt"])
    elif "commitment" in record:
        raise TableError(f"start.commitment = {shown(record['commitment'])}: a commitment is given with the salt "
                         "it was made with (start.salt)", "start.commitment", record["commitment"])
    if "seed" in record:
        seed = _int(record, "seed", 0, MAX_SEED)
        out["seed"] = seed
        found = dealt(p, out, seeded_shuffle(full, seed), salt)
        for key in ("hands", "live", "dead"):  # a record the engine wrote from a seed gives both: they must agree
            if key in record and not _same(record[key], found.record[key], key):
                raise TableError(f"start.{key} = {shown(record[key])}: not what seed {seed} deals under preset "
                                 f"{p.id!r}", f"start.{key}", record[key])
    else:
        found = _explicit(p, record, out, full, reserve, salt)
    if "commitment" in record and record["commitment"] != found.record["commitment"]:
        raise TableError(f"start.commitment = {shown(record['commitment'])}: not the commitment of this deal and "
                         f"salt ({found.record['commitment']})", "start.commitment", record["commitment"])
    return found


def first_deal(p: Preset, seed: int, ref: str | None = None) -> Deal:
    """The deal ``read_start`` makes of ``{"event": "start", "preset": ref, "hand": 1, "round": "E", "seed":
    seed}`` under ``p`` (``ref``: ``record_preset(p)`` if None), unchecked: for a caller that made both."""
    out: dict[str, Any] = {"event": "start", "preset": record_preset(p) if ref is None else ref, "hand": 1,
                           "round": "E", "seats": default_seats(),
                           "points": None if p.table.start_points is None else
                           {s: p.table.start_points for s in SEATS}, "seed": seed}
    return dealt(p, out, seeded_shuffle(tile_set(p.bonus_tiles), seed), None)


def _same(given: Any, dealt_: Any, key: str) -> bool:
    if key == "hands":
        if not isinstance(given, Mapping) or sorted(given) != sorted(SEATS):
            return False
        return all(sorted(_tiles(given[s], f"start.hands.{s}", False)) == sorted(
            _tiles(dealt_[s], f"start.hands.{s}", False)) for s in SEATS)
    return _tiles(given, f"start.{key}", True) == _tiles(dealt_, f"start.{key}", True)


def dealt(p: Preset, out: dict[str, Any], shuffled: list[int], salt: str | None = None) -> Deal:
    """A seeded deal: the hands and the wall from a shuffled set; the record
    gains ``hands``, ``live`` and ``dead`` so that it replays alone, and with
    a ``salt`` (``hkcore.table.commitment``) the salt and the deal's
    ``commitment``."""
    hands, wall = deal(shuffled)
    reserve = p.table.dead_wall
    out["hands"] = {s: canonical(h) for s, h in zip(SEATS, hands)}
    out["live"] = codes(wall[:len(wall) - reserve])
    out["dead"] = codes(wall[len(wall) - reserve:][::-1])
    _commit(out, salt)
    return Deal(p, out, tuple(map(tuple, hands)), tuple(wall), max([i for i in hands[0] if i < BONUS]))


def _commit(out: dict[str, Any], salt: str | None) -> None:
    if salt is not None:
        out["salt"] = salt
        out["commitment"] = commitment(out)


def _explicit(p: Preset, record: Mapping[str, Any], out: dict[str, Any], full: list[int], reserve: int,
              salt: str | None = None) -> Deal:
    given = record.get("hands")
    if not isinstance(given, Mapping) or sorted(given) != sorted(SEATS):
        raise TableError(f"start.hands = {shown(given)}: the tiles dealt to each seat (E, S, W, N), or a seed",
                         "start.hands", given)
    left = [0] * 42
    for i in full:
        left[i] += 1
    hands: list[list[int]] = []
    for s in SEATS:
        field = f"start.hands.{s}"
        found = _tiles(given[s], field, False)
        size = 14 if s == "E" else 13
        if len(found) != size:
            raise TableError(f"{field} = {shown(given[s])}: {len(found)} tiles; {s} is dealt {size}", field,
                             given[s])
        hands.append(found)
        _use(found, left, field, given[s], p)
    live = _tiles(record.get("live", ""), "start.live", True)
    dead = _tiles(record.get("dead", ""), "start.dead", True)
    _use(live, left, "start.live", record.get("live"), p)
    _use(dead, left, "start.dead", record.get("dead"), p)
    if dead and p.table.replacement == "front":
        raise TableError(f"start.dead = {shown(record.get('dead'))}: preset {p.id!r} draws replacements from the "
                         "front; dead must be empty", "start.dead", record.get("dead"))
    filler = [i for i in range(42) for _ in range(left[i])]
    wall = live + filler + dead[::-1]
    if len(dead) > len(wall) or reserve > len(wall):
        raise TableError("start.dead: more tiles than the wall holds", "start.dead", record.get("dead"))
    out["hands"] = {s: given[s] for s in SEATS}
    out["live"] = record.get("live", "")
    out["dead"] = record.get("dead", "")
    _commit(out, salt)
    return Deal(p, out, tuple(tuple(h) for h in hands), tuple(wall))


def _use(found: list[int], left: list[int], field: str, value: Any, p: Preset) -> None:
    for i in found:
        if i >= BONUS and not p.bonus_tiles:
            raise TableError(f"{field} = {shown(value)}: preset {p.id!r} plays {p.tiles} tiles without bonus "
                             "tiles", field, value)
        if left[i] == 0:
            raise TableError(f"{field} = {shown(value)}: more copies of a tile than the set holds, counting the "
                             "fields before it", field, value)
        left[i] -= 1


__all__ = ["ACCEPTED", "Deal", "dealt", "default_seats", "given_preset", "read_start", "record_preset",
           "resolve_preset"]
