"""What the table tests share: house presets, random legal play with its
invariants checked at every step, and hostile decisions."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

import hkcore
from hkcore.errors import HkcoreError
from hkcore.table import Table

BUILTIN = ["mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io"]


def house(draw: st.DrawFn) -> str:
    """A preset: a built-in, or a house preset changing [table] knobs of one."""
    base = draw(st.sampled_from(BUILTIN))
    knobs = []
    if draw(st.booleans()):
        knobs.append(f"dead_wall = {draw(st.integers(0, 20))}")
    else:
        knobs.append(f'replacement = "{draw(st.sampled_from(["back", "front"]))}"\ndead_wall = 0')
    knobs.append(f"concealed_kong = {draw(st.sampled_from(['true', 'false']))}")
    knobs.append(f'kong_tile = "{draw(st.sampled_from(["any", "drawn"]))}"')
    knobs.append(f"self_pung = {draw(st.sampled_from(['true', 'false']))}")
    knobs.append(f'last_discard = "{draw(st.sampled_from(["win", "any"]))}"')
    knobs.append(f"show_concealed_kongs = {draw(st.sampled_from(['true', 'false']))}")
    text = f'extends = "{base}"\nid = "house"\n[table]\n' + "\n".join(knobs) + "\n"
    try:
        hkcore.load_preset(text)
    except HkcoreError:  # a refused combination (robbing without added kongs, ...): the base as it is
        return base
    return text


def twin_tables() -> tuple[type, type] | None:
    """``Table`` on the compiled engine and the same class on the pure engine, or None where the compiled
    engine is not in use."""
    from hkcore.table.flow import _pyengine, engine
    if engine.IMPLEMENTATION != "cython":
        return None
    body = {k: v for k, v in vars(Table).items() if k not in ("__dict__", "__weakref__")}
    return Table, type("PureTable", (_pyengine.Engine,), body)


def played_randomly(t: Any, rng: random.Random, take_wins: bool = False) -> list[list[dict[str, Any]]]:
    """``t`` played to its end, each decision the last prompt's action drawn by ``rng`` (a win instead, where
    one is offered and ``take_wins``); the prompts open at each step, for holding two engines' prompts equal
    (``play`` answers a shuffled prompt and checks the tiles instead)."""
    seen = []
    while not t.over:
        ps = t.prompts()
        seen.append(ps)
        p = ps[-1]
        a = p["actions"][int(rng.random() * len(p["actions"]))]
        if take_wins:
            a = next((w for w in p["actions"] if w["act"] == "win"), a)
        t.submit({"prompt": p["prompt"], "seat": p["seat"], **a})
    return seen


def conserved(t: Table) -> None:
    """Every tile accounted for (136 or 144) and every hand 13 or 14 with each set as three."""
    total = t._wall_left()
    v = t.view("E")
    for s in "ESWN":
        total += v["held"][s] + len(hkcore.parse_tiles(v["ponds"][s])) + len(hkcore.parse_tiles(v["bonus"][s]))
        total += sum(len(hkcore.parse_tiles(m["tiles"])) if m["tiles"] else 4 for m in v["melds"][s])
        size = v["held"][s] + 3 * len(v["melds"][s])
        assert size in (13, 14), (s, size)
    assert total == (144 if t.preset.bonus_tiles else 136)


def play(t: Table, rng: random.Random, check: bool = True,
         window_check: Callable[[Table, list[dict[str, Any]], random.Random], None] | None = None) -> Table:
    """Random legal play to the end of the hand; with ``check``, the tiles
    and hand sizes at every step, and a legal action while the hand is live;
    ``window_check`` is called on every window that asks several seats."""
    steps = 0
    while not t.over:
        if check:
            conserved(t)
        prompts = t.prompts()
        assert prompts, "a live table always has a legal action"
        rng.shuffle(prompts)  # answers in any order
        p = prompts[0]
        a = p["actions"][int(rng.random() * len(p["actions"]))]
        if window_check is not None and p["phase"] in ("claim", "rob") and len(prompts) > 1:
            window_check(t, prompts, rng)
        t.submit({"prompt": p["prompt"], "seat": p["seat"], **a})
        steps += 1
        assert steps < 2000
    return t




def junk_decisions(t: Table, rnd: random.Random, n: int) -> Iterator[Any]:
    """Decisions the table must refuse: stale prompts, seats not asked, acts,
    kinds and tiles not listed, wrong types."""
    open_ = t.prompts(views=False)
    number = open_[0]["prompt"] if open_ else 0
    asked = {p["seat"] for p in open_}
    listed = [(p["seat"], a) for p in open_ for a in p["actions"]]
    values: list[Any] = [None, True, 1.5, -1, 10**30, "", "E", "x" * 500, [], {}, ["discard"], "1m", "9999p",
                         "pass", "win", "kong", "discard", "concealed", "exposed", "\u0000", "🀄"]
    for _ in range(n):
        pick = rnd.random()
        if pick < 0.1:
            yield rnd.choice([None, 1, "discard 1m", [1, 2], ("E",)])
            continue
        d: dict[str, Any] = {"prompt": number, "seat": rnd.choice(sorted(asked) or ["E"])}
        if listed:
            seat, a = rnd.choice(listed)
            d.update({"seat": seat, **a})
        key = rnd.choice(["prompt", "seat", "act", "kind", "tiles", "tile"])
        d[key] = rnd.choice(values + ([number + 1, number - 1] if key == "prompt" else []))
        unlisted = not open_ or d not in [{"prompt": number, "seat": s, **a} for s, a in listed]
        if unlisted and not _legal(d, open_, number):
            yield d


def _legal(d: dict[str, Any], open_: list[dict[str, Any]], number: int) -> bool:
    """Whether ``d`` would be accepted (matched on act, kind and tiles/tile; faan is information)."""
    if d.get("prompt") != number or type(d.get("prompt")) is not int:
        return False
    for p in open_:
        if p["seat"] != d.get("seat"):
            continue
        for a in p["actions"]:
            if all(a.get(k) == d.get(k) for k in ("act", "kind", "tiles", "tile")):
                return True
    return False
