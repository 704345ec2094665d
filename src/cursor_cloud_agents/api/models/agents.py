"""Agent wire models: the agent record and the create answer."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import AutoCreatePR, WireModel
from cursor_cloud_agents.api.models.runs import Run

AGENT_STATUSES = ("ACTIVE", "IDLE", "ARCHIVED")
"""Agent statuses seen so far; the field stays an open string."""


class AgentEnv(WireModel):
    """Where an agent runs."""

    type: str
    """`cloud`, `pool` or `machine` (open string)."""
    name: str | None = None
    """Named cloud environment or pool."""


class RepoRef(WireModel):
    """A repository the agent works on."""

    url: str
    starting_ref: str | None = None
    pr_url: str | None = None


class AgentSummary(WireModel):
    """An agent as listed by `GET /v1/agents`."""

    id: str
    name: str | None = None
    status: str
    """`ACTIVE`, `IDLE`, `ARCHIVED` or anything newer (kept as sent)."""
    env: AgentEnv | None = None
    url: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    latest_run_id: str | None = None


class Agent(AgentSummary):
    """The full agent record (`GET /v1/agents/{id}`, create answer)."""

    repos: list[RepoRef] | None = None
    work_on_current_branch: bool | None = None
    auto_create_pr: AutoCreatePR = None
    skip_reviewer_request: bool | None = None
    open_as_cursor_github_app: bool | None = None
    metadata: dict[str, str] | None = None


class CreatedAgent(WireModel):
    """The answer of `POST /v1/agents`: the agent and its first run."""

    agent: Agent
    run: Run
