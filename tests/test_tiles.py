"""Tests of hkcore.tiles: the 42 tiles, the notation and the Unicode table."""
from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, strategies as st

from hkcore.errors import HkcoreError, TileError
from hkcore.tiles import (
    HAND_TILES,
    TILES,
    Tile,
    counts34,
    format_tiles,
    parse_tiles,
    tile,
    to_unicode,
)

# ---------------------------------------------------------------- the table

ALL_CODES = (
    [f"{n}m" for n in range(1, 10)]
    + [f"{n}p" for n in range(1, 10)]
    + [f"{n}s" for n in range(1, 10)]
    + [f"{n}z" for n in range(1, 8)]
    + [f"{n}f" for n in range(1, 5)]
    + [f"{n}g" for n in range(1, 5)]
)

# Written out by hand from the Mahjong Tiles block chart, not computed.
EXPECTED_UNICODE = {
    "1m": "🀇", "2m": "🀈", "3m": "🀉", "4m": "🀊", "5m": "🀋",
    "6m": "🀌", "7m": "🀍", "8m": "🀎", "9m": "🀏",
    "1p": "🀙", "2p": "🀚", "3p": "🀛", "4p": "🀜", "5p": "🀝",
    "6p": "🀞", "7p": "🀟", "8p": "🀠", "9p": "🀡",
    "1s": "🀐", "2s": "🀑", "3s": "🀒", "4s": "🀓", "5s": "🀔",
    "6s": "🀕", "7s": "🀖", "8s": "🀗", "9s": "🀘",
    "1z": "🀀", "2z": "🀁", "3z": "🀂", "4z": "🀃",
    "5z": "🀆", "6z": "🀅", "7z": "🀄",
    "1f": "🀢", "2f": "🀣", "3f": "🀥", "4f": "🀤",
    "1g": "🀦", "2g": "🀧", "3g": "🀨", "4g": "🀩",
}


def test_there_are_42_tiles_in_index_order():
    assert len(TILES) == 42
    assert [t.code for t in TILES] == ALL_CODES
    assert [t.index for t in TILES] == list(range(42))
    assert TILES[:34] == HAND_TILES
    assert HAND_TILES[-1].code == "7z"


@pytest.mark.parametrize(
    "code, index, suit, number",
    [("1m", 0, "m", 1), ("9m", 8, "m", 9), ("1p", 9, "p", 1), ("5p", 13, "p", 5),
     ("9s", 26, "s", 9), ("1z", 27, "z", 1), ("5z", 31, "z", 5), ("7z", 33, "z", 7),
     ("1f", 34, "f", 1), ("4f", 37, "f", 4), ("1g", 38, "g", 1), ("4g", 41, "g", 4)],
)
def test_index_suit_number(code, index, suit, number):
    t = tile(code)
    assert (t.index, t.suit, t.number, t.code) == (index, suit, number, code)


def test_str_and_repr():
    assert str(tile("5z")) == "5z"
    assert repr(tile("5z")) == "Tile('5z')"
    assert repr(tile(0)) == "Tile('1m')"
    assert f"{tile('3f')}" == "3f"


# ------------------------------------------------------------------ unicode


@pytest.mark.parametrize("code", ALL_CODES)
def test_unicode_table(code):
    assert tile(code).unicode == EXPECTED_UNICODE[code]


@pytest.mark.parametrize(
    "code, char, codepoint",
    [("7z", "🀄", 0x1F004), ("6z", "🀅", 0x1F005), ("5z", "🀆", 0x1F006),
     ("3f", "🀥", 0x1F025), ("4f", "🀤", 0x1F024), ("1f", "🀢", 0x1F022), ("2f", "🀣", 0x1F023)],
)
def test_unicode_traps(code, char, codepoint):
    assert ord(char) == codepoint
    assert tile(code).unicode == char
    assert tile(char).code == code
    assert [t.code for t in parse_tiles(char)] == [code]


def test_unicode_traps_in_a_string():
    assert [t.code for t in parse_tiles("🀄🀅🀆")] == ["7z", "6z", "5z"]
    assert [t.code for t in parse_tiles("🀢🀣🀤🀥")] == ["1f", "2f", "4f", "3f"]
    assert format_tiles(parse_tiles("🀄🀅🀆")) == "567z"
    assert to_unicode("567z") == "🀆🀅🀄"
    assert to_unicode("1234f") == "🀢🀣🀥🀤"


def test_every_unicode_is_distinct_and_round_trips():
    chars = [t.unicode for t in TILES]
    assert len(set(chars)) == 42
    assert all(len(c) == 1 and 0x1F000 <= ord(c) <= 0x1F029 for c in chars)
    for t in TILES:
        assert tile(t.unicode) is t
        assert tile(t.unicode + "\ufe0f") is t
        assert parse_tiles(t.unicode) == [t]


