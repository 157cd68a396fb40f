"""One schema for a preset file: the models of ``hkcore.preset.schema`` are
the loader's checks, the JSON Schema and the key tables of docs/house-rules.md."""
from __future__ import annotations

from pathlib import Path

import pytest

import hkcore
from hkcore import registry
from hkcore.options import options_model
from hkcore.preset import (
    CLAIM_RULES,
    ENTRY_KEYS,
    TOP_KEYS,
    Claims,
    Preset,
    PresetError,
    PresetFile,
    docs_claims_table,
    docs_entry_table,
    docs_table,
    load_preset,
    pattern_worth,
)

DOCS = Path(__file__).resolve().parents[1] / "docs" / "house-rules.md"


@pytest.mark.parametrize("render", [docs_table, docs_entry_table, docs_claims_table])
def test_docs_tables_are_the_models(render: object) -> None:
    assert callable(render)
    assert render() in DOCS.read_text(encoding="utf-8")


def test_docs_table_has_a_row_per_key() -> None:
    rows = docs_table().splitlines()[2:]
    keys = [row.split("`")[1].strip("[]") for row in rows]
    assert keys == list(TOP_KEYS)
    assert "| `[patterns]` |" in docs_table() and "| `minimum` |" in docs_table()


def test_schema_is_the_file_model() -> None:
    schema = Preset.model_json_schema()
    assert schema == PresetFile.model_json_schema()
    assert schema["title"] == "Preset" and schema["additionalProperties"] is False
    assert list(schema["properties"]) == list(TOP_KEYS)
    # what the checks say is what the schema says: minimum 0..1000, cap 1..1000 or false, tiles 136 or 144
    assert (schema["properties"]["minimum"]["minimum"], schema["properties"]["minimum"]["maximum"]) == (0, 1000)
    assert False in [s.get("const") for s in schema["properties"]["cap"]["anyOf"]]
    assert set(schema["properties"]["tiles"]["enum"]) == {136, 144}
    assert schema["$defs"]["Claims"]["properties"]["robbing_kong"]["enum"] == \
        ["added", "none", "added_and_concealed_orphans"]


def test_claim_rules_come_from_the_claims_model() -> None:
    assert CLAIM_RULES == {"robbing_kong": ("added", "none", "added_and_concealed_orphans"),
                           "multiple_winners": (False, True), "swap_rule": (False, True)}
    assert Claims().model_dump() == {"robbing_kong": "added", "multiple_winners": False, "swap_rule": False}


def test_each_pattern_is_checked_by_its_own_model() -> None:
    cat = registry.catalogue()
    nine = cat.options[("pattern", "nine_gates")]
    assert list(nine.model_fields) == ["wait"]
    assert ("pattern", "all_chows") not in cat.options
    assert nine.model_validate({}).model_dump() == {"wait": "pure"}
    assert load_preset("bga-old-style").rule("nine_gates").options == {"wait": "pure"}
    # an option of one pattern is an unknown key of another
    with pytest.raises(PresetError) as info:
        load_preset('extends = "bga-old-style"\n[patterns]\nall_chows = { value = 1, wait = "pure" }\n')
    assert info.value.path == "patterns.all_chows.wait"
    assert str(info.value).endswith("; pattern 'all_chows' takes " + ", ".join(ENTRY_KEYS))
    assert list(options_model(cat.shapes["standard"]).model_fields) == []


def test_section_errors_name_the_path_the_value_and_the_nearest_key() -> None:
    cases = [
        ('id = "x"\n[claims]\nrobing_kong = "none"\n', "claims.robing_kong", "robing_kong",
         ("unknown key 'robing_kong' (did you mean 'robbing_kong'?); claims take robbing_kong, multiple_winners, "
          "swap_rule")),
        ('id = "x"\n[claims]\nswap_rule = 1\n', "claims.swap_rule", 1, "1 is not one of False, True"),
        ('id = "x"\nclaims = 3\n', "claims", 3, "expected a table of claim rules, got 3"),
        ('id = "x"\n[patterns]\nall_chows = { value = 1, when = ["dealer", "slef_draw"] }\n',
         "patterns.all_chows.when[1]", "slef_draw", "unknown condition 'slef_draw' (did you mean 'self_draw'?)"),
        ('id = "x"\n[patterns]\ndragon_pung = { by_count = [0, 2, -6] }\n', "patterns.dragon_pung.by_count[2]", -6,
         "expected a whole number 0..1000, got -6"),
        ('id = "x"\nrequires = ["no such package!"]\n', "requires[0]", "no such package!",
         "'no such package!' is not a package name"),
    ]
    for text, path, value, words in cases:
        with pytest.raises(PresetError) as info:
            load_preset(text)
        assert (info.value.file, info.value.path, info.value.value) == ("<toml>", path, value), text
        assert str(info.value).startswith(f"<toml>: {path}: {words}"), text


def test_the_first_problem_in_the_loader_s_order() -> None:
    # requires is checked before minimum, minimum before patterns (the order of the checks, not of the file)
    with pytest.raises(PresetError) as info:
        load_preset('id = "x"\nminimum = -1\nrequires = [3]\n')
    assert info.value.path == "requires"
    with pytest.raises(PresetError) as info:
        load_preset('id = "x"\n[patterns]\nall_chow = 1\n[claims]\nswap_rule = 2\n')
    assert info.value.path == "patterns.all_chow"


def test_worth_has_one_home() -> None:
    # by_count = [0, 2, 6, 6]: met 0..3 times, and more than the table holds
    assert [pattern_worth(None, (0, 2, 6, 6), n) for n in (0, 1, 2, 3, 5)] == [0, 2, 6, 6, 6]
    assert [pattern_worth(2, None, n) for n in (0, 1, 3)] == [0, 2, 6]
    pcio = load_preset("playingcards-io")
    from hkcore.engine import CompiledPreset

    entry = next(e for e in CompiledPreset(pcio).entries if e.id == "dragon_pung")
    assert [entry.worth(n) for n in range(5)] == [pcio.rule("dragon_pung").worth(n) for n in range(5)] == \
        [0, 2, 6, 6, 6]


def test_preset_is_a_frozen_pydantic_value() -> None:
    from pydantic import TypeAdapter

    p = hkcore.load_preset("mistboard")
    assert TypeAdapter(Preset).dump_python(p) == p.model_dump()
    # no payments and no cap are written as false, as a preset file says them
    assert p.model_dump()["payments"] is False and load_preset("playingcards-io").model_dump()["cap"] is False
    with pytest.raises(AttributeError):
        p.minimum = 0  # type: ignore[misc]
