"""Validated data: a hand as docs/rules.md writes it, its declared sets, a hand in play
(a result is in ``hkcore.results``).

``Hand`` is exactly the JSON of docs/rules.md ("A hand as data"): unknown fields
are refused and every context that cannot happen is an error naming the
field and the value. A validated hand also carries what the scorer needs
(counts, set codes), computed once.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    field_validator,
    model_validator,
)

from hkcore import notation
from hkcore.core import meld_code, normalize
from hkcore.errors import SHOWN, HandError, TileError, loc, shown
from hkcore.results import ReadingPart, reading_part
from hkcore.tiles import (
    CHOW,
    KONG,
    PUNG,
    SEATS,
    copies_used,
    format_tiles,
    parse_tiles,
    tile,
)
from hkcore.values import Value

Seat = Literal["E", "S", "W", "N"]
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}
FirstTurn = Literal["deal", "first_draw", "first_discard"]
_KINDS = {CHOW: "chow", PUNG: "pung", KONG: "kong"}
_FIRST_TURN_CODE = {None: 0, "deal": 1, "first_draw": 2, "first_discard": 3}


def canonical_tiles(value: str) -> str:
    """The canonical form of a tile string; a ValueError saying what is wrong."""
    try:
        return format_tiles(parse_tiles(value))
    except TileError as exc:
        raise ValueError(str(exc)) from None


class _Checked(Value):
    """A model that is never built unchecked: ``model_copy(update=...)`` and
    ``model_construct`` validate like ``model_validate`` (errors are
    HandErrors), so what is derived from the fields always matches them."""

    if TYPE_CHECKING:  # set at validation: the private attributes, read directly (faster than their names)
        __pydantic_private__: dict[str, Any]

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Any:
        """A copy; with ``update`` (field names to new values), the model
        validated anew from this one's fields and the update."""
        if not update:
            return super().model_copy(deep=deep)
        data = self.model_dump()
        data.update(_by_alias(type(self), update))
        return _validated(type(self), data)

    @classmethod  # pydantic's mypy plugin types model_construct with each model's fields; this one takes any
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Any:  # type: ignore[override]
        """The model from field values, validated like ``model_validate``."""
        return _validated(cls, _by_alias(cls, values))


def _by_alias(cls: type[BaseModel], values: Mapping[str, Any]) -> dict[str, Any]:
    fields = cls.model_fields
    return {(fields[k].alias or k) if k in fields else k: v for k, v in values.items()}


def _validated(cls: type[BaseModel], data: dict[str, Any]) -> Any:
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        raise hand_error(exc) from None


