"""Sending a paid follow-up exactly once, even when its answer is lost on the way back.

A follow-up run has no id of ours that the API would refuse twice, so it is written down in the store of
paid acts before it is sent: the agent, a fingerprint of the request (prompt, model and parameters, image
digests; no prompt text), the agent's latest run before the send, and the time. Asked again with the same
fingerprint while that act is unresolved (its answer lost: a cut connection, a reset, the client's
cancel, the process killed after the POST left), nothing is sent blindly; the agent is read:
- a latest run other than the one recorded before the send is the run that POST made: it is answered,
  `resumed`, and never cancelled to make room for the same follow-up (`replace_active`);
- no new run while the POST left less than the API's creation time ago: `FOLLOWUP_IN_FLIGHT`, nothing sent;
- no new run after that: it made none, and this one is sent.
The MCP tool, the terminal's `followup` and `verify --spend` all send through `follow_up_within_limits`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from cursor_cloud_agents.api import (
    Agent,
    AgentArchivedError,
    AgentBusyError,
    CreateRunRequest,
    CursorClient,
    CursorError,
    MutationOutcomeUnknownError,
    Run,
)
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.spend import consent
from cursor_cloud_agents.core.spend.continuation import CONTINUATION_REFUSED, refuse_continuation
from cursor_cloud_agents.core.spend.journal import fingerprint, unsettled
from cursor_cloud_agents.core.spend.paid import ask_paid, store_failures
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, Clock

AGENT_BUSY = Code.AGENT_BUSY


@dataclass(frozen=True)
class FollowUp:
    """The run a follow-up made, and whether it was an earlier identical follow-up's (its answer lost)."""

    run: Run
    resumed: bool


def follow_up_print(agent_id: str, request: CreateRunRequest) -> str:
    """What makes two follow-ups the same act: the agent and the whole request (images by their digests)."""
    return fingerprint(request.wire() | {"followUpOf": agent_id})


async def follow_up_within_limits(
    state: CoreState,
    agent: Agent,
    request: CreateRunRequest,
    *,
    call: Call | None = None,
    asks: frozenset[str] = frozenset(),
    before_sending: Callable[[], Awaitable[object]] | None = None,
    checked_when_queued: bool = False,
) -> FollowUp:
    """The one door of a follow-up, paid once: the agent's record must allow one (`core.continuation`); an earlier
    identical one whose answer was lost is this one's answer (`resumed`); otherwise it is held to the spend limit,
    put to the person when `asks` lists `followup` (the core words the question, `call` answers it),
    `before_sending` runs (`replace_active`'s cancel: never before the earlier run is known, never for a resumed
    one), and it is sent once. A queued follow-up (`checked_when_queued`) had its agent checked when it was queued,
    and is sent as then: Cursor itself refuses an agent archived since.

    Raises:
        ToolFailure: LIMIT_REACHED (the spend), AGENT_BUSY, CONTINUATION_REFUSED, FOLLOWUP_IN_FLIGHT,
            CONFIGURATION: nothing was sent.
        MutationOutcomeUnknownError: it may have been made; asking again reads first.
    """
    consent.refuse_unanswerable(call, "followup", UNSENT_FOLLOW_UP, asks)
    if not checked_when_queued:
        refuse_continuation(agent)
    earlier = await earlier_follow_up(state.api, state.store, state.clock, agent, request)
    if earlier is not None:
        return earlier
    await state.limits.before_spending(state.api)
    await ask_paid(state, call, follow_up_question(agent, request), UNSENT_FOLLOW_UP, asks)
    if before_sending is not None:
        await before_sending()
    run = await send_once(state.api, state.store, state.clock, agent.id, request, agent.latest_run_id)
    return FollowUp(run, resumed=False)


UNSENT_FOLLOW_UP = "no follow-up was sent"


def follow_up_question(agent: Agent, request: CreateRunRequest) -> Callable[[str], consent.Question]:
    """The question of one follow-up, given the limits-used line."""
    return lambda use: consent.follow_up(agent, request.prompt.text, use)


