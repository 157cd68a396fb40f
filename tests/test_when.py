"""Conditions on patterns (``when`` in a preset entry): loading, refusals,
extends, export and diff, and scoring under both evaluators, with every
value worked by hand from RULES.md and the preset files.

The hands (seat S unless said; round East; no bonus tiles):

- FOUR = 111m 444m 555p 999s pungs, pair 88p, won on the 8p: the winning
  tile completes the pair, so on a discard too it is four concealed pungs
  (ruling 3). It meets concealed_hand 1, no_bonus 1, all_pungs 3 and
  four_concealed_pungs (self_draw 1 when self-drawn); no flush (three suits),
  no honours, no terminal-only hand.
- CHOWS = 123m 456p 123s 789s chows, pair 55z, won on the 1s (it sits only in
  123s): all_chows 1, concealed_hand 1, no_bonus 1 (self_draw 1 when
  self-drawn); a dragon pair scores nothing.
- OPEN_CHOWS = CHOWS with the 789s claimed from East (the seat before South):
  all_chows 1, no_bonus 1.
"""
from __future__ import annotations

import dataclasses
import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

import hkcore
from hkcore.cli import main
from hkcore.engine import CompiledPreset
from hkcore.models import Hand
from hkcore.preset import Difference, PresetError, diff, export_toml, load_preset
from hkcore.results import ScoreResult

FOUR = "111444m55588p999s win:8p"
CHOWS = "123m456p123789s55z win:1s"
OPEN_CHOWS = "123m456p123s55z 789s:E win:1s"

#: four concealed pungs a limit only when self-drawn (the issue's example)
SELF_DRAWN_LIMIT = 'extends = "bga-old-style"\n[patterns]\nfour_concealed_pungs = { limit = 13, when = "self_draw" }\n'
#: mistboard's 8 that includes all_pungs and concealed_hand, only when self-drawn
SELF_DRAWN_EIGHT = ('extends = "mistboard"\n[patterns]\nfour_concealed_pungs = '
                    '{ value = 8, includes = ["all_pungs", "concealed_hand"], when = "self_draw" }\n')


def write(path: Path, text: str) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.fixture(params=["kernel", "python"])
def score(request: pytest.FixtureRequest) -> Callable[[str, str], ScoreResult]:
    """Score notation under a preset (TOML text or id) by the compiled
    kernel, then by the pure-Python evaluator."""
    use_kernel = request.param == "kernel"
    if use_kernel and hkcore.core.IMPLEMENTATION != "cython":
        pytest.skip("the compiled core is not active")

    def run(hand: str, preset: str) -> ScoreResult:
        compiled = CompiledPreset(load_preset(preset), use_kernel=use_kernel)
        assert (compiled.kernel is not None) is use_kernel
        return compiled.score(Hand.parse(hand))

    return run


def listed(r: ScoreResult) -> dict[str, int]:
    return {p.id: p.faan for p in r.patterns}


# --------------------------------------------------------------------------
# loading


def test_one_condition_and_a_list() -> None:
    p = load_preset(SELF_DRAWN_LIMIT)
    rule = p.rule("four_concealed_pungs")
    assert rule is not None and (rule.limit, rule.when) == (13, ("self_draw",))
    assert p.rule("all_pungs").when == ()  # type: ignore[union-attr]
    # a list: all must hold; kept in the order self_draw, discard, concealed, open, dealer, non_dealer
    q = load_preset('extends = "bga-old-style"\n[patterns]\n'
                    'all_chows = { value = 1, when = ["non_dealer", "concealed", "non_dealer"] }\n')
    assert q.rule("all_chows").when == ("concealed", "non_dealer")  # type: ignore[union-attr]


def test_when_is_part_of_the_frozen_preset() -> None:
    p = load_preset(SELF_DRAWN_LIMIT)
    rule = p.rule("four_concealed_pungs")
    assert isinstance(rule.when, tuple)  # type: ignore[union-attr]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.when = ()  # type: ignore[union-attr,misc]
    plain = load_preset('extends = "bga-old-style"\n[patterns]\nfour_concealed_pungs = { limit = 13 }\n')
    assert p != plain and p.rule("four_concealed_pungs") != plain.rule("four_concealed_pungs")


