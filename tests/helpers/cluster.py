"""A local Dask cluster whose worker processes import this hkcore (tests/test_dask.py, tests/test_rule_atlas.py)."""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import hkcore


@contextmanager
def local_client() -> Iterator[Any]:
    """A ``distributed.Client`` of two worker processes, one thread each, importing this hkcore (PYTHONPATH
    inherited)."""
    import distributed

    root = str(Path(hkcore.__file__).resolve().parent.parent)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PYTHONPATH", os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=None) as cluster, distributed.Client(cluster) as c:
            yield c
