"""Subprocess helper for tests/test_embed.py: runs hkcore calls in a fresh
interpreter and prints what they returned as JSON on stdout.

Usage::

    python embed_worker.py calls   SPEC.json              # the calls, one after another
    python embed_worker.py alone   SPEC.json              # each call alone in a forked child
    python embed_worker.py cold    SPEC.json THREADS      # THREADS threads, released together
    python embed_worker.py mutate  SPEC.json              # mutation attempts on loaded presets

SPEC.json holds ``{"calls": [...]}`` (for ``mutate``: ``{"refs": [preset ids or
paths], "hand": a hand to score under each}``).
A call is a dict with an ``op``:

- ``{"op": "score", "hand": ..., "preset": ...}``: ``hkcore.score(hand, preset=preset)``;
- ``{"op": "analyse", "hand": ..., "preset": ..., "visible": ""}``: ``hkcore.analyse``;
- ``{"op": "waits_vs_score", "hand": ..., "preset": ...}``: ``analyse`` of a
  waiting position, and ``score`` of the hand each wait completes, on a
  discard and on a self-draw;
- ``{"op": "reload_plugins"}``: ``hkcore.reload_plugins()``;
- ``{"op": "add_path", "path": ...}``: append a folder to ``sys.path`` (to make
  a plugin distribution visible after start-up).

Each result is ``model_dump(mode="json")`` of what hkcore returned, or
``{"error": "Type: message"}`` when it raised. The core in use is chosen by
the environment (``HKCORE_PURE_PYTHON=1`` forces the pure-Python twin) and is
reported as ``"implementation"``.

Nothing here is imported by the tests: it is only run as a script.
"""
from __future__ import annotations

import dataclasses
import json
import sys
import threading
import traceback
from collections.abc import Mapping
from functools import partial
from typing import Any

import hkcore  # imported before any thread starts: the calls, not the import, race


def _error(exc: BaseException) -> dict[str, str]:
    return {"error": f"{type(exc).__name__}: {exc}"}


def run_call(call: dict[str, Any]) -> Any:
    """One call of the spec; an exception becomes ``{"error": ...}``."""
    op = call["op"]
    try:
        if op == "score":
            return hkcore.score(call["hand"], preset=call["preset"]).model_dump(mode="json")
        if op == "analyse":
            return hkcore.analyse(call["hand"], preset=call["preset"],
                                  visible=call.get("visible", "")).model_dump(mode="json")
        if op == "waits_vs_score":
            analysis = hkcore.analyse(call["hand"], preset=call["preset"])
            position = hkcore.Position.parse(call["hand"])
            scored = {}
            for wait in analysis.waits:
                scored[wait.tile] = {
                    "discard": hkcore.score(position.with_tile(wait.tile, self_draw=False),
                                            preset=call["preset"]).model_dump(mode="json"),
                    "self_draw": hkcore.score(position.with_tile(wait.tile, self_draw=True),
                                              preset=call["preset"]).model_dump(mode="json"),
                }
            return {"analysis": analysis.model_dump(mode="json"), "scored": scored}
        if op == "reload_plugins":
            hkcore.reload_plugins()  # type: ignore[attr-defined]
            return None
        if op == "add_path":
            sys.path.append(call["path"])
            return None
        raise ValueError(f"unknown op {op!r}")
    except Exception as exc:  # noqa: BLE001 - the result of the call, compared by the test
        return _error(exc)


def calls(spec: dict[str, Any]) -> dict[str, Any]:
    """The calls one after another, in the order given."""
    return {"results": [run_call(c) for c in spec["calls"]]}


def alone(spec: dict[str, Any]) -> dict[str, Any]:
    """Each call alone in a fresh process: a child forked from this process,
    which has imported hkcore and made no call (the state of any fresh
    process after ``import hkcore``), so each child's call is its first. A
    child that dies gives ``{"crash": "exit status ..."}``."""
    import os
    import tempfile

    results: list[Any] = []
    for call in spec["calls"]:
        if not hasattr(os, "fork"):  # pragma: no cover - not on Linux CI
            raise SystemExit("mode 'alone' needs os.fork")
        with tempfile.TemporaryFile(mode="w+", encoding="utf-8") as out:
            pid = os.fork()
            if pid == 0:  # the child: one call, then leave at once
                code = 0
                try:
                    json.dump(run_call(call), out)
                    out.flush()
                except BaseException:  # noqa: BLE001
                    code = 3
                os._exit(code)
            _, status = os.waitpid(pid, 0)
            if status != 0:
                results.append({"crash": f"exit status {status}"})
                continue
            out.seek(0)
            results.append(json.load(out))
    return {"results": results}


