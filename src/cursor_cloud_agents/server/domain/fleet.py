"""The fleet scan behind `cursor_supervise`: rows of agents with their latest run, read 8 at a time.

The API has no listing of runs across agents, and its agent status is no guide to activity (it has
meant "not archived" in places, CONTRACT.md §2a): "active" here means the latest run is CREATING or
RUNNING, which takes a read of that run. Rows come in API order; the scan resumes exactly after the
last row, even inside an API page, with the cursor and filter fingerprint of `scan.py`. Every
request of a call goes through one limiter of 8, so the API never sees more than 8 at once; a
failed read marks only its row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import anyio
from anyio.abc import TaskGroup

from cursor_cloud_agents.api import AgentSummary, CursorClient, CursorError, Run
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.deadline import Clock
from cursor_cloud_agents.server.domain import scan
from cursor_cloud_agents.server.domain.activity import ActivityCache, ActivitySummary, fold_activity
from cursor_cloud_agents.server.domain.events import clip
from cursor_cloud_agents.server.toolkit import current_call

IN_FLIGHT = 8
ACTIVE_RUN_STATUSES = frozenset({"CREATING", "RUNNING"})
NAME_CHARS = 60


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
class Row:
    """One agent of the fleet and what was read about it."""

    agent: AgentSummary
    run: Run | None = None
    read_error: str | None = None
    activity: ActivitySummary | None = None
    charged_cents: float | None = None
    usage_error: str | None = None
    cost_known: bool = field(default=False)
    replay_queued: bool = False

    @property
    def active(self) -> bool:
        return self.run is not None and self.run.status in ACTIVE_RUN_STATUSES

    def view(self) -> dict[str, Any]:
        """The compact row."""
        out: dict[str, Any] = {
            "agent_id": self.agent.id,
            "name": clip(self.agent.name or "", NAME_CHARS)[0] or None,
            "run_id": self.agent.latest_run_id,
            "status": None if self.run is None else self.run.status,
            "archived": self.agent.status == "ARCHIVED" or None,
            "read_error": self.read_error,
            "charged_cents": self.charged_cents,
            "usage_error": self.usage_error,
        }
        return out | _activity_view(self.activity)


def _activity_view(activity: ActivitySummary | None) -> dict[str, Any]:
    if activity is None:
        return {}
    return {
        "last_event_at": activity.last_event_at,
        "idle_seconds": activity.idle_seconds,
        "last_tool": activity.last_tool,
        "unfinished_background_tasks": activity.unfinished_background_tasks or None,
        "activity_error": activity.activity_error,
    }


class Fleet:
    """One supervision call: its limiter, its rows, and how far it got."""

    def __init__(self, api: CursorClient, activity: ActivityCache, clock: Clock, query: Query) -> None:
        self.api = api
        self.activity = activity
        self.clock = clock
        self.query = query
        self.limiter = anyio.CapacityLimiter(IN_FLIGHT)
        self.rows: list[Row] = []
        self.scanned = 0
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
        # The limiter serves callers in arrival order and every status of the chunk was queued first,
        # so a replay only takes a slot no status is waiting for.
        if self._replays is not None and row.agent.latest_run_id and not row.replay_queued:
            row.replay_queued = True
            self._replays.start_soon(self._replay, row)

    def _keep(self, row: Row) -> bool:
        if self.query.status == "all":
            return True
        return row.active or row.read_error is not None  # an unreadable run stays visible

    async def _take(self, candidates: list[tuple[int, AgentSummary]], limit: int) -> int | None:
        """Read candidates in chunks until `limit` rows are kept; the page index of the last row kept."""
        last: int | None = None
        start = 0
        while start < len(candidates) and len(self.rows) < limit:
            chunk = candidates[start : start + max(limit - len(self.rows), IN_FLIGHT)]
            start += len(chunk)
            rows = [Row(agent) for _, agent in chunk]
            # When the whole chunk fits the page, each kept row is sure to be shown as soon as it is read.
            read = partial(self._read_run, shown=len(chunk) <= limit - len(self.rows))
            await self._each([row for row in rows if row.agent.latest_run_id], read)
            for (index, _), row in zip(chunk, rows, strict=True):
                if len(self.rows) < limit and self._keep(row):
                    self.rows.append(row)
                    last = index
        return last

    async def _list(self, position: scan.Position) -> Any:
        query = self.query
        return await self.api.list_agents(
            limit=position.page_size,
            cursor=position.api_cursor,
            pr_url=query.pr_url,
            include_archived=query.include_archived,
        )

    async def collect(self, limit: int, cursor: str | None) -> str | None:
        """Fill `rows` with up to `limit` rows; the cursor resuming right after the last one."""
        query, mark = self.query, self.query.mark()
        size = scan.FILTERED_PAGE_SIZE if query.status == "active" or query.name else limit
        position = scan.decode(cursor, mark) if cursor else scan.Position(None, size, 0, mark)
        for _ in range(scan.MAX_PAGES):
            page = await self._limited(partial(self._list, position))
            items: list[AgentSummary] = page.items
            candidates = [(i, items[i]) for i in range(position.skip, len(items)) if query.named(items[i])]
            last = await self._take(candidates, limit)
            if len(self.rows) == limit and last is not None and last + 1 < len(items):
                self.scanned += last + 1 - position.skip
                return scan.encode(scan.Position(position.api_cursor, position.page_size, last + 1, mark))
            self.scanned += len(items) - position.skip
            if page.next_cursor is None:
                return None
            position = scan.Position(page.next_cursor, position.page_size, 0, mark)
            if len(self.rows) == limit:
                break
        return scan.encode(position)

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
        row.activity = await self._limited(
            lambda: fold_activity(
                self.api, self.activity, self.clock, row.agent.id, run_id,
                terminal=terminal, max_seconds=current_call().time.left(float("inf")),
            )
        )  # fmt: skip
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


def fleet_summary(rows: list[Row], *, activity: bool, usage: bool, stale_seconds: float) -> dict[str, Any]:
    """Counts by run status and, from complete replays only, the stale and unfinished-after-end runs."""
    counts = Counter(row.run.status for row in rows if row.run is not None)
    out: dict[str, Any] = {"runs": dict(sorted(counts.items())), "read_errors": sum(1 for r in rows if r.read_error)}
    if usage:
        known = [row.charged_cents for row in rows if row.charged_cents is not None]
        out |= {"charged_cents": round(sum(known), 2), "cost_missing": len(rows) - len(known) or None}
    if not activity:
        return out
    done = [row for row in rows if _complete(row)]
    return out | {
        "stale": [r.agent.id for r in done if r.active and _idle(r) > stale_seconds],
        "unfinished_after_end": [
            r.agent.id
            for r in done
            if r.run is not None and r.run.is_terminal and r.activity and r.activity.unfinished_background_tasks
        ],
        "incomplete": [r.agent.id for r in rows if r.agent.latest_run_id and not _complete(r)],
    }


def _complete(row: Row) -> bool:
    return row.activity is not None and row.activity.complete


def _idle(row: Row) -> float:
    return float(row.activity.idle_seconds or 0) if row.activity is not None else 0.0
