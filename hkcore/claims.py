"""Claims on a discard: what a waiting hand may claim, and who gets the tile.

When a player discards, each other player may claim the tile for a set or a
win (seeds: Mistboard "Claiming a discard", Just Cards "Claiming a discard"
and "Four matching tiles", the Hong Kong reference, PlayingCards.io):

- a chow (run of three in one numbered suit) only by the seat right after
  the discarder (turn order E -> S -> W -> N -> E);
- a pung with two copies in hand, a kong with three, by any other seat;
- a win when the hand plus the discard is complete and may be declared under
  the preset (its minimum, its shapes);
- while another player adds a tile to an exposed pung (an added kong), or
  declares a concealed kong, only a win may be claimed on that tile: robbing
  the kong, as the preset's ``[claims] robbing_kong`` allows (docs/rules.md ruling 13).

Priority: a win beats a pung or kong, which beat a chow; between equal
claims the seat nearest after the discarder gets the tile, unless the preset
lets several players win on one discard (``multiple_winners``).

Under the swap rule (``swap_rule``, Just Cards: "You cannot immediately
discard an equivalent tile to exchange that claimed group") a chow or pung
carries the tiles its claimant may not discard at once.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import islice
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError, field_validator, model_validator

from hkcore.engine import score
from hkcore.errors import HandError, TileError, shown
from hkcore.models import Position, Seat, canonical_tiles, context_error as _err, hand_error
from hkcore.preset import Preset, load_preset
from hkcore.results import ScoreResult
from hkcore.tiles import SEATS, TILES, Tile, format_tiles, parse_tiles, tile
from hkcore.values import Value

__all__ = ["Claim", "ClaimKind", "Robbing", "leaves_a_discard", "legal_claims", "may_discard", "priority",
           "resolve_claims", "set_claims"]

ClaimKind = Literal["chow", "pung", "kong", "win"]
Robbing = Literal["added", "concealed"]

#: rank of each kind of claim: lower wins (a pung and a kong rank the same)
_RANK = {"win": 0, "kong": 1, "pung": 1, "chow": 2}
#: order of the list legal_claims returns
_LIST_ORDER = {"win": 0, "kong": 1, "pung": 2, "chow": 3}


def _hand_tile(value: Any, field: str) -> Tile:
    """The tile named by ``value``, a tile of the hand (not a flower or season);
    otherwise a HandError naming ``field``."""
    try:
        t = tile(value)
    except TileError as exc:
        raise HandError(f"{field} = {shown(value)}: {exc}", field, value) from None
    if t.is_bonus:
        raise HandError(f"{field} = {shown(value)}: {t.code} is a bonus tile; bonus tiles are never discarded",
                        field, value)
    return t


def _seat(value: Any, field: str) -> str:
    if value not in SEATS:
        raise HandError(f"{field} = {shown(value)}: not a seat (E, S, W or N)", field, value)
    seat: str = value
    return seat


def _next_seat(seat: str) -> str:
    """The seat that plays after ``seat`` (E -> S -> W -> N -> E)."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def priority(kind: str, seat: str, discarder: str) -> tuple[int, int]:
    """The order of claims on one discard, lowest first: a win, then a pung or
    kong, then a chow; between equals, the seat nearest after the discarder."""
    return _RANK[kind], _distance(seat, discarder)


def _distance(seat: str, discarder: str) -> int:
    """How many seats after the discarder ``seat`` plays: 1 (next) .. 3."""
    return (SEATS.index(seat) - SEATS.index(discarder)) % 4