def test_unicode_block_members_not_tiles_are_rejected():
    # U+1F02A (tile back) and U+1F02B (joker) are in the block but are not tiles.
    for char in ("\U0001F02A", "\U0001F02B"):
        with pytest.raises(TileError):
            tile(char)
        with pytest.raises(TileError) as info:
            parse_tiles("1m" + char)
        assert info.value.position == 2


# -------------------------------------------------------------------- names


@pytest.mark.parametrize(
    "code, en, zh",
    [("1m", "1 Characters", "一萬"), ("9m", "9 Characters", "九萬"),
     ("5p", "5 Dots", "五筒"), ("7s", "7 Bamboo", "七索"),
     ("1z", "East Wind", "東風"), ("2z", "South Wind", "南風"),
     ("3z", "West Wind", "西風"), ("4z", "North Wind", "北風"),
     ("5z", "White Dragon", "白板"), ("6z", "Green Dragon", "青發"), ("7z", "Red Dragon", "紅中"),
     ("1f", "Plum (Flower 1)", "梅"), ("2f", "Orchid (Flower 2)", "蘭"),
     ("3f", "Chrysanthemum (Flower 3)", "菊"), ("4f", "Bamboo (Flower 4)", "竹"),
     ("1g", "Spring (Season 1)", "春"), ("2g", "Summer (Season 2)", "夏"),
     ("3g", "Autumn (Season 3)", "秋"), ("4g", "Winter (Season 4)", "冬")],
)
def test_names(code, en, zh):
    t = tile(code)
    assert t.name_en == en
    assert t.name_zh == zh


def test_names_are_distinct():
    assert len({t.name_en for t in TILES}) == 42
    assert len({t.name_zh for t in TILES}) == 42


# --------------------------------------------------------------- predicates


@pytest.mark.parametrize(
    "code, suited, honour, wind, dragon, terminal, orphan, bonus",
    [
        ("1m", True, False, False, False, True, True, False),
        ("9p", True, False, False, False, True, True, False),
        ("5s", True, False, False, False, False, False, False),
        ("2m", True, False, False, False, False, False, False),
        ("8s", True, False, False, False, False, False, False),
        ("1z", False, True, True, False, False, True, False),
        ("4z", False, True, True, False, False, True, False),
        ("5z", False, True, False, True, False, True, False),
        ("7z", False, True, False, True, False, True, False),
        ("1f", False, False, False, False, False, False, True),
        ("4g", False, False, False, False, False, False, True),
    ],
)
def test_predicates(code, suited, honour, wind, dragon, terminal, orphan, bonus):
    t = tile(code)
    assert t.is_suited is suited
    assert t.is_honour is honour
    assert t.is_wind is wind
    assert t.is_dragon is dragon
    assert t.is_terminal is terminal
    assert t.is_orphan is orphan
    assert t.is_bonus is bonus


def test_predicate_counts():
    assert sum(t.is_suited for t in TILES) == 27
    assert sum(t.is_honour for t in TILES) == 7
    assert sum(t.is_wind for t in TILES) == 4
    assert sum(t.is_dragon for t in TILES) == 3
    assert sum(t.is_terminal for t in TILES) == 6
    assert [t.code for t in TILES if t.is_orphan] == [
        "1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
    assert sum(t.is_bonus for t in TILES) == 8


# ---------------------------------------------------- interning, immutability


def test_interning():
    assert tile("5z") is tile(31)
    assert tile("5z") is tile(" 5z ")
    assert tile("5z") is tile("🀆")
    assert tile(tile("5z")) is tile("5z")
    assert parse_tiles("55z")[0] is parse_tiles("55z")[1]
    assert parse_tiles("5z")[0] is TILES[31]


@pytest.mark.parametrize("t", TILES, ids=str)
def test_pickle_and_copy_give_the_same_instance(t):
    assert copy.copy(t) is t
    assert copy.deepcopy(t) is t
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(t, protocol)) is t


def test_pickle_inside_containers():
    hand = parse_tiles("123m55z")
    back = pickle.loads(pickle.dumps(hand))
    assert all(a is b for a, b in zip(back, hand, strict=True))


def test_cannot_construct_or_subclass():
    with pytest.raises(TypeError):
        Tile()
    with pytest.raises(TypeError):
        Tile("5z")
    with pytest.raises(TypeError):
        class MyTile(Tile):
            pass


def test_immutable():
    t = tile("5z")
    with pytest.raises(AttributeError):
        t.index = 0
    with pytest.raises(AttributeError):
        t.extra = 1
    with pytest.raises(AttributeError):
        del t.code
    assert t.index == 31
    assert not hasattr(t, "__dict__")


