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
import pytest

from hkcore.cli import main
from hkcore.sample import sample
from hkcore.summary import ComparisonSummary, compare_many

from helpers.corpus import CORPUS, EXPECTED, N2, N3

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"  # ignored by git


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
    assert "| bga-old-style | 5 | 1 |  | 3 | 1 | 25.0% | 0 | 3.7 faan |" in md
    # H2 refused for its flowers: 1 winnable of the 3 hands read, mean (0 + 8) / 2
    assert "| hk-classic | 5 | 2 | flowers 1 | 2 | 1 | 33.3% | 0 | 4.0 faan |" in md
    assert "A 136-tile preset refuses every hand with bonus tiles" in md
    assert "A preset that counts points is compared in its own unit" in md  # playingcards-io beside faan
    assert "| playingcards-io | 3 | 26.3 | 25 | 79 | 31 | 39.2% | 39.2% |" in md
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


def _chromium() -> str:
    path = os.environ.get("HKCORE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        pytest.skip(f"no Chromium at {path} (apt-get install -y chromium; never downloaded by the tests)")
    return path


def test_page_in_a_browser(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.environ.get("HKCORE_PURE_PYTHON") == "1":
        pytest.skip("the page does not depend on the core: checked in the browser on the compiled core only")
    _need("matplotlib", "hkcore[report] draws the plots")
    _need("playwright", "drives the browser")
    chromium = _chromium()
    from playwright.sync_api import sync_playwright
    from PIL import Image  # matplotlib's own dependency

    out = tmp_path / "report"
    main(["report", str(_corpus_file(tmp_path, 200)), "--out", str(out)])
    capsys.readouterr()
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    shot = tmp_path / "report.png"
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.on("request", lambda r: requests.append(r.url))
            page.goto((out / "report.html").as_uri())
            page.screenshot(path=str(shot))
            cells = page.eval_on_selector_all("[data-field]", """els => els.map(e => ({
                field: e.dataset.field, preset: e.dataset.preset || null, key: e.dataset.key || null,
                value: e.dataset.value === undefined ? null : e.dataset.value,
                a: e.dataset.a || null, b: e.dataset.b || null, text: e.textContent.trim(),
                items: Array.from(e.querySelectorAll('li')).map(li => [li.dataset.index,
                                                                     li.querySelector('code').textContent])}))""")
        finally:
            browser.close()
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / "report.png")
    assert requests == [(out / "report.html").as_uri()]  # nothing fetched beyond the page itself

    image = Image.open(shot).convert("RGB")
    assert image.size == (1280, 1000)
    assert len(image.getcolors(1 << 24)) > 200  # text, tables and coloured plots: far from blank

    seen: dict[str, int] = {}
    for c in cells:
        seen[c["field"]] = seen.get(c["field"], 0) + 1
        if c["field"] == "hands" and c["preset"] is None:
            assert int(c["value"]) == summary["hands"]
        elif c["field"] in ("faan_histogram", "pattern_counts"):
            expected = summary["presets"][c["preset"]][c["field"]].get(c["key"])
            assert (None if c["value"] is None else int(c["value"])) == expected, c
        elif c["field"] == "refused":
            assert int(c["value"]) == summary["presets"][c["preset"]]["refused"][c["key"]], c
            assert c["text"] == f'{c["key"]} {int(c["value"]):,}'
        elif c["field"] == "flips":
            assert int(c["value"]) == summary["flips"][c["a"]][c["b"]]["count"]
            assert c["text"].replace(",", "") == c["value"]
        elif c["field"] == "examples":
            ex = summary["flips"][c["a"]][c["b"]]["examples"]
            assert c["items"] == [[str(e["index"]), e["hand"]] for e in ex]
        elif c["preset"] is not None and c["value"] is not None:
            assert int(c["value"]) == summary["presets"][c["preset"]][c["field"]], c
            assert c["text"].replace(",", "") == c["value"]
    n = len(summary["presets"])
    assert seen["winnable"] == n and seen["errors"] == n and seen["flips"] == n * (n - 1)
    assert seen["pattern_counts"] == n * len({k for s in summary["presets"].values() for k in s["pattern_counts"]})
    assert seen["examples"] == sum(1 for row in summary["flips"].values() for f in row.values() if f["examples"])
    assert seen["paid"] == sum(1 for s in summary["presets"].values() if s["pays"])


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
    from hkcore.report import write_report

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
    from hkcore.report import markdown

    data = compare_many(CORPUS, ["just-cards"]).model_dump()
    data["presets"]["just-cards"].update(paid=3, payout_histogram={"0": 2, "256": 1}, winner_gain=256)
    md = markdown(ComparisonSummary.model_validate(data))
    assert "| just-cards | 3 | 85.3 | 0 | 256 | 256 | 100.0% | 100.0% |" in md, md


def test_a_summary_with_paid_hands_but_no_payouts_still_draws(tmp_path: Path) -> None:
    # a summary.json edited by hand: the counts say 3 paid hands, the histogram is empty
    _need("matplotlib", "hkcore[report] draws the plots")
    from hkcore.report import write_report

    data = compare_many(CORPUS, ["just-cards"]).model_dump()
    data["presets"]["just-cards"].update(paid=3, payout_histogram={})
    written = write_report(ComparisonSummary.model_validate(data), tmp_path)
    assert [p.name for p in written] == ["summary.json", "summary.md", "report.html"]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 3
