"""Deals nobody can rig, and that every seat can check (docs/server.md, "Deals"; docs/table.md, "The
records of a log"): against a real ``hkscore serve`` on loopback, a table with people draws its seed from
the OS's secure source unless the request chose one (a practice table, which every seat's state says); each
deal's start record carries a salt and the SHA-256 commitment to the deal, every seat is shown the
commitment from the deal on and never the salt, the seed or the wall; the log reveals the salt once the
hand is over, and ``hkscore replay`` checks the commitment. The commitment is computed here with hashlib
over the text docs/table.md defines, written from the log's own fields."""
from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

from helpers.command import hkscore
from helpers.serving import call, missing_server_deps, running
from hkcore.errors import TableError
from hkcore.table import Match, Table, replay
from hkcore.tiles import SEATS

pytestmark = [pytest.mark.io, pytest.mark.skipif(missing_server_deps() is not None, reason=str(missing_server_deps()))]

HEX64 = re.compile(r"[0-9a-f]{64}")
HEX32 = re.compile(r"[0-9a-f]{32}")


def deal_text(start: dict[str, Any]) -> str:
    """The text a commitment is the SHA-256 of (docs/table.md), written from a start record's fields."""
    h = start["hands"]
    return (f"hkcore-deal-1\nsalt {start['salt']}\nE {h['E']}\nS {h['S']}\nW {h['W']}\nN {h['N']}\n"
            f"live {start['live']}\ndead {start['dead']}\n")


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with running() as base:
        yield base


def post(url: str, path: str, body: Any, token: str | None = None) -> tuple[int, Any, str]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    status, _, raw = call(url + path, "POST", body, headers=headers)
    text = raw.decode()
    return status, json.loads(text), text


def get_state(url: str, table: str, home: str, token: str) -> tuple[dict[str, Any], str]:
    status, _, raw = call(f"{url}/tables/{table}?seat={home}", headers={"Authorization": f"Bearer {token}"})
    assert status == 200, raw[:300]
    return json.loads(raw), raw.decode()


def log_of(url: str, table: str) -> list[dict[str, Any]]:
    status, _, raw = call(f"{url}/tables/{table}/log")
    assert status == 200, raw[:300]
    return [json.loads(line) for line in raw.decode().splitlines() if line.strip()]


def new_table(url: str, **body: Any) -> dict[str, Any]:
    status, made, text = post(url, "/tables", body)
    assert status == 201, text
    return made  # type: ignore[no-any-return]


def plain_choice(prompt: dict[str, Any]) -> dict[str, Any]:
    """A person who never claims and discards the first tile offered (the same every time)."""
    acts = prompt["actions"]
    pick = next((a for a in acts if a["act"] == "pass"), None) or next(a for a in acts if a["act"] == "discard")
    return {"prompt": prompt["prompt"], "seat": prompt["seat"], **pick}


def play_people(url: str, made: dict[str, Any], texts: list[str]) -> dict[str, dict[str, Any]]:
    """Every person's seat played by ``plain_choice`` over HTTP until the hand ends; every state text the
    server sent is added to ``texts``; the last state of each person."""
    table, tokens = made["id"], made["tokens"]
    last: dict[str, dict[str, Any]] = {}
    for _ in range(2000):
        moved = False
        for home, token in tokens.items():
            state, text = get_state(url, table, home, token)
            texts.append(text)
            last[home] = state
            if state["status"] == "playing" and state["prompt"] is not None:
                status, answer, text = post(url, f"/tables/{table}/decisions", plain_choice(state["prompt"]), token)
                assert status == 200, text
                texts.append(text)
                last[home] = answer
                moved = True
        if all(s["status"] != "playing" for s in last.values()):
            return last
        if not moved:
            time.sleep(0.05)  # a claim window of another person's still open: it passes in time
    raise AssertionError("the hand did not end")


