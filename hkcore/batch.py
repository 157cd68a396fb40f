"""Scoring many hands: in order, a bad hand's error in its place, on one
process or several.

``score_many`` takes any iterable of hands (docs/rules.md dicts, JSON text or
bytes, one hand per JSON line, compact notation, ``Hand`` objects) and
yields one answer per hand, in order. With ``jobs=N`` the hands go to N
worker processes in chunks of raw text lines (never pickled objects), at
most a few chunks in flight, so memory stays flat however long the input.
"""
from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, BinaryIO, Literal, TypeVar, overload

from hkcore.engine import CompiledPreset, compiled_for
from hkcore.errors import HandError, HkcoreError, TileError, shown
from hkcore.lines import block_lines, clip  # noqa: F401 - clip: its old home, kept for callers
from hkcore.models import MAX_JSON, Hand  # noqa: F401 - MAX_JSON: read from here by callers
from hkcore.preset import Preset, PresetError, export_toml, read_preset
from hkcore.registry import PluginError, Registry, current
from hkcore.results import ScoreResult

#: hands per chunk sent to a worker process
CHUNK = 2000
T = TypeVar("T")
_ERRORS: dict[str, type[HkcoreError]] = {
    cls.__name__: cls for cls in (HkcoreError, HandError, TileError, PresetError, PluginError)}


@overload
def score_many(hands: Iterable[Any], preset: str | Path | Preset = ..., *, jobs: int = ...,
               as_json: Literal[False] = ...) -> Iterator[ScoreResult | HkcoreError]: ...
@overload
def score_many(hands: Iterable[Any], preset: str | Path | Preset = ..., *, jobs: int = ...,
               as_json: Literal[True]) -> Iterator[str]: ...
@overload
def score_many(hands: Iterable[Any], preset: str | Path | Preset = ..., *, jobs: int = ...,
               as_json: bool) -> Iterator[ScoreResult | HkcoreError | str]: ...
def score_many(hands: Iterable[Any], preset: str | Path | Preset = "bga-old-style", *, jobs: int = 1,
               as_json: bool = False) -> Iterator[ScoreResult | HkcoreError | str]:
    """Score every hand under ``preset``, yielding in input order a
    ``ScoreResult``, or the ``HkcoreError`` of a hand that cannot be scored
    (the batch goes on). ``as_json``: yield JSON text instead, the result's
    ``to_json()`` or ``{"error": ..., "type": ..., "field": ...}``. ``jobs``:
    worker processes (they see the plugins given to ``register_plugin`` here
    as well as the installed ones). A bad preset or ``jobs`` is an error at
    once, before any hand is read."""
    check_jobs(jobs)
    compiled = compiled_for(preset)
    try:
        items = iter(hands)
    except TypeError:
        raise HandError(f"hands: expected an iterable of hands, got {shown(hands)}", "hands", hands) from None
    if jobs == 1:
        return (_one(compiled, item, as_json) for item in items)
    work: Callable[[list[str | None], int], Sequence[str | HkcoreError | None]] = (
        _work_json if as_json else _work_objects)
    return (_answer(line, errors.get(i), as_json)
            for done, errors in in_workers(items, specs_for([(preset, compiled)]), jobs, work)
            for i, line in enumerate(done))


def _answer(line: str | HkcoreError | None, error: HkcoreError | None, as_json: bool) -> Any:
    """What ``score_many`` yields for a worker's answer (None: ``error``, found in this process)."""
    if line is None:
        assert error is not None
        return error_json(error) if as_json else error
    return line if as_json or isinstance(line, HkcoreError) else _from_json(line)


def error_json(exc: HkcoreError, preset: str | None = None) -> str:
    """An error as one JSON object (ASCII): message, type and field (or TOML
    path), after the id of the preset it came from when given."""
    field = getattr(exc, "field", None) or getattr(exc, "path", None)
    head = {"preset": preset} if preset is not None else {}
    return json.dumps({**head, "error": str(exc), "type": type(exc).__name__, "field": field})


def line_error(number: int, text: str) -> str:
    """``error_json``'s text with the number of the input line it answers first."""
    return '{"line": ' + str(number) + ", " + text[1:]


