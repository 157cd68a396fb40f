"""The ``hkscore`` command line."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from hkcore import core
from hkcore.core._codes import CHOW, ORPHANS, PUNG
from hkcore.errors import HkcoreError
from hkcore.tiles import TILES, format_tiles, parse_tiles, to_unicode


def format_set(code: int) -> str:
    """A set code as tiles, e.g. ``123m`` or ``555z``."""
    return format_tiles([TILES[t] for t in core.set_tiles(code)])


def format_reading(reading: tuple[int, ...]) -> str:
    """A reading as a person writes it: the pair, then each set."""
    pair, *sets = reading
    if sets == [ORPHANS]:
        return f"thirteen orphans, pair {TILES[pair]}"
    words = [format_tiles([TILES[pair]] * 2)]
    for code in sets:
        kind = {CHOW: "chow", PUNG: "pung"}.get(code // 34, "kong")
        words.append(f"{format_set(code)} ({kind})")
    return "  ".join(words)


def _cmd_decompose(args: argparse.Namespace) -> int:
    tiles = parse_tiles(args.tiles)
    melds = args.meld or ()
    print(f"hand     {format_tiles(tiles)}  {to_unicode(sorted(tiles))}"
          + "".join(f"  [{m}]" for m in melds))
    away = core.tiles_away(tiles, melds)
    status = {-1: "complete", 0: "waiting"}.get(away, f"{away} tiles away")
    print(f"status   {status}")
    if len(tiles) % 3 == 2:
        found = core.readings(tiles, melds)
        for i, r in enumerate(found, 1):
            print(f"reading {i}: {format_reading(r)}")
    else:
        w = core.waits(tiles, melds)
        print("waits    " + (" ".join(f"{t} {t.unicode}" for t in w) if w else "none"))
    print(f"core     {core.IMPLEMENTATION}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hkscore``."""
    parser = argparse.ArgumentParser(prog="hkscore", description="Hong Kong mahjong hands, scored under any ruleset.")
    sub = parser.add_subparsers(dest="command", required=True)
    dec = sub.add_parser("decompose", help="readings, tiles away and waits of a hand")
    dec.add_argument("tiles", help="concealed tiles, e.g. 11122233344455m")
    dec.add_argument("--meld", action="append", help="a declared set, e.g. 555z (repeatable)")
    dec.set_defaults(func=_cmd_decompose)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``hkscore``; errors print one line and exit with status 2."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except HkcoreError as exc:
        print(f"hkscore: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
