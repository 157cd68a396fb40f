"""The rule economics report (hkscore report of a simulation; docs/simulation.md) and the summary's
fields that answer a club's questions: who pays, the bots' draws and win lengths, and the paired
differences of the table's counts.

The fields are checked against hands the tests play again from the documented seeds
(helpers.simulation.play_again) and count from their logs; the page is opened in Debian's Chromium
with Playwright (skipped, saying why, without matplotlib, playwright or the browser, and on the
pure-Python core) and every number it shows is read back against summary.json.
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from helpers.browser import ARTIFACTS, chromium_or_skip, file_page, launched
from helpers.cli import run
from helpers.simulation import SEATS, play_again
from hkcore.reports.simulation import (
    is_simulation_summary,
    read_summary,
    simulation_page,
)
from hkcore.simulation import SimulationSummary, Stat, simulate

BOTS = ["efficiency", "efficiency", "random", "random"]
# three presets of 144 tiles: two that settle in points and a faan ledger; three pairs
PRESETS = ["bga-old-style", "playingcards-io", "mistboard"]


@pytest.fixture(scope="module")
def whole() -> SimulationSummary:
    return simulate(PRESETS, BOTS, hands=4, seed=5)


def _stat_of(per_wall: list[int], per: int) -> Stat:
    """A Stat by its definition: each wall's total over ``per`` hands."""
    return Stat(walls=len(per_wall), hands=per * len(per_wall), total=sum(per_wall),
                squares=sum(v * v for v in per_wall))


def test_the_new_fields_are_what_the_logs_say(whole: SimulationSummary) -> None:
    logs = play_again(PRESETS, BOTS, 4, seed=5)
    # per preset, per wall, the sums the paired differences are made of
    wall_sums: dict[str, list[dict[str, Any]]] = defaultdict(lambda: [
        {"wins": 0, "exhausted": 0, "self_draw": 0, "turns": 0, "won": 0, "seat": Counter()} for _ in range(4)])
    seat_pay: dict[str, Counter[str]] = defaultdict(Counter)
    discarders: Counter[str] = Counter()
    bot_draws: dict[str, Counter[str]] = defaultdict(Counter)
    win_turns: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for k, pid, _r, who, log in logs:
        [end] = [x for x in log if x["event"] == "end_hand"]
        wins = [x for x in log if x["event"] == "win"]
        turns = sum(x["event"] == "discard" for x in log)
        gained = end["delta"] if end["delta"] is not None else end["faan"]
        w = wall_sums[pid][k]
        w["wins"] += end["result"] == "win"
        w["exhausted"] += end["result"] != "win"
        w["self_draw"] += bool(wins) and wins[0]["from"] is None
        w["turns"] += turns
        w["won"] += sum(gained[x["seat"]] for x in wins)
        for s in SEATS:
            w["seat"][s] += gained[s]
            seat_pay[pid][s] += gained[s]
            if end["result"] != "win":
                bot_draws[pid][who[s]] += 1
        if wins and wins[0]["from"] is not None and end["delta"] is not None:
            discarders[pid] -= end["delta"][wins[0]["from"]]
        for x in wins:
            win_turns[pid, who[x["seat"]]][str(turns)] += 1
    for pid, p in whole.presets.items():
        assert p.payments_by_seat == {s: _stat_of([wall_sums[pid][k]["seat"][s] for k in range(4)], 4)
                                      for s in SEATS}
        assert {s: st.total for s, st in p.payments_by_seat.items()} == {s: seat_pay[pid][s] for s in SEATS}
        assert p.paid_by_discarder == discarders[pid]
        assert p.won == _stat_of([wall_sums[pid][k]["won"] for k in range(4)], 4)
        for name, b in p.bots.items():
            assert b.exhausted == bot_draws[pid][name]
            assert b.win_turns_histogram == dict(sorted(win_turns[pid, name].items(), key=lambda kv: int(kv[0])))
    assert whole.presets["mistboard"].paid_by_discarder == 0   # a ledger: nobody pays
    assert whole.presets["mistboard"].discarder_share() is None
    # each preset against the base, the first given
    assert [(a, list(r)) for a, r in whole.differences.items()] == [
        ("playingcards-io", ["bga-old-style"]), ("mistboard", ["bga-old-style"])]
    for a, rows in whole.differences.items():
        for b, d in rows.items():
            for field in ("wins", "exhausted", "self_draw", "turns", "won"):
                if field == "won" and a == "mistboard":   # faan won against points: not compared
                    assert d.won is None
                    continue
                want = [wall_sums[a][k][field] - wall_sums[b][k][field] for k in range(4)]
                assert getattr(d, field) == _stat_of(want, 4), (a, b, field)
            if a == "mistboard":
                assert d.payments_by_seat is None
                continue
            assert d.payments_by_seat is not None and d.payments_by_seat["E"] == _stat_of(
                [wall_sums[a][k]["seat"]["E"] - wall_sums[b][k]["seat"]["E"] for k in range(4)], 4)


