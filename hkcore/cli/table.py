"""``hkscore play`` and ``hkscore replay``: hands played by bots (or a
person at the terminal, shown the seat's advice) and logs replayed
(docs/table.md)."""
from __future__ import annotations

import argparse
import random
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, ClassVar

from hkcore.cli.common import (
    bot_names,
    bot_time_limit,
    bot_time_limit_option,
    linted_presets,
    preset_list,
    said_warnings,
)
from hkcore.errors import HkcoreError, shown
from hkcore.lines import file_lines
from hkcore.preset import Preset
from hkcore.registry import catalogue
from hkcore.table.flow.wall import SEATS
from hkcore.table.match import Match
from hkcore.table.players import RandomBot, available_bots, make_bot
from hkcore.table.players.bots import decision
from hkcore.table.players.external import bot_or_program
from hkcore.table.records import line, lines
from hkcore.table.replay import MAX_LINE, ReplayError, replayed
from hkcore.table.start import resolve_preset
from hkcore.tiles import parse_tiles

#: a seat's player: a prompt in, a decision out (a bot's ``decide``)
Player = Callable[[Mapping[str, Any]], dict[str, Any]]

if TYPE_CHECKING:
    from hkcore.table import Table


def _spaced(tiles: str) -> str:
    """``12457m13p5z`` as ``12457m 13p 5z``: one group a suit."""
    return " ".join(re.findall(r"\d+[a-z]", tiles))


def _one_by_one(tiles: str) -> str:
    """A pond in order, ``3m9m1m`` as ``3m 9m 1m``."""
    return " ".join(re.findall(r"\d[a-z]", tiles))


#: the most discards that leave the hand waiting the terminal lists (the best first)
ADVISED = 3


