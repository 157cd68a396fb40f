"""``hkscore waits``, ``claims`` and ``decompose``: a hand in play."""
from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from hkcore.cli.common import (
    error_entry,
    failures,
    format_reading,
    output_options,
    preset_list,
    print_json,
    print_rows,
    read_position,
    read_text,
    reading_data,
    said_preset_warnings,
    show,
)
from hkcore.errors import HandError, HkcoreError
from hkcore.tiles import format_tiles, parse_tiles, to_unicode


def _cell(value: Any, unit: str, how: str) -> str:
    text = f"{how} {value.faan} {unit}"
    if not value.winnable:
        text += f": cannot win ({value.reason.split('; ')[-1]})" if value.reason else ": cannot win"
    return text


def _short_cell(value: Any, unit: str, preset_id: str) -> str:
    """A wait's value in a preset's own block: its reason without the preset's id."""
    text = f"{value.faan} {unit}"
    if not value.winnable:
        why = value.reason.split("; ")[-1].replace(f"{preset_id} ", "") if value.reason else ""
        text += f", cannot win ({why})" if why else ", cannot win"
    return text


def _wait_rows(good: list[tuple[str, Any]]) -> list[list[Any]]:
    """One row per preset, discard (for a hand about to discard) and wait."""
    rows: list[list[Any]] = [["preset", "discard", "wait", "unseen", "unit", "on_discard", "discard_winnable",
                              "on_self_draw", "self_draw_winnable"]]
    for pid, r in good:
        options = [(None, r.waits)] if not r.discards else [(opt.discard, opt.waits) for opt in r.discards]
        for discard, waits in options:
            rows += [[pid, discard, w.tile, w.unseen, r.unit, w.on_discard.faan, show(w.on_discard.winnable),
                      w.on_self_draw.faan, show(w.on_self_draw.winnable)] for w in waits]
    return rows


def _cmd_waits(args: argparse.Namespace) -> int:
    from hkcore.analysis import Analysis, analyse
    from hkcore.notation import format_hand
    pos = read_position(args.hand)
    ids = preset_list(args.preset)
    results: list[tuple[str, Analysis | HkcoreError]] = []
    for preset in said_preset_warnings(ids, table=False):
        try:
            results.append((preset.id, analyse(pos, preset, args.visible or "")))
        except HkcoreError as exc:
            if len(ids) == 1:
                raise
            results.append((preset.id, exc))
    good = [(pid, r) for pid, r in results if isinstance(r, Analysis)]
    status = failures(len(results) - len(good), len(results), "presets")
    fmt = args.format or "table"
    if fmt == "json":  # always a list, one entry per preset, in the order given
        print_json([r.model_dump() if isinstance(r, Analysis) else error_entry(pid, r) for pid, r in results])
        return status
    if fmt != "table":
        print_rows(_wait_rows(good), fmt)
        return status
    print(f"hand  {format_hand(pos)}   {to_unicode(parse_tiles(pos.tiles))}")
    for pid, r in results:
        if not isinstance(r, Analysis):
            print(f"{pid}: error: {r}")
    if not good:
        return status
    first = good[0][1]
    away = first.tiles_away
    if pos.waiting_size:  # one block per preset, each within 80 columns
        for pid, r in good:
            if not r.waiting:
                print(f"\n{pid}: {r.tiles_away} tiles away")
                continue
            print(f"\n{pid}: waiting, {sum(w.unseen for w in r.waits)} tiles unseen")
            table = [["  wait", "unseen", "on a discard", "on a self-draw"]]
            for w in r.waits:
                table.append([f"  {parse_tiles(w.tile)[0].unicode} {w.tile}", str(w.unseen),
                              _short_cell(w.on_discard, r.unit, pid), _short_cell(w.on_self_draw, r.unit, pid)])
            print_rows(table, "table")
        return status
    print(f"      {'complete' if away < 0 else 'waiting' if away == 0 else f'{away} tiles away'}; "
          "discards that leave it waiting, best first:")
    for pid, r in good:
        print(f"\n{pid}")
        if not r.discards:
            print("  none")
        for opt in r.discards:
            waits = ", ".join(f"{w.tile} ({w.unseen} unseen, {w.on_discard.faan}/{w.on_self_draw.faan}"
                              + ("" if w.on_discard.winnable or w.on_self_draw.winnable else ", cannot win") + ")"
                              for w in opt.waits)
            print(textwrap.fill(f"discard {opt.discard}: {opt.winnable_unseen} winning tiles unseen; waits {waits}",
                                width=80, initial_indent="  ", subsequent_indent="      "))
    return status


