"""Run wire models: the run record and the follow-up answer."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import WireModel

RUN_STATUSES = ("QUEUED", "CREATING", "RUNNING", "FINISHED", "ERROR", "CANCELLED", "EXPIRED")
"""Run statuses seen so far; the field stays an open string. `QUEUED` (in the SDK's internals since the
contract was written) is a run accepted but not started yet: active, shown as is."""
ACTIVE_RUN_STATUSES = frozenset({"QUEUED", "CREATING", "RUNNING"})
"""Statuses of a run that has not ended: the agent refuses a follow-up (`agent_busy`) while one is."""
TERMINAL_RUN_STATUSES = frozenset({"FINISHED", "ERROR", "CANCELLED", "EXPIRED"})
"""Statuses after which a run never changes."""


class GitBranch(WireModel):
    """A branch the agent pushed (per agent, the same on every run; no SHA)."""

    repo_url: str
    """Without scheme, e.g. `github.com/org/repo`."""
    branch: str | None = None
    pr_url: str | None = None


class RunGit(WireModel):
    """Git state of the agent as shown on a run."""

    branches: list[GitBranch] = []


class RunError(WireModel):
    """An error reported on a run (observed absent on ERROR runs)."""

    message: str | None = None
    code: str | None = None


class Run(WireModel):
    """One run of an agent."""

    id: str
    agent_id: str | None = None
    status: str
    """`QUEUED`, `CREATING`, `RUNNING`, a terminal status, or anything newer (kept as sent)."""
    created_at: str | None = None
    updated_at: str | None = None
    """Stays frozen while RUNNING (observed): liveness comes from stream event ids."""
    duration_ms: int | None = None
    result: str | None = None
    git: RunGit | None = None
    error: RunError | None = None
    request_id: str | None = None

    @property
    def is_terminal(self) -> bool:
        """True once the run reached FINISHED, ERROR, CANCELLED or EXPIRED."""
        return self.status in TERMINAL_RUN_STATUSES


class CreatedRun(WireModel):
    """The answer of `POST /v1/agents/{id}/runs`."""

    run: Run
