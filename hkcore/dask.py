"""Summaries of many hands on a Dask cluster (docs/at-scale.md; extra ``hkcore[dask]``).

``compare_bag(bag, presets)`` scores every hand of a Dask bag under every
preset and returns the same ``ComparisonSummary`` as ``compare_many`` over
the bag's items in order, exactly: each partition is counted into a partial
summary where it lives, and the partials are added (``+``) in partition
order, consecutive ones first, so flip examples keep their input indices.
``compare_files(paths, presets)`` does so for JSON-lines files read with
``dask.bytes.read_bytes`` and split into lines as ``hkscore report`` splits
them (``hkcore.lines``: bytes at newlines, stripped, blank lines skipped; the
same compressed files read by their suffix, the same refused). ``compare_frame(frame, presets, column=)``
does so for a column of a Dask dataframe (Parquet files read with
``dask.dataframe.read_parquet``, for instance): JSON text, notation, or a
struct column of hand fields, in which a null field counts as absent.
``simulate(presets, bots, hands=N, seed=S)`` plays a simulation
(docs/simulation.md) in shards of consecutive walls, one task each, and
returns the same ``SimulationSummary`` as ``hkcore.simulate``.

The presets travel to the workers as ``batch.spec`` values (a built-in id,
a path, or the preset's TOML) and each partition compiles them with
``compiled_for``: a built-in preset is compiled once per worker process and
kept for its life, a preset by path is kept in the bounded LRU of paths; a
preset given as an object (its TOML) is compiled again for each partition.
Nothing is kept in this module. Computing uses the active
``distributed.Client`` if there is one, else Dask's default scheduler for
bags (or ``scheduler=``). Plugins given to ``register_plugin`` travel with
the tasks (pickled by Dask): a worker in another process compiles the
presets against a registry of them made for the partition, its own
registry untouched; installed plugins must be installed on the workers.
"""
from __future__ import annotations

import lzma
import zipfile
import zlib
from collections.abc import Iterable, Sequence
from functools import partial, reduce
from operator import add
from pathlib import Path
from typing import Any

try:
    import cloudpickle
    import dask.bag as db
except ImportError:  # pragma: no cover - the test skips without dask
    raise ImportError('hkcore.dask needs Dask: pip install "hkcore[dask]"') from None

from hkcore.batch import Specs, check_picklable, compile_specs, specs_for
from hkcore.errors import HkcoreError, shown
from hkcore.lines import block_lines, check_compression
from hkcore.preset import Preset
from hkcore.simulation import (
    Bots,
    Plan,
    SimulationSummary,
    check_walls,
    plan,
    play_walls,
    wall_ranges,
)
from hkcore.summary import ComparisonSummary, Tally, empty_for, resolve

__all__ = ["compare_bag", "compare_files", "compare_frame", "simulate"]

Presets = Iterable[str | Path | Preset] | str | Path | Preset | None


def compare_bag(bag: db.Bag, presets: Presets = None, *, scheduler: str | None = None,
                split_every: int | None = None) -> ComparisonSummary:
    """The ``ComparisonSummary`` of every item of ``bag`` (hands in any form
    ``compare_many`` reads) under ``presets`` (default, or ``"all"``: the
    built-in ones), equal to ``compare_many(bag.compute(), presets)``.
    ``scheduler``: as for ``dask.compute`` (default: the active client, else
    Dask's default); ``split_every``: partials added per step of the tree."""
    return _compute(bag, presets, "items", scheduler, split_every)


