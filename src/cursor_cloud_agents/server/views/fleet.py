"""The fleet answer of `cursor_supervise`: a row per agent, the summary, and where to resume."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import SerializerFunctionWrapHandler, model_serializer

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import Act, ActivitySummary, AttemptPlace, Fleet, Row, ToolState, clip, queue
from cursor_cloud_agents.server.pipeline.hints import WAIT_FOR_SEVERAL
from cursor_cloud_agents.server.views.view import View

NAME_CHARS = 60


class RowActivity(View):
    """The part of a run's `ActivitySummary` a fleet row carries (activity=true): the idle time stands for
    the last event's time (`cursor_get_run` with activity gives both), so that 100 stuck rows fit in 30 KB."""

    idle_seconds: int | None
    last_tool: ToolState | None
    unfinished_background_tasks: int | None
    activity_error: str | None
    evidence: str | None
    """What decided the end of the replay: `result`, `live`, `heartbeat` or `silence <seconds>s`; none when
    the walk was cut (the row is then `incomplete`)."""

    @classmethod
    def of(cls, activity: ActivitySummary) -> RowActivity:
        return cls(
            idle_seconds=activity.idle_seconds,
            last_tool=activity.last_tool,
            unfinished_background_tasks=activity.unfinished_background_tasks or None,
            activity_error=activity.activity_error,
            evidence=evidence_text(activity),
        )


def evidence_text(activity: ActivitySummary) -> str | None:
    """The evidence in one short word, a silence with its length (`silence 1.5s`)."""
    if activity.evidence != "silence" or activity.silence_seconds is None:
        return activity.evidence
    return f"silence {activity.silence_seconds:g}s"


class FleetRow(View):
    """One agent of the fleet: its latest run's status, its cost (usage=true) and its activity."""

    agent_id: str
    name: str | None
    run_id: str | None
    status: str | None
    archived: Literal[True] | None
    read_error: str | None
    charged_cents: float | None
    usage_error: str | None
    group_id: str | None
    """The group of attempts this agent is one of (cursor_compare), with its place: `attempt` of `of`."""
    attempt: str | None
    activity: RowActivity | None

    @model_serializer(mode="wrap")
    def _flat(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A row stays flat, one level for the model to read: the activity's fields sit beside the others.
        data: dict[str, Any] = handler(self)
        activity: dict[str, Any] = data.pop("activity", None) or {}
        return data | activity

    @classmethod
    def of(cls, row: Row, placed: Mapping[str, AttemptPlace] | None = None) -> FleetRow:
        agent = row.agent
        place = (placed or {}).get(agent.id.lower())
        return cls(
            group_id=None if place is None else place.group_id,
            attempt=None if place is None else f"{place.attempt}/{place.of}",
            agent_id=agent.id,
            name=clip(agent.name or "", NAME_CHARS)[0] or None,
            run_id=agent.latest_run_id,
            status=None if row.run is None else row.run.status,
            archived=agent.status == "ARCHIVED" or None,
            read_error=row.read_error,
            charged_cents=row.charged_cents,
            usage_error=row.usage_error,
            activity=None if row.activity is None or _says_nothing_new(row) else RowActivity.of(row.activity),
        )


def _says_nothing_new(row: Row) -> bool:
    """An ended run whose replay ended on its result, no background task left going and no stream error: its
    activity adds nothing to its status, so its row goes without (100 such rows took 24 KB with it, 15 KB without)."""
    activity = row.activity
    return (
        activity is not None
        and row.run is not None
        and row.run.is_terminal
        and activity.evidence == "result"
        and not activity.unfinished_background_tasks
        and activity.activity_error is None
    )


class FleetSummary(View):
    """Counts by run status; with usage the cost; with activity the stale runs (decided replays only: see
    `liveness`), those that ended with a background task going, and the runs whose replay walk was cut."""

    runs: dict[str, int]
    read_errors: int
    charged_cents: float | int | None  # int: the sum of no costs is 0, not 0.0
    cost_missing: int | None
    stale: list[str] | None
    unfinished_after_end: list[str] | None
    incomplete: list[str] | None

    @classmethod
    def of(cls, rows: list[Row], *, activity: bool, usage: bool, stale_seconds: float) -> FleetSummary:
        counts = Counter(row.run.status for row in rows if row.run is not None)
        known = [row.charged_cents for row in rows if row.charged_cents is not None]

        def ids(keep: Callable[[Row], bool]) -> list[str] | None:
            return [row.agent.id for row in rows if keep(row)] if activity else None

        return cls(
            runs=dict(sorted(counts.items())),
            read_errors=sum(1 for row in rows if row.read_error),
            charged_cents=round(sum(known), 2) if usage else None,
            cost_missing=(len(rows) - len(known) or None) if usage else None,
            stale=ids(lambda row: row.stale(stale_seconds)),
            unfinished_after_end=ids(lambda row: row.unfinished_after_end),
            incomplete=ids(lambda row: row.incomplete),
        )


class QueuedRow(View):
    """A follow-up waiting in the queue (`core.queue`): sent once the run `after_run_id` ends."""

    queue_id: str
    agent_id: str | None
    after_run_id: str | None
    queued_at: str
    expires_at: str
    prompt_start: str


def queued_row(act: Act) -> dict[str, Any]:
    """A queued follow-up's row: `core.queue.describe`, its times as ISO dates."""
    row = queue.describe(act)
    return row | {"queued_at": iso(row["queued_at"]), "expires_at": iso(row["expires_at"])}


class WatchRow(View):
    """A PR watch going (docs/pr-loop.md): its PR, the fixes sent of its cap, its last event."""

    agent_id: str
    pr: str
    fixes_sent: int
    max_fixes: int
    escalated: bool
    last_event: str | None
    commit: str | None


class FleetView(View):
    """The answer of `cursor_supervise`: `scanned` counts the agents read, kept or not."""

    agents: list[FleetRow]
    summary: FleetSummary
    next_cursor: str | None
    scanned: int
    next: str | None
    """How to be told when the active runs end, instead of supervising again and again."""
    limit_used: int | None = None
    queued: list[QueuedRow] | None = None
    """Follow-ups queued for busy agents, waiting for their run to end."""
    dropped_queue_id: str | None = None
    watches: list[WatchRow] | None = None
    """PR watches going: each agent's PR state as its watch last saw it."""
    """The rows given, when the cap made them fewer than asked: next_cursor resumes right after the last."""

    @classmethod
    def of(
        cls,
        fleet: Fleet,
        next_cursor: str | None,
        *,
        activity: bool,
        usage: bool,
        stale_seconds: float,
        shown: int,
        placed: Mapping[str, AttemptPlace] | None = None,
    ) -> FleetView:
        """The first `shown` rows of the fleet (all of them, unless the cap cuts the answer short)."""
        kept = fleet.rows[:shown]
        summary = FleetSummary.of(kept, activity=activity, usage=usage, stale_seconds=stale_seconds)
        waiting = sum(1 for row in kept if row.active) > 1
        cut = shown < len(fleet.rows)
        resume = fleet.page.cut(shown) if cut and fleet.page is not None else next_cursor
        return cls(
            agents=[FleetRow.of(row, placed) for row in kept],
            summary=summary,
            next_cursor=resume,
            scanned=fleet.scanned,
            next=WAIT_FOR_SEVERAL if waiting else None,
            limit_used=shown if cut else None,
        )
