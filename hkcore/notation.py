"""Compact hand notation: everything the hand JSON says, on one line.

    234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N

Tokens, separated by spaces:

- the concealed tiles, winning tile included (first token, required);
- each declared set in declaration order: its tiles (``666z``, ``234m``,
  ``1111m``), with ``:SEAT`` when the seat it was claimed from is known;
  a concealed kong as its four tiles with ``:concealed`` (``1111m:concealed``;
  any case), or in brackets (``[1111m]``, which a shell may read as a
  pattern: quote it there); only a kong may be concealed;
- ``win:TILE`` the winning tile;
- ``self-draw`` for a self-drawn win (otherwise the win is on a discard),
  ``from:SEAT`` the discarder;
- ``seat:SEAT``, ``round:SEAT`` (default E); a seat is E/S/W/N or
  East/South/West/North, in any case;
- ``flowers:13``, ``seasons:2`` the bonus tiles held, by number;
- ``last-tile``, ``kong-replacement`` (or ``kong-replacement:2``),
  ``robbing-kong``, ``first-turn:deal|first_draw|first_discard``.

``read`` turns a line into the hand JSON (a dict) and where each field came
from; ``Hand.parse`` and ``Position.parse`` validate it and name the token
of a bad field. ``format_hand`` prints the canonical form (defaults left
out), and ``Hand.parse(format_hand(h)) == h`` for every valid hand.

This module knows text and tiles only; the models sit on top of it.
"""
from __future__ import annotations

import difflib
from typing import Any

from hkcore.core import meld_code
from hkcore.errors import HandError, HkcoreError, shown
from hkcore.tiles import SEATS, parse_tiles, to_unicode

_FLAGS = {"self-draw": "self_draw", "last-tile": "last_tile", "robbing-kong": "robbing_kong"}
_KEYS = {
    "win": "win_tile",
    "from": "discarder",
    "seat": "seat_wind",
    "round": "round_wind",
    "flowers": "flowers",
    "seasons": "seasons",
    "kong-replacement": "kong_replacement",
    "first-turn": "first_turn",
}


#: seats by any name a player writes them (``seat:South``, ``from:west``), lower-cased
_SEAT_NAMES = {**{s.lower(): s for s in SEATS}, "east": "E", "south": "S", "west": "W", "north": "N"}


def _seat(value: str) -> str:
    """A seat written E/S/W/N or East/South/West/North in any case, as E/S/W/N
    (anything else upper-cased, for the field's own error)."""
    return _SEAT_NAMES.get(value.lower(), value.upper())


def _nearest_word(word: str) -> str:
    """`` (did you mean 'self-draw'?)`` for a misspelt context token, or ""."""
    key, colon, _ = word.partition(":")
    words = [*_FLAGS, *(k + ":" for k in _KEYS)]
    found = difflib.get_close_matches(key + colon, words, n=1, cutoff=0.6) if len(word) <= 40 else []
    return f" (did you mean {found[0]!r}?)" if found else ""


#: the suffix of a concealed kong: ``1111m:concealed``
CONCEALED = "concealed"

#: fields a hand not yet won does not have
WIN_FIELDS = ("win_tile", "self_draw", "discarder", "last_tile", "kong_replacement", "robbing_kong", "first_turn")


def read(text: str, won: bool = True) -> tuple[dict[str, Any], dict[str, tuple[int, str]]]:
    """The hand JSON of a notation line, and for each field the (1-based
    position, token) it came from; ``won=False`` for a hand not yet won
    (a win token is then an error)."""
    data, origin = _parse(text)
    if not won:
        for key in WIN_FIELDS:
            if key in data:
                pos, token = origin[key]
                raise HandError(f"notation: token {pos} {shown(token)}: a hand not yet won has no {key}", key, token)
    return data, origin


def locate(err: HandError, origin: dict[str, tuple[int, str]]) -> HandError:
    """``err`` (about a field of the hand JSON) told as the token that gave the field."""
    where = err.field or ""
    for name in (".".join(where.split(".")[:2]), where.split(".")[0]):
        if name in origin:
            pos, token = origin[name]
            return HandError(f"notation: token {pos} {shown(token)}: {err}", err.field, err.value, err.errors())
    return err


#: the longest notation line read (a hand with every context token is under 200)
MAX_NOTATION = 1000


