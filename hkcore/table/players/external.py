"""Bots from any program (docs/bots.md, "Bots from any program"): a bot
given as ``cmd:PROGRAM ARGS`` is a process speaking JSON lines.

hkcore starts the program (its words split as a shell would, no shell run)
when the bot is first asked, writes a hello line, then each prompt as
``prompts()`` gives it, one JSON object a line on the program's stdin; the
program answers each prompt with one line on its stdout: the decision (the
action's fields, ``prompt`` and ``seat`` may be left out). An answer that is
not one of the prompt's actions, is not JSON, is longer than ``MAX_LINE``,
comes later than ``time_limit`` seconds, or never comes (the program ended)
is a *fault*: recorded in ``faults``, and from then on the seat is played by
the fallback bot (a built-in one), the program stopped. The program's stderr
is discarded. Every wait has a deadline and every pipe is read and written
without blocking, so a program can delay a decision by its time limit at
most; the program (and every process it started in its process group) is
killed by ``close()``, when the bot is garbage-collected, and at the
interpreter's exit, and always waited for (no zombie is left). POSIX only.

A ``CommandBot`` may be asked from one thread while another closes it (a
server's table decides off its event loop): ``close()`` kills the program at
once, and the decision under way ends with the fallback's answer.
"""
from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.players.bots import Bot, BotFactory, builtin_bots, make_bot

#: how a bot name says it is a program
PREFIX = "cmd:"
#: seconds a program has to answer a prompt, unless told
TIME_LIMIT = 5.0
#: the longest time limit a program may be given, in seconds
MOST_TIME_LIMIT = 600.0
#: seconds the first answer may take beyond the time limit, while the program starts, unless told
START_LIMIT = 10.0
#: the longest answer line read, in bytes
MAX_LINE = 64 * 1024
#: the built-in bot that plays a seat whose program faulted, unless told
FALLBACK = "guard"
#: the protocol's version, in the hello line
PROTOCOL = 1
#: the kinds of fault
FAULT_KINDS = ("illegal", "bad-json", "too-long", "timeout", "crash")


def is_command(name: object) -> bool:
    """Whether a bot name is a program (``cmd:...``)."""
    return isinstance(name, str) and name.startswith(PREFIX)


def command_words(command: str) -> list[str]:
    """The words of ``command`` (a program and its arguments, without ``cmd:``) as a shell splits them, its
    program found on the PATH (or as a path): a TableError naming ``bot`` otherwise."""
    named = PREFIX + command if isinstance(command, str) else command
    if not isinstance(command, str):
        raise TableError(f"bot = {shown(named)}: a program and its arguments, as text", "bot", named)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise TableError(f"bot = {shown(named)}: {exc}", "bot", named) from None
    if not argv or shutil.which(argv[0]) is None:
        raise TableError(f"bot = {shown(named)}: no program {shown(argv[0] if argv else '')} to run", "bot", named)
    return argv


def check_time_limit(seconds: object, field: str = "time_limit", lowest: float = 1e-3) -> float:
    """``seconds`` as a time limit (``lowest`` to ``MOST_TIME_LIMIT`` seconds): a TableError naming
    ``field`` otherwise."""
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
            or not lowest <= seconds <= MOST_TIME_LIMIT:  # NaN fails too
        raise TableError(f"{field} = {shown(seconds)}: seconds, {lowest:g} to {MOST_TIME_LIMIT:g}", field, seconds)
    return float(seconds)


def _check_limits(time_limit: float, start_limit: float, fallback: str) -> None:
    check_time_limit(time_limit)
    check_time_limit(start_limit, "start_limit", 0.0)
    if not isinstance(fallback, str) or fallback not in builtin_bots():
        raise TableError(f"fallback = {shown(fallback)}: one of the built-in bots, "
                         f"{', '.join(sorted(builtin_bots()))}", "fallback", fallback)


