"""bench/rule_atlas.py: the rule atlas (docs/simulation.md, 'The rule atlas'): its variant presets, its page's
numbers against the summaries they come from, and the same summaries on Dask."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import hkcore
from helpers.cluster import local_client
from hkcore.simulation import MatchSummary, SimulationSummary

BENCH = Path(__file__).resolve().parent.parent / "bench"
if not (BENCH / "rule_atlas.py").is_file():
    pytest.skip("no bench/ beside tests/ (the tests run from an unpacked sdist or an installed package)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def atlas() -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        import rule_atlas
    finally:
        sys.path.remove(str(BENCH))
    return rule_atlas


def test_every_variant_changes_its_one_rule_and_checks_clean(atlas: ModuleType) -> None:
    files = sorted(p.stem for p in (BENCH / "atlas").glob("*.toml"))
    assert files == sorted(r.id for r in atlas.RULES)   # a file a rule, a rule a file
    for rule in atlas.RULES:
        variant = hkcore.load_preset(BENCH / "atlas" / f"{rule.id}.toml")
        base = hkcore.load_preset(rule.base)
        assert variant.id == rule.id and variant.warnings == (), (rule.id, variant.warnings)
        assert variant != base
    # the rules the issue names, read from the files
    def load(name: str) -> Any:
        return hkcore.load_preset(BENCH / "atlas" / f"{name}.toml")
    assert [load(f"jc-minimum-{m}").minimum for m in (0, 1, 5)] == [0, 1, 5]
    assert hkcore.load_preset("just-cards").minimum == 3
    assert load("jc-dead-wall-14").table.dead_wall == 14
    assert load("bga-flowers-off").tiles == 136 and load("jc-flowers-on").tiles == 144
    assert load("hkc-no-robbing").claims["robbing_kong"] == "none"
    assert load("jc-multiple-winners").claims["multiple_winners"] is True
    assert load("jc-no-swap-rule").claims["swap_rule"] is False and hkcore.load_preset("just-cards").claims["swap_rule"]
    # flowers off by tiles = 136 alone is the trap the lint names: the variant turns the patterns off
    naive = hkcore.load_preset('extends = "bga-old-style"\nid = "naive"\ntiles = 136\n')
    assert ("always-holds", "patterns.no_bonus") in [(w.code, w.path) for w in naive.warnings]


def _cells(html: str) -> dict[tuple[str, str, int], float]:
    out = {}
    for m in re.finditer(r'data-rule="([^"]+)" data-key="([^"]+)" data-mix="(\d)" data-value="([^"]*)"', html):
        if m.group(4):
            out[m.group(1), m.group(2), int(m.group(3))] = float(m.group(4))
    return out


def test_a_small_run_writes_the_page_from_its_summaries(atlas: ModuleType, tmp_path: Path) -> None:
    md, page = tmp_path / "rule-atlas.md", tmp_path / "rule-atlas.html"
    assert atlas.main(["--walls", "3", "--jobs", "1", "--md", str(md), "--html", str(page)]) == 0
    text = md.read_text(encoding="utf-8")
    html = page.read_text(encoding="utf-8")
    runs = {p.stem: SimulationSummary.model_validate_json(p.read_text(encoding="utf-8"))
            for p in (tmp_path / "rule-atlas").glob("*.json") if p.name != "runs.json" and "-rounds" not in p.name}
    assert sorted(runs) == ["bga-old-style", "hk-classic", "just-cards"]  # seven pairs too: no rule is slow
    rounds = [MatchSummary.model_validate(x) for x in json.loads(
        (tmp_path / "rule-atlas" / "just-cards-rounds.json").read_text(encoding="utf-8"))]
    assert "seed 37" in text and "guard x4" in text and "value x4" in text and "`python bench/rule_atlas.py" in text
    for rule in atlas.RULES:
        assert f"({rule.id} against {rule.base}" in text
    # the minimum of 5 against 3 under guard: the paired difference of the win rate, read from the summary by
    # hand: its total over its hands, in percentage points
    s = runs["just-cards"]
    d = s.differences["jc-minimum-5"]["just-cards"]
    assert d.wins.hands == 12 and s.hands == 3
    cells = _cells(html)
    assert cells["jc-minimum-5", "wins", 0] == d.wins.total / 12
    value = s.by_mix()[1].differences["jc-minimum-5"]["just-cards"]
    assert cells["jc-minimum-5", "exhausted", 1] == value.exhausted.total / 12
    # the same number in the Markdown table, in percentage points with two decimals
    row = next(line for line in text.split("## The minimum: jc-minimum-5")[1].splitlines()
               if line.startswith("| win rate"))
    assert f"{100 * d.wins.total / 12:+,.2f}" in row
    # a rule of another tile set is unpaired: the difference of the two presets' own means
    b = runs["bga-old-style"]
    off, on = b.presets["bga-flowers-off"].per_hand["exhausted"], b.presets["bga-old-style"].per_hand["exhausted"]
    assert "bga-flowers-off" not in b.differences
    assert cells["bga-flowers-off", "exhausted", 0] == pytest.approx(off.total / 12 - on.total / 12)
    assert "- bga-flowers-off: unpaired (another tile set)" in text
    # a ledger against a ledger compares faan; the dealer's edge is East's net a hand
    k = runs["hk-classic"].differences["hkc-no-robbing"]["hk-classic"]
    assert k.payments_by_seat is not None
    assert cells["hkc-no-robbing", "edge", 0] == k.payments_by_seat["E"].total / 12
    # the rules of who deals next, over rounds of a match: walls / 4 rounds (at least 2), a summary a mix
    assert [r.rounds for r in rounds] == [2, 2] and [r.bots for r in rounds] == [["guard"] * 4, ["value"] * 4]
    assert sorted(rounds[0].differences) == ["jc-dealer-repeats-1", "jc-dealer-rotates", "jc-dealer-stays-on-draw"]
    for j, r in enumerate(rounds):
        # the deal always passing: 4 hands a round, so the paired difference is 4 less the base's mean
        d = r.differences["jc-dealer-rotates"]["just-cards"]
        assert d.hands_a_round.total == 4 * 2 - r.presets["just-cards"].hands
        assert cells["jc-dealer-rotates", "round_hands", j] == d.hands_a_round.total / 2
        assert cells["jc-dealer-rotates", "round_longest", j] == d.longest.total / 2
    # only those rules have rounds; the repeat limit's verdict says why one hand a wall shows nothing, and gives
    # what the rounds showed (in 2 rounds a dealer may never have kept the deal twice: then they say so)
    assert {rule for rule, key, _ in cells if key.startswith("round_")} == {
        "jc-dealer-repeats-1", "jc-dealer-rotates", "jc-dealer-stays-on-draw"}
    repeats = next(line for line in text.splitlines() if line.startswith("- **Dealer repeats**"))
    assert "with guard x4: every hand played alike, with the same results: one hand a wall, dealt by East, never " \
           "reaches the rule;" in repeats and " Over 2 rounds of a match: with guard x4: " in repeats
    assert text.count("Over rounds, with guard x4:") == 3 and "Over rounds, with value x4:" in text
    # the rounds stopped at the bound, base and variant: none in 2 rounds of the deal always passing (4 hands)
    rotates = text.split("## Dealer rotation: jc-dealer-rotates")[1]
    assert "Rounds stopped at 16 hands before the deal had passed four times (base and variant): none." in rotates
    # the pages written again from the summaries alone are the same pages
    again = tmp_path / "again"
    again.mkdir()
    assert atlas.main(["--pages-from", str(tmp_path / "rule-atlas"), "--md", str(again / "a.md"),
                       "--html", str(again / "a.html")]) == 0
    assert (again / "a.md").read_text(encoding="utf-8") == text
    assert (again / "a.html").read_text(encoding="utf-8") == html
    # a run made before the rounds of a match (the committed atlas's runs.json names none) still makes its pages
    old = tmp_path / "old"
    old.mkdir()
    meta = json.loads((tmp_path / "rule-atlas" / "runs.json").read_text(encoding="utf-8"))
    del meta["rounds"], meta["round_runs"]
    for p in (tmp_path / "rule-atlas").glob("*.json"):
        if "-rounds" not in p.name:
            (old / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    (old / "runs.json").write_text(json.dumps(meta), encoding="utf-8")
    assert atlas.main(["--pages-from", str(old), "--md", str(again / "b.md"), "--html", str(again / "b.html")]) == 0
    before = (again / "b.md").read_text(encoding="utf-8")
    assert "Over rounds" not in before and "one hand a wall, dealt by East, never reaches the rule" in before


def _verdict_measure(atlas: ModuleType, diff: float, low: float, high: float) -> Any:
    return atlas.Measure("exhausted", "draw rate", "draws", 100.0, " pp", 0.1, 0.2, diff, low, high, True)


def test_a_verdict_says_what_changed_and_whether_the_bots_matter(atlas: ModuleType) -> None:
    rule = atlas.Rule("x", "just-cards", "The minimum", "raising the minimum from 3 to 5")
    sure = _verdict_measure(atlas, 0.1, 0.08, 0.12)
    unsure = _verdict_measure(atlas, 0.01, -0.02, 0.04)
    text = atlas.verdict(rule, [("guard x4", [sure]), ("value x4", [unsure])], 100)
    assert text.startswith("Raising the minimum from 3 to 5: with guard x4: draws +10.00 pp (+8.00 .. +12.00); "
                           "with value x4: no change measurable at 100 walls.")
    assert text.endswith("Depends on the bots (sign or significance changes between the mixes): draws (guard x4: "
                         "+10.00 pp (+8.00 .. +12.00); value x4: +1.00 pp (-2.00 .. +4.00)).")
    assert "Depends" not in atlas.verdict(rule, [("guard x4", [sure]), ("value x4", [sure])], 100)


def test_a_round_verdict_says_what_changed_over_rounds(atlas: ModuleType) -> None:
    longest = atlas.Measure("round_longest", "longest run of one dealer (hands)", "the longest run of one dealer",
                            1.0, "", 1.7, 1.5, -0.2, -0.3, -0.1, True)
    same = atlas.Measure("round_hands", "hands a round", "hands a round", 1.0, "", 5.0, 5.0, 0.0, 0.0, 0.0, True)
    text = atlas.round_verdict([("guard x4", [longest, same]), ("value x4", [same])], 500)
    assert text == ("Over 500 rounds of a match: with guard x4: the longest run of one dealer -0.20 (-0.30 .. -0.10); "
                    "with value x4: every round played alike, with the same results: the rule never came into play.")
    never = atlas.Measure("round_longest", "longest run of one dealer (hands)", "the longest run of one dealer",
                          1.0, "", 1.7, 1.7, 0.0, 0.0, 0.0, True)
    assert atlas.round_verdict([("guard x4", [longest]), ("value x4", [never])], 500).endswith(
        "Depends on the bots (sign or significance changes between the mixes): the longest run of one dealer "
        "(guard x4: -0.20 (-0.30 .. -0.10); value x4: the same in every round).")
    # of the hands, the same words as before: on every wall
    rule = atlas.Rule("x", "just-cards", "The minimum", "raising the minimum from 3 to 5")
    sure = _verdict_measure(atlas, 0.1, 0.08, 0.12)
    alike = _verdict_measure(atlas, 0.0, 0.0, 0.0)
    assert atlas.verdict(rule, [("guard x4", [sure]), ("value x4", [alike])], 100).endswith(
        "draws (guard x4: +10.00 pp (+8.00 .. +12.00); value x4: the same on every wall).")


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("distributed", reason='distributed is not installed (pip install "hkcore[dask]")')
    with local_client() as c:
        yield c


@pytest.mark.io
def test_the_atlas_on_dask_is_the_single_process_one(atlas: ModuleType, client: Any) -> None:
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        pytest.skip("hkcore.dask has nothing core-specific; the compiled-core run covers it")
    rules = [r for r in atlas.RULES if r.id in ("jc-minimum-5", "jc-flowers-on", "jc-multiple-winners")]
    one = atlas.simulate_run("just-cards", rules, 4, 37, jobs=1)
    on_dask = atlas.simulate_run("just-cards", rules, 4, 37, jobs=1, dask=True)
    assert on_dask == one and json.loads(on_dask.to_json()) == json.loads(one.to_json())
    assert len(one.mixes) == 1 and one.presets["jc-minimum-5"].hands == 16


@pytest.mark.io
def test_the_page_in_a_browser(atlas: ModuleType, tmp_path: Path) -> None:
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        pytest.skip("the page does not depend on the core: checked in the browser on the compiled core only")
    for name, why in (("matplotlib", "draws the plots"), ("playwright", "drives the browser")):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed ({why})")
    from helpers.browser import ARTIFACTS, chromium_or_skip, file_page, launched

    chromium_or_skip()
    md, page = tmp_path / "rule-atlas.md", tmp_path / "rule-atlas.html"
    atlas.main(["--walls", "6", "--jobs", "1", "--md", str(md), "--html", str(page),
                "--rules", "jc-minimum-5", "bga-flowers-off", "hkc-no-robbing", "jc-half-spicy", "jc-dealer-repeats-1"])
    requests: list[str] = []
    with launched() as browser:
        wide = file_page(browser, page, requests)
        wide.screenshot(path=str(tmp_path / "rule-atlas.png"))
        sections = wide.eval_on_selector_all("section.rule", "els => els.map(s => [s.id, "
                                             "s.querySelectorAll('.figure svg').length, "
                                             "s.querySelectorAll('table.atlas').length])")
        narrow = browser.new_page(viewport={"width": 390, "height": 844})
        narrow.goto(page.as_uri())
        narrow.screenshot(path=str(tmp_path / "rule-atlas-390.png"), full_page=True)
        over = narrow.evaluate("""() => [document.documentElement.scrollWidth,
            [...document.querySelectorAll('body *')].filter(e => !e.closest('.scroll')
                && e.getBoundingClientRect().right > window.innerWidth + 0.5).map(e => e.tagName),
            [...document.querySelectorAll('table')].filter(t => t.scrollWidth > t.parentElement.clientWidth + 1)
                .length]""")
    ARTIFACTS.mkdir(exist_ok=True)
    for name in ("rule-atlas.png", "rule-atlas-390.png"):
        (ARTIFACTS / name).write_bytes((tmp_path / name).read_bytes())
    assert requests == [page.as_uri()]   # nothing fetched beyond the page
    # a section a rule, in the atlas's order, each with its two plots and a table a mix of bots (the repeat limit
    # a second table a mix, over rounds of a match)
    assert sections == [["jc-minimum-5", 2, 2], ["bga-flowers-off", 2, 2], ["hkc-no-robbing", 2, 2],
                        ["jc-dealer-repeats-1", 2, 4], ["jc-half-spicy", 2, 2]]
    # at 390 px nothing runs off the side, and the tables fit without scrolling (their intervals wrap)
    assert over == [390, [], 0]


def test_a_narrow_interval_shows_more_decimals(atlas: ModuleType) -> None:
    # a half-width of 0.001 discards: 1 - floor(log10(0.001)) = 4 decimals, where 2 would show +0.00 .. +0.01
    m = atlas.Measure("turns", "hand length", "discards a hand", 1.0, "", 60.0, 60.005, 0.005, 0.004, 0.006, True)
    assert (m.text(m.diff, True), m.interval_text()) == ("+0.0050", "+0.0040 .. +0.0060")
    wide = atlas.Measure("exhausted", "draw rate", "draws", 100.0, " pp", 0.2, 0.3, 0.1, 0.08, 0.12, True)
    assert (wide.text(wide.diff, True), wide.interval_text()) == ("+10.00", "+8.00 .. +12.00")
    # an interval that excludes 0 by less than half a hundredth of a point: -1.40 .. -0.004 pp would read
    # -1.40 .. -0.00 (as if it reached 0); three decimals show its end below 0
    edge = atlas.Measure("wins", "win rate", "wins", 100.0, " pp", 0.2, 0.193, -0.007, -0.014, -0.00004, True)
    assert edge.interval_text() == "-1.400 .. -0.004"
    # one that reaches 0 keeps two
    across = atlas.Measure("wins", "win rate", "wins", 100.0, " pp", 0.2, 0.193, -0.007, -0.014, 0.00004, True)
    assert across.interval_text() == "-1.40 .. +0.00"


def test_an_unknown_rule_is_named(atlas: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        atlas.main(["--rules", "jc-minimum-5", "jc-minimum-5", "jc-nosuch", "--walls", "2"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "unknown rule jc-nosuch;" in err and "jc-minimum-5;" not in err