def never_shown(texts: list[str], start: dict[str, Any]) -> None:
    """No text sent to a seat while the hand was played holds the deal's salt, seed or wall."""
    for text in texts:
        for key in ('"salt":', '"seed":', '"hands":', '"live":', '"dead":'):
            assert key not in text
        assert start["salt"] not in text
        if "seed" in start:
            assert f":{start['seed']}," not in text and f":{start['seed']}}}" not in text
        assert start["live"][:24] not in text


# ------------------------------------------------------------------ the engine


def test_a_salted_deal_writes_its_commitment_and_hostile_salts_are_refused() -> None:
    salt = "00112233445566778899aabbccddeeff"
    t = Table({"event": "start", "preset": "hk-classic", "seed": 7, "salt": salt})
    start = t.log[0]
    assert start["salt"] == salt and HEX64.fullmatch(start["commitment"])
    assert start["commitment"] == sha256(deal_text(start))
    again = Table({k: v for k, v in start.items() if k != "seed"})  # the written deal, given back: the same
    assert again.log[0]["commitment"] == start["commitment"]
    assert "commitment" not in Table({"event": "start", "preset": "hk-classic", "seed": 7}).log[0]
    for bad in ("00112233445566778899AABBCCDDEEFF", "xyz", "0" * 31, "0" * 33, 12, None, "0" * 31 + "\n"):
        with pytest.raises(TableError) as exc:
            Table({"event": "start", "preset": "hk-classic", "seed": 7, "salt": bad})
        assert exc.value.field == "start.salt" and "start.salt" in str(exc.value)
    with pytest.raises(TableError) as exc:  # a commitment is given with the salt it was made with
        Table({"event": "start", "preset": "hk-classic", "seed": 7, "commitment": start["commitment"]})
    assert exc.value.field == "start.commitment"
    with pytest.raises(TableError) as exc:  # and it must be the deal's
        Table({**start, "commitment": "0" * 64})
    assert exc.value.field == "start.commitment"
    with pytest.raises(TableError) as exc:  # a salted deal's tiles are written without spaces
        Table({**{k: v for k, v in start.items() if k not in ("seed", "commitment")},
               "live": start["live"][:2] + " " + start["live"][2:]})
    assert exc.value.field == "start.live"


def test_a_match_with_a_salt_key_commits_every_deal_and_is_made_again_alike() -> None:
    def played(key: bytes) -> list[dict[str, Any]]:
        m = Match("playingcards-io", seed=11, salt_key=key)
        for _ in range(3000):
            if sum(r["event"] == "start" for r in m.log) == 3 or m.over:
                break
            p = m.prompts()[0]
            m.submit(plain_choice(p))
        return [r for r in m.log if r["event"] == "start"]

    starts = played(b"k" * 32)
    assert len(starts) == 3
    assert len({s["salt"] for s in starts}) == 3 and len({s["commitment"] for s in starts}) == 3
    for s in starts:
        assert "seed" not in s  # hand 1's seed would tell the walls of the hands after it
        assert HEX32.fullmatch(s["salt"]) and s["commitment"] == sha256(deal_text(s))
    assert played(b"k" * 32) == starts  # made again from the same arguments: the same deals and salts
    other = played(b"j" * 32)
    assert [s["hands"] for s in other] == [s["hands"] for s in starts]  # the deals are the seed's
    assert {s["salt"] for s in other}.isdisjoint(s["salt"] for s in starts)
    for bad in (b"short", "k" * 32, 32):
        with pytest.raises(TableError) as exc:
            Match("mistboard", seed=1, salt_key=bad)  # type: ignore[arg-type]
        assert exc.value.field == "salt_key"


# ------------------------------------------------------------------ a real server


