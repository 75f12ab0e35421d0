"""A bounded map for the drawing caches: least recently used entries dropped first."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """At most ``size`` values by key, least recently used dropped first; bookkeeping under a
    lock (pictures may be drawn in worker threads), making a value outside it, so two threads
    may at worst make the same value once each. ``hits`` and ``misses`` count the lookups."""

    def __init__(self, size: int) -> None:
        self._items: OrderedDict[K, V] = OrderedDict()
        self._size = size
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: K, make: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``make()`` kept for it."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self.hits += 1
                self._items.move_to_end(key)
                return value
            self.misses += 1
        value = make()
        with self._lock:
            self._items[key] = value
            if len(self._items) > self._size:
                self._items.popitem(last=False)
        return value

    @property
    def size(self) -> int:
        """The most values kept."""
        return self._size

    def __contains__(self, key: object) -> bool:
        """Whether a value is kept for ``key`` (not counted as a use)."""
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)
