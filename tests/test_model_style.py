"""One model style: every public input and result is a frozen value whose
``model_dump()``/``model_dump_json()`` use the contract's field names and
validate back with ``model_validate``; ``hkscore schema`` describes each;
a ``HandError`` lists every problem with ``errors()``.

Public values: Hand, Meld, Position, ScoreResult, Analysis, Comparison,
Claim (pydantic models) and Preset (a frozen dataclass with the same
surface; its data is a preset file's TOML).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

import hkcore
from helpers.cli import check_schema, run
from hkcore.analysis import Analysis
from hkcore.claims import Claim, legal_claims, resolve_claims
from hkcore.comparison import Column, Comparison
from hkcore.errors import HandError
from hkcore.models import Hand, Meld, Position
from hkcore.preset import Preset, PresetData, PresetError
from hkcore.results import ScoreResult

# The RULES.md example ("A hand as data"), and its dump: every field, each
# meld with its defaults filled in and "from" as the contract writes it.
EXAMPLE = "234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N"
EXAMPLE_DUMP = {
    "tiles": "234m55z",
    "melds": [{"kind": "pung", "tiles": "666z", "concealed": False, "from": "W"},
              {"kind": "pung", "tiles": "777z", "concealed": False, "from": "E"},
              {"kind": "kong", "tiles": "1111m", "concealed": True, "from": None}],
    "win_tile": "5z", "self_draw": False, "seat_wind": "S", "round_wind": "E", "flowers": [], "seasons": [],
    "discarder": "N", "last_tile": False, "kong_replacement": 0, "robbing_kong": False, "first_turn": None,
}
# RULES.md "A result as data" and the fields the result adds to it
RESULT_FIELDS = {"preset", "unit", "faan", "uncapped", "winnable", "complete", "limit", "shape", "patterns",
                 "reading", "payments", "payments_note", "reason"}
# A house preset with a plugin shape and its option, a plugin, and a pattern switched off
HOUSE = """extends = "just-cards"
id = "house"
minimum = 0
[shapes.standard]
[shapes.thirteen_orphans]
[shapes.seven_pairs]
four_as_two_pairs = true
[patterns]
robbing_kong = false
all_chows = { value = 1, when = ["concealed", "dealer"] }
seven_pairs = { value = 4, includes = ["concealed_hand"] }
"""

def _values() -> dict[str, Any]:
    """One or more values of each public model, by a name for the test ids."""
    hand = Hand.parse(EXAMPLE)
    flowers = Hand.parse("123m456p789s234s55p win:5p self-draw flowers:1")
    just = hkcore.load_preset("just-cards")
    swap = "56m147p258s12357z seat:S"  # a chow on E's 4m is the only claim; just-cards' swap rule
    wins = legal_claims("123456789m1155z seat:S", "1z", "E", "bga-old-style")
    return {
        "hand": hand, "hand-bonus-instant": Hand.parse("123m456p789s1234z flowers:1234 seasons:123 self-draw"),
        "meld": hand.melds[0], "meld-concealed": hand.melds[2],
        "position": Position.parse("123m456p23s55z 789s:E seat:S"),
        "result": hkcore.score(hand, "bga-old-style"), "result-no-payments": hkcore.score(hand, "mistboard"),
        "result-incomplete": hkcore.score("123m456p789s11223z win:3z", "mistboard"),
        "result-orphans": hkcore.score("19m19p19s12345677z win:7z self-draw", "hk-classic"),
        "analysis-waiting": hkcore.analyse("123m456p23s55z 789s:E seat:S", "mistboard"),
        "analysis-discards": hkcore.analyse("123m456p23s55z7z 789s:E seat:S", "mistboard"),
        "comparison": hkcore.compare(hand),
        "comparison-with-error": hkcore.compare(flowers, ["mistboard", "hk-classic"]),
        "claim-chow": legal_claims(swap, "4m", "E", just)[0],
        "claim-win": wins[0],
        "preset": hkcore.load_preset("bga-old-style"), "preset-house": Preset.from_toml(HOUSE),
    }


VALUES = _values()
ALL = pytest.mark.parametrize("name", list(VALUES))
MODELS = {"hand": Hand, "meld": Meld, "position": Position, "result": ScoreResult, "analysis": Analysis,
          "comparison": Comparison, "claim": Claim, "preset": Preset}


def model_of(name: str) -> Any:
    return MODELS[name.split("-")[0]]


def test_the_values_are_what_they_say() -> None:
    assert VALUES["result-incomplete"].complete is False
    assert VALUES["result-orphans"].shape == "thirteen_orphans"
    assert VALUES["result-no-payments"].payments is None and VALUES["result"].payments is not None
    assert VALUES["analysis-waiting"].waits and VALUES["analysis-discards"].discards
    cols = VALUES["comparison-with-error"].columns
    assert cols[0].result is not None and cols[1].error is not None
    assert VALUES["claim-chow"].forbidden_discards == ("4m", "7m")
    assert VALUES["claim-win"].kind == "win" and VALUES["claim-win"].result is not None
    assert VALUES["hand-bonus-instant"].win_tile is None
    assert VALUES["preset-house"].shape_options["seven_pairs"]["four_as_two_pairs"] is True


# --------------------------------------------------------------------------
# frozen

FIELD = {"hand": "tiles", "meld": "from_", "position": "seat_wind", "result": "faan", "analysis": "waits",
         "comparison": "hand", "claim": "seat", "preset": "minimum"}


@ALL
def test_frozen(name: str) -> None:
    value = VALUES[name]
    field = FIELD[name.split("-")[0]]
    before = getattr(value, field)
    if isinstance(value, BaseModel):
        with pytest.raises(ValidationError) as info:
            setattr(value, field, before)
        assert info.value.errors()[0]["type"] == "frozen_instance"
    else:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, before)
    assert getattr(value, field) == before


# --------------------------------------------------------------------------
# dumps with the contract's names

def test_hand_dump_is_the_rules_json() -> None:
    h = VALUES["hand"]
    assert h.model_dump(mode="json") == EXAMPLE_DUMP  # (in python mode, tuples for the lists)
    assert json.loads(h.model_dump_json()) == EXAMPLE_DUMP
    assert h.melds[0].model_dump() == {"kind": "pung", "tiles": "666z", "concealed": False, "from": "W"}


def test_position_dump_is_the_hand_json_without_the_win() -> None:
    assert VALUES["position"].model_dump(mode="json") == {
        "tiles": "123m456p23s55z", "melds": [{"kind": "chow", "tiles": "789s", "concealed": False, "from": "E"}],
        "seat_wind": "S", "round_wind": "E", "flowers": [], "seasons": []}


def test_result_dump_has_the_result_fields() -> None:
    r = VALUES["result"]
    d = r.model_dump()
    assert set(d) == RESULT_FIELDS
    assert (d["faan"], d["payments"]) == (9, {"E": -96, "S": 384, "W": -96, "N": -192})
    assert set(d["patterns"][0]) == {"id", "faan", "count", "name_en", "name_zh"}
    assert set(d["reading"][0]) == {"kind", "tiles", "concealed", "declared", "winning"}


def test_comparison_dump() -> None:
    d = VALUES["comparison-with-error"].model_dump(mode="json")
    assert set(d) == {"hand", "presets"}
    assert d["hand"]["melds"] == [] and d["hand"]["flowers"] == [1]
    ok, bad = d["presets"]
    assert set(ok) == {"preset", "result"} and ok["preset"] == "mistboard" and ok["result"]["faan"] == 4
    assert set(bad) == {"preset", "error", "type", "field"} and "bonus tiles" in bad["error"]
    assert (bad["type"], bad["field"]) == ("HandError", "flowers")  # ruling 14: the error names the field


def test_a_column_holds_a_result_or_an_error() -> None:
    with pytest.raises(ValidationError):
        Column(preset="mistboard")
    with pytest.raises(ValidationError):
        Column(preset="mistboard", result=VALUES["result"], error="and an error")
    with pytest.raises(ValidationError):
        Column(preset="mistboard", result=VALUES["result"], type="HandError")


def test_claim_dump() -> None:
    assert VALUES["claim-chow"].model_dump(mode="json") == {
        "seat": "S", "kind": "chow", "tiles": "456m", "discard": "4m", "robbing": None,
        "forbidden_discards": ["4m", "7m"], "result": None}


def test_preset_dump_is_its_toml_data() -> None:
    d = VALUES["preset-house"].model_dump()
    assert (d["id"], d["minimum"], d["cap"], d["tiles"]) == ("house", 0, 10, 136)
    assert d["shapes"] == {"standard": {}, "thirteen_orphans": {}, "seven_pairs": {"four_as_two_pairs": True}}
    assert d["patterns"]["seven_pairs"] == {"value": 4, "includes": ["concealed_hand"]}
    assert d["patterns"]["all_chows"] == {"value": 1, "when": ["concealed", "dealer"]}
    assert "robbing_kong" not in d["patterns"] and "extends" not in d
    assert VALUES["preset"].model_dump()["payments"]["scheme"] == "base_points"
    assert hkcore.load_preset("mistboard").model_dump()["payments"] is False
    assert hkcore.load_preset("playingcards-io").model_dump()["cap"] is False
    # the dump is what the schema describes, and TOML- and JSON-ready either way
    TypeAdapter(PresetData).validate_python(d)
    assert VALUES["preset-house"].model_dump(mode="json") == d == json.loads(VALUES["preset-house"].to_json())


@ALL
def test_dump_and_json_agree(name: str) -> None:
    value = VALUES[name]
    assert json.loads(value.model_dump_json()) == value.model_dump(mode="json")
    assert value.to_json() == value.model_dump_json()
    assert "from_" not in value.model_dump_json()


# --------------------------------------------------------------------------
# round trips

@ALL
def test_round_trip(name: str) -> None:
    value, model = VALUES[name], model_of(name)
    again = model.model_validate(value.model_dump())
    assert again == value
    assert model.model_validate_json(value.model_dump_json()) == value
    assert model.model_validate_json(value.to_json()) == value
    assert again.model_dump() == value.model_dump()


def test_round_trip_keeps_what_validation_derives() -> None:
    h = Hand.model_validate(VALUES["hand"].model_dump())
    assert (h.counts, h.win_index, h.kernel_context) == (VALUES["hand"].counts, VALUES["hand"].win_index,
                                                         VALUES["hand"].kernel_context)
    assert hkcore.score(h, "bga-old-style") == VALUES["result"]


def test_builtin_presets_round_trip_in_order() -> None:
    for pid in hkcore.presets():
        p = hkcore.load_preset(pid)
        again = Preset.model_validate(p.model_dump())
        assert again == p and [r.id for r in again.patterns] == [r.id for r in p.patterns]


def test_preset_data_as_a_mapping_keeps_the_pattern_order() -> None:
    # tomli_w writes pattern entries given as tables after the plain numbers;
    # the order counts (between equal limits, the first listed is shown)
    data = {"id": "x", "patterns": {"all_honours": {"limit": 10}, "chicken_hand": 0, "all_terminals": {"limit": 10}}}
    assert [r.id for r in hkcore.load_preset(data).patterns] == ["all_honours", "chicken_hand", "all_terminals"]


def test_preset_validation_errors_are_preset_errors() -> None:
    with pytest.raises(PresetError) as info:
        Preset.model_validate({"id": "x", "minimum": -1})
    assert "minimum" in str(info.value)
    with pytest.raises(PresetError):
        Preset.model_validate(["not", "a", "mapping"])
    with pytest.raises(PresetError):
        Preset.model_validate_json("{not json")
    assert Preset.model_validate(VALUES["preset"]) is VALUES["preset"]


def test_meld_from_underscore_is_still_refused() -> None:
    # the dump says "from"; "from_" stays an unknown key (validate_by_name is off)
    with pytest.raises(ValidationError):
        Meld.model_validate({"kind": "pung", "tiles": "666z", "from_": "W"})


# --------------------------------------------------------------------------
# results: to_json stays pydantic's bytes

@pytest.mark.parametrize("pid", hkcore.presets())
def test_result_to_json_is_model_dump_json(pid: str) -> None:
    hands = [EXAMPLE, "123m456p789s11223z win:3z", "19m19p19s12345677z win:7z self-draw"]
    if hkcore.load_preset(pid).bonus_tiles:
        hands.append("123m456p789s11122z win:2z self-draw flowers:13")
    for hand in hands:
        r = hkcore.score(hand, pid)
        assert r.to_json() == r.model_dump_json()


# --------------------------------------------------------------------------
# schemas

@pytest.mark.parametrize("target", list(MODELS))
def test_schema_command_covers_each_model(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", target)
    assert code == 0
    schema = json.loads(out)
    check_schema(schema)
    assert schema == MODELS[target].model_json_schema()
    assert schema["title"] == MODELS[target].__name__


@ALL
def test_schema_describes_the_dump(name: str) -> None:
    props = set(model_of(name).model_json_schema()["properties"])
    assert set(VALUES[name].model_dump()) <= props
    if not name.startswith("preset"):
        assert set(VALUES[name].model_dump()) == props


def test_preset_schema_keys_are_the_preset_keys() -> None:
    from hkcore.preset import TOP_KEYS

    schema = Preset.model_json_schema()
    assert set(schema["properties"]) == set(TOP_KEYS)
    from hkcore.preset import ENTRY_KEYS

    assert set(ENTRY_KEYS) <= set(schema["$defs"]["PatternEntry"]["properties"])


# --------------------------------------------------------------------------
# HandError.errors()

def test_hand_error_lists_every_field_problem() -> None:
    # three fields wrong at once: a bad tile, an unknown meld kind, a seat that is not one
    data = {"tiles": "234m5x5z", "melds": [{"kind": "pang", "tiles": "666z"}], "win_tile": "5z", "seat_wind": "Q"}
    with pytest.raises(HandError) as info:
        Hand.parse(data)
    err = info.value
    problems = err.errors()
    assert [(p["loc"], p["input"], p["type"]) for p in problems] == [
        (("tiles",), "234m5x5z", "value_error"),
        (("melds", 0, "kind"), "pang", "literal_error"),
        (("seat_wind",), "Q", "literal_error"),
    ]
    assert all(isinstance(p["msg"], str) and p["msg"] for p in problems)
    assert (err.field, err.value) == ("tiles", "234m5x5z")
    assert str(err).endswith("(and 2 more problems)")
    assert problems[0]["msg"] in str(err)
    assert err.errors() is not err.errors()  # a new list each time, as pydantic's


def test_hand_error_lists_bad_and_unknown_fields() -> None:
    data = dict(EXAMPLE_DUMP, self_draw="yes", colour="red", flowers=[5])
    with pytest.raises(HandError) as info:
        Hand.parse(data)
    locs = {p["loc"]: p for p in info.value.errors()}
    assert set(locs) == {("self_draw",), ("colour",), ("flowers",)}
    assert locs[("colour",)]["msg"] == "unknown field" and locs[("colour",)]["input"] == "red"
    assert locs[("flowers",)]["input"] == [5]


def test_a_meld_problem_comes_with_the_other_fields_problems() -> None:
    # each meld checks itself (kind against tiles) beside the hand's field checks
    melds = [{"kind": "chow", "tiles": "666z", "from": "W"}, *EXAMPLE_DUMP["melds"][1:]]
    with pytest.raises(HandError) as info:
        Hand.parse(dict(EXAMPLE_DUMP, melds=melds, round_wind="east"))
    assert [(p["loc"], p["input"]) for p in info.value.errors()] == [
        (("melds", 0, "kind"), "chow"), (("round_wind",), "east")]
    assert "a pung" in info.value.errors()[0]["msg"]


def test_a_context_problem_is_one_error_with_its_field() -> None:
    # the context is checked once every field is valid; its first problem stops it
    with pytest.raises(HandError) as info:
        Hand.parse(dict(EXAMPLE_DUMP, discarder="S"))
    (problem,) = info.value.errors()
    assert (problem["loc"], problem["input"], problem["type"]) == (("discarder",), "S", "value_error")
    assert "own seat" in problem["msg"]
    with pytest.raises(HandError) as info:
        Hand.parse(dict(EXAMPLE_DUMP,
                        melds=[*EXAMPLE_DUMP["melds"][:2], dict(EXAMPLE_DUMP["melds"][2], **{"from": "W"})]))
    (problem,) = info.value.errors()
    assert (problem["loc"], problem["input"]) == (("melds", 2, "from"), "W")


def test_notation_errors_keep_their_problems() -> None:
    with pytest.raises(HandError) as info:
        Hand.parse("234m5x5z 666z:W 777z:E [1111m] win:5z seat:Q")
    assert str(info.value).startswith("notation: token 1")
    assert [p["loc"] for p in info.value.errors()] == [("tiles",), ("seat_wind",)]


def test_a_hand_error_raised_directly_lists_itself() -> None:
    with pytest.raises(HandError) as info:
        legal_claims("123456789m1155z seat:S", "1z", "S")
    assert info.value.errors() == [{"type": "value_error", "loc": ("discarder",), "input": "S",
                                    "msg": "is the hand's own seat (S); a player cannot claim their own discard"}]
    assert HandError("no field").errors() == [{"type": "value_error", "loc": (), "msg": "no field", "input": None}]


def test_claim_errors_name_the_claim() -> None:
    bad = {"seat": "X", "kind": "pung", "tiles": "555z", "discard": "9x"}
    with pytest.raises(HandError) as info:
        resolve_claims([VALUES["claim-chow"], bad], "E", "just-cards")
    assert [(p["loc"], p["input"]) for p in info.value.errors()] == [
        (("claims", 1, "seat"), "X"), (("claims", 1, "discard"), "9x")]
    assert info.value.field == "claims.1.seat"


def test_position_errors() -> None:
    with pytest.raises(HandError) as info:
        Position.parse({"tiles": "123m456p23s55z", "seat_wind": "X", "flowers": [9]})
    assert [p["loc"] for p in info.value.errors()] == [("seat_wind",), ("flowers",)]


def test_house_preset_round_trips_through_a_file(tmp_path: Path) -> None:
    path = tmp_path / "house.json"
    path.write_text(VALUES["preset-house"].model_dump_json(indent=2), encoding="utf-8")
    assert Preset.model_validate_json(path.read_text(encoding="utf-8")) == VALUES["preset-house"]


def test_preset_schema_names_what_the_loader_reads() -> None:
    """The preset file's schema and the loader cannot drift apart: the same top-level keys and entry keys."""
    from hkcore.preset import ENTRY_KEYS, TOP_KEYS, PatternEntry

    assert set(PresetData.__annotations__) == set(TOP_KEYS)
    assert set(PatternEntry.__annotations__) == set(ENTRY_KEYS)
    schema = Preset.model_json_schema()
    assert set(schema["properties"]) == set(TOP_KEYS)