def test_tables_of_people_made_without_a_seed_deal_apart_and_commit_to_each_deal(url: str) -> None:
    """Two people at each of two tables made without a seed: different deals; every seat's every state
    carries the same commitment, the log's once the hand is over (and hashlib's over its text), never the
    salt, the seed or the wall; nor is the table a practice one."""
    seats = {"E": "human", "S": "efficiency", "W": "human", "N": "simple"}
    starts = []
    for _ in range(2):
        made = new_table(url, seats=seats)
        texts: list[str] = []
        first = {h: get_state(url, made["id"], h, tok)[0] for h, tok in made["tokens"].items()}
        last = play_people(url, made, texts)
        log = log_of(url, made["id"])
        start = log[0]
        assert HEX32.fullmatch(start["salt"]) and start["commitment"] == sha256(deal_text(start))
        for state in [*first.values(), *last.values(), *(json.loads(t) for t in texts)]:
            assert state["deal"] == {"commitment": start["commitment"], "practice_seed": None}
        never_shown(texts, start)
        assert replay(log) == log
        starts.append(start)
    assert starts[0]["hands"] != starts[1]["hands"] and starts[0]["salt"] != starts[1]["salt"]


def test_a_socket_is_sent_the_commitment_and_nothing_of_the_deal(url: str) -> None:
    from websockets.sync.client import connect

    made = new_table(url, seats={"E": "human", "S": "human", "W": "random", "N": "efficiency"})
    ws_url = url.replace("http://", "ws://") + f"/tables/{made['id']}/ws"
    messages: list[str] = []
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "seat": "S", "token": made["tokens"]["S"]}))
        texts: list[str] = []
        play_people(url, made, texts)
        while True:
            try:
                messages.append(str(ws.recv(timeout=1)))
            except TimeoutError:
                break
    start = log_of(url, made["id"])[0]
    assert messages and all(json.loads(m)["deal"]["commitment"] == start["commitment"] for m in messages)
    playing = [m for m in messages if json.loads(m)["status"] == "playing"]
    assert playing
    never_shown(messages, start)


def test_a_table_made_with_a_seed_is_practice_for_every_seat(url: str) -> None:
    made = new_table(url, seed=4242, seats={"E": "human", "S": "human", "W": "simple", "N": "human"})
    for home, token in made["tokens"].items():
        state, _ = get_state(url, made["id"], home, token)
        assert state["deal"]["practice_seed"] == 4242
        assert HEX64.fullmatch(state["deal"]["commitment"])
    texts: list[str] = []
    play_people(url, made, texts)
    start = log_of(url, made["id"])[0]
    assert start["hands"] == Table({"event": "start", "preset": "hk-classic", "seed": 4242}).log[0]["hands"]
    assert start["commitment"] == sha256(deal_text(start))


def test_the_bots_at_a_table_with_people_are_not_seeded_from_the_deal(url: str) -> None:
    """Two practice tables with the same seed, one person playing the same way at both: the random bots
    choose apart (their seeds drawn from the OS, not from the deal's seed, which their choices would tell);
    two tables of bots alone with the same seed play alike."""
    seats = {"E": "human", "S": "random", "W": "random", "N": "random"}
    logs = []
    for _ in range(2):
        made = new_table(url, seed=77, seats=seats)
        play_people(url, made, [])
        logs.append([r for r in log_of(url, made["id"]) if r["event"] not in ("start",)])
    assert logs[0] != logs[1]
    alone = []
    for _ in range(2):
        made = new_table(url, seed=78, seats={s: "random" for s in SEATS})
        for _ in range(600):
            status, _, raw = call(f"{url}/tables/{made['id']}/log")
            if status == 200:
                break
            time.sleep(0.05)
        assert status == 200
        alone.append([json.loads(x) for x in raw.decode().splitlines()])
    assert [r for r in alone[0] if r["event"] != "start"] == [r for r in alone[1] if r["event"] != "start"]
    assert alone[0][0]["hands"] == alone[1][0]["hands"] and alone[0][0]["seed"] == 78


