"""The repositories list: a 5-minute cache in front of a call limited to 1/minute and 30/hour.

Concurrent callers share one request (the second waits for the first and reads the cache) instead of
tripping the local limit; when the limit refuses, the error says when to retry. Nothing here waits
for the limit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import anyio

from cursor_cloud_agents.api._limits import repositories_gate
from cursor_cloud_agents.api.errors import RateLimitError
from cursor_cloud_agents.api.models.account import Repository


class RepositoriesCache:
    """Serve `GET /v1/repositories` from a cache, within the documented limits."""

    def __init__(self, *, clock: Callable[[], float], ttl: float) -> None:
        self._clock = clock
        self._ttl = ttl
        self._gate = repositories_gate()
        self._lock = anyio.Lock()
        self._cached: tuple[float, list[Repository]] | None = None

    async def get(self, fetch: Callable[[], Awaitable[list[Repository]]]) -> list[Repository]:
        """The cached list, or a fresh one from `fetch` when the limit allows.

        Raises:
            RateLimitError: code `client_rate_limited`, with `retry_after`; nothing was sent.
        """
        async with self._lock:
            now = self._clock()
            if self._cached is not None and now - self._cached[0] < self._ttl:
                return list(self._cached[1])
            wait = self._gate.retry_after(now)
            if wait > 0:
                raise RateLimitError(
                    f"GET /v1/repositories is limited to 1/minute and 30/hour; retry in {wait:.0f} s",
                    code="client_rate_limited",
                    retry_after=wait,
                )
            self._gate.record(now)
            items = await fetch()
            self._cached = (self._clock(), items)
            return list(items)