class CommandBot:
    """A seat played by a program over JSON lines (module docstring). ``faults``: what went wrong, each
    ``{"prompt", "kind", "detail"}`` with kind one of ``FAULT_KINDS``; ``close()`` stops the program (and the
    bot then plays its fallback). ``time_limit``: seconds a decision may take (the first one
    ``start_limit`` more, while the program starts); ``fallback``: the built-in bot that plays on after a
    fault."""

    name = "cmd"
    in_engine = False

    def __init__(self, command: str, preset: Preset, seed: int, *, time_limit: float = TIME_LIMIT,
                 fallback: str = FALLBACK, start_limit: float = START_LIMIT) -> None:
        self.argv = command_words(command)
        _check_limits(time_limit, start_limit, fallback)
        self.command = command
        #: the built-in bot that plays on after a fault
        self.fallback = fallback
        self.time_limit = float(time_limit)
        self.start_limit = float(start_limit)
        self.faults: list[dict[str, Any]] = []
        self._fallback = make_bot(fallback, preset, seed, builtin_bots())
        self._hello = {"hkcore": PROTOCOL, "preset": preset.id, "seed": seed}
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopper: weakref.finalize[[subprocess.Popen[bytes], int], CommandBot] | None = None
        self._buffer = b""
        self._failed = False
        self._closed = False
        self._asked = 0
        self._lock = threading.Lock()

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        with self._lock:
            if not self._failed and not self._closed:
                try:
                    return self._ask(prompt)
                except _Fault as fault:
                    code = self._stop()
                    self._failed = True
                    if not self._closed:  # (a program killed by close() is no fault of its own)
                        detail = fault.detail
                        if fault.kind == "crash":
                            detail += " (killed)" if code == -signal.SIGKILL else f" (exit {code})"
                        self.faults.append({"prompt": prompt.get("prompt"), "kind": fault.kind, "detail": detail})
        return self._fallback.decide(prompt)

    def _ask(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        limit = self.time_limit + (self.start_limit if self._proc is None else 0.0)
        deadline = time.monotonic() + limit
        if self._proc is None:
            self._start(deadline)
        self._asked += 1
        self._write(_line(prompt), deadline)
        line = self._read_line(deadline, limit)
        try:
            answer = json.loads(line)
        except (ValueError, RecursionError):
            raise _Fault("bad-json", f"not JSON: {_short(line.decode('utf-8', 'replace'))}") from None
        if not isinstance(answer, dict):
            raise _Fault("bad-json", f"not a JSON object: {_short(line.decode('utf-8', 'replace'))}")
        action = {k: v for k, v in answer.items() if k not in ("prompt", "seat")}
        if answer.get("prompt", prompt["prompt"]) != prompt["prompt"] or answer.get("seat", prompt["seat"]) != \
                prompt["seat"] or action not in prompt["actions"]:
            raise _Fault("illegal", f"not one of the prompt's actions: {_short(line.decode('utf-8', 'replace'))}")
        return {"prompt": prompt["prompt"], "seat": prompt["seat"], **action}

    def _start(self, deadline: float) -> None:
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            raise _Fault("crash", f"could not start: {exc.strerror or exc}") from None
        self._proc = proc
        self._stopper = weakref.finalize(self, _stop_process, proc, os.getpid())  # when collected and at exit too
        assert proc.stdin is not None and proc.stdout is not None
        os.set_blocking(proc.stdin.fileno(), False)
        os.set_blocking(proc.stdout.fileno(), False)
        self._write(_line(self._hello), deadline)

    def _write(self, data: bytes, deadline: float) -> None:
        """``data`` written to the program's stdin by ``deadline`` (a program that reads nothing fills the
        pipe: a time-out, not a hang)."""
        assert self._proc is not None and self._proc.stdin is not None
        fd = self._proc.stdin.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            while data:
                try:
                    data = data[os.write(fd, data):]
                    continue
                except BlockingIOError:
                    pass
                except OSError:  # BrokenPipeError above all: the program ended
                    raise _Fault("crash", "the program ended (its stdin closed)") from None
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise _Fault("timeout", f"prompt {self._asked} not read within {self.time_limit:g} s")

    def _read_line(self, deadline: float, limit: float) -> bytes:
        """The program's next line, by ``deadline``, at most ``MAX_LINE`` bytes."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise _Fault("too-long", f"an answer longer than {MAX_LINE:,} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise _Fault("timeout", f"no answer within {limit:g} s")
                try:
                    chunk = os.read(fd, MAX_LINE + 1)
                except BlockingIOError:
                    continue
                except OSError as exc:
                    raise _Fault("crash", f"its stdout could not be read ({exc.strerror or exc})") from None
                if chunk == b"":
                    raise _Fault("crash", "the program ended (its stdout closed)")
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise _Fault("too-long", f"an answer longer than {MAX_LINE:,} bytes")
        return line

    def _stop(self) -> int | None:
        """Stop the program, if it runs; its exit status (negative: the signal that ended it)."""
        stopper, self._stopper, self._proc = self._stopper, None, None
        self._buffer = b""
        code = stopper() if stopper is not None else None
        return code if isinstance(code, int) else None

    def close(self) -> None:
        """Stop the program (and any process it started), if it runs; the fallback answers from now on."""
        self._closed = True
        proc = self._proc
        if proc is not None and proc.returncode is None:
            _kill_group(proc)  # at once: a decision under way in another thread sees the program end
        with self._lock:
            self._stop()


def _line(value: Mapping[str, Any]) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def _short(text: str, most: int = 120) -> str:
    return shown(text if len(text) <= most else text[:most] + "...")


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL to ``proc``'s process group (its own: it was started in a new session). Only while ``proc``
    is not yet waited for: its pid, a zombie's at worst, is still its own and so is the group's id."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    except PermissionError:
        with contextlib.suppress(OSError):
            proc.kill()


def _stop_process(proc: subprocess.Popen[bytes], owner: int) -> int | None:
    """Close ``proc``'s pipes, kill its process group, wait for it; its exit status. Only in the process that
    started it (``owner``): a forked child inherits the finalizer, not the program (None there)."""
    if os.getpid() != owner:
        return None
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):
                pipe.close()
    if proc.returncode is None:
        _kill_group(proc)
    return proc.wait()


class _Fault(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


class ProgramFactory:
    """A bot factory ``(preset, seed) -> CommandBot`` for one program, checked when it is made (a server's
    operator registers programs so: ``hkscore serve --bot NAME=cmd:PROGRAM ARGS``)."""

    def __init__(self, command: str, *, time_limit: float = TIME_LIMIT, fallback: str = FALLBACK,
                 start_limit: float = START_LIMIT) -> None:
        command_words(command)
        _check_limits(time_limit, start_limit, fallback)
        self.command, self.time_limit, self.fallback, self.start_limit = command, time_limit, fallback, start_limit
        #: what ``GET /bots`` and ``hkscore bots`` show of it (never the command)
        self.__doc__ = (f"A program the server's operator runs, answering within {time_limit:g} s a decision; "
                        f"{fallback} plays on if it fails.")

    def __call__(self, preset: Preset, seed: int) -> CommandBot:
        return CommandBot(self.command, preset, seed, time_limit=self.time_limit, fallback=self.fallback,
                          start_limit=self.start_limit)


def bot_or_program(name: str, preset: Preset, seed: int = 0, bots: Mapping[str, BotFactory] | None = None, *,
                   time_limit: float = TIME_LIMIT, fallback: str = FALLBACK) -> Bot:
    """``make_bot(name, preset, seed, bots)``, or for a name ``cmd:PROGRAM ARGS`` the program's
    ``CommandBot`` (with ``time_limit`` and ``fallback``): what the arena, ``simulate`` and ``hkscore play``
    seat (a server seats only the programs its operator registered, by name)."""
    if is_command(name):
        return CommandBot(name[len(PREFIX):], preset, seed, time_limit=time_limit, fallback=fallback)
    return make_bot(name, preset, seed, bots)
