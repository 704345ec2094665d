"""Waiting inside a tool call: MCP progress at least every 5 s, always inside the call's deadline.

Two clocks meet here, each for its own job. A stream wait ends on the call's clock (checked at every
frame), so tests end it by advancing the simulator's manual clock; it is also bounded in real time
by the call's deadline. Progress is a real-time timer: during a silent stretch of a stream (up to
30 s between heartbeats) only a timer can keep the 5 s promise, and it is a timer, not a pause, so
it never moves the simulated world forward. A client's cancellation is anyio cancellation: nothing
here catches it, and a cancelled wait sends no further request.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio

from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.timing import PROGRESS_SECONDS

T = TypeVar("T")


class Pacer:
    """Reports progress when 5 s of the call's clock went by since the last report (called per frame)."""

    def __init__(self, call: Call) -> None:
        self.call = call
        self.last = self.call.time.now()

    async def maybe(self, message: str) -> None:
        """Report `message` if a report is due."""
        now = self.call.time.now()
        if now - self.last >= PROGRESS_SECONDS:
            self.last = now
            await self.call.progress(message)


async def with_progress(call: Call, work: Callable[[], Awaitable[T]], describe: Callable[[], str]) -> T:
    """Run `work`, reporting `describe()` as progress every 5 s of real time while it runs.

    A failure of `work` leaves inside the task group's exception group; the toolkit takes a lone
    failure out of its group, so it keeps its code.
    """
    results: list[T] = []

    async def tick() -> None:
        while True:
            with anyio.move_on_after(PROGRESS_SECONDS):
                await anyio.Event().wait()
            await call.progress(describe())

    async with anyio.create_task_group() as group:
        group.start_soon(tick)
        results.append(await work())
        group.cancel_scope.cancel()
    return results[0]