class Claim(Value):
    """One claim a seat may make on a discard (or on a tile being added to a kong).

    ``tiles`` is the set the claim makes, discard included, in canonical
    notation (``"456m"``, ``"555z"``, ``"5555z"``); for a win it is the winning
    tile. ``robbing`` says whether a win robs a kong (``"added"`` or
    ``"concealed"``). ``forbidden_discards`` are the tiles the claimant may not
    discard at once under the swap rule (empty otherwise, and always for a
    kong or a win). ``result`` is the scored hand of a win.

    Construct it directly (pydantic errors) or with :meth:`parse` (HandError
    naming the field).
    """

    seat: Seat
    kind: ClaimKind
    tiles: str
    discard: str
    robbing: Robbing | None = None
    forbidden_discards: tuple[str, ...] = ()
    result: ScoreResult | None = None

    @field_validator("discard")
    @classmethod
    def _one_tile(cls, value: str) -> str:
        try:
            return _hand_tile(value, "discard").code
        except HandError as exc:
            raise ValueError(str(exc).split(": ", 1)[-1]) from None

    _canonical = field_validator("tiles")(lambda cls, value: canonical_tiles(value))

    @field_validator("forbidden_discards")
    @classmethod
    def _codes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        try:
            return tuple(_hand_tile(v, "forbidden_discards").code for v in value)
        except HandError as exc:
            raise ValueError(str(exc).split(": ", 1)[-1]) from None

    @model_validator(mode="after")
    def _consistent(self) -> Claim:
        d = tile(self.discard)
        found = parse_tiles(self.tiles)
        if self.kind == "win":
            if found != [d]:
                raise _err("tiles", self.tiles, f"a win's tiles are the winning tile {d.code}")
        elif self.kind in ("pung", "kong"):
            size = 3 if self.kind == "pung" else 4
            if found != [d] * size:
                raise _err("tiles", self.tiles, f"a {self.kind} of {d.code} is {str(d.number) * size}{d.suit}")
        else:
            idx = sorted(t.index for t in found)
            if (len(idx) != 3 or not found[0].is_suited or len({t.suit for t in found}) != 1
                    or idx != list(range(idx[0], idx[0] + 3)) or d not in found):
                raise _err("tiles", self.tiles, f"not a run of three in one numbered suit holding {d.code}")
        if self.robbing is not None and self.kind != "win":
            raise _err("robbing", self.robbing, f"only a win robs a kong, not a {self.kind}")
        if self.forbidden_discards and self.kind not in ("chow", "pung"):
            raise _err("forbidden_discards", list(self.forbidden_discards),
                       f"only a chow or pung has forbidden discards, not a {self.kind}")
        if self.result is not None and self.kind != "win":
            raise _err("result", type(self.result).__name__, f"only a win has a result, not a {self.kind}")
        return self

    def __hash__(self) -> int:  # the result (its patterns a list) is left out of the hash
        return hash((self.seat, self.kind, self.tiles, self.discard, self.robbing, self.forbidden_discards))

    @classmethod
    def parse(cls, data: Any) -> Claim:
        """A ``Claim`` from a dict or a Claim; errors are HandError naming the field."""
        if isinstance(data, Claim):
            return data
        if not isinstance(data, dict):
            raise HandError(f"claim: expected a dict or Claim, got {type(data).__name__}", "claim", data)
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            raise hand_error(exc) from None


def legal_claims(hand: Any, discard: str, discarder: str, preset: str | Path | Preset = "bga-old-style", *,
                 kong: Literal["added", "concealed"] | None = None, last_tile: bool = False) -> list[Claim]:
    """Every claim the hand's seat may make on ``discard`` thrown by ``discarder``.

    ``hand`` is a waiting position (13 - 3k concealed tiles; a ``Position``, a
    dict or notation). ``kong="added"``: the tile is being added to another
    player's exposed pung; ``kong="concealed"``: another player declares a
    concealed kong of it. Then only a win (robbing the kong) may be claimed, as
    the preset's ``robbing_kong`` allows; a concealed kong only by thirteen
    orphans. ``last_tile``: the discard is the last of the hand (scored as such;
    then only a win may be claimed, unless the preset's ``[table]
    last_discard`` is ``"any"``). Under the swap rule a chow or pung that
    would leave the claimant nothing to discard is not offered.

    The list: the win first, then a kong, a pung, then chows by lowest tile.
    Errors (HandError naming the field): a position not waiting (``tiles``), a
    discarder who is the hand's own seat or not a seat (``discarder``), a
    discard that is not a tile of the hand or would be a fifth copy
    (``discard``), a bonus tile under a preset without them
    (``flowers``/``seasons``), an unknown ``kong``, ``last_tile`` with ``kong``.
    """
    pos = Position.parse(hand)
    p = load_preset(preset)
    if not pos.waiting_size:
        n = sum(pos.counts) + 3 * len(pos.melds)
        raise HandError(f"tiles = {shown(pos.tiles)}: {n} tiles with each declared set as three; a hand waiting "
                        "for a discard has 13", "tiles", pos.tiles)
    _seat(discarder, "discarder")
    if discarder == pos.seat_wind:
        raise HandError(f"discarder = {shown(discarder)}: is the hand's own seat ({pos.seat_wind}); "
                        "a player cannot claim their own discard", "discarder", discarder)
    if kong not in (None, "added", "concealed"):
        raise HandError(f"kong = {shown(kong)}: not None, 'added' or 'concealed'", "kong", kong)
    if type(last_tile) is not bool:
        raise HandError(f"last_tile = {shown(last_tile)}: not true or false", "last_tile", last_tile)
    if kong is not None and last_tile:
        raise HandError("last_tile = True: a kong is not declared on the last discard (a robbed kong is "
                        "never the last tile)", "last_tile", last_tile)
    if not p.bonus_tiles:
        for name in ("flowers", "seasons"):
            value = getattr(pos, name)
            if value:
                raise HandError(f"{name} = {list(value)}: preset {shown(p.id)} plays {p.tiles} tiles without "
                                "bonus tiles", name, list(value))
    d = _hand_tile(discard, "discard")
    held = pos.counts[d.index]
    used = held + sum(parse_tiles(m.tiles).count(d) for m in pos.melds)
    if kong is not None and used:
        where = "three are in the pung it is added to" if kong == "added" else "four are in the concealed kong"
        raise HandError(f"discard = {shown(d.code)}: the hand holds {used} of it, but {where}", "discard", d.code)
    if used >= 4:
        raise HandError(f"discard = {shown(d.code)}: the hand already holds {used} of it counting its sets; a "
                        "discard would be a fifth copy", "discard", d.code)

    claims: list[Claim] = []
    seat = pos.seat_wind
    win = _win_claim(pos, d, discarder, p, kong, last_tile)
    if win is not None:
        claims.append(win)
    if kong is not None or len(pos.melds) >= 4 or (last_tile and p.table.last_discard == "win"):
        return claims  # on the last discard only a win (GAME.md G5), unless the preset says otherwise
    swap = bool(p.claims.get("swap_rule"))
    for kind, run, forbidden in set_claims(pos.counts, d.index, seat, discarder, swap=swap):
        if forbidden and not leaves_a_discard(pos.counts, run, d.index, forbidden):
            continue  # the claimant could discard nothing (GAME.md G10)
        claims.append(Claim(seat=seat, kind=kind, tiles=format_tiles([TILES[i] for i in run]), discard=d.code,
                            forbidden_discards=tuple(TILES[i].code for i in forbidden)))
    return claims