def test_a_tiny_summary_worked_by_hand() -> None:
    # two walls whose dealer gained 3 and -1 over their four hands: mean 0.25 a hand
    st = Stat(walls=2, hands=8, total=2, squares=9 + 1)
    assert st.mean() == 0.25
    # per-hand wall means 0.75 and -0.25: sd sqrt(0.5), half width 1.959964 * sqrt(0.5 / 2)
    found = st.interval()
    assert found is not None
    assert abs(found[1] - 0.25 - 1.959964 * 0.5) < 1e-9


def test_merging_stays_associative_and_walls_add_up(whole: SimulationSummary) -> None:
    parts = [simulate(PRESETS, BOTS, hands=1, seed=5, first=k) for k in range(4)]
    left = ((parts[0] + parts[1]) + parts[2]) + parts[3]
    right = parts[0] + (parts[1] + (parts[2] + parts[3]))
    assert left == right == whole == (parts[3] + parts[1]) + (parts[0] + parts[2])


def test_the_summary_round_trips_and_is_recognised(tmp_path: Path, whole: SimulationSummary) -> None:
    path = tmp_path / "summary.json"
    path.write_text(whole.model_dump_json(indent=2), encoding="utf-8")
    assert is_simulation_summary(path) and read_summary(path) == whole
    compact = tmp_path / "compact.json"
    compact.write_text(whole.model_dump_json(), encoding="utf-8")
    assert is_simulation_summary(compact)
    hands = tmp_path / "hands.jsonl"
    hands.write_text('{"tiles": "123m456m789m123p55s"}\n', encoding="utf-8")
    assert not is_simulation_summary(hands) and not is_simulation_summary(tmp_path / "missing.json")


def test_hkscore_report_of_a_simulation(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        whole: SimulationSummary) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("hkcore[report] draws the plots")
    out = tmp_path / "run"
    code, stdout, err = run(capsys, "report", "--simulate", "-p", "bga-old-style", "-p", "playingcards-io",
                            "-p", "mistboard", "--bots", ",".join(BOTS), "--hands", "4", "--seed", "5",
                            "--out", str(out))
    assert code == 0, err
    assert stdout.split() == [str(out / n) for n in ("summary.json", "summary.md", "report.html")]
    assert read_summary(out / "summary.json") == whole
    again = tmp_path / "again"   # the report of a summary.json is the same report
    code, _, err = run(capsys, "report", str(out / "summary.json"), "--out", str(again))
    assert code == 0, err
    for name in ("summary.json", "summary.md", "report.html"):
        assert (again / name).read_bytes() == (out / name).read_bytes()
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "| hands played | 16 | 16 | 16 |" in md
    # payments of a points preset and a faan ledger are not compared
    assert "| mistboard | bga-old-style | won per hand | - (other units) |" in md
    for args, words in ((["--simulate", str(out / "summary.json")], "leave out FILE"),
                        ([str(out / "summary.json"), "--hands", "3"], "--hands go with --simulate"),
                        ([str(out / "summary.json"), "-p", "mistboard"], "leave out --preset"),
                        ([], "give FILE")):
        code, _, err = run(capsys, "report", *args, "--out", str(tmp_path / "x"))
        assert code == 2 and words in err, (args, err)
    bad = tmp_path / "bad.json"
    bad.write_text('{"duplicate": "x", "seed": -1}', encoding="utf-8")
    code, _, err = run(capsys, "report", str(bad), "--out", str(tmp_path / "x"))
    assert code == 2 and "bad.json" in err and "not a simulation summary" in err



def _rate(n: int, d: int) -> float | None:
    return n / d if d else None


def _expected(p: Any, field: str) -> float | None:
    """A first-screen figure from the summary's counts, by its definition (docs/simulation.md)."""
    turns = sum(int(k) * v for k, v in p["turns_histogram"].items())
    faan = sum(int(k) * v for k, v in p["faan_histogram"].items())
    figures = {
        "hands": p["hands"], "win_rate": _rate(p["wins"], p["hands"]),
        "self_draw_rate": _rate(p["self_draw"], p["hands"]), "discard_rate": _rate(p["discard"], p["hands"]),
        "robbing_rate": _rate(p["robbing"], p["hands"]), "exhausted_rate": _rate(p["exhausted"], p["hands"]),
        "mean_turns": _rate(turns, p["hands"]), "mean_faan": _rate(faan, p["win_records"]),
        "win_worth": _rate(p["won"]["total"], p["wins"]), "won": _rate(p["won"]["total"], p["won"]["hands"]),
        "discarder_share": _rate(p["paid_by_discarder"], p["won"]["total"]) if p["pays"] and p["won"]["total"] > 0
        else None,
        "dealer_win_rate": _rate(p["wins_by_seat"]["E"], p["hands"]),
        "dealer_retained_rate": _rate(p["dealer_retained"], p["hands"]),
        "dealer_payments": _rate(p["payments_by_seat"]["E"]["total"], p["payments_by_seat"]["E"]["hands"]),
        "declined_rate": _rate(p["hands_declined"], p["hands"]),
    }
    return figures[field]


