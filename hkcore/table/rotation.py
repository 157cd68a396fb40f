"""Between hands: who deals next, when a match ends, and the standings
(docs/table.md, "A match")."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hkcore.table.flow.wall import SEATS
from hkcore.table_rules import TableRules


@dataclass
class Tally:
    """One player's match so far: points (None under a faan ledger), hands
    won and faan won (points under a points preset)."""

    points: int | None
    hands_won: int = 0
    faan: int = 0


@dataclass
class Progress:
    """What a hand needs to know of its match to say what comes next: the
    players in their order (the first is the first dealer), how many times
    in a row the dealer has kept the deal, how many rounds have ended, and
    each player's tally before the hand (None when the match's earlier hands
    are unknown: then no standings are written)."""

    players: tuple[str, ...]
    repeats: int = 0
    rounds_done: int = 0
    tally: dict[str, Tally] | None = field(default=None)


def progress_for(seats: Mapping[str, str], wind: str, hand: int, points: Mapping[str, int] | None) -> Progress:
    """The progress a hand assumes when played alone: its players in seat
    order from the first dealer (``p1`` when the players have the default
    names, else the player in E), the round wind's rounds done, and a fresh
    tally when it is the match's first hand."""
    order = [seats[s] for s in SEATS]
    start = order.index("p1") if "p1" in order else 0
    players = tuple(order[start:] + order[:start])
    tally = None
    if hand == 1:
        tally = {seats[s]: Tally(None if points is None else points[s]) for s in SEATS}
    return Progress(players, 0, SEATS.index(wind), tally)


def after_hand(rules: TableRules, hand: int, wind: str, seats: Mapping[str, str], winner: str | None,
               progress: Progress) -> tuple[dict[str, Any] | None, str | None, Progress]:
    """``(next, reason, progress)`` after a hand: the ``next`` of its
    end_hand (None when the match ends, with the end_match reason) and the
    match's progress for the next hand. ``progress.tally`` must already hold
    this hand."""
    stays = ((winner == "E" and "dealer_win" in rules.dealer_stays)
             or (winner is None and "draw" in rules.dealer_stays))
    if stays and rules.max_dealer_repeats is not None and progress.repeats >= rules.max_dealer_repeats:
        stays = False
    rounds_done = progress.rounds_done
    w = SEATS.index(wind)
    if stays:
        dealer, repeats = seats["E"], progress.repeats + 1
    else:
        dealer, repeats = seats["S"], 0
        if dealer == progress.players[0]:
            rounds_done += 1
            w = (w + 1) % 4
    nxt = Progress(progress.players, repeats, rounds_done, progress.tally)
    reason = None
    if rules.rounds is not None and rounds_done >= rules.rounds:
        reason = "rounds"
    elif rules.hands is not None and hand >= rules.hands:
        reason = "hands"
    elif rules.target is not None and progress.tally is not None and any(
            (t.points if t.points is not None else t.faan) >= rules.target for t in progress.tally.values()):
        reason = "target"
    if reason is not None:
        return None, reason, nxt
    return {"hand": hand + 1, "round": SEATS[w], "dealer": dealer}, None, nxt


def seating(players: Sequence[str], dealer: str) -> dict[str, str]:
    """The seats of a hand dealt by ``dealer``: the players in their order
    from the dealer, E, S, W, N."""
    i = list(players).index(dealer)
    order = list(players[i:]) + list(players[:i])
    return dict(zip(SEATS, order))


def standings(players: Sequence[str], tally: Mapping[str, Tally]) -> list[dict[str, Any]]:
    """The end_match standings: by points (the faan ledger without points),
    then hands won, then faan; a tie still left shares the place, listed in
    player order."""
    def key(name: str) -> tuple[int, int, int]:
        t = tally[name]
        return (t.points if t.points is not None else t.faan), t.hands_won, t.faan

    ordered = sorted(players, key=lambda n: tuple(-v for v in key(n)))  # stable: player order within a tie
    out: list[dict[str, Any]] = []
    for i, name in enumerate(ordered):
        place = out[-1]["place"] if out and key(ordered[i - 1]) == key(name) else i + 1
        t = tally[name]
        out.append({"place": place, "player": name, "points": t.points, "hands_won": t.hands_won, "faan": t.faan})
    return out


def zero_sum(log: Sequence[Mapping[str, Any]]) -> list[float]:
    """By seat (E S W N), a hand's wins as the zero-sum measure: each winner +F, its discarder -F on a
    discard win, each other seat -F/3 on a self-draw (F the win's faan); what a faan ledger's hand is worth
    to each seat, beside the payments of a paying preset."""
    out = [0.0, 0.0, 0.0, 0.0]
    for rec in log:
        if rec["event"] != "win":
            continue
        f = rec["faan"]
        w = SEATS.index(rec["seat"])
        out[w] += f
        if rec.get("from") is None:
            for o in range(4):
                if o != w:
                    out[o] -= f / 3
        else:
            out[SEATS.index(rec["from"])] -= f
    return out