def set_claims(counts: Sequence[int], discard: int, seat: str, discarder: str, *,
               swap: bool = False) -> list[tuple[ClaimKind, tuple[int, ...], tuple[int, ...]]]:
    """The sets ``seat``, holding ``counts`` (34 counts of its concealed tiles),
    may claim on the discard with tile index ``discard`` (0..33) thrown by
    ``discarder``: ``(kind, the set's tile indices, the tiles it may not then
    discard under the swap rule)``, in ``legal_claims``' order: a kong, a
    pung, then chows by lowest tile. Wins are not among them (they need the
    preset's scorer), nor is the limit of four declared sets checked.

    Forbidden under the swap rule: for a pung its tile; for a chow the
    claimed tile and, when the claimed tile is an end of the run, the tile
    just beyond the other end (chowing 4 with 5-6: 4 and 7; 6 with 4-5: 6
    and 3; a middle tile: only itself; no tile beyond 9 or below 1).
    """
    out: list[tuple[ClaimKind, tuple[int, ...], tuple[int, ...]]] = []
    held = counts[discard]
    if held >= 3:
        out.append(("kong", (discard,) * 4, ()))
    if held >= 2:
        out.append(("pung", (discard,) * 3, (discard,) if swap else ()))
    if discard < 27 and seat == _next_seat(discarder):
        number = discard % 9  # 0 for a 1
        base = discard - number
        for low in range(max(0, number - 2), min(number, 6) + 1):
            run = (base + low, base + low + 1, base + low + 2)
            if all(counts[i] >= 1 for i in run if i != discard):
                forbidden: tuple[int, ...] = ()
                if swap:
                    beyond = low + 3 if number == low else low - 1 if number == low + 2 else -1
                    forbidden = (discard, base + beyond) if 0 <= beyond <= 8 else (discard,)
                out.append(("chow", run, forbidden))
    return out


def leaves_a_discard(counts: Sequence[int], run: Sequence[int], discard: int, forbidden: Sequence[int]) -> bool:
    """Whether the claimant, holding ``counts`` and claiming ``discard`` into
    the set ``run`` (tile indices), keeps a concealed tile it may discard."""
    left = list(counts)
    rest = list(run)
    rest.remove(discard)
    for j in rest:
        left[j] -= 1
    return any(left[j] for j in range(34) if j not in forbidden)


def _win_claim(pos: Position, d: Tile, discarder: str, p: Preset, kong: Robbing | None,
               last_tile: bool) -> Claim | None:
    """The win claim on ``d``, or None when the preset does not allow one."""
    rob = p.claims.get("robbing_kong", "added")
    if kong == "added" and rob == "none":
        return None
    if kong == "concealed" and rob != "added_and_concealed_orphans":
        return None
    try:
        finished = pos.with_tile(d.code, self_draw=False, discarder=discarder,
                                 robbing_kong=kong is not None, last_tile=last_tile)
    except HandError:
        return None
    result = score(finished, p)
    if not result.winnable:
        return None
    if kong == "concealed" and result.shape != "thirteen_orphans":
        return None
    return Claim(seat=pos.seat_wind, kind="win", tiles=d.code, discard=d.code, robbing=kong, result=result)


