"""The 42 tiles of Hong Kong mahjong and the tile notation.

Tile index: 0..8 = 1m..9m (characters 萬), 9..17 = 1p..9p (dots 筒),
18..26 = 1s..9s (bamboo 索), 27..33 = 1z..7z (East, South, West, North,
White, Green, Red), 34..37 = 1f..4f (flowers 梅 蘭 菊 竹), 38..41 = 1g..4g
(seasons 春 夏 秋 冬).

Notation: digits followed by a suit letter (``123m456p789s1122z``, ``1f2g``);
the canonical form is sorted and grouped in the suit order m, p, s, z, f, g.
Unicode Mahjong Tiles characters are accepted wherever a tile string is read.
"""
from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from typing import Any, NoReturn

from hkcore.errors import TileError, shown

__all__ = [
    "Tile",
    "TileLike",
    "TILES",
    "HAND_TILES",
    "SUITS",
    "tile",
    "parse_tiles",
    "format_tiles",
    "to_unicode",
    "counts34",
    "SEATS",
    "ORPHAN_TILES",
    "CHOW",
    "PUNG",
    "KONG",
    "ORPHANS",
    "set_kind",
    "set_tile",
    "set_tiles",
    "copies_used",
]

#: Suit letters in index (and canonical printing) order.
SUITS = ("m", "p", "s", "z", "f", "g")

#: First index and number of tiles of each suit.
_SUIT_START = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34, "g": 38}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "g": 4}

_VARIATION_SELECTOR = "\ufe0f"

# The Unicode character of every tile, written out one by one.  Two traps:
# the dragon code points run Red, Green, White (U+1F004..U+1F006), the
# reverse of 5z White, 6z Green, 7z Red; and the flower code points run
# plum, orchid, bamboo, chrysanthemum (U+1F022..U+1F025), while the Hong Kong
# numbering is 梅 1, 蘭 2, 菊 3, 竹 4.
_UNICODE: dict[str, str] = {
    # characters 萬
    "1m": "\U0001F007",  # 🀇
    "2m": "\U0001F008",  # 🀈
    "3m": "\U0001F009",  # 🀉
    "4m": "\U0001F00A",  # 🀊
    "5m": "\U0001F00B",  # 🀋
    "6m": "\U0001F00C",  # 🀌
    "7m": "\U0001F00D",  # 🀍
    "8m": "\U0001F00E",  # 🀎
    "9m": "\U0001F00F",  # 🀏
    # dots 筒 (Unicode: circles)
    "1p": "\U0001F019",  # 🀙
    "2p": "\U0001F01A",  # 🀚
    "3p": "\U0001F01B",  # 🀛
    "4p": "\U0001F01C",  # 🀜
    "5p": "\U0001F01D",  # 🀝
    "6p": "\U0001F01E",  # 🀞
    "7p": "\U0001F01F",  # 🀟
    "8p": "\U0001F020",  # 🀠
    "9p": "\U0001F021",  # 🀡
    # bamboo 索
    "1s": "\U0001F010",  # 🀐
    "2s": "\U0001F011",  # 🀑
    "3s": "\U0001F012",  # 🀒
    "4s": "\U0001F013",  # 🀓
    "5s": "\U0001F014",  # 🀔
    "6s": "\U0001F015",  # 🀕
    "7s": "\U0001F016",  # 🀖
    "8s": "\U0001F017",  # 🀗
    "9s": "\U0001F018",  # 🀘
    # winds
    "1z": "\U0001F000",  # 🀀 East
    "2z": "\U0001F001",  # 🀁 South
    "3z": "\U0001F002",  # 🀂 West
    "4z": "\U0001F003",  # 🀃 North
    # dragons (trap: reverse order of the code points)
    "5z": "\U0001F006",  # 🀆 White dragon
    "6z": "\U0001F005",  # 🀅 Green dragon
    "7z": "\U0001F004",  # 🀄 Red dragon
    # flowers (trap: 3f and 4f swap against the code point order)
    "1f": "\U0001F022",  # 🀢 plum 梅
    "2f": "\U0001F023",  # 🀣 orchid 蘭
    "3f": "\U0001F025",  # 🀥 chrysanthemum 菊
    "4f": "\U0001F024",  # 🀤 bamboo 竹
    # seasons
    "1g": "\U0001F026",  # 🀦 spring 春
    "2g": "\U0001F027",  # 🀧 summer 夏
    "3g": "\U0001F028",  # 🀨 autumn 秋
    "4g": "\U0001F029",  # 🀩 winter 冬
}

