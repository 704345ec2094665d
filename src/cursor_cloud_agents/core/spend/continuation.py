"""Whether an agent may be sent a follow-up: its record must prove the new run cannot land somewhere unsafe.

A follow-up is refused when information needed for safety is missing: the agent archived, a status
this server does not know, or `workOnCurrentBranch` not explicitly false (the new run could push onto
the starting branch). The follow-up tool and the terminal's `followup` both ask here; no MCP import.
"""

from __future__ import annotations

from cursor_cloud_agents.api import Agent
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.failures import Code, ToolFailure

CONTINUATION_REFUSED = Code.CONTINUATION_REFUSED


def continuation_problem(agent: Agent) -> str | None:
    """Why a follow-up on this agent is refused, or None when it may be sent."""
    if agent.status == "ARCHIVED":
        return "the agent is archived"
    if agent.status not in ("ACTIVE", "IDLE"):
        return f"its status {agent.status!r} is unknown to this server"
    if agent.work_on_current_branch is not False:
        return "workOnCurrentBranch is not explicitly false, so a follow-up could push onto the starting branch"
    return None


def refuse_continuation(agent: Agent) -> None:
    """Raise CONTINUATION_REFUSED when the agent's record does not prove a follow-up is safe."""
    problem = continuation_problem(agent)
    if problem is not None:
        archived = advice(Step.UNARCHIVE, agent_id=agent.id) if agent.status == "ARCHIVED" else None
        said = f"No follow-up was sent: {problem}" + ("" if archived else ".")
        raise ToolFailure(CONTINUATION_REFUSED, said, advice=archived, agent_id=agent.id, status=agent.status)
