"""A seat's advice (``hkcore.table.advice``): tiles away, the waits with their value, the discards that leave
the hand waiting, and why something the hand could do is not offered. The service's state and ``hkscore play
--human`` show it (tests/test_tables_service.py, tests/test_table_cli.py)."""
from __future__ import annotations

from hkcore.table import Table
from hkcore.table.advice import advice

#: hk-classic, dealt by hand: S waits on 5z with 678m 234p 111s 789s (a self-drawn 5z: concealed hand 1
#: + self-draw 1 = 2 faan, below the 3 needed); W waits on 3s or 6s with 123m 456p 45s 789s 22z (on a
#: discard: all chows 1 + concealed hand 1 = 2 faan). E, S, W, N discard 1z, 9m, 9p, 1p (nobody can claim
#: them), then E discards LAST and S draws 5z.
ADVICE_START = {"event": "start", "preset": "hk-classic",
                "hands": {"E": "3m9m1p2p9p3s9s1z2z3z4z6z7z7z", "S": "678m234p111s789s5z",
                          "W": "123m456p45789s22z", "N": "55m66p9p778s1z33z4z6z"},
                "live": "9m9p1p4z5z"}


def advised(last: str) -> Table:
    t = Table(ADVICE_START)
    for d in ("1z", "9m", "9p", "1p", last):
        [p] = t.prompts()
        t.submit({"prompt": p["prompt"], "seat": p["seat"], "act": "discard", "tile": d})
    return t


def test_advice_says_why_a_complete_hand_or_a_chow_is_not_offered() -> None:
    t = advised("3s")
    assert t.log[-1] == {"event": "draw", "seat": "S", "tile": "5z", "source": "live"}
    [p] = t.prompts(views=False)
    assert p["seat"] == "S" and not any(a["act"] == "win" for a in p["actions"])
    s = advice(t.preset, t.log, t.view("S"), p, "S")
    assert s is not None and s["tiles_away"] == -1 and s["waits"] == []
    assert s["notes"] == ["complete but 2 faan; hk-classic needs 3"]
    assert {d["discard"] for d in s["discards"]} >= {"1s"}  # 1s away: waiting on 1s or 5z
    w = advice(t.preset, t.log, t.view("W"), None, "W")
    assert w is not None and w["tiles_away"] == 0
    assert [(x["tile"], x["unseen"], x["value"], x["winnable"], x["self_draw_value"], x["self_draw_winnable"])
            for x in w["waits"]] == [("3s", 3, 2, False, 3, True), ("6s", 4, 2, False, 3, True)]
    assert w["notes"] == ["3s: complete but 2 faan; hk-classic needs 3", "3s: a chow only from the seat before you"]
    n = advice(t.preset, t.log, t.view("N"), None, "N")
    assert n is not None and n["notes"] == []

    t = advised("3m")
    w = advice(t.preset, t.log, t.view("W"), None, "W")
    assert w is not None and w["notes"] == ["3m: a chow only from the seat before you"]
    assert [(x["tile"], x["unseen"]) for x in w["waits"]] == [("3s", 4), ("6s", 4)]
