"""The compiled readers of hand dicts build exactly what validation builds.

``Hand.parse`` and ``Position.parse`` first try the compiled core's reader
("fast accept, slow reject"): it accepts only plain, valid input and builds
the model directly; anything else goes to pydantic validation, whose errors
the user sees. These properties hold the two equal: for valid and mutated
input alike, the fast path gives the same model (every field, the fields
set, the private values, the kernel context, the dump) or the same error.
"""
from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pydantic import ValidationError

import hkcore
from helpers.fuzzing import JSON_VALUES, TOKENS, mutate, mutated_hands
from helpers.strategies import hands
from hkcore.errors import HandError
from hkcore.models import FAST_READERS, Hand, Position, hand_error

pytestmark = pytest.mark.skipif(not FAST_READERS,
                                reason="the pure-Python core has no fast readers (nothing to compare)")


def slow(model: Any, data: Any) -> Any:
    """What validation alone gives: the model, or the HandError text."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        return f"error: {hand_error(exc)}"


def fast(model: Any, data: Any) -> Any:
    """What Hand.parse / Position.parse give (the fast reader first)."""
    try:
        return model.parse(data)
    except HandError as exc:
        return f"error: {exc}"


def same(a: Any, b: Any) -> None:
    if isinstance(a, str) or isinstance(b, str):
        assert a == b
        return
    assert type(a) is type(b)
    assert a == b
    assert a.__dict__ == b.__dict__
    assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__
    assert a.__pydantic_private__ == b.__pydantic_private__
    assert a.kernel_context == b.kernel_context
    assert a.model_dump() == b.model_dump()
    assert a.model_dump(exclude_unset=True) == b.model_dump(exclude_unset=True)
    for ma, mb in zip(a.melds, b.melds):
        assert ma.__pydantic_private__ == mb.__pydantic_private__
        assert ma.__pydantic_fields_set__ == mb.__pydantic_fields_set__


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(hands())
def test_valid_hands_read_alike(data: dict[str, Any]) -> None:
    same(fast(Hand, data), slow(Hand, data))


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_hands(0, 2))
def test_mutated_hands_read_alike(data: Any) -> None:
    if not isinstance(data, dict):
        return
    same(fast(Hand, data), slow(Hand, data))


POSITION_FIELDS = ("tiles", "melds", "seat_wind", "round_wind", "flowers", "seasons")


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    hand = draw(hands())
    data = {k: v for k, v in hand.items() if k in POSITION_FIELDS}
    tiles = hkcore.parse_tiles(data["tiles"])
    if draw(st.booleans()) and hand.get("win_tile"):  # 13 - 3k: drop the winning tile
        tiles.remove(hkcore.tile(hand["win_tile"]))
    data["tiles"] = hkcore.format_tiles(tiles)
    for _ in range(draw(st.integers(0, 1))):
        data = mutate(draw, data)
    return data


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_positions_read_alike(data: Any) -> None:
    if not isinstance(data, dict):
        return
    same(fast(Position, data), slow(Position, data))


def test_the_fast_reader_is_used_for_plain_input() -> None:
    """Plain valid input is read by the compiled reader (else the speed is lost silently)."""
    data = {"tiles": "234m55z", "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
                                          {"kind": "pung", "tiles": "777z", "from": "E"},
                                          {"kind": "kong", "tiles": "1111m", "concealed": True}],
            "win_tile": "5z", "seat_wind": "S", "discarder": "N"}
    assert FAST_READERS[Hand](data) is not None
    assert FAST_READERS[Hand](json.loads(json.dumps(data))) is not None
    assert FAST_READERS[Position]({"tiles": "123m456p23s55z", "melds": [{"kind": "chow", "tiles": "789s", "from": "E"}],
                               "seat_wind": "S"}) is not None
    # and unusual input is left to validation
    assert FAST_READERS[Hand]({**data, "tiles": "234m 55z"}) is None
    assert FAST_READERS[Hand]({**data, "self_draw": 1}) is None


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(["tiles", "win_tile", "seat_wind", "discarder", "flowers", "kong_replacement",
                                 "self_draw", "first_turn"]), JSON_VALUES)
def test_one_bad_field_reads_alike(data: dict[str, Any], key: str, value: Any) -> None:
    data = {**data, key: value}
    same(fast(Hand, data), slow(Hand, data))


# ---------------------------------------------------------------- results out

PRESETS = hkcore.presets()


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(hands(), st.sampled_from(PRESETS))
def test_result_json_is_pydantic_s_byte_for_byte(data: dict[str, Any], preset: str) -> None:
    try:
        result = hkcore.score(data, preset)
    except HandError:
        return
    assert result.to_json() == result.model_dump_json()
    assert json.loads(result.to_json()) == result.model_dump()


def test_result_json_with_odd_text(tmp_path: Any) -> None:
    """Preset ids and reasons with quotes, backslashes, control characters and Chinese print as pydantic prints them."""
    path = tmp_path / "odd.toml"
    path.write_text('extends = "mistboard"\nid = "a \\"quoted\\" \\\\ id\\u0001 中文"\nminimum = 5\n', encoding="utf-8")
    preset = hkcore.load_preset(path)
    result = hkcore.score("123m456p789s11122z win:2z", preset)
    assert not result.winnable and preset.id in (result.reason or "")
    assert result.to_json() == result.model_dump_json()
    built = hkcore.ScoreResult(preset="x", unit="faan", faan=1, uncapped=1, winnable=True, complete=True,
                               payments={"N": 1, "E": -1})
    assert built.to_json() == built.model_dump_json()
    assert built.to_json(indent=2) == built.model_dump_json(indent=2)


# ------------------------------------------------- JSON text, bytes and notation

from hkcore.engine import compiled_for  # noqa: E402
from hkcore.models import _parse_model  # noqa: E402
from hkcore.notation import format_hand  # noqa: E402


def slow_text(model: Any, text: Any) -> Any:
    """What the Python readers alone give for text (the compiled reader skipped)."""
    try:
        return _parse_model(model, text, model is Hand, fast_path=False)
    except HandError as exc:
        return f"error: {exc}"


def slow_score(text: Any, preset: str) -> Any:
    """A result scored from the slowly read hand, as JSON; or the error."""
    try:
        return compiled_for(preset).score(_parse_model(Hand, text, True, fast_path=False)).to_json()
    except HandError as exc:
        return f"error: {exc}"


def fast_score(text: Any, preset: str) -> Any:
    try:
        return hkcore.score(text, preset).to_json()
    except HandError as exc:
        return f"error: {exc}"


#: characters JSON and notation mutations draw from: the syntax of both, escapes, odd spaces, non-ASCII
TEXT_CHARS = st.sampled_from(list('{}[],:" \\\t\n\x0b\x1c0123456789.-+eEmpszfgESWNews_:tfnul') + ["中", "\u3000", "🀄"])


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """A valid hand's JSON in any layout, sometimes with a key given twice, an escape or a character changed."""
    data = draw(hands())
    text = json.dumps(data, indent=draw(st.sampled_from([None, 0, 2])),
                      separators=draw(st.sampled_from([None, (",", ":"), (" , ", " : ")])))
    text = draw(st.sampled_from(["", " ", "\n", "\t"])) + text + draw(st.sampled_from(["", " ", "\r\n"]))
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["insert", "delete", "replace", "repeat key", "escape"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if action == "insert":
            text = text[:at] + draw(TEXT_CHARS) + text[at:]
        elif action == "delete":
            text = text[:at] + text[at + 1:]
        elif action == "replace":
            text = text[:at] + draw(TEXT_CHARS) + text[at + 1:]
        elif action == "repeat key":
            key = draw(st.sampled_from(sorted(data)))
            text = text.replace("{", "{" + json.dumps(key) + ": " + json.dumps(data[key]) + ", ", 1)
        else:
            text = text.replace('"', '"\\u0074' if draw(st.booleans()) else '"\\"', 1)
    return text


@st.composite
def notation_texts(draw: st.DrawFn) -> str:
    """A valid hand's notation, its words in any case and spelling, sometimes with a token or character changed."""
    data = draw(hands())
    try:
        tokens = format_hand(Hand.model_validate(data)).split(" ")
    except ValidationError:
        tokens = [data["tiles"]]
    out = []
    for t in tokens:
        if draw(st.booleans()):
            t = t.upper() if draw(st.booleans()) else t.replace("-", "_")
        out.append(t)
    if draw(st.booleans()):
        out[1:] = draw(st.permutations(out[1:]))
    for _ in range(draw(st.integers(0, 2))):
        action = draw(st.sampled_from(["token", "repeat", "drop", "char"]))
        if action == "token":
            out.insert(draw(st.integers(0, len(out))), draw(TOKENS))
        elif action == "repeat" and len(out) > 1:
            out.append(draw(st.sampled_from(out[1:])))
        elif action == "drop" and len(out) > 1:
            out.pop(draw(st.integers(1, len(out) - 1)))
        elif action == "char":
            i = draw(st.integers(0, len(out) - 1))
            at = draw(st.integers(0, len(out[i])))
            out[i] = out[i][:at] + draw(TEXT_CHARS) + out[i][at + 1:]
    return draw(st.sampled_from(["", " "])) + draw(st.sampled_from([" ", "  "])).join(out)



@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(json_texts())
def test_json_text_reads_alike(text: str) -> None:
    same(fast(Hand, text), slow_text(Hand, text))
    raw = text.encode()
    same(fast(Hand, raw), slow_text(Hand, raw))


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(notation_texts())
def test_notation_reads_alike(text: str) -> None:
    same(fast(Hand, text), slow_text(Hand, text))


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_texts(), notation_texts()))
def test_position_text_reads_alike(text: str) -> None:
    same(fast(Position, text), slow_text(Position, text))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_texts(), notation_texts(), mutated_hands(0, 1)), st.sampled_from(PRESETS))
def test_score_from_any_input_is_the_slow_path_s(data: Any, preset: str) -> None:
    """score() answers plain input in the compiled core (no Hand built when
    the preset does not need one); the result and errors are those of the
    slow path."""
    assert fast_score(data, preset) == slow_score(data, preset)


def test_the_fast_reader_reads_text() -> None:
    """Plain JSON text, bytes and notation are read by the compiled reader;
    unusual text is left to the Python readers."""
    reader = FAST_READERS[Hand]
    line = "234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N"
    hand = reader(line)
    assert hand is not None and hand.melds[2].concealed and hand.discarder == "N"
    as_json = hand.to_json()
    assert reader(as_json) == hand and reader(as_json.encode()) == hand
    assert reader(" 234m55z 666z:w 777z:e [1111m]  WIN:5Z Seat:s FROM:n ") == hand
    assert reader(line.replace("[1111m]", "1111m:Concealed")) == hand
    for unusual in [line.replace(" ", "\t"), line + " 🀄", as_json.replace('"5z"', '"\\u0035z"'),
                    as_json.replace("{", '{"seat_wind": "S", ', 1), as_json + "x",
                    line.replace("win:5z", "win:5z win:5z")]:
        assert reader(unusual) is None
