"""Datasets for imitation: a bot's decisions with what its seat saw, written
as numpy arrays in chunks (docs/training.md, "Datasets"; ``hkscore
dataset``).

``write_dataset(out, preset, bot, hands)`` plays episodes ``first`` ..
``first + hands - 1`` (the walls ``wall_seed(seed, k)``) with the bot in
every seat (``VecEnv.expert``), and writes, episode after episode in their
order, each decision: the observation, the mask, the action, the player and
its seat, the episode and the decision's place in it, and its outcome (what
the player was paid from that decision to the episode's end). The same
arguments write the same arrays, with any number of jobs.
"""
from __future__ import annotations

import itertools
import json
import zipfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hkcore.batch import check_jobs, worker_context
from hkcore.errors import HkcoreError, shown
from hkcore.preset import Preset
from hkcore.table.env import N_ACTIONS
from hkcore.table.learning.encoding import FIELDS, OBS_SIZE, OFFSET
from hkcore.table.learning.vecenv import VecEnv
from hkcore.table.players.bots import available_bots
from hkcore.table.start import MAX_SEED, given_preset, record_preset

#: the dataset format's version (in the manifest)
FORMAT = 1
#: the arrays of a chunk: name -> (dtype, what a row holds)
ARRAYS = {
    "obs": ("float32", f"the observation ({OBS_SIZE} values, hkcore.table.learning.encoding)"),
    "mask": ("uint8", f"the legal actions ({N_ACTIONS}, 1 where legal)"),
    "action": ("int16", "the action the bot took"),
    "player": ("int8", "the player who decided (0..3)"),
    "seat": ("int8", "its seat (0..3: E S W N)"),
    "episode": ("int64", "the episode (its wall: wall_seed(seed, episode))"),
    "step": ("int32", "the decision's place in its episode (0, 1, ...)"),
    "outcome": ("float32", "what the player was paid from this decision to the episode's end"),
}
MOST_HANDS = 100_000_000
MOST_CHUNK = 10_000_000
MANIFEST = "manifest.json"


@dataclass(frozen=True)
class _Job:
    preset: str
    bot: str
    seed: int
    first: int
    hands: int
    chunk: int
    tables: int
    out: str
    part: int


def _check(preset: Any, bot: Any, hands: Any, seed: Any, first: Any, chunk: Any, tables: Any) -> Preset:
    p = given_preset(preset, "preset")
    known = sorted(available_bots())
    if not isinstance(bot, str) or bot not in known:
        raise HkcoreError(f"bot = {shown(bot)}: one of {', '.join(known)}")
    for name, value, low, high in (("hands", hands, 1, MOST_HANDS), ("seed", seed, 0, MAX_SEED),
                                   ("first", first, 0, MAX_SEED - MOST_HANDS), ("chunk", chunk, 1, MOST_CHUNK),
                                   ("tables", tables, 1, 4096)):
        if type(value) is not int or not low <= value <= high:
            raise HkcoreError(f"{name} = {shown(value)}: a whole number from {low:,} to {high:,}")
    return p


