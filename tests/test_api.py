"""The package's edges: presets from text or data, the version, the type marker."""
from __future__ import annotations

import importlib.resources
import subprocess
import sys
import tempfile

import pytest

import hkcore

#: a house preset as a database would hold it
HOUSE = 'extends = "mistboard"\nid = "house"\nminimum = 2\n'
#: a discard win worth 2 at mistboard: 123m 456p 234s 789s and 55z, all_chows 1 + concealed_hand 1
#: (flower 2 is not East's seat flower, and it takes away no_bonus)
HAND = "123m456p234789s55z win:5z from:N flowers:2"


def test_presets_from_toml_text_and_from_data() -> None:
    from_text = hkcore.load_preset(HOUSE)
    from_data = hkcore.load_preset({"extends": "mistboard", "id": "house", "minimum": 2})
    from_class = hkcore.Preset.from_toml(HOUSE)
    assert from_text == from_data == from_class
    assert from_text.id == "house" and from_text.minimum == 2
    # mistboard needs 3: the same hand wins only under the house preset
    at_mistboard = hkcore.score(HAND, "mistboard")
    assert (at_mistboard.faan, at_mistboard.winnable) == (2, False)
    assert hkcore.score(HAND, from_text).winnable


def test_bad_toml_text_and_data_are_preset_errors() -> None:
    with pytest.raises(hkcore.PresetError, match="TOML"):
        hkcore.load_preset("minimum = = 2\n")
    with pytest.raises(hkcore.PresetError, match="minimum"):
        hkcore.load_preset({"extends": "mistboard", "minimum": -1})
    with pytest.raises(hkcore.PresetError):
        hkcore.load_preset({"extends": "mistboard", "minimum": object()})
    with pytest.raises(hkcore.PresetError):
        hkcore.Preset.from_toml('extends = "../../etc/x.toml"\n', root=tempfile.gettempdir())


def test_version_and_type_marker() -> None:
    out = subprocess.run([sys.executable, "-m", "hkcore.cli", "--version"], capture_output=True, text=True,
                         cwd=tempfile.gettempdir(), timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == f"hkscore (hkcore) {hkcore.__version__}"
    assert importlib.resources.files("hkcore").joinpath("py.typed").is_file()


def test_importing_from_the_source_tree_works_fully() -> None:
    """From the repository root, ``import hkcore`` finds the source tree: its
    optional plugins are found as when installed (just-cards needs liability),
    and without a build the pure core answers, saying how to build."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    if not (root / "hkcore" / "__init__.py").is_file():
        pytest.skip("no source tree beside tests/ (the tests run against an installed hkcore)")
    code = ("import hkcore\n"
            "r = hkcore.score('234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N', 'just-cards')\n"
            "print(hkcore.__file__, r.faan, r.payments)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=120)
    assert out.returncode == 0, out.stderr
    where, faan, payments = out.stdout.split(" ", 2)
    assert Path(where).resolve().is_relative_to(root)
    # just-cards: dragon_pung 1 + dragon_pung 1 (two dragon pungs) + half_flush 3 + little_three_dragons 3 = 8;
    # faan_table: 8 faan is table[8 - 3] = 128, a discarder pays twice: N pays 256 (liability: no fed fourth set)
    assert faan == "8" and payments.strip() == "{'E': 0, 'S': 256, 'W': 0, 'N': -256}"


@pytest.mark.parametrize("preset", ["hk-classic", "mistboard"])
def test_a_preset_without_a_payment_table_says_so(preset: str) -> None:
    """RULES.md: mistboard and hk-classic have no payment table "(the result says so)"."""
    r = hkcore.score("234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N", preset)
    assert r.winnable and r.payments is None
    assert r.payments_note == f"no payment table: {preset} scores faan only"
    with_table = hkcore.score("234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N", "bga-old-style")
    assert with_table.payments is not None and with_table.payments_note is None
