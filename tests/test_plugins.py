"""Third-party plugins: discovery through entry points, and broken plugins.

The example plugin (docs/example-plugin) is made findable the way an
installed distribution is: a ``*.dist-info`` folder with METADATA and
entry_points.txt on sys.path, which ``importlib.metadata`` reads.
"""
from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import hkcore
from hkcore import registry
from hkcore.preset import PresetError

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "example-plugin"
ALL_GREEN_HAND = {"tiles": "223344666888s66z", "win_tile": "8s", "self_draw": True}


def _fresh() -> None:
    registry.reload_plugins()


def make_dist(site: Path, name: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
    """A distribution as pip leaves it: modules plus NAME-VERSION.dist-info."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    lines = ["[hkcore]"] + [f"{k} = {v}" for k, v in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(source)
    registry.reload_plugins()  # what a process does after a plugin is installed


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path where test distributions are 'installed'."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    _fresh()
    yield folder
    monkeypatch.undo()
    _fresh()


@pytest.fixture
def all_green(site: Path) -> Path:
    if not EXAMPLE.is_dir():  # tests/ copied beside an installed wheel, without the docs
        pytest.skip("docs/example-plugin is not beside tests/ (it ships in the sdist and the repository, "
                    "not in the wheel)")
    shutil.copytree(EXAMPLE / "hkcore_all_green", site / "hkcore_all_green")
    make_dist(site, "hkcore-all-green", {"all_green": "hkcore_all_green"}, {})
    return site


def _house(tmp_path: Path, body: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text('extends = "bga-old-style"\n' + body)
    return str(path)


def test_discovered_pattern_scores_from_a_preset(all_green: Path, tmp_path: Path) -> None:
    cat = registry.catalogue()
    assert cat.owner[("pattern", "all_green")] == "all_green"
    preset = _house(tmp_path, "[patterns]\nall_green = { limit = 13 }\n")
    result = hkcore.score(ALL_GREEN_HAND, preset)
    # all_green is a limit of 13; the ordinary count (half flush 3, concealed 1,
    # self-draw 1, no bonus 1, dragon... none: 66z is the pair) is 6, lower
    assert (result.faan, result.limit) == (13, True)
    assert [p.id for p in result.patterns] == ["all_green"]


def test_plugin_pattern_options_are_checked(all_green: Path, tmp_path: Path) -> None:
    preset = _house(tmp_path, "[patterns]\nall_green = { limit = 13, dragon_requird = true }\n")
    with pytest.raises(PresetError) as info:
        hkcore.load_preset(preset)
    assert "patterns.all_green.dragon_requird" in str(info.value)
    assert "dragon_required" in str(info.value)


def test_missing_plugin_is_named(site: Path, tmp_path: Path) -> None:
    preset = _house(tmp_path, "[patterns]\nall_green = { limit = 13 }\n")
    with pytest.raises(PresetError) as info:
        hkcore.load_preset(preset)
    message = str(info.value)
    assert "house.toml" in message and "patterns.all_green" in message
    assert "plugin" in message and "installed" in message


def test_required_plugin_package_is_named(site: Path, tmp_path: Path) -> None:
    preset = _house(tmp_path, 'requires = ["hkcore-all-green"]\n[patterns]\nall_green = { limit = 13 }\n')
    with pytest.raises(PresetError) as info:
        hkcore.load_preset(preset)
    assert "requires[0]" in str(info.value) and "hkcore-all-green" in str(info.value)
    assert "not installed" in str(info.value)


def test_required_plugin_package_installed(all_green: Path, tmp_path: Path) -> None:
    preset = _house(tmp_path, 'requires = ["hkcore-all-green"]\n[patterns]\nall_green = { limit = 13 }\n')
    assert hkcore.load_preset(preset).requires == ("hkcore-all-green",)
    assert hkcore.score(ALL_GREEN_HAND, preset).faan == 13


def test_plugin_that_fails_to_import(site: Path, tmp_path: Path) -> None:
    make_dist(site, "broken-plugin", {"broken": "broken_mod"}, {"broken_mod": "raise RuntimeError('boom')\n"})
    cat = registry.catalogue()
    assert "broken" in cat.broken_plugins
    assert "boom" in cat.broken_plugins["broken"]
    # presets that do not use it still work
    assert hkcore.score(ALL_GREEN_HAND, "bga-old-style").complete
    preset = _house(tmp_path, "[patterns]\nbroken_pattern = 1\n")
    with pytest.raises(PresetError) as info:
        hkcore.load_preset(preset)
    assert "broken" in str(info.value) and "boom" in str(info.value)


def test_plugin_returning_garbage(site: Path) -> None:
    source = ("from hkcore.hookspecs import hookimpl\n"
              "@hookimpl\n"
              "def hkcore_patterns():\n"
              "    return [42]\n")
    make_dist(site, "garbage-plugin", {"garbage": "garbage_mod"}, {"garbage_mod": source})
    cat = registry.catalogue()
    assert "garbage" in cat.broken_plugins and "42" in cat.broken_plugins["garbage"]
    assert hkcore.score(ALL_GREEN_HAND, "mistboard").complete


def test_plugin_reusing_an_id(site: Path) -> None:
    source = ("from hkcore.hookspecs import hookimpl\n"
              "from hkcore.patterns import Pattern\n"
              "@hookimpl\n"
              "def hkcore_patterns():\n"
              "    return [Pattern('all_chows', 'Fake', '假', lambda s, o: 1)]\n")
    make_dist(site, "dup-plugin", {"dup": "dup_mod"}, {"dup_mod": source})
    cat = registry.catalogue()
    assert "dup" in cat.broken_plugins
    assert "hkcore.builtin_patterns" in cat.broken_plugins["dup"]
    # the built-in keeps its id: a chicken hand is not suddenly all chows
    result = hkcore.score({"tiles": "123m456p789s111z22z", "win_tile": "2z"}, "hk-classic")
    assert "all_chows" not in [p.id for p in result.patterns]


def test_plugin_hook_that_raises(site: Path) -> None:
    source = ("from hkcore.hookspecs import hookimpl\n"
              "@hookimpl\n"
              "def hkcore_payment_schemes():\n"
              "    raise ValueError('no schemes today')\n")
    make_dist(site, "raising-plugin", {"raising": "raising_mod"}, {"raising_mod": source})
    cat = registry.catalogue()
    assert "no schemes today" in cat.broken_plugins["raising"]
    assert hkcore.score(ALL_GREEN_HAND, "bga-old-style").payments is not None


def _dealer_source(adjustment_id: str, min_declared_sets: int = 0) -> str:
    """A plugin module whose adjustment makes East (the dealer) pay ``factor`` times what it pays."""
    return ("from hkcore.hookspecs import hookimpl\n"
            "from hkcore.payments import PaymentAdjustment\n"
            "def adjust(hand, win, payments, options):\n"
            "    out = dict(payments)\n"
            "    if out['E'] < 0:\n"
            "        extra = out['E'] * (options['factor'] - 1)\n"
            "        out['E'] += extra\n"
            "        out[win.winner] -= extra\n"
            "    return out\n"
            "@hookimpl\n"
            "def hkcore_payment_adjustments():\n"
            f"    return [PaymentAdjustment({adjustment_id!r}, 'East pays more', adjust, {{'factor': 2}},\n"
            f"                              min_declared_sets={min_declared_sets})]\n")


def test_third_party_payment_adjustment(site: Path, tmp_path: Path) -> None:
    make_dist(site, "dealer-plugin", {"dealer": "dealer_mod"}, {"dealer_mod": _dealer_source("dealer_pays_more")})
    preset = _house(tmp_path, "[plugins.dealer_pays_more]\nfactor = 3\n")
    # all chows 1 + concealed 1 + self-draw 1 + no bonus 1 = 4 faan, b = 16:
    # each of E, W, N pays 2b = 32; E pays three times that: 96 -> S gets 32 + 32 + 96
    hand = {"tiles": "123m456m789p234s55p", "win_tile": "5p", "self_draw": True, "seat_wind": "S"}
    result = hkcore.score(hand, preset)
    assert result.faan == 4
    assert result.payments == {"E": -96, "S": 160, "W": -32, "N": -32}


def test_adjustment_skipped_below_its_declared_sets(site: Path, tmp_path: Path) -> None:
    # the dealer adjustment again, declared to need one declared set: it must
    # leave a fully concealed hand alone and apply to one with a declared set
    make_dist(site, "dealer-min1", {"dealer_min1": "dealer_min1_mod"},
              {"dealer_min1_mod": _dealer_source("dealer_min1", min_declared_sets=1)})
    preset = _house(tmp_path, "[plugins.dealer_min1]\nfactor = 3\n")
    # concealed: 4 faan as in test_third_party_payment_adjustment, b = 16, each pays 32; not adjusted
    concealed = {"tiles": "123m456m789p234s55p", "win_tile": "5p", "self_draw": True, "seat_wind": "S"}
    assert hkcore.score(concealed, preset).payments == {"E": -32, "S": 96, "W": -32, "N": -32}
    # 234s declared (a pung-free chow from E, the seat before S): all chows 1 + self-draw 1
    # + no bonus 1 = 3 faan, b = 8, each pays 16; E pays three times: 48 -> S gets 16 + 16 + 48
    declared = {**concealed, "tiles": "123m456m789p55p",
                "melds": [{"kind": "chow", "tiles": "234s", "from": "E"}]}
    assert hkcore.score(declared, preset).payments == {"E": -48, "S": 80, "W": -16, "N": -16}


def test_third_party_shape(site: Path, tmp_path: Path) -> None:
    # a shape of seven honour pairs, provided through hkcore_shapes
    source = ("from hkcore.hookspecs import hookimpl\n"
              "from hkcore.shapes import Shape\n"
              "def readings(counts, k, options):\n"
              "    ok = k == 0 and all(counts[t] == 2 for t in range(27, 34))\n"
              "    return [tuple(range(27, 34))] if ok else []\n"
              "def away(counts, k, codes, options):\n"
              "    if k:\n"
              "        return 99\n"
              "    return sum(max(0, 2 - counts[t]) for t in range(27, 34)) - 1\n"
              "@hookimpl\n"
              "def hkcore_shapes():\n"
              "    return [Shape('honour_pairs', 'Honour Pairs', '字對', readings, away)]\n")
    make_dist(site, "honour-pairs", {"honour_pairs": "honour_mod"}, {"honour_mod": source})
    preset = _house(tmp_path, 'shapes = ["standard", "honour_pairs"]\n')
    # seven honour pairs: all_honours (tile-based) applies -> the limit of 10
    result = hkcore.score({"tiles": "11223344556677z", "win_tile": "7z"}, preset)
    assert (result.complete, result.shape, result.faan) == (True, "honour_pairs", 10)
    # the shape feeds tiles_away and waits: six honour pairs and a single 7z
    p = hkcore.load_preset(preset)
    assert hkcore.tiles_away("1122334455667z", shapes=p) == 0
    assert [str(t) for t in hkcore.waits("1122334455667z", shapes=p)] == ["7z"]


def test_pattern_author_helpers() -> None:
    """Masks of tile kinds by name, not by hand-counted bits (values from the tile indices of RULES.md's order)."""
    from hkcore.errors import TileError
    from hkcore.patterns import HONOURS, ORPHAN_KINDS, SUIT_MASKS, TERMINALS, mask_tiles, tile_mask

    assert tile_mask("19m19p19s1234567z") == ORPHAN_KINDS
    assert tile_mask("1234567z") == HONOURS == 0b1111111 << 27
    assert tile_mask("19m") == (1 << 0) | (1 << 8)
    assert tile_mask("123456789p") == SUIT_MASKS[1] == 0b111111111 << 9
    assert tile_mask("1m1m1m") == 1 and tile_mask("") == 0
    assert mask_tiles(tile_mask("5z1m1m9s")) == "1m9s5z"
    assert mask_tiles(TERMINALS) == "19m19p19s"
    with pytest.raises(TileError, match="bonus tile"):
        tile_mask("1f")
