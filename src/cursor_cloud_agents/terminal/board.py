"""The fleet dashboard's data: every agent's latest run, kept current within a request budget, and the
order in which rows need the person.

A refresh lists the agents (pages of 100), forgets those no longer listed (archived or deleted), then
reads a run only when it can have changed: a new agent, a new latest run, or a run not yet ended (an
ended run never changes). The rows shown are the active runs, the errors of the last day, and the runs
that ended while the dashboard was open ("finished, unread"). Their idle time and last tool come from
the server's activity fold of the run's stream replay (`core.liveness.fold_liveness`: an ended run's
complete fold is kept, a cut stream still gives what it showed), "stuck" from the rule of the server's
`stale` (`core.liveness`: a decided replay, listened to past a pause inside it), and their cost from
the usage endpoint, read until the cost of the ended run is known (it lags the run's end). Those reads
share what is left of the refresh's budget, the runs the longest without one first, so a refresh stays
within the client's sustained rate (10 requests per second) however large the fleet. Every read goes
`IN_FLIGHT` at a time, like the server's fleet scan.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cursor_cloud_agents.api import AgentSummary, CursorError
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core import (
    ACTIVITY_ENTRIES,
    IN_FLIGHT,
    REPLAYS_AT_ONCE,
    ActivityCache,
    ActivitySummary,
    AgentRead,
    Cache,
    each_in_flight,
    fold_liveness,
    is_stale,
)
from cursor_cloud_agents.core.timing import ERROR_WINDOW_SECONDS, LONG_IDLE_SECONDS, Clock
from cursor_cloud_agents.terminal.exits import failure_of
from cursor_cloud_agents.terminal.term import Session

PAGE_SIZE = 100
MAX_PAGES = 20
"""At most 2,000 agents are listed per refresh."""
REQUESTS_PER_SECOND = 10.0
"""The client's sustained rate (`CursorClient(requests_per_second=10)`): a refresh's budget is what it
allows in one interval."""


@dataclass
class BoardRow(AgentRead):
    """One agent on the dashboard, and what was last read of it."""

    activity: ActivitySummary | None = None
    activity_at: float | None = None
    charged_cents: float | None = None
    usage_of: str | None = None
    """The ended run whose final cost was read (None: not yet, or the run is still going)."""
    ended_while_open: bool = False
    idle_seconds: int | None = None
    """Seconds from the run's last stream event to the last refresh."""

    @property
    def last_tool(self) -> str | None:
        tool = None if self.activity is None else self.activity.last_tool
        return None if tool is None else tool.name

    def needs_showing(self, errors_since: float) -> bool:
        """Active, unreadable, ended while the dashboard was open, or ended in error since `errors_since`."""
        unreadable = self.read_error is not None
        return self.active or unreadable or self.ended_while_open or self.ended_in_error_since(errors_since)

    def ended_in_error_since(self, moment: float) -> bool:
        run = self.run
        ended = None if run is None else epoch(run.updated_at)
        return run is not None and run.status == "ERROR" and ended is not None and ended >= moment

    def document(self) -> dict[str, Any]:
        """The row for `--json`."""
        return {
            "agent_id": self.agent.id,
            "name": self.agent.name,
            "url": self.agent.url,
            "run_id": self.agent.latest_run_id,
            "status": None if self.run is None else self.run.status,
            "attention": attention(self)[1],
            "idle_seconds": self.idle_seconds,
            "last_tool": self.last_tool,
            "evidence": None if self.activity is None else self.activity.evidence,
            "silence_seconds": None if self.activity is None else self.activity.silence_seconds,
            "charged_cents": self.charged_cents,
            "read_error": self.read_error,
        }

    @property
    def stuck(self) -> bool:
        """Active, and its decided replay shows nothing for more than `LONG_IDLE_SECONDS` as of the last refresh."""
        return is_stale(
            self.activity, active=self.active, after_seconds=LONG_IDLE_SECONDS, idle_seconds=self.idle_seconds
        )


def attention(row: BoardRow) -> tuple[int, str]:
    """How soon a row needs the person (lower first) and why: errors, stuck, finished unread, the rest."""
    if row.read_error is not None or (row.run is not None and row.run.status == "ERROR"):
        return 0, "error"
    if row.stuck:
        return 1, "stuck"
    if row.ended_while_open:
        return 2, "finished, unread"
    return 3, "running" if row.active else "ended"


def ordered(rows: Sequence[BoardRow]) -> list[BoardRow]:
    """Rows by attention; inside a rank, the longest idle first, then the newest agent."""
    return sorted(rows, key=lambda row: (attention(row)[0], -(row.idle_seconds or 0), row.agent.created_at or ""))


