"""Answers about a group of attempts: the set created, the attempts compared side by side, one kept."""

from __future__ import annotations

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import AttemptRow, Comparison, Kept, SetResult
from cursor_cloud_agents.server.pipeline.hints import suggest
from cursor_cloud_agents.server.views.agents import WEB_URL
from cursor_cloud_agents.server.views.view import View

COMPARE_WHEN_DONE = (
    suggest("cursor_wait", "group_id", until="all")
    + ", then "
    + suggest("cursor_compare", "group_id")
    + "; keep the best with "
    + suggest("cursor_keep", "group_id", "agent_id")
)


class AttemptMade(View):
    """One attempt of a set just created."""

    attempt: int
    model: str | None
    agent_id: str | None
    run_id: str | None
    url: str | None
    resumed: bool | None


class AttemptsView(View):
    """The answer of a set of attempts: the group id and each attempt's ids."""

    group_id: str
    name: str | None
    attempts: list[AttemptMade]
    next: str = COMPARE_WHEN_DONE

    @classmethod
    def of(cls, result: SetResult) -> AttemptsView:
        rows = [
            AttemptMade(
                attempt=outcome.index,
                model=outcome.model,
                agent_id=outcome.agent_id,
                run_id=outcome.run_id,
                url=outcome.url or (WEB_URL + outcome.agent_id if outcome.agent_id else None),
                resumed=outcome.resumed or None,
            )
            for outcome in result.outcomes
        ]
        return cls(group_id=result.group.group_id, name=result.group.name, attempts=rows)


COST_UNKNOWN = "not reported yet (Cursor reports a cost after the run; compare again later)"
CHECK_NOTE = "No check verdicts: no check command runs in compare (a check runs code an agent wrote, on its own)."


class ChangeSizeView(View):
    """The size of an attempt's change: files touched, lines added and removed."""

    files: int
    additions: int
    deletions: int


class CompareRow(View):
    """One attempt, side by side with the others."""

    attempt: int
    model: str | None
    agent_id: str | None
    status: str
    running: bool | None
    run_id: str | None
    duration_seconds: int | None
    cost_cents: float | str
    """Charged cents, or why not known: Cursor reports a run's cost some time after it ends."""
    change: ChangeSizeView | str
    """The size, or "unknown: why"."""
    result_head: str | None
    note: str | None

    @classmethod
    def of(cls, row: AttemptRow) -> CompareRow:
        size = row.change
        change = (
            ChangeSizeView(files=size.files, additions=size.additions, deletions=size.deletions)
            if size is not None
            else row.change_note or "unknown"
        )
        return cls(
            attempt=row.attempt,
            model=row.model,
            agent_id=row.agent_id,
            status=row.status,
            running=row.running or None,
            run_id=row.run_id,
            duration_seconds=row.duration_seconds,
            cost_cents=row.cost_cents if row.cost_cents is not None else COST_UNKNOWN,
            change=change,
            result_head=row.result_head,
            note=row.note,
        )


class CompareView(View):
    """The attempts of a group side by side; those still running; what to do next."""

    group_id: str
    name: str | None
    created_at: str
    attempts: list[CompareRow]
    running: list[str] | None
    checks: str = CHECK_NOTE
    next: str

    @classmethod
    def of(cls, comparison: Comparison) -> CompareView:
        group = comparison.group
        running = comparison.running
        next_step = (
            suggest("cursor_wait", group_id=group.id, until="all") + " for the attempts still running"
            if running
            else suggest("cursor_get_run", "agent_id", "run_id")
            + " for a whole result; "
            + suggest("cursor_keep", "group_id", "agent_id")
            + " to keep the best"
        )
        return cls(
            group_id=group.id,
            name=group.name,
            created_at=iso(group.at),
            attempts=[CompareRow.of(row) for row in comparison.rows],
            running=running or None,
            next=next_step,
        )


class KeptView(View):
    """One attempt kept, the others archived (reversible: cursor_archive_agent with unarchive=true)."""

    group_id: str
    kept: str
    archived: list[str]
    already_archived: list[str] | None
    gone: list[str] | None
    not_archived: list[dict[str, str]] | None
    undo: str = "cursor_archive_agent(agent_id, unarchive=true) restores an archived attempt."

    @classmethod
    def of(cls, group_id: str, kept: Kept) -> KeptView:
        failed = [{"agent_id": agent_id, "why": why} for agent_id, why in kept.failed]
        return cls(
            group_id=group_id,
            kept=kept.kept,
            archived=kept.archived,
            already_archived=kept.already_archived or None,
            gone=kept.gone or None,
            not_archived=failed or None,
        )
