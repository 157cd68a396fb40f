"""hkscore report: summary.json, summary.md and report.html, the page checked in a real browser.

The browser test drives Debian's Chromium (/usr/bin/chromium, or $HKCORE_CHROMIUM) headless with
Playwright; it skips, saying why, without matplotlib, playwright or the browser, and on the pure-Python
core (the page does not depend on the core: it is checked once, on the compiled one).
"""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from helpers.browser import ARTIFACTS, chromium_or_skip, file_page, launched
from helpers.corpus import CORPUS, EXPECTED, N2, N3
from hkcore.cli import main
from hkcore.sample import sample
from hkcore.summary import ComparisonSummary, compare_many


def _need(module: str, why: str) -> None:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed ({why}): pip install {module}")


def _corpus_file(tmp_path: Path, extra: int = 0) -> Path:
    lines = [json.dumps(h) if isinstance(h, dict) else h for h in CORPUS]
    lines += [json.dumps(h) for h in sample(extra, 4)]
    path = tmp_path / "hands.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_report_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _need("matplotlib", "hkcore[report] draws the plots")
    out = tmp_path / "report"
    assert main(["report", str(_corpus_file(tmp_path)), "--preset", "all", "--out", str(out)]) == 1  # H5
    std = capsys.readouterr()
    assert std.out.split() == [str(out / n) for n in ("summary.json", "summary.md", "report.html")]
    assert std.err == "hkscore: 1 of 5 hands (under every preset) failed\n"
    assert json.loads((out / "summary.json").read_text(encoding="utf-8")) == EXPECTED
    assert main(["report", str(_corpus_file(tmp_path)), "--out", str(out), "--json"]) == 1
    assert json.loads(capsys.readouterr().out) == EXPECTED
    md = (out / "summary.md").read_text(encoding="utf-8")
    # rows over the same hands: H1, H3, H4 (H5 no preset reads; H2 hk-classic and just-cards refuse, shown apart)
    assert "Over the 3 hands every preset reads; 1 hand that some preset cannot read is counted apart" in md
    # bga: H1 9 faan wins, H3 1 faan (no_bonus) below 3, H4 not complete: mean (9 + 1) / 2
    assert "| bga-old-style | 2 | 1 | 33.3% | 0 | 5.0 faan |" in md
    assert "| hk-classic | 2 | 1 | 33.3% | 0 | 4.0 faan |" in md  # H1 8, H3 0 (chicken hand, below 3)
    assert "| playingcards-io | 2 | 2 | 66.7% | 0 | 3.0 points |" in md  # H1 6, H3 0: no minimum
    # apart, H2 alone: read (or refused) and counted, never in the shares
    assert "### Hands some preset cannot read: 1" in md
    assert "| hk-classic | 0 | 1 | flowers 1 | 0 | 0 | 0 |" in md
    assert "| bga-old-style | 1 | 0 |  | 1 | 0 | 0 |" in md  # 1 faan (seat_flower): complete, below 3
    assert "| playingcards-io | 1 | 0 |  | 1 | 1 | 0 |" in md  # 1 point (bonus_tile) wins
    assert "A 136-tile preset refuses every hand with bonus tiles" in md
    assert "A preset that counts points is compared in its own unit" in md  # playingcards-io beside faan
    # payments over H1 and H3: S gains 30 and 24; the discarder N pays 14 on H1, W 8 on H3
    assert "| playingcards-io | 2 | 27.0 | 24 | 54 | 22 | 40.7% | 40.7% |" in md
    assert f"- #1: `{N2}` 🀇🀈🀉🀜🀝🀞🀑🀑 🀗🀗🀗 🀉🀊🀋 🀣" in md  # flower 2 (orchid) is U+1F023
    assert f"- #2: `{N3}`" in md
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "<script" not in page and "<img" not in page
    assert 'src="http' not in page and "href=\"http" not in page and "@import" not in page


