"""The scoring page, used as a person would: a real ``hkscore serve`` on
loopback, Debian's chromium driven headless by Playwright (never a
downloaded browser). Screenshots go to ``$HKCORE_ARTIFACTS`` (default: a
folder under the temporary directory) and must not be blank.

Skipped, with the reason shown, when fastapi/uvicorn, playwright or
chromium are missing, and on the pure-Python core's run of the suite (the
page is the same; the service tests cover that core).
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import hkcore
from helpers.browser import ARTIFACTS, colours, launched, why_not
from helpers.serving import running
from hkcore.notation import format_hand
from hkcore.tiles import parse_tiles

README_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"
WAITING_HAND = "123m456p789s11z22z"  # 13 tiles, no winning tile: waiting on 1z or 2z
pytestmark = [pytest.mark.io, pytest.mark.skipif(why_not() is not None, reason=str(why_not()))]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running() as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _page(browser: Any, url: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(url) else None)
    page.goto(url + "/")
    page.wait_for_selector('[data-tile="9s"]')
    page.outside = outside  # checked by the tests: the page asks nothing of any other site
    return page


def _build_readme_hand(page: Any) -> None:
    """234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N, by clicks and choices."""
    for code in ("2m", "3m", "4m", "5z", "5z"):
        page.click(f'#palette [data-tile="{code}"]')
    page.check("#mode-pung")
    page.click('#palette [data-tile="6z"]')
    page.select_option("#meld-from-0", "W")
    page.check("#mode-pung")
    page.click('#palette [data-tile="7z"]')
    page.select_option("#meld-from-1", "E")
    page.check("#mode-ckong")
    page.click('#palette [data-tile="1m"]')
    page.select_option("#win-tile", "5z")
    page.select_option("#seat", "S")
    page.select_option("#discarder", "N")


def _faans(page: Any) -> dict[str, int]:
    ids = hkcore.presets()
    page.wait_for_function("n => document.querySelectorAll('#results [data-faan]').length === n", arg=len(ids))
    return {pid: int(page.get_attribute(f'#results [data-preset="{pid}"] [data-faan]', "data-faan")) for pid in ids}


def _looks_whole(page: Any, width: int, name: str) -> None:
    """No request left the server, the page fits the width, and its screenshot (saved as
    ``name`` in the artefacts) is not blank."""
    assert page.outside == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page is wider than the screen"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / name
    png = page.screenshot(path=str(shot), full_page=True)
    seen = colours(page, png)
    assert seen > 200, f"{shot}: only {seen} distinct colours; is the page blank?"


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)], ids=["phone", "wide"])
def test_readme_hand_by_clicks(browser: Any, url: str, width: int, height: int) -> None:
    page = _page(browser, url, width, height)
    try:
        _build_readme_hand(page)
        assert page.input_value("#notation") == format_hand(hkcore.Hand.parse(README_HAND))
        shown = _faans(page)
        expected = {pid: hkcore.score(README_HAND, pid).faan for pid in hkcore.presets()}
        assert shown == expected
        card = page.locator('#results [data-preset="bga-old-style"]')
        text = card.inner_text()
        for p in hkcore.score(README_HAND, "bga-old-style").patterns:
            assert p.name_en in text and p.name_zh in text
        assert "can win" in text and "+384" in text and "-192" in text  # winnable, payments
        _looks_whole(page, width, f"page-{width}.png")
    finally:
        page.close()


def test_waits_and_keyboard(browser: Any, url: str) -> None:
    """A waiting hand typed as notation shows its waits; the palette works from the keyboard."""
    page = _page(browser, url, 1280, 900)
    try:
        page.fill("#notation", "123m456p23s55z 789s:E seat:S")
        page.press("#notation", "Enter")
        page.wait_for_selector('#waits [data-wait="1s"]')
        row = page.inner_text('#waits [data-wait="4s"]')
        a = hkcore.analyse("123m456p23s55z 789s:E seat:S", "mistboard")
        assert f"discard {a.waits[1].on_discard.faan} faan" in row and "✗" in row
        assert page.outside == []
        page.click("#clear")
        page.focus('#palette [data-tile="1m"]')
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # 2m, next in the tab order
        assert page.eval_on_selector_all("#hand [data-hand]", "ns => ns.map(n => n.dataset.hand)") == ["1m", "2m"]
        assert page.get_attribute("#notation", "id") == "notation" and page.locator("label[for=notation]").count() == 1
    finally:
        page.close()


def test_typed_notation_fills_the_builder(browser: Any, url: str) -> None:
    page = _page(browser, url, 390, 844)
    try:
        page.fill("#notation", README_HAND)
        page.press("#notation", "Enter")
        shown = _faans(page)
        assert shown["mistboard"] == hkcore.score(README_HAND, "mistboard").faan
        assert page.input_value("#seat") == "S" and page.input_value("#discarder") == "N"
        assert page.locator("#melds li").count() == 3
        page.fill("#notation", "234m55z 667z:W win:5z")
        page.press("#notation", "Enter")
        page.wait_for_selector("#problem:not([hidden])")
        assert "667z is not a chow, pung or kong" in page.inner_text("#problem")
        status = page.inner_text("#status")
        assert "scored" not in status and "not read" in status  # not the hand scored before it
    finally:
        page.close()


def _typed_and_held(page: Any, text: str) -> Callable[[], None]:
    """``text`` typed and submitted, the service's reply to it held back; returns what lets it (and every
    later reply) through."""
    held: list[Any] = []
    released: list[bool] = []
    page.route("**/compare", lambda route: route.continue_() if released else held.append(route))
    page.fill("#notation", text)
    page.press("#notation", "Enter")
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(25)
    assert held, "the typed hand was never sent"

    def release() -> None:
        released.append(True)
        for r in held:
            r.continue_()
    return release


def test_a_choice_made_while_a_typed_hand_is_read_is_kept(browser: Any, url: str) -> None:
    """Choosing self-draw while the service is still reading a typed hand: the typed hand fills the builder and
    is scored with the choice (mistboard's self-draw is worth 1 faan: one more than the hand won on N's
    discard), not the hand before it, and the choice is not undone."""
    page = _page(browser, url, 1280, 900)
    try:
        _faans(page)  # the example hand shown first
        release = _typed_and_held(page, README_HAND)  # its reply waits until the choice is made
        page.select_option("#how", "self")
        release()
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('scored: ')"
                               " && document.querySelector('#status').textContent.includes('self-draw')")
        assert page.input_value("#how") == "self" and page.is_disabled("#discarder")
        assert page.input_value("#seat") == "S" and page.locator("#melds li").count() == 3
        assert _faans(page)["mistboard"] == hkcore.score(README_HAND, "mistboard").faan + 1
    finally:
        page.close()


def test_a_pin_or_a_winning_tile_chosen_while_a_typed_hand_is_read(browser: Any, url: str) -> None:
    """While a typed hand is read: a winning tile chosen among the builder's tiles (9s, which the typed hand does
    not hold) is not forced on the typed hand, and a pin chosen reads the typed hand again in the new order
    rather than scoring the builder's hand under the typed notation."""
    page = _page(browser, url, 1280, 900)
    try:
        _faans(page)
        for code in ("9s", "1p"):
            page.click(f'#palette [data-tile="{code}"]')
        release = _typed_and_held(page, README_HAND)
        page.select_option("#win-tile", "9s")
        page.select_option("#pin", "mistboard")
        page.wait_for_timeout(300)
        release()
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('scored: ')"
                               " && document.querySelector('#status').textContent.includes('win:5z')")
        assert page.is_hidden("#problem") and page.input_value("#win-tile") == "5z"
        assert page.get_attribute("#results [data-preset]", "data-preset") == "mistboard"
        assert _faans(page)["mistboard"] == hkcore.score(README_HAND, "mistboard").faan
    finally:
        page.close()