class _Person:
    """A person at the terminal playing ``seat`` under ``preset``: what the
    others did since their last decision, the table as their seat sees it,
    the seat's advice (tiles away, the waits and their value, the discards
    that leave the hand waiting, why a claim is not offered), the actions
    numbered; a number (or the words of an action, or a tile) is read."""

    QUESTION: ClassVar[dict[str, str]] = {"turn": "your turn", "discard": "discard after your claim",
                "instant": "an instant bonus win is yours to take"}

    def __init__(self, seat: str, inp: IO[str], out: IO[str]) -> None:
        self.seat = seat
        self.inp = inp
        self.out = out
        self.preset: Preset | None = None
        self.unit = "faan"
        self.hide_kongs = False
        #: the records of the hand in play so far, its start first
        self.hand: list[dict[str, Any]] = []
        #: another seat has discarded since this seat was last advised
        self.discarded = False

    def sit(self, preset: Preset) -> None:
        """Play the next hands under ``preset``."""
        self.preset = preset
        self.unit = preset.unit
        self.hide_kongs = not preset.table.show_concealed_kongs

    def _say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _who(self, seat: str | None) -> str:
        return f"{seat} (you)" if seat == self.seat else str(seat)

    def seen(self, r: dict[str, Any]) -> None:
        """Tell the person about one record of the log, as their seat may see it."""
        event, who = r["event"], self._who(r.get("seat"))
        if event == "start":
            self.hand = []
        self.hand.append(r)
        self.discarded = self.discarded or (event == "discard" and r["seat"] != self.seat)
        if event == "start":
            if self.preset is None:
                self.sit(resolve_preset(r["preset"]))
            preset_id = self.preset.id if self.preset is not None else r["preset"]
            self._say(f"\n== hand {r['hand']}, round {r['round']} ({preset_id}): you are {self.seat}, "
                      f"player {r['seats'][self.seat]}; E deals ==")
        elif event == "bonus":
            got = f", draws {r['replacement']}" if r["seat"] == self.seat and r["replacement"] else ""
            self._say(f"  {who}: sets aside {r['tile']}{got}")
        elif event == "discard":
            self._say(f"  {who}: discards {r['tile']}")
        elif event in ("chow", "pung"):
            fed = f" from {r['from']}" if r.get("from") else " (face up, from the draw)"
            self._say(f"  {who}: {event} {r['tiles']}{fed}")
        elif event == "kong":
            hidden = r["kind"] == "concealed" and self.hide_kongs and r["seat"] != self.seat
            tiles = "(face down)" if hidden else r["tiles"]
            fed = f" from {r['from']}" if r.get("from") else ""
            self._say(f"  {who}: {r['kind']} kong {tiles}{fed}")
        elif event == "win":
            how = ("an instant bonus win" if r["tile"] is None else f"self-drawn {r['tile']}" if r["from"] is None
                   else f"on {r['from']}'s {r['tile']}" + (" (robbing the kong)" if r["robbing"] else ""))
            hand = r["hand"]
            melds = " ".join(m["tiles"] for m in hand["melds"])
            known = catalogue().patterns
            patterns = ", ".join(f"{known[p['id']].name_en if p['id'] in known else p['id']} {p['faan']}"
                                 for p in r["patterns"])
            self._say(f"  {who}: WINS, {how}: {r['faan']} {self.unit} ({patterns})")
            self._say(f"    hand {_spaced(hand['tiles'])}{'  sets ' + melds if melds else ''}")
            if r["payments"] is not None:
                self._say("    paid " + "  ".join(f"{s} {r['payments'][s]:+d}" for s in SEATS))
        elif event == "exhausted":
            self._say("  the wall is exhausted: nobody wins")
        elif event == "end_hand":
            if r["points"] is not None:
                self._say("  points now " + "  ".join(f"{self._who(s)} {r['points'][s]}" for s in SEATS))
            nxt = r["next"]
            self._say(f"-- hand over; next: hand {nxt['hand']}, dealer {nxt['dealer']} --" if nxt
                      else "-- hand over: the match ends --")
        elif event == "end_match":
            self._say(f"== match over ({r['reason']}) ==")
            for st in r["standings"]:
                points = "" if st["points"] is None else f", {st['points']} points"
                won = st["hands_won"]
                self._say(f"  {st['place']}. {st['player']}{points}, {won} hand{'s' * (won != 1)} won"
                          f" worth {st['faan']} {self.unit}")

    def _table(self, prompt: Mapping[str, Any]) -> None:
        v = prompt["view"]
        self._say(f"\n-- hand {v['hand']}, round {v['round']}: {v['live_left']} tiles left to draw --")
        for s in SEATS:
            melds = " ".join(m["tiles"] or "(face-down kong)" for m in v["melds"][s])
            points = "" if v["points"] is None else f"  {v['points'][s]} points"
            self._say(f"  {self._who(s):8} {v['held'][s]:2} held  sets {melds or '-'}  bonus {v['bonus'][s] or '-'}"
                      f"  pond {_one_by_one(v['ponds'][s]) or '-'}{points}")
        drawn = f"   drew {v['drawn']}" if v["drawn"] else ""
        self._say(f"  your tiles: {_spaced(v['tiles'])}{drawn}")

    def _advise(self, view: Mapping[str, Any], prompt: Mapping[str, Any] | None) -> None:
        """The seat's advice (``hkcore.table.advice``): all of it when the seat is asked (``prompt``), only the
        notes (why a claim is not offered) when it is not."""
        from hkcore.table.advice import advice  # only a person at the terminal is advised

        self.discarded = False
        found = advice(self.preset, self.hand, view, prompt, self.seat) if self.preset is not None else None
        if found is None:
            return
        if prompt is not None:
            away = found["tiles_away"]
            on_turn = view["drawn"] is not None or len(parse_tiles(view["tiles"])) % 3 == 2
            self._say("  advice: " + ("complete" if away < 0 else
                                      ("a discard from waiting" if on_turn else "waiting") if away == 0 else
                                      f"{away} tile{'s' * (away != 1)} away"))
            for w in found["waits"]:
                self._say(f"    wait {self._worth(w)}")
            shown_discards = found["discards"][:ADVISED]
            for d in shown_discards:
                self._say(f"    discard {d['discard']}: waits " + "; ".join(self._worth(w) for w in d["waits"]))
            if len(found["discards"]) > len(shown_discards):
                self._say(f"    ({len(found['discards']) - len(shown_discards)} other discards leave the hand waiting)")
        for note in found["notes"]:
            self._say(f"    not offered: {note}" if prompt is None else f"    note: {note}")

    def _worth(self, w: Mapping[str, Any]) -> str:
        """A wait, its unseen copies, its value on a discard and self-drawn, and why it cannot win when it
        cannot."""
        text = f"{w['tile']} ({w['unseen']} unseen): {w['value']} {self.unit}, {w['self_draw_value']} self-drawn"
        if w["winnable"] and w["self_draw_winnable"]:
            return text
        text += (": cannot win" if not (w["winnable"] or w["self_draw_winnable"]) else
                 ": wins self-drawn only" if w["self_draw_winnable"] else ": wins on a discard only")
        return text + (f" ({w['reason']})" if w["reason"] else "")

    def watch(self, table: Table) -> None:
        """After the others' decisions: when another seat has discarded and this seat is not asked, say why
        it may not claim the tile (its advice's notes)."""
        if self.discarded and not any(p["seat"] == self.seat for p in table.prompts(views=False)):
            self._advise(table.view(self.seat), None)

    def _words(self, a: Mapping[str, Any]) -> str:
        if a["act"] == "win":
            return f"win ({a['faan']} {self.unit}{', instant' if a.get('instant') else ''})"
        if a["act"] == "kong":
            return f"{a['kind']} kong {a['tiles']}"
        return " ".join([a["act"], *(str(a[k]) for k in ("tiles", "tile") if k in a)])

    def _pick(self, text: str, actions: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
        text = " ".join(text.split()).lower()
        if text.isdigit():
            return actions[int(text) - 1] if 1 <= int(text) <= len(actions) else None
        named = [a for a in actions if text in (self._words(a).lower(), a["act"], a.get("tile"), a.get("tiles"))]
        return named[0] if len(named) == 1 else None

    def __call__(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        self._table(prompt)
        self._advise(prompt["view"], prompt)
        phase = prompt["phase"]
        if phase == "claim":
            question = f"{prompt['from']} discarded {prompt['tile']}: claim it?"
        elif phase == "rob":
            question = f"{prompt['from']} is making a kong with {prompt['tile']}: rob it?"
        else:
            question = self.QUESTION[phase]
        self._say(f"  {question}")
        actions = prompt["actions"]
        for i, a in enumerate(actions, 1):
            self._say(f"  {i:2}. {self._words(a)}")
        while True:
            print(f"choose 1-{len(actions)}: ", end="", file=self.out, flush=True)
            text = self.inp.readline()
            if not text:
                raise KeyboardInterrupt
            action = self._pick(text, actions)
            if action is not None:
                return decision(prompt, action)
            self._say(f"  {text.strip()!r}: give a number from 1 to {len(actions)} (or an action's words, or its "
                      "tile)")


def play_hands(preset: str | Preset, seed: int, hands: int | None, choose: Callable[[str], Player],
               views: bool, watch: Callable[[Table], None] | None = None) -> Iterator[dict[str, Any]]:
    """The records of ``hands`` hands under ``preset`` (a whole match when
    None): matches from seeds ``seed``, ``seed + 1``, ...; a match cut short
    ends ``stopped``. ``choose`` gives each seat's policy. Each record is
    yielded before the next decision is asked for (a person at the terminal
    is told what happened first); then ``watch``, when given, is shown the
    hand in play."""
    played = 0
    while True:
        m = Match(preset, seed=seed)
        seed += 1
        sent = 0
        while not m.over:
            yield from m.log[sent:]
            sent = len(m.log)
            if watch is not None:
                watch(m.table)
            p = m.prompts(views)[0]
            new = m.submit(choose(p["seat"])(p))
            played += sum(r["event"] == "end_hand" for r in new)
            if hands is not None and played >= hands and not m.over:
                m.stop()  # drops the next hand's first records
        yield from m.log[sent:]
        if hands is None or played >= hands:
            return


def random_play(preset: str | Preset, seed: int, hands: int | None, rng: random.Random,
                out: IO[str]) -> tuple[int, int]:
    """``play_hands`` with every seat random, written to ``out`` a hand at a
    time as JSON lines: ``(hands played, hands won)``."""
    played = wins = 0
    rules = resolve_preset(preset, "preset")  # once: every match of the run plays it (their records name it)
    while True:
        m = Match(rules if rules.id == preset else preset, seed=seed)
        seed += 1
        while not m.over:
            t = m.table
            m.play_random(rng)
            played += 1
            end = t.log[-1] if t.log[-1]["event"] == "end_hand" else t.log[-2]
            wins += end["result"] == "win"
            out.write(t.log_lines())
            if hands is not None and played >= hands and not m.over:
                out.write(lines(m.stop()))  # the next hand, dealt, is dropped
        if hands is None or played >= hands:
            return played, wins


def _players(args: argparse.Namespace, presets: list[Preset], rng: random.Random) -> list[dict[str, Player]]:
    """Each seat's player under each of ``presets``: the bots of ``--bots`` (one for every seat, or E, S, W,
    N; each seeded with ``--seed`` plus its seat's place), else ``--policy`` (one shared by the seats)."""
    if args.bots is None:  # --policy: the simple bot, or one random bot drawing from the command's generator
        if args.policy == "random":
            shared = RandomBot(None, 0, rng=rng).decide
            return [dict.fromkeys(SEATS, shared) for _ in presets]
        return [dict.fromkeys(SEATS, make_bot("simple", p).decide) for p in presets]
    names = bot_names(args.bots)
    seats = list(zip(SEATS, names * 4 if len(names) == 1 else names))
    factories = available_bots()
    limit = bot_time_limit(args)
    return [{s: bot_or_program(name, p, args.seed + i, factories, time_limit=limit).decide
             for i, (s, name) in enumerate(seats)} for p in presets]


def _cmd_play(args: argparse.Namespace) -> int:
    presets = linted_presets(preset_list([args.preset]))  # a bad file or preset: one line, before play
    rng = random.Random(args.seed)
    if not args.match and args.hands < 1:
        raise HkcoreError(f"--hands {args.hands}: a number of hands, 1 or more")
    if args.human and args.human not in SEATS:
        raise HkcoreError(f"--human {args.human!r}: a seat (E, S, W or N)")
    human = _Person(args.human, sys.stdin, sys.stderr) if args.human else None
    players = _players(args, presets, rng)  # every bot made (its name checked) before any hand is played
    said_warnings(presets)

    hands = None if args.match else args.hands
    try:
        # a large buffer: a log is written a hand (about 10 KB) at a time, in fewer system calls
        out = open(args.out, "w", encoding="utf-8", buffering=1 << 20) if args.out else sys.stdout  # noqa: SIM115
    except OSError as exc:
        raise HkcoreError(f"--out: cannot write {shown(args.out)}: {exc.strerror}") from None
    try:
        wins = count = 0
        for preset, seats in zip(presets, players):  # each match given the Preset (its records name it)
            if args.policy == "random" and human is None:
                n, w = random_play(preset, args.seed, hands, rng, out)
                count += n
                wins += w
                continue
            if human is not None:
                human.sit(preset)

            def choose(seat: str, seats: dict[str, Player] = seats) -> Player:
                return human if human is not None and seat == args.human else seats[seat]

            block: list[dict[str, Any]] = []
            for r in play_hands(preset, args.seed, hands, choose, views=True,
                                watch=human.watch if human is not None else None):
                block.append(r)
                if human is not None:  # the log as it is made; the person is told at once
                    human.seen(r)
                if r["event"] == "end_hand":
                    count += 1
                    wins += r["result"] == "win"
                    out.write(lines(block))
                    block = []
            out.write(lines(block))
    finally:
        if out is not sys.stdout:
            out.close()
    print(f"hkscore: {count} hand{'s' * (count != 1)} played ({wins} won, {count - wins} drawn)", file=sys.stderr)
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    # read as a stream (a .gz, .bz2 or .xz file decompressed, as ``score --jsonl`` reads): a line of at most
    # MAX_LINE bytes is held, a longer one refused by its number; --json's records wait in a spooled file (on
    # disk past a MiB) and are written only once the whole log matches
    lines = file_lines(args.log, "replay", limit=MAX_LINE)
    count = hands = 0
    with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", encoding="utf-8") as held:
        try:
            for r in replayed(lines):
                count += 1
                hands += r["event"] == "end_hand"
                if args.format == "json":
                    held.write(line(r) + "\n")
        except ReplayError as exc:
            print(f"hkscore: {exc}", file=sys.stderr)
            return 2 if exc.kind == "invalid" else 1
        finally:
            lines.close()
        held.seek(0)
        shutil.copyfileobj(held, sys.stdout)
    print(f"hkscore: {count} records replayed ({hands} hand{'s' * (hands != 1)}): the log matches",
          file=sys.stderr)
    return 0


def play_options(pl: argparse.ArgumentParser) -> None:
    """``hkscore play``'s arguments."""
    pl.add_argument("--preset", "-p", default="bga-old-style",
                    help="preset id, TOML path or TOML text; 'all' plays each built-in (default bga-old-style)")
    pl.add_argument("--seed", type=int, default=0, help="the seed of the deal and of the bots (default 0)")
    group = pl.add_mutually_exclusive_group()
    group.add_argument("--hands", type=int, default=1, help="how many hands (default 1)")
    group.add_argument("--match", action="store_true", help="play one whole match")
    players = pl.add_mutually_exclusive_group()
    players.add_argument("--bots", metavar="B[,B,B,B]",
                         help="one bot for every seat, or four separated by commas (E,S,W,N): any of hkscore bots "
                              "(simple, random, efficiency, value, guard, and those installed), or cmd:PROGRAM ARGS, "
                              "a program's bot")
    players.add_argument("--policy", choices=("simple", "random"),
                         help="deprecated, use --bots: simple (the default) is --bots simple; random, one seeded "
                              "generator for every seat (--bots random seeds each seat apart)")
    bot_time_limit_option(pl)
    pl.add_argument("--human", metavar="SEAT", help="you play this seat (E, S, W or N) at the terminal")
    pl.add_argument("--out", "-o", metavar="FILE", help="write the log here instead of stdout")
    pl.add_argument("--json", dest="format", action="store_const", const="json",
                    help="always JSON lines, one record each")
    pl.set_defaults(func=_cmd_play)


def replay_options(rp: argparse.ArgumentParser) -> None:
    """``hkscore replay``'s arguments."""
    rp.add_argument("log", help="a JSON-lines game log (.gz, .bz2 or .xz read decompressed), - for stdin")
    rp.add_argument("--json", dest="format", action="store_const", const="json",
                    help="print the engine's records as JSON lines (the log with its defaults filled)")
    rp.set_defaults(func=_cmd_replay)
