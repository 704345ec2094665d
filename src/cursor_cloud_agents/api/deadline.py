"""The deadline of the current tool call: one value, visible to every request made on its behalf.

The MCP toolkit opens a deadline around each call and hands the same `Deadline` to the tool; the
HTTP layer reads it so that a request's timeout is never longer than what the call has left. It
lives in a context variable, so concurrent calls (and the tasks they spawn) each see their own.
Times are on anyio's clock (`anyio.current_time()`), the event loop's monotonic clock.
"""

from __future__ import annotations

from collections.abc import Generator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import anyio

REQUEST_MARGIN_SECONDS = 0.1
"""A request's timeout ends this much before the deadline, so that the client (which knows whether a
mutation was sent) reports a cut exchange before the call's own hard stop does."""
STREAM_MARGIN_SECONDS = 0.25
"""A stream read ends this much before the deadline: the reader still closes the stream and answers
with what arrived."""


@dataclass(frozen=True)
class Deadline:
    """The instant, on anyio's clock, by which the current call must have answered."""

    at: float

    def remaining(self, reserve: float = 0.0) -> float:
        """Seconds left once `reserve` is kept back (never negative)."""
        return max(0.0, self.at - anyio.current_time() - reserve)

    def fits(self, seconds: float, reserve: float = 0.0) -> bool:
        """Whether `seconds` more still leave `reserve` before the deadline."""
        return self.remaining(reserve) >= seconds

    def cap(self, wanted: float, reserve: float = 0.0) -> float:
        """`wanted`, shortened to what the deadline leaves after `reserve`."""
        return min(wanted, self.remaining(reserve))


_deadline: ContextVar[Deadline | None] = ContextVar("cursor_cloud_agents_deadline", default=None)


def current_deadline() -> Deadline | None:
    """The deadline of the current call, or None outside any call."""
    return _deadline.get()


def time_left() -> float | None:
    """Seconds left before the current deadline, or None outside any deadline (never negative)."""
    deadline = _deadline.get()
    return None if deadline is None else deadline.remaining()


@contextmanager
def deadline_after(seconds: float) -> Generator[Deadline]:
    """Run the block under a deadline `seconds` from now; a nested deadline never extends an outer one."""
    candidate = anyio.current_time() + seconds
    outer = _deadline.get()
    deadline = Deadline(candidate if outer is None else min(outer.at, candidate))
    token = _deadline.set(deadline)
    try:
        yield deadline
    finally:
        _deadline.reset(token)