def test_tiles_picked_while_a_typed_hand_is_read_make_the_builders_hand(browser: Any, url: str) -> None:
    """Tiles picked in the builder while a typed hand is read: the builder's hand is the one scored (the notation
    shows it), and the typed hand's late reply does not replace it (a click used to vanish when it came)."""
    page = _page(browser, url, 1280, 900)
    try:
        _faans(page)
        release = _typed_and_held(page, README_HAND)
        for code in ("1m", "2m"):
            page.click(f'#palette [data-tile="{code}"]')
        release()
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('2 tiles')")
        page.wait_for_timeout(300)  # the typed hand's reply, answered by now, changed nothing
        assert page.locator("#hand [data-hand]").count() == 2 and page.locator("#melds li").count() == 0
        assert page.input_value("#notation") == "12m"
        assert page.inner_text("#status").startswith("2 tiles")
    finally:
        page.close()


def test_self_draw_and_the_winning_tile(browser: Any, url: str) -> None:
    """A self-draw has no discarder to choose; of two copies of the winning tile, one is marked."""
    page = _page(browser, url, 1280, 900)
    try:
        _build_readme_hand(page)
        _faans(page)
        assert page.is_enabled("#discarder")
        assert page.locator("#hand .win").count() == 1
        assert page.get_attribute("#hand [data-hand]:nth-child(5)", "class").split()[-1] == "win"
        page.select_option("#how", "self")
        page.wait_for_function("() => document.querySelector('#notation').value.includes('self-draw')")
        assert page.is_disabled("#discarder") and "from:" not in page.input_value("#notation")
        page.select_option("#how", "discard")
        assert page.is_enabled("#discarder")
    finally:
        page.close()