def test_equality_hash_ordering():
    a, b = tile("1m"), tile("7z")
    assert a == tile(0)
    assert a != b
    assert a != "1m"  # equality by identity, not by code
    assert a < b and a <= b and b > a and b >= a and a <= a and a >= a
    assert not a < a
    assert hash(a) == hash(tile("1m"))
    assert {tile("5z"), tile(31), tile("🀆")} == {tile("5z")}
    assert sorted([tile("1g"), tile("7z"), tile("1f"), tile("1m"), tile("9p")]) == [
        tile("1m"), tile("9p"), tile("7z"), tile("1f"), tile("1g")]
    with pytest.raises(TypeError):
        _ = a < "2m"


# ---------------------------------------------------------------- tile()


def test_tile_accepts_each_form():
    assert tile("3p").index == 11
    assert tile("  3p\n").index == 11
    assert tile(11).code == "3p"
    assert tile(41).code == "4g"
    assert tile("🀄").code == "7z"
    assert tile("🀄\ufe0f").code == "7z"


@pytest.mark.parametrize(
    "bad, fragment",
    [("0m", "'0m'"), ("8z", "'8z'"), ("5f", "'5f'"), ("5x", "'5x'"), ("", "''"),
     ("55z", "'55z'"), ("🀄🀄", "'🀄🀄'"), ("5Z", "'5Z'"),
     (42, "42"), (-1, "-1"), (None, "None"), (1.0, "1.0"), (True, "True"), (["5z"], "['5z']")],
)
def test_tile_rejects(bad, fragment):
    with pytest.raises(TileError) as info:
        tile(bad)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, HkcoreError)


# ---------------------------------------------------------------- parsing


def codes(text):
    return [t.code for t in parse_tiles(text)]


def test_parse_basic():
    assert codes("123m456p789s1122z") == [
        "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    assert codes("1f2g") == ["1f", "2g"]
    assert codes("") == []
    assert codes("   ") == []


def test_parse_keeps_written_order():
    assert codes("55z321m") == ["5z", "5z", "3m", "2m", "1m"]
    assert codes("9m1m") == ["9m", "1m"]


def test_parse_ignores_whitespace():
    assert codes(" 12 3m\t4 5p\n") == ["1m", "2m", "3m", "4p", "5p"]
    assert codes("1 m") == ["1m"]


def test_parse_mixed_unicode_and_notation():
    assert codes("12m🀄3p") == ["1m", "2m", "7z", "3p"]
    assert codes("🀄\ufe0f🀄\ufe0f🀄\ufe0f 5z") == ["7z", "7z", "7z", "5z"]
    assert codes("🀇\ufe0f🀈") == ["1m", "2m"]


def test_parse_digit_ranges():
    assert codes("123456789m") == [f"{n}m" for n in range(1, 10)]
    assert codes("1234567z") == [f"{n}z" for n in range(1, 8)]
    assert codes("1234f1234g") == ["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"]


@pytest.mark.parametrize(
    "text, char, position, reason",
    [
        ("123 8z", "8", 4, "honours are 1z..7z"),
        ("8z", "8", 0, "honours are 1z..7z"),
        ("12x", "x", 2, "not a tile digit, suit letter or Unicode tile"),
        ("123m5", "5", 4, "digits without a suit letter"),
        ("123m56", "5", 4, "digits without a suit letter"),
        ("5", "5", 0, "digits without a suit letter"),
        ("12🀄", "1", 0, "digits without a suit letter"),
        ("m", "m", 0, "suit letter with no digits before it"),
        ("123mp", "p", 4, "suit letter with no digits before it"),
        ("05m", "0", 0, "characters are 1m..9m"),
        ("1230p", "0", 3, "no red fives"),
        ("0s", "0", 0, "bamboo are 1s..9s"),
        ("15f", "5", 1, "flowers are 1f..4f"),
        ("0g", "0", 0, "seasons are 1g..4g"),
        ("9g", "9", 0, "seasons are 1g..4g"),
        ("123M", "M", 3, "not a tile digit, suit letter or Unicode tile"),
        ("1m,2m", ",", 2, "not a tile digit, suit letter or Unicode tile"),
        ("1m\ufe0f", "\ufe0f", 2, "not a tile digit, suit letter or Unicode tile"),
        ("\ufe0f🀄", "\ufe0f", 0, "not a tile digit, suit letter or Unicode tile"),
        ("🀄\ufe0f\ufe0f", "\ufe0f", 2, "not a tile digit, suit letter or Unicode tile"),
        ("１m", "１", 0, "not a tile digit, suit letter or Unicode tile"),  # noqa: RUF001 - a fullwidth digit, refused
    ],
)
def test_parse_errors(text, char, position, reason):
    with pytest.raises(TileError) as info:
        parse_tiles(text)
    err = info.value
    assert err.text == text
    assert err.position == position
    assert text[err.position] == char
    message = str(err)
    assert message.startswith(f"{char!r} at position {position} of {text!r}")
    assert reason in message


def test_parse_error_messages_exact():
    with pytest.raises(TileError, match=r"^'8' at position 4 of '123 8z': honours are 1z\.\.7z$"):
        parse_tiles("123 8z")
    with pytest.raises(
        TileError, match=r"^'x' at position 2 of '12x': not a tile digit, suit letter or Unicode tile$"
    ):
        parse_tiles("12x")
    with pytest.raises(TileError, match=r"^'5' at position 4 of '123m5': digits without a suit letter$"):
        parse_tiles("123m5")


def test_parse_rejects_non_strings():
    with pytest.raises(TileError):
        parse_tiles(["1m"])  # type: ignore[arg-type]
    with pytest.raises(TileError):
        parse_tiles(None)  # type: ignore[arg-type]


# ------------------------------------------------------------- formatting


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("123m456p789s55z", "123m456p789s55z"),
        ("55z789s456p321m", "123m456p789s55z"),
        ("1m1p1s1z1f1g", "1m1p1s1z1f1g"),
        ("1g1f1z1s1p1m", "1m1p1s1z1f1g"),
        ("3m 1m 2m", "123m"),
        ("🀄🀆🀅", "567z"),
        ("4f3f2g", "34f2g"),
        ("9m1m9m", "199m"),
        ("", ""),
    ],
)
def test_format_canonical(text, canonical):
    assert format_tiles(parse_tiles(text)) == canonical


