"""``hkscore serve``: the HTTP service and the scoring page (docs/server.md;
the ``server`` extra, imported only when the command runs)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from hkcore.cli.common import bot_time_limit, bot_time_limit_option
from hkcore.errors import HkcoreError


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        from hkcore.server import serve
    except ImportError as exc:
        raise HkcoreError(f"serve needs the server extra ({exc.name} is missing): pip install 'hkcore[server]'") \
            from None
    if not 0 <= args.port <= 65535:
        raise HkcoreError(f"--port: expected 0..65535 (0: a free port, printed), got {args.port}")
    if not 1 <= args.workers <= 64:
        raise HkcoreError(f"--workers: expected 1..64, got {args.workers}")
    for option, seconds in (("--time-limit", args.time_limit), ("--batch-time-limit", args.batch_time_limit),
                            ("--head-time-limit", args.head_time_limit)):
        if seconds is not None and not 0 < seconds <= 86400:  # NaN fails too
            raise HkcoreError(f"{option}: expected seconds, more than 0 and at most 86400, got {seconds:g}")
    if args.most_connections is not None and not 1 <= args.most_connections <= 100_000:
        raise HkcoreError(f"--most-connections: expected 1..100000, got {args.most_connections}")
    if args.most_tables is not None and not 1 <= args.most_tables <= 100_000:
        raise HkcoreError(f"--most-tables: expected 1..100000, got {args.most_tables}")
    for option, seconds in (("--table-idle", args.table_idle), ("--claim-seconds", args.claim_seconds)):
        if seconds is not None and not 0 < seconds <= 86400:
            raise HkcoreError(f"{option}: expected seconds, more than 0 and at most 86400, got {seconds:g}")
    if args.bot_share is not None and not 0 < args.bot_share <= 1:
        raise HkcoreError(f"--bot-share: expected more than 0 and at most 1, got {args.bot_share:g}")
    for option, most in (("--most-hands", args.most_hands), ("--most-client-sockets", args.most_client_sockets),
                         ("--most-client-tables", args.most_client_tables),
                         ("--client-tables-per-minute", args.client_tables_per_minute)):
        if most is not None and not 1 <= most <= 100_000:
            raise HkcoreError(f"{option}: expected 1..100000, got {most}")
    limits = {k: v for k, v in (("time_limit", args.time_limit), ("batch_time_limit", args.batch_time_limit),
                                ("head_time_limit", args.head_time_limit),
                                ("most_connections", args.most_connections), ("most_tables", args.most_tables),
                                ("table_idle", args.table_idle), ("claim_seconds", args.claim_seconds),
                                ("bot_share", args.bot_share), ("most_hands", args.most_hands),
                                ("most_client_sockets", args.most_client_sockets),
                                ("most_client_tables", args.most_client_tables),
                                ("client_tables_per_minute", args.client_tables_per_minute))
              if v is not None}
    if args.open_claims:
        limits["open_claims"] = True
    if args.turn_seconds is not None:
        if not 0 <= args.turn_seconds <= 86400:  # NaN fails too
            raise HkcoreError(f"--turn-seconds: expected seconds, 0 (no clock) to 86400, got {args.turn_seconds:g}")
        limits["turn_seconds"] = args.turn_seconds or None
    if args.fallback_bot is not None:
        from hkcore.table.players.bots import available_bots

        offered = available_bots()
        if args.fallback_bot not in offered:
            raise HkcoreError(f"--fallback-bot: expected one of {', '.join(sorted(offered))}, got "
                              f"{args.fallback_bot!r}")
        limits["fallback_bot"] = args.fallback_bot
    limits.update(_database(args))
    limits.update(_programs(args))
    serve(args.host, args.port, args.presets, workers=args.workers, log_level=args.log_level, **limits)
    return 0


def _programs(args: argparse.Namespace) -> dict[str, Any]:
    """``serve``'s programs from ``--bot NAME=cmd:PROGRAM ARGS`` (each checked: a name of its own, a program
    found), ``--bot-time-limit`` and ``--most-programs``."""
    from hkcore.server.tables import program_bots
    from hkcore.table.players.bots import available_bots
    from hkcore.table.players.external import FALLBACK, PREFIX, command_words

    out: dict[str, Any] = {}
    seconds = bot_time_limit(args)
    if args.bot_time_limit is not None:
        out["program_time_limit"] = seconds
    if args.most_programs is not None:
        if not 1 <= args.most_programs <= 10_000:
            raise HkcoreError(f"--most-programs: expected 1..10000, got {args.most_programs}")
        out["most_programs"] = args.most_programs
    programs: dict[str, str] = {}
    for given in args.programs or []:
        name, equals, command = given.partition("=")
        name = name.strip()
        if not equals or not command.startswith(PREFIX):
            raise HkcoreError(f"--bot {given!r}: expected NAME=cmd:PROGRAM ARGS")
        if name in programs:
            raise HkcoreError(f"--bot {given!r}: the name {name!r} is given twice")
        programs[name] = command[len(PREFIX):]
        try:
            command_words(programs[name])
            program_bots({name: programs[name]}, available_bots(), seconds, FALLBACK)
        except HkcoreError as exc:
            raise HkcoreError(f"--bot {given!r}: {exc}") from None
    if programs:
        out["programs"] = programs
    return out


def _database(args: argparse.Namespace) -> dict[str, Any]:
    """``serve``'s database arguments from ``--db``, ``--db-keep-days`` and ``--db-sync``: by default the file
    ``DEFAULT_FILE`` in the working folder with one worker, none with more."""
    from hkcore.server.database import DEFAULT_FILE, KEEP_DAYS

    if args.db_keep_days is not None and not 0 < args.db_keep_days <= 36500:
        raise HkcoreError(f"--db-keep-days: expected days, more than 0 and at most 36500, got {args.db_keep_days:g}")
    if args.db is None:
        path = None if args.workers > 1 else Path(DEFAULT_FILE).resolve()
    elif args.db.strip().lower() == "none":
        path = None
    elif not args.db.strip():
        raise HkcoreError("--db: expected a file, or none for memory only, got an empty path")
    else:
        path = Path(args.db).resolve()
    if path is None:
        return {}
    return {"db": path, "db_keep_days": KEEP_DAYS if args.db_keep_days is None else args.db_keep_days,
            "db_sync": args.db_sync.upper()}


def serve_options(sv: argparse.ArgumentParser) -> None:
    """``hkscore serve``'s arguments."""
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one and prints it)")
    sv.add_argument("--presets", metavar="DIR", help="a folder of preset files served beside the built-in ones")
    sv.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    sv.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    sv.add_argument("--time-limit", type=float, metavar="SECONDS",
                    help="time a request may take before it is answered 503 (default 10)")
    sv.add_argument("--batch-time-limit", type=float, metavar="SECONDS",
                    help="time a POST /score/batch may take (default 600)")
    sv.add_argument("--head-time-limit", type=float, metavar="SECONDS",
                    help="time a request's head (its line and headers) may take before it is answered 408 and its "
                         "connection closed (default 10)")
    sv.add_argument("--most-connections", type=int, metavar="N",
                    help="connections one worker holds at once, WebSockets among them; a request or socket beyond "
                         "them is answered 503 (default 1000)")
    sv.add_argument("--most-tables", type=int, metavar="N",
                    help="tables held at once (POST /tables beyond them: 503; default 1000)")
    sv.add_argument("--table-idle", type=float, metavar="SECONDS",
                    help="a table unused this long is dropped, its log with it (default 1800)")
    sv.add_argument("--claim-seconds", type=float, metavar="SECONDS",
                    help="a person's claim window where the preset sets no claim_seconds (default 15)")
    sv.add_argument("--bot-share", type=float, metavar="FRACTION",
                    help="the most of a worker's time the tables of bots alone take (default 0.25; 1: all they can)")
    sv.add_argument("--most-hands", type=int, metavar="N",
                    help="hands a served match plays at most; a preset asking for more is refused (default 100)")
    sv.add_argument("--most-client-sockets", type=int, metavar="N",
                    help="WebSockets one client address holds open at once (beyond: 429; default 64)")
    sv.add_argument("--most-client-tables", type=int, metavar="N",
                    help="tables one client address's requests made that are held at once (beyond: 429; default 100)")
    sv.add_argument("--client-tables-per-minute", type=int, metavar="N",
                    help="tables one client address may make a minute (beyond: 429; default 60)")
    sv.add_argument("--open-claims", action="store_true",
                    help="at a table with a person, ask every other seat on every discard (and every kong that may be "
                         "robbed), a seat with no claim with just pass, so that nobody learns who could claim, even "
                         "from how long a window lasts (default: only the seats with a claim are asked)")
    sv.add_argument("--turn-seconds", type=float, metavar="SECONDS",
                    help="a person's turn where the preset sets no turn_seconds; a person who lets it run out is away "
                         "and the fallback bot plays the seat until the person is back (default 60; 0: no clock)")
    sv.add_argument("--fallback-bot", metavar="BOT",
                    help="the bot that plays an away person's seat (default guard; hkscore bots lists them)")
    sv.add_argument("--bot", metavar="NAME=cmd:PROGRAM ARGS", action="append", dest="programs",
                    help="a bot that a program plays, offered to the tables by NAME like any bot (repeatable; "
                         "docs/bots.md, 'Bots from any program'); the program (split as a shell splits it, no shell "
                         "run) starts when the bot is first asked at a table and ends with it. A request can never "
                         "name a program itself")
    bot_time_limit_option(sv)
    sv.add_argument("--most-programs", type=int, metavar="N",
                    help="programs' bots seated at once at the unfinished tables (a table beyond them: 503; "
                         "default 16)")
    sv.add_argument("--db", metavar="PATH",
                    help="the SQLite file the tables are kept in, made if missing (its folder must exist): every "
                         "decision is written before it is answered, and the unfinished tables are played on after a "
                         "restart; none: memory only (default: hkcore-tables.sqlite3 in the working folder, none with "
                         "--workers > 1)")
    sv.add_argument("--db-keep-days", type=float, metavar="DAYS",
                    help="days a finished table's log stays downloadable by its seats' tokens (default 30)")
    sv.add_argument("--db-sync", choices=["normal", "full"], default="normal",
                    help="normal (default): each decision is handed to the system before it is answered, surviving a "
                         "killed server but not a power cut; full: on the disk (fsync) before it is answered, "
                         "surviving a power cut too, at a cost in latency")
    sv.set_defaults(func=_cmd_serve)