def answer_lines(compiled: CompiledPreset, lines: Iterable[tuple[int, bytes | str]],
                 stop: Callable[[], bool] | None = None) -> list[str]:
    """The JSON answer of each numbered hand line: its result, or its error after its line number.
    ``stop``: asked before each line; once it says True, the lines answered so far."""
    out = []
    for number, line in lines:
        if stop is not None and stop():
            break
        text = _one(compiled, line, True)
        out.append(line_error(number, text) if text.startswith('{"error"') else text)
    return out


def score_one(compiled: CompiledPreset, item: Any) -> ScoreResult:
    """One hand of any form ``score_many`` reads, scored (a ``HkcoreError`` if it cannot be)."""
    result = compiled.score_plain(item)
    if result is None:
        if isinstance(item, (bytes, bytearray)):
            item = decode(item)
        result = compiled.score(item if type(item) is Hand else Hand.parse(item))
    return result


def _one(compiled: CompiledPreset, item: Any, as_json: bool) -> Any:
    try:
        result = score_one(compiled, item)
    except HkcoreError as exc:
        return error_json(exc) if as_json else exc
    return result.to_json() if as_json else result


def decode(raw: bytes | bytearray) -> str:
    """A line of bytes as text; a HandError if it is not UTF-8."""
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HandError(f"hand: not UTF-8 text (byte {exc.start:,})", "hand", bytes(raw[:40])) from None


def as_line(item: Any) -> tuple[bool, Any]:
    """A hand as (True, one line of text) for a worker, or (False, its ``HkcoreError``)."""
    if isinstance(item, str):
        return True, item
    try:
        if isinstance(item, (bytes, bytearray)):
            return True, decode(item)
        if isinstance(item, Hand):
            return True, item.to_json()
        return True, json.dumps(item, ensure_ascii=False)
    except HandError as exc:
        return False, exc
    except (TypeError, ValueError, RecursionError):  # not JSON (or nested too deeply for it): read here,
        try:                                            # as one process would read it
            return True, Hand.parse(item).to_json()
        except HkcoreError as exc:
            return False, exc


def check_jobs(jobs: Any) -> None:
    """``jobs`` must be a whole number 1..256 (an error at once otherwise)."""
    if type(jobs) is not int or not 1 <= jobs <= 256:
        raise HkcoreError(f"jobs: expected a whole number 1..256, got {shown(jobs)}")


def spec(preset: str | Path | Preset, compiled: CompiledPreset) -> tuple[str, str]:
    """How a worker finds the preset: a built-in id, a path, or the resolved TOML."""
    if isinstance(preset, str) and compiled.preset.file == f"{preset}.toml":
        return ("id", preset)
    if isinstance(preset, (str, Path)) and not isinstance(preset, Preset):
        return ("path", str(Path(preset).resolve()))
    return ("toml", export_toml(compiled.preset))


@dataclass(frozen=True)
class Specs:
    """What a worker process needs to compile the caller's presets: each
    preset as ``spec`` gives it, and the plugins the caller gave to
    ``register_plugin`` (name, object)."""

    presets: tuple[tuple[str, str], ...]
    plugins: tuple[tuple[str, Any], ...] = ()


def specs_for(pairs: Iterable[tuple[str | Path | Preset, CompiledPreset]]) -> Specs:
    """The ``Specs`` of (preset as the caller named it, its compiled form) pairs, in this process."""
    return Specs(tuple(spec(p, c) for p, c in pairs), current().extra)


_WORKER: list[CompiledPreset] = []


def worker_presets() -> list[CompiledPreset]:
    """In a worker process of ``in_workers``, the presets it compiled at its start (empty elsewhere)."""
    return _WORKER


def compile_specs(specs: Specs) -> list[CompiledPreset]:
    """The presets ``specs`` describe, compiled. Where this process has the
    caller's plugins (the caller itself, or a forked copy), through
    ``compiled_for``: a built-in id is compiled once for the process's life,
    a path kept in its bounded LRU, TOML text made anew each call. Elsewhere
    against a registry of the caller's plugins built for this call (this
    process's own registry is not changed)."""
    here = current().extra
    if len(here) == len(specs.plugins) and all(a[0] == b[0] and a[1] is b[1] for a, b in zip(here, specs.plugins)):
        return [compiled_for(Preset.from_toml(value) if kind == "toml" else value) for kind, value in specs.presets]
    cat = Registry(specs.plugins).catalogue
    return [CompiledPreset(Preset.from_toml(value, catalogue=cat) if kind == "toml" else read_preset(value, cat), cat)
            for kind, value in specs.presets]