_SUIT_NAME_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_NAME_ZH = {"m": "萬", "p": "筒", "s": "索"}
_ZH_NUMERALS = "一二三四五六七八九"

_HONOUR_NAMES: dict[str, tuple[str, str]] = {
    "1z": ("East Wind", "東風"),
    "2z": ("South Wind", "南風"),
    "3z": ("West Wind", "西風"),
    "4z": ("North Wind", "北風"),
    "5z": ("White Dragon", "白板"),
    "6z": ("Green Dragon", "青發"),
    "7z": ("Red Dragon", "紅中"),
    "1f": ("Plum (Flower 1)", "梅"),
    "2f": ("Orchid (Flower 2)", "蘭"),
    "3f": ("Chrysanthemum (Flower 3)", "菊"),
    "4f": ("Bamboo (Flower 4)", "竹"),
    "1g": ("Spring (Season 1)", "春"),
    "2g": ("Summer (Season 2)", "夏"),
    "3g": ("Autumn (Season 3)", "秋"),
    "4g": ("Winter (Season 4)", "冬"),
}

_RANGE_HINT = {
    "m": "characters are 1m..9m",
    "p": "dots are 1p..9p",
    "s": "bamboo are 1s..9s",
    "z": "honours are 1z..7z",
    "f": "flowers are 1f..4f",
    "g": "seasons are 1g..4g",
}

_ATTRS = (
    "index", "suit", "number", "code", "unicode", "name_en", "name_zh",
    "is_suited", "is_honour", "is_wind", "is_dragon", "is_terminal",
    "is_orphan", "is_bonus",
)


class Tile:
    """One of the 42 tiles; exactly one instance of each exists.

    Get tiles with :func:`tile`, :func:`parse_tiles` or :data:`TILES`; the
    class cannot be instantiated.  Tiles compare equal only to themselves,
    order by index and hash by index.
    """

    __slots__ = _ATTRS

    index: int
    suit: str
    number: int
    code: str
    unicode: str
    name_en: str
    name_zh: str
    is_suited: bool
    is_honour: bool
    is_wind: bool
    is_dragon: bool
    is_terminal: bool
    is_orphan: bool
    is_bonus: bool

    # it never returns; typed as returning a Tile since a NoReturn __new__ leaves no Tile for mypy to narrow to
    def __new__(cls, *args: Any, **kwargs: Any) -> Tile:
        raise TypeError("Tile cannot be constructed; use hkcore.tiles.tile(), e.g. tile('5z')")

    def __init_subclass__(cls, **kwargs: Any) -> NoReturn:
        raise TypeError("Tile cannot be subclassed")

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"Tile is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"Tile is immutable (cannot delete {name!r})")

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"

    def __str__(self) -> str:
        return self.code

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.index >= other.index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (tile, (self.index,))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Tile:
        return self


def _make(index: int) -> Tile:
    """Build the tile of ``index`` (used once per tile, at import)."""
    suit = next(s for s in reversed(SUITS) if index >= _SUIT_START[s])
    number = index - _SUIT_START[suit] + 1
    code = f"{number}{suit}"
    suited = suit in "mps"
    if suited:
        name_en = f"{number} {_SUIT_NAME_EN[suit]}"
        name_zh = _ZH_NUMERALS[number - 1] + _SUIT_NAME_ZH[suit]
    else:
        name_en, name_zh = _HONOUR_NAMES[code]
    terminal = suited and number in (1, 9)
    values = {
        "index": index,
        "suit": suit,
        "number": number,
        "code": code,
        "unicode": _UNICODE[code],
        "name_en": name_en,
        "name_zh": name_zh,
        "is_suited": suited,
        "is_honour": suit == "z",
        "is_wind": suit == "z" and number <= 4,
        "is_dragon": suit == "z" and number >= 5,
        "is_terminal": terminal,
        "is_orphan": terminal or suit == "z",
        "is_bonus": suit in "fg",
    }
    t = object.__new__(Tile)
    for name in _ATTRS:
        object.__setattr__(t, name, values[name])
    return t


