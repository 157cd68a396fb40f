"""The renamed public names answer under their old names too, with a DeprecationWarning."""
from __future__ import annotations

import importlib
import json
import pickle
import sys
import warnings
from pathlib import Path

import pytest


def test_hkcore_shaping_is_hkcore_questions() -> None:
    sys.modules.pop("hkcore.shaping", None)
    with pytest.warns(DeprecationWarning, match="hkcore.shaping is now hkcore.questions"):
        shaping = importlib.import_module("hkcore.shaping")
    from hkcore import questions

    assert shaping.waits is questions.waits and shaping.shape_set is questions.shape_set


def test_sample_situation_is_sampled_win() -> None:
    from hkcore import sample

    with pytest.warns(DeprecationWarning, match="SampledWin"):
        old = sample.Situation
    assert old is sample.SampledWin
    with pytest.raises(AttributeError):
        sample.no_such_name  # noqa: B018


def test_server_preset_summary_is_preset_listing() -> None:
    pytest.importorskip("fastapi", reason="the server extra")
    import hkcore.server as server

    with pytest.warns(DeprecationWarning, match="PresetListing"):
        old = server.PresetSummary
    assert old is server.PresetListing


@pytest.mark.parametrize(("old", "new"), [
    ("hkcore.table.engine", "hkcore.table.flow.engine"),
    ("hkcore.table.wall", "hkcore.table.flow.wall"),
    ("hkcore.table.bots", "hkcore.table.players.bots"),
    ("hkcore.table.policy", "hkcore.table.players.policy"),
    ("hkcore.table.value", "hkcore.table.players.value"),
    ("hkcore.table.fastplay", "hkcore.table.players.fastplay"),
])
def test_the_table_modules_moved_answer_at_their_old_paths(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


PICKLES = Path(__file__).resolve().parent / "cases" / "pickles"


@pytest.mark.parametrize("name", sorted(p.name for p in PICKLES.glob("*.pickle")))
def test_bots_and_tables_pickled_by_the_last_release_load_and_play_on(name: str) -> None:
    """tests/cases/pickles/: what hkcore 0.1.0 pickled (its README says how), and what each answered next."""
    from hkcore import core

    if ("value" in name or name.startswith("table")) and core.IMPLEMENTATION != "cython":
        pytest.skip("its state is the compiled twin's (the value bot's parameters, the engine's arrays): a pickle "
                    "loads under the implementation that made it")
    expected = json.loads((PICKLES / "expected.json").read_text(encoding="utf-8"))[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the old module paths the pickles name
        thing = pickle.loads((PICKLES / name).read_bytes())
    if name.startswith("bot-"):
        assert [thing.decide(p) for p in expected["prompts"]] == expected["decisions"]
    else:
        assert thing.log == expected["log"] and thing.prompts() == expected["prompts"]
        p = thing.prompts()[0]
        thing.submit({"prompt": p["prompt"], "seat": p["seat"], **p["actions"][0]})  # it plays on
        assert len(thing.log) > len(expected["log"])