def _depends(by_mix: list[dict[str, Any]]) -> str:
    """Whether a difference depends on the bots, by the page's note: the sign of its means, or whether its
    interval is clear of 0, not the same under every mix."""
    known = [c for c in by_mix if c["value"] is not None]
    signs = {c["value"] > 0 for c in known if c["value"] != 0}
    sure = {c["low"] is not None and (c["low"] > 0 or c["high"] < 0) for c in known}
    return " and ".join(n for n, v in (("sign", len(signs) > 1), ("significance", len(sure) > 1)) if v)


@pytest.mark.io
def test_the_page_in_a_browser(tmp_path: Path) -> None:
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        pytest.skip("the page does not depend on the core: checked in the browser on the compiled core only")
    for name, why in (("matplotlib", "hkcore[report] draws the plots"), ("playwright", "drives the browser")):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} is not installed ({why})")
    chromium_or_skip()
    from PIL import Image

    from hkcore.reports.simulation import write_simulation_report

    # two mixes on the same walls: the page shows each difference under each, and one bot in every seat
    mixed = simulate(PRESETS, [BOTS, ["efficiency"]], hands=4, seed=5)
    out = tmp_path / "report"
    write_simulation_report(mixed, out)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    mixes = [summary, *summary["mixes"]]
    requests: list[str] = []
    with launched() as browser:
        page = file_page(browser, out / "report.html", requests)
        page.screenshot(path=str(tmp_path / "simulation-report.png"))
        cells = page.eval_on_selector_all("[data-field]", """els => els.map(e => ({
            field: e.dataset.field, preset: e.dataset.preset || null, key: e.dataset.key || null,
            bot: e.dataset.bot || null, value: e.dataset.value === undefined ? null : Number(e.dataset.value),
            low: e.dataset.low === undefined ? null : Number(e.dataset.low),
            high: e.dataset.high === undefined ? null : Number(e.dataset.high),
            mix: e.dataset.mix === undefined ? null : Number(e.dataset.mix),
            depends: e.dataset.depends === undefined ? null : e.dataset.depends,
            a: e.dataset.a || null, b: e.dataset.b || null, text: e.textContent.trim(),
            table: e.closest('table') ? (e.closest('table').id || e.closest('table').className) : null}))""")
        # the first screen holds the presets side by side and the first pair's section begins on it
        first = page.evaluate("""() => [document.getElementById('glance').getBoundingClientRect().bottom,
            document.querySelector('section.pair').getBoundingClientRect().top]""")
        headings = page.eval_on_selector_all("h2", "els => els.map(e => e.textContent)")
        # each pair: its rules that differ come first, then how well it is paired, then what changed
        sections = page.eval_on_selector_all("section.pair", """els => els.map(s => ({
            id: s.id, order: [...s.querySelectorAll('table.rules, p.pairing, table.changes')].map(e =>
                e.tagName === 'P' ? 'pairing' : e.className),
            first_rule: s.querySelector('table.rules tr:nth-child(2) td') ?
                s.querySelector('table.rules tr:nth-child(2) td').textContent : null,
            weak: s.querySelector('p.pairing.weak') !== null}))""")
        heads = page.eval_on_selector_all("#glance th[data-preset]", "els => els.map(e => e.innerText)")
        width = page.evaluate("() => document.documentElement.scrollWidth")
        narrow = browser.new_page(viewport={"width": 390, "height": 844})
        narrow.goto((out / "report.html").as_uri())
        narrow.screenshot(path=str(tmp_path / "simulation-report-390.png"), full_page=True)
        wide = narrow.evaluate("""() => [document.documentElement.scrollWidth,
            [...document.querySelectorAll('body *')].filter(e => !e.closest('.scroll')
                && e.getBoundingClientRect().right > window.innerWidth + 0.5)
                .map(e => e.tagName + '.' + e.className)]""")
    ARTIFACTS.mkdir(exist_ok=True)
    for name in ("simulation-report.png", "simulation-report-390.png"):
        shutil.copy(tmp_path / name, ARTIFACTS / name)
    assert requests == [(out / "report.html").as_uri()]  # nothing fetched beyond the page itself
    image = Image.open(tmp_path / "simulation-report.png").convert("RGB")
    assert image.size == (1280, 1000) and len(image.getcolors(1 << 24)) > 100
    assert first[0] <= 1000 and first[1] < 1000, first
    assert headings[:2] == ["At a glance", "What changed"]
    # at 390 px the page does not run off the side: a wide table scrolls in its own box
    assert wide == [390, []], wide
    assert width == 1280   # nor at 1280 px: one section a pair, not a column a pair
    # every preset of the pairs compared with the base (the first given): their rules first
    assert [x["id"] for x in sections] == ["pair-playingcards-io--bga-old-style", "pair-mistboard--bga-old-style"]
    for x in sections:   # (the rules past the first few in a second table, folded)
        assert [k for i, k in enumerate(x["order"]) if i == 0 or x["order"][i - 1] != k] == [
            "rules", "pairing", "changes"], x
    # playingcards-io replaces bonus tiles from the front, bga-old-style from the back (their TOML): the rule
    # that decides the pairing comes first, and no wall stays in step
    assert sections[0]["first_rule"] == "table.replacement" and sections[0]["weak"]
    assert not sections[1]["weak"]   # mistboard replaces from the back as bga-old-style does
    assert heads == ["Board Game Arena: Hong Kong Old Style\nbga-old-style", "PlayingCards.io\nplayingcards-io",
                     "Mistboard\nmistboard"]

    seen: Counter[str] = Counter()
    presets = summary["presets"]
    changed: dict[tuple[str, str, str], list[dict[str, Any]]] = defaultdict(list)
    for c in cells:
        seen[c["table"] or c["field"]] += 1
        if c["table"] == "glance":
            want = _expected(presets[c["preset"]], c["field"])
            assert (c["value"] is None) == (want is None), c
            if want is not None:
                assert abs(c["value"] - want) < 1e-9, c
                if c["field"].endswith("rate") or c["field"] == "discarder_share":
                    assert c["text"] == f"{100 * want:.1f} %", c
        elif c["table"] == "changes" and c["mix"] is not None:
            d = mixes[c["mix"]]["differences"][c["a"]][c["b"]]
            changed[c["a"], c["b"], c["field"]].append(c)
            units = {presets[x]["pays"] for x in (c["a"], c["b"])}
            if c["field"] in ("won", "dealer_payments") and len(units) > 1:
                assert c["value"] is None and c["text"] == "- (other units)"
                assert d["won"] is None and d["payments_by_seat"] is None
                continue
            st = d["payments_by_seat"]["E"] if c["field"] == "dealer_payments" else d[c["field"]]
            stat = Stat(**st)
            assert c["value"] == pytest.approx(st["total"] / st["hands"], abs=1e-12), c
            assert (c["low"], c["high"]) == pytest.approx(stat.interval(), abs=1e-9), c
        elif c["table"] == "changes":   # the flag: whether the difference depends on the bots
            assert c["depends"] == _depends(changed[c["a"], c["b"], c["field"]]), c
            assert c["text"] == c["depends"]
        elif c["table"] == "seats":
            st = presets[c["preset"]]["payments_by_seat"][c["key"]]
            assert c["value"] == pytest.approx(st["total"] / st["hands"], abs=1e-12)
        elif c["table"] == "patterns":
            assert c["value"] == presets[c["preset"]]["patterns"].get(c["key"]), c
        elif c["table"] == "bots" and c["field"] == "hands":
            assert c["mix"] == 0   # one bot in every seat: no table of its payments
            assert c["value"] == presets[c["preset"]]["bots"][c["bot"]]["hands"]
        elif c["table"] == "bot-pairs":
            assert c["mix"] == 0 and presets[c["a"]]["pays"] == presets[c["b"]]["pays"], c   # one unit only
            st = summary["pairs"][c["a"]][c["b"]][c["bot"]]
            assert c["value"] == pytest.approx(st["total"] / st["hands"], abs=1e-12)
    n = len(presets)
    assert seen["glance"] == 15 * n and seen["changes"] == 8 * 2 * 3 and seen["seats"] == 4 * n
    assert seen["bot-pairs"] == 2   # playingcards-io less bga-old-style, each bot; mistboard pays in faan
    assert seen["patterns"] == n * len({k for p in presets.values() for k in p["patterns"]})


def test_pattern_names_in_english_and_chinese(whole: SimulationSummary) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("hkcore[report] draws the plots")
    html = simulation_page(whole)
    # patterns every win under these presets can meet, named as docs/rules.md names them
    assert any(p.patterns for p in whole.presets.values())
    for pat in {k for p in whole.presets.values() for k in p.patterns}:
        assert f">{pat} <span class=\"name\">" in html
    if "self_draw" in whole.presets["bga-old-style"].patterns:
        assert 'Self-drawn <span lang="zh-Hant">自摸</span>' in html
