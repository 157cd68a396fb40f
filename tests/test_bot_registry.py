"""The one registry of bots (hkcore.table.players.bots.bot_catalogue): the built-in bots registered through the
``hkcore_bots`` hook like any plugin, third-party ones through entry points or plugins, and a broken one
recorded and skipped, as a broken pattern plugin is (docs/bots.md)."""
from __future__ import annotations

import ast
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from helpers import OUTSIDE
from helpers.command import environment
from hkcore import registry
from hkcore.hookspecs import hookimpl
from hkcore.preset import load_preset
from hkcore.registry import PluginWarning
from hkcore.table import Table
from hkcore.table.flow import codes
from hkcore.table.players import bots as bots_module
from hkcore.table.players.bots import (
    BUILTIN_PLUGIN,
    RandomBot,
    SimpleBot,
    available_bots,
    bot_catalogue,
    bot_plugin_manager,
    builtin_bots,
    engine_bots,
    make_bot,
)

PRESET = load_preset("hk-classic")
PLAYERS = Path(bots_module.__file__).resolve().parent

CAUTIOUS = '''
from hkcore.table.players.bots import decision


class CautiousBot:
    """Always the first action offered."""

    in_engine = True  # claimed, but a third-party bot is never played inside the engine

    def __init__(self, preset, seed):
        pass

    def decide(self, prompt):
        return decision(prompt, prompt["actions"][0])
'''