#: All 42 tiles, by index.
TILES: tuple[Tile, ...] = tuple(_make(i) for i in range(42))
#: the longest tile text read (every tile of a 144-tile set, written one by one, fits)
MAX_TILE_TEXT = 1000
#: the four seats (and winds), in playing order
SEATS: tuple[str, ...] = ("E", "S", "W", "N")
#: the thirteen terminals and honours of thirteen orphans, by tile index
ORPHAN_TILES: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
#: The 34 tiles that can be part of a hand (no flowers or seasons).
HAND_TILES: tuple[Tile, ...] = TILES[:34]

_BY_CODE: dict[str, Tile] = {t.code: t for t in TILES}
_BY_CHAR: dict[str, Tile] = {t.unicode: t for t in TILES}
assert len(_BY_CHAR) == 42, "the Unicode table must give 42 distinct characters"

#: Anything :func:`tile` accepts.
TileLike = Tile | str | int

_DIGITS = frozenset("0123456789")


def tile(obj: TileLike) -> Tile:
    """The tile named by ``obj``.

    ``obj`` is a :class:`Tile`, a code such as ``"5z"`` (surrounding spaces
    allowed), one Unicode tile character (optionally followed by U+FE0F), or
    an index 0..41.  Anything else raises :class:`TileError`.
    """
    if isinstance(obj, Tile):
        return obj
    if isinstance(obj, str):
        text = obj.strip()
        found = _BY_CODE.get(text)
        if found is None:
            if text.endswith(_VARIATION_SELECTOR):
                text = text[:-1]
            found = _BY_CHAR.get(text)
        if found is None:
            raise TileError(
                f"not a tile: {shown(obj)} (expected a code like '5z' or one Unicode tile character)",
                text=obj,
            )
        return found
    if isinstance(obj, bool):
        raise TileError(f"not a tile: {shown(obj)} (bool); give a code like '5z' or an index 0..41")
    try:
        index = operator.index(obj)
    except TypeError:
        raise TileError(
            f"not a tile: {shown(obj)} ({type(obj).__name__}); "
            "give a Tile, a code like '5z', a Unicode tile or an index 0..41"
        ) from None
    if not 0 <= index < len(TILES):
        raise TileError(f"not a tile: index {shown(index)} is outside 0..41")
    return TILES[index]


def _fail(text: str, position: int, reason: str) -> NoReturn:
    raise TileError(f"{text[position]!r} at position {position} of {shown(text)}: {reason}", text, position)


_PLAIN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-4]+[fg])+")
_GROUP = re.compile(r"([0-9]+)([a-z])")


