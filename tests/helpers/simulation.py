"""Hands of a simulation played again by the tests' own loop: the documented
seeds (``wall_seed``, ``bot_seed``, ``seating``) with ``Table`` and
``make_bot`` alone, and the counts a summary holds, taken from the logs."""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hkcore.simulation import bot_seed, seating, wall_seed
from hkcore.table import Table
from hkcore.table.players.bots import make_bot
from hkcore.table.start import resolve_preset

SEATS = ("E", "S", "W", "N")


def play_again(presets: Sequence[str], bots: Sequence[str], walls: int,
               seed: int) -> list[tuple[int, str, int, dict[str, str], list[dict[str, Any]]]]:
    """``(wall, preset, rotation, seat -> bot, log)`` of each hand, played here from the seeds the docs give."""
    out = []
    for k in range(walls):
        for ref in presets:
            preset = resolve_preset(ref)
            for r in range(4):
                who = seating(bots, r)
                table = Table({"event": "start", "preset": ref, "hand": 1, "round": "E", "seed": wall_seed(seed, k)})
                seated = {s: make_bot(who[s], preset, bot_seed(seed, k, r, s)) for s in SEATS}
                while not table.over:
                    p = table.prompts()[0]
                    table.submit(seated[p["seat"]].decide(p))
                out.append((k, preset.id, r, who, table.log))
    return out


def counted(logs: Sequence[tuple[int, str, int, dict[str, str], list[dict[str, Any]]]]) -> dict[str, dict[str, Any]]:
    """Per preset, counts read from the logs' win and end_hand records."""
    out: dict[str, dict[str, Any]] = {}
    for _k, pid, _r, who, log in logs:
        c = out.setdefault(pid, {"hands": 0, "wins": 0, "exhausted": 0, "by_seat": Counter(), "turns": Counter(),
                                 "faan": Counter(), "patterns": Counter(), "kinds": Counter(), "pay": Counter(),
                                 "bot_wins": Counter(), "deal_ins": Counter()})
        c["hands"] += 1
        [end] = [x for x in log if x["event"] == "end_hand"]
        c["turns"][str(sum(x["event"] == "discard" for x in log))] += 1
        if end["result"] == "win":
            c["wins"] += 1
            c["by_seat"][end["winner"]] += 1
        else:
            c["exhausted"] += 1
        for x in log:
            if x["event"] == "win":
                c["faan"][str(x["faan"])] += 1
                c["patterns"].update(p["id"] for p in x["patterns"])
                c["kinds"]["robbing" if x["robbing"] else "self_draw" if x["from"] is None else "discard"] += 1
                c["bot_wins"][who[x["seat"]]] += 1
                if x["from"] is not None:
                    c["deal_ins"][who[x["from"]]] += 1
        # what each seat gained: the settlement under a payment table, else the faan won
        gained = end["delta"] if end["delta"] is not None else end["faan"]
        for s in SEATS:
            c["pay"][who[s]] += gained[s]
    return out
