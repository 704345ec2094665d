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

from cursor_cloud_agents.core import (
    STALE_AFTER_MINUTES,
    Fleet,
    Query,
    describe_watch,
    placements,
    queue,
    watches_kept,
    with_progress,
)
from cursor_cloud_agents.core.timing import SUPERVISE_ACTIVITY_SECONDS, SUPERVISE_SECONDS
from cursor_cloud_agents.server.pipeline.declaration import Catalogue
from cursor_cloud_agents.server.pipeline.params import NameFilter, PageCursor, PrUrl
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.fleet import FleetView, QueuedRow, WatchRow, queued_row

StatusFilter = Literal["active", "all"]
StaleMinutes = Annotated[
    int, Field(ge=1, le=10_080, description=f"Idle minutes that make a run stale (default {STALE_AFTER_MINUTES}).")
]
RowLimit = Annotated[int, Field(ge=1, le=100, description="Rows per page, 1-100.")]


catalogue = Catalogue()


def supervise_budget(arguments: Mapping[str, Any]) -> float:
    """Seconds for one call: statuses only, or with every replay walked for its activity."""
    return SUPERVISE_ACTIVITY_SECONDS if arguments.get("activity") else SUPERVISE_SECONDS


@catalogue.tool(title="Supervise the fleet", budget=supervise_budget)
async def cursor_supervise(
    state: ServerState,
    call: ToolCall,
    status: StatusFilter = "active",
    name: NameFilter = None,
    pr_url: PrUrl = None,
    include_archived: bool = False,
    activity: bool = False,
    usage: bool = False,
    stale_after_minutes: StaleMinutes = STALE_AFTER_MINUTES,
    limit: RowLimit = 50,
    cursor: PageCursor = None,
    drop_queued: Annotated[str | None, Field(max_length=64)] = None,  # described in the docstring
) -> FleetView:
    """The fleet in one call: each agent's latest run; activity=true adds liveness and background tasks,
    usage=true charged_cents. status=active: latest run CREATING or RUNNING (not the agent's status).
    summary: counts, stale, unfinished_after_end, incomplete. queued: follow-ups
    waiting for a busy agent (drop_queued=<queue_id> drops one)."""
    dropped = None if drop_queued is None else (await queue.drop(state, drop_queued)).id
    query = Query(status, name, pr_url, include_archived)
    fleet = Fleet(state.api, state.activity, call.time, query, stale_after_seconds=stale_after_minutes * 60)

    async def work() -> str | None:
        return await fleet.gather(limit, cursor, activity=activity, usage=usage)

    describe = lambda: f"{fleet.statuses_read} runs and {fleet.replays_read} replays read"  # noqa: E731
    next_cursor = await with_progress(call, work, describe)

    placed = await placements(state.store, state.clock.now())  # attempts shown with their group

    def answer(shown: int) -> FleetView:
        return FleetView.of(
            fleet,
            next_cursor,
            activity=activity,
            usage=usage,
            stale_seconds=stale_after_minutes * 60,
            shown=shown,
            placed=placed,
        )

    view = answer(state.answers.rows_in_answer(len(fleet.rows), answer))
    queued = [QueuedRow(**queued_row(act)) for act in await queue.listed(state)]
    watching = [WatchRow(**describe_watch(record)) for record in await watches_kept(state.store, state.clock.now())]
    return view.model_copy(update={"queued": queued or None, "dropped_queue_id": dropped, "watches": watching or None})