async def earlier_follow_up(
    api: CursorClient, store: Store, clock: Clock, agent: Agent, request: CreateRunRequest
) -> FollowUp | None:
    """The run an earlier identical follow-up made whose answer never came, None when there is none (or it
    provably made none).

    Raises:
        ToolFailure: FOLLOWUP_IN_FLIGHT while it may still land (nothing may be sent then);
            CONFIGURATION when the store cannot be used.
    """
    now = clock.now()
    with store_failures():
        earlier = unsettled(await store.read(now), "followup", follow_up_print(agent.id, request), now)
    if earlier is None:
        return None
    latest = agent.latest_run_id
    if latest is not None and latest != earlier.before_run_id:
        run = await api.get_run(agent.id, latest)
        with store_failures():
            await store.write(replace(earlier, state="done", run_id=latest), now=now)
        return FollowUp(run, resumed=True)
    if now - earlier.at < API_CREATION_SECONDS:
        raise followup_in_flight(earlier, now)
    with store_failures():
        await store.write(replace(earlier, state="failed"), now=now)  # it made no run: send this one
    return None


async def send_once(
    api: CursorClient,
    store: Store,
    clock: Clock,
    agent_id: str,
    request: CreateRunRequest,
    before_run_id: str | None,
) -> Run:
    """Write the follow-up down, then POST it once, then settle it.

    Raises:
        ToolFailure: AGENT_BUSY, CONTINUATION_REFUSED (nothing was made); FOLLOWUP_IN_FLIGHT when an
            identical follow-up was written alongside; CONFIGURATION when the store cannot be used.
        MutationOutcomeUnknownError: it may have been made; it stays unresolved, so asking again reads first.
    """
    now = clock.now()
    act = Act(
        Act.new_id(),
        "followup",
        now,
        "sent",
        fingerprint=follow_up_print(agent_id, request),
        agent_id=agent_id,
        before_run_id=before_run_id,
    )

    def alone(reading: Reading) -> list[Act]:
        alongside = unsettled(reading, "followup", act.fingerprint or "", now)
        if alongside is not None:  # an identical call got here first: this one must not pay again
            raise followup_in_flight(alongside, now)
        return [act]

    with store_failures():
        await store.change(alone, now)
    try:
        run = await api.create_run(agent_id, request, previous_run_id=before_run_id)
    except MutationOutcomeUnknownError:
        raise  # stays "sent": the next identical call reads the agent before sending anything
    except (CursorError, ToolFailure) as refused:
        await _settle(store, clock, replace(act, state="failed"))
        raise _refusal(refused, before_run_id) from None
    await _settle(store, clock, replace(act, state="done", run_id=run.id))
    return run


async def _settle(store: Store, clock: Clock, act: Act) -> None:
    with store_failures():
        await store.write(act, now=clock.now())


def _refusal(refused: CursorError | ToolFailure, before_run_id: str | None) -> Exception:
    """A definite refusal, as the failure the model can act on."""
    if isinstance(refused, AgentBusyError):
        return busy(before_run_id, "A run of this agent is still active.")
    if isinstance(refused, AgentArchivedError):
        return ToolFailure(CONTINUATION_REFUSED, "No follow-up was sent: the agent was archived.")
    return refused


def busy(run_id: str | None, detail: str) -> ToolFailure:
    """AGENT_BUSY: the API accepts no message while a run is active."""
    return ToolFailure(
        AGENT_BUSY,
        f"{detail} Nothing was sent.",
        advice=advice(Step.WAIT_OR_REPLACE, run_id=run_id),
        active_run_id=run_id,
    )


def followup_in_flight(earlier: Act, now: float) -> ToolFailure:
    """The answer while an identical follow-up sent earlier may still be landing at Cursor."""
    safe_at = earlier.at + API_CREATION_SECONDS
    return ToolFailure(
        failures.FOLLOWUP_IN_FLIGHT,
        f"An identical follow-up was sent to {earlier.agent_id} at {iso(earlier.at)} "
        "and its answer never came; Cursor has not shown its run yet, so nothing new was sent (it would be paid "
        "twice).",
        advice=advice(Step.FOLLOW_UP_LATER, agent_id=earlier.agent_id, until=iso(safe_at)),
        agent_id=earlier.agent_id,
        previous_run_id=earlier.before_run_id,
        sent_at=iso(earlier.at),
        retry_after_seconds=max(0, round(safe_at - now)),
    )
