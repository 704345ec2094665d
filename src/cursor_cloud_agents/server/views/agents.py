"""Agent answers: list rows and the list page, one agent, a creation (done, resumed or pending), archive, delete."""

from __future__ import annotations

from typing import Literal

from cursor_cloud_agents.api import Agent, AgentSummary, CreatedAgent, ModelSelection
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import Act, ScanPage
from cursor_cloud_agents.server.pipeline.hints import FOLLOW_THE_RUN
from cursor_cloud_agents.server.views.choices import ModelChoice
from cursor_cloud_agents.server.views.view import View

WEB_URL = "https://cursor.com/agents/"

RESUMED_NOTE = (
    "An identical creation sent earlier went through but its answer was lost before it reached you "
    "(the call was cut). Nothing new was created: this is that agent."
)
PENDING_NOTE = (
    "Cursor has not finished creating this agent (it can take minutes): read it again in a minute. "
    "Asking for the same creation again is safe: it re-sends this agent_id, which Cursor never creates twice."
)


def web_url(agent: AgentSummary) -> str:
    """The agent's page in Cursor's web interface."""
    return agent.url or WEB_URL + agent.id


class EnvView(View):
    """Where an agent runs."""

    type: str
    name: str | None

    @classmethod
    def of(cls, agent: AgentSummary) -> EnvView | None:
        """None (omitted) for a plain hosted VM, the common case."""
        env = agent.env
        if env is None or (env.type == "cloud" and env.name is None):
            return None
        return cls(type=env.type, name=env.name)


class _AgentFields(View):
    """What a list row and the full view of an agent share (both fill them through `AgentRow.of`)."""

    id: str
    name: str | None
    status: str
    url: str
    latest_run_id: str | None
    updated_at: str | None
    env: EnvView | None


class AgentRow(_AgentFields):
    """An agent in a list: compact, with its web URL."""

    @classmethod
    def of(cls, agent: AgentSummary) -> AgentRow:
        return cls(
            id=agent.id,
            name=agent.name,
            status=agent.status,
            url=web_url(agent),
            latest_run_id=agent.latest_run_id,
            updated_at=agent.updated_at,
            env=EnvView.of(agent),
        )


class RepoView(View):
    """A repository of an agent, and the pull request it opened there."""

    url: str
    starting_ref: str | None
    pr_url: str | None


class AgentView(_AgentFields):
    """One agent in full (the API never says which model it uses)."""

    created_at: str | None
    repos: list[RepoView] | None
    work_on_current_branch: bool | None
    auto_create_pr: bool | None

    @classmethod
    def of(cls, agent: Agent) -> AgentView:
        repos = [
            RepoView(url=repo.url, starting_ref=repo.starting_ref, pr_url=repo.pr_url) for repo in agent.repos or []
        ]
        return cls(
            **dict(AgentRow.of(agent)),
            created_at=agent.created_at,
            repos=repos or None,
            work_on_current_branch=agent.work_on_current_branch,
            auto_create_pr=agent.auto_create_pr,
        )


class AgentsPage(View):
    """One page of agents; `scanned` (agents read) only when the name filter is ours."""

    agents: list[AgentRow]
    next_cursor: str | None
    has_more: bool
    scanned: int | None

    @classmethod
    def of(cls, page: ScanPage[AgentSummary], *, named: bool) -> AgentsPage:
        return cls(
            agents=[AgentRow.of(agent) for agent in page.items],
            next_cursor=page.next_cursor,
            has_more=page.next_cursor is not None,
            scanned=page.scanned if named else None,
        )


class _Started(View):
    """What a creation answers first, whether its answer arrived or an earlier one was lost."""

    agent_id: str
    run_id: str | None
    url: str
    name: str | None


class CreatedAgentView(_Started):
    """The answer of a creation: the ids to keep and how to follow the run."""

    run_status: str
    model: ModelChoice | None
    next: str = FOLLOW_THE_RUN

    @classmethod
    def of(cls, created: CreatedAgent, model: ModelSelection | None) -> CreatedAgentView:
        agent = created.agent
        return cls(
            agent_id=agent.id,
            run_id=created.run.id,
            url=web_url(agent),
            name=agent.name,
            run_status=created.run.status,
            model=ModelChoice.of(model),
        )


class ResumedAgentView(_Started):
    """The answer when an earlier identical creation went through but its answer never arrived."""

    resumed: Literal[True] = True
    note: str = RESUMED_NOTE
    next: str = FOLLOW_THE_RUN

    @classmethod
    def of(cls, agent: AgentSummary) -> ResumedAgentView:
        return cls(agent_id=agent.id, run_id=agent.latest_run_id, url=web_url(agent), name=agent.name)


class PendingCreationView(View):
    """An agent whose creation was sent and never answered, which Cursor does not show (yet)."""

    agent_id: str | None
    name: str | None
    creation_pending: Literal[True] = True
    sent_at: str
    note: str = PENDING_NOTE

    @classmethod
    def of(cls, attempt: Act) -> PendingCreationView:
        return cls(agent_id=attempt.agent_id, name=attempt.name, sent_at=iso(attempt.at))


class ArchivedView(View):
    """The answer of an archive (`archived: true`) or an unarchive (`archived: false`)."""

    agent_id: str
    archived: bool


class DeletedView(View):
    """The answer of a deletion."""

    agent_id: str
    deleted: Literal[True] = True
