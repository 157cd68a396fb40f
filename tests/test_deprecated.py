"""The renamed public names answer under their old names too, with a DeprecationWarning."""
from __future__ import annotations

import importlib
import sys

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