def parse_tiles(text: str) -> list[Tile]:
    """The tiles written in ``text``, in the order written.

    ``text`` uses the notation (digits then a suit letter, ``123m456p1122z``,
    ``1f2g``) and/or Unicode tile characters; whitespace is ignored and a
    U+FE0F after a Unicode tile is skipped.  The empty string gives ``[]``.
    Errors are :class:`TileError` with ``text`` and the 0-based ``position``
    of the offending character.
    """
    if not isinstance(text, str):
        raise TileError(f"tile text must be a str, got {shown(text)} ({type(text).__name__})")
    if len(text) > MAX_TILE_TEXT:
        raise TileError(f"tile text of {len(text):,} characters: at most {MAX_TILE_TEXT:,} ({shown(text)})", text)
    if _PLAIN.fullmatch(text):  # the common case: plain, valid notation
        by_code = _BY_CODE
        return [by_code[d + suit] for digits, suit in _GROUP.findall(text) for d in digits]
    result: list[Tile] = []
    pending: list[int] = []  # positions of digits still waiting for a suit letter
    after_unicode = False
    for pos, ch in enumerate(text):
        if ch in _DIGITS:
            pending.append(pos)
            after_unicode = False
        elif ch in _SUIT_START:
            if not pending:
                _fail(text, pos, "suit letter with no digits before it")
            start, size = _SUIT_START[ch], _SUIT_SIZE[ch]
            for dpos in pending:
                number = int(text[dpos])
                if not 1 <= number <= size:
                    reason = _RANGE_HINT[ch]
                    if number == 0:
                        reason += " (0 is not a tile: no red fives)"
                    _fail(text, dpos, reason)
                result.append(TILES[start + number - 1])
            pending.clear()
            after_unicode = False
        elif ch.isspace():
            continue
        elif ch in _BY_CHAR:
            if pending:
                _fail(text, pending[0], "digits without a suit letter")
            result.append(_BY_CHAR[ch])
            after_unicode = True
        elif ch == _VARIATION_SELECTOR and after_unicode:
            after_unicode = False
        else:
            _fail(text, pos, "not a tile digit, suit letter or Unicode tile")
    if pending:
        _fail(text, pending[0], "digits without a suit letter")
    return result


def _tiles_of(tiles: Iterable[TileLike] | str) -> list[Tile]:
    if isinstance(tiles, str):
        return parse_tiles(tiles)
    return [tile(t) for t in tiles]


_INDEX = operator.attrgetter("index")


def format_tiles(tiles: Iterable[TileLike] | str) -> str:
    """The canonical notation of ``tiles``: sorted, grouped by suit m, p, s, z, f, g.

    ``tiles`` is an iterable of anything :func:`tile` accepts, or a tile string.
    """
    ordered = sorted(_tiles_of(tiles), key=_INDEX)
    parts: list[str] = []
    group: list[str] = []
    suit = ""
    for t in ordered:
        if t.suit != suit and group:
            parts.append("".join(group) + suit)
            group = []
        suit = t.suit
        group.append(str(t.number))
    if group:
        parts.append("".join(group) + suit)
    return "".join(parts)


def to_unicode(tiles: Iterable[TileLike] | str) -> str:
    """The Unicode tile characters of ``tiles``, in the given order."""
    return "".join(t.unicode for t in _tiles_of(tiles))


def counts34(tiles: Iterable[TileLike] | str) -> list[int]:
    """How many of each of the 34 hand tiles ``tiles`` holds, by index.

    A flower or season among ``tiles`` raises :class:`TileError`.
    """
    counts = [0] * 34
    for t in _tiles_of(tiles):
        if t.is_bonus:
            raise TileError(f"{t.code} ({t.name_en}) is a bonus tile, not a tile of the hand")
        counts[t.index] += 1
    return counts


# --------------------------------------------------------------------------
# set codes: a set is one int, ``kind * 34 + tile``, ``tile`` being the
# lowest tile index of a chow or the tile of a pung or kong

CHOW = 0
PUNG = 1
KONG = 2
#: the thirteen orphans shape, as a pseudo set code in a reading
ORPHANS = 3 * 34


def set_kind(code: int) -> int:
    """CHOW, PUNG or KONG of a set code."""
    return code // 34


def set_tile(code: int) -> int:
    """The lowest tile index of a set code."""
    return code % 34


def set_tiles(code: int) -> tuple[int, ...]:
    """Tile indices of a set code, e.g. a chow's three tiles."""
    kind, t = divmod(code, 34)
    if kind == CHOW:
        return (t, t + 1, t + 2)
    return (t,) * (3 if kind == PUNG else 4)


def copies_used(codes: Iterable[int], counts: Iterable[int] | None = None) -> list[int]:
    """Copies of each of the 34 hand tiles held in the sets ``codes``, plus
    ``counts`` (34 counts, say the concealed tiles) when given."""
    used = list(counts) if counts is not None else [0] * 34
    for code in codes:
        kind, t = divmod(code, 34)
        if kind == CHOW:
            used[t] += 1
            used[t + 1] += 1
            used[t + 2] += 1
        else:
            used[t] += 3 if kind == PUNG else 4
    return used