def cold(spec: dict[str, Any], threads: int) -> dict[str, Any]:
    """``threads`` threads wait on one barrier, then each makes half the calls
    of the spec, thread t starting at call t * n // threads and wrapping
    round, so that the very first hkcore calls of the process are several
    different ones made at the same moment, and every call is made by several
    threads. Results are given per thread, by call index (None: not made by
    that thread)."""
    specs = spec["calls"]
    n = len(specs)
    barrier = threading.Barrier(threads)
    results: list[list[Any]] = [[None] * n for _ in range(threads)]
    crashes: list[str] = []

    def work(t: int) -> None:
        try:
            barrier.wait(timeout=60)
            start = t * n // threads
            for j in range((n + 1) // 2):
                i = (start + j) % n
                results[t][i] = run_call(specs[i])
        except BaseException:  # noqa: BLE001 - reported, never swallowed
            crashes.append(traceback.format_exc())

    pool = [threading.Thread(target=work, args=(t,), name=f"embed-{t}") for t in range(threads)]
    for th in pool:
        th.start()
    for th in pool:
        th.join()
    return {"threads": results, "crashes": crashes}


def _attempt(action: Any, expected: type[BaseException]) -> str | None:
    """None when ``action`` raised ``expected`` (or a subclass); else what happened."""
    try:
        action()
    except expected:
        return None
    except Exception as exc:  # noqa: BLE001 - what the attempt raised is its result
        return f"raised {type(exc).__name__}: {exc}"
    return "succeeded"


def _setitem(mapping: Any, key: Any, value: Any) -> Any:
    def action() -> None:
        mapping[key] = value
    return action


def _delitem(mapping: Any, key: Any) -> Any:
    def action() -> None:
        del mapping[key]
    return action


def snapshot(value: Any) -> Any:
    """A plain deep copy of a preset's data (dicts, lists, scalars), whatever
    the containers the library uses (dataclasses, pydantic models, read-only
    mappings, tuples), for comparing a preset before and after."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: snapshot(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(type(value), "model_fields"):
        return {name: snapshot(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, Mapping):
        return {str(k): snapshot(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [snapshot(v) for v in value]
    return value


def mutate(spec: dict[str, Any]) -> dict[str, Any]:
    """Every mutation a caller might try on a loaded preset, and whether a
    later load (or the same object) still has the rules loaded at first.

    For each ref: ``attempts`` (attribute assignments, which must raise
    AttributeError) and ``item_attempts`` (item assignments and deletions on
    nested mappings, which must raise TypeError) map a description to None
    when the expected error was raised, else to what happened; ``kinds`` reports the types of nested values that
    must be read-only; ``equal_twice`` says two loads are equal;
    ``fresh_equal`` says a load after the attempts equals one before;
    ``unchanged`` says a fresh load and the object itself still hold the data
    they held before the attempts; ``score_unchanged`` compares a score.
    """
    out: dict[str, Any] = {}
    hand = spec["hand"]
    for ref in spec["refs"]:
        p = hkcore.load_preset(ref)
        again = hkcore.load_preset(ref)
        before = snapshot(p)
        score_before = hkcore.score(hand, preset=ref).model_dump(mode="json")
        attempts: dict[str, str] = {}
        items: dict[str, str] = {}
        kinds: dict[str, str] = {}

        attempts["preset.minimum = 0"] = _attempt(partial(setattr, p, "minimum", 0), AttributeError)
        attempts["preset.cap = None"] = _attempt(partial(setattr, p, "cap", None), AttributeError)
        attempts["preset.patterns = ()"] = _attempt(partial(setattr, p, "patterns", ()), AttributeError)
        attempts["preset.new_attribute = 1"] = _attempt(partial(setattr, p, "new_attribute", 1), AttributeError)
        attempts["preset.patterns[0].value = 99"] = _attempt(partial(setattr, p.patterns[0], "value", 99),
                                                             AttributeError)

        items["plugins['liability'] = {}"] = _attempt(_setitem(p.plugins, "liability", {}), TypeError)
        for name, opts in p.plugins.items():
            for key in opts:
                items[f"plugins[{name!r}][{key!r}] = 0"] = _attempt(_setitem(opts, key, 0), TypeError)
        items["claims['swap_rule'] = True"] = _attempt(_setitem(p.claims, "swap_rule", True), TypeError)
        items["del claims['robbing_kong']"] = _attempt(_delitem(p.claims, "robbing_kong"), TypeError)
        items["shape_options['standard'] = {}"] = _attempt(_setitem(p.shape_options, "standard", {}), TypeError)
        for sid, opts in p.shape_options.items():
            for key in opts:
                items[f"shape_options[{sid!r}][{key!r}] = True"] = _attempt(_setitem(opts, key, True), TypeError)
        if p.payments is not None:
            items["payments['scheme'] = 'points'"] = _attempt(_setitem(p.payments, "scheme", "points"), TypeError)
            items["payments['table'] = []"] = _attempt(_setitem(p.payments, "table", []), TypeError)
            for key, value in p.payments.items():
                kinds[f"payments[{key!r}]"] = type(value).__name__
        for rule in p.patterns:
            items[f"patterns[{rule.id!r}].options['x'] = 1"] = _attempt(_setitem(rule.options, "x", 1), TypeError)
            for key in rule.options:
                items[f"patterns[{rule.id!r}].options[{key!r}] = False"] = _attempt(
                    _setitem(rule.options, key, False), TypeError)
            for field in ("includes", "by_count"):
                value = getattr(rule, field)
                if value is not None:
                    kinds[f"patterns[{rule.id!r}].{field}"] = type(value).__name__
        for field in ("shapes", "limit_adds", "patterns", "requires"):
            kinds[field] = type(getattr(p, field)).__name__

        fresh = hkcore.load_preset(ref)
        out[ref] = {
            "attempts": attempts,
            "item_attempts": items,
            "kinds": kinds,
            "equal_twice": again == p,
            "fresh_equal": fresh == again,
            "unchanged": snapshot(fresh) == before and snapshot(p) == before,
            "score_unchanged": hkcore.score(hand, preset=ref).model_dump(mode="json") == score_before,
        }
    return {"presets": out}


def main(argv: list[str]) -> int:
    mode, spec_path = argv[1], argv[2]
    with open(spec_path, encoding="utf-8") as f:
        spec = json.load(f)
    if mode == "calls":
        out = calls(spec)
    elif mode == "alone":
        out = alone(spec)
    elif mode == "cold":
        out = cold(spec, int(argv[3]))
    elif mode == "mutate":
        out = mutate(spec)
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    out["implementation"] = hkcore.core.IMPLEMENTATION
    json.dump(out, sys.stdout, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
