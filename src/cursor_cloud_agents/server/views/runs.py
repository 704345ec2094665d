"""Run answers: list rows and the list page, one run as cursor_get_run reads it, a cancel's outcome."""

from __future__ import annotations

import re
from typing import Any, Literal

from cursor_cloud_agents.api import GitBranch, Page, Run
from cursor_cloud_agents.core import ActivitySummary, end_line
from cursor_cloud_agents.server.pipeline.answers import size
from cursor_cloud_agents.server.pipeline.hints import READ_THE_CHANGES, WAIT_FOR_SEVERAL
from cursor_cloud_agents.server.views.view import View

GIT_NOTE = "the agent's current branches (the same on every run), not a snapshot of this run; no SHA"
ERROR_NOTE = "The API gave no cause for this ERROR (a known quirk); activity shows what the agent last did."
_CLIP = {"run_id": 64, "status": 24, "created_at": 32, "updated_at": 32, "error_code": 48}
# List rows hold API tokens only (ids, statuses, ISO times, codes): anything else is dropped, so a
# row's size has a hard bound and a page size can be chosen that always fits the cap.
_NOT_TOKEN = re.compile(r"[^A-Za-z0-9_.:+-]")
_MAX_DURATION_MS = 10**13


def _token(value: str, key: str) -> str:
    return _NOT_TOKEN.sub("", value)[: _CLIP[key]]


def _optional_token(value: str | None, key: str) -> str | None:
    return None if value is None else _token(value, key)


class RunRow(View):
    """A run as a list row: bounded fields only (the result as its length; read it with cursor_get_run)."""

    run_id: str
    status: str
    created_at: str | None
    updated_at: str | None
    """Only once the run ended: a RUNNING run keeps the updatedAt of its creation (quirk 2)."""
    duration_ms: int | None
    result_chars: int | None
    error_code: str | None

    @classmethod
    def of(cls, run: Run) -> RunRow:
        duration = run.duration_ms
        return cls(
            run_id=_token(run.id, "run_id"),
            status=_token(run.status, "status"),
            created_at=_optional_token(run.created_at, "created_at"),
            updated_at=_optional_token(run.updated_at, "updated_at") if run.is_terminal else None,
            duration_ms=duration if duration is not None and 0 <= duration < _MAX_DURATION_MS else None,
            result_chars=None if run.result is None else len(run.result),
            error_code=_optional_token(run.error.code if run.error else None, "error_code"),
        )


def _worst_row_bytes() -> int:
    widest = {key: "x" * length for key, length in _CLIP.items()}
    return size(RunRow(**widest, duration_ms=_MAX_DURATION_MS, result_chars=10**12))


RUN_ITEM_MAX_BYTES = _worst_row_bytes()
"""The bytes of the widest row a list can hold: every field at its clip length."""


class RunList(View):
    """One page of an agent's runs."""

    agent_id: str
    runs: list[RunRow]
    next_cursor: str | None
    has_more: bool
    limit_used: int | None
    """The page size used, when the cap made it smaller than asked."""

    @classmethod
    def of(cls, agent_id: str, page: Page[Run], *, limit: int, used: int) -> RunList:
        return cls(
            agent_id=agent_id,
            runs=[RunRow.of(run) for run in page.items],
            next_cursor=page.next_cursor,
            has_more=page.next_cursor is not None,
            limit_used=used if used < limit else None,
        )


class BranchView(View):
    """A branch the agent pushed, and its pull request."""

    repo: str
    branch: str | None
    pr_url: str | None

    @classmethod
    def of(cls, branch: GitBranch) -> BranchView:
        return cls(repo=branch.repo_url, branch=branch.branch, pr_url=branch.pr_url)


class RunErrorView(View):
    """The error Cursor reported on a run."""

    message: str | None
    code: str | None


