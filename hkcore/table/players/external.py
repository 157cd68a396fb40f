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
is discarded.
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
import time
from collections.abc import Mapping
from typing import Any

from hkcore.errors import TableError, shown
from hkcore.preset import Preset
from hkcore.table.players.bots import Bot, BotFactory, builtin_bots, make_bot

#: how a bot name says it is a program
PREFIX = "cmd:"
#: seconds a program has to answer a prompt, unless told
TIME_LIMIT = 5.0
#: the longest answer line read, in bytes
MAX_LINE = 64 * 1024
#: the built-in bot that plays a seat whose program faulted, unless told
FALLBACK = "guard"
#: the protocol's version, in the hello line
PROTOCOL = 1


def is_command(name: object) -> bool:
    """Whether a bot name is a program (``cmd:...``)."""
    return isinstance(name, str) and name.startswith(PREFIX)


class CommandBot:
    """A seat played by a program over JSON lines (module docstring). ``faults``: what went wrong, each
    ``{"prompt", "kind", "detail"}`` with kind one of ``illegal``, ``bad-json``, ``too-long``, ``timeout``,
    ``crash``; ``close()`` stops the program."""

    name = "cmd"
    in_engine = False

    def __init__(self, command: str, preset: Preset, seed: int, *, time_limit: float = TIME_LIMIT,
                 fallback: str = FALLBACK) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise TableError(f"bot = {shown(PREFIX + command)}: {exc}", "bot", PREFIX + command) from None
        if not argv or shutil.which(argv[0]) is None:
            raise TableError(f"bot = {shown(PREFIX + command)}: no program {shown(argv[0] if argv else '')} to run",
                             "bot", PREFIX + command)
        if type(time_limit) not in (int, float) or not 0 < time_limit <= 600:
            raise TableError(f"time_limit = {shown(time_limit)}: seconds, above 0 and at most 600", "time_limit",
                             time_limit)
        if fallback not in builtin_bots():
            raise TableError(f"fallback = {shown(fallback)}: a built-in bot", "fallback", fallback)
        self.command = command
        self.argv = argv
        self.time_limit = float(time_limit)
        self.faults: list[dict[str, Any]] = []
        self._fallback = make_bot(fallback, preset, seed)
        self._hello = {"hkcore": PROTOCOL, "preset": preset.id, "seed": seed}
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._failed = False

    def decide(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        if not self._failed:
            try:
                answer = self._ask(prompt)
            except _Fault as fault:
                self.faults.append({"prompt": prompt.get("prompt"), "kind": fault.kind, "detail": fault.detail})
                self._failed = True
                self.close()
            else:
                return answer
        return self._fallback.decide(prompt)

    def _ask(self, prompt: Mapping[str, Any]) -> dict[str, Any]:
        if self._proc is None:
            self._start()
        self._send(prompt)
        line = self._read_line()
        try:
            answer = json.loads(line)
        except ValueError:
            raise _Fault("bad-json", f"not JSON: {shown(line.decode('utf-8', 'replace'))}") from None
        if not isinstance(answer, dict):
            raise _Fault("bad-json", f"not an object: {shown(answer)}")
        action = {k: v for k, v in answer.items() if k not in ("prompt", "seat")}
        if answer.get("prompt", prompt["prompt"]) != prompt["prompt"] or answer.get("seat", prompt["seat"]) != \
                prompt["seat"] or action not in prompt["actions"]:
            raise _Fault("illegal", f"not one of the prompt's actions: {shown(answer)}")
        return {"prompt": prompt["prompt"], "seat": prompt["seat"], **action}

    def _start(self) -> None:
        try:
            self._proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          stderr=subprocess.DEVNULL, start_new_session=True)
        except OSError as exc:
            raise _Fault("crash", f"could not start: {exc.strerror or exc}") from None
        assert self._proc.stdout is not None
        os.set_blocking(self._proc.stdout.fileno(), False)
        self._send(self._hello)

    def _send(self, value: Mapping[str, Any]) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            self._proc.stdin.write(json.dumps(value, separators=(",", ":")).encode() + b"\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Fault("crash", f"the program ended (exit {self._proc.poll()})") from None

    def _read_line(self) -> bytes:
        assert self._proc is not None and self._proc.stdout is not None
        out = self._proc.stdout
        deadline = time.monotonic() + self.time_limit
        with selectors.DefaultSelector() as sel:
            sel.register(out, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise _Fault("too-long", f"an answer longer than {MAX_LINE:,} bytes")
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise _Fault("timeout", f"no answer within {self.time_limit:g} s")
                chunk = out.read(MAX_LINE + 1)
                if chunk == b"":
                    raise _Fault("crash", f"the program ended (exit {self._proc.wait(1)})")
                if chunk is not None:
                    self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        if len(line) > MAX_LINE:
            raise _Fault("too-long", f"an answer longer than {MAX_LINE:,} bytes")
        return line

    def close(self) -> None:
        """Stop the program (and any process it started), if it runs."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        proc.wait()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # at interpreter exit nothing more can be done
            self.close()


class _Fault(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind, self.detail = kind, detail


def bot_or_program(name: str, preset: Preset, seed: int = 0, bots: Mapping[str, BotFactory] | None = None) -> Bot:
    """``make_bot(name, preset, seed, bots)``, or for a name ``cmd:PROGRAM ARGS`` the program's
    ``CommandBot``: what the arena, ``simulate`` and ``hkscore play`` seat (a server never does)."""
    if is_command(name):
        return CommandBot(name[len(PREFIX):], preset, seed)
    return make_bot(name, preset, seed, bots)
