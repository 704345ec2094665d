"""`cursor_supervise`: the fleet in one call.

Which agents are running, which are stuck, which ended with a background job still going, and what
each last did: the API answers none of these directly (no listing of runs across agents, a frozen
`updatedAt`, no end-of-replay marker). The scan and the 8-at-a-time reads live in `fleet.py`, the
rows and the summary in `views/fleet.py`; every status is queued before any replay, so a slow replay
never costs a row its status.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field

from cursor_cloud_agents.core import queue as follow_up_queue
from cursor_cloud_agents.core.fleet import Fleet, Query
from cursor_cloud_agents.core.liveness import STALE_AFTER_MINUTES
from cursor_cloud_agents.core.waiting import with_progress
from cursor_cloud_agents.server.params import NameFilter, PageCursor, PrUrl
from cursor_cloud_agents.server.state import ServerState
from cursor_cloud_agents.server.toolkit import Toolkit, current_call
from cursor_cloud_agents.server.views.fleet import FleetView, QueuedRow, queued_row

StatusFilter = Literal["active", "all"]
StaleMinutes = Annotated[int, Field(ge=1, le=10_080, description="Idle minutes that make a run stale.")]
RowLimit = Annotated[int, Field(ge=1, le=100)]


def _budget(arguments: Mapping[str, Any]) -> float:
    return 90.0 if arguments.get("activity") else 45.0


def register(kit: Toolkit, state: ServerState) -> None:
    """Declare `cursor_supervise` on `kit`."""

    @kit.tool(title="Supervise the fleet", budget=_budget)
    async def cursor_supervise(
        status: StatusFilter = "active",
        name: NameFilter = None,
        pr_url: PrUrl = None,
        include_archived: bool = False,
        activity: bool = False,
        usage: bool = False,
        stale_after_minutes: StaleMinutes = STALE_AFTER_MINUTES,
        limit: RowLimit = 50,
        cursor: PageCursor = None,
        drop_queued: Annotated[str | None, Field(description="A queue_id to drop.", max_length=64)] = None,
    ) -> FleetView:
        """The fleet in one call: each agent's latest run; activity=true adds liveness and background tasks,
        usage=true charged_cents. status=active: latest run CREATING or RUNNING (not the agent's status).
        summary: counts, stale, unfinished_after_end, incomplete. Resume with next_cursor. queued: follow-ups
        waiting for a busy agent (drop_queued=<queue_id> drops one)."""
        dropped = None if drop_queued is None else (await follow_up_queue.drop(state, drop_queued)).id
        query = Query(status, name, pr_url, include_archived)
        fleet = Fleet(
            state.api, state.activity, current_call().time, query, stale_after_seconds=stale_after_minutes * 60
        )

        async def work() -> str | None:
            return await fleet.gather(limit, cursor, activity=activity, usage=usage)

        describe = lambda: f"{fleet.statuses_read} runs and {fleet.replays_read} replays read"  # noqa: E731
        next_cursor = await with_progress(current_call(), work, describe)

        def answer(shown: int) -> FleetView:
            return FleetView.of(
                fleet, next_cursor, activity=activity, usage=usage, stale_seconds=stale_after_minutes * 60, shown=shown
            )

        view = answer(state.answers.rows_in_answer(len(fleet.rows), answer))
        queued = [QueuedRow(**queued_row(act)) for act in await follow_up_queue.listed(state)]
        return view.model_copy(update={"queued": queued or None, "dropped_queue_id": dropped})
