"""Shared helpers of the bench scripts: hand generators, timing, machine
description and the owned-section update of ``bench/RESULTS.md``.

Nothing here imports hkcore but ``hkcore.sample`` (the hand generator, which
loads no other part of hkcore), so every bench script can load the library
its own way (and refuse a pure-Python build) before using these helpers.
"""
from __future__ import annotations

import gc
import os
import platform
import re
import resource
import statistics
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from importlib import metadata
from itertools import repeat
from pathlib import Path
from random import Random
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent

# --------------------------------------------------------------------------
# Tiles, in the index order shared by hkcore, mahjong (tiles_34) and
# xiangting (bingpai): 0..8 = 1m..9m, 9..17 = 1p..9p, 18..26 = 1s..9s,
# 27..33 = 1z..7z.

try:  # the hand generator is hkcore's own (hkcore.sample imports nothing else of hkcore at import)
    from hkcore.sample import CHOW_STARTS, ORPHAN_TILES, CompleteHand, canonical, random_complete_sets
except ImportError:  # a source tree that was not installed
    sys.path.insert(0, str(REPO_ROOT))
    from hkcore.sample import CHOW_STARTS, ORPHAN_TILES, CompleteHand, canonical, random_complete_sets

__all__ = ["CHOW_STARTS", "ORPHAN_TILES", "CompleteHand", "canonical", "random_complete_sets"]


def random_complete(rng: Random, orphans_share: float = 0.01, chow_share: float = 0.5) -> list[int]:
    """34 counts of a random complete concealed 14-tile hand.

    With probability ``orphans_share`` a thirteen-orphans hand (random
    duplicated orphan); otherwise four random sets (a chow with probability
    ``chow_share``, else a pung, tiles uniform) and a random pair, redrawn
    until no tile is used more than 4 times.
    """
    return random_complete_sets(rng, orphans_share, chow_share).counts


def is_thirteen_orphans_shape(counts: Sequence[int]) -> bool:
    """A thirteen-orphans hand or one tile short of it (13- or 14-tile counts).

    Every tile held is an orphan, at least 12 different orphans are held and
    none more than twice.
    """
    held = sum(counts)
    orphans = [counts[t] for t in ORPHAN_TILES]
    return (
        sum(orphans) == held
        and held in (13, 14)
        and max(orphans) <= 2
        and sum(1 for c in orphans if c) >= 12
    )


def random_waiting(rng: Random, orphans_share: float = 0.01) -> list[int]:
    """34 counts of a random waiting 13-tile hand: a complete hand less one tile."""
    counts = random_complete(rng, orphans_share)
    held = [t for t in range(34) for _ in range(counts[t])]
    counts[rng.choice(held)] -= 1
    return counts


def add_random_tile(rng: Random, counts: Sequence[int]) -> list[int]:
    """A copy of ``counts`` plus one random tile that has a free copy."""
    out = list(counts)
    out[rng.choice([t for t in range(34) if out[t] < 4])] += 1
    return out


def random_deal(rng: Random, size: int = 13) -> list[int]:
    """34 counts of ``size`` tiles dealt from a shuffled 136-tile wall."""
    counts = [0] * 34
    for t in rng.sample(range(136), size):
        counts[t >> 2] += 1
    return counts


def distinct_batches(
    make: Callable[[Random], list[int]],
    rng: Random,
    sizes: Sequence[int],
    may_repeat: Callable[[list[int]], bool] = lambda c: False,
) -> tuple[list[list[list[int]]], list[int]]:
    """Batches of hands, all distinct across every batch.

    ``make(rng)`` draws one hand; a hand already drawn is drawn again,
    except hands for which ``may_repeat`` is true (there are only 13
    thirteen-orphans hands, so those cannot all be distinct). Returns the
    batches and, per batch, how many of its hands repeat an earlier one.
    """
    seen: set[bytes] = set()
    repeats = []
    batches = []
    for size in sizes:
        batch = []
        rep = 0
        while len(batch) < size:
            hand = make(rng)
            key = bytes(hand)
            if key in seen:
                if not may_repeat(hand):
                    continue
                rep += 1
            seen.add(key)
            batch.append(hand)
        batches.append(batch)
        repeats.append(rep)
    return batches, repeats


# --------------------------------------------------------------------------
# Timing


def time_calls(fn: Callable[..., Any], inputs: Sequence[Any], *consts: Any) -> float:
    """Nanoseconds per call of ``fn(x, *consts)`` over ``inputs``, one pass.

    The calls run from C (``deque(map(...), maxlen=0)``), so the harness adds
    only iteration and call dispatch, the same for every function timed; the
    results are discarded. The garbage collector is off during the pass.
    """
    it = map(fn, inputs, *(repeat(c) for c in consts)) if consts else map(fn, inputs)
    gc.collect()
    gc.disable()
    try:
        t0 = time.perf_counter_ns()
        deque(it, maxlen=0)
        t1 = time.perf_counter_ns()
    finally:
        gc.enable()
    return (t1 - t0) / len(inputs)