def _claim_row(c: Any) -> list[Any]:
    won = c.result
    value = None if won is None else f"{won.faan} {won.unit}"
    return [c.seat, c.kind, c.tiles, c.robbing, " ".join(c.forbidden_discards) or None, value]


_CLAIM_HEADER = ["seat", "claim", "tiles", "robbing", "may not discard", "scores"]


def _cmd_claims(args: argparse.Namespace) -> int:
    """Legal claims on a discard (``hkcore.legal_claims``) for one hand or several, and which claim gets
    the tile (``hkcore.resolve_claims``); or ``--resolve FILE`` for claims given as JSON."""
    from hkcore.claims import legal_claims, resolve_claims
    from hkcore.notation import format_hand

    fmt = args.format or "table"
    if args.discarder is None:
        raise HkcoreError("claims: give the seat that discarded with --from SEAT (E, S, W or N)")
    discarder = args.discarder.upper()[:1] if args.discarder.lower() in ("east", "south", "west", "north") \
        else args.discarder.upper()
    preset = said_preset_warnings(preset_list(args.preset)[:1], table=False)[0]
    if args.resolve is not None:
        if args.hand or args.also:
            raise HkcoreError("claims --resolve: give the claims as JSON only, not hands")
        given = json.loads(read_text(args.resolve))
        won = resolve_claims(given, discarder, preset)
        if fmt == "json":
            print_json([c.model_dump() for c in won])
        else:
            print_rows([_CLAIM_HEADER, *map(_claim_row, won)] if won else [["no claim"]], fmt)
        return 0
    if not args.hand:
        raise HkcoreError("claims: give a waiting hand (notation with seat:, or a JSON file) and --discard TILE")
    if args.discard is None:
        raise HkcoreError("claims: give the discarded tile with --discard TILE")
    hands = [read_position(args.hand), *(read_position([h]) for h in args.also or ())]
    seats = [h.seat_wind for h in hands]
    for i, seat in enumerate(seats):
        if seat in seats[:i]:
            raise HkcoreError(f"claims: two hands sit at seat {seat}; give each hand its own seat: (seat:S)")
    held = [0] * 34
    for h in hands:
        for t in parse_tiles(h.tiles + "".join(m.tiles for m in h.melds)):
            held[t.index] += 1
            if held[t.index] > 4:
                raise HandError(f"--also: the hands hold {held[t.index]} copies of {t} between them (at most 4)",
                                "also", str(t))
    legal = {h.seat_wind: legal_claims(h, args.discard, discarder, preset, kong=args.kong,
                                       last_tile=args.last_tile) for h in hands}
    # each seat claims the first it may (a win before a kong, a pung, then chows)
    resolved = resolve_claims([found[0] for found in legal.values() if found], discarder, preset)
    if fmt == "json":
        if len(hands) == 1:
            print_json([c.model_dump() for c in legal[seats[0]]])  # as POST /claims/legal answers
        else:
            print_json({"legal": {seat: [c.model_dump() for c in found] for seat, found in legal.items()},
                        "resolved": [c.model_dump() for c in resolved]})
        return 0
    rows = [_CLAIM_HEADER] + [_claim_row(c) for found in legal.values() for c in found]
    if fmt != "table":
        print_rows(rows, fmt)
        return 0
    print(f"discard  {args.discard} from {discarder} under {preset.id}")
    for h in hands:
        if not legal[h.seat_wind]:
            print(f"  {h.seat_wind}: no legal claim ({format_hand(h)})")
    if len(rows) > 1:
        print_rows(rows, "table")
    if len(hands) > 1 or resolved:
        print("gets it  " + ("; ".join(f"{c.seat} ({c.kind} {c.tiles})" for c in resolved) if resolved
                             else "nobody: the next seat draws"))
    return 0


