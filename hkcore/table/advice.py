"""A seat's advice (docs/server.md, "Tables": advice): what its hand needs, the waits with their value under the
preset, the discards that leave it waiting, and why something the hand could do is not offered. The service
puts it in each seat's state; ``hkscore play --human`` prints it at the terminal.

>>> from hkcore.table import Table
>>> t = Table({"event": "start", "preset": "hk-classic", "seed": 3})
>>> p = t.prompts()[0]
>>> a = advice(t.preset, t.log, p["view"], p, p["seat"])
>>> sorted(a), a["tiles_away"] >= 0
(['discards', 'notes', 'tiles_away', 'waits'], True)
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from hkcore.analysis import Analysis, analyse
from hkcore.claims import set_claims
from hkcore.errors import HkcoreError
from hkcore.preset import Preset
from hkcore.tiles import SEATS, parse_tiles, tile


def _position(view: Mapping[str, Any], seat: str, tiles: str) -> dict[str, Any]:
    flowers: list[int] = []
    seasons: list[int] = []
    for b in parse_tiles(view["bonus"][seat]):
        (flowers if b.code.endswith("f") else seasons).append(int(b.code[0]))
    return {"tiles": tiles, "melds": view["melds"][seat], "seat_wind": seat, "round_wind": view["round"],
            "flowers": flowers, "seasons": seasons}


def _visible(view: Mapping[str, Any], seat: str) -> str:
    parts = [view["ponds"][s] for s in SEATS]
    parts += [m["tiles"] for s in SEATS if s != seat for m in view["melds"][s] if m["tiles"]]
    return "".join(parts)


def _waits(a: Analysis) -> list[dict[str, Any]]:
    return [{"tile": w.tile, "unseen": w.unseen, "value": w.on_discard.faan, "winnable": w.on_discard.winnable,
             "self_draw_value": w.on_self_draw.faan, "self_draw_winnable": w.on_self_draw.winnable,
             "reason": w.on_discard.reason if not w.on_discard.winnable else w.on_self_draw.reason}
            for w in a.waits]


def _next_seat(seat: str) -> str:
    return SEATS[(SEATS.index(seat) + 1) % 4]


def advice(preset: Preset, log: Sequence[Mapping[str, Any]], view: Mapping[str, Any],
           prompt: Mapping[str, Any] | None, seat: str) -> dict[str, Any] | None:
    """What ``seat``'s hand needs under ``preset``, from the hand's ``log`` so far (its ``start`` record first),
    the seat's ``view`` and its open ``prompt`` (None when it is not asked): ``tiles_away``, ``waits`` (each
    with its value on a discard and on a self-draw, and whether it wins), on the seat's turn the ``discards``
    that leave it waiting (best first, each with its waits), and ``notes`` on what cannot be done and why (a
    complete hand below the minimum, a chow from a seat not before this one, a claim on the last discard).
    None if the view is not a hand in play."""
    p = preset
    visible = _visible(view, seat)
    notes: list[str] = []
    drawn = view["drawn"]
    try:
        if drawn is not None or len(parse_tiles(view["tiles"])) % 3 == 2:  # on turn: about to discard
            whole = view["tiles"] + (drawn or "")
            a = analyse(_position(view, seat, whole), p, visible)
            out: dict[str, Any] = {"tiles_away": a.tiles_away, "waits": [],
                                   "discards": [{"discard": d.discard, "waits": _waits(Analysis(
                                       preset=a.preset, unit=a.unit, tiles=a.tiles, tiles_away=0, waiting=True,
                                       waits=d.waits))} for d in a.discards]}
            offered = prompt is not None and any(x["act"] == "win" for x in prompt["actions"])
            if drawn is not None and not offered:
                before = analyse(_position(view, seat, view["tiles"]), p, visible)
                for w in before.waits:
                    if w.tile == drawn and not w.on_self_draw.winnable and w.on_self_draw.reason:
                        notes.append(w.on_self_draw.reason)
            out["notes"] = notes
            return out
        a = analyse(_position(view, seat, view["tiles"]), p, visible)
    except HkcoreError:  # pragma: no cover - a seat's own view is always a hand in play
        return None
    out = {"tiles_away": a.tiles_away, "waits": _waits(a), "discards": [], "notes": notes}
    found = _last_discard(log)
    if found is not None and found[1]["seat"] != seat:
        first, last = found
        offered_acts = {x["act"] for x in prompt["actions"]} if prompt is not None else set()
        d = last["tile"]
        if "win" not in offered_acts and not first:  # (the first discard may score first-turn patterns)
            for w in a.waits:
                if w.tile == d and not w.on_discard.winnable and w.on_discard.reason:
                    notes.append(f"{d}: {w.on_discard.reason}")
        counts = [0] * 34
        for x in parse_tiles(view["tiles"]):
            counts[x.index] += 1
        i = tile(d).index
        before_you = _next_seat(last["seat"])
        if seat != before_you and any(k == "chow" for k, _, _ in set_claims(counts, i, before_you, last["seat"])):
            notes.append(f"{d}: a chow only from the seat before you")
        if prompt is None and view["live_left"] <= 0 and p.table.last_discard == "win" and \
                set_claims(counts, i, seat, last["seat"]):
            notes.append(f"{d}: on the last discard only a win may be claimed")
    return out


def _last_discard(log: Sequence[Mapping[str, Any]]) -> tuple[bool, Mapping[str, Any]] | None:
    """The discard a seat may still be thinking of: the last record, or followed only by draws (nobody
    claimed it); with whether it is the hand's first discard."""
    for i in range(len(log) - 1, 0, -1):
        r = log[i]
        if r["event"] == "discard":
            return not any(x["event"] == "discard" for x in log[1:i]), r
        if r["event"] not in ("draw", "bonus"):
            return None
    return None