def test_report_with_presets_and_jobs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _need("matplotlib", "hkcore[report] draws the plots")
    src = _corpus_file(tmp_path, 30)
    code = main(["report", str(src), "-p", "mistboard", "-p", "just-cards", "--jobs", "2",
                 "--out", str(tmp_path / "r")])
    assert code == 1
    data = json.loads((tmp_path / "r" / "summary.json").read_text(encoding="utf-8"))
    assert list(data["presets"]) == ["mistboard", "just-cards"]
    lines = src.read_text(encoding="utf-8").splitlines()
    assert ComparisonSummary.model_validate(data) == compare_many(lines, ["mistboard", "just-cards"])
    md = (tmp_path / "r" / "summary.md").read_text(encoding="utf-8")
    assert "counts points" not in md  # both count faan



@pytest.mark.io
def test_page_in_a_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        pytest.skip("the page does not depend on the core: checked in the browser on the compiled core only")
    _need("matplotlib", "hkcore[report] draws the plots")
    _need("playwright", "drives the browser")
    chromium_or_skip()
    from PIL import Image  # matplotlib's own dependency

    out = tmp_path / "report"
    main(["report", str(_corpus_file(tmp_path, 200)), "--out", str(out)])
    capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    shot = tmp_path / "report.png"
    requests: list[str] = []
    with launched() as browser:
        page = file_page(browser, out / "report.html", requests)
        page.screenshot(path=str(shot))
        page.evaluate("document.getElementById('s-presets').scrollIntoView()")  # the rows and the hands apart
        page.screenshot(path=str(tmp_path / "report-presets.png"))
        cells = page.eval_on_selector_all("[data-field]", """els => els.map(e => ({
            field: e.dataset.field, preset: e.dataset.preset || null, key: e.dataset.key || null,
            part: e.dataset.part || null,
            value: e.dataset.value === undefined ? null : e.dataset.value,
            a: e.dataset.a || null, b: e.dataset.b || null, text: e.textContent.trim(),
            items: Array.from(e.querySelectorAll('li')).map(li => [li.dataset.index,
                                                                 li.querySelector('code').textContent])}))""")
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / "report.png")
    shutil.copy(tmp_path / "report-presets.png", ARTIFACTS / "report-presets.png")
    assert requests == [(out / "report.html").as_uri()]  # nothing fetched beyond the page itself

    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 1000)
    assert len(image.getcolors(1 << 24)) > 200  # text, tables and coloured plots: far from blank

    def at(c: dict[str, Any], key: str | None = None) -> int | None:
        """A cell's figure as summary.json gives it: apart, over the hands some preset cannot read;
        common, over those every preset reads (the preset's count less its count apart)."""
        s = summary["presets"][c["preset"]]
        field = c["field"]
        if c["part"] == "apart":
            return s["apart"][field] if key is None else s["apart"][field].get(key)
        whole = s[field] if key is None else s[field].get(key, 0)
        apart = 0 if s["apart"] is None else (s["apart"][field] if key is None else s["apart"][field].get(key, 0))
        return (whole - apart) or (None if key is not None else 0)

    partly = next((s["apart"]["hands"] for s in summary["presets"].values() if s["apart"]), 0)
    assert partly > 0  # the sampled hands hold bonus tiles: hk-classic and just-cards refuse them
    seen: dict[str, int] = {}
    for c in cells:
        seen[c["field"]] = seen.get(c["field"], 0) + 1
        if c["field"] == "hands" and c["preset"] is None:
            assert int(c["value"]) == summary["hands"]
        elif c["field"] == "compared":
            assert int(c["value"]) == summary["hands"] - summary["unreadable"] - partly
        elif c["field"] in ("faan_histogram", "pattern_counts"):
            assert c["part"] == "common"
            assert (None if c["value"] is None else int(c["value"])) == at(c, c["key"]), c
        elif c["field"] == "refused":
            assert c["part"] == "apart"
            assert int(c["value"]) == at(c, c["key"]), c
            assert c["text"] == f'{c["key"]} {int(c["value"]):,}'
        elif c["field"] == "flips":
            assert int(c["value"]) == summary["flips"][c["a"]][c["b"]]["count"]
            assert c["text"].replace(",", "") == c["value"]
        elif c["field"] == "examples":
            ex = summary["flips"][c["a"]][c["b"]]["examples"]
            assert c["items"] == [[str(e["index"]), e["hand"]] for e in ex]
        elif c["preset"] is not None and c["value"] is not None:
            assert c["part"] in ("common", "apart"), c
            assert int(c["value"]) == at(c), c
            assert c["text"].replace(",", "") == c["value"]
    n = len(summary["presets"])
    assert seen["winnable"] == 2 * n and seen["errors"] == n and seen["flips"] == n * (n - 1)
    listed = {k for p, s in summary["presets"].items() for k in s["pattern_counts"]
              if at({"preset": p, "field": "pattern_counts", "part": "common"}, k)}
    assert seen["pattern_counts"] == n * len(listed)
    assert seen["examples"] == sum(1 for row in summary["flips"].values() for f in row.values() if f["examples"])
    assert seen["paid"] == sum(1 for s in summary["presets"].values() if s["pays"])