def compare_files(paths: str | Path | Sequence[str | Path], presets: Presets = None, *,
                  blocksize: int | str | None = None, scheduler: str | None = None,
                  split_every: int | None = None) -> ComparisonSummary:
    """The ``ComparisonSummary`` of JSON-lines files (a path, a glob or a list
    of them, anything ``dask.bytes.read_bytes`` reads, remote ones included,
    compressed ones named as ``hkcore.lines`` reads them), one hand a line, blank lines skipped: equal to
    ``hkscore report`` over the files one after the other. ``blocksize``: split each file
    into partitions of about this many bytes (default: one partition a file)."""
    paths = _paths(paths)
    blocksize = _blocksize(blocksize)
    from dask.bytes.core import read_bytes
    from dask.delayed import delayed

    try:
        _, blocks, found = read_bytes(paths, delimiter=b"\n", blocksize=blocksize, sample=False,
                                      compression="infer", include_path=True)
    except (OSError, ValueError, ImportError) as exc:  # no such file, a bad glob, chunks of a compressed
        # file, a protocol whose fsspec filesystem is not installed (s3:// without s3fs)
        raise HkcoreError(f"paths: cannot read {shown(paths)}: {shown(str(exc))}") from None
    for path in found:  # the compressions hkscore reads (by the same suffixes fsspec infers from), no other
        check_compression(str(path), "paths")
    parts = [delayed(_lines)(block) for per_file in blocks for block in per_file]
    bag = db.from_delayed(parts) if parts else db.from_sequence([], npartitions=1)
    try:
        return _compute(bag, presets, "items", scheduler, split_every)
    except HkcoreError:
        raise
    except _UNREADABLE as exc:  # found when a partition is read: a folder, a broken compressed file
        raise HkcoreError(f"paths: cannot read {shown(paths)}: {type(exc).__name__}: {shown(str(exc))}") from None


#: what reading a partition of the files raises for a file it cannot read: no such file or a folder
#: (OSError), a broken .gz (OSError, EOFError), .bz2 (OSError), .xz/.lzma (LZMAError), .zip (BadZipFile)
_UNREADABLE = (OSError, EOFError, lzma.LZMAError, zipfile.BadZipFile, zlib.error)


def _paths(paths: Any) -> str | list[str]:
    """``compare_files``'s paths as ``read_bytes`` takes them: a path or glob, or a list of them."""
    if isinstance(paths, (str, Path)):
        return str(paths)
    if isinstance(paths, (list, tuple)) and all(isinstance(p, (str, Path)) for p in paths):
        return [str(p) for p in paths]
    raise HkcoreError(f"paths: expected a path, a glob or a list of them, got {shown(paths)}")


def _blocksize(blocksize: Any) -> int | None:
    """A partition size in bytes: None (a partition a file), a whole number above 0, or text such as "64 MiB"."""
    size: int | None = blocksize
    if isinstance(blocksize, str):
        from dask.utils import parse_bytes

        try:
            size = parse_bytes(blocksize)
        except (ValueError, TypeError):
            size = None
    if blocksize is None or (type(size) is int and size > 0):
        return size
    raise HkcoreError(f'blocksize: expected a whole number of bytes above 0 or text such as "64 MiB", '
                      f"got {shown(blocksize)}")


def _lines(block: bytes) -> list[bytes]:
    """A block's hand lines as ``hkscore report`` reads a file: split at
    newlines, an over-long line cut to the head its reader keeps, ASCII
    white space stripped, blank lines left out."""
    return [line for _, line in block_lines(block)]


def compare_frame(frame: Any, presets: Presets = None, *, column: str = "hand", scheduler: str | None = None,
                  split_every: int | None = None) -> ComparisonSummary:
    """The ``ComparisonSummary`` of one column of a Dask dataframe (or of a
    Dask series), one hand a row in row order: JSON text or bytes, notation,
    or a struct column (a dict a row, as Parquet stores docs/rules.md's hand
    objects), whose null fields count as absent (Parquet writes a field a row
    lacks as null). A null row is an unreadable hand."""
    try:
        import dask.dataframe as dd
    except ImportError:  # pragma: no cover - the extra installs it
        raise ImportError('hkcore.dask.compare_frame needs Dask\'s dataframe: pip install "hkcore[dask]"') from None
    if isinstance(frame, dd.DataFrame):
        if column not in frame.columns:
            raise HkcoreError(f"column: no column {shown(column)}; the frame has {shown(list(frame.columns))}")
        series = frame[column]
    elif isinstance(frame, dd.Series):
        series = frame
    else:
        raise HkcoreError(f"frame: expected a dask.dataframe.DataFrame or Series, got {shown(frame)}")
    return _compute(series.to_bag(), presets, "rows", scheduler, split_every)


