"""The table page (/play), played as people would: a real ``hkscore serve``
on loopback, Debian's chromium driven headless by Playwright. A hand is
played by clicks to its end and the page's result is checked against
``hkcore.replay`` of the table's log; what each page shows is checked
against the log's deal (a seat's page holds its own concealed tiles and
what is face up, nothing else). Screenshots go to ``$HKCORE_ARTIFACTS``.

Skipped as tests/test_page.py is (no server deps, playwright or chromium;
the pure-Python run of the suite).
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import hkcore
from helpers.browser import ARTIFACTS, colours, launched, why_not
from helpers.serving import call, running
from hkcore.tiles import SEATS

pytestmark = [pytest.mark.io, pytest.mark.skipif(why_not() is not None, reason=str(why_not()))]

PRESET = "bga-old-style"  # a points ledger: the result has payments
SEED = 9  # under PRESET, West wins on a discard of East's (the person's) after a dozen moves
ENABLED = "#actions [data-act]:not([disabled])"
# the page is ready for this seat's next move, or the hand is over
READY = ("() => { const t = document.querySelector('#table');"
         " return t && t.dataset.status && (t.dataset.status !== 'playing'"
         " || document.querySelector('#actions [data-act]:not([disabled])') !== null); }")
# every tile shown face up at the table, or in one's own hand, by the code it draws (the result aside)
SHOWN = """() => { const t = document.querySelector('#table');
  const codes = [...document.querySelectorAll('#others .tile .code, .me .sets .tile .code, #my-pond .tile .code,'
                                          + ' .hand-row .tile .code')].map((c) => c.textContent);
  return { events: Number(t.dataset.events), status: t.dataset.status, codes }; }"""


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running() as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _page(browser: Any, url: str, width: int = 1280, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    outside: list[str] = []
    page.on("request", lambda r: outside.append(r.url)
            if not r.url.startswith((url, url.replace("http", "ws", 1))) else None)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.outside, page.problems = outside, problems
    return page


def _open_table(page: Any, url: str, *, seats: dict[str, str], preset: str = PRESET, toml: str = "",
                seed: int | None = SEED) -> None:
    """The start screen, filled in by a person: the preset (or a pasted house preset), the seats, a seed
    (None: none, a fair deal)."""
    page.goto(url + "/play")
    page.wait_for_selector(f'#preset option[value="{preset}"]', state="attached")
    page.select_option("#preset", preset)
    if toml:
        page.click("#house summary")
        page.fill("#toml", toml)
    for s, who in seats.items():
        page.select_option(f"#seat-{s}", who)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#create")


def _table_id(page: Any) -> str:
    from urllib.parse import parse_qs, urlparse

    return str(parse_qs(urlparse(page.url).query)["table"][0])


def _log(url: str, table: str) -> list[dict[str, Any]]:
    status, kind, body = call(f"{url}/tables/{table}/log")
    assert status == 200 and kind.startswith("application/x-ndjson"), (status, body[:300])
    return [json.loads(line) for line in body.decode().splitlines() if line.strip()]


def _move(page: Any, shots: list[dict[str, Any]], how: str = "click") -> bool:
    """One move of this seat once its page is ready: a win when offered, else a pass on a claim, else a
    discard (the picked tile, clicked again; or by keys). False once the hand is over."""
    page.wait_for_function(READY)
    shots.append(page.evaluate(SHOWN))
    if page.get_attribute("#table", "data-status") != "playing":
        return False
    acts = page.eval_on_selector_all(ENABLED, "bs => bs.map((b) => b.dataset.act)")
    if "win" in acts:
        page.click('#actions [data-act="win"]')
    elif "pass" in acts:
        page.click('#actions [data-act="pass"]')
    elif how == "keys":
        page.focus(".hand-row .picked")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
    else:
        page.click(".hand-row .picked")  # the drawn tile is picked first: a second tap on it discards it
    return True


def _seen_by(log: list[dict[str, Any]], seat: str, upto: int, preset: str) -> Counter[str]:
    """What ``seat`` may see after the first ``upto`` records of the hand (start aside), from the log alone:
    its own concealed tiles, every pond (less the claimed discards), every declared set, every bonus tile."""
    start = log[0]
    hands = {s: Counter(_codes(start["hands"][s])) for s in SEATS}
    ponds: dict[str, list[str]] = {s: [] for s in SEATS}
    public: Counter[str] = Counter()
    shows_kongs = hkcore.load_preset(preset).table.show_concealed_kongs
    for r in log[1:1 + upto]:
        ev, s = r["event"], str(r.get("seat"))
        if ev == "draw":
            hands[s][r["tile"]] += 1
        elif ev == "bonus":
            hands[s][r["tile"]] -= 1
            public[r["tile"]] += 1
            if r.get("replacement"):
                hands[s][r["replacement"]] += 1
        elif ev == "discard":
            hands[s][r["tile"]] -= 1
            ponds[s].append(r["tile"])
        elif ev in ("chow", "pung") or (ev == "kong" and r["kind"] == "exposed"):
            tiles = Counter(_codes(r["tiles"]))
            if r.get("from"):
                claimed = ponds[r["from"]].pop()
                tiles[claimed] -= 1
                public[claimed] += 1
            hands[s] -= tiles
            public += tiles
        elif ev == "kong":
            tiles = Counter(_codes(r["tiles"]))
            moved = tiles if r["kind"] == "concealed" else Counter({next(iter(tiles)): 1})
            hands[s] -= moved
            if r["kind"] == "added" or shows_kongs:
                public += moved
    for s in SEATS:
        public.update(ponds[s])
    return +(public + hands[seat])


def _codes(text: str) -> list[str]:
    out: list[str] = []
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def _nothing_hidden_shown(shots: list[dict[str, Any]], log: list[dict[str, Any]], seat: str, preset: str) -> None:
    """Every picture of the page holds exactly the tiles its seat may see then, as the log says."""
    assert shots
    for shot in shots:
        if shot["status"] != "playing":
            continue
        assert Counter(shot["codes"]) == _seen_by(log, seat, shot["events"], preset), shot["events"]


def _shown_result(page: Any) -> dict[str, Any]:
    page.wait_for_selector("#result:not([hidden])")
    wins = page.eval_on_selector_all("#result [data-winner]", """ws => ws.map((w) => ({
        winner: w.dataset.winner, value: Number(w.dataset.value),
        patterns: [...w.querySelectorAll('[data-pattern]')].map((r) => [r.dataset.pattern,
            Number(r.querySelector('.n').textContent), r.querySelector('.zh').textContent])}))""")
    pays = dict(page.eval_on_selector_all("#result [data-pay]",
                                          "ds => ds.map((d) => [d.dataset.seat, Number(d.dataset.pay)])"))
    return {"result": page.get_attribute("#result", "data-result"), "wins": wins, "pays": pays}


def _expected(log: list[dict[str, Any]]) -> dict[str, Any]:
    """The result as hkcore.replay finds it in the log."""
    records = hkcore.replay([json.dumps(r) for r in log])
    end = next(r for r in records if r["event"] == "end_hand")
    win = next((r for r in records if r["event"] == "win"), None)
    return {"end": end, "win": win}


def _check_result(shown: dict[str, Any], log: list[dict[str, Any]]) -> None:
    expected = _expected(log)
    assert shown["result"] == expected["end"]["result"]
    win = expected["win"]
    if win is None:
        assert shown["wins"] == []
        return
    (w,) = shown["wins"]
    assert w["winner"] == win["seat"] and w["value"] == win["faan"]
    assert sorted((p[0], p[1]) for p in w["patterns"]) == sorted((p["id"], p["faan"]) for p in win["patterns"])
    assert all(p[2] for p in w["patterns"]), "every pattern named in Chinese too"
    pays = expected["end"]["delta"] or win["payments"]
    if pays:
        assert shown["pays"] == pays


def _shot(page: Any, name: str, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page is wider than the screen"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    png = page.screenshot(path=str(ARTIFACTS / name), full_page=True)
    assert colours(page, png) > 200, f"{name}: is the page blank?"


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 900)], ids=["phone", "wide"])
def test_a_hand_against_three_bots(browser: Any, url: str, width: int, height: int) -> None:
    """A person plays a whole hand by clicks (and keys); the result shown is the log's, replayed."""
    page = _page(browser, url, width, height)
    try:
        page.goto(url + "/play")
        page.wait_for_selector("#seat-N option", state="attached")
        assert page.is_hidden("#table") and page.is_visible("#start")
        bots = [b["name"] for b in json.loads(call(url + "/bots")[2])]
        assert page.eval_on_selector_all("#seat-S option", "os => os.map((o) => o.value)") == ["human", *bots]
        assert page.input_value("#seat-S") == "guard" and page.input_value("#seat-E") == "human"  # the strongest
        _shot(page, f"play-start-{width}.png", width)
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"})
        page.wait_for_selector("#table[data-status]")
        shots: list[dict[str, Any]] = []
        moves = 0
        while _move(page, shots, "keys" if moves == 1 else "click"):
            moves += 1
            if moves == 4:
                _shot(page, f"play-{width}.png", width)
        assert moves >= 4
        log = _log(url, _table_id(page))
        assert any(r["event"] == "win" for r in log), "the seed's hand ends in a win (a result with patterns)"
        _check_result(_shown_result(page), log)
        _nothing_hidden_shown(shots, log, "E", PRESET)
        _shot(page, f"play-end-{width}.png", width)
        assert page.outside == [] and page.problems == []
    finally:
        page.context.close()


