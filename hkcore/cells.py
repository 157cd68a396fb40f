"""Two holders of shared state, each in one place: a value published whole
(read without a lock, built under one) and a bounded least-recently-used map.

>>> cell = Published[str]()
>>> cell.get_or_build(lambda v: True, lambda: "built")
'built'
>>> cell.get_or_build(lambda v: True, lambda: "again")  # fresh: kept
'built'
>>> lru = BoundedLRU[str, int](2)
>>> lru.put("a", 1); lru.put("b", 2); lru.get("a"); lru.put("c", 3)
1
>>> lru.get("b") is None, len(lru)  # "b" was the least recently used
(True, 2)
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")

__all__ = ["BoundedLRU", "Published"]


class Published(Generic[T]):
    """One value, replaced whole and read without a lock; a new one is built
    under the lock, after checking again that no other thread built it."""

    def __init__(self, initial: T | None = None) -> None:
        #: the value as a one-item list (the compiled core reads ``slot[0]``)
        self.slot: list[T | None] = [initial]
        self._lock = threading.Lock()

    def get(self) -> T | None:
        """The value published last (None before the first)."""
        return self.slot[0]

    def get_or_build(self, fresh: Callable[[T], bool], build: Callable[[], T]) -> T:
        """The published value if there is one and ``fresh`` says it still
        holds; else ``build()``, published (built once however many threads ask)."""
        found = self.slot[0]
        if found is None or not fresh(found):
            with self._lock:
                found = self.slot[0]
                if found is None or not fresh(found):
                    found = build()
                    self.slot[0] = found
        return found

    def replace(self, make: Callable[[T | None], T]) -> T:
        """Publish ``make(old value)``, built under the lock."""
        with self._lock:
            new = make(self.slot[0])
            self.slot[0] = new
        return new


class BoundedLRU(Generic[K, V]):
    """A map keeping the ``size`` most recently used entries (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key``, dropping the least recently used beyond ``size``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        """Entries kept."""
        return len(self._items)