class Meld(_Checked):
    """A declared set: a chow, pung or kong laid down beside the hand."""

    kind: Literal["chow", "pung", "kong"]
    tiles: str
    concealed: StrictBool = False
    from_: Seat | None = Field(default=None, alias="from")

    _code: int = PrivateAttr(default=-1)

    _canonical = field_validator("tiles")(lambda cls, value: canonical_tiles(value))

    @model_validator(mode="after")
    def _check(self) -> Meld:
        try:
            code = meld_code(self.tiles, "tiles")
        except HandError as exc:
            raise _err("tiles", self.tiles, str(exc).removeprefix("tiles: ")) from None
        if _KINDS[code // 34] != self.kind:
            raise _err("kind", self.kind, f"does not match tiles {self.tiles} (a {_KINDS[code // 34]})")
        if self.concealed and self.kind != "kong":
            raise _err("concealed", True, f"only a kong may be concealed, not a {self.kind}")
        if self.concealed and self.from_ is not None:
            raise _err("from", self.from_, "a concealed kong was claimed from nobody")
        self._code = code
        return self

    @property
    def code(self) -> int:
        """The set code (see hkcore.core._codes)."""
        found: int = self.__pydantic_private__["_code"]
        return found

    @property
    def claimed(self) -> bool:
        """True for a set made with another player's discard."""
        return not self.concealed


#: the most melds a hand given as data may list before they are read (a hand has at most 4; a few more are read
#: and refused by the tile counts, as they always were)
MOST_MELDS_READ = 16


class Hand(_Checked):
    """A finished hand with its context, as in docs/rules.md "A hand as data"."""

    tiles: str
    melds: tuple[Meld, ...] = ()
    win_tile: str | None = None
    self_draw: StrictBool = False
    seat_wind: Seat = "E"
    round_wind: Seat = "E"
    flowers: tuple[StrictInt, ...] = ()
    seasons: tuple[StrictInt, ...] = ()
    discarder: Seat | None = None
    last_tile: StrictBool = False
    kong_replacement: StrictInt = 0
    robbing_kong: StrictBool = False
    first_turn: FirstTurn | None = None

    _counts: tuple[int, ...] = PrivateAttr(default_factory=tuple)
    _win: int = PrivateAttr(default=-1)
    _kernel_ctx: tuple[Any, ...] | None = PrivateAttr(default=None)

    @field_validator("tiles")
    @classmethod
    def _canonical_tiles(cls, value: str) -> str:
        try:
            found = parse_tiles(value)
        except TileError as exc:
            raise ValueError(str(exc)) from None
        for t in found:
            if t.is_bonus:
                raise ValueError(f"bonus tile {t} is not a tile of the hand; give it in flowers/seasons")
        return format_tiles(found)

    @field_validator("win_tile")
    @classmethod
    def _one_tile(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            t = tile(value)
        except TileError as exc:
            raise ValueError(str(exc)) from None
        if t.is_bonus:
            raise ValueError(f"{t} is a bonus tile, not a winning tile")
        return t.code

    @field_validator("melds", mode="before")
    @classmethod
    def _few_melds(cls, value: Any) -> Any:
        # before each meld is read: thousands of them cost milliseconds of errors per hand
        if isinstance(value, (list, tuple)) and len(value) > MOST_MELDS_READ:
            raise ValueError(f"{len(value):,} melds; a hand has at most 4")
        return value

    @field_validator("kong_replacement")
    @classmethod
    def _kongs_in_a_row(cls, value: int) -> int:
        if value not in (0, 1, 2):
            raise ValueError(f"{shown(value)} is not 0, 1 or 2 (kongs in a row before the winning replacement)")
        return value

    @field_validator("flowers", "seasons")
    @classmethod
    def _bonus_numbers(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        if len(value) > 4:
            raise ValueError(f"{len(value):,} numbers; there are 4 of each kind of bonus tile")
        for v in value:
            if not 1 <= v <= 4:
                raise ValueError(f"{shown(v)} is not a bonus tile number 1..4")
        dup = sorted({v for v in value if value.count(v) > 1})
        if dup:
            raise ValueError(f"{dup[0]} is given twice (there is one copy of each bonus tile)")
        return tuple(sorted(value))

    @model_validator(mode="after")
    def _check_hand(self) -> Hand:
        counts = [0] * 34
        for t in parse_tiles(self.tiles):  # canonical by now: the fast path
            counts[t.index] += 1
        used = copies_used([m.code for m in self.melds], counts)
        for i, u in enumerate(used):
            if u > 4:
                raise _err("tiles", self.tiles, f"{u} copies of {tile(i)} counting the melds (at most 4)")
        n = sum(counts) + 3 * len(self.melds)
        bonus = len(self.flowers) + len(self.seasons)
        if self.win_tile is None:
            if bonus < 7:
                raise _err("win_tile", None,
                           "missing; only a bonus-tile instant win (7 or 8 bonus tiles) may leave it out")
            if n not in (13, 14):
                raise _err("tiles", self.tiles,
                           f"{n} tiles with each kong as three; a hand has 13 or 14 at an instant win")
        else:
            if n != 14:
                raise _err("tiles", self.tiles, f"{n} tiles with each kong counted as three; a finished hand has 14")
            win = tile(self.win_tile).index
            if counts[win] == 0:
                raise _err("win_tile", self.win_tile, f"{self.win_tile} is not among the concealed tiles {self.tiles}")
            self._win = win
            if self.robbing_kong and used[win] > 1:
                raise _err(
                    "robbing_kong", True,
                    f"the robbed {self.win_tile}'s other copies are in the kong; the hand cannot hold two",
                )
        self._counts = tuple(counts)
        _finish_hand(self, tuple([m.__pydantic_private__["_code"] for m in self.melds]))
        return self

    def _check_context(self) -> None:
        kongs = sum(1 for m in self.melds if m.kind == "kong")
        if self.kong_replacement > kongs:
            raise _err("kong_replacement", self.kong_replacement,
                       f"a win on the replacement for {self.kong_replacement} kong(s) in a row, but the hand "
                       f"has {kongs} kong(s) declared")
        if self.first_turn is not None and (self.last_tile or self.kong_replacement):
            raise _err("first_turn", self.first_turn,
                       "cannot go with " + ("last_tile" if self.last_tile else "kong_replacement"))
        if self.win_tile is None and (self.robbing_kong or self.discarder is not None):
            raise _err("robbing_kong" if self.robbing_kong else "discarder",
                       True if self.robbing_kong else self.discarder,
                       "a bonus-tile instant win (no win_tile) is won on no one's tile")
        if self.kong_replacement and self.last_tile:
            raise _err("kong_replacement", self.kong_replacement,
                       "cannot go with last_tile (a replacement draw is not the last live tile)")
        if not self.self_draw:
            if self.kong_replacement:
                raise _err("kong_replacement", self.kong_replacement,
                           "a replacement-draw win is a self-draw; self_draw is false")
            if self.first_turn in ("deal", "first_draw"):
                raise _err("first_turn", self.first_turn, "is a self-drawn win; self_draw is false")
        else:
            if self.robbing_kong:
                raise _err("robbing_kong", True, "a robbed kong is won on another player's tile; self_draw is true")
            if self.discarder is not None:
                raise _err("discarder", self.discarder, "given for a self-drawn win")
            if self.first_turn == "first_discard":
                raise _err("first_turn", self.first_turn, "is a win on a discard; self_draw is true")
        if self.robbing_kong and self.last_tile:
            raise _err("robbing_kong", True, "cannot go with last_tile")
        if self.discarder is not None and self.discarder == self.seat_wind:
            raise _err("discarder", self.discarder, f"is the winner's own seat ({self.seat_wind})")
        if self.first_turn == "deal" and self.seat_wind != "E":
            raise _err("first_turn", "deal", f"only East (the dealer) wins on the deal; seat_wind is {self.seat_wind}")
        if self.first_turn == "first_discard" and self.discarder not in (None, "E"):
            raise _err("discarder", self.discarder,
                       "first_turn 'first_discard' is a win on the dealer's (East's) discard")
        if self.first_turn in ("first_draw", "first_discard") and self.seat_wind == "E":
            raise _err("first_turn", self.first_turn, "is for a non-dealer; seat_wind is E (the dealer)")
        _check_from(self.melds, self.seat_wind, "winner")
        if self.first_turn is not None and any(m.claimed for m in self.melds):
            raise _err("first_turn", self.first_turn,
                       "nobody has claimed yet on the first turn, but the hand has claimed sets")

    # what the scorer reads
    @property
    def counts(self) -> tuple[int, ...]:
        """34 counts of the concealed tiles."""
        found: tuple[int, ...] = self.__pydantic_private__["_counts"]
        return found

    @property
    def win_index(self) -> int:
        """Tile index of the winning tile, -1 for an instant bonus win."""
        found: int = self.__pydantic_private__["_win"]
        return found

    @property
    def meld_parts(self) -> tuple[ReadingPart, ...]:
        """The declared sets as parts of a result's reading (built at validation)."""
        found: tuple[ReadingPart, ...] = self.__pydantic_private__["_kernel_ctx"][16]
        return found

    @property
    def kernel_context(self) -> tuple[Any, ...]:
        """The hand as the compiled scoring kernel reads it (built at validation)."""
        found: tuple[Any, ...] = self.__pydantic_private__["_kernel_ctx"]
        return found

    @property
    def bonus_count(self) -> int:
        """Number of flowers and seasons held."""
        return len(self.flowers) + len(self.seasons)

    @classmethod
    def parse(cls, data: Any) -> Hand:
        """A ``Hand`` from a dict (docs/rules.md JSON), a JSON string, compact notation or a Hand.

        Errors are ``HandError`` naming the field and the value.
        """
        if type(data) is Hand:
            return data
        if isinstance(data, Hand):  # a subclass: the hand it holds, validated as a Hand
            data = data.model_dump(include=set(Hand.model_fields))
        return _parse_model(cls, data, True)


def _finish_hand(hand: Hand, codes: tuple[int, ...]) -> None:
    """The context checks of a hand whose tiles are checked, then its kernel context."""
    hand._check_context()
    private = hand.__pydantic_private__
    assert private is not None
    melds = hand.melds
    private["_kernel_ctx"] = _kernel_context(
        hand, private["_counts"], codes,
        (hand.self_draw, hand.last_tile, hand.kong_replacement, hand.robbing_kong,
         _FIRST_TURN_CODE[hand.first_turn], private["_win"]),
        tuple(reading_part(m.kind, m.tiles, m.concealed, True, False) for m in melds),
        SEAT_NUMBER[hand.discarder] if hand.discarder else 0,
    )


def _finish_position(pos: Position, codes: tuple[int, ...]) -> None:
    """The checks of a position whose tiles are checked, then its kernel context."""
    _check_from(pos.melds, pos.seat_wind, "player")
    private = pos.__pydantic_private__
    assert private is not None
    private["_kernel_ctx"] = _kernel_context(pos, private["_counts"], codes, (False, False, 0, False, 0, -1), (), 0)


def _kernel_context(hand: Any, counts: list[int], codes: tuple[int, ...], win: tuple[Any, ...],
                    meld_parts: tuple[Any, ...], discarder: int) -> tuple[Any, ...]:
    """The tuple the compiled kernel reads (see ``Kernel._load``): counts as
    bytes, declared sets, their concealment, self-draw, seat and round wind
    tiles, seat number, bonus masks and counts, last tile, kong replacement,
    robbing, first turn, winning tile, meld parts, discarder's seat number.
    ``win`` is (self_draw, last_tile, kong_replacement, robbing, first_turn, win tile)."""
    seat = SEAT_NUMBER[hand.seat_wind]
    flowers = seasons = 0
    for n in hand.flowers:
        flowers |= 1 << n
    for n in hand.seasons:
        seasons |= 1 << n
    self_draw, last_tile, kong_replacement, robbing, first_turn, win_tile = win
    return (
        bytes(counts), codes, tuple([m.concealed for m in hand.melds]), self_draw, 26 + seat,
        26 + SEAT_NUMBER[hand.round_wind], seat, flowers, seasons, len(hand.flowers), len(hand.seasons),
        last_tile, kong_replacement, robbing, first_turn, win_tile, meld_parts, discarder,
    )


#: the longest JSON text read as one hand
MAX_JSON = 65536


_Model = TypeVar("_Model", bound=BaseModel)


def _parse_model(cls: type[_Model], data: Any, won: bool, fast_path: bool = True) -> _Model:
    """``cls`` from a dict, JSON text or bytes, or compact notation; errors
    are HandErrors. ``fast_path=False`` skips the compiled reader (the tests
    compare the two)."""
    fast = FAST_READERS.get(cls) if fast_path else None
    if fast is not None:
        found: _Model | None = fast(data)
        if found is not None:
            return found
    origin = None
    if isinstance(data, (bytes, bytearray)):
        data = read_json(data)
    elif isinstance(data, str):
        text = data.strip()
        if text.startswith("{"):
            data = read_json(text)
        else:
            data, origin = notation.read(text, won)
    if not isinstance(data, dict):
        raise HandError(f"hand: expected a dict, JSON, notation or {cls.__name__}, got {type(data).__name__}",
                        "hand", data)
    try:
        return cls.model_validate(data)
    except ValidationError as exc:
        err = hand_error(exc)
        raise (notation.locate(err, origin) if origin is not None else err) from None


def read_json(text: str | bytes | bytearray) -> Any:
    """A JSON document of at most ``MAX_JSON`` characters, a key given twice
    in one object refused; errors are HandErrors."""
    if len(text) > MAX_JSON:
        raise HandError(f"hand: JSON of {len(text):,} characters; a hand is at most {MAX_JSON:,}", "hand",
                        text)
    try:
        return json.loads(text, object_pairs_hook=_no_repeats)
    except HandError:
        raise
    except (ValueError, RecursionError) as exc:
        raise HandError(f"hand: not valid JSON ({str(exc)[:SHOWN]})", "hand", text) from None


def _no_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) == len(pairs):
        return found
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            name = _name(key)
            raise HandError(f"{name}: given twice in one JSON object (= {shown(out[key])} and {shown(value)})",
                            name, value)
        out[key] = value
    return out


def _check_from(melds: tuple[Meld, ...], seat: str, who: str) -> None:
    """Each claimed set came from another seat, a chow from the seat before."""
    before = SEATS[SEATS.index(seat) - 1]
    for i, m in enumerate(melds):
        if m.from_ == seat:
            raise _err(f"melds.{i}.from", m.from_, f"is the {who}'s own seat ({seat})")
        if m.kind == "chow" and m.from_ is not None and m.from_ != before:
            raise _err(f"melds.{i}.from", m.from_,
                       f"a chow is claimed only from the seat before ({before} for {seat})")


class _ContextError(ValueError):
    def __init__(self, field: str, value: Any, message: str):
        super().__init__(message)
        self.field = field
        self.value = value


def context_error(field: str, value: Any, message: str) -> ValueError:
    """The error a model's validator raises for a field whose value does not
    fit the rest of the value: validation reports it at ``field`` with ``value``."""
    return _ContextError(field, value, message)


_err = context_error


def _name(part: Any) -> str:
    """A key or index of a field path as shown in an error: as is when short and plain, else cut short."""
    plain = isinstance(part, str) or (type(part) is int and abs(part) < 10**9)
    text = str(part) if plain else shown(part)
    if len(text) <= 40 and text.isprintable() and text.isascii():
        return text
    return shown(part)


def hand_error(exc: ValidationError) -> HandError:
    """One clear HandError from a pydantic ValidationError: field, value,
    reason of the first problem; ``errors()`` lists them all."""
    problems = [_problem(e) for e in exc.errors(include_url=False)]
    first = problems[0]
    field = ".".join(_name(p) for p in first["loc"]) or "hand"
    value = first["input"]
    more = len(problems) - 1
    tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    show = "" if value is None and first["type"] == "missing" else f" = {shown(value)}"
    return HandError(f"{field}{show}: {first['msg']}{tail}", field, value, problems)


def _problem(error: Any) -> dict[str, Any]:
    """One pydantic error as HandError.errors() lists it: the context checks'
    field, value and reason where one of them raised it."""
    ctx_err = (error.get("ctx") or {}).get("error")
    if isinstance(ctx_err, _ContextError):
        return {"type": "value_error", "loc": (*error["loc"], *loc(ctx_err.field)), "msg": str(ctx_err),
                "input": ctx_err.value}
    msg = error["msg"].removeprefix("Value error, ")
    if error["type"] == "extra_forbidden":
        msg = "unknown field"
    elif error["type"] == "missing":
        msg = "missing"
    return {"type": error["type"], "loc": tuple(error["loc"]), "msg": msg, "input": error.get("input")}


class Position(_Checked):
    """A hand in play, not yet won: 13 - 3k concealed tiles (waiting for a
    tile) or 14 - 3k (about to discard), its declared sets and its context.

    The fields are those of ``Hand`` without the win: ``tiles``, ``melds``,
    ``seat_wind``, ``round_wind``, ``flowers``, ``seasons``.
    """

    tiles: str
    melds: tuple[Meld, ...] = ()
    seat_wind: Seat = "E"
    round_wind: Seat = "E"
    flowers: tuple[StrictInt, ...] = ()
    seasons: tuple[StrictInt, ...] = ()

    _counts: tuple[int, ...] = PrivateAttr(default_factory=tuple)

    _canonical_tiles = field_validator("tiles")(Hand._canonical_tiles.__func__)  # type: ignore[attr-defined]
    _bonus_numbers = field_validator("flowers", "seasons")(Hand._bonus_numbers.__func__)  # type: ignore[attr-defined]
    _few_melds = field_validator("melds", mode="before")(Hand._few_melds.__func__)  # type: ignore[attr-defined]

    _kernel_ctx: tuple[Any, ...] | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _check_counts(self) -> Position:
        codes = tuple(m.code for m in self.melds)
        try:
            counts, _codes, k = normalize(self.tiles, codes, "any")
        except HandError as exc:
            raise _err(exc.field or "tiles", exc.value, str(exc).split(": ", 1)[-1]) from None
        if k and not codes:  # docs/rules.md, "A short hand": its sets are needed to score its waits
            n = sum(counts)
            raise _err("tiles", n, f"{n} concealed tiles and no declared sets: a hand in play holds 13 or 14 "
                                   f"tiles counting its melds (a kong as three); give its {k} declared "
                                   f"set{'s' if k > 1 else ''} in melds")
        self._counts = tuple(counts)
        _finish_position(self, codes)
        return self

    @property
    def kernel_context(self) -> tuple[Any, ...]:
        """The hand as the compiled kernel reads it, without a winning tile."""
        found: tuple[Any, ...] = self.__pydantic_private__["_kernel_ctx"]
        return found

    @property
    def counts(self) -> tuple[int, ...]:
        """34 counts of the concealed tiles."""
        found: tuple[int, ...] = self.__pydantic_private__["_counts"]
        return found

    @property
    def waiting_size(self) -> bool:
        """True for 13 - 3k concealed tiles (waiting for a tile), False for 14 - 3k."""
        return (sum(self.counts) + 3 * len(self.melds)) == 13

    @classmethod
    def parse(cls, data: Any) -> Position:
        """A ``Position`` from a dict, JSON, compact notation (without ``win:``) or a Position."""
        if type(data) is Position:
            return data
        if isinstance(data, Position):
            data = data.model_dump(include=set(Position.model_fields))
        if isinstance(data, Hand):
            data = data.model_dump(include={"tiles", "melds", "seat_wind", "round_wind",
                                                           "flowers", "seasons"})
        return _parse_model(cls, data, False)

    def with_tile(self, tile_code: str, **context: Any) -> Hand:
        """The finished ``Hand`` if ``tile_code`` completes this waiting position.

        ``context`` gives the win: ``self_draw``, ``discarder``,
        ``robbing_kong``, ``last_tile``...; the result is validated like any hand.
        """
        data = self.model_dump()
        data["tiles"] = self.tiles + tile_code
        data["win_tile"] = tile_code
        data.update(context)
        return Hand.parse(data)


def _fast_readers() -> Mapping[type, Any]:
    """The compiled core's readers of plain, valid hand dicts (none in the
    pure-Python core): they build exactly what validation builds, and leave
    anything else to validation."""
    from hkcore import core

    if core.compiled is None:
        return MappingProxyType({})
    HandReader = core.compiled.HandReader

    def meld_part(kind: str, tiles: str, concealed: bool) -> ReadingPart:
        return reading_part(kind, tiles, concealed, True, False)

    limits = (MAX_JSON, notation.MAX_NOTATION)
    return MappingProxyType({Hand: HandReader(Hand, Meld, meld_part, True, *limits),
                             Position: HandReader(Position, Meld, meld_part, False, *limits)})


#: the compiled core's readers of plain hand dicts by model class (empty in
#: the pure-Python core); built at import, read-only
FAST_READERS = _fast_readers()