def install(site: Path, name: str, entry_points: dict[str, str], modules: dict[str, str]) -> None:
    """A distribution as pip leaves it, with entry points in the group ``hkcore.bots``."""
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    lines = ["[hkcore.bots]"] + [f"{k} = {v}" for k, v in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n")
    for module, source in modules.items():
        (site / f"{module}.py").write_text(source)


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder on sys.path where test distributions are 'installed' (their modules forgotten after)."""
    folder = tmp_path / "site"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    before = set(sys.modules)
    yield folder
    for name in set(sys.modules) - before:
        if name.startswith("botpkg_"):
            del sys.modules[name]


def first_prompt() -> dict[str, Any]:
    t = Table({"event": "start", "preset": "hk-classic", "seed": 7})
    return t.prompts()[0]


# ---------------------------------------------------------------- the built-in bots, through the hook

def test_the_built_in_bots_are_registered_through_the_hook_like_a_plugin() -> None:
    pm, broken = bot_plugin_manager()
    assert broken == {}
    plugin = pm.get_plugin(BUILTIN_PLUGIN)
    assert plugin is not None and hasattr(plugin, "hkcore_bots")
    assert set(plugin.hkcore_bots()) == {"random", "simple", "efficiency", "value", "guard"}  # docs/bots.md's table
    cat = bot_catalogue()
    assert {n: cat.sources[n] for n in builtin_bots()} == dict.fromkeys(
        ["random", "simple", "efficiency", "value", "guard"], "built in")
    assert list(cat.factories)[:5] == ["random", "simple", "efficiency", "value", "guard"]  # the built-in ones first


def test_which_bots_play_inside_the_engine_is_known_of_each_bot() -> None:
    # docs/bots.md: simulate plays seats of efficiency, value and guard inside the engine, no other bot
    assert engine_bots() == {"efficiency", "value", "guard"} == bot_catalogue().in_engine
    assert {n for n, f in builtin_bots().items() if f.in_engine} == {"efficiency", "value", "guard"}  # type: ignore[attr-defined]


# ---------------------------------------------------------------- third-party bots

def test_a_bot_of_an_installed_package_is_listed_and_made(site: Path) -> None:
    install(site, "cautious-bots", {"cautious": "botpkg_cautious:CautiousBot"}, {"botpkg_cautious": CAUTIOUS})
    cat = bot_catalogue()
    assert cat.sources["cautious"] == "entry point botpkg_cautious:CautiousBot"
    assert "cautious" not in cat.in_engine  # its class says in_engine, but the engine plays the built-ins only
    p = first_prompt()
    assert make_bot("cautious", PRESET).decide(p) == {"prompt": p["prompt"], "seat": p["seat"], **p["actions"][0]}


def test_a_broken_bot_package_is_recorded_and_skipped(site: Path) -> None:
    install(site, "broken-bots", {"broken": "botpkg_broken:Bot"}, {"botpkg_broken": "raise RuntimeError('boom')\n"})
    with pytest.warns(PluginWarning, match=r"bot 'broken' \(botpkg_broken:Bot\) failed to load: RuntimeError: 'boom'"):
        bot = make_bot("random", PRESET, seed=1)  # raised a TableError before: one package took every bot down
    assert isinstance(bot, RandomBot)
    with pytest.warns(PluginWarning):
        cat = bot_catalogue()
    assert "broken" not in cat.factories and {"random", "simple", "efficiency", "value"} <= set(cat.factories)
    assert "boom" in cat.broken["hkcore.bots:broken"] and "botpkg_broken:Bot" in cat.broken["hkcore.bots:broken"]


def test_an_entry_point_that_is_not_a_factory_is_recorded_and_skipped(site: Path) -> None:
    install(site, "odd-bots", {"odd": "botpkg_odd:NOT_A_FACTORY", "cautious": "botpkg_odd:CautiousBot"},
            {"botpkg_odd": CAUTIOUS + "\nNOT_A_FACTORY = 42\n"})
    with pytest.warns(PluginWarning, match=r"bot 'odd' \(entry point botpkg_odd:NOT_A_FACTORY\): 42 is not a factory"):
        cat = bot_catalogue()
    assert "odd" not in cat.factories and "cautious" in cat.factories  # the package's other bot is kept


def test_a_third_party_bot_may_not_take_a_built_in_name(site: Path) -> None:
    install(site, "impostor-bots", {"random": "botpkg_impostor:CautiousBot"}, {"botpkg_impostor": CAUTIOUS})
    with pytest.warns(PluginWarning, match=r"bot 'random' \(entry point botpkg_impostor:CautiousBot\): the name is "
                                           r"taken by the built in one"):
        cat = bot_catalogue()
    assert cat.factories["random"] is RandomBot and cat.sources["random"] == "built in"
    assert "hkcore.bots:random" in cat.broken


class _Plugin:
    """A plugin of the process giving one bot through the hook."""

    @hookimpl
    def hkcore_bots(self) -> dict[str, Any]:
        return {"always_simple": SimpleBot}


class _Raising:
    @hookimpl
    def hkcore_bots(self) -> dict[str, Any]:
        raise ValueError("no bots today")


class _Endless:
    """A hook that gives bots without end: refused after the most one plugin may give, not read to its end."""

    @hookimpl
    def hkcore_bots(self) -> Any:
        class Endless(dict):  # type: ignore[type-arg]
            def items(self) -> Any:
                n = 0
                while True:
                    n += 1
                    yield f"bot{n}", SimpleBot

        return Endless()


def test_a_plugin_giving_bots_without_end_is_skipped() -> None:
    registry.register_plugin(_Endless(), name="endless-bots")
    try:
        with pytest.warns(PluginWarning, match=r"plugin 'endless-bots': hkcore_bots\(\) returned .*at most 1000 bots"):
            cat = bot_catalogue()
        assert "bot1" not in cat.factories and "endless-bots" in cat.broken
    finally:
        registry.unregister_plugin("endless-bots")


def test_a_plugin_gives_bots_through_the_hook_and_one_that_raises_is_skipped() -> None:
    registry.register_plugin(_Plugin(), name="always-simple")
    registry.register_plugin(_Raising(), name="raising-bots")
    try:
        raised = r"plugin 'raising-bots': hkcore_bots\(\) raised ValueError: 'no bots today'"
        with pytest.warns(PluginWarning, match=raised):
            cat = bot_catalogue()
        assert cat.factories["always_simple"] is SimpleBot and cat.sources["always_simple"] == "plugin always-simple"
        assert "raising-bots" in cat.broken and {"random", "simple", "efficiency", "value"} <= set(cat.factories)
    finally:
        registry.unregister_plugin("always-simple")
        registry.unregister_plugin("raising-bots")
    assert "always_simple" not in available_bots()


def test_hkscore_bots_lists_the_others_and_warns_of_the_broken_one_on_one_line(site: Path) -> None:
    install(site, "broken-bots", {"broken": "botpkg_broken2:Bot"}, {"botpkg_broken2": "raise RuntimeError('boom')\n"})
    env = environment()  # run outside the source tree, as installed: the package's own modules, the site's beside
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(site), env.get("PYTHONPATH")) if p)
    proc = subprocess.run([sys.executable, "-m", "hkcore", "bots"], capture_output=True, text=True, timeout=120,
                          cwd=OUTSIDE, env=env)
    assert proc.returncode == 0, proc.stderr
    names = [line.split()[0] for line in proc.stdout.splitlines()]
    assert names == ["random", "simple", "efficiency", "value", "guard"]
    assert proc.stderr.startswith("hkscore: warning: bot 'broken' (botpkg_broken2:Bot) failed to load")
    assert len(proc.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------- one vocabulary: the old policies are bots

def prompts_of_a_hand(seed: int) -> list[dict[str, Any]]:
    t = Table({"event": "start", "preset": "hk-classic", "seed": seed})
    bot = make_bot("efficiency", t.preset)
    seen = []
    while not t.over:
        for p in t.prompts():
            seen.append(p)
        p = t.prompts()[0]
        t.submit(bot.decide(p))
    return seen


def test_the_old_policies_are_the_simple_and_random_bots_with_a_warning() -> None:
    from hkcore.table.players import policy

    prompts = prompts_of_a_hand(3)
    simple = make_bot("simple", PRESET)
    with pytest.warns(DeprecationWarning, match=r"simple_policy is deprecated: use make_bot\(\"simple\""):
        old = policy.simple_policy()
    assert [old(p) for p in prompts] == [simple.decide(p) for p in prompts]
    with pytest.warns(DeprecationWarning, match="random_policy is deprecated"):
        old = policy.random_policy(random.Random(5))
    rand = make_bot("random", PRESET, seed=5)
    assert [old(p) for p in prompts] == [rand.decide(p) for p in prompts]
    with pytest.warns(DeprecationWarning, match="POLICIES is deprecated"):
        assert policy.POLICIES == ("simple", "random")
    with pytest.warns(DeprecationWarning, match="policy is deprecated"):
        assert policy.policy("simple", random.Random(1))(prompts[0]) == simple.decide(prompts[0])


def test_the_engines_bots_under_their_old_name_with_a_warning() -> None:
    from hkcore.table.players import fastplay

    with pytest.warns(DeprecationWarning, match=r"FAST_BOTS is deprecated: use .*engine_bots\(\)"):
        old = fastplay.FAST_BOTS
    assert old == {"efficiency", "value", "guard"}


# ---------------------------------------------------------------- the codes have one home

CODE_NAMES = {"PASS", "WIN", "CONCEALED", "ADDED", "EXPOSED", "PUNG", "CHOW", "DISCARD", "SELF_PUNG", "TURN", "CLAIM",
              "ROB", "INSTANT", "OVER", "DEAL", "M_CHOW", "M_PUNG", "M_KONG"}


@pytest.mark.parametrize("module", sorted(p.name for p in PLAYERS.glob("*.py")))
def test_no_player_module_writes_an_engine_code_of_its_own(module: str) -> None:
    tree = ast.parse((PLAYERS / module).read_text())
    assigned = {t.id.lstrip("_") for node in ast.walk(tree) if isinstance(node, ast.Assign)
                for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    assert not assigned & CODE_NAMES, f"{module} defines {sorted(assigned & CODE_NAMES)}: import them from " \
                                      "hkcore.table.flow.codes"


def test_the_players_read_the_codes_of_the_flow() -> None:
    from hkcore.table.players import _pybots, _pyvalue, fastplay, value

    for module in (_pybots, _pyvalue, fastplay, value):
        assert module.WIN is codes.WIN and module.DISCARD is codes.DISCARD  # type: ignore[attr-defined]