def _parse(text: str) -> tuple[dict[str, Any], dict[str, tuple[int, str]]]:
    if len(text) > MAX_NOTATION:
        raise HandError(f"notation: {len(text):,} characters; a hand is at most {MAX_NOTATION:,} "
                        f"({shown(text)})", "notation", text)
    tokens = text.split()
    if not tokens:
        raise HandError("notation: empty hand", "notation", text)
    data: dict[str, Any] = {"tiles": tokens[0], "melds": []}
    origin: dict[str, tuple[int, str]] = {"tiles": (1, tokens[0])}
    for pos, token in enumerate(tokens[1:], start=2):
        word = token.lower().replace("_", "-")
        key, _, value = word.partition(":")
        field_name = _FLAGS.get(word) or _KEYS.get(key)
        if field_name is not None:
            if field_name in origin:
                first = origin[field_name]
                raise HandError(f"notation: token {pos} {shown(token)}: {field_name} is already given by token "
                                f"{first[0]} {shown(first[1])}", "notation", token)
            origin[field_name] = (pos, token)
        if word in _FLAGS:
            data[_FLAGS[word]] = True
        elif key == "kong-replacement":
            data["kong_replacement"] = _int(value or "1", token, pos)
        elif key in _KEYS and not value:
            raise HandError(f"notation: token {pos} {shown(token)}: nothing after the colon", "notation", token)
        elif key in _KEYS:
            field = _KEYS[key]
            if field in ("flowers", "seasons"):
                data[field] = [_int(ch, token, pos) for ch in value.replace(",", "")]
            elif field in ("discarder", "seat_wind", "round_wind"):
                data[field] = _seat(value)
            elif field == "first_turn":
                data[field] = value.replace("-", "_")
            else:
                data[field] = value
        elif token.startswith("[") and token.endswith("]"):
            origin[f"melds.{len(data['melds'])}"] = (pos, token)
            data["melds"].append(_concealed_kong(token[1:-1], token, pos))
        elif token[:1].isdigit():
            tiles, colon, seat = token.partition(":")
            if colon and not seat:
                raise HandError(f"notation: token {pos} {shown(token)}: no seat after the colon", "notation", token)
            origin[f"melds.{len(data['melds'])}"] = (pos, token)
            if seat.lower() == CONCEALED:
                data["melds"].append(_concealed_kong(tiles, token, pos))
            else:
                try:
                    kind = _kind_of(tiles, token, pos)
                except HandError as exc:
                    if data["melds"] or not _are_tiles(tiles):
                        raise
                    raise HandError(f"{exc}; the concealed tiles are one token, winning tile included "
                                    f"({shown(tokens[0] + tiles)}), then each declared set", "notation",
                                    token) from None
                meld: dict[str, Any] = {"kind": kind, "tiles": tiles}
                if seat:
                    if _seat(seat) not in SEATS:
                        raise HandError(f"notation: token {pos} {shown(token)}: {shown(seat)} is not a seat "
                                        f"E/S/W/N nor {CONCEALED!r}", "notation", token)
                    meld["from"] = _seat(seat)
                data["melds"].append(meld)
        else:
            raise HandError(
                f"notation: token {pos} {shown(token)}{_nearest_word(word)} is not a set, "
                f"a concealed kong (1111m:{CONCEALED}) or one of "
                + ", ".join(sorted([*_FLAGS, *(k + ':' for k in _KEYS)])),
                "notation", token,
            )
    return data, origin


def _are_tiles(text: str) -> bool:
    try:
        return bool(parse_tiles(text))
    except HkcoreError:
        return False


def _int(text: str, token: str, pos: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise HandError(f"notation: token {pos} {shown(token)}: {shown(text)} is not a number", "notation", token)
    return int(text)


def _concealed_kong(tiles: str, token: str, pos: int) -> dict[str, Any]:
    """The meld of a concealed kong token (``1111m:concealed`` or ``[1111m]``)."""
    kind = _kind_of(tiles, token, pos)
    if kind != "kong":
        raise HandError(f"notation: token {pos} {shown(token)}: only a kong can be concealed; {tiles} is a {kind}",
                        "notation", token)
    return {"kind": "kong", "tiles": tiles, "concealed": True}


def _kind_of(tiles: str, token: str, pos: int) -> str:
    # plain sets first ("666z", "1111m", "345p"): what meld_code would say, without reading them as tiles
    if len(tiles) in (4, 5) and tiles[-1] in "mpsz" and tiles[:-1].isdigit() and tiles.isascii() \
            and "0" not in tiles and (tiles[-1] != "z" or max(tiles[:-1]) <= "7"):
        d = tiles[:-1]
        if d == d[0] * len(d):
            return "pung" if len(d) == 3 else "kong"
        if len(d) == 3 and tiles[-1] != "z" and sorted(d) == [chr(ord(min(d)) + i) for i in range(3)]:
            return "chow"
    try:
        return ("chow", "pung", "kong")[meld_code(tiles, "melds") // 34]
    except HandError as exc:
        raise HandError(f"notation: token {pos} {shown(token)}: {exc}", "notation", token) from None


def format_hand(hand: Any) -> str:
    """The canonical compact notation of a ``Hand`` (or ``Position``)."""
    parts = [hand.tiles]
    for m in hand.melds:
        if m.concealed:
            parts.append(f"{m.tiles}:{CONCEALED}")
        else:
            parts.append(m.tiles + (f":{m.from_}" if m.from_ else ""))
    if getattr(hand, "win_tile", None) is not None:
        parts.append(f"win:{hand.win_tile}")
    if getattr(hand, "self_draw", False):
        parts.append("self-draw")
    if getattr(hand, "discarder", None):
        parts.append(f"from:{hand.discarder}")
    if hand.seat_wind != "E":
        parts.append(f"seat:{hand.seat_wind}")
    if hand.round_wind != "E":
        parts.append(f"round:{hand.round_wind}")
    if hand.flowers:
        parts.append("flowers:" + "".join(map(str, hand.flowers)))
    if hand.seasons:
        parts.append("seasons:" + "".join(map(str, hand.seasons)))
    if getattr(hand, "last_tile", False):
        parts.append("last-tile")
    kongs = getattr(hand, "kong_replacement", 0)
    if kongs:
        parts.append("kong-replacement" + (":2" if kongs == 2 else ""))
    if getattr(hand, "robbing_kong", False):
        parts.append("robbing-kong")
    if getattr(hand, "first_turn", None):
        parts.append(f"first-turn:{hand.first_turn}")
    return " ".join(parts)


def unicode_hand(hand: Any) -> str:
    """A ``Hand`` (or ``Position``) in Unicode tile faces: the concealed tiles,
    each declared set, then the bonus tiles, separated by spaces."""
    parts = [to_unicode(parse_tiles(hand.tiles))]
    for m in hand.melds:
        parts.append(to_unicode(parse_tiles(m.tiles)))
    bonus = [f"{n}f" for n in hand.flowers] + [f"{n}g" for n in hand.seasons]
    if bonus:
        parts.append(to_unicode(bonus))
    return " ".join(parts)