def _cmd_decompose(args: argparse.Namespace) -> int:
    from hkcore import core

    tiles = parse_tiles(args.tiles)
    melds = args.meld or ()
    away = core.tiles_away(tiles, melds)
    complete = len(tiles) % 3 == 2
    readings = core.readings(tiles, melds) if complete else None
    waits = None if complete else core.waits(tiles, melds)
    # 0 for 14 - 3k tiles is one discard from waiting, not waiting (docs/rules.md, "A short hand")
    status = {-1: "complete", 0: "waiting" if not complete else "a discard from waiting"}.get(
        away, f"{away} tiles away")
    declared = len(melds) or (14 - len(tiles)) // 3
    if args.format == "json":  # readings for 14 - 3k tiles, waits for 13 - 3k, the other null
        print_json({"tiles": format_tiles(tiles), "melds": list(melds), "declared_sets": declared,
                    "tiles_away": away, "status": status,
                    "readings": None if readings is None else [reading_data(r) for r in readings],
                    "waits": None if waits is None else [str(t) for t in waits], "core": core.IMPLEMENTATION})
        return 0
    lines = [f"hand     {format_tiles(tiles)}  {to_unicode(sorted(tiles))}" + "".join(f"  + {m}" for m in melds),
             f"status   {status}"]
    if declared and not melds:
        lines.append(f"sets     {declared} declared, not given: counted as any {declared} sets")
    if readings == []:
        lines.append("readings none")
    if readings is not None:
        lines += [f"reading {i}: {format_reading(r)}" for i, r in enumerate(readings, 1)]
    else:
        lines.append("waits    " + (" ".join(f"{t} {t.unicode}" for t in waits) if waits else "none"))
    lines.append(f"core     {core.IMPLEMENTATION}")
    print("\n".join(lines))
    return 0


def waits_options(wt: argparse.ArgumentParser) -> None:
    """``hkscore waits``'s arguments."""
    wt.add_argument("hand", nargs="+", help="a JSON file, - for stdin, or notation without win: "
                                            "e.g. 123m456p23s55z 789s:W seat:S")
    wt.add_argument("--preset", "-p", action="append", help="preset id or path, repeatable; 'all' for every built-in")
    wt.add_argument("--visible", help="tiles face up elsewhere (ponds, others' melds), for the unseen counts")
    output_options(wt, "a list of analyses, one per preset in order (an error in its place)", table=True)
    wt.set_defaults(func=_cmd_waits)


def claims_options(cl: argparse.ArgumentParser) -> None:
    """``hkscore claims``' arguments."""
    cl.add_argument("hand", nargs="*", help="a waiting hand: notation with seat: (e.g. 23m456p789s11z 777z:E "
                                            "seat:S), a JSON file or -")
    cl.add_argument("--discard", "-d", metavar="TILE", help="the tile discarded (or being added to a kong)")
    cl.add_argument("--from", dest="discarder", metavar="SEAT", help="the seat that discarded it (E, S, W, N)")
    cl.add_argument("--also", action="append", metavar="HAND",
                    help="another seat's waiting hand, quoted notation (repeatable): claims of every hand, and "
                         "which gets the tile if each seat claims the first it may")
    cl.add_argument("--kong", choices=["added", "concealed"],
                    help="the tile is being added to a pung, or a concealed kong is declared: only a robbing win")
    cl.add_argument("--last-tile", action="store_true", help="the discard is the last of the hand")
    cl.add_argument("--resolve", metavar="FILE", help="a JSON list of claims (- for stdin): which gets the tile")
    cl.add_argument("--preset", "-p", action="append", help="preset id or TOML path (default bga-old-style)")
    output_options(cl, "the list of claims (POST /claims/legal); with --also, {\"legal\": {seat: [...]}, "
                       "\"resolved\": [...]}; with --resolve, the claims that get the tile", table=True)
    cl.set_defaults(func=_cmd_claims)


def decompose_options(dec: argparse.ArgumentParser) -> None:
    """``hkscore decompose``'s arguments."""
    dec.add_argument("tiles", help="concealed tiles, e.g. 11122233344455m")
    dec.add_argument("--meld", action="append", help="a declared set, e.g. 555z (repeatable)")
    output_options(dec, "tiles, status, readings or waits")
    dec.set_defaults(func=_cmd_decompose)