def _codes(tiles: str) -> list[str]:
    return [str(t) for t in parse_tiles(tiles)]


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)], ids=["phone", "wide"])
def test_typed_waiting_hand_fills_the_builder(browser: Any, url: str, width: int, height: int) -> None:
    """A waiting hand typed as notation (no winning tile) fills the tile builder, and its waits are
    those hkcore.analyse gives under each preset; the builder writes the notation back."""
    page = _page(browser, url, width, height)
    try:
        page.fill("#notation", WAITING_HAND)
        page.press("#notation", "Enter")
        page.wait_for_selector("#waits [data-wait]")
        page.wait_for_function("() => document.querySelectorAll('#hand [data-hand]').length > 0")
        pos = hkcore.Position.parse(WAITING_HAND)
        assert page.eval_on_selector_all("#hand [data-hand]", "ns => ns.map(n => n.dataset.hand)") == _codes(pos.tiles)
        assert page.locator("#melds li").count() == 0
        assert page.input_value("#notation") == format_hand(pos)
        assert page.inner_text("#count").startswith("13 tiles") and page.input_value("#win-tile") == ""
        found = {pid: hkcore.analyse(WAITING_HAND, pid) for pid in hkcore.presets()}
        waits = {w.tile for a in found.values() for w in a.waits}
        rows = page.eval_on_selector_all("#waits [data-wait]", "ns => ns.map(n => n.dataset.wait)")
        assert waits and set(rows) == waits
        heads = page.eval_on_selector_all("#waits thead th", "ns => ns.map(n => n.textContent)")[1:]
        assert heads == list(found)
        for tile in sorted(waits):
            unseen = next(w.unseen for a in found.values() for w in a.waits if w.tile == tile)
            assert f"{unseen} unseen" in page.inner_text(f'#waits [data-wait="{tile}"] th')
            cells = page.eval_on_selector_all(f'#waits [data-wait="{tile}"] td', "ns => ns.map(n => n.innerText)")
            assert len(cells) == len(found)
            for (pid, a), cell in zip(found.items(), cells):
                w = next((w for w in a.waits if w.tile == tile), None)
                if w is None:
                    assert cell == "—", (pid, tile, cell)
                else:
                    assert f"discard {w.on_discard.faan} {a.unit}" in cell, (pid, tile, cell)
                    assert f"self-draw {w.on_self_draw.faan} {a.unit}" in cell, (pid, tile, cell)
        _looks_whole(page, width, f"page-waiting-{width}.png")
        # a waiting hand with a declared set and a seat: the builder takes those too
        page.fill("#notation", "123m456p23s55z 789s:E seat:S")
        page.press("#notation", "Enter")
        page.wait_for_selector('#melds li[data-meld="789s"]')
        assert page.input_value("#seat") == "S" and page.input_value("#meld-from-0") == "E"
        assert page.input_value("#notation") == "123m456p23s55z 789s:E seat:S"
    finally:
        page.close()


