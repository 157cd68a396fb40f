"""The ``[table]`` section of a preset: the built-ins' values, the checks, the docs' table."""

from __future__ import annotations

from pathlib import Path

import pytest

import hkcore
from hkcore.table_rules import TABLE_KEYS, docs_table

# GAME.md §7, copied by hand: key -> (mistboard, bga-old-style, just-cards, hk-classic, playingcards-io);
# None where the table says false
PRESETS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")
KNOBS = {
    "dead_wall": (14, 0, 0, 0, 0),
    "replacement": ("back", "back", "back", "back", "front"),
    "concealed_kong": (False, True, True, True, True),
    "added_kong": (False, True, True, True, True),
    "kong_tile": ("any", "any", "any", "any", "drawn"),
    "self_pung": (False, False, False, False, True),
    "show_concealed_kongs": (True, True, True, True, False),
    "claim_seconds": (6, None, None, None, None),
    "turn_seconds": (None,) * 5,
    "dealer_stays": ((), ("dealer_win",), ("dealer_win",), ("dealer_win",), ()),
    "rounds": (None, 4, 4, 4, None),
    "hands": (1, None, None, None, 16),
    "target": (None, None, None, None, None),
    "start_points": (None, 10000, 0, None, 0),
    "last_discard": ("win",) * 5,
    "max_dealer_repeats": (None,) * 5,
}


def test_every_knob_is_tabled() -> None:
    assert set(KNOBS) == set(TABLE_KEYS)


@pytest.mark.parametrize("i,pid", list(enumerate(PRESETS)))
def test_builtin_values_are_game_md_s(i: int, pid: str) -> None:
    table = hkcore.load_preset(pid).table
    assert {k: getattr(table, k) for k in KNOBS} == {k: v[i] for k, v in KNOBS.items()}


def test_a_house_preset_changes_only_what_it_names() -> None:
    p = hkcore.load_preset('extends = "bga-old-style"\n[table]\nrounds = false\nhands = 1\n')
    assert (p.table.rounds, p.table.hands, p.table.start_points, p.table.concealed_kong) == (None, 1, 10000, True)


def test_switching_payments_off_or_on_follows_with_start_points() -> None:
    assert hkcore.load_preset('extends = "bga-old-style"\npayments = false\n').table.start_points is None
    on = hkcore.load_preset('extends = "hk-classic"\nunit = "points"\n[payments]\nscheme = "points"\nfixed = 8\n')
    assert on.table.start_points == 0


@pytest.mark.parametrize("text,path", [
    ('[table]\nrownds = 2', "table.rownds"),
    ('[table]\nrounds = true', "table.rounds"),
    ('[table]\nrounds = 0', "table.rounds"),
    ('[table]\ndead_wall = -1', "table.dead_wall"),
    ('[table]\nreplacement = "middle"', "table.replacement"),
    ('[table]\ndealer_stays = ["dealer_loss"]', "table.dealer_stays.0"),
    ('table = 3', "table"),
    ('extends = "mistboard"\n[table]\nreplacement = "front"', "table.dead_wall"),
    ('extends = "hk-classic"\n[table]\nstart_points = 5', "table.start_points"),
    ('extends = "bga-old-style"\n[table]\nstart_points = false', "table.start_points"),
    ('extends = "hk-classic"\n[table]\nrounds = false', "table.rounds"),
    ('extends = "mistboard"\n[claims]\nrobbing_kong = "added"', "claims.robbing_kong"),
    ('extends = "bga-old-style"\n[table]\nconcealed_kong = false', "claims.robbing_kong"),
])
def test_refused_with_the_toml_path(text: str, path: str) -> None:
    with pytest.raises(hkcore.HkcoreError) as err:
        hkcore.load_preset(text)
    assert err.value.path == path, str(err.value)
    assert f": {path}: " in str(err.value)


def test_unknown_key_has_a_suggestion() -> None:
    with pytest.raises(hkcore.HkcoreError, match=r"did you mean 'rounds'"):
        hkcore.load_preset('[table]\nrownds = 2')


def test_export_and_reload_keeps_the_table() -> None:
    for pid in PRESETS:
        p = hkcore.load_preset(pid)
        again = hkcore.load_preset(hkcore.preset.export_toml(p))
        assert again.table == p.table, pid


def test_diff_names_table_keys() -> None:
    a, b = hkcore.load_preset("bga-old-style"), hkcore.load_preset("playingcards-io")
    paths = {d.path for d in hkcore.preset.diff(a, b)}
    assert {"table.replacement", "table.kong_tile", "table.hands", "table.rounds"} <= paths


def test_docs_table_is_the_model_s() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs" / "house-rules.md"
    if not docs.exists():
        pytest.skip("docs/ is not beside the tests")
    assert docs_table() in docs.read_text(encoding="utf-8")



@pytest.mark.parametrize("parent, tiles, most", [("hk-classic", 136, 82), ("bga-old-style", 144, 90)])
def test_a_dead_wall_must_leave_a_live_wall(parent: str, tiles: int, most: int) -> None:
    """The deal takes 14 + 3 x 13 = 53 tiles (GAME.md §2): 136 - 53 = 83 and 144 - 53 = 91 are left, and a
    dead wall of at most 82 or 90 leaves a live wall of one tile or more; one larger is refused at load with
    its TOML path and the range."""
    ok = hkcore.load_preset(f'extends = "{parent}"\n[table]\ndead_wall = {most}\n')
    assert ok.tiles == tiles and ok.table.dead_wall == most
    for bad in (most + 1, most + 10):
        with pytest.raises(hkcore.HkcoreError) as err:
            hkcore.load_preset(f'extends = "{parent}"\n[table]\ndead_wall = {bad}\n')
        assert err.value.path == "table.dead_wall", str(err.value)
        assert ": table.dead_wall: " in str(err.value) and f"{most}" in str(err.value)


def test_the_largest_dead_wall_plays_a_match_that_replays() -> None:
    """dead_wall = 90 of 144: every hand of a two-hand match (the second dealt explicitly, not from a seed)
    replays; 100 (which the issue found loading, then refused at replay) is refused at load."""
    from hkcore.table import replay
    from hkcore.table.match import Match
    from hkcore.table.players import SimpleBot
    m = Match('extends = "bga-old-style"\n[table]\nrounds = false\nhands = 2\ndead_wall = 90\n', seed=1)
    bot = SimpleBot(None, 0).decide
    while not m.over:
        m.submit(bot(m.prompts()[0]))
    assert sum(r["event"] == "start" for r in m.log) == 2
    assert replay(m.log) == m.log
    with pytest.raises(hkcore.HkcoreError) as err:
        hkcore.load_preset('extends = "bga-old-style"\n[table]\ndead_wall = 100\n')
    assert err.value.path == "table.dead_wall" and "90" in str(err.value)
