"""Summaries of many hands on a Dask cluster (docs/at-scale.md; extra ``hkcore[dask]``).

``compare_bag(bag, presets)`` scores every hand of a Dask bag under every
preset and returns the same ``ComparisonSummary`` as ``compare_many`` over
the bag's items in order, exactly: each partition is counted into a partial
summary where it lives, and the partials are added (``+``) in partition
order, consecutive ones first, so flip examples keep their input indices.
``compare_files(paths, presets)`` does so for JSON-lines files read with
``dask.bag.read_text``, lines stripped and blank ones skipped as
``hkscore report`` skips them.

The presets travel to the workers as ``batch.spec`` values (a built-in id,
a path, or the preset's TOML) and each partition compiles them with
``compiled_for``: a built-in preset is compiled once per worker process and
kept for its life, a preset by path is kept in the bounded LRU of paths; a
preset given as an object (its TOML) is compiled again for each partition.
Nothing is kept in this module. Computing uses the active
``distributed.Client`` if there is one, else Dask's default scheduler for
bags (or ``scheduler=``). Plugins given to ``register_plugin`` are not seen
by workers in other processes; installed plugins are.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial, reduce
from operator import add
from pathlib import Path
from typing import Any

try:
    import dask.bag as db
except ImportError:  # pragma: no cover - the test skips without dask
    raise ImportError('hkcore.dask needs Dask: pip install "hkcore[dask]"') from None

from hkcore.batch import compile_specs, spec
from hkcore.errors import HkcoreError, shown
from hkcore.preset import Preset
from hkcore.summary import ComparisonSummary, _Tally, empty_for, resolve

__all__ = ["compare_bag", "compare_files"]

Presets = Iterable[str | Path | Preset] | str | Path | Preset | None


def compare_bag(bag: db.Bag, presets: Presets = None, *, scheduler: str | None = None,
                split_every: int | None = None) -> ComparisonSummary:
    """The ``ComparisonSummary`` of every item of ``bag`` (hands in any form
    ``compare_many`` reads) under ``presets`` (default, or ``"all"``: the
    built-in ones), equal to ``compare_many(bag.compute(), presets)``.
    ``scheduler``: as for ``dask.compute`` (default: the active client, else
    Dask's default); ``split_every``: partials added per step of the tree."""
    return _compute(bag, presets, False, scheduler, split_every)


def compare_files(paths: str | Path | Sequence[str | Path], presets: Presets = None, *,
                  blocksize: int | str | None = None, scheduler: str | None = None,
                  split_every: int | None = None) -> ComparisonSummary:
    """The ``ComparisonSummary`` of JSON-lines files (a path, a glob or a list
    of them, anything ``dask.bag.read_text`` reads, remote ones included), one
    hand a line, blank lines skipped: equal to ``compare_many`` over the
    files' stripped non-blank lines in order. ``blocksize``: split each file
    into partitions of about this many bytes (default: one partition a file)."""
    if isinstance(paths, Path):
        paths = str(paths)
    elif not isinstance(paths, str):
        paths = [str(p) for p in paths]
    bag = db.read_text(paths, blocksize=blocksize, encoding="utf-8")
    return _compute(bag, presets, True, scheduler, split_every)


def _compute(bag: Any, presets: Presets, lines: bool, scheduler: str | None,
             split_every: int | None) -> ComparisonSummary:
    if not isinstance(bag, db.Bag):
        raise HkcoreError(f"bag: expected a dask.bag.Bag, got {shown(bag)}")
    refs, compiled = resolve(presets)  # a bad preset is an error here, before any task runs
    specs = tuple(spec(r, c) for r, c in zip(refs, compiled))
    total = bag.reduction(partial(_summarise_partition, specs=specs, lines=lines),
                          partial(_merge, empty=empty_for(compiled)), split_every=split_every,
                          name="hkcore-summary")
    return total.compute(scheduler=scheduler)


def _summarise_partition(items: Iterable[Any], specs: tuple[tuple[str, str], ...],
                         lines: bool) -> ComparisonSummary:
    """One partition's summary (its hands' indices from 0: ``_merge`` adds partitions in order)."""
    tally = _Tally(compile_specs(specs))
    for item in items:
        if lines:
            item = item.strip()
            if not item:
                continue
        tally.add(item)
    return tally.summary()


def _merge(parts: Iterable[ComparisonSummary], empty: ComparisonSummary) -> ComparisonSummary:
    """Consecutive partitions' summaries added in order (Dask leaves out empty partitions)."""
    parts = list(parts)
    return reduce(add, parts) if parts else empty