WHEN_ERRORS = [
    # (name, the entry, the TOML path, words the message must hold)
    ("contradiction", '{ limit = 13, when = ["self_draw", "discard"] }', "patterns.four_concealed_pungs.when",
     ["['self_draw', 'discard']", "can never hold", "'self_draw' and 'discard' exclude each other"]),
    ("contradiction-open", '{ limit = 13, when = ["open", "self_draw", "concealed"] }',
     "patterns.four_concealed_pungs.when", ["['open', 'self_draw', 'concealed']", "'concealed' and 'open'"]),
    ("contradiction-seat", '{ limit = 13, when = ["non_dealer", "dealer"] }', "patterns.four_concealed_pungs.when",
     ["'dealer' and 'non_dealer' exclude each other"]),
    ("unknown-word", '{ limit = 13, when = "self-draw" }', "patterns.four_concealed_pungs.when",
     ["'self-draw'", "did you mean 'self_draw'?", "self_draw, discard, concealed, open, dealer, non_dealer"]),
    ("unknown-word-in-a-list", '{ limit = 13, when = ["dealer", "concieled"] }',
     "patterns.four_concealed_pungs.when[1]", ["'concieled'", "did you mean 'concealed'?"]),
    ("an-int", '{ limit = 13, when = 1 }', "patterns.four_concealed_pungs.when",
     ["got 1", "one of self_draw, discard"]),
    ("a-nested-list", '{ limit = 13, when = [["self_draw"]] }', "patterns.four_concealed_pungs.when",
     ["got [['self_draw']]"]),
    ("an-empty-list", '{ limit = 13, when = [] }', "patterns.four_concealed_pungs.when", ["non-empty list", "got []"]),
    ("a-table", '{ limit = 13, when = { self_draw = true } }', "patterns.four_concealed_pungs.when",
     ["got {'self_draw': True}"]),
    ("misspelt-key", '{ limit = 13, wehn = "self_draw" }', "patterns.four_concealed_pungs.wehn",
     ["'wehn'", "did you mean 'when'?"]),
]


@pytest.mark.parametrize(("name", "entry", "path", "words"), WHEN_ERRORS, ids=[e[0] for e in WHEN_ERRORS])
def test_refusals_name_the_file_the_path_and_the_value(tmp_path: Path, name: str, entry: str, path: str,
                                                       words: list[str]) -> None:
    f = write(tmp_path / f"{name}.toml", f'extends = "bga-old-style"\n[patterns]\nfour_concealed_pungs = {entry}\n')
    with pytest.raises(PresetError) as info:
        load_preset(f)
    err = info.value
    assert (err.file, err.path) == (str(Path(f).resolve()), path), str(err)
    msg = str(err)
    assert msg.startswith(f"{Path(f).resolve()}: {path}: "), msg
    for w in words:
        assert w in msg, (w, msg)
    assert isinstance(err, hkcore.HkcoreError)


def test_refusal_in_toml_text() -> None:
    with pytest.raises(PresetError) as info:
        load_preset('extends = "bga-old-style"\n[patterns]\nall_chows = { value = 1, when = ["open", "concealed"] }\n')
    assert (info.value.file, info.value.path) == ("<toml>", "patterns.all_chows.when")


# --------------------------------------------------------------------------
# extends, export, diff, the command line


def test_extends_replaces_the_whole_entry(tmp_path: Path) -> None:
    """A file that extends replaces a pattern's entry as a whole, ``when``
    included: not naming the pattern keeps the parent's entry (and its
    condition); restating it without ``when`` drops the condition."""
    base = write(tmp_path / "base.toml", SELF_DRAWN_LIMIT)
    keeps = load_preset(write(tmp_path / "keeps.toml", 'extends = "base.toml"\nminimum = 1\n'))
    assert keeps.rule("four_concealed_pungs").when == ("self_draw",)  # type: ignore[union-attr]
    drops = load_preset(write(tmp_path / "drops.toml",
                              'extends = "base.toml"\n[patterns]\nfour_concealed_pungs = { limit = 12 }\n'))
    assert drops.rule("four_concealed_pungs").when == ()  # type: ignore[union-attr]
    changes = load_preset(write(tmp_path / "changes.toml", 'extends = "base.toml"\n[patterns]\n'
                                'four_concealed_pungs = { limit = 13, when = ["self_draw", "dealer"] }\n'))
    assert changes.rule("four_concealed_pungs").when == ("self_draw", "dealer")  # type: ignore[union-attr]
    off = load_preset(write(tmp_path / "off.toml", 'extends = "base.toml"\n[patterns]\nfour_concealed_pungs = false\n'))
    assert off.rule("four_concealed_pungs") is None
    assert load_preset(base).rule("four_concealed_pungs").limit == 13  # type: ignore[union-attr]


