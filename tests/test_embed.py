"""Embedding hkcore in a threaded game server: acceptance tests.

A game server imports hkcore once and calls ``score`` and ``analyse`` from
many threads, under built-in presets, presets loaded from house-rule files
(some with the same ``id``), and ``Preset`` objects it keeps. These tests
hold the library to what that needs (the embedding contract):

- results never depend on threads, timing or the order of earlier calls:
  every answer equals the answer of the same call made alone in a fresh
  process (``tests/embed_worker.py`` runs calls in subprocesses);
- a preset file edited in place is read again (validated by content, not by
  size or modification time); the cache of presets loaded by path is bounded
  (``hkcore.preset.CACHE_SIZE`` entries), so memory stays flat however many
  files are loaded or rewritten; built-in presets stay loaded;
- a loaded ``Preset`` cannot be changed by a caller (attributes, nested
  mappings, lists), so one caller cannot change another's rules;
- ``Hand.model_copy(update=...)`` and ``Hand.model_construct(...)`` give
  validated hands (or raise ``HandError``), never half-built ones;
- ``hkcore.reload_plugins()`` re-reads installed plugins;
- the compiled core and its pure-Python twin (``HKCORE_PURE_PYTHON=1``)
  give identical results, reason strings included, and ``analyse`` counts a
  bonus-tile instant win exactly as ``score`` does.

Expected values are worked by hand from shared/RULES.md and presets/*.toml
(the comments show the sums) or taken from a single-threaded run in a fresh
process; none is copied from the code under test.
"""
from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import threading
import tracemalloc
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

import hkcore

WORKER = Path(__file__).with_name("embed_worker.py")
#: generous: a subprocess normally needs one to a few seconds
TIMEOUT = 180
#: the five built-in presets (RULES.md, "Values by preset")
BUILTINS = ("mistboard", "bga-old-style", "just-cards", "hk-classic", "playingcards-io")

# ---------------------------------------------------------------- presets

#: docs/house-rules.md section 2: BGA for beginners with the seven-pairs shape
#: and pattern (a pattern detected in Python, not by the compiled kernel)
SEVEN_PAIRS_TOML = """\
extends = "bga-old-style"
name = "Club night"
minimum = 0
shapes = ["standard", "thirteen_orphans", "seven_pairs"]
[patterns]
seven_pairs = 4
"""
#: Just Cards with liability options (nested plugin options) and four-as-two-pairs
LIABILITY_TOML = """\
extends = "just-cards"
[shapes.standard]
[shapes.thirteen_orphans]
[shapes.seven_pairs]
four_as_two_pairs = true
[plugins.liability]
wind_set = 3
liable_pays_discard = true
[patterns]
seven_pairs = { value = 4, includes = ["concealed_hand"] }
"""
#: a house rule with the same id in two folders; only the minimum differs
HOUSE_TOML = 'id = "house"\nextends = "mistboard"\nminimum = {minimum}\n'
#: a personal preset with the id of a built-in
PERSONAL_MISTBOARD_TOML = 'id = "mistboard"\nextends = "mistboard"\nminimum = 4\n'

# ---------------------------------------------------------------- hands

#: README / RULES.md example hand (valid under every built-in preset)
EXAMPLE = "234m55z 666z:W 777z:E [1111m] win:5z seat:S from:N"
EXAMPLE_DICT = {
    "tiles": "234m55z",
    "melds": [{"kind": "pung", "tiles": "666z", "from": "W"},
              {"kind": "pung", "tiles": "777z", "from": "E"},
              {"kind": "kong", "tiles": "1111m", "concealed": True}],
    "win_tile": "5z", "seat_wind": "S", "discarder": "N",
}
# South holds 123m 456p 123s 55z with 789s claimed from East.
# mistboard, on West's discard: all_chows 1 + no_bonus 1 = 2 (claimed chow: not
# concealed; the 55z pair scores nothing). Self-drawn: + self_draw 1 = 3.
OPEN_CHOWS_DISCARD = "123m456p123s55z 789s:E seat:S win:1s from:W"
OPEN_CHOWS_SELF_DRAW = "123m456p123s55z 789s:E seat:S win:1s self-draw"
# 123s 345s 567s 99s + 789s claimed, self-drawn 1s, under mistboard:
# all_chows 1 + self_draw 1 + no_bonus 1 + full_flush 7 = 10 (the cap is 10).
FLUSH_SELF_DRAW = "123s345s567s99s 789s:E seat:S win:1s self-draw"
ORPHANS = "119m19p19s1234567z win:1m self-draw"
PAIRS_FLUSH = "22334455667788m win:8m self-draw"
PAIRS = "1133m5577p99s1122z win:2z"
#: with all eight bonus tiles: an error under the 136-tile presets
EIGHT_BONUS_WIN = "123m456p123s55z 789s:E seat:S win:1s from:W flowers:1234 seasons:1234"

# positions (not yet won)
OPEN_CHOWS = "123m456p23s55z 789s:E seat:S"          # waits on 1s and 4s
NINE_GATES = "1112345678999m"                         # waits on 1m..9m
EIGHT_BONUS = "123m456p23s55z 789s:E seat:S flowers:1234 seasons:1234"
SEVEN_BONUS = "123m456p23s55z 789s:E seat:S flowers:123 seasons:1234"
ABOUT_TO_DISCARD = "123m456p9p23s55z 789s:E seat:S"   # 14 - 3: discard 9p to wait
PAIRS_WAIT = "1133m5577p99s112z"                      # seven pairs waiting on 2z
PAIRS_FLUSH_WAIT = "2233445566778m"


