"""hkcore.cells: the one published-value cell and the one bounded LRU."""
from __future__ import annotations

import doctest
import threading

import hkcore.cells
from hkcore.cells import BoundedLRU, Published


def test_examples() -> None:
    assert doctest.testmod(hkcore.cells).failed == 0


def test_built_once_under_contention() -> None:
    cell: Published[object] = Published()
    built = []
    start = threading.Barrier(8)

    def build() -> object:
        built.append(1)
        return object()

    seen = []

    def ask() -> None:
        start.wait()
        seen.append(cell.get_or_build(lambda v: True, build))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(built) == 1 and len({id(v) for v in seen}) == 1


def test_stale_value_rebuilt_and_replace_sees_old() -> None:
    cell = Published[int](1)
    assert cell.get_or_build(lambda v: v >= 2, lambda: 5) == 5
    assert cell.replace(lambda old: (old or 0) + 1) == 6
    assert cell.slot == [6]


def test_lru_drops_least_recently_used() -> None:
    lru = BoundedLRU[str, int](2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" now the most recent
    lru.put("c", 3)
    assert lru.get("b") is None and lru.get("a") == 1 and lru.get("c") == 3 and len(lru) == 2
    lru.put("a", 4)  # a new value for a kept key replaces it
    assert lru.get("a") == 4 and len(lru) == 2