def test_a_refusal_in_the_parent_names_the_parent(tmp_path: Path) -> None:
    parent = write(tmp_path / "parent.toml",
                   'extends = "bga-old-style"\n[patterns]\nall_chows = { value = 1, when = "dealr" }\n')
    child = write(tmp_path / "child.toml", 'extends = "parent.toml"\nminimum = 0\n')
    with pytest.raises(PresetError) as info:
        load_preset(child)
    assert (info.value.file, info.value.path) == (str(Path(parent).resolve()), "patterns.all_chows.when")
    assert "did you mean 'dealer'?" in str(info.value)


def test_export_writes_when_and_loads_back(tmp_path: Path) -> None:
    p = load_preset('extends = "bga-old-style"\n[patterns]\n'
                    'four_concealed_pungs = { limit = 13, when = "self_draw" }\n'
                    'all_chows = { value = 1, when = ["dealer", "concealed"] }\n')
    data = tomllib.loads(export_toml(p))
    assert data["patterns"]["four_concealed_pungs"] == {"limit": 13, "when": "self_draw", "kongs": True}
    assert data["patterns"]["all_chows"] == {"value": 1, "when": ["concealed", "dealer"]}
    assert p.model_dump()["patterns"]["all_chows"] == {"value": 1, "when": ["concealed", "dealer"]}
    assert load_preset(write(tmp_path / "flat.toml", export_toml(p))) == p


def test_diff_names_the_condition() -> None:
    a = load_preset("bga-old-style")
    b = load_preset(SELF_DRAWN_LIMIT)
    assert diff(a, b) == [Difference("patterns.four_concealed_pungs.limit", 10, 13),
                          Difference("patterns.four_concealed_pungs.when", None, "self_draw")]