def _compute(bag: Any, presets: Presets, kind: str, scheduler: str | None,
             split_every: int | None) -> ComparisonSummary:
    if not isinstance(bag, db.Bag):
        raise HkcoreError(f"bag: expected a dask.bag.Bag, got {shown(bag)}")
    if split_every is not None and not (type(split_every) is int and split_every >= 2):  # 1 never ends the tree
        raise HkcoreError(f"split_every: expected a whole number 2 or more, got {shown(split_every)}")
    if scheduler is not None:
        from dask.base import get_scheduler

        try:
            get_scheduler(scheduler=scheduler)
        except (ValueError, RuntimeError, TypeError) as exc:
            raise HkcoreError(f"scheduler: {shown(scheduler)}: {shown(str(exc))}") from None
    refs, compiled = resolve(presets)  # a bad preset is an error here, before any task runs
    specs = specs_for(zip(refs, compiled))
    check_picklable(specs.plugins, cloudpickle.dumps)
    total = bag.reduction(partial(_summarise_partition, specs=specs, kind=kind),
                          partial(_merge, empty=empty_for(compiled)), split_every=split_every,
                          name="hkcore-summary")
    summary: ComparisonSummary = total.compute(scheduler=scheduler)
    return summary


def _summarise_partition(items: Iterable[Any], specs: Specs, kind: str) -> ComparisonSummary:
    """One partition's summary (its hands' indices from 0: ``_merge`` adds
    partitions in order). ``kind``: "rows" (a dataframe column's values) or
    "items" (taken as they are)."""
    tally = Tally(compile_specs(specs))
    if kind == "rows":
        for row in items:
            tally.add(_plain(row))
    else:
        for item in items:
            tally.add(item)
    return tally.summary()


def _plain(value: Any) -> Any:
    """A dataframe cell as the JSON value it stands for: a struct's null
    fields left out, arrays as lists (pandas gives NumPy arrays for lists)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if not _null(v)}
    if isinstance(value, (str, bytes)):
        return value
    if hasattr(value, "tolist") and hasattr(value, "ndim"):  # a NumPy array or scalar
        value = value.tolist()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return None if _null(value) else value


def _null(value: Any) -> bool:
    """None, NaN, or pandas' NA / NaT."""
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN and NaT are not equal to themselves
    except (TypeError, ValueError):  # pandas.NA refuses bool(); an array is not a null
        return type(value).__name__ in ("NAType", "NaTType")


def _merge(parts: Iterable[ComparisonSummary], empty: ComparisonSummary) -> ComparisonSummary:
    """Consecutive partitions' summaries added in order (Dask leaves out empty partitions)."""
    parts = list(parts)
    return reduce(add, parts) if parts else empty


def simulate(presets: Presets = None, bots: Bots = "simple", *, hands: int = 100, seed: int = 0,
             first: int = 0, shards: int | None = None, scheduler: str | None = None,
             base: str | None = None) -> SimulationSummary:
    """``hkcore.simulate`` on Dask: the walls ``first`` .. ``first + hands - 1``
    split into ``shards`` ranges of consecutive walls (default: up to 32),
    each played by one task, their summaries added. Equal to
    ``hkcore.simulate(presets, bots, hands=hands, seed=seed, first=first, base=base)``.
    ``scheduler``: as for ``dask.compute`` (default: the active client, else
    Dask's default for bags)."""
    check_walls(hands, seed, first)
    if shards is not None and not (type(shards) is int and shards >= 1):
        raise HkcoreError(f"shards: expected a whole number 1 or more, got {shown(shards)}")
    the_plan = plan(presets, bots, seed, base)  # a bad preset or bot is an error here, before any task runs
    check_picklable(the_plan.specs.plugins, cloudpickle.dumps)
    parts = wall_ranges(hands, shards or 32, first)
    bag = db.from_sequence(parts, npartitions=len(parts))
    total = bag.map(partial(_play_range, the_plan=the_plan)).fold(add, add)
    result: SimulationSummary = total.compute(scheduler=scheduler)
    return result


def _play_range(part: tuple[int, int], the_plan: Plan) -> SimulationSummary:
    return play_walls(the_plan, part[0], part[1])
