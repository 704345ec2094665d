"""Client-side rate limits: a token bucket for every request, and the documented 1/min + 30/h for repositories.

Both are pure arithmetic over an injected monotonic clock: they say how long to wait, or that the wait
does not fit, and the caller decides (sleep, or raise RateLimitError). Nothing here ever sleeps.
"""

from __future__ import annotations

from collections import deque


class TokenBucket:
    """`rate` requests per second with bursts of `burst`; reservations queue callers fairly."""

    def __init__(self, *, rate: float, burst: float | None = None, now: float = 0.0) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self._rate = rate
        self._burst = max(1.0, burst if burst is not None else rate)
        self._tokens = self._burst
        self._stamp = now

    def _refill(self, now: float) -> None:
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = max(self._stamp, now)

    def wait_needed(self, now: float) -> float:
        """Seconds until a token is free, without taking it."""
        self._refill(now)
        return max(0.0, (1.0 - self._tokens) / self._rate)

    def reserve(self, now: float) -> float:
        """Take a token (possibly in debt) and return how long to wait before sending."""
        wait = self.wait_needed(now)
        self._tokens -= 1.0
        return wait


class SlidingWindowGate:
    """At most `limit` events per `window` seconds, answering how long until the next is allowed."""

    def __init__(self, *, limits: tuple[tuple[int, float], ...]) -> None:
        self._limits = limits
        self._horizon = max(window for _, window in limits)
        self._stamps: deque[float] = deque()

    def retry_after(self, now: float) -> float:
        """Seconds until one more event is allowed (0 when allowed now)."""
        while self._stamps and self._stamps[0] <= now - self._horizon:
            self._stamps.popleft()
        wait = 0.0
        for limit, window in self._limits:
            recent = [stamp for stamp in self._stamps if stamp > now - window]
            if len(recent) >= limit:
                wait = max(wait, recent[-limit] + window - now)
        return wait

    def record(self, now: float) -> None:
        """Count one event at `now`."""
        self._stamps.append(now)


def repositories_gate() -> SlidingWindowGate:
    """The documented limit of `GET /v1/repositories`: 1 per minute and 30 per hour."""
    return SlidingWindowGate(limits=((1, 60.0), (30, 3600.0)))