def test_two_people_at_one_table(browser: Any, url: str) -> None:
    """Two seats played from two browsers (links shared from the start screen); neither page ever holds the
    other's concealed tiles; both show the same result, the log's."""
    east = _page(browser, url, 1280, 900)
    south = _page(browser, url, 390, 844)
    try:
        _open_table(east, url, seats={"E": "human", "S": "human", "W": "efficiency", "N": "efficiency"})
        east.wait_for_selector('#link-list [data-link="S"]')
        links = {s: east.get_attribute(f'#link-list [data-link="{s}"]', "href") for s in ("E", "S")}
        _shot(east, "play-links-1280.png", 1280)
        assert all("#" in link and "token" not in link.split("#")[0] for link in links.values())
        east.goto(links["E"])
        south.goto(links["S"])
        shots: dict[str, list[dict[str, Any]]] = {"E": [], "S": []}
        playing = {"E": east, "S": south}
        while playing:
            for seat, page in list(playing.items()):
                page.wait_for_function(
                    "() => { const t = document.querySelector('#table'); return t && t.dataset.status; }")
                if page.get_attribute("#table", "data-status") != "playing":
                    shots[seat].append(page.evaluate(SHOWN))
                    del playing[seat]
                elif page.query_selector(ENABLED):
                    _move(page, shots[seat])
                else:
                    page.wait_for_timeout(50)
        log = _log(url, _table_id(east))
        for seat, page in (("E", east), ("S", south)):
            _check_result(_shown_result(page), log)
            _nothing_hidden_shown(shots[seat], log, seat, PRESET)
        assert east.problems == [] and south.problems == []
    finally:
        east.context.close()
        south.context.close()


