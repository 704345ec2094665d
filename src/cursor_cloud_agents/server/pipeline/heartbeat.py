"""The heartbeat: no tool call goes `HEARTBEAT_SECONDS` of real time without MCP progress, whatever it waits on.

OpenCode cuts a call at 60 s unless progress arrives (each notification restarts its clock), and Claude
Code's idle watchdog does the same on its own scale (docs/clients.md). A tool's own waits report as they
go (a run re-read every 2.5 s, a stream every 5 s); the heartbeat covers what they cannot see: one slow
request (a creation Cursor is slow to answer), a question waiting for the person, a cancel's re-reads, a
call with CURSOR_MCP_MAX_CALL_SECONDS raised past a client's clock. It counts real time (anyio's clock),
never the call's clock, so in tests it never moves the simulated world forward; and it only fills
silences: a call that reports on its own, or answers at once, never hears it.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio

from cursor_cloud_agents.core.timing import HEARTBEAT_SECONDS

logger = logging.getLogger("cursor_cloud_agents.tools")


class Silence:
    """When the call last reported progress, on anyio's clock (real time)."""

    def __init__(self) -> None:
        self.started = self.last = anyio.current_time()

    def heard(self) -> None:
        self.last = anyio.current_time()


@asynccontextmanager
async def beating(silence: Silence, report: Callable[[str], Awaitable[None]]) -> AsyncGenerator[None, None]:
    """While the body runs, `report` a short line whenever `silence` lasted HEARTBEAT_SECONDS.

    The body must not raise but for cancellation (the toolkit's `_invoke` turns every failure into a value),
    so that nothing here wraps a failure in an exception group."""
    async with anyio.create_task_group() as group:
        group.start_soon(_beat, silence, report)
        try:
            yield
        finally:
            group.cancel_scope.cancel()


async def _beat(silence: Silence, report: Callable[[str], Awaitable[None]]) -> None:
    while True:
        due = silence.last + HEARTBEAT_SECONDS - anyio.current_time()
        if due > 0:
            await anyio.sleep(due)
            continue
        try:
            await report(f"still working ({anyio.current_time() - silence.started:.0f} s)")
        except Exception:  # a client gone or a closed stream: the call itself will see it; stop beating
            logger.debug("heartbeat stopped", exc_info=True)
            return
