"""A small store of the newest entries, each kept a while: the one cache shape the server uses."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

from cursor_cloud_agents.core.timing import Clock

K = TypeVar("K")
T = TypeVar("T")


class Cache(Generic[K, T]):
    """A small store of the newest entries, each kept at most `seconds` (None: until pushed out)."""

    def __init__(self, clock: Clock, entries: int, seconds: float | None = None) -> None:
        self._clock = clock
        self._entries = entries
        self._seconds = seconds
        self._kept: OrderedDict[K, tuple[float, T]] = OrderedDict()

    def get(self, key: K) -> T | None:
        """The value kept under `key`, unless it is missing or too old."""
        kept = self._kept.get(key)
        if kept is None:
            return None
        if self._seconds is not None and not 0 <= self._clock.now() - kept[0] < self._seconds:
            del self._kept[key]
            return None
        return kept[1]

    def put(self, key: K, value: T) -> None:
        """Keep `value`, dropping the oldest entries beyond the size."""
        self._kept[key] = (self._clock.now(), value)
        self._kept.move_to_end(key)
        while len(self._kept) > self._entries:
            self._kept.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry (what they were read from has changed)."""
        self._kept.clear()
