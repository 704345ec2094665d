"""Answers about a group of attempts: the set created, the attempts compared side by side, one kept."""

from __future__ import annotations

from collections.abc import Callable

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import AttemptRow, CheckResult, Comparison, Kept, SetResult
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


COST_LATE = "not reported yet: Cursor reports a run's cost a little after it ends"
COST_RUNNING = "not reported yet: the run is still going"
COST_AGAIN_SECONDS = 60
"""When to compare again for a cost not reported yet (the API says it may lag a little after a run ends)."""
CHECK_NOTE = (
    "compare runs no check (a check runs code an agent wrote): cursor_check_changes per attempt, then compare "
    "shows each verdict beside its change"
)


class ChangeSizeView(View):
    """The size of an attempt's change: files touched, lines added and removed."""

    files: int
    additions: int
    deletions: int


class VerdictView(View):
    """The last check this server ran on the attempt's commit."""

    passed: bool
    exit_code: int | None
    timed_out: bool | None


class CompareRow(View):
    """One attempt, side by side with the others. Every field keeps one type between calls (K-64): a value
    not known yet is null, with the reason in the `*_note` beside it."""

    attempt: int
    model: str | None
    agent_id: str | None
    status: str
    running: bool | None
    choice: str | None
    """`kept` or `archived` once one attempt was kept (cursor_keep)."""
    run_id: str | None
    duration_seconds: int | None
    cost_cents: float | None
    """Charged cents; null until Cursor reports them (`cost_note` says why, `look_again_after_seconds` when)."""
    cost_note: str | None
    look_again_after_seconds: int | None
    change: ChangeSizeView | None
    change_note: str | None
    """Why the change is null: not pushed yet, no git, no access..."""
    commit: str | None
    check: VerdictView | None
    """The verdict of cursor_check_changes on this commit, when it ran."""
    result_head: str | None
    note: str | None

    @classmethod
    def of(cls, row: AttemptRow, choice: str | None, verdict: CheckResult | None) -> CompareRow:
        size = row.change
        cost_note = None
        if row.cost_cents is None and row.run_id is not None:
            cost_note = COST_RUNNING if row.running else COST_LATE
        return cls(
            attempt=row.attempt,
            model=row.model,
            agent_id=row.agent_id,
            status=row.status,
            running=row.running or None,
            choice=choice,
            run_id=row.run_id,
            duration_seconds=row.duration_seconds,
            cost_cents=row.cost_cents,
            cost_note=cost_note,
            look_again_after_seconds=COST_AGAIN_SECONDS if cost_note == COST_LATE else None,
            change=ChangeSizeView(files=size.files, additions=size.additions, deletions=size.deletions)
            if size is not None
            else None,
            change_note=None if size is not None else row.change_note or "unknown",
            commit=row.commit,
            check=None
            if verdict is None
            else VerdictView(passed=verdict.passed, exit_code=verdict.exit_code, timed_out=verdict.timed_out or None),
            result_head=row.result_head,
            note=row.note,
        )


class CompareView(View):
    """The attempts of a group side by side; those still running; which one was kept; what to do next."""

    group_id: str
    name: str | None
    created_at: str
    attempts: list[CompareRow]
    running: list[str] | None
    kept: str | None
    checks: str | None
    next: str

    @classmethod
    def of(cls, comparison: Comparison, verdicts: Callable[[str, str], CheckResult | None]) -> CompareView:
        group = comparison.group
        running = comparison.running
        kept = comparison.kept
        rows = [
            CompareRow.of(
                row,
                _choice(row, kept),
                verdicts(row.agent_id, row.commit) if row.agent_id and row.commit else None,
            )
            for row in comparison.rows
        ]
        return cls(
            group_id=group.id,
            name=group.name,
            created_at=iso(group.at),
            attempts=rows,
            running=running or None,
            kept=kept,
            checks=CHECK_NOTE if any(row.commit and row.check is None for row in rows) else None,
            next=_next_step(group.id, running, kept),
        )


def _choice(row: AttemptRow, kept: str | None) -> str | None:
    if kept is None or row.agent_id is None:
        return None
    return "kept" if row.agent_id == kept else "archived" if row.archived else None


def _next_step(group_id: str, running: list[str], kept: str | None) -> str:
    if kept is not None:
        return (
            f"{kept} is kept, the other attempts archived; "
            + suggest("cursor_get_changes", agent_id=kept)
            + " to review it; cursor_archive_agent(agent_id, unarchive=true) restores an archived one"
        )
    if running:
        return suggest("cursor_wait", group_id=group_id, until="all") + " for the attempts still running"
    return (
        suggest("cursor_check_changes", "agent_id")
        + " to test each; "
        + suggest("cursor_get_run", "agent_id", "run_id")
        + " for a whole result; "
        + suggest("cursor_keep", "group_id", "agent_id")
        + " to keep the best"
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