def time_pass(it: Iterable[Any], n: int) -> tuple[float, float]:
    """Wall-clock and process-CPU nanoseconds per call of one pass over ``it``.

    ``it`` is a lazy iterator of calls (``map(fn, inputs)``,
    ``itertools.starmap(fn, arg_tuples)``), consumed from C as in
    ``time_calls``; ``n`` is the number of calls. The garbage collector is
    off during the pass. The CPU time (``time.process_time_ns``) leaves out
    the time the process waited for a CPU, so on a busy machine it stays
    close to the idle-machine wall time while the wall time grows.
    """
    gc.collect()
    gc.disable()
    try:
        c0 = time.process_time_ns()
        t0 = time.perf_counter_ns()
        deque(it, maxlen=0)
        t1 = time.perf_counter_ns()
        c1 = time.process_time_ns()
    finally:
        gc.enable()
    return (t1 - t0) / n, (c1 - c0) / n


def summary(per_call_us: Sequence[float]) -> dict[str, float]:
    return {
        "median": statistics.median(per_call_us),
        "min": min(per_call_us),
        "max": max(per_call_us),
    }


def fmt_us(us: float | None) -> str:
    """A per-call time in µs with 3 significant digits."""
    if us is None:
        return "—"
    if us >= 100:
        return f"{us:,.0f}"
    if us >= 10:
        return f"{us:.1f}"
    if us >= 1:
        return f"{us:.2f}"
    return f"{us:.3f}"


def fmt_ratio(hk_us: float, peer_us: float) -> str:
    """peer / hkcore as "×N faster" (or "×N slower" when hkcore is slower)."""
    r = peer_us / hk_us
    if r >= 1:
        return f"×{r:.3g} faster"
    return f"×{1 / r:.3g} slower"


# --------------------------------------------------------------------------
# Caches


def hkcore_caches(exclude: Iterable[str] = ()) -> list[tuple[str, Any]]:
    """functools caches (anything with ``cache_clear``) in loaded hkcore modules.

    Scans ``sys.modules`` (it imports nothing): module-level functions and
    methods of module-level classes defined in an ``hkcore*`` module. Returns
    (dotted name, object) pairs, leaving out the dotted names in ``exclude``.
    """
    skip = set(exclude)
    found = []
    for modname, mod in list(sys.modules.items()):
        if not modname.startswith("hkcore") or mod is None:
            continue
        for name, value in list(vars(mod).items()):
            if getattr(value, "__module__", None) != modname:
                continue
            if callable(getattr(value, "cache_clear", None)):
                found.append((f"{modname}.{name}", value))
            elif isinstance(value, type):
                for attr in vars(value):
                    member = getattr(value, attr, None)
                    if callable(getattr(member, "cache_clear", None)):
                        found.append((f"{modname}.{name}.{attr}", member))
    return [(n, v) for n, v in found if n not in skip]


# --------------------------------------------------------------------------
# Machine and package description


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_revision() -> str:
    """The checked-out commit (read-only query), or a note why there is none."""
    try:
        out = subprocess.run(
            ["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if out.returncode != 0:
        return "no commit"
    rev = out.stdout.strip()
    dirty = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=no"],
        capture_output=True, text=True, timeout=10,
    )
    return rev + ("+dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")


def machine_info(packages: Iterable[str] = ()) -> dict[str, Any]:
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "cpu": cpu_model(),
        "nproc": nproc,
        "loadavg_at_start": load,
        "python": sys.version.split()[0],
        "python_full": sys.version.replace("\n", " "),
        "python_implementation": platform.python_implementation(),
        "packages": {name: package_version(name) for name in packages},
        "git": git_revision(),
    }


# --------------------------------------------------------------------------
# RESULTS.md: each bench script owns one section between markers.

RESULTS_HEADER = ("# hkcore benchmark results\n\n"
                  "Each section is written by one script in `bench/`; see `bench/README.md`.\n")


def replace_section(path: Path, name: str, body: str) -> None:
    """Write ``body`` between ``<!-- name:start -->`` and ``<!-- name:end -->``.

    Creates the file if missing; appends the section if absent; leaves the
    rest of the file untouched.
    """
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    block = f"{start}\n{body.rstrip()}\n{end}"
    text = path.read_text(encoding="utf-8") if path.exists() else RESULTS_HEADER
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _m: block, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    os.replace(tmp, path)


# --------------------------------------------------------------------------
# Other benchmarks running on the machine


