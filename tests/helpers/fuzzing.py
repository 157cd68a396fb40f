"""Hypothesis strategies of hostile values and a faulty plugin, shared by
tests/test_fuzz.py, tests/test_ingest.py and tests/fuzz_long.py."""
from __future__ import annotations

from typing import Any, ClassVar

from hypothesis import strategies as st

from helpers.strategies import hands
from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern
from hkcore.payments import PaymentAdjustment, PaymentScheme, SchemeParams
from hkcore.shapes import Shape


def _huge(negative: bool) -> int:
    """An int too long to print (Python refuses str() of more than 4,300 digits)."""
    return -(10**5000) if negative else 10**5000


WEIRD_INTS = st.one_of(
    st.sampled_from([-1, 0, 1, 2, 3, 4, 5, 8, 13, 14, 34, 99, 255, 256, 2**31 - 1, 2**31, 2**63, -(2**63)]),
    st.builds(_huge, st.booleans()),
)
WEIRD_STRINGS = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["", " ", "²", "½", "٣", "\x00", "🀄", "🀢", "5z", "0m", "10m", "1111m", "E", "e", "Z",
                     "self-draw", "win:", "[", "]", ":", "x" * 300, "1m" * 600, "null", "{}", "\u202e"]),
)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | WEIRD_INTS | st.floats(allow_nan=True) | WEIRD_STRINGS,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(WEIRD_STRINGS, inner, max_size=4),
    max_leaves=12,
)
TOKENS = st.sampled_from([
    "123m", "456p", "789s", "11z", "22z", "111z", "5555s", "[1111m]", "[123m]", "1111m:concealed", "2222p:CONCEALED",
    "777z:concealed", "1111m:concealed:E", "[777z]", "666z:W", "777z:E", "567m:N",
    "123m:X", "666z:", "win:5z", "win:9f", "win:", "self-draw", "from:N", "from:E", "seat:S", "seat:Q", "round:W",
    "flowers:13", "flowers:1234", "flowers:55", "flowers:²", "seasons:2", "last-tile", "kong-replacement",
    "kong-replacement:2", "kong-replacement:9", "robbing-kong", "first-turn:deal", "first-turn:first_draw",
    "first-turn:x", "win:1m", "SELF_DRAW", "🀄🀄🀄", "1f", "x", "::", "[]", "[1111m", "9999999999m",
])


def mutate(draw: st.DrawFn, value: Any, depth: int = 0) -> Any:
    """``value`` with one random change somewhere inside it."""
    if isinstance(value, dict) and value and depth < 3:
        key = draw(st.sampled_from(sorted(value)))
        out = dict(value)
        action = draw(st.sampled_from(["replace", "delete", "add", "inner"]))
        if action == "replace":
            out[key] = draw(JSON_VALUES)
        elif action == "delete":
            del out[key]
        elif action == "add":
            out[draw(WEIRD_STRINGS)] = draw(JSON_VALUES)
        else:
            out[key] = mutate(draw, value[key], depth + 1)
        return out
    if isinstance(value, list) and value and depth < 3:
        i = draw(st.integers(0, len(value) - 1))
        out_list = list(value)
        action = draw(st.sampled_from(["replace", "delete", "duplicate", "inner"]))
        if action == "replace":
            out_list[i] = draw(JSON_VALUES)
        elif action == "delete":
            del out_list[i]
        elif action == "duplicate":
            out_list.insert(i, value[i])
        else:
            out_list[i] = mutate(draw, value[i], depth + 1)
        return out_list
    return draw(JSON_VALUES)


@st.composite
def mutated_hands(draw: st.DrawFn, least: int = 1, most: int = 3) -> Any:
    """A valid hand with ``least``..``most`` random changes."""
    hand = draw(hands())
    for _ in range(draw(st.integers(least, most))):
        hand = mutate(draw, hand)
    return hand


class Faulty:
    """One plugin whose pattern, shape, scheme and adjustment answer whatever
    ``answer[0]`` holds (or raise it, when it is an exception)."""

    answer: ClassVar[list[Any]] = [0]

    @staticmethod
    def _give() -> Any:
        found = Faulty.answer[0]
        if isinstance(found, BaseException):
            raise found
        return found

    @hookimpl
    def hkcore_patterns(self) -> list[Pattern]:
        return [Pattern("fuzz_pattern", "Fuzz", "測試", lambda s, o: Faulty._give())]

    @hookimpl
    def hkcore_shapes(self) -> list[Shape]:
        return [Shape("fuzz_shape", "Fuzz", "測試", lambda c, k, o: Faulty._give(), lambda c, k, m, o: Faulty._give())]

    @hookimpl
    def hkcore_payment_schemes(self) -> list[PaymentScheme]:
        return [PaymentScheme("fuzz_scheme", "fuzz", SchemeParams, lambda win, p: Faulty._give())]

    @hookimpl
    def hkcore_payment_adjustments(self) -> list[PaymentAdjustment]:
        return [PaymentAdjustment("fuzz_adjustment", "fuzz", lambda h, w, p, o: Faulty._give())]