def test_a_claim_window_runs_out(browser: Any, url: str) -> None:
    """A house preset pasted at the start (claim windows of one second): a claim offered and not answered
    counts down and goes by; the hand goes on."""
    page = _page(browser, url)
    try:
        toml = f'extends = "{PRESET}"\n[table]\nclaim_seconds = 1\n'
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"},
                    toml=toml, seed=4)
        shots: list[dict[str, Any]] = []
        while True:
            page.wait_for_function(READY)
            assert page.get_attribute("#table", "data-status") == "playing", "no claim was offered in the hand"
            if page.query_selector('#actions [data-act="pass"]'):
                break
            _move(page, shots)
        version = int(page.get_attribute("#table", "data-version"))
        page.wait_for_selector("#countdown")
        assert int(page.get_attribute("#countdown", "data-ms")) <= 1000
        # nothing clicked: the server passes for the seat once its second is up, and play moves on
        page.wait_for_function("v => Number(document.querySelector('#table').dataset.version) > v", arg=version,
                               timeout=10_000)
        assert page.query_selector('#actions [data-act="pass"]') is None or \
            int(page.get_attribute("#table", "data-version")) > version
        while _move(page, shots):
            pass
        log = _log(url, _table_id(page))
        assert not any(r["event"] in ("chow", "pung", "kong") and r["seat"] == "E" and r.get("from") for r in log)
        _check_result(_shown_result(page), log)
    finally:
        page.context.close()


