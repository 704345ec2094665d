"""Waiting on several runs at once: every unfinished run re-read on one cadence until any (or all) of them end.

A round reads each run not yet ended, 8 at a time, then pauses `WAIT_POLL_SECONDS`: an end is noticed
within that cadence, and 20 runs read at that pace stay under the client's sustained rate (its limiter
paces every request anyway). A run given by its agent alone is that agent's latest run. An agent that
is unknown or deleted marks only its own row, which counts as settled.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

import anyio

from cursor_cloud_agents.api import LISTENING_STREAMS, CursorError
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.timing import READ_RESERVE, WAIT_POLL_SECONDS, CallTime

if TYPE_CHECKING:
    # Annotations only: the core's front binds `watch` when it loads, which must not load the client (issue 35).
    from cursor_cloud_agents.api import CursorClient, Run

IN_FLIGHT = 8
"""Reads sent at once by whatever reads many runs: this wait, the fleet scan, the terminal's lists."""
REPLAYS_AT_ONCE = IN_FLIGHT + LISTENING_STREAMS
"""Replay walks under way at once: IN_FLIGHT being read, the others only listened to past a pause (the
client holds both bounds, docs/reliability.md F-28 and F-43)."""
MAX_RUNS = 20
"""Runs one wait reads (cursor_wait, the terminal's `wait`): 20 re-read every WAIT_POLL_SECONDS stay under the
client's 10 requests per second."""
Until = Literal["any", "all"]
T = TypeVar("T")
PASSING = frozenset({Code.UPSTREAM, Code.TIMEOUT, Code.QUOTA})
"""Failures a later read may not meet (Cursor failing, slow or rate-limited): such a row is read again."""


@dataclass
class Watched:
    """One run being waited for, and what the last read of it said."""

    agent_id: str
    run_id: str | None
    run: Run | None = None
    failure: ToolFailure | None = None
    """Why this row's last read failed (e.g. NOT_FOUND for a deleted agent)."""
    ended_after: float | None = None
    """Seconds into the wait when its end was first seen (0: it had ended already)."""

    @property
    def ended(self) -> bool:
        return self.run is not None and self.run.is_terminal

    @property
    def settled(self) -> bool:
        """Nothing more to wait for: ended, or its agent cannot be read (unknown, deleted, refused), whereas a
        read that failed in passing is tried again on the next round."""
        failed_for_good = self.failure is not None and self.failure.code not in PASSING
        return self.ended or (failed_for_good and self.run is None)


def holds(rows: Sequence[Watched], until: Until) -> bool:
    """Whether the wait is over: `any` when a run ended (or nothing is left to wait for), `all` when every
    row is settled."""
    if until == "any" and any(row.ended for row in rows):
        return True
    return all(row.settled for row in rows)


async def _read(api: CursorClient, row: Watched) -> None:
    try:
        if row.run_id is None:
            row.run_id = (await api.get_agent(row.agent_id)).latest_run_id
            if row.run_id is None:
                row.failure = ToolFailure(failures.VALIDATION, "This agent has no run yet.")
                return
        row.run = await api.get_run(row.agent_id, row.run_id)
        row.failure = None
    except CursorError as exc:
        row.failure = failures.from_api_error(exc)
        if row.failure.code not in PASSING:
            row.run = None  # deleted or refused since the last read: what was read of it no longer stands


async def each_in_flight(items: Sequence[T], work: Callable[[T], Awaitable[None]], *, at_once: int = IN_FLIGHT) -> None:
    """`work` on every item, at most `at_once` at a time (the lists of runs read here and in the terminal)."""
    limiter = anyio.CapacityLimiter(at_once)

    async def one(item: T) -> None:
        async with limiter:
            await work(item)

    async with anyio.create_task_group() as group:
        for item in items:
            group.start_soon(one, item)


async def read_round(api: CursorClient, rows: Sequence[Watched], waited: float) -> None:
    """Read every unsettled row once, at most IN_FLIGHT at a time, noting when an end was first seen."""

    async def one(row: Watched) -> None:
        await _read(api, row)
        if row.ended and row.ended_after is None:
            row.ended_after = waited

    await each_in_flight([row for row in rows if not row.settled], one)


async def watch(
    api: CursorClient,
    rows: Sequence[Watched],
    until: Until,
    time: CallTime,
    within: float,
    progress: Callable[[str], Awaitable[None]],
    *,
    since: float | None = None,
) -> bool:
    """Read the rows until the wait is over (True), `within` seconds pass or the deadline runs short (False).

    `since`: when the wait began, if before this call (a task's earlier rounds); each row's `ended_after`
    counts from it."""
    started = time.now() if since is None else since

    async def read() -> Sequence[Watched]:
        await read_round(api, rows, time.now() - started)
        return rows

    async def report(seen: Sequence[Watched], _waited: float) -> None:
        await progress(f"{sum(row.ended for row in seen)} of {len(seen)} runs ended")

    await read_round(api, rows, time.now() - started)
    _, ended = await time.poll(
        rows,
        read,
        lambda seen: holds(seen, until),
        report,
        every=WAIT_POLL_SECONDS,
        within=within,
        reserve=READ_RESERVE,
    )
    return ended