@dataclass
class Board:
    """The fleet as last read, and the budget each refresh keeps to."""

    session: Session
    interval: float
    rows: dict[str, BoardRow] = field(default_factory=dict[str, BoardRow])
    refreshes: int = 0
    listed: int = 0
    clock: Clock = field(init=False)
    activity: ActivityCache = field(init=False)

    def __post_init__(self) -> None:
        self.clock = Clock(now=self.session.now, sleep=self.session.sleep)
        self.activity = Cache(self.clock, ACTIVITY_ENTRIES)

    @property
    def budget(self) -> int:
        """Requests one refresh may make, at the client's sustained rate over one interval."""
        return max(IN_FLIGHT, int(self.interval * REQUESTS_PER_SECOND))

    def shown(self) -> list[BoardRow]:
        """The rows on the dashboard, in the order they need the person."""
        since = self.session.now() - ERROR_WINDOW_SECONDS
        return ordered([row for row in self.rows.values() if row.needs_showing(since)])

    async def refresh(self, *, whole: bool = False) -> None:
        """Read what may have changed (`whole`: every shown row's activity and cost too, for a one-off snapshot)."""
        agents, pages = await self._list()
        listed = {agent.id for agent in agents}
        self.rows = {agent_id: row for agent_id, row in self.rows.items() if agent_id in listed}
        stale = [row for row in map(self._note, agents) if row is not None]
        await each_in_flight(stale, self._read_run)
        left = 2 * len(self.rows) if whole else self.budget - pages - len(stale)
        # Replays at once as the server's: a stuck run's quiet stream is listened to on a listener slot.
        await each_in_flight(self._extras(left), self._read_extra, at_once=REPLAYS_AT_ONCE)
        self._age()
        self.refreshes += 1

    async def _list(self) -> tuple[list[AgentSummary], int]:
        """The listed agents, and the pages (requests) it took."""
        agents: list[AgentSummary] = []
        cursor: str | None = None
        pages = 0
        while pages < MAX_PAGES:
            page = await self.session.api.list_agents(limit=PAGE_SIZE, cursor=cursor, include_archived=False)
            agents += page.items
            cursor, pages = page.next_cursor, pages + 1
            if cursor is None:
                break
        self.listed = len(agents)
        return agents, pages

    def _note(self, agent: AgentSummary) -> BoardRow | None:
        """Keep the listed agent; the row when its run must be read again."""
        row = self.rows.get(agent.id)
        if row is None or row.agent.latest_run_id != agent.latest_run_id:
            row = self.rows[agent.id] = BoardRow(agent)
        row.agent = agent
        if agent.latest_run_id is None or (row.run is not None and row.run.is_terminal and row.read_error is None):
            return None
        return row

    async def _read_run(self, row: BoardRow) -> None:
        run_id = row.agent.latest_run_id
        assert run_id is not None  # only rows with a run are read
        was_active = row.active
        try:
            row.run, row.read_error = await self.session.api.get_run(row.agent.id, run_id), None
        except CursorError as exc:
            row.read_error = failure_of(exc).code
            return
        if was_active and row.run.is_terminal and self.refreshes:
            row.ended_while_open = True

    def _extras(self, left: int) -> list[BoardRow]:
        """The shown rows whose activity or cost is due, the longest without a read first, within `left`."""
        due = [row for row in self.shown() if row.run is not None and (row.active or row.usage_of != row.run.id)]
        due.sort(key=lambda row: row.activity_at or 0.0)
        return due[: max(0, left // 2)]  # each takes two requests: the stream and the usage

    def _age(self) -> None:
        now = self.session.now()
        for row in self.rows.values():
            moment = None if row.activity is None else epoch(row.activity.last_event_at)
            row.idle_seconds = None if moment is None else max(0, round(now - moment))

    async def _read_extra(self, row: BoardRow) -> None:
        run = row.run
        assert run is not None  # `_extras` keeps rows with a run
        row.activity = await fold_liveness(
            self.session.api,
            self.activity,
            self.clock,
            row.agent.id,
            run.id,
            terminal=run.is_terminal,
            max_seconds=self.interval,
            stale_after_seconds=LONG_IDLE_SECONDS,
        )
        row.activity_at = self.session.now()
        try:
            usage = await self.session.api.get_usage(row.agent.id)
        except CursorError:
            return
        row.charged_cents = None if usage.cost is None else usage.cost.charged_cents
        row.usage_of = run.id if run.is_terminal and usage.cost is not None else None
