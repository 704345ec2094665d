"""The follow-up run: a new prompt to an existing agent, which keeps its conversation.

The agent is read first and a follow-up is refused when information needed for safety is missing
(archived, unknown status, `workOnCurrentBranch` not explicitly false). A model given here applies
to this run and to the agent's later runs (observed 2026-10-05; the API never says which model is
active). A busy agent answers `AGENT_BUSY`; `replace_active` cancels the active run, re-reads it
until it is terminal, and only then sends: if it does not end within the call's budget, nothing is
sent. The POST itself is sent once, with the previous run id noted to resolve an unknown outcome.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.api import (
    Agent,
    AgentArchivedError,
    AgentBusyError,
    CreateRunRequest,
    MutationOutcomeUnknownError,
    Prompt,
    Run,
    RunNotCancellableError,
    time_left,
)
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.toolkit import Access, Toolkit, current_call
from cursor_cloud_agents.server.tools import model_check
from cursor_cloud_agents.server.tools.agents import ModelId, ModelParams, Reasoning, Text
from cursor_cloud_agents.server.tools.params import AgentId

CONTINUATION_REFUSED = "CONTINUATION_REFUSED"
AGENT_BUSY = "AGENT_BUSY"
FOLLOWUP_BUDGET = 95.0
POLL_SECONDS = 2.0
# What the follow-up POST needs once the old run has ended: the client sends no mutation with less
# than 5 s left, plus room for the last re-read.
RESERVE_SECONDS = 8.0
MODEL_NOTE = "The model applies to this run and to the agent's later runs."


def continuation_problem(agent: Agent) -> str | None:
    """Why a follow-up on this agent is refused, or None when it may be sent."""
    if agent.status == "ARCHIVED":
        return "the agent is archived: unarchive it first (cursor_archive_agent with unarchive=true)"
    if agent.status not in ("ACTIVE", "IDLE"):
        return f"its status {agent.status!r} is unknown to this server"
    if agent.work_on_current_branch is not False:
        return "workOnCurrentBranch is not explicitly false, so a follow-up could push onto the starting branch"
    return None


def refuse_continuation(agent: Agent) -> None:
    """Raise CONTINUATION_REFUSED when the agent's record does not prove a follow-up is safe."""
    problem = continuation_problem(agent)
    if problem is not None:
        raise ToolFailure(
            CONTINUATION_REFUSED, f"No follow-up was sent: {problem}.", agent_id=agent.id, status=agent.status
        )


def busy(run_id: str | None, detail: str) -> ToolFailure:
    """AGENT_BUSY: the API accepts no message while a run is active."""
    return ToolFailure(
        AGENT_BUSY, f"{detail} Nothing was sent. Wait for the run (cursor_get_run with wait_seconds), or follow "
        "up with replace_active=true to cancel it first.",
        active_run_id=run_id,
    )  # fmt: skip


async def wait_until_ended(kit: Toolkit, agent_id: str, run_id: str) -> Run:
    """Re-read a cancelled run until it is terminal, leaving enough of the budget to send the follow-up."""
    left = time_left()
    stop_at = kit.now() + (kit.settings.max_call_seconds if left is None else left) - RESERVE_SECONDS
    while True:
        run = await kit.api.get_run(agent_id, run_id)
        if run.is_terminal:
            return run
        await current_call().progress(f"run {run_id} is {run.status}; waiting for the cancel to take effect")
        left = time_left()
        if kit.now() + POLL_SECONDS > stop_at or (left is not None and left - POLL_SECONDS < RESERVE_SECONDS):
            raise busy(run_id, f"Run {run_id} was asked to cancel but still reads {run.status}.")
        await kit.sleep(POLL_SECONDS)


async def replace(kit: Toolkit, agent_id: str, run_id: str) -> Run | None:
    """Cancel the active run and wait until it is terminal; None when no run was active."""
    run = await kit.api.get_run(agent_id, run_id)
    if run.is_terminal:
        return None
    try:
        await kit.api.cancel_run(agent_id, run_id)
    except (RunNotCancellableError, MutationOutcomeUnknownError):
        pass  # it ended meanwhile, or the cancel may have landed: the re-reads below decide
    return await wait_until_ended(kit, agent_id, run_id)


async def send(kit: Toolkit, agent_id: str, request: CreateRunRequest, previous: str | None) -> Run:
    """POST the follow-up once; a conflict becomes the failure the model can act on."""
    try:
        return await kit.api.create_run(agent_id, request, previous_run_id=previous)
    except AgentBusyError:
        raise busy(previous, "A run of this agent is still active.") from None
    except AgentArchivedError:
        raise ToolFailure(CONTINUATION_REFUSED, "No follow-up was sent: the agent was archived.") from None


def register(kit: Toolkit) -> None:
    """Declare the follow-up tool on `kit`."""

    @kit.tool(title="Follow up", access=Access.DESTRUCTIVE, idempotent=False, budget=lambda _args: FOLLOWUP_BUDGET)
    async def cursor_create_run(
        agent_id: AgentId,
        prompt: Text,
        model_id: ModelId = None,
        reasoning_level: Reasoning = None,
        model_params: ModelParams = None,
        replace_active: Annotated[bool, Field(description="Cancel the active run first.")] = False,
    ) -> dict[str, Any]:
        """Send a follow-up prompt to an agent: a new paid run in the same conversation. Returns run_id.

        model_id changes the model for this and later runs. A busy agent answers AGENT_BUSY; replace_active
        cancels the active run, waits for its end, then sends (nothing if it does not end in time).
        """
        agent = await kit.api.get_agent(agent_id)
        refuse_continuation(agent)
        model = await model_check.selection(kit, model_id, reasoning_level, model_params)
        previous = agent.latest_run_id
        current_call().note(agent_id=agent.id, previous_run_id=previous)
        replaced = await replace(kit, agent.id, previous) if replace_active and previous else None
        run = await send(kit, agent.id, CreateRunRequest(prompt=Prompt(text=prompt), model=model), previous)
        return {
            "agent_id": agent.id,
            "run_id": run.id,
            "run_status": run.status,
            "replaced_run_id": replaced and replaced.id,
            "replaced_run_status": replaced and replaced.status,
            "model": model_check.describe(model),
            "model_note": MODEL_NOTE if model is not None else None,
        }