def test_reconnect_by_reloading(browser: Any, url: str) -> None:
    """A reload (a new socket, the token from the link's fragment) gets the seat back where it was; a wrong
    token gets the seat nothing."""
    page = _page(browser, url)
    try:
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"})
        shots: list[dict[str, Any]] = []
        for _ in range(3):
            assert _move(page, shots)
        page.wait_for_function(READY)
        before = page.evaluate(SHOWN)
        version = page.get_attribute("#table", "data-version")
        page.reload()
        page.wait_for_function(READY)
        assert page.get_attribute("#table", "data-version") == version
        assert page.evaluate(SHOWN) == before
        assert page.get_attribute("#table", "data-connection") == "socket"
        while _move(page, shots):
            pass
        _check_result(_shown_result(page), _log(url, _table_id(page)))
        wrong = page.url.split("#")[0] + "#not-the-token"
        page.goto(url + "/play")
        page.goto(wrong)
        page.wait_for_selector("#problem:not([hidden])")
        assert "403" in page.inner_text("#problem") or "token" in page.inner_text("#problem")
        assert page.query_selector("[data-hand-tile]") is None
    finally:
        page.context.close()


def test_polling_when_the_socket_is_gone(browser: Any, url: str) -> None:
    """Every socket refused (a proxy that drops WebSockets, say): the page asks GET /tables/{id} and sends
    its decisions by POST, and the hand is played to its end all the same."""
    page = _page(browser, url)
    try:
        page.route_web_socket("**/ws", lambda ws: ws.close(code=1011, reason="no sockets here"))
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"})
        page.wait_for_selector('#table[data-connection="polling"]')
        shots: list[dict[str, Any]] = []
        while _move(page, shots):
            assert page.get_attribute("#table", "data-connection") == "polling"
        log = _log(url, _table_id(page))
        _check_result(_shown_result(page), log)
        _nothing_hidden_shown(shots, log, "E", PRESET)
    finally:
        page.context.close()


def test_the_next_hand_of_a_match(browser: Any, url: str) -> None:
    """A match: after the first hand the page offers the next one; in it the person sits where the deal's
    rotation puts them (GAME.md's rotation as the log's end_hand names the next dealer)."""
    page = _page(browser, url)
    try:
        page.goto(url + "/play")
        page.wait_for_selector(f'#preset option[value="{PRESET}"]', state="attached")
        page.select_option("#preset", PRESET)
        page.check("#match")
        page.fill("#seed", str(SEED))
        page.click("#create")
        page.wait_for_selector("#table[data-status]")
        shots: list[dict[str, Any]] = []
        while _move(page, shots):
            pass
        assert page.get_attribute("#table", "data-status") == "hand_over"
        log = _log(url, _table_id(page))
        end = next(r for r in log if r["event"] == "end_hand")
        _check_result(_shown_result(page), log)
        players = [log[0]["seats"][s] for s in SEATS]
        dealer = players.index(end["next"]["dealer"])
        mine = SEATS[(players.index(log[0]["seats"]["E"]) - dealer) % 4]
        assert mine != "E", "the seed: a non-dealer wins hand 1, so the deal passes"
        page.click("#next")
        page.wait_for_function("() => document.querySelector('#table').dataset.status === 'playing'")
        assert "Hand 2" in page.inner_text("#info")
        assert page.get_attribute("#table", "data-seat") == mine
        assert page.is_hidden("#result")
    finally:
        page.context.close()


def test_a_house_preset_with_an_error(browser: Any, url: str) -> None:
    """A pasted house preset the service refuses: its problem shown, naming the key; no table opened."""
    page = _page(browser, url, 390, 844)
    try:
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"},
                    toml='extends = "hk-classic"\n[table]\nclaim_seconds = "soon"\n')
        page.wait_for_selector("#problem:not([hidden])")
        assert "claim_seconds" in page.inner_text("#problem")
        assert page.is_visible("#start") and page.is_hidden("#table") and "table=" not in page.url
    finally:
        page.context.close()


