"""The follow-up run: a new prompt to an existing agent, which keeps its conversation.

The agent is read first and a follow-up is refused when information needed for safety is missing
(`core/spend/continuation.py`: archived, unknown status, `workOnCurrentBranch` not explicitly false). A
model given here applies to this run and to the agent's later runs (observed 2026-10-05; the API
never says which model is active). A busy agent answers `AGENT_BUSY`; `replace_active` cancels the
active run, re-reads it until it is terminal, and only then sends: if it does not end within the
call's budget, nothing is sent. The follow-up is written down before it is sent and asked again
without paying twice (`core/spend/followups.py`): a run an earlier identical follow-up made is answered
`resumed`, never cancelled to make room for itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.api import (
    Agent,
    CursorClient,
    MutationOutcomeUnknownError,
    Run,
    RunNotCancellableError,
)
from cursor_cloud_agents.core import (
    Code,
    ToolFailure,
    busy,
    consent,
    follow_up_request,
    follow_up_within_limits,
    images_of,
)
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.core import queue as follow_up_queue
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.timing import CANCEL_POLL_SECONDS, SEND_RESERVE
from cursor_cloud_agents.core.timing import FOLLOWUP_BUDGET_SECONDS as FOLLOWUP_BUDGET
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue
from cursor_cloud_agents.server.pipeline.params import AgentId, Images, ModelId, ModelParams, Reasoning, Text
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.followup import FollowUpView

catalogue = Catalogue()


async def wait_until_ended(call: Call, api: CursorClient, agent_id: str, run_id: str) -> Run:
    """Re-read a cancelled run until it is terminal, leaving enough of the deadline to send the follow-up."""

    async def report(run: Run, _waited: float) -> None:
        if not run.is_terminal:
            await call.progress(f"run {run_id} is {run.status}; waiting for the cancel to take effect")

    run, ended = await call.time.poll(
        await api.get_run(agent_id, run_id),
        lambda: api.get_run(agent_id, run_id),
        lambda run: run.is_terminal,
        report,
        every=CANCEL_POLL_SECONDS,
        within=call.time.deadline.remaining(SEND_RESERVE),
        reserve=SEND_RESERVE,
    )
    if not ended:
        raise busy(run_id, f"Run {run_id} was asked to cancel but still reads {run.status}.")
    return run


async def replace(call: Call, api: CursorClient, agent: Agent, run_id: str, asked: frozenset[str]) -> Run | None:
    """Cancel the active run (after the person's yes, when CURSOR_MCP_ASK, `asked`, lists `replace`) and wait
    until it is terminal; None when no run was active."""
    run = await api.get_run(agent.id, run_id)
    if run.is_terminal:
        return None
    question = consent.replacement(agent, run)
    await consent.ask_before(call, question, "the running run was not cancelled; nothing was sent", asked)
    try:
        await api.cancel_run(agent.id, run_id)
    except (RunNotCancellableError, MutationOutcomeUnknownError):
        pass  # it ended meanwhile, or the cancel may have landed: the re-reads below decide
    return await wait_until_ended(call, api, agent.id, run_id)


def followup_budget(_arguments: Mapping[str, Any]) -> float:
    return FOLLOWUP_BUDGET


@catalogue.tool(title="Follow up", access=Access.DESTRUCTIVE, idempotent=False, budget=followup_budget)
async def cursor_create_run(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    prompt: Text,
    images: Images = None,
    model_id: ModelId = None,
    reasoning_level: Reasoning = None,
    model_params: ModelParams = None,
    replace_active: Annotated[bool, Field(description="Cancel the active run first.")] = False,
    queue: Annotated[bool, Field(description="If busy: send once its run ends.")] = False,
) -> FollowUpView:
    """Send a follow-up prompt to an agent: a new paid run in the same conversation. Returns run_id.

    model_id changes the model for this and later runs. A busy agent answers AGENT_BUSY; replace_active
    cancels the active run, waits for its end, then sends (nothing if it does not end in time); queue
    answers `queued` and sends it right after the run ends.
    """
    if queue and replace_active:
        raise ToolFailure(Code.VALIDATION, "Give queue or replace_active, not both.")
    attached = await images_of(call, images)
    agent = await state.api.get_agent(agent_id)
    model = await model_check.selection(state.api, state.models, model_id, reasoning_level, model_params)
    previous = agent.latest_run_id
    call.note(agent_id=agent.id, previous_run_id=previous)
    request = follow_up_request(prompt, attached, model)
    replaced: Run | None = None
    if queue and previous and not (await state.api.get_run(agent.id, previous)).is_terminal:
        queued = await follow_up_queue.enqueue(state, agent, request, previous, call=call, asks=state.settings.ask)
        return FollowUpView.queued_for(agent.id, queued.id, previous, follow_up_queue.expires_at(queued))

    async def replace_the_active_run() -> None:  # only once no earlier identical follow-up made a run
        nonlocal replaced
        if replace_active and previous:
            replaced = await replace(call, state.api, agent, previous, state.settings.ask)

    made = await follow_up_within_limits(
        state, agent, request, call=call, asks=state.settings.ask, before_sending=replace_the_active_run
    )
    return FollowUpView.of(agent.id, made.run, replaced, model, resumed=made.resumed)