def test_more_presets_than_one_request_names(browser: Any, tmp_path: Path) -> None:
    """A server with 66 presets in its folder (71 in all, more than MOST_PRESETS a request may name): the page
    asks in groups and shows every one, in the order of GET /presets."""
    from hkcore.server import MOST_PRESETS

    for i in range(66):
        (tmp_path / f"club-{i:02}.toml").write_text(f'extends = "mistboard"\nid = "club-{i:02}"\nminimum = {i % 4}\n')
    assert MOST_PRESETS < 5 + 66
    js = (Path(hkcore.__file__).parent / "web" / "app.js").read_text(encoding="utf-8")
    assert f"const MOST_PRESETS = {MOST_PRESETS};" in js
    with running("--presets", str(tmp_path)) as url:
        page = _page(browser, url, 1280, 900)
        try:
            page.fill("#notation", README_HAND)
            page.press("#notation", "Enter")
            page.wait_for_function("() => document.querySelectorAll('#results [data-faan]').length === 71")
            shown = page.eval_on_selector_all("#results [data-preset]", "ns => ns.map(n => n.dataset.preset)")
            assert shown == hkcore.presets() + [f"club-{i:02}" for i in range(66)]
            # mistboard 9 faan (README hand), whatever the club's minimum
            assert page.get_attribute('#results [data-preset="club-65"] [data-faan]', "data-faan") == "9"
            page.fill("#notation", WAITING_HAND)
            page.press("#notation", "Enter")
            page.wait_for_function("() => document.querySelectorAll('#waits thead th').length === 72")
        finally:
            page.close()


# --------------------------------------------------------------------------
# a new user's first look (issue 23)

EXAMPLE_HAND = "234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N"  # docs/rules.md's example


def test_first_load_shows_the_example_hand_scored(browser: Any, url: str) -> None:
    page = _page(browser, url, 1280, 900)
    try:
        shown = _faans(page)   # before any click: every preset's card is there
        # the example hand: bga-old-style 9 faan, S +384 (docs/rules.md, worked example)
        assert shown == {pid: hkcore.score(EXAMPLE_HAND, pid).faan for pid in hkcore.presets()}
        assert shown["bga-old-style"] == 9
        assert "example hand" in page.inner_text("#status")
        assert page.locator("#hand [data-hand]").count() == 0   # the builder stays empty for one's own hand
        page.click('#palette [data-tile="1m"]')
        page.wait_for_function("() => document.querySelectorAll('#results [data-faan]').length === 0")
        page.click("#clear")  # an empty hand again: the example again
        _faans(page)
        _looks_whole(page, 1280, "page-first-load.png")
    finally:
        page.close()