def test_rows_over_the_same_hands_and_the_unread_apart() -> None:
    # hk-classic plays 136 tiles and refuses H2's flower twice; bga-old-style reads all four hands.
    # Over H1 and H3 (both read them): bga H1 9 faan wins, H3 1 (no_bonus) below 3; hk-classic H1 8 wins,
    # H3 0 (chicken hand) below 3: one win each of two, 50.0%. Apart, H2 twice: bga 1 faan (seat_flower)
    # each, complete, below 3; hk-classic refuses both for their flowers. Mixed in, bga would read 25.0%.
    from helpers.corpus import H1, H2, H3
    from hkcore.reports.comparison import markdown, page

    summary = compare_many([H1, H3, H2, H2], ["bga-old-style", "hk-classic"])
    assert (summary.hands, summary.unreadable, summary.partly_read(), summary.compared()) == (4, 0, 2, 2)
    bga, hk = summary.presets["bga-old-style"], summary.presets["hk-classic"]
    assert (bga.complete, bga.winnable, hk.errors) == (4, 1, 2)  # every hand each preset reads, as before
    assert bga.apart is not None and hk.apart is not None
    assert (bga.apart.hands, bga.apart.complete, bga.apart.winnable, bga.apart.faan_histogram) == (2, 2, 0, {"1": 2})
    assert (hk.apart.errors, hk.apart.refused, hk.apart.complete) == (2, {"flowers": 2}, 0)
    assert (bga.common().complete, bga.common().winnable, bga.common().faan_histogram) == (2, 1, {"1": 1, "9": 1})
    assert (hk.common().complete, hk.common().errors, hk.common().faan_histogram) == (2, 0, {"0": 1, "8": 1})
    md = markdown(summary)
    assert "Over the 2 hands every preset reads; 2 hands that some preset cannot read are counted apart" in md
    assert "| bga-old-style | 2 | 1 | 50.0% | 0 | 5.0 faan |" in md
    assert "| hk-classic | 2 | 1 | 50.0% | 0 | 4.0 faan |" in md
    assert "| bga-old-style | 2 | 0 |  | 2 | 0 | 0 |" in md and "| hk-classic | 0 | 2 | flowers 2 | 0 | 0 | 0 |" in md
    assert "| 1 | 1 |  |" in md and "| 0 |  | 1 |" in md  # the faan table over H1 and H3 alone
    pytest.importorskip("matplotlib", reason="the page's plots need matplotlib (pip install 'hkcore[report]')")
    text = page(summary)
    assert 'data-preset="bga-old-style" data-field="winnable_share" data-part="common">50.0%' in text
    assert '<h3 id="apart">Hands some preset cannot read: 2</h3>' in text
    # every preset reads every hand: no table apart
    assert "cannot read" not in markdown(compare_many([H1, H3], ["bga-old-style", "hk-classic"]))


