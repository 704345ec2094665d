"""The answer of cursor_wait: the runs that ended (with a fair share of each result), those still running, and
those that could not be read."""

from __future__ import annotations

from cursor_cloud_agents.core import Until, Watched
from cursor_cloud_agents.server.pipeline.hints import READ_THE_CHANGES
from cursor_cloud_agents.server.pipeline.words import for_model
from cursor_cloud_agents.server.views.runs import RunOutcome, pushed
from cursor_cloud_agents.server.views.view import View


class EndedRun(RunOutcome):
    """A run that ended, and when, into this wait, its end was seen (0: it had ended before)."""

    ended_after_seconds: float | None

    @classmethod
    def of(cls, row: Watched) -> EndedRun:
        run = row.run
        assert run is not None  # only ended rows
        return cls(
            **RunOutcome.fields_of(row.agent_id, run),
            ended_after_seconds=row.ended_after,
            result_chars=len(run.result) if run.result else None,
        )


class RunningRun(View):
    """A run that has not ended yet."""

    agent_id: str
    run_id: str
    status: str


class UnreadRun(View):
    """A row whose run could not be read: only this row is marked (an unknown or deleted agent)."""

    agent_id: str
    run_id: str | None
    code: str
    message: str | None


class WaitView(View):
    """How the wait ended and where each run stands."""

    until: Until
    timed_out: bool | None
    waited_seconds: float
    ended: list[EndedRun]
    running: list[RunningRun] | None
    unread: list[UnreadRun] | None
    next: str | None
    changes: str | None = None
    """When a run that ended pushed a branch: how to read and check its change."""
    read_on: str | None = None

    @classmethod
    def of(cls, rows: list[Watched], until: Until, *, met: bool, waited: float, next_step: str | None) -> WaitView:
        running = [
            RunningRun(agent_id=row.agent_id, run_id=row.run_id, status=row.run.status)
            for row in rows
            if row.run is not None and row.run_id is not None and not row.ended
        ]
        unread = [
            UnreadRun(agent_id=row.agent_id, run_id=row.run_id, code=row.failure.code, message=for_model(row.failure))
            for row in rows
            if row.failure is not None and row.run is None
        ]
        return cls(
            until=until,
            timed_out=not met or None,
            waited_seconds=round(waited, 1),
            ended=[EndedRun.of(row) for row in rows if row.ended],
            running=running or None,
            unread=unread or None,
            next=next_step if running else None,
            changes=READ_THE_CHANGES if any(row.ended and row.run and pushed(row.run) for row in rows) else None,
        )