_SHARED: list[Any] = []


def _start_worker(specs: Specs, shared: tuple[Any, ...] = ()) -> None:
    """A worker process compiles its presets once (and keeps what its pool shares, ``shared``)."""
    _WORKER[:] = compile_specs(specs)
    _SHARED[:] = shared


def _work_json(lines: list[str | None], start: int) -> list[str | None]:
    compiled = _WORKER[0]
    return [None if text is None else _one(compiled, text, True) for text in lines]


def _work_objects(lines: list[str | None], start: int) -> list[str | HkcoreError | None]:
    """Results as JSON (read back by the caller), errors as themselves (pickled whole: their
    field, value and ``errors()`` cross the process boundary; read from text, their values are)."""
    compiled = _WORKER[0]
    out: list[str | HkcoreError | None] = []
    for text in lines:
        if text is None:
            out.append(None)
            continue
        try:
            out.append(score_one(compiled, text).to_json())
        except HkcoreError as exc:
            out.append(exc)
    return out


def worker_context() -> Any:
    """How worker processes start: forked from this process when it runs no
    other thread (they begin with its presets compiled), else from a fork
    server (forking a threaded process can copy a held lock), else spawned."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def in_workers(items: Iterator[Any], specs: Specs, jobs: int,
               work: Callable[[list[str | None], int], T]) -> Iterator[tuple[T, dict[int, HkcoreError]]]:
    """``work(chunk, start)`` of each chunk of ``items`` (each item one line of
    text, or None where this process found it unreadable; ``start`` the index
    of its first item), in order, with the errors of the unreadable ones by
    their place in the chunk (kept here: they hold the caller's values). Run
    in ``jobs`` worker processes that compiled ``specs`` (into ``_WORKER``)
    once; at most ``2 * jobs`` chunks in flight, so memory stays flat.
    ``work`` is a module-level function."""
    held: deque[dict[int, HkcoreError]] = deque()

    def chunks() -> Iterator[tuple[list[str | None], int]]:
        start = 0
        while pairs := [as_line(item) for item in islice(items, CHUNK)]:
            held.append({i: line for i, (ok, line) in enumerate(pairs) if not ok})
            yield [line if ok else None for ok, line in pairs], start
            start += len(pairs)

    for result in _in_pool(chunks(), specs, jobs, work):
        yield result, held.popleft()  # chunks are answered in the order they were made


def _in_pool(tasks: Iterator[tuple[Any, ...]], specs: Specs, jobs: int,
             work: Callable[..., T], context: Any = None, shared: tuple[Any, ...] = ()) -> Iterator[T]:
    """``work(*task)`` of each task, in order, in ``jobs`` worker processes
    that compiled ``specs`` once (started by ``context``, ``worker_context()`` if
    None; each keeps ``shared`` in ``_SHARED``); at most ``2 * jobs`` tasks in
    flight."""
    context = context or worker_context()
    if context.get_start_method() != "fork":
        check_picklable(specs.plugins, pickle.dumps)
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker,
                             initargs=(specs, shared)) as pool:
        pending: deque[Future[T]] = deque()
        try:
            while True:
                while len(pending) < 2 * jobs:
                    task = next(tasks, None)
                    if task is None:
                        break
                    pending.append(pool.submit(work, *task))
                if not pending:
                    return
                yield pending.popleft().result()
        except BrokenProcessPool as exc:
            raise HkcoreError(f"jobs: a worker process stopped ({exc})") from None


def check_picklable(plugins: tuple[tuple[str, Any], ...], dumps: Callable[[Any], bytes]) -> None:
    """Each plugin given to ``register_plugin`` can travel to another process with ``dumps``."""
    for name, plugin in plugins:
        try:
            dumps(plugin)
        except Exception as exc:  # noqa: BLE001 - pickle's PicklingError, TypeError, AttributeError...
            raise PluginError(f"plugin {name!r} given to register_plugin cannot be sent to worker processes "
                              f"({type(exc).__name__}: {shown(str(exc))}); define it at the top level of a "
                              "module, install it through the 'hkcore' entry-point group, or use jobs=1") from None


def score_blocks(blocks: Iterable[tuple[int, bytes]], preset: str | Path | Preset = "bga-old-style", *,
                 jobs: int = 1) -> Iterator[tuple[bytes, int, int]]:
    """Score JSON-lines text given in blocks of whole lines, each with the
    number of its first line; yield, per block and in order, (the answers as
    UTF-8 JSON lines, lines read, lines failed). A bad line's answer is its
    error with its line number, ``{"line": n, "error": ...}``; blank lines are
    skipped but counted. A worker process (``jobs`` > 1) takes whole blocks
    and gives back one piece of text each, so the parent does no per-line
    work."""
    check_jobs(jobs)
    compiled = compiled_for(preset)
    if jobs == 1:
        yield from (_score_block(compiled, first, block) for first, block in blocks)
        return
    yield from _in_pool(iter(blocks), specs_for([(preset, compiled)]), jobs, _work_block)


def write_blocks(blocks: Iterable[tuple[int, bytes]], out: BinaryIO,
                 preset: str | Path | Preset = "bga-old-style", *, jobs: int = 1) -> tuple[int, int]:
    """Score JSON-lines text given in blocks of whole lines (as ``score_blocks``
    takes them) and write the answers to ``out`` in input order, the bytes
    ``score_blocks`` gives; return (lines read, lines failed). With ``jobs`` > 1,
    ``out`` a file with a descriptor and workers forked from this process,
    each worker writes its blocks' answers to that descriptor itself, in its
    block's turn, so that they do not pass through this process."""
    check_jobs(jobs)
    compiled = compiled_for(preset)
    context = worker_context() if jobs > 1 else None
    fd = _descriptor(out) if context is not None and context.get_start_method() == "fork" else None
    total = failed = 0
    if fd is None:
        for text, n, bad in score_blocks(blocks, preset, jobs=jobs):
            out.write(text)
            total += n
            failed += bad
        out.flush()
        return total, failed
    out.flush()  # what ``out`` holds goes before the workers' answers
    turns = _Turns(context)
    tasks = ((i, first, block) for i, (first, block) in enumerate(blocks))
    for n, bad in _in_pool(tasks, specs_for([(preset, compiled)]), jobs, _write_block, context, (fd, turns)):
        total += n
        failed += bad
    return total, failed


def _descriptor(out: BinaryIO) -> int | None:
    """The file descriptor under ``out``, or None if it has none."""
    try:
        return out.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and a ValueError
        return None


class _Turns:
    """Whose turn it is to write, shared by a pool's workers: block 0's
    worker first, then block 1's, and so on."""

    def __init__(self, context: Any) -> None:
        self.next = context.Value("q", 0, lock=False)
        self.changed = context.Condition()

    def write(self, index: int, fd: int, data: bytes) -> None:
        """Write ``data`` to ``fd`` in block ``index``'s turn, then pass the
        turn on (also when the write fails: the next blocks' writers must not
        wait for ever)."""
        with self.changed:
            self.changed.wait_for(lambda: self.next.value == index)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                self.next.value = index + 1
                self.changed.notify_all()


def _write_block(index: int, first: int, block: bytes) -> tuple[int, int]:
    fd, turns = _SHARED
    try:
        text, n, bad = _score_block(_WORKER[0], first, block)
    except BaseException:
        turns.write(index, fd, b"")  # the turn passes on; the error reaches the caller in order
        raise
    turns.write(index, fd, text)
    return n, bad


def _score_block(compiled: CompiledPreset, first: int, block: bytes) -> tuple[bytes, int, int]:
    numbered = block_lines(block, first)
    if not numbered:
        return b"", 0, 0
    out = answer_lines(compiled, numbered)
    out.append("")
    return "\n".join(out).encode(), len(numbered), sum(1 for text in out if text.startswith('{"line"'))


def _work_block(first: int, block: bytes) -> tuple[bytes, int, int]:
    return _score_block(_WORKER[0], first, block)


def _from_json(line: str) -> ScoreResult | HkcoreError:
    data = json.loads(line)
    if "error" in data and "preset" not in data:
        cls = _ERRORS.get(data.get("type"), HkcoreError)
        if cls is HandError or cls is TileError:
            return HandError(data["error"], data.get("field"), None) if cls is HandError else TileError(data["error"])
        return cls(data["error"])
    return ScoreResult.model_validate(data)