def score_call(hand: Any, preset: Any) -> dict[str, Any]:
    return {"op": "score", "hand": hand, "preset": preset}


def analyse_call(hand: Any, preset: Any, visible: str = "") -> dict[str, Any]:
    return {"op": "analyse", "hand": hand, "preset": preset, "visible": visible}


def run_call(call: dict[str, Any]) -> Any:
    """A call in this process, as the worker makes it (an error becomes data)."""
    try:
        if call["op"] == "score":
            return hkcore.score(call["hand"], preset=call["preset"]).model_dump(mode="json")
        return hkcore.analyse(call["hand"], preset=call["preset"],
                              visible=call.get("visible", "")).model_dump(mode="json")
    except Exception as exc:  # noqa: BLE001 - the error is the result the threads' answers are compared by
        return {"error": f"{type(exc).__name__}: {exc}"}


def short(value: Any, width: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= width else text[:width] + "..."


def first_difference(got: Any, want: Any, path: str = "result") -> str:
    """Where two JSON-like values first differ, and how."""
    if isinstance(got, dict) and isinstance(want, dict) and set(got) == set(want):
        for key in [*want, *(k for k in got if k not in want)]:
            if got.get(key, "<missing>") != want.get(key, "<missing>"):
                return first_difference(got.get(key, "<missing>"), want.get(key, "<missing>"), f"{path}.{key}")
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        for i, (a, b) in enumerate(zip(got, want)):
            if a != b:
                return first_difference(a, b, f"{path}[{i}]")
    return f"{path}: {short(got)} instead of {short(want)}"


def describe(call: dict[str, Any]) -> str:
    preset = call.get("preset")
    if isinstance(preset, hkcore.Preset):
        preset = f"<Preset {preset.id}>"
    return f"{call['op']}({call.get('hand')!r}, preset={preset!r})"


# ---------------------------------------------------------------- subprocesses

def worker_env(pure: bool | None) -> dict[str, str]:
    """This process's environment with the core chosen: True forces the
    pure-Python twin, False the default (compiled when built), None as is."""
    env = dict(os.environ)
    env["PYTHONFAULTHANDLER"] = "1"  # a crash prints every thread's stack on stderr
    if pure is not None:
        env.pop("HKCORE_PURE_PYTHON", None)
        if pure:
            env["HKCORE_PURE_PYTHON"] = "1"
    return env


class Worker:
    """tests/embed_worker.py running in a fresh interpreter."""

    _n = 0

    def __init__(self, folder: Path, mode: str, spec: dict[str, Any], *args: str, pure: bool | None = None):
        Worker._n += 1
        self.pure = pure
        self.label = f"{mode} #{Worker._n} ({'pure' if pure else 'default' if pure is False else 'inherited'} core)"
        spec_file = folder / f"spec-{Worker._n}.json"
        spec_file.write_text(json.dumps(spec))
        self.proc = subprocess.Popen(
            [sys.executable, str(WORKER), mode, str(spec_file), *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=worker_env(pure),
            cwd=str(folder),
        )

    def outcome(self) -> tuple[dict[str, Any] | None, str | None]:
        """(its JSON output, None), or (None, what went wrong: a timeout, a
        non-zero exit, a signal, with the end of its stderr)."""
        try:
            out, err = self.proc.communicate(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
            return None, f"{self.label}: no answer within {TIMEOUT} s (deadlock?); stderr:\n{err[-3000:]}"
        code = self.proc.returncode
        if code != 0:
            signal = f" (killed by signal {-code})" if code < 0 else ""
            at = err.find("Current thread")  # faulthandler: the stack of the thread that crashed
            shown = err[at:at + 2000] if at >= 0 else err[-3000:]
            return None, f"{self.label} exited with {code}{signal}; stderr:\n{shown}"
        return json.loads(out), None

    def result(self) -> dict[str, Any]:
        """Its JSON output; fails the test on a timeout, a crash or a signal."""
        out, problem = self.outcome()
        if problem is not None:
            pytest.fail(problem)
        assert out is not None
        return out


def run_workers(workers: list[Worker]) -> list[dict[str, Any]]:
    """The results of workers started together (they run concurrently)."""
    return [w.result() for w in workers]


def check_compiled(implementation: str) -> None:
    """Skip (or fail, when the compiled core is required) a twin comparison
    when the default core is not the compiled one."""
    if implementation != "cython":
        if os.environ.get("HKCORE_REQUIRE_COMPILED", "") == "1":
            pytest.fail(f"the default core is {implementation!r}, not the compiled one")
        pytest.skip(f"compiled core not available (default core is {implementation!r})")


# ---------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def custom(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Custom preset files in a temporary folder, by name -> absolute path."""
    root = tmp_path_factory.mktemp("embed-presets")
    files = {
        "seven_pairs": ("club/club-night.toml", SEVEN_PAIRS_TOML),
        "liability": ("jc/jc-liability.toml", LIABILITY_TOML),
        "house2": ("a/house.toml", HOUSE_TOML.format(minimum=2)),
        "house5": ("b/house.toml", HOUSE_TOML.format(minimum=5)),
        "personal": ("me/mistboard.toml", PERSONAL_MISTBOARD_TOML),
    }
    out = {}
    for name, (rel, text) in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    return out


def cold_calls(custom: dict[str, str]) -> list[dict[str, Any]]:
    """Every kind of first call a server might make: score under every
    built-in preset and custom ones (all with distinct ids: presets sharing
    an id are the subject of test_results_do_not_depend_on_earlier_calls),
    analyse waiting and discarding positions."""
    presets = [*BUILTINS, custom["seven_pairs"], custom["liability"], custom["house2"]]
    hands: list[Any] = [EXAMPLE, EXAMPLE_DICT, OPEN_CHOWS_DISCARD, OPEN_CHOWS_SELF_DRAW, FLUSH_SELF_DRAW,
                        ORPHANS, PAIRS_FLUSH, PAIRS, EIGHT_BONUS_WIN]
    positions = [OPEN_CHOWS, NINE_GATES, EIGHT_BONUS, SEVEN_BONUS, ABOUT_TO_DISCARD, PAIRS_WAIT,
                 PAIRS_FLUSH_WAIT]
    calls = [score_call(h, p) for h in hands for p in presets]
    calls += [analyse_call(pos, p) for pos in positions for p in presets]
    calls += [analyse_call(OPEN_CHOWS, p, visible="1s1s4s") for p in presets]
    # interleave score and analyse, so that threads starting at different
    # offsets begin with different kinds of call under different presets
    random.Random(20240611).shuffle(calls)
    return calls


@pytest.fixture(scope="module")
def references(custom: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[bool, dict[str, Any]]:
    """Single-threaded runs of the cold-start calls in fresh processes, by
    pure (False: default core, True: HKCORE_PURE_PYTHON=1)."""
    folder = tmp_path_factory.mktemp("embed-ref")
    spec = {"calls": cold_calls(custom)}
    runs = run_workers([Worker(folder, "calls", spec, pure=pure) for pure in (False, True)])
    return {False: runs[0], True: runs[1]}


# ============================================================== 1. cold start

COLD_PROCESSES = 4
THREADS = 8


def test_cold_start_threads_agree_with_a_single_threaded_run(
        custom: dict[str, str], references: dict[bool, dict[str, Any]], tmp_path: Path) -> None:
    """Fresh processes (4 per core, both cores), each with 8 threads that
    wait on a barrier and then make the process's first hkcore calls at the
    same moment (each thread making half the list from its own starting point,
    so every call is made by four threads at different times: score under every
    built-in preset and custom ones, including the seven-pairs preset whose
    pattern is detected in Python, and analyse). No process may crash (a
    negative return code is a signal), hang or raise where the single-threaded
    run did not; every thread's every result equals that of a single-threaded
    run in another fresh process with the same core."""
    calls = cold_calls(custom)
    spec = {"calls": calls}
    workers = [Worker(tmp_path, "cold", spec, str(THREADS), pure=pure)
               for pure in (False, True) for _ in range(COLD_PROCESSES)]
    problems = []
    for worker in workers:
        run, problem = worker.outcome()
        if problem is not None:
            problems.append(problem)
            continue
        assert run is not None
        pure = bool(worker.pure)
        expected = references[pure]["results"]
        assert run["implementation"] == references[pure]["implementation"]
        if run["crashes"]:
            problems.append(f"{worker.label}: a thread died:\n" + "\n".join(run["crashes"]))
        for t, results in enumerate(run["threads"]):
            made = 0
            for i, (got, want) in enumerate(zip(results, expected)):
                if got is None:  # not one of this thread's calls
                    continue
                made += 1
                if got != want:
                    problems.append(f"{worker.label}, thread {t}, {describe(calls[i])}: threaded "
                                    f"{first_difference(got, want)} (single-threaded)")
            assert made >= len(calls) // 2, f"{worker.label}, thread {t} made only {made} calls"
    crashed = sum(1 for p in problems if " exited with " in p or "no answer within" in p)
    assert not problems, (f"{crashed} of {len(workers)} processes crashed or hung; {len(problems)} problems; "
                          f"first ones:\n" + "\n".join(problems[:5]))


def test_twin_cores_agree_on_every_cold_start_call(references: dict[bool, dict[str, Any]],
                                                   custom: dict[str, str]) -> None:
    """The compiled core and the pure-Python twin give identical results for
    every call of the cold-start list (single-threaded, fresh processes),
    errors and reason strings included, word for word."""
    check_compiled(references[False]["implementation"])
    assert references[True]["implementation"] == "python"
    calls = cold_calls(custom)
    diffs = [f"{describe(c)}: compiled {first_difference(a, b)} (pure)"
             for c, a, b in zip(calls, references[False]["results"], references[True]["results"]) if a != b]
    assert not diffs, f"{len(diffs)} of {len(calls)} calls differ; first ones:\n" + "\n".join(diffs[:5])


# ============================================================== 2. warm threads

WARM_ROUNDS = 3


def test_warm_threads_agree_with_single_threaded_calls(custom: dict[str, str]) -> None:
    """In this process, with the switch interval at 1 microsecond (so threads
    are interrupted as often as possible), 8 threads make score and analyse
    calls interleaved in a different random order each, under built-in
    presets, custom presets by path, a loaded Preset object and the
    seven-pairs preset, for a bounded number of rounds. Every result equals
    the same call made single-threaded beforehand; no call raises."""
    preset_object = hkcore.load_preset(custom["liability"])
    presets: list[Any] = ["mistboard", "bga-old-style", "playingcards-io", "hk-classic",
                          custom["seven_pairs"], custom["house5"], preset_object]
    calls = [score_call(h, p) for h in (EXAMPLE, OPEN_CHOWS_DISCARD, FLUSH_SELF_DRAW, PAIRS_FLUSH, PAIRS)
             for p in presets]
    calls += [analyse_call(pos, p) for pos in (OPEN_CHOWS, NINE_GATES, PAIRS_WAIT, ABOUT_TO_DISCARD)
              for p in presets]
    calls += [score_call(EIGHT_BONUS_WIN, p) for p in ("mistboard", "bga-old-style", custom["seven_pairs"])]
    calls += [analyse_call(EIGHT_BONUS, p) for p in ("mistboard", "bga-old-style", custom["seven_pairs"])]
    expected = [run_call(c) for c in calls]
    assert not [e for e in expected if "error" in e], "the warm-up calls must all be valid"

    problems: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(THREADS)

    def work(t: int) -> None:
        rng = random.Random(t)
        try:
            barrier.wait(timeout=60)
            for _ in range(WARM_ROUNDS):
                order = list(range(len(calls)))
                rng.shuffle(order)
                for i in order:
                    got = run_call(calls[i])
                    if got != expected[i]:
                        with lock:
                            problems.append(f"thread {t}, {describe(calls[i])}: threaded "
                                            f"{first_difference(got, expected[i])} (single-threaded)")
        except BaseException as exc:  # noqa: BLE001 - a dead thread is a failure
            with lock:
                problems.append(f"thread {t} died: {type(exc).__name__}: {exc}")

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        pool = [threading.Thread(target=work, args=(t,)) for t in range(THREADS)]
        for th in pool:
            th.start()
        for th in pool:
            th.join(timeout=TIMEOUT)
        alive = [th.name for th in pool if th.is_alive()]
    finally:
        sys.setswitchinterval(old)
    assert not alive, f"threads still running after {TIMEOUT} s: {alive}"
    assert not problems, f"{len(problems)} differences or errors; first ones:\n" + "\n".join(problems[:5])


# ============================================================== 3. order independence

#: hand-worked (see OPEN_CHOWS_*): on a discard 2 faan, self-drawn 3, waits 1s and 4s
ORDER_MINIMUM = {"house2": 2, "house5": 5, "personal": 4, "mistboard": 3}


def order_calls(custom: dict[str, str]) -> list[tuple[str, dict[str, Any]]]:
    """(preset name, call) for score on a discard, score on a self-draw and
    analyse of the waiting hand, under four presets: two files with the
    same id "house" (minimum 2 and 5), a personal mistboard.toml (minimum 4)
    and the built-in mistboard (minimum 3)."""
    refs = {"house2": custom["house2"], "house5": custom["house5"], "personal": custom["personal"],
            "mistboard": "mistboard"}
    out = []
    for name, ref in refs.items():
        out += [(name, score_call(OPEN_CHOWS_DISCARD, ref)), (name, score_call(OPEN_CHOWS_SELF_DRAW, ref)),
                (name, analyse_call(OPEN_CHOWS, ref))]
    return out


def check_order_result(name: str, call: dict[str, Any], result: dict[str, Any]) -> None:
    """The hand-worked answer: 2 faan on a discard, 3 self-drawn, winnable
    when at least the preset's minimum."""
    minimum = ORDER_MINIMUM[name]
    assert "error" not in result, result
    assert result["preset"] == ("house" if name.startswith("house") else "mistboard")
    if call["op"] == "score":
        faan = 3 if "self-draw" in call["hand"] else 2
        assert (result["faan"], result["winnable"]) == (faan, faan >= minimum), (name, call, result)
        assert (result["reason"] is None) == (faan >= minimum)
    else:
        waits = {w["tile"]: w for w in result["waits"]}
        assert set(waits) == {"1s", "4s"}
        for w in waits.values():
            assert (w["on_discard"]["faan"], w["on_discard"]["winnable"]) == (2, minimum <= 2), (name, w)
            assert (w["on_self_draw"]["faan"], w["on_self_draw"]["winnable"]) == (3, minimum <= 3), (name, w)
            assert (w["on_discard"]["reason"] is None) == (minimum <= 2), (name, w)


def test_results_do_not_depend_on_earlier_calls(custom: dict[str, str], tmp_path: Path) -> None:
    """Two preset files with the same id in different folders never share
    results, nor does a personal file with a built-in's id share with the
    built-in. Each call is first run alone in a fresh process (all of them
    concurrently) and checked against the hand-worked answer; then the whole
    list runs in this process in three shuffled orders, and every answer must
    equal the one given alone (reason strings included)."""
    calls = order_calls(custom)
    alone_results = Worker(tmp_path, "alone", {"calls": [c for _, c in calls]}).result()["results"]
    for (name, call), result in zip(calls, alone_results):
        check_order_result(name, call, result)
    problems = []
    for seed in (1, 2, 3):
        order = list(range(len(calls)))
        random.Random(seed).shuffle(order)
        for i in order:
            got = run_call(calls[i][1])
            if got != alone_results[i]:
                problems.append(f"order seed {seed}, {calls[i][0]}: {describe(calls[i][1])}: in sequence "
                                f"{first_difference(got, alone_results[i])} (alone)")
    assert not problems, f"{len(problems)} differences; first ones:\n" + "\n".join(problems[:5])


def rewrite_keeping_mtime(path: Path, text: str) -> None:
    """Rewrite ``path`` in place and put its modification time back, as a
    rewrite within the same second looks on a filesystem with 1 s times."""
    st = path.stat()
    assert len(text.encode()) == st.st_size, "the edit must keep the file's size"
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_preset_file_edited_in_place_gives_the_edited_rules(tmp_path: Path) -> None:
    """A preset file rewritten in place between two calls, keeping its size
    and its modification time (minimum 2 -> 5 -> 2), gives the edited rules
    to load_preset, score and analyse (2 faan on a discard, 3 self-drawn)."""
    path = tmp_path / "house.toml"
    text = HOUSE_TOML.replace('"house"', '"edited-house"')  # an id no other test uses
    path.write_text(text.format(minimum=2), encoding="utf-8")
    ref = str(path)

    def state() -> tuple[Any, ...]:
        d = hkcore.score(OPEN_CHOWS_DISCARD, preset=ref)
        s = hkcore.score(OPEN_CHOWS_SELF_DRAW, preset=ref)
        a = {w.tile: w for w in hkcore.analyse(OPEN_CHOWS, preset=ref).waits}
        return (hkcore.load_preset(ref).minimum, d.faan, d.winnable, s.faan, s.winnable,
                a["1s"].on_discard.winnable, a["1s"].on_self_draw.winnable)

    assert state() == (2, 2, True, 3, True, True, True)
    rewrite_keeping_mtime(path, text.format(minimum=5))
    assert state() == (5, 2, False, 3, False, False, False)
    rewrite_keeping_mtime(path, text.format(minimum=2))
    assert state() == (2, 2, True, 3, True, True, True)


# ============================================================== 4. memory

#: rewrites of one preset file; the issue's 10,000 is the longer local run:
#: HKCORE_EMBED_REWRITES=10000 pytest tests/test_embed.py -k memory
REWRITES = int(os.environ.get("HKCORE_EMBED_REWRITES", "2000"))
#: tracemalloc slows loading about fivefold: only the last rewrites are traced
TRACED_REWRITES = min(REWRITES, int(os.environ.get("HKCORE_EMBED_TRACED", "200")))
#: net growth allowed over a traced stretch of loads (bytes)
FLAT = 100_000


def test_cache_size_is_a_public_int() -> None:
    """``hkcore.preset.CACHE_SIZE`` says how many presets loaded by path the
    bounded cache keeps."""
    size = getattr(hkcore.preset, "CACHE_SIZE", None)
    assert isinstance(size, int) and not isinstance(size, bool) and size >= 1, size


def _held() -> int:
    """Memory traced now, less the pure core's own bounded memo tables (functools
    caches of suit decompositions, filled by whatever hands came before)."""
    from hkcore.core import _pycore

    for value in vars(_pycore).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@pytest.mark.slow
def test_memory_stays_flat_past_the_cache_bound(tmp_path: Path) -> None:
    """Load 3 x CACHE_SIZE distinct preset files (each extends a built-in, with
    its own name and a minimum from 0 to 10), scoring and analysing under each; then rewrite one file
    REWRITES times (same size), loading and scoring after each rewrite.

    With tracemalloc (traced from the CACHE_SIZE-th file, so that by the
    2 x CACHE_SIZE-th the cache holds only traced entries): the memory held
    must not grow by more than FLAT bytes over the last CACHE_SIZE distinct
    files, nor over the second half of the traced rewrites. Also: the first preset loaded is released once more than
    CACHE_SIZE newer ones are loaded (when Preset objects can be weakly
    referenced), built-in presets stay loaded, and every rewrite is seen
    (2 faan on a discard: winnable exactly when the minimum is 2 or less).
    """
    if os.environ.get("HKCORE_MEMORY_CHILD") != "1":
        # measured in a process that has done nothing else: what earlier tests left behind (a plugin registry
        # they replaced, garbage freed later) is not this test's to count
        env = dict(os.environ, HKCORE_MEMORY_CHILD="1")
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
                               f"{__file__}::test_memory_stays_flat_past_the_cache_bound"],
                              capture_output=True, text=True, env=env, timeout=600, cwd=Path(__file__).parent)
        assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
        return
    size = getattr(hkcore.preset, "CACHE_SIZE", 64)
    builtin = hkcore.load_preset("mistboard")
    files = []
    # The pure core needs longer to settle (more Python objects per compiled preset, and windows of
    # CACHE_SIZE files differ in their mix of base presets by more than under the compiled core):
    # under it, warm up on 5 windows and measure over 4; the allowance stays the same.
    warm, span = (1, 1) if hkcore.core.IMPLEMENTATION == "cython" else (5, 4)
    for i in range((warm + 1 + span) * size):
        path = tmp_path / f"p{i:04d}.toml"
        minimum = i % 11  # at most every built-in cap (10)
        path.write_text(f'extends = "{BUILTINS[i % 5]}"\nname = "file {i:04d}"\nminimum = {minimum}\n',
                        encoding="utf-8")
        files.append((minimum, str(path)))

    wrong: list[str] = []

    def use(minimum: int, ref: str) -> None:
        r = hkcore.score(OPEN_CHOWS_DISCARD, preset=ref)
        if r.winnable != (r.faan >= minimum):
            wrong.append(f"{ref}: {r.faan} faan, winnable {r.winnable}, minimum {minimum}")
        hkcore.analyse(OPEN_CHOWS, preset=ref)

    first = hkcore.load_preset(files[0][1])
    try:
        first_ref: Any = weakref.ref(first)
    except TypeError:
        first_ref = None
    del first
    # trace from the start: memory allocated before tracing and replaced later would count as growth
    tracemalloc.start()
    try:
        for minimum, ref in files[:warm * size]:
            use(minimum, ref)
        gc.collect()
        # the next CACHE_SIZE files fill the cache with traced entries; from
        # then on each new entry replaces a traced one: the memory held is flat
        for minimum, ref in files[warm * size:(warm + 1) * size]:
            use(minimum, ref)
        gc.collect()
        distinct_start = _held()
        for minimum, ref in files[(warm + 1) * size:]:
            use(minimum, ref)
        gc.collect()
        distinct_growth = _held() - distinct_start
    finally:
        tracemalloc.stop()

    path = tmp_path / "rewritten.toml"
    ref = str(path)
    stale = 0
    marks: dict[str, int] = {}
    traced_from = REWRITES - TRACED_REWRITES
    tracemalloc.start()  # from the first rewrite: what was made before tracing and replaced would look like growth
    try:
        for k in range(REWRITES):
            if k == traced_from + TRACED_REWRITES // 2:
                gc.collect()
                marks["half"] = _held()
            minimum = k % 10
            path.write_text(f'extends = "mistboard"\nminimum = {minimum}\n', encoding="utf-8")
            r = hkcore.score(OPEN_CHOWS_DISCARD, preset=ref)
            stale += r.winnable != (minimum <= 2)
        gc.collect()
        marks["end"] = _held()
    finally:
        tracemalloc.stop()
    rewrite_growth = marks["end"] - marks["half"]

    assert distinct_growth < FLAT, (
        f"memory grew by {distinct_growth} bytes over the last {span * size} distinct preset files "
        f"(cache size {size}): the cache of presets (or something built per preset) is not bounded")
    assert rewrite_growth < FLAT, (
        f"memory grew by {rewrite_growth} bytes over the last {TRACED_REWRITES // 2} rewrites of one file")
    if first_ref is not None:
        gc.collect()
        assert first_ref() is None, f"the first of {len(files)} presets loaded is still held (cache size {size})"
    assert hkcore.load_preset("mistboard") is builtin, "a built-in preset was dropped"
    assert not wrong, wrong[:5]
    assert stale == 0, f"{stale} of {REWRITES} rewrites were not seen by score"


# ============================================================== 5. immutability

def test_loaded_presets_cannot_be_changed(custom: dict[str, str], tmp_path: Path) -> None:
    """Every mutation a caller might attempt on a loaded preset fails: setting
    an attribute (AttributeError or a subclass), assigning or deleting an item
    of a nested mapping (plugins and their options, payments, claims,
    shape_options and their options, each pattern's options: TypeError); lists
    are tuples. Loading the same preset twice gives equal presets, and after
    the attempts a fresh load (and the object itself) still holds the rules
    loaded at first and scores the same. The attempts run in a subprocess, so
    that a mutation that succeeds on today's code cannot leak into the other
    tests."""
    refs = [*BUILTINS, custom["seven_pairs"], custom["liability"]]
    run = Worker(tmp_path, "mutate", {"refs": refs, "hand": OPEN_CHOWS_DISCARD}).result()
    problems = []
    for ref in refs:
        report = run["presets"][ref]
        for what, outcome in {**report["attempts"], **report["item_attempts"]}.items():
            if outcome is not None:
                problems.append(f"{ref}: {what}: {outcome}")
        for what, kind in report["kinds"].items():
            if kind in ("list", "dict", "set"):
                problems.append(f"{ref}: {what} is a {kind}")
        for check in ("equal_twice", "fresh_equal", "unchanged", "score_unchanged"):
            if not report[check]:
                problems.append(f"{ref}: {check} is false")
    assert not problems, f"{len(problems)} problems; first ones:\n" + "\n".join(problems[:12])

    # reading is harmless in this process
    jc = hkcore.load_preset("just-cards")
    assert jc == hkcore.load_preset("just-cards")
    assert isinstance(jc.payments, Mapping) and isinstance(jc.payments["table"], tuple)
    assert jc.payments["table"] == (16, 32, 48, 64, 96, 128, 192, 256)  # presets/just-cards.toml
    assert isinstance(jc.plugins["liability"], Mapping)


# ============================================================== 6. model_copy / model_construct

def pattern_values(result: hkcore.ScoreResult) -> dict[str, int]:
    return {p.id: p.faan for p in result.patterns}


def test_model_copy_revalidates_the_hand() -> None:
    """``Hand.model_copy(update=...)`` gives a fully validated hand that
    scores as the new hand: OPEN_CHOWS_SELF_DRAW is 3 under mistboard
    (all_chows 1 + self_draw 1 + no_bonus 1); with the concealed tiles
    changed to 123s 345s 567s 99s (won on 1s) it is 10 (+ full_flush 7). An
    update that makes a bad hand raises HandError."""
    hand = hkcore.Hand.parse(OPEN_CHOWS_SELF_DRAW)
    r = hkcore.score(hand, preset="mistboard")
    assert (r.faan, pattern_values(r)) == (3, {"all_chows": 1, "self_draw": 1, "no_bonus": 1})

    flush = hand.model_copy(update={"tiles": "99s567s345s123s", "win_tile": "1s"})
    r = hkcore.score(flush, preset="mistboard")
    assert (r.faan, pattern_values(r)) == (10, {"all_chows": 1, "self_draw": 1, "no_bonus": 1, "full_flush": 7})
    assert r.model_dump() == hkcore.score(FLUSH_SELF_DRAW, preset="mistboard").model_dump()
    assert flush.tiles == "12334556799s"  # validated: the canonical form (RULES.md, Notation)
    # the original is untouched
    assert hkcore.score(hand, preset="mistboard").faan == 3

    bad_updates = [
        {"win_tile": "9m"},                                   # not among the concealed tiles
        {"tiles": "123s345s567s9s", "win_tile": "1s"},        # 13 tiles with the chow
        {"tiles": "123m456p123s55x"},                         # not a tile
        {"discarder": "N"},                                   # a discarder on a self-drawn win
        {"kong_replacement": 3},                              # 0, 1 or 2
        {"tiles": "123m456p123s55z", "win_tile": "1s",
         "melds": [{"kind": "kong", "tiles": "1111m", "concealed": True}]},   # a fifth 1m
    ]
    for update in bad_updates:
        with pytest.raises(hkcore.HandError):
            hand.model_copy(update=update)


def test_model_construct_validates() -> None:
    """``Hand.model_construct(**values)`` validates like ``Hand.parse``: bad
    values raise HandError, good ones give a hand that scores exactly like the
    parsed one (10 under mistboard, see test_model_copy_revalidates_the_hand)."""
    good = {"tiles": "123s345s567s99s", "melds": [{"kind": "chow", "tiles": "789s", "from": "E"}],
            "win_tile": "1s", "self_draw": True, "seat_wind": "S"}
    built = hkcore.Hand.model_construct(**good)
    parsed = hkcore.Hand.parse(good)
    r = hkcore.score(built, preset="mistboard")
    assert r.faan == 10
    assert r.model_dump() == hkcore.score(parsed, preset="mistboard").model_dump()
    assert built.tiles == parsed.tiles == "12334556799s"
    assert hkcore.analyse(hkcore.Position.parse(built), preset="mistboard").model_dump() == \
        hkcore.analyse(hkcore.Position.parse(parsed), preset="mistboard").model_dump()

    bad = [
        {**good, "tiles": "123s345s567s9s"},                  # 13 tiles with the chow
        {**good, "win_tile": "9m"},                           # not among the concealed tiles
        {"tiles": "123s345s567s99s789s"},                     # no winning tile and no bonus instant win
        {**good, "seat_wind": "X"},                           # not a seat
        {**good, "melds": [{"kind": "pung", "tiles": "789s"}]},   # a chow called a pung
        {**good, "flowers": [1, 1]},                          # one copy of each bonus tile
    ]
    for values in bad:
        with pytest.raises(hkcore.HandError):
            hkcore.Hand.model_construct(**values)


# ============================================================== plugins

GREEN_PLUGIN = '''\
"""All Green (docs/house-rules.md section 5), installed after start-up."""
from hkcore.hookspecs import hookimpl
from hkcore.patterns import Pattern

GREEN = sum(1 << t for t in (19, 20, 21, 23, 25, 32))   # 2 3 4 6 8 bamboo, green dragon


def all_green(s, options):
    return int(not s.kinds & ~GREEN)


@hookimpl
def hkcore_patterns():
    return [Pattern("all_green", "All Green", "綠一色", all_green, scope="hand")]
'''


def test_reload_plugins_reads_newly_installed_plugins(tmp_path: Path) -> None:
    """``hkcore.reload_plugins()`` is public and re-reads installed plugins:
    in a fresh process that has already scored, a preset naming all_green
    fails to load (no plugin provides it); a plugin distribution providing it
    becomes visible on sys.path; after reload_plugins the same preset scores
    it. 223344s 666s 888s 66z self-drawn under hk-classic + all_green limit
    13: limit 13 + self_draw 1 (hk-classic's limit_adds) = 14, capped at 13.
    Scoring under the seven-pairs preset gives the same before and after."""
    assert callable(getattr(hkcore, "reload_plugins", None)), "hkcore.reload_plugins does not exist"
    site = tmp_path / "site"
    (site / "hkcore_embed_green").mkdir(parents=True)
    (site / "hkcore_embed_green" / "__init__.py").write_text(GREEN_PLUGIN, encoding="utf-8")
    dist = site / "hkcore_embed_green-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: hkcore-embed-green\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[hkcore]\nall_green = hkcore_embed_green\n")
    green = tmp_path / "green.toml"
    green.write_text('extends = "hk-classic"\n[patterns]\nall_green = { limit = 13 }\n', encoding="utf-8")
    pairs = tmp_path / "pairs.toml"
    pairs.write_text(SEVEN_PAIRS_TOML, encoding="utf-8")
    hand = "223344s666s888s66z win:8s self-draw"
    calls = [score_call(PAIRS_FLUSH, str(pairs)), score_call(hand, str(green)),
             {"op": "add_path", "path": str(site)}, {"op": "reload_plugins"},
             score_call(hand, str(green)), score_call(PAIRS_FLUSH, str(pairs))]
    results = Worker(tmp_path, "calls", {"calls": calls}).result()["results"]
    before_pairs, before, _, reloaded, after, after_pairs = results
    assert "error" in before and "all_green" in before["error"], before
    assert reloaded is None, reloaded
    assert "error" not in after, after
    assert (after["faan"], after["limit"]) == (13, True)
    assert {p["id"]: p["faan"] for p in after["patterns"]} == {"all_green": 13, "self_draw": 1}
    assert after_pairs == before_pairs and before_pairs["faan"] == 13   # docs/house-rules.md section 2


# ============================================================== 7. twins and the bonus instant win

def twin_calls(custom: dict[str, str]) -> list[dict[str, Any]]:
    def both(hand: str, preset: str) -> dict[str, Any]:
        return {"op": "waits_vs_score", "hand": hand, "preset": preset}
    return [
        both(EIGHT_BONUS, "bga-old-style"),
        both(EIGHT_BONUS, "mistboard"),
        both(SEVEN_BONUS, "bga-old-style"),
        both(OPEN_CHOWS, "mistboard"),
        both(NINE_GATES, "hk-classic"),
        both(PAIRS_WAIT, custom["seven_pairs"]),
        analyse_call(ABOUT_TO_DISCARD, "mistboard"),
        analyse_call(OPEN_CHOWS, "mistboard", visible="1s4s4s"),
        analyse_call(PAIRS_FLUSH_WAIT, custom["seven_pairs"]),
    ]


#: hand-worked wait values (on a discard, on a self-draw) for every wait
BONUS_EXPECTED = {
    # bga-old-style, all eight bonus tiles: eight_bonus is a limit of 13 (alone,
    # wins below the minimum); the standard reading (all_chows 1 + flower_set 2
    # + season_set 2 = 5, 6 self-drawn) is lower; the better stands (ruling 8).
    (EIGHT_BONUS, "bga-old-style"): (13, 13),
    # mistboard: eight_bonus 8 scored alone; standard 5 (6 self-drawn).
    (EIGHT_BONUS, "mistboard"): (8, 8),
    # bga-old-style, flowers 1-3 and all seasons, South (seat 2): seven_bonus 3 +
    # season_set 2 + seat_flower 1 = 6, paid as a self-draw without the self-draw
    # faan; standard: all_chows 1 + season_set 2 + seat_flower 1 = 4 (5 self-drawn).
    (SEVEN_BONUS, "bga-old-style"): (6, 6),
    # mistboard, no bonus tiles: 2 on a discard (cannot win, needs 3), 3 self-drawn
    (OPEN_CHOWS, "mistboard"): (2, 3),
}


@pytest.fixture(scope="module")
def twin_runs(custom: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[bool, dict[str, Any]]:
    """twin_calls run in a fresh process per core, by pure."""
    folder = tmp_path_factory.mktemp("embed-twins")
    runs = run_workers([Worker(folder, "calls", {"calls": twin_calls(custom)}, pure=pure) for pure in (False, True)])
    return {False: runs[0], True: runs[1]}


@pytest.mark.parametrize("pure", [False, True], ids=["default-core", "pure-core"])
def test_analyse_counts_a_bonus_instant_win_as_score_does(
        pure: bool, twin_runs: dict[bool, dict[str, Any]], custom: dict[str, str]) -> None:
    """In each core: every wait's value in ``analyse`` (faan, winnable) equals
    ``score`` of the hand that wait completes, on a discard and self-drawn,
    for positions holding seven or eight bonus tiles (a bonus-tile instant
    win), a complete-but-unwinnable wait, nine gates and a seven-pairs wait;
    and the bonus positions give the hand-worked values."""
    run = twin_runs[pure]
    if pure:
        assert run["implementation"] == "python"
    problems = []
    for call, result in zip(twin_calls(custom), run["results"]):
        if call["op"] != "waits_vs_score":
            continue
        assert "error" not in result, (call, result)
        waits = result["analysis"]["waits"]
        assert waits and set(result["scored"]) == {w["tile"] for w in waits}
        for w in waits:
            scored = result["scored"][w["tile"]]
            for key, how in (("on_discard", "discard"), ("on_self_draw", "self_draw")):
                a = (w[key]["faan"], w[key]["winnable"])
                s = (scored[how]["faan"], scored[how]["winnable"])
                if a != s:
                    problems.append(f"{describe(call)}, {w['tile']} {how}: analyse {a}, score {s}")
            want = BONUS_EXPECTED.get((call["hand"], call["preset"]))
            if want is not None:
                got = (w["on_discard"]["faan"], w["on_self_draw"]["faan"])
                if got != want:
                    problems.append(f"{describe(call)}, {w['tile']}: analyse gives {got}, worked by hand {want}")
    assert not problems, "\n".join(problems)


def test_twin_cores_analyse_identically(twin_runs: dict[bool, dict[str, Any]], custom: dict[str, str]) -> None:
    """The compiled and the pure-Python core give identical analyse (and
    score) results for the same positions, reason strings word for word:
    among them OPEN_CHOWS under mistboard, whose waits are complete but not
    winnable on a discard (2 faan, mistboard needs 3)."""
    check_compiled(twin_runs[False]["implementation"])
    assert twin_runs[True]["implementation"] == "python"
    diffs = []
    for call, compiled, pure in zip(twin_calls(custom), twin_runs[False]["results"], twin_runs[True]["results"]):
        if compiled != pure:
            diffs.append(f"{describe(call)}: compiled {first_difference(compiled, pure)} (pure)")
    # the reason for the unwinnable wait is given (its wording is the twins' to agree on)
    chows = twin_runs[True]["results"][3]["analysis"]["waits"][0]["on_discard"]
    assert (chows["faan"], chows["winnable"]) == (2, False) and chows["reason"], chows
    assert not diffs, "\n".join(diffs)
