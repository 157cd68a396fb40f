"""A scored hand as data: ``ScoreResult`` with its ``PatternScore`` and
``ReadingPart`` values (docs/rules.md, "A result as data")."""
from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from pydantic import PrivateAttr

from hkcore.tiles import ORPHAN_TILES, format_tiles, tile
from hkcore.values import Value


class PatternScore(Value):
    """One pattern of the counted reading and what it contributed before the cap."""

    id: str
    faan: int
    count: int
    name_en: str
    name_zh: str

    #: this value's JSON, made with it (it never changes): results print their parts from it
    _json: str | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any, /) -> None:
        self._json = self.__pydantic_serializer__.to_json(self).decode()


class ReadingPart(Value):
    """One set (or the pair) of the counted reading."""

    kind: Literal["pair", "chow", "pung", "kong", "orphans"]
    tiles: str
    concealed: bool
    declared: bool
    winning: bool

    _json: str | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any, /) -> None:
        self._json = self.__pydantic_serializer__.to_json(self).decode()


_encode = json.encoder.encode_basestring  # json.dumps(s, ensure_ascii=False), in C


def _common_parts() -> Mapping[tuple[Any, ...], ReadingPart]:
    """Every part a standard reading can hold: each set and pair, concealed
    or declared, winning or not, and thirteen orphans with each duplicate."""
    found: dict[tuple[Any, ...], ReadingPart] = {}

    def add(kind: str, tiles: str, concealed: bool, declared: bool, winning: bool) -> None:
        key = (kind, tiles, concealed, declared, winning)
        found[key] = ReadingPart(kind=kind, tiles=tiles, concealed=concealed, declared=declared,  # type: ignore[arg-type]
                                 winning=winning)

    orphans = ORPHAN_TILES
    for t in range(34):
        for winning in (False, True):
            add("pair", format_tiles([tile(t)] * 2), True, False, winning)
        for kind, tiles in (("pung", [t] * 3), ("kong", [t] * 4), ("chow", [t, t + 1, t + 2])):
            if kind == "chow" and (t >= 27 or t % 9 > 6):
                continue
            text = format_tiles([tile(i) for i in tiles])
            for winning in (False, True):
                add(kind, text, True, False, winning)
            add(kind, text, False, True, False)
            if kind == "kong":
                add(kind, text, True, True, False)
        if t in orphans:
            add("orphans", format_tiles([tile(i) for i in sorted([*orphans, t])]), True, False, True)
    return MappingProxyType(found)


#: the parts of standard readings, built at import and shared by every result
_PARTS = _common_parts()


def reading_part(kind: str, tiles: str, concealed: bool, declared: bool, winning: bool) -> ReadingPart:
    """The shared instance of a common (immutable) part, or a new one."""
    part = _PARTS.get((kind, tiles, concealed, declared, winning))
    if part is None:
        part = ReadingPart(kind=kind, tiles=tiles, concealed=concealed, declared=declared,  # type: ignore[arg-type]
                           winning=winning)
    return part


class ScoreResult(Value):
    """A hand scored under one preset (docs/rules.md "A result as data").

    ``faan`` is the counted total after the cap (points when ``unit`` is
    "points"); each pattern's ``faan`` is its contribution before the cap, so
    they add up to ``uncapped``. ``payments`` is the net change of each seat
    (E, S, W, N) or None, with ``payments_note`` saying why when the preset
    has a payment table.
    """

    preset: str
    unit: Literal["faan", "points"]
    faan: int
    uncapped: int
    winnable: bool
    complete: bool
    limit: bool = False
    shape: str | None = None
    patterns: list[PatternScore] = []  # noqa: RUF012 - a pydantic field (Value is a BaseModel)
    reading: list[ReadingPart] = []  # noqa: RUF012
    payments: dict[str, int] | None = None
    payments_note: str | None = None
    reason: str | None = None

    def to_json(self, **kwargs: Any) -> str:
        """The result as JSON: the bytes of ``model_dump_json`` (with ``kwargs``,
        made by it), written by the compiled core when it is active."""
        d = self.__dict__
        if _WRITE_RESULT is not None and not kwargs and type(self) is ScoreResult and len(d) == 13:
            found = _WRITE_RESULT(d)
            if found is not None:
                return found
        return self.model_dump_json(**kwargs)


def _result_writer() -> Callable[[dict[str, Any]], str | None] | None:
    """The compiled core's writer of ScoreResult JSON (None in the pure-Python core)."""
    from hkcore import core

    if core.compiled is None:
        return None
    return core.compiled.ResultWriter((PatternScore, ReadingPart), _encode)  # type: ignore[no-any-return]


_WRITE_RESULT = _result_writer()