def test_missing_file_is_named_as_the_command_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _need("matplotlib", "hkcore[report] draws the plots")
    assert main(["report", str(tmp_path / "nosuch.jsonl"), "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "source: cannot read" in err and "nosuch.jsonl" in err and "--jsonl" not in err
    assert not (tmp_path / "r" / "summary.json").exists()


def test_preset_ids_are_text_in_the_plots_and_the_page(tmp_path: Path) -> None:
    # a preset id is any text: '$...$' is not matplotlib mathtext (a bad one raised ValueError), markup is escaped
    _need("matplotlib", "hkcore[report] draws the plots")
    import html

    from hkcore.preset import Preset
    from hkcore.reports.comparison import write_report

    ids = ["$\\frac$", "x $y^2$ z", "<script>alert(1)</script>"]
    presets = [Preset.from_toml(f"extends = \"playingcards-io\"\nid = '{i}'\n") for i in ids]
    write_report(compare_many(CORPUS, presets), tmp_path)
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<script" not in page
    svgs = page.split('<div class="figure" id="fig-')
    for i in ids:
        for svg in svgs[1:]:  # winnable (tick labels), faan (titles), payout (legend)
            assert html.escape(i, quote=False) in svg, (i, svg[:40])


def test_a_median_gain_of_0_is_shown_as_0() -> None:
    # winners who gained nothing on two of three paid hands (a table paying 0 for 0 faan): the median is 0, not "-"
    from hkcore.reports.comparison import markdown

    data = compare_many(CORPUS, ["just-cards"]).model_dump()
    data["presets"]["just-cards"].update(paid=3, payout_histogram={"0": 2, "256": 1}, winner_gain=256)
    md = markdown(ComparisonSummary.model_validate(data))
    assert "| just-cards | 3 | 85.3 | 0 | 256 | 256 | 100.0% | 100.0% |" in md, md


def test_a_summary_with_paid_hands_but_no_payouts_still_draws(tmp_path: Path) -> None:
    # a summary.json edited by hand: the counts say 3 paid hands, the histogram is empty
    _need("matplotlib", "hkcore[report] draws the plots")
    from hkcore.reports.comparison import write_report

    data = compare_many(CORPUS, ["just-cards"]).model_dump()
    data["presets"]["just-cards"].update(paid=3, payout_histogram={})
    written = write_report(ComparisonSummary.model_validate(data), tmp_path)
    assert [p.name for p in written] == ["summary.json", "summary.md", "report.html"]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 3


# --------------------------------------------------------------------------
# why and for the same hands (issue 23): the rules first, names, contents, flips scored and folded

#: self-drawn on 1s: all_chows 1 + self_draw 1 + no_bonus 1 = 3 at bga-old-style (minimum 3: wins);
#: hk-classic has no no_bonus: 2, below its minimum 3 (docs/rules.md)
FLIP_HAND = "123m456p123s55z 789s:E win:1s self-draw seat:S"


def test_the_page_says_why_rules_first_names_contents_and_scored_flips() -> None:
    _need("matplotlib", "hkcore[report] draws the plots")
    import re

    from hkcore.preset import builtin_ids, load_preset
    from hkcore.reports.comparison import page, rule_rows

    summary = compare_many([FLIP_HAND], list(builtin_ids()))
    text = page(summary)
    # contents: one link per section, each to a heading there
    links = re.findall(r'<a href="#(s-[a-z]+)">', text)
    assert links and links[0] == "s-rules" and all(f'<h2 id="{x}">' in text for x in links)
    assert {"s-presets", "s-patterns", "s-flips"} <= set(links)
    # the rules that differ, first: minimum 3 everywhere but playingcards-io 0; cap 13, 13, 10, 10, none
    assert text.index('id="s-rules"') < text.index('id="s-presets"')
    rows = dict(rule_rows({pid: load_preset(pid) for pid in builtin_ids()}))
    assert rows["minimum"] == [3, 3, 3, 3, 0] and rows["cap"] == [13, 13, 10, 10, False]
    assert rows["patterns.no_bonus"] == [1, None, None, 1, None]   # on at bga-old-style and mistboard only
    assert rows["payments.scheme"] == ["base_points", None, "faan_table", None, "points"]
    assert "seven_pairs" not in " ".join(rows)   # off everywhere: not a difference
    # pattern names in English and Chinese beside the ids
    assert re.search(r'all_chows <span class="name">All Chows <span lang="zh-Hant">平糊</span>', text)
    # the flip bga-old-style -> hk-classic, folded, its example scored under both and decided by no_bonus
    m = re.search(r'<details><summary>Winnable under bga-old-style, not under hk-classic: 1</summary>(.*?)</details>',
                  text, re.S)
    assert m is not None
    assert ("bga-old-style 3 faan, hk-classic 2 faan (hk-classic needs 3); decided by no_bonus 無花 1 (vs 0)"
            in m.group(1))