def _ancestors() -> set[int]:
    """This process and its ancestors (a shell that started it names the script too)."""
    pids = set()
    pid = os.getpid()
    while pid > 1 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
                pid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def other_bench_processes() -> list[str]:
    """``pid command`` of the Python processes running a ``bench_*.py`` script, this one excepted.

    Found with ``pgrep -af bench_`` (an empty list where pgrep is missing);
    only processes whose program is a Python interpreter count, so the
    shells and tools that merely mention a script name are left out.
    """
    try:
        out = subprocess.run(["pgrep", "-af", "bench_"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return []
    mine = _ancestors()
    found = []
    for line in out.stdout.splitlines():
        pid_text, _, cmd = line.partition(" ")
        try:
            pid = int(pid_text)
        except ValueError:
            continue
        argv = cmd.split()
        if pid in mine or not argv or not os.path.basename(argv[0]).startswith("python"):
            continue
        if any(re.search(r"bench_\w*\.py$", a) for a in argv[1:]):
            found.append(f"{pid} {cmd}")
    return found


def wait_for_other_bench(timeout_s: float, log: Callable[[str], None], poll_s: float = 15.0) -> float:
    """Wait until no other ``bench_*.py`` runs (see ``other_bench_processes``), at most ``timeout_s``.

    Returns the seconds waited. Timing while another benchmark runs on a
    2-CPU machine disturbs both, so the bench scripts call this before timing.
    """
    t0 = time.monotonic()
    others = other_bench_processes()
    if others:
        log(f"waiting for other benchmarks to end: {'; '.join(others)}")
    while others and time.monotonic() - t0 < timeout_s:
        time.sleep(poll_s)
        others = other_bench_processes()
    if others:
        log(f"still running after {timeout_s:.0f} s, timing anyway: {'; '.join(others)}")
    return time.monotonic() - t0


# --------------------------------------------------------------------------
# Shared plumbing of the three scripts


def log(msg: str) -> None:
    """Progress on stderr (stdout carries the section)."""
    print(msg, file=sys.stderr, flush=True)


def hkcore_meta(hkcore: Any, core: Any) -> dict[str, Any]:
    """Which hkcore and which core implementation a run measured."""
    impl_module = getattr(core, "_impl", None)
    return {
        "implementation": core.IMPLEMENTATION,
        "version": getattr(hkcore, "__version__", "unknown"),
        "hkcore_path": str(Path(getattr(hkcore, "__file__", None) or next(iter(hkcore.__path__))).resolve().parent),
        "impl_file": getattr(impl_module, "__file__", None),
    }


def publish(out: Path | None, section_name: str, section: str, raw: dict[str, Any], json_name: str) -> None:
    """Print the section; unless ``out`` is None, also replace it in
    ``out``/RESULTS.md and write the raw numbers to ``out``/``json_name``."""
    import json

    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        replace_section(out / "RESULTS.md", section_name, section)
        (out / json_name).write_text(json.dumps(raw, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        log(f"wrote {out / 'RESULTS.md'} (section {section_name!r}) and {out / json_name}")
    print(section)


# --------------------------------------------------------------------------
# The other work on the machine


def machine_busy_s() -> float:
    """CPU-seconds the whole machine has spent busy since boot (``/proc/stat``)."""
    with open("/proc/stat", encoding="ascii") as fh:
        f = [int(x) for x in fh.readline().split()[1:]]
    # user nice system idle iowait irq softirq steal ...: all but idle and iowait
    return (sum(f[:8]) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")


def own_cpu_s() -> float:
    """CPU-seconds of this process and of its children reaped so far."""
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def others_cores(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``fn()``'s result with ``others_cores``: the cores busy outside this run
    while it ran (the machine's busy CPU-seconds less this run's, per second)."""
    b0, o0, t0 = machine_busy_s(), own_cpu_s(), time.perf_counter()
    r = fn()
    wall = time.perf_counter() - t0
    r["others_cores"] = max(0.0, (machine_busy_s() - b0) - (own_cpu_s() - o0)) / wall
    return r


def wait_for_quiet(timeout_s: float, most: float = 0.5, sample_s: float = 3.0) -> tuple[float, float]:
    """Wait (at most ``timeout_s``) until other work takes ≤ ``most`` cores over
    ``sample_s`` seconds; the seconds waited and the last sample."""
    t0 = time.monotonic()
    while True:
        b0 = machine_busy_s()
        time.sleep(sample_s)
        busy = (machine_busy_s() - b0) / sample_s
        if busy <= most or time.monotonic() - t0 >= timeout_s:
            return time.monotonic() - t0, busy
        log(f"other work takes {busy:.2f} cores; waiting for ≤ {most} ...")


# --------------------------------------------------------------------------
# A server process on loopback


def free_port() -> int:
    """A TCP port free on 127.0.0.1 just now."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_serving(command: Callable[[int], list[str]], what: str, *, paths: Sequence[str] = (),
                  env: dict[str, str] | None = None) -> tuple[subprocess.Popen[bytes], int]:
    """The process ``command(port)`` on a free loopback port, returned with the port once its ``/health``
    answers (60 s at most); run from the temporary folder with ``paths`` and the source tree first on its
    PYTHONPATH and ``env`` added to its environment. ``what`` names it in errors."""
    import tempfile
    import urllib.request

    port = free_port()
    full = dict(os.environ, **(env or {}))
    full["PYTHONPATH"] = os.pathsep.join([*paths, str(REPO_ROOT), os.environ.get("PYTHONPATH", "")])
    proc = subprocess.Popen(command(port), cwd=tempfile.gettempdir(), env=full)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} stopped with status {proc.returncode}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise RuntimeError(f"{what} did not start within 60 s")