def test_presets_show_and_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = write(tmp_path / "house.toml", SELF_DRAWN_LIMIT)
    assert main(["presets", "show", f]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "four_concealed_pungs" in x)
    assert line.split()[:3] == ["four_concealed_pungs", "limit", "13"] and "when self_draw" in line, line
    assert main(["presets", "show", f, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["patterns"]["four_concealed_pungs"]["when"] == "self_draw"
    assert main(["presets", "diff", "bga-old-style", f, "--json"]) == 1
    found = json.loads(capsys.readouterr().out)["differences"]
    assert {"path": "patterns.four_concealed_pungs.when", "a": None, "b": "self_draw"} in found


# --------------------------------------------------------------------------
# scoring, by the compiled kernel and by the Python evaluator


def test_a_limit_only_when_self_drawn(score: Callable[[str, str], ScoreResult]) -> None:
    # self-drawn: the limit 13 against concealed 1 + self_draw 1 + no_bonus 1 + all_pungs 3 = 6: 13
    r = score(f"{FOUR} self-draw seat:S", SELF_DRAWN_LIMIT)
    assert (r.faan, r.limit, listed(r)) == (13, True, {"four_concealed_pungs": 13})
    # on a discard the limit does not count: concealed 1 + no_bonus 1 + all_pungs 3 = 5
    r = score(f"{FOUR} seat:S", SELF_DRAWN_LIMIT)
    assert (r.faan, r.limit, r.winnable) == (5, False, True)
    assert listed(r) == {"concealed_hand": 1, "no_bonus": 1, "all_pungs": 3}
    # bga-old-style itself: the limit 10 either way
    assert score(f"{FOUR} seat:S", "bga-old-style").faan == 10


def test_a_pattern_that_does_not_hold_excludes_nothing(score: Callable[[str, str], ScoreResult]) -> None:
    """mistboard's four concealed pungs 8 includes all_pungs and concealed_hand;
    where its ``when`` does not hold, those two count as if it were not met."""
    # self-drawn: four_concealed_pungs 8 + self_draw 1 + no_bonus 1 = 10 (cap 10)
    r = score(f"{FOUR} self-draw seat:S", SELF_DRAWN_EIGHT)
    assert (r.faan, listed(r)) == (10, {"self_draw": 1, "no_bonus": 1, "four_concealed_pungs": 8})
    # on a discard: concealed_hand 1 + no_bonus 1 + all_pungs 3 = 5
    r = score(f"{FOUR} seat:S", SELF_DRAWN_EIGHT)
    assert (r.faan, listed(r)) == (5, {"concealed_hand": 1, "no_bonus": 1, "all_pungs": 3})
    # mistboard itself on a discard: no_bonus 1 + four_concealed_pungs 8 = 9
    r = score(f"{FOUR} seat:S", "mistboard")
    assert (r.faan, listed(r)) == (9, {"no_bonus": 1, "four_concealed_pungs": 8})


def test_all_conditions_of_a_list(score: Callable[[str, str], ScoreResult]) -> None:
    preset = ('extends = "bga-old-style"\n[patterns]\n'
              'four_concealed_pungs = { limit = 13, when = ["self_draw", "dealer"] }\n')
    assert score(f"{FOUR} self-draw seat:E", preset).faan == 13
    # self-drawn by South: concealed 1 + self_draw 1 + no_bonus 1 + all_pungs 3 = 6
    r = score(f"{FOUR} self-draw seat:S", preset)
    assert (r.faan, listed(r)) == (6, {"concealed_hand": 1, "self_draw": 1, "no_bonus": 1, "all_pungs": 3})
    # the dealer on a discard: 5
    assert score(f"{FOUR} seat:E", preset).faan == 5


def test_dealer_and_non_dealer(score: Callable[[str, str], ScoreResult]) -> None:
    preset = ('extends = "bga-old-style"\nminimum = 0\n[patterns]\n'
              'all_chows = { value = 2, when = "dealer" }\nself_draw = { value = 1, when = "non_dealer" }\n')
    # East: all_chows 2 + concealed 1 + no_bonus 1 = 4 (no self_draw for the dealer)
    r = score(f"{CHOWS} self-draw seat:E", preset)
    assert (r.faan, listed(r)) == (4, {"all_chows": 2, "concealed_hand": 1, "no_bonus": 1})
    # South: concealed 1 + self_draw 1 + no_bonus 1 = 3 (no all_chows)
    r = score(f"{CHOWS} self-draw seat:S", preset)
    assert (r.faan, listed(r)) == (3, {"concealed_hand": 1, "self_draw": 1, "no_bonus": 1})


def test_concealed_and_open(score: Callable[[str, str], ScoreResult]) -> None:
    conc = 'extends = "bga-old-style"\nminimum = 0\n[patterns]\nall_chows = { value = 1, when = "concealed" }\n'
    open_ = 'extends = "bga-old-style"\nminimum = 0\n[patterns]\nall_chows = { value = 1, when = "open" }\n'
    # concealed: all_chows 1 + concealed 1 + no_bonus 1 = 3, or without all_chows 2
    assert (score(f"{CHOWS} seat:S", conc).faan, score(f"{CHOWS} seat:S", open_).faan) == (3, 2)
    # open: no_bonus 1, or with all_chows 2
    r = score(f"{OPEN_CHOWS} seat:S", conc)
    assert (r.faan, listed(r)) == (1, {"no_bonus": 1})
    r = score(f"{OPEN_CHOWS} seat:S", open_)
    assert (r.faan, listed(r)) == (2, {"all_chows": 1, "no_bonus": 1})


def test_a_concealed_kong_keeps_the_hand_concealed(score: Callable[[str, str], ScoreResult]) -> None:
    """``concealed`` is "no claimed set", whatever concealed_hand's own option
    says: just-cards does not count concealed_hand with a concealed kong."""
    preset = 'extends = "just-cards"\n[patterns]\nself_draw = { value = 1, when = "concealed" }\n'
    # 123m 555p 999s, pair 88p, a kong of 4m: no all_chows, all_pungs or flush; just-cards has no no_bonus
    r = score("123m555p88p999s [4444m] win:8p self-draw seat:S", preset)
    assert (r.faan, listed(r)) == (1, {"self_draw": 1})
    # the same kong claimed from West: nothing holds, the chicken hand
    r = score("123m555p88p999s 4444m:W win:8p self-draw seat:S", preset)
    assert (r.faan, listed(r)) == (0, {"chicken_hand": 0})
    assert listed(score("123m555p88p999s 4444m:W win:8p self-draw seat:S", "just-cards")) == {"self_draw": 1}


def test_a_robbed_kong_is_a_discard(score: Callable[[str, str], ScoreResult]) -> None:
    preset = 'extends = "bga-old-style"\nminimum = 0\n[patterns]\nall_chows = { value = 1, when = "discard" }\n'
    # all_chows 1 + concealed 1 + robbing_kong 1 + no_bonus 1 = 4
    r = score(f"{CHOWS} robbing-kong seat:S", preset)
    assert (r.faan, listed(r)) == (4, {"all_chows": 1, "concealed_hand": 1, "robbing_kong": 1, "no_bonus": 1})
    # self-drawn: concealed 1 + self_draw 1 + no_bonus 1 = 3
    assert score(f"{CHOWS} self-draw seat:S", preset).faan == 3


def test_a_plugin_pattern_on_a_plugin_shape(score: Callable[[str, str], ScoreResult]) -> None:
    """seven_pairs has no native detector: the kernel calls it back, and its
    shape's readings are evaluated in Python; ``when`` applies on both."""
    preset = ('extends = "bga-old-style"\nshapes = ["standard", "thirteen_orphans", "seven_pairs"]\n'
              '[patterns]\nseven_pairs = { value = 4, when = "self_draw" }\n')
    # docs/house-rules.md: four chows and a pair, all_chows 1 + concealed 1 + self_draw 1 + no_bonus 1
    # + full_flush 7 = 11; seven pairs 1 + 1 + 1 + 7 + 4 = 14, capped at 13
    r = score("22334455667788m win:8m self-draw", preset)
    assert (r.faan, r.shape) == (13, "seven_pairs")
    # on a discard seven_pairs does not count: four chows and a pair, 1 + 1 + 1 + 7 = 10,
    # against the seven-pairs reading without it, 1 + 1 + 7 = 9
    r = score("22334455667788m win:8m", preset)
    assert (r.faan, r.shape) == (10, "standard")
    assert listed(r) == {"all_chows": 1, "concealed_hand": 1, "no_bonus": 1, "full_flush": 7}


def test_conditions_on_a_limit_add(score: Callable[[str, str], ScoreResult]) -> None:
    """hk-classic adds self_draw to a limit hand; with ``when = "open"`` it
    adds to the limit of a concealed hand no more."""
    preset = 'extends = "hk-classic"\n[patterns]\nself_draw = { value = 1, when = "open" }\n'
    # FOUR self-drawn: the limit 10 (no_bonus is not in hk-classic), self_draw does not hold
    r = score(f"{FOUR} self-draw seat:S", preset)
    assert (r.faan, listed(r)) == (10, {"four_concealed_pungs": 10})
    assert score(f"{FOUR} self-draw seat:S", "hk-classic").faan == 11


# --------------------------------------------------------------------------
# analysis: each wait's value is that of the hypothetical win


@pytest.mark.parametrize(("seat", "discard", "self_draw"), [("S", 5, 6), ("E", 5, 13)])
def test_wait_values_apply_the_condition(seat: str, discard: int, self_draw: int) -> None:
    preset = load_preset('extends = "bga-old-style"\n[patterns]\n'
                         'four_concealed_pungs = { limit = 13, when = ["self_draw", "dealer"] }\n')
    # 111m 444m 555p 999s and a lone 8p: waits on 8p alone (see FOUR)
    a = hkcore.analyse(f"111444m5558p999s seat:{seat}", preset)
    assert [(w.tile, w.on_discard.faan, w.on_self_draw.faan) for w in a.waits] == [("8p", discard, self_draw)]