def test_ones_own_table_pinned_first_and_kept_in_the_url(browser: Any, url: str) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(url + "/?pin=mistboard")
        page.wait_for_selector('[data-tile="9s"]')
        _faans(page)
        order = page.eval_on_selector_all("#results [data-preset]", "ns => ns.map(n => n.dataset.preset)")
        assert order == ["mistboard"] + [p for p in hkcore.presets() if p != "mistboard"]
        assert "your table" in page.inner_text('#results [data-preset="mistboard"] h3')
        assert page.input_value("#pin") == "mistboard"
        page.select_option("#pin", "just-cards")
        page.wait_for_function("() => document.querySelector('#results [data-preset]').dataset.preset === 'just-cards'")
        assert "pin=just-cards" in page.url
        page.reload()
        page.wait_for_selector('[data-tile="9s"]')
        _faans(page)
        assert page.input_value("#pin") == "just-cards"
        assert page.get_attribute("#results [data-preset]", "data-preset") == "just-cards"
        # waits too: the pinned preset's column first
        page.fill("#notation", "123m456p23s55z 789s:E seat:S")
        page.press("#notation", "Enter")
        page.wait_for_selector('#waits [data-wait="1s"]')
        heads = page.eval_on_selector_all("#waits thead th", "ns => ns.map(n => n.textContent)")[1:]
        assert heads[0] == "just-cards" and sorted(heads) == sorted(hkcore.presets())
        page.select_option("#pin", "")
        page.wait_for_function("() => !location.search.includes('pin=')")
    finally:
        page.close()


def test_payments_mark_the_winner_and_the_discarder(browser: Any, url: str) -> None:
    page = _page(browser, url, 1280, 900)
    try:
        page.fill("#notation", EXAMPLE_HAND)
        page.press("#notation", "Enter")
        # the typed hand read and scored (the page's own example, the same hand, shows its results first: a
        # choice made before the typed hand is read would be undone when it is)
        page.wait_for_function("t => document.querySelector('#status').textContent === 'scored: ' + t",
                               arg=EXAMPLE_HAND)
        _faans(page)
        pays = '#results [data-preset="bga-old-style"] .pays'
        # S won on N's discard: S +384, N -192, E and W -96 (docs/rules.md)
        assert page.get_attribute(f'{pays} [data-seat="S"]', "class") == "winner"
        assert page.get_attribute(f'{pays} [data-seat="N"]', "class") == "discarder"
        assert page.get_attribute(f'{pays} [data-seat="E"]', "class") is None
        assert "+384" in page.inner_text(f'{pays} [data-seat="S"]') and "winner" in page.inner_text(
            f'{pays} [data-seat="S"]')
        assert "discarder" in page.inner_text(f'{pays} [data-seat="N"]')
        # a self-draw has a winner and no discarder
        page.select_option("#how", "self")
        page.wait_for_function("() => document.querySelector('#notation').value.includes('self-draw')")
        page.wait_for_function(f"() => !document.querySelector('{pays} .discarder')")
        assert page.locator(f'{pays} .winner').count() == 1
        _looks_whole(page, 1280, "page-payments.png")
    finally:
        page.close()


def test_the_waits_table_fits_1280_pixels_with_six_presets(browser: Any, tmp_path: Path) -> None:
    (tmp_path / "club.toml").write_text('extends = "playingcards-io"\nid = "our-club-with-a-long-name"\n')
    with running("--presets", str(tmp_path)) as base:
        page = _page(browser, base, 1280, 900)
        try:
            page.fill("#notation", "123m456p23s55z 789s:E seat:S")
            page.press("#notation", "Enter")
            page.wait_for_selector('#waits [data-wait="4s"]')
            assert page.locator("#waits thead th").count() == 7   # the wait column and six presets
            box = page.evaluate("() => { const w = document.querySelector('#waits');"
                                " return [w.scrollWidth, w.clientWidth]; }")
            assert box[0] <= box[1], f"the waits table is wider than its column: {box}"
            # the waits (1s, 4s: 23s with 789s) drawn as tiles, each with its unseen count
            assert page.eval_on_selector_all("#waits [data-wait] th .tile .code",
                                             "ns => ns.map(n => n.textContent)") == ["1s", "4s"]
            _looks_whole(page, 1280, "page-waits-six-presets.png")
        finally:
            page.close()
