"""Clocks for the simulated world: a manual one for tests and a real (optionally faster) one for demos.

The world never reads the system time itself; it asks its clock. Streams wait on the clock, so a
test that advances a `ManualClock` makes a live stream progress without any real sleep.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Protocol

import anyio

# 2026-10-06T12:00:00Z: inside the window where the contract's live observations were made.
DEFAULT_START = datetime(2026, 10, 6, 12, 0, 0, tzinfo=UTC).timestamp()


class WorldClock(Protocol):
    """What the world needs from time: the current instant and a way to wait for a later one."""

    def now(self) -> float:
        """Current time, in epoch seconds."""
        ...

    async def wait(self, deadline: float) -> None:
        """Return once `now() >= deadline`, or earlier when the clock jumps (callers re-check)."""
        ...


class ManualClock:
    """A clock that only moves when a test calls `advance()`; waiters wake on every move."""

    def __init__(self, start: float = DEFAULT_START) -> None:
        self._now = start
        self._moved: anyio.Event | None = None

    def now(self) -> float:
        """Current simulated time, in epoch seconds."""
        return self._now

    def advance(self, seconds: float) -> None:
        """Move time forward and wake every stream waiting on this clock."""
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self._now += seconds
        self._wake()

    def set(self, when: float) -> None:
        """Jump to an absolute time (never backwards)."""
        self.advance(max(0.0, when - self._now))

    async def wait(self, deadline: float) -> None:
        """Wait until the next `advance()` (spurious wake-ups are allowed; callers loop)."""
        if self._now >= deadline:
            return
        if self._moved is None:
            # Created lazily: anyio events need a running event loop.
            self._moved = anyio.Event()
        await self._moved.wait()

    def _wake(self) -> None:
        moved, self._moved = self._moved, None
        if moved is not None:
            moved.set()


class RealClock:
    """Wall-clock time, optionally accelerated: `speed=10` makes a simulated minute last 6 s."""

    def __init__(self, speed: float = 1.0, *, start: float | None = None) -> None:
        if speed <= 0:
            raise ValueError("speed must be positive")
        self.speed = speed
        self._origin = time.time() if start is None else start
        self._mono0 = time.monotonic()

    def now(self) -> float:
        """Simulated time: the start plus the real elapsed time times `speed`."""
        return self._origin + (time.monotonic() - self._mono0) * self.speed

    async def wait(self, deadline: float) -> None:
        """Sleep (in real time) until the simulated deadline."""
        remaining = (deadline - self.now()) / self.speed
        if remaining > 0:
            await anyio.sleep(remaining)