def test_format_accepts_codes_indices_tiles_and_strings():
    assert format_tiles(["5z", 0, tile("9s"), "🀄"]) == "1m9s57z"
    assert format_tiles("321m") == "123m"
    assert format_tiles([]) == ""
    with pytest.raises(TileError):
        format_tiles(["5z", "nope"])


def test_to_unicode_keeps_order():
    assert to_unicode(parse_tiles("3m1m")) == "🀉🀇"
    assert to_unicode(["7z", 31, tile("1f")]) == "🀄🀆🀢"
    assert to_unicode("1g2g") == "🀦🀧"
    assert to_unicode([]) == ""


def test_unicode_round_trip_of_every_tile_string():
    text = "".join(ALL_CODES[i] for i in range(42))
    assert parse_tiles(to_unicode(parse_tiles(text))) == parse_tiles(text)


# ----------------------------------------------------------------- counts34


def test_counts34():
    counts = counts34(parse_tiles("1112345678999m"))
    assert len(counts) == 34
    assert counts[:9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]
    assert sum(counts[9:]) == 0


def test_counts34_mixed_inputs():
    counts = counts34(["5z", "5z", 31, tile("🀆"), "1p", "7z"])
    expected = [0] * 34
    expected[31] = 4
    expected[9] = 1
    expected[33] = 1
    assert counts == expected
    assert counts34("") == [0] * 34
    assert counts34("19s") == [0] * 18 + [1] + [0] * 7 + [1] + [0] * 7


@pytest.mark.parametrize("bonus", ["1f", "4f", "1g", "4g", "🀥"])
def test_counts34_rejects_bonus_tiles(bonus):
    with pytest.raises(TileError) as info:
        counts34(["1m", bonus])
    assert tile(bonus).code in str(info.value)


# -------------------------------------------------------------- properties

tile_lists = st.lists(st.sampled_from(TILES), max_size=30)


@given(tile_lists)
def test_format_parse_round_trip(tiles):
    text = format_tiles(tiles)
    assert parse_tiles(text) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text


@given(tile_lists, st.randoms())
def test_canonical_form_does_not_depend_on_order(tiles, rnd):
    shuffled = list(tiles)
    rnd.shuffle(shuffled)
    assert format_tiles(shuffled) == format_tiles(tiles)


@given(tile_lists)
def test_canonical_form_shape(tiles):
    text = format_tiles(tiles)
    # each suit letter appears at most once, in the order m p s z f g
    letters = [c for c in text if not c.isdigit()]
    assert letters == [s for s in "mpszfg" if s in letters]
    assert sum(c.isdigit() for c in text) == len(tiles)


@given(tile_lists)
def test_written_order_and_unicode_round_trip(tiles):
    spaced = " ".join(t.code for t in tiles)
    assert parse_tiles(spaced) == tiles
    assert parse_tiles(to_unicode(tiles)) == tiles
    assert len(to_unicode(tiles)) == len(tiles)


@given(st.lists(st.sampled_from(HAND_TILES), max_size=30))
def test_counts34_matches_list(tiles):
    counts = counts34(tiles)
    assert sum(counts) == len(tiles)
    for t in HAND_TILES:
        assert counts[t.index] == tiles.count(t)