def test_a_person_wins_by_the_advice(browser: Any, url: str) -> None:
    """The status line names the discards that leave the hand waiting, and for the picked one its waits and
    their value, as the service's advice has them; a person who follows it (seed 16) wins, and the page says so."""
    page = _page(browser, url)
    try:
        _open_table(page, url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"}, seed=16)
        page.wait_for_selector("#table[data-status]")
        table, token = _table_id(page), page.url.split("#", 1)[1]
        advised = 0
        while True:
            page.wait_for_function(READY)
            if page.get_attribute("#table", "data-status") != "playing":
                break
            acts = page.eval_on_selector_all(ENABLED, "bs => bs.map((b) => b.dataset.act)")
            best = (page.get_attribute("#status", "data-discards") or "").split()
            if "win" in acts:
                page.click('#actions [data-act="win"]')
            elif "pass" in acts:
                page.click('#actions [data-act="pass"]')
            elif best:
                if page.get_attribute(".hand-row .picked", "data-hand-tile") != best[0]:
                    page.click(f'.hand-row [data-hand-tile="{best[0]}"] >> nth=-1')
                state = json.loads(call(f"{url}/tables/{table}?seat=E",
                                        headers={"Authorization": f"Bearer {token}"})[2])
                waits = state["advice"]["discards"][0]["waits"]
                text = page.inner_text("#status")
                assert f"discard {best[0]}: waiting on" in text
                for w in waits:
                    assert f"{w['tile']} {w['value']} {state['preset']['unit']}" in text
                advised += 1
                page.click('#actions [data-act="discard"]')
            else:
                page.click(".hand-row .picked")
        assert advised > 0
        assert page.inner_text("#result-title").startswith("You win")
        _shot(page, "play-win-1280.png", 1280)
        _check_result(_shown_result(page), _log(url, table))
    finally:
        page.context.close()


# the turn badges on the page: which seats it marks "to play", and its own "you to play"
TURN_BADGES = """() => ({ version: Number(document.querySelector('#table').dataset.version),
  others: [...document.querySelectorAll('#others .seat')].filter((e) => e.querySelector('.badge.turn'))
    .map((e) => e.dataset.seat),
  me: (document.querySelector('#me-title .badge.turn') || {}).textContent || null,
  waiting: (document.querySelector('#info .waiting') || {}).textContent || null,
  pass: document.querySelector('#actions [data-act="pass"]:not([disabled])') !== null })"""


def test_the_page_shows_whose_turn_it_is_and_nothing_of_who_is_asked(browser: Any) -> None:
    """``hkscore serve --open-claims``: East's page (a person), South a person played over HTTP by the test,
    West and North bots. On its own turn East's page says "you to play"; on South's turn it marks South
    "to play" and says it waits for South; while South alone is asked about East's discard it marks nobody;
    asked with South about a bot's discard, East's page offers a Pass (just a Pass where East holds no claim)
    and says "you to play", and marks South nowhere."""
    with running("--open-claims") as base:
        status, _, raw = call(base + "/tables", "POST", {"preset": "hk-classic", "seed": 21, "seats": {
            "E": "human", "S": "human", "W": "efficiency", "N": "efficiency"}})
        assert status == 201
        created = json.loads(raw)
        south = {"Authorization": f"Bearer {created['tokens']['S']}"}
        page = _page(browser, base)
        try:
            page.goto(base + created["links"]["E"])

            def badges(after: int) -> dict[str, Any]:
                page.wait_for_function(f"() => Number(document.querySelector('#table').dataset.version) > {after}")
                return dict(page.evaluate(TURN_BADGES))

            def south_state() -> dict[str, Any]:
                return dict(json.loads(call(f"{base}/tables/{created['id']}?seat=S", headers=south)[2]))

            def south_does(act: dict[str, Any]) -> None:
                p = south_state()["prompt"]
                s, _, body = call(f"{base}/tables/{created['id']}/decisions", "POST",
                                  {"prompt": p["prompt"], "seat": "S", **act}, headers=south)
                assert s == 200, body

            seen = badges(0)
            assert seen["me"] == "you to play" and seen["others"] == [] and seen["waiting"] is None
            page.click(".hand-row .picked")  # East discards: South alone is asked (West, North: bots, at once)
            seen = badges(seen["version"])
            assert seen["me"] is None and seen["others"] == [] and not seen["pass"], seen
            assert south_state()["prompt"]["phase"] == "claim"
            south_does({"act": "pass"})  # South draws: its turn
            seen = badges(seen["version"])
            assert seen["others"] == ["S"] and seen["waiting"] == "waiting for South" and seen["me"] is None, seen
            p = south_state()["prompt"]
            south_does(next(a for a in p["actions"] if a["act"] == "discard"))  # East and the bots are asked
            seen = badges(seen["version"])
            assert seen["me"] == "you to play" and seen["pass"] and seen["others"] == [], seen
            page.click('#actions [data-act="pass"]')  # West's turn (a bot): its discard asks East and South
            seen = badges(seen["version"])
            assert south_state()["prompt"]["phase"] == "claim"
            assert seen["me"] == "you to play" and seen["pass"] and seen["others"] == [], seen
            assert not page.outside and not page.problems
        finally:
            page.context.close()


# ------------------------------------------------------------------ the deal's commitment


def _deal_text(start: dict[str, Any]) -> str:
    """The text a commitment is the SHA-256 of (docs/table.md), from a start record's fields."""
    h = start["hands"]
    return (f"hkcore-deal-1\nsalt {start['salt']}\nE {h['E']}\nS {h['S']}\nW {h['W']}\nN {h['N']}\n"
            f"live {start['live']}\ndead {start['dead']}\n")


def _play_out(page: Any) -> None:
    page.wait_for_selector("#table[data-status]")
    shots: list[dict[str, Any]] = []
    for _ in range(200):
        if not _move(page, shots):
            return
    raise AssertionError("the hand did not end")


def _tampered(route: Any) -> None:
    """The table's log as served, with two different tiles of its live wall swapped."""
    response = route.fetch()
    lines = response.text().splitlines()
    start = json.loads(lines[0])
    live = start["live"]
    i = next(k for k in range(2, len(live), 2) if live[k:k + 2] != live[:2])
    start["live"] = live[i:i + 2] + live[2:i] + live[:2] + live[i + 2:]
    route.fulfill(response=response, body="\n".join([json.dumps(start), *lines[1:]]) + "\n")


def test_the_deal_is_sealed_and_checked_in_the_browser(browser: Any, url: str) -> None:
    """A table made without a seed: the page shows the deal's commitment from the deal on (no practice
    note), and once the hand is over checks it against the log (the commitment hashlib finds too). A table
    made with a seed says so plainly. A log whose wall was changed is a warning; a browser without
    crypto.subtle says how to check with hkscore replay."""
    seats = {"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"}
    page = _page(browser, url)
    try:
        _open_table(page, url, seats=seats, seed=None)
        page.wait_for_selector("#deal[data-check='sealed']")
        assert page.is_hidden("#practice")
        commitment = page.get_attribute("#deal", "data-commitment")
        assert re.fullmatch(r"[0-9a-f]{64}", commitment or "")
        assert page.inner_text("#deal-short") == commitment[:12] + "…"
        assert page.get_attribute("#deal-short", "title") == commitment
        assert "checked when the hand is over" in page.inner_text("#deal-check")
        _play_out(page)
        page.wait_for_selector("#deal[data-check='checked']")
        assert page.inner_text("#deal-check").startswith("deal checked")
        start = _log(url, _table_id(page))[0]
        assert start["commitment"] == commitment == hashlib.sha256(_deal_text(start).encode()).hexdigest()
        page.click("#deal summary")
        assert page.inner_text("#deal-full") == commitment
        _shot(page, "play-deal-checked-1280.png", 1280)
        assert page.outside == [] and page.problems == []
    finally:
        page.context.close()

    page = _page(browser, url, 390, 844)
    try:
        _open_table(page, url, seats=seats, seed=SEED)
        page.wait_for_selector("#practice:not([hidden])")
        assert page.inner_text("#practice") == (f"Practice deal: seed {SEED} was chosen when the table was made; "
                                                "whoever knows it knows the wall.")
        _shot(page, "play-practice-390.png", 390)
        page.route("**/tables/*/log", _tampered)
        _play_out(page)
        page.wait_for_selector("#deal[data-check='mismatch']")
        assert page.inner_text("#deal-check").startswith("warning:")
        _shot(page, "play-deal-mismatch-390.png", 390)
    finally:
        page.context.close()

    page = _page(browser, url)
    try:
        page.add_init_script("Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined });")
        _open_table(page, url, seats=seats, seed=SEED)
        _play_out(page)
        page.wait_for_selector("#deal[data-check='unavailable']")
        assert "hkscore replay" in page.inner_text("#deal-check")
        assert page.problems == []
    finally:
        page.context.close()