def write_dataset(out: str | Path, preset: str | Preset = "bga-old-style", bot: str = "value", hands: int = 1000, *,
                  seed: int = 0, first: int = 0, chunk: int = 100_000, tables: int = 64, jobs: int = 1,
                  force: bool = False) -> dict[str, Any]:
    """Write the dataset (module docstring) into the folder ``out`` (made if missing; a folder holding files is
    refused unless ``force``): ``chunk-P-K.npz`` files of at most ``chunk`` decisions and ``manifest.json``
    (what they hold, in order); the manifest, returned. ``tables``: the tables played at once in each job;
    ``jobs``: processes, each its own run of episodes."""
    p = _check(preset, bot, hands, seed, first, chunk, tables)
    check_jobs(jobs)
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise HkcoreError(f"out = {shown(str(folder))}: not a folder")
    if folder.is_dir() and any(folder.iterdir()):
        if not force:
            raise HkcoreError(f"out = {shown(str(folder))}: the folder holds files (force=True, --force, "
                              "to write over them)")
        for old in folder.glob("chunk-*.npz"):
            old.unlink()
        (folder / MANIFEST).unlink(missing_ok=True)
    folder.mkdir(parents=True, exist_ok=True)
    ref = record_preset(p)
    jobs = min(jobs, hands)
    bounds = [first + hands * j // jobs for j in range(jobs + 1)]
    parts = [_Job(ref, bot, seed, a, b - a, chunk, tables, str(folder), j)
             for j, (a, b) in enumerate(itertools.pairwise(bounds))]
    if jobs == 1:
        written = [_write_part(parts[0])]
    else:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context()) as pool:
            written = list(pool.map(_write_part, parts))
    files = [f for part in written for f in part]
    manifest = {
        "format": FORMAT, "hkcore_dataset": True, "preset": ref if "\n" not in ref else p.id,
        "preset_record": ref, "bot": bot, "seed": seed, "first": first, "hands": hands,
        "decisions": sum(f["decisions"] for f in files), "files": files,
        "arrays": {k: {"dtype": d, "what": w} for k, (d, w) in ARRAYS.items()},
        "obs_size": OBS_SIZE, "obs_fields": [{"name": n, "offset": OFFSET[n], "size": s, "what": w}
                                             for n, s, w in FIELDS],
        "n_actions": N_ACTIONS,
    }
    (folder / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def _write_part(job: _Job) -> list[dict[str, Any]]:
    """Play and write one job's episodes; its files, in order."""
    import numpy as np

    p = given_preset(job.preset, "preset")
    n = min(job.tables, job.hands)
    env = VecEnv(n, p, seed=job.seed, first=job.first, logs=False)
    obs, mask, player = env.reset()
    end = job.first + job.hands
    rows: list[list[Any]] = [[] for _ in range(n)]   # by table: its episode's decisions so far
    paid = np.zeros((n, 4))                          # by table: each player's payments so far
    done_eps: dict[int, list[Any]] = {}              # finished episodes waiting for their turn to be written
    nxt = job.first                                  # the next episode to write
    pending: list[list[Any]] = []                    # episodes ready, in order, not yet in a file
    files: list[dict[str, Any]] = []
    count = 0

    def flush(last: bool) -> None:
        nonlocal count
        while pending and (last or sum(len(e) for e in pending) >= job.chunk):
            take: list[Any] = []
            while pending and len(take) < job.chunk:
                ep = pending[0]
                room = job.chunk - len(take)
                take += ep[:room]
                if len(ep) > room:
                    pending[0] = ep[room:]
                else:
                    pending.pop(0)
            name = f"chunk-{job.part:03d}-{len(files):05d}.npz"
            _save(Path(job.out) / name, take)
            files.append({"file": name, "decisions": len(take), "first_episode": int(take[0][5]),
                          "last_episode": int(take[-1][5])})
            count += len(take)

    while nxt < end:
        action = env.expert(job.bot)
        steps_before = [len(r) for r in rows]
        for i in range(n):
            k = env.episode_index(i)
            if k < end:
                s = int(np.flatnonzero(obs[i, OFFSET["seat_wind"]:OFFSET["seat_wind"] + 4])[0])
                rows[i].append([obs[i].copy(), mask[i].copy(), int(action[i]), int(player[i]), s, k,
                                steps_before[i], float(paid[i, int(player[i])])])
        episodes = [env.episode_index(i) for i in range(n)]
        obs, mask, player, reward, done = env.step(action)
        paid += reward
        for i in range(n):
            if done[i]:
                if episodes[i] < end:
                    for r in rows[i]:
                        r[7] = float(paid[i, r[3]]) - r[7]  # paid from this decision on
                    done_eps[episodes[i]] = rows[i]
                rows[i] = []
                paid[i] = 0
        while nxt in done_eps:
            pending.append(done_eps.pop(nxt))
            nxt += 1
        flush(False)
    flush(True)
    return files


def _save(path: Path, rows: list[list[Any]]) -> None:
    """One chunk: the arrays of ``ARRAYS`` stacked from ``rows``, in a zip of .npy files (deflate level 1)."""
    import numpy as np

    cols = list(zip(*rows))
    arrays = {"obs": np.stack(cols[0]), "mask": np.stack(cols[1])}
    for j, name in enumerate(("action", "player", "seat", "episode", "step", "outcome"), 2):
        arrays[name] = np.asarray(cols[j], dtype=ARRAYS[name][0])
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, a in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.ascontiguousarray(a, dtype=ARRAYS[name][0]))


def load_dataset(folder: str | Path) -> dict[str, Any]:
    """Every array of the dataset in ``folder``, concatenated in order (name -> numpy array), with
    ``"manifest"``; ``iter_chunks`` reads it a file at a time instead."""
    import numpy as np

    chunks = list(iter_chunks(folder))
    if not chunks:
        manifest = _manifest(Path(folder))
        return {"manifest": manifest, **{k: np.zeros((0,), d) for k, (d, _w) in ARRAYS.items()}}
    out: dict[str, Any] = {k: np.concatenate([c[k] for c in chunks]) for k in ARRAYS}
    out["manifest"] = _manifest(Path(folder))
    return out


def iter_chunks(folder: str | Path) -> Iterator[dict[str, Any]]:
    """The dataset's chunks in order, each a dict of its arrays (``ARRAYS``)."""
    import numpy as np

    where = Path(folder)
    for f in _manifest(where)["files"]:
        with np.load(where / f["file"]) as data:
            yield {k: data[k] for k in ARRAYS}


def _manifest(folder: Path) -> dict[str, Any]:
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise HkcoreError(f"{folder / MANIFEST}: not a dataset's manifest ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("hkcore_dataset") is not True or \
            manifest.get("format") != FORMAT:
        raise HkcoreError(f"{folder / MANIFEST}: not a dataset of format {FORMAT}")
    return manifest


__all__ = ["ARRAYS", "FORMAT", "iter_chunks", "load_dataset", "write_dataset"]