def may_discard(claim: Claim, tile_code: str) -> bool:
    """False when the swap rule forbids the claimant to discard ``tile_code``
    right after making ``claim``; True otherwise."""
    if not isinstance(claim, Claim):
        raise HandError(f"claim: expected a Claim, got {type(claim).__name__}", "claim", claim)
    t = _hand_tile(tile_code, "tile")
    return t.code not in claim.forbidden_discards


def resolve_claims(claims: Iterable[Claim | dict[str, Any]], discarder: str,
                   preset: str | Path | Preset = "bga-old-style") -> list[Claim]:
    """The claim(s) that get the tile.

    A win beats a pung or kong, which beat a chow; between claims of the same
    rank, the seat nearest after the discarder (after E: S, then W, then N).
    Several claims by one seat: its best, the first given between equals.
    With the preset's ``multiple_winners`` on and wins claimed, every seat's
    win is returned, nearest first (each is paid separately); otherwise one
    claim. No claims: ``[]``.

    Errors (HandError naming ``claims.<i>.<field>``): a claim by the
    discarder, a chow by a seat other than the one after the discarder,
    claims on different tiles, or robbing claims mixed with others, a robbing
    win the preset does not allow.
    """
    _seat(discarder, "discarder")
    p = load_preset(preset)
    given: list[Claim] = []
    try:
        listed = list(islice(claims, 5))
    except TypeError:
        raise HandError(f"claims: expected a list of claims, got {shown(claims)}", "claims", claims) from None
    if len(listed) > 4:
        raise HandError("claims: more than 4 claims on one discard (one per seat, at most 4)", "claims", None)
    for i, c in enumerate(listed):
        try:
            given.append(Claim.parse(c))
        except HandError as exc:
            raise HandError(f"claims.{i}.{exc}", f"claims.{i}.{exc.field}", exc.value,
                            [{**p, "loc": ("claims", i, *p["loc"])} for p in exc.errors()]) from None
    _check_claims(given, discarder, p)
    if not given:
        return []
    order = sorted(range(len(given)),
                   key=lambda i: (*priority(given[i].kind, given[i].seat, discarder), i))
    best = given[order[0]]
    if best.kind == "win" and p.claims.get("multiple_winners"):
        winners: list[Claim] = []
        seen: set[str] = set()
        for i in order:
            c = given[i]
            if c.kind == "win" and c.seat not in seen:
                seen.add(c.seat)
                winners.append(c)
        return winners
    return [best]


def _check_claims(given: Sequence[Claim], discarder: str, p: Preset) -> None:
    rob = p.claims.get("robbing_kong", "added")
    for i, c in enumerate(given):
        if c.seat == discarder:
            raise HandError(f"claims.{i}.seat = {shown(c.seat)}: is the discarder; a player cannot claim their "
                            "own discard", f"claims.{i}.seat", c.seat)
        if c.kind == "chow" and c.seat != _next_seat(discarder):
            raise HandError(f"claims.{i}.seat = {shown(c.seat)}: a chow on {discarder}'s discard is only for "
                            f"{_next_seat(discarder)}, the next seat", f"claims.{i}.seat", c.seat)
        if c.discard != given[0].discard:
            raise HandError(f"claims.{i}.discard = {shown(c.discard)}: the claims are on {given[0].discard}, "
                            "one tile", f"claims.{i}.discard", c.discard)
        if c.robbing != given[0].robbing:
            raise HandError(f"claims.{i}.robbing = {shown(c.robbing)}: the claims are on one tile, robbing "
                            f"{given[0].robbing!r}", f"claims.{i}.robbing", c.robbing)
        if c.robbing == "added" and rob == "none":
            raise HandError(f"claims.{i}.robbing = 'added': preset {shown(p.id)} allows no robbing of a kong",
                            f"claims.{i}.robbing", c.robbing)
        if c.robbing == "concealed" and rob != "added_and_concealed_orphans":
            raise HandError(f"claims.{i}.robbing = 'concealed': preset {shown(p.id)} allows no robbing of a "
                            "concealed kong", f"claims.{i}.robbing", c.robbing)
        if (c.robbing == "concealed" and c.result is not None
                and c.result.shape != "thirteen_orphans"):
            raise HandError(f"claims.{i}.robbing = 'concealed': only thirteen orphans robs a concealed kong, "
                            f"this win is {c.result.shape}", f"claims.{i}.robbing", c.robbing)