class RunOutcome(View):
    """What a run came to: its status, duration, error (and why none), branches, and a slice of its result.

    `cursor_get_run` and `cursor_wait` answer these the same way; `Answers.slice_text` (or a fair share)
    fills the result's three fields."""

    agent_id: str
    run_id: str
    status: str
    duration_ms: int | None
    ended: str | None = None
    """Once the run ended: `FINISHED after 3h 2m` (`core.elapsed`), as every command and event says it."""
    error: RunErrorView | None
    note: str | None
    branches: list[BranchView] | None
    result: str | None = None
    result_chars: int | None = None
    result_next_offset: int | None = None
    """Where the result goes on: pass it back as result_offset to cursor_get_run."""

    @staticmethod
    def fields_of(agent_id: str, run: Run) -> dict[str, Any]:
        """The outcome's fields for `run`, its result slice aside."""
        error = RunErrorView(message=run.error.message, code=run.error.code) if run.error else None
        branches = [BranchView.of(branch) for branch in (run.git.branches if run.git else [])]
        causeless = run.status == "ERROR" and error is None and run.result is None
        return {
            "agent_id": agent_id,
            "run_id": run.id,
            "status": run.status,
            "duration_ms": run.duration_ms,
            "ended": end_line(run) if run.is_terminal else None,
            "error": error,
            "note": ERROR_NOTE if causeless else None,
            "branches": branches or None,
        }


class RunView(RunOutcome):
    """A run as cursor_get_run reads it: its outcome, its times, the activity, and what to do after a wait."""

    created_at: str | None
    updated_at: str | None
    git_note: str | None
    timed_out: bool | None
    activity: ActivitySummary | None
    next: str | None
    """After a wait that timed out: how to wait on several runs at once instead of polling each."""

    @classmethod
    def of(cls, agent_id: str, run: Run, *, timed_out: bool, activity: ActivitySummary | None) -> RunView:
        """Everything but the result slice; a run's `git` shown as what it is, the agent's current branches."""
        fields = RunOutcome.fields_of(agent_id, run)
        return cls(
            **fields,
            created_at=run.created_at,
            updated_at=run.updated_at if run.is_terminal else None,
            git_note=GIT_NOTE if fields["branches"] else None,
            timed_out=timed_out or None,
            activity=activity,
            next=WAIT_FOR_SEVERAL if timed_out else READ_THE_CHANGES if pushed(run) else None,
        )


def pushed(run: Run) -> bool:
    """Whether `run` finished with a branch to read."""
    return run.status == "FINISHED" and any(branch.branch for branch in (run.git.branches if run.git else []))


CancelOutcome = Literal["cancelled", "ended_without_cancel", "still_running", "unknown"]


def _outcome(run: Run | None, said: str, *, refused: bool) -> tuple[CancelOutcome, str]:
    if run is None:
        return "unknown", f"{said} but the run could not be re-read; check it with cursor_get_run."
    status = run.status
    if not run.is_terminal:
        asynchronous = "(cancelling is asynchronous); check with cursor_get_run."
        return "still_running", f"{said} but the run still reads {status} {asynchronous}"
    if refused:
        return "ended_without_cancel", f"The run had already ended as {status}; nothing was cancelled."
    if status == "CANCELLED":
        return "cancelled", "The run is CANCELLED. Commits it already pushed stay."
    return "ended_without_cancel", f"The run ended as {status} before the cancel took effect."


class CancelView(View):
    """What a re-read after a cancel showed: confirmed only for a CANCELLED read after our cancel."""

    agent_id: str
    run_id: str
    outcome: CancelOutcome
    outcome_confirmed: bool
    status: str | None
    message: str

    @classmethod
    def of(cls, agent_id: str, run_id: str, run: Run | None, *, refused: bool) -> CancelView:
        said = "Cursor refused the cancel (run_not_cancellable)" if refused else "Cursor accepted the cancel"
        outcome, message = _outcome(run, said, refused=refused)
        return cls(
            agent_id=agent_id,
            run_id=run_id,
            outcome=outcome,
            outcome_confirmed=outcome == "cancelled",
            status=None if run is None else run.status,
            message=message,
        )
