"""Sending a paid creation exactly once, even when its answer is lost on the way back.

Three guards, from the request outward: the client never resends a POST; an id conflict means an
earlier attempt with the same id already created the agent; and the creation journal resolves, by
reading, an identical creation whose earlier answer never came (a cancelled call, a dead process).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from cursor_cloud_agents.api import (
    Agent,
    AgentIdConflictError,
    AgentSummary,
    CreateAgentRequest,
    CreatedAgent,
    CursorError,
    MutationOutcomeUnknownError,
    NotFoundError,
)
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.journal import Attempt, CreationJournal, fingerprint
from cursor_cloud_agents.server.toolkit import Toolkit
from cursor_cloud_agents.server.tools import scan

# An agent found by name counts as the lost creation only if it was created this close to the attempt.
NAME_MATCH_SLACK_SECONDS = 120.0


async def send_create(kit: Toolkit, request: CreateAgentRequest) -> CreatedAgent:
    """POST the creation once; an id conflict means an earlier attempt with this id created the agent."""
    try:
        return await kit.api.create_agent(request)
    except AgentIdConflictError as exc:
        raise ToolFailure(
            "CONFLICT", f"Agent {request.agent_id} already exists: an earlier call with this agent_id created it, "
            "so nothing new was created. Read it with cursor_get_agent.",
            agent_id=request.agent_id, http_status=exc.status_code,
        ) from None  # fmt: skip


async def create_once(
    kit: Toolkit, journal: CreationJournal, request: CreateAgentRequest
) -> CreatedAgent | Agent | AgentSummary:
    """The created agent, or the agent an earlier identical call created but never reported."""
    print_ = fingerprint(request.wire())
    earlier = journal.unsettled(print_, kit.now())
    if earlier is not None:
        found = await _resolve(kit, journal, earlier)
        if found is not None:
            return found
    attempt = Attempt(kit.now(), print_, request.agent_id, request.name, "sent")
    journal.write(attempt)
    try:
        created = await send_create(kit, request)
    except MutationOutcomeUnknownError:
        raise  # stays "sent": the next identical call reads before it sends
    except (CursorError, ToolFailure):
        journal.write(replace(attempt, state="failed"))
        raise
    journal.write(replace(attempt, agent_id=created.agent.id, state="done"))
    return created


async def _resolve(kit: Toolkit, journal: CreationJournal, earlier: Attempt) -> Agent | AgentSummary | None:
    """Read whether the earlier attempt created its agent: that agent if so, None if it provably did not."""
    agent = await _by_id(kit, earlier.agent_id) if earlier.agent_id else await _by_name(kit, earlier)
    journal.write(replace(earlier, state="failed" if agent is None else "done"))
    return agent


async def _by_id(kit: Toolkit, agent_id: str | None) -> Agent | None:
    assert agent_id is not None
    try:
        return await kit.api.get_agent(agent_id)
    except NotFoundError:
        return None


async def _by_name(kit: Toolkit, earlier: Attempt) -> AgentSummary | None:
    """The one agent with the attempt's name created around its time (creations with env_vars have no id)."""

    def same(agent: AgentSummary) -> bool:
        created = _seconds(agent.created_at)
        return agent.name == earlier.name and created is not None and created >= earlier.at - NAME_MATCH_SLACK_SECONDS

    page = await scan.scan_agents(kit.api, limit=2, cursor=None, keep=same, mark="journal")
    if len(page.items) > 1:
        raise ToolFailure(
            failures.MUTATION_OUTCOME_UNKNOWN, f"An identical creation sent earlier may have gone through, and "
            f"several agents are named {earlier.name!r}: read them with cursor_list_agents(name=...) before "
            "creating again.", name=earlier.name,
        )  # fmt: skip
    return page.items[0] if page.items else None


def _seconds(iso: str | None) -> float | None:
    try:
        return None if iso is None else datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None