def test_a_match_gives_each_deal_a_fresh_commitment_and_its_log_never_the_seed(url: str) -> None:
    """Between hands a match's log is served: it must not hold the match's seed (which deals every later
    hand); the next hand's commitment is shown from its deal on, a new one."""
    made = new_table(url, match=True, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "simple"})
    home, token = next(iter(made["tokens"].items()))
    seen = []
    for hand in range(2):
        texts: list[str] = []
        state, _ = get_state(url, made["id"], home, token)
        commitment = state.get("deal", {}).get("commitment")
        last = play_people(url, made, texts)
        log = log_of(url, made["id"])
        starts = [r for r in log if r["event"] == "start"]
        assert len(starts) == hand + 1
        assert all("seed" not in s for s in starts)
        assert starts[-1]["commitment"] == commitment == sha256(deal_text(starts[-1]))
        never_shown(texts, starts[-1])
        seen.append(commitment)
        if last[home]["status"] == "over":
            break
        status, after, text = post(url, f"/tables/{made['id']}/next", {}, token)
        assert status == 200, text
        assert after["deal"]["commitment"] not in seen
    assert len(set(seen)) == len(seen)


# ------------------------------------------------------------------ hkscore replay


def test_hkscore_replay_checks_the_commitment(url: str) -> None:
    made = new_table(url, seats={"E": "human", "S": "efficiency", "W": "efficiency", "N": "efficiency"})
    play_people(url, made, [])
    log = log_of(url, made["id"])
    lines = [json.dumps(r) for r in log]

    def run(start: dict[str, Any]) -> Any:
        return hkscore("replay", "-", stdin="\n".join([json.dumps(start), *lines[1:]]) + "\n")

    done = run(log[0])
    assert done.returncode == 0, done.stderr
    start = log[0]
    live = start["live"]
    tiles = [live[i:i + 2] for i in range(0, len(live), 2)]
    j = next(i for i in range(len(tiles) - 1) if tiles[i] != tiles[i + 1])  # the deal is random: it may begin 9m9m
    tiles[j], tiles[j + 1] = tiles[j + 1], tiles[j]
    swapped = "".join(tiles)  # two tiles of the live wall swapped: a deal, not the one committed
    assert swapped != live
    other = "1m" if live[:2] != "1m" else "2m"  # one tile changed (a copy too many)
    for changed in ({**start, "live": swapped}, {**start, "live": other + live[2:]},
                    {**start, "salt": ("0" if start["salt"][0] != "0" else "1") + start["salt"][1:]},
                    {k: v for k, v in start.items() if k != "commitment"}):
        done = run(changed)
        assert done.returncode == 1, done.stderr
        assert done.stderr.startswith("hkscore: line 1: start.commitment: "), done.stderr
    done = run({k: v for k, v in start.items() if k != "salt"})  # a commitment without its salt: no record
    assert done.returncode == 2 and done.stderr.startswith("hkscore: line 1: "), done.stderr
    assert "start.commitment" in done.stderr
    done = run({**start, "salt": "not hex"})
    assert done.returncode == 2 and "start.salt" in done.stderr, done.stderr


def test_the_check_by_hand_in_docs_table_md_gives_the_digest_it_shows() -> None:
    """docs/table.md, "A committed deal": its ``printf ... | sha256sum`` run by the shell prints the line
    shown under it, and that digest is the one hashlib finds over the text written from the fields."""
    import shutil
    import subprocess
    from pathlib import Path

    if shutil.which("sha256sum") is None or shutil.which("sh") is None:
        pytest.skip("no sh and sha256sum here")
    text = (Path(__file__).resolve().parent.parent / "docs" / "table.md").read_text(encoding="utf-8")
    block = text.split("The same by hand", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    command, shown = block.rsplit("\n", 2)[0], block.rsplit("\n", 2)[1]
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == shown.strip()
    start = {"salt": "0123456789abcdef0123456789abcdef", "live": "6p7p8p9p", "dead": "",
             "hands": {"E": "123456789m12345p", "S": "123456789p1234s", "W": "123456789s1234z",
                       "N": "555666777z1234m"}}
    assert shown.split()[0] == sha256(deal_text(start))
