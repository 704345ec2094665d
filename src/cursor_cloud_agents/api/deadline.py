"""The deadline of the current tool call, visible to every request made on its behalf.

The MCP toolkit opens a deadline around each call; the HTTP layer reads `time_left()` so that a
request's timeout is never longer than what the call has left. The value lives in a context
variable, so concurrent calls (and the tasks they spawn) each see their own. Times are on anyio's
clock (`anyio.current_time()`), the event loop's monotonic clock.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar

import anyio

_deadline: ContextVar[float | None] = ContextVar("cursor_cloud_agents_deadline", default=None)


def time_left() -> float | None:
    """Seconds left before the current deadline, or None outside any deadline (never negative)."""
    deadline = _deadline.get()
    if deadline is None:
        return None
    return max(0.0, deadline - anyio.current_time())


@contextmanager
def deadline_after(seconds: float) -> Generator[None]:
    """Run the block under a deadline `seconds` from now; a nested deadline never extends an outer one."""
    candidate = anyio.current_time() + seconds
    outer = _deadline.get()
    token = _deadline.set(candidate if outer is None else min(outer, candidate))
    try:
        yield
    finally:
        _deadline.reset(token)
