"""Waiting on several runs at once, until any (or all) of them end: heard on their streams, read on a cadence.

Each run's stream is listened to for its end (`core.ends`): a run is read the moment its `result` arrives. As
the fallback, a round reads each run not yet ended, 8 at a time, then pauses `WAIT_POLL_SECONDS`: an end whose
stream was given up is noticed within that cadence, and 20 runs read at that pace stay under the client's
sustained rate (its limiter paces every request anyway). A run given by its agent alone is that agent's latest
run. An agent that is unknown or deleted marks only its own row, which counts as settled.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, TypeVar

import anyio

from cursor_cloud_agents.api import LISTENING_STREAMS, CursorError
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.runs.ends import EndEars
from cursor_cloud_agents.core.timing import (
    HEARD_REREAD_SECONDS,
    HEARD_REREADS,
    READ_RESERVE,
    WAIT_POLL_SECONDS,
    CallTime,
)

if TYPE_CHECKING:
    # Annotations only: the core's front binds `watch` when it loads, which must not load the
    # client (the server's start-up stays at the SDK's own import).
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
PASSING = frozenset({Code.UPSTREAM, Code.NETWORK, Code.TIMEOUT, Code.QUOTA})
"""Failures a later read may not meet (Cursor failing, unreachable, slow or rate-limited): such a row is read
again."""


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
    every: float = WAIT_POLL_SECONDS,
    listen: bool = True,
) -> bool:
    """Read the rows until the wait is over (True), `within` seconds pass or the deadline runs short (False).

    With `listen`, each run's stream is listened to (`core.ends`): a run is read the moment its stream tells
    its end, and every unsettled run is still read each `every` seconds (the fallback for a stream given up).
    `since`: when the wait began, if before this call (a task's earlier rounds); each row's `ended_after`
    counts from it."""
    started = time.now() if since is None else since
    await read_round(api, rows, time.now() - started)
    if holds(rows, until):
        await _report(rows, progress)
        return True
    ears = EndEars(api)
    met = False
    async with anyio.create_task_group() as group:
        if listen:
            for row in rows:
                if not row.settled and row.run_id is not None:
                    group.start_soon(ears.follow, row.agent_id, row.run_id)
        met = await _until_over(_Waiting(api, rows, until, time, within, progress, ears, started, every))
        group.cancel_scope.cancel()
    return met


@dataclass
class _Waiting:
    """One wait's loop, given what `watch` was given and its ears."""

    api: CursorClient
    rows: Sequence[Watched]
    until: Until
    time: CallTime
    within: float
    progress: Callable[[str], Awaitable[None]]
    ears: EndEars
    started: float
    every: float


async def _until_over(waiting: _Waiting) -> bool:
    """The wait's loop: a run heard ended is read at once, every run each `every` seconds."""
    api, rows, until, time, within = waiting.api, waiting.rows, waiting.until, waiting.time, waiting.within
    progress, ears, started, every = waiting.progress, waiting.ears, waiting.started, waiting.every
    begun = last_round = time.now()
    lagging: dict[str, int] = {}
    """Runs heard ended that did not read as ended yet, and how often they were read again since."""
    await _report(rows, progress)
    while not holds(rows, until):
        heard = ears.take()
        now = time.now()
        left = within - (now - begun)
        pause = min(every - (now - last_round), left, HEARD_REREAD_SECONDS if lagging else math.inf)
        if not heard and (left <= 0 or not time.fits(max(pause, 0.0), READ_RESERVE)):
            return False
        if not heard and pause > 0:
            await ears.pause(time.pause, pause)
            heard = ears.take()
        if heard or (lagging and time.now() - last_round < every):
            named = heard | set(lagging)
            await read_round(api, [row for row in rows if row.run_id in named], time.now() - started)
            _note_lagging(rows, named, lagging)
        else:
            await read_round(api, rows, time.now() - started)
            last_round = time.now()
            lagging.clear()
        await _report(rows, progress)
    return True


def _note_lagging(rows: Sequence[Watched], named: set[str], lagging: dict[str, int]) -> None:
    """Count one more early read of each heard run still not ended; drop those ended or read enough."""
    for row in rows:
        if row.run_id not in named:
            continue
        reads = lagging.get(row.run_id, 0) + 1
        if row.settled or reads > HEARD_REREADS:
            lagging.pop(row.run_id, None)
        else:
            lagging[row.run_id] = reads


async def _report(rows: Sequence[Watched], progress: Callable[[str], Awaitable[None]]) -> None:
    await progress(f"{sum(row.ended for row in rows)} of {len(rows)} runs ended")
