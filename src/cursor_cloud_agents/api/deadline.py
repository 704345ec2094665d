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

# Every cap, margin and cadence of the client, in one place (the server's are in core/timing.py).
SEND_MARGIN_SECONDS = 0.5
"""A request is not started with less than this left before its cap: it could not be answered in time."""
MIN_READ_SECONDS = 0.05
"""The shortest timeout a read is given: below it the answer cannot arrive, and the read is not sent."""
READ_CAP_SECONDS = 30.0
"""One read's timeout at most, whatever the call has left: a read that takes longer is stuck, not slow."""
MUTATION_CAP_SECONDS = 30.0
"""One mutation's timeout at most (a create has its own, longer cap)."""
MIN_MUTATION_SECONDS = 5.0
"""A mutation is not sent with less time than this left: its answer could not be read in time."""
CONNECT_CAP_SECONDS = 10.0
"""Connecting (TCP and TLS) takes at most this long: a host that does not answer by then is down."""
RESOLVE_CAP_SECONDS = 10.0
"""Resolving an artifact URL's host (to check the address before connecting) takes at most this long."""
BACKOFF_BASE_SECONDS = 0.5
"""The first retry of a read waits up to this long (full jitter), doubling each time (docs/reliability.md F-20)."""
BACKOFF_CAP_SECONDS = 8.0
"""No retry of a read waits longer than this between attempts (F-20)."""
CREATE_CAP_SECONDS = 90.0
"""A creation's POST is given this long: a real create took more than 40 s (docs/api-contract.md quirk 16)."""
REPOSITORIES_CAP_SECONDS = 90.0
"""`GET /v1/repositories` can take tens of seconds (docs/api-contract.md §3.3)."""
REPOSITORIES_CACHE_SECONDS = 300.0
"""The repository list is kept five minutes: it is slow, rate limited, and changes rarely."""
ARTIFACT_CAP_SECONDS = 60.0
"""Checking and fetching a presigned artifact URL takes at most this long (resolving its host: less)."""
STREAM_IDLE_SECONDS = 90.0
"""No byte for this long means a dead stream connection: heartbeats come every 30–36 s."""
STREAM_CONNECT_CAP_SECONDS = 30.0
"""Opening a run's event stream takes at most this long."""


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
