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


@pytest.mark.parametrize(("old", "new"), [
    ("hkcore.cli_common", "hkcore.cli.common"),
    ("hkcore.cli_hand", "hkcore.cli.hand"),
    ("hkcore.cli_presets", "hkcore.cli.presets"),
    ("hkcore.cli_simulate", "hkcore.cli.simulate"),
    ("hkcore.cli_table", "hkcore.cli.table"),
    ("hkcore.report_plots", "hkcore.reports.plots"),
    ("hkcore.simulation_report", "hkcore.reports.simulation"),
])
def test_the_cli_and_report_modules_moved_answer_at_their_old_paths(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is now {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)


def test_hkcore_report_is_the_comparison_report_and_the_page_kit() -> None:
    sys.modules.pop("hkcore.report", None)
    with pytest.warns(DeprecationWarning, match="hkcore.report is now hkcore.reports.comparison"):
        old = importlib.import_module("hkcore.report")
    from hkcore.reports import comparison, page

    assert old.write_report is comparison.write_report and old.page is comparison.page
    assert old.markdown is comparison.markdown
    for name in ("cell", "data_attrs", "md_table", "pattern_names", "report_folder", "require_matplotlib",
                 "rule_rows", "rule_table_rows", "rule_value", "write_files", "MissingExtra", "INSTALL"):
        assert getattr(old, name) is getattr(page, name), name
    assert old.PAGE_CSS is page.CSS


def test_the_command_line_keeps_its_entry_points() -> None:
    import hkcore.cli
    from hkcore.cli.commands import main

    assert hkcore.cli.main is main and callable(hkcore.cli.build_parser)


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
