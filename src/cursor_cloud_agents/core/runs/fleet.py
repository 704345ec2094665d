"""The fleet scan behind `cursor_supervise`: rows of agents with their latest run, read 8 at a time.

The API has no listing of runs across agents, and its agent status is no guide to activity (it has
meant "not archived" in places, docs/api-contract.md §2a): "active" here means the latest run is CREATING or
RUNNING, which takes a read of that run. Rows come in API order from the one agent scan of `scan.py`
(its cursor resumes exactly after the last row, even inside an API page), which asks the fleet to
choose each page's rows: that choice reads the candidates' runs, 8 at a time. Every request of a
call goes through one limiter of 8, so the API never sees more than 8 at once; a failed read marks
only its row.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import anyio
from anyio.abc import TaskGroup

from cursor_cloud_agents.api import AgentSummary, CursorClient, CursorError, Page
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.runs import scan
from cursor_cloud_agents.core.runs.activity import ActivityCache, ActivitySummary, Replays
from cursor_cloud_agents.core.runs.liveness import STALE_AFTER_MINUTES, fold_liveness, is_stale, undecided
from cursor_cloud_agents.core.runs.reading import AgentRead
from cursor_cloud_agents.core.runs.watch import IN_FLIGHT, REPLAYS_AT_ONCE
from cursor_cloud_agents.core.timing import CallTime


@dataclass(frozen=True)
class Query:
    """What the caller asked to see."""

    status: str
    name: str | None
    pr_url: str | None
    include_archived: bool

    def mark(self) -> str:
        """The fingerprint a cursor of this query carries."""
        return scan.fingerprint("supervise", self.status, self.name, self.pr_url, self.include_archived)

    def named(self, agent: AgentSummary) -> bool:
        """The local name filter (substring, case-insensitive)."""
        return self.name is None or self.name.lower() in (agent.name or "").lower()


@dataclass
class Row(AgentRead):
    """One agent of the fleet and what was read about it."""

    activity: ActivitySummary | None = None
    charged_cents: float | None = None
    usage_error: str | None = None
    replay_queued: bool = False

    @property
    def replayed(self) -> ActivitySummary | None:
        """The activity summary when the replay came to one of its end signals: only then is it whole."""
        return self.activity if self.activity is not None and self.activity.complete else None

    def stale(self, after_seconds: float) -> bool:
        """Active, yet its decided replay shows no event for more than `after_seconds` (`liveness.is_stale`)."""
        return is_stale(self.activity, active=self.active, after_seconds=after_seconds)

    @property
    def unfinished_after_end(self) -> bool:
        """Ended, with a background task its whole replay shows still going."""
        replayed, run = self.replayed, self.run
        return (
            replayed is not None and run is not None and run.is_terminal and bool(replayed.unfinished_background_tasks)
        )

    @property
    def incomplete(self) -> bool:
        """Has a run whose replay walk was cut by the deadline or by an error, and could be read on another call:
        a stream past the API's retention never can, and only says so in the row's `activity_error`."""
        return bool(self.agent.latest_run_id) and undecided(self.activity)


class Fleet:
    """One supervision call: its limiter, its rows, and how far it got."""

    def __init__(
        self,
        api: CursorClient,
        activity: ActivityCache,
        time: CallTime,
        query: Query,
        stale_after_seconds: float = STALE_AFTER_MINUTES * 60,
    ) -> None:
        self.api = api
        self.activity = activity
        self.time = time
        self.query = query
        self.stale_after_seconds = stale_after_seconds
        """An active run's replay that goes quiet on an older event is listened to past a pause (`liveness`)."""
        self.limiter = anyio.CapacityLimiter(IN_FLIGHT)
        self.replay_limiter = anyio.CapacityLimiter(REPLAYS_AT_ONCE)
        """Replays: a stuck run's is listened to past a pause on a listener slot, not one of IN_FLIGHT."""
        self.rows: list[Row] = []
        self.scanned = 0
        self.page: scan.ScanPage[Row] | None = None
        """The scan's page: where to resume after each row, should the cap cut the answer short."""
        self.statuses_read = 0
        self.replays_read = 0
        self._replays: TaskGroup | None = None

    async def _limited(self, request: Callable[[], Awaitable[Any]]) -> Any:
        async with self.limiter:
            return await request()

    async def _each(self, rows: list[Row], work: Callable[[Row], Coroutine[Any, Any, None]]) -> None:
        async with anyio.create_task_group() as group:
            for row in rows:
                group.start_soon(work, row)

    async def _read_run(self, row: Row, *, shown: bool = False) -> None:
        run_id = row.agent.latest_run_id
        assert run_id is not None  # only rows with a run are read
        try:
            row.run = await self._limited(lambda: self.api.get_run(row.agent.id, run_id))
        except CursorError as exc:
            row.read_error = failures.from_api_error(exc).code
        self.statuses_read += 1
        if shown and self._keep(row):
            self._queue_replay(row)

    def _queue_replay(self, row: Row) -> None:
        # The client's request slots serve callers in arrival order and every status of the chunk was
        # queued first, so a replay only takes a slot no status is waiting for.
        if self._replays is not None and row.agent.latest_run_id and not row.replay_queued:
            row.replay_queued = True
            self._replays.start_soon(self._replay, row)

    def _keep(self, row: Row) -> bool:
        if self.query.status == "all":
            return True
        return row.active or row.read_error is not None  # an unreadable run stays visible

    async def _choose(self, agents: Sequence[AgentSummary], wanted: int) -> list[tuple[int, Row]]:
        """Read the named agents' runs in chunks until `wanted` rows are kept; each with its index in `agents`."""
        candidates = [(index, agent) for index, agent in enumerate(agents) if self.query.named(agent)]
        kept: list[tuple[int, Row]] = []
        start = 0
        while start < len(candidates) and len(kept) < wanted:
            chunk = candidates[start : start + max(wanted - len(kept), IN_FLIGHT)]
            start += len(chunk)
            rows = [Row(agent) for _, agent in chunk]
            # When the whole chunk fits the page, each kept row is sure to be shown as soon as it is read.
            read = partial(self._read_run, shown=len(chunk) <= wanted - len(kept))
            await self._each([row for row in rows if row.agent.latest_run_id], read)
            chosen = [(index, row) for (index, _), row in zip(chunk, rows, strict=True) if self._keep(row)]
            kept += chosen[: wanted - len(kept)]
        return kept

    async def collect(self, limit: int, cursor: str | None) -> str | None:
        """Fill `rows` with up to `limit` rows; the cursor resuming right after the last one."""
        query = self.query
        fetch = scan.listing(self.api, pr_url=query.pr_url, include_archived=query.include_archived)

        async def limited(position: scan.Position) -> Page[AgentSummary]:
            return await self._limited(partial(fetch, position))

        filtered = query.status == "active" or bool(query.name)
        page = await scan.scan_rows(
            limited, self._choose, limit=limit, cursor=cursor, mark=query.mark(), filtered=filtered
        )
        self.rows, self.scanned, self.page = page.items, page.scanned, page
        return page.next_cursor

    async def gather(self, limit: int, cursor: str | None, *, activity: bool, usage: bool) -> str | None:
        """Rows, statuses, then usage and activity: the cursor resuming right after the last row."""
        next_cursor: str | None = None
        async with anyio.create_task_group() as replays:
            self._replays = replays if activity else None
            next_cursor = await self.collect(limit, cursor)
            for row in self.rows:
                self._queue_replay(row)
            if usage:
                await self.add_usage()
        self._replays = None
        return next_cursor

    async def _replay(self, row: Row) -> None:
        run_id = row.agent.latest_run_id
        assert run_id is not None
        terminal = row.run is not None and row.run.is_terminal
        async with self.replay_limiter:
            row.activity = await fold_liveness(
                Replays(self.api, self.activity, self.time.clock),
                row.agent.id,
                run_id,
                terminal=terminal,
                max_seconds=self.time.left(float("inf")),
                stale_after_seconds=self.stale_after_seconds,
            )
        self.replays_read += 1

    async def add_usage(self) -> None:
        """Each agent's charged cents, 8 at a time."""

        async def one(row: Row) -> None:
            try:
                usage = await self._limited(lambda: self.api.get_usage(row.agent.id))
            except CursorError as exc:
                row.usage_error = failures.from_api_error(exc).code
                return
            row.charged_cents = None if usage.cost is None else usage.cost.charged_cents

        await self._each(self.rows, one)
