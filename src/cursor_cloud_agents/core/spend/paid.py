"""Sending a paid creation exactly once, even when its answer is lost on the way back.

Three guards, from the request outward: the client never resends a POST on its own; the agent id
minted for a creation is its idempotency key (the API answers `409 agent_id_conflict` to a second
POST of it), so a creation the journal holds as sent and unresolved is asked again with the **same**
id, never a new one; and with `env_vars`, where the API allows no id, an unresolved earlier attempt
is looked for by name and, while Cursor may still be creating it, nothing is sent at all.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Generator
from contextlib import contextmanager
from dataclasses import replace
from typing import NamedTuple, cast

import anyio

from cursor_cloud_agents.api import (
    Agent,
    AgentIdConflictError,
    AgentSummary,
    ConcurrencyLimitError,
    CreateAgentRequest,
    CreatedAgent,
    CursorClient,
    CursorError,
    MutationOutcomeUnknownError,
    NotFoundError,
)
from cursor_cloud_agents.api.times import epoch, iso
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.call import Call, Question
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.runs import scan
from cursor_cloud_agents.core.spend import consent
from cursor_cloud_agents.core.spend.journal import fingerprint, unsettled
from cursor_cloud_agents.core.spend.ledger import LimitReached, use_of
from cursor_cloud_agents.core.spend.limits import Limits
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import Store, StoreUnusable
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, NAME_MATCH_SLACK_SECONDS, Clock


async def create_once(
    state: CoreState,
    request: CreateAgentRequest,
    print_: str,
    on_resend: Callable[[str], None] = lambda _agent_id: None,
    before_new: Callable[[], Awaitable[None]] = anyio.lowlevel.checkpoint,
) -> CreatedAgent | Agent | AgentSummary:
    """The created agent, or the agent an earlier identical call created but never reported.

    `before_new` runs only before a new creation (the user's limits on agents running and on spend):
    asking again for an unresolved creation re-sends its id, which makes no second agent, and must stay
    possible at a limit, or the agent it created would never be found. `on_resend` hears the earlier id
    when this call asks again (a tool notes it on the call, so that any failure names the id really sent)."""
    api, store, clock = state.api, state.store, state.clock
    async with state.deciding:  # an identical call alongside finds this one written as sent, never absent
        decided = await _new_or_again(state, request, print_, before_new)
        if not isinstance(decided, _Decided):
            return decided  # an earlier creation with variables, found by its name
        attempt, counted = decided
    if not counted:
        on_resend(cast(str, attempt.agent_id))  # an attempt without an id was resolved by name
    return await send_decided(api, store, clock, request, attempt, counted=counted)


async def send_decided(
    api: CursorClient, store: Store, clock: Clock, request: CreateAgentRequest, attempt: Act, *, counted: bool
) -> CreatedAgent | Agent:
    """Send a creation already written in the store as `sent`, once, and settle it: new (`counted`: its place
    taken now, given back if Cursor refuses it), or the re-send of an earlier one with the same agent id
    (`create_once`'s, and each attempt of a set's, core/attempts/attempts.py).

    Raises:
        ToolFailure: CONFLICT (a new creation's id was taken), CREATION_IN_FLIGHT (a re-send Cursor is still
            creating); a refusal of Cursor's as its error.
        MutationOutcomeUnknownError: it stays `sent`; the next identical ask re-sends the same id.
    """
    request = request.model_copy(update={"agent_id": attempt.agent_id})
    try:
        created = await api.create_agent(request)
    except AgentIdConflictError as exc:
        if not counted:
            return await _landed(api, store, clock, attempt)
        await _refused(store, clock, attempt)
        raise ToolFailure(
            Code.CONFLICT,
            f"Agent {request.agent_id} already exists: an earlier call with this agent_id created "
            "it, so nothing new was created.",
            advice=advice(Step.READ_AGENT, agent_id=request.agent_id),
            agent_id=request.agent_id,
            http_status=exc.status_code,
        ) from None
    except MutationOutcomeUnknownError:
        raise  # stays "sent" and counted: the next identical call asks again with the same id
    except (CursorError, ToolFailure):
        if counted:
            await _refused(store, clock, attempt)
        # A re-send refused (e.g. 429 before the id conflict) says nothing of the first send, which may have
        # made the agent: it stays `sent`, and the next identical call re-sends the same id again.
        raise
    # Settled with its id: a creation with variables learns it only now, and its cost counts towards the spend limit.
    settled = replace(attempt, agent_id=created.agent.id, state="done", run_id=created.run.id)
    await store.write(settled, now=clock.now())
    return created


class _Decided(NamedTuple):
    attempt: Act
    counted: bool  # a new creation, written with its place taken now (else the re-send of an earlier one)


async def _new_or_again(
    state: CoreState, request: CreateAgentRequest, print_: str, before_new: Callable[[], Awaitable[None]]
) -> _Decided | AgentSummary:
    """This creation as it will be sent: new (the limits checked and its place taken), or the re-send of an
    earlier identical one not resolved yet; else the agent an earlier one with variables made, found by name."""
    clock = state.clock
    now = clock.now()
    earlier = unsettled(await state.store.read(now), "create", print_, now)
    if earlier is not None and earlier.agent_id is None:
        found = await _resolve_by_name(state.api, state.store, clock, earlier)
        if found is not None:
            return found
        earlier = None  # provably not created: this is a new creation
    if earlier is not None:
        # The same creation again: the same id, so that the API itself refuses to create it twice. It keeps
        # the first send's time: that is when Cursor may have started creating the agent.
        return _Decided(earlier, counted=False)
    await before_new()
    at = clock.now()
    act = Act(
        Act.new_id(),
        "create",
        at,
        "sent",
        counted=True,
        fingerprint=print_,
        agent_id=request.agent_id,
        name=request.name,
    )
    await count_in(
        state.limits, act
    )  # one entry: sent and counted (a re-send of the same id was counted when first sent)
    return _Decided(act, counted=True)


async def _refused(store: Store, clock: Clock, attempt: Act) -> None:
    """Cursor refused a new creation, or it never left: settled as failed, and the place it took given back."""
    await store.write(replace(attempt, state="failed", counted=False), now=clock.now())


async def _landed(api: CursorClient, store: Store, clock: Clock, attempt: Act) -> Agent:
    """After `409 agent_id_conflict` on our own earlier id: that agent, or CREATION_IN_FLIGHT while Cursor
    has taken the id but not finished creating it."""
    assert attempt.agent_id is not None
    try:
        agent = await api.get_agent(attempt.agent_id)
    except NotFoundError:
        raise in_flight(attempt, clock.now()) from None
    await store.write(replace(attempt, state="done", run_id=agent.latest_run_id), now=clock.now())
    return agent


async def _resolve_by_name(api: CursorClient, store: Store, clock: Clock, earlier: Act) -> AgentSummary | None:
    """The agent an earlier creation with variables made, None once it provably made none; CREATION_IN_FLIGHT
    while Cursor may still be creating it (nothing can be sent then: the API allows no id to key it)."""
    agent = await _by_name(api, earlier)
    if agent is None and clock.now() - earlier.at < API_CREATION_SECONDS:
        raise in_flight(earlier, clock.now())
    # Found, its id is kept: its cost counts towards the spend limit, as a reported one's does.
    settled = (
        replace(earlier, state="done", agent_id=agent.id) if agent is not None else replace(earlier, state="failed")
    )
    await store.write(settled, now=clock.now())
    return agent


async def count_in(limits: Limits, act: Act) -> None:
    """Write this creation, its place taken, before it is sent; LIMIT_REACHED when there is none."""
    try:
        await limits.take(act)
    except LimitReached as full:
        raise limit_reached(full) from None


async def refuse_before_asking(state: CoreState, print_: str) -> None:
    """The limits a new creation (its fingerprint `print_`) would meet, said before the person is asked to confirm
    it (a yes would be wasted on a refusal). A creation asked again after a lost answer is not held to them, as in
    `create_once`."""
    now = state.clock.now()
    with store_failures():
        reading = await state.store.read(now)
        if unsettled(reading, "create", print_, now) is not None:
            return
        used, frees_at = use_of(reading, now)
    if used >= state.limits.max_new:  # said without taking a place
        raise limit_reached(LimitReached(used, state.limits.max_new, frees_at))
    await state.limits.check_room(state.api)


async def limits_use_line(state: CoreState) -> str:
    """Each limit's use in a few words, for the person asked to confirm a paid act."""
    with store_failures():
        return await state.limits.use_line(state.api)


async def ask_paid(
    state: CoreState, call: Call | None, question_of: Callable[[str], Question], unsent: str, acts: frozenset[str]
) -> None:
    """The door's question, once the limits were checked: the core words it (`question_of` the limits-used line)
    and the face only answers yes, no, or cannot ask (`call`). Nothing is asked when `acts`, the face's list of
    acts put to the person (the server's CURSOR_MCP_ASK, every paid act at the terminal unless `--yes`), leaves
    this one out."""
    act = question_of("").act
    if act not in acts:
        return
    if call is None:
        raise consent.cannot_ask(act, unsent)
    await consent.ask_before(call, question_of(await limits_use_line(state)), unsent, acts)


def creation_question(request: CreateAgentRequest) -> Callable[[str], Question]:
    """The question of one creation, given the limits-used line."""
    repos = [repo.url for repo in request.repos or []]
    model = request.model.id if request.model else None
    return lambda use: consent.creation(request.prompt.text, repos, model, use)


def limit_reached(full: LimitReached) -> ToolFailure:
    """The answer at `CURSOR_MCP_MAX_NEW_AGENTS`: the count, and when the oldest creation leaves the window."""
    when = "" if full.frees_at is None else f" The oldest leaves the 24-hour window at {iso(full.frees_at)}."
    asked = (
        f"; {full.asked} more were asked for at once, and a set of attempts is created whole or not at all"
        if full.asked > 1
        else ""
    )
    return ToolFailure(
        failures.LIMIT_REACHED,
        f"{full.count} agents were created through this machine's servers in the last "
        f"24 hours, the limit CURSOR_MCP_MAX_NEW_AGENTS={full.limit} set by the user{asked}; nothing was sent."
        f"{when} Only the user can raise it.",
        count=full.count,
        limit=full.limit,
        asked=full.asked if full.asked > 1 else None,
        frees_at=None if full.frees_at is None else iso(full.frees_at),
    )


async def create_within_limits(
    state: CoreState,
    request: CreateAgentRequest,
    *,
    call: Call | None = None,
    asks: frozenset[str] = frozenset(),
    on_resend: Callable[[str], None] = lambda _agent_id: None,
) -> CreatedAgent | Agent | AgentSummary:
    """The one door of a paid creation, shaped as `core.followups.follow_up_within_limits`: the limits checked
    (before `ask`, the face's question, when it asks: a yes would be wasted on a refusal), its place taken,
    paid once (`create_once`: an earlier identical creation whose answer was lost is this one's answer),
    settled. The user's limits on agents running and on spend hold a new agent only (whose slot the store
    holds from then on, as sent), and Cursor's own refusal of one agent too many is answered as ours is
    (`CAPACITY`). The faces pass what differs: the call that answers the core's question and which acts it puts
    to the person (`asks`), and `on_resend` to hear an earlier id sent again. The request is serialised once."""
    print_ = fingerprint(request.wire())
    if "create" in asks:
        consent.refuse_unanswerable(call, "create", UNSENT_CREATION, asks)
        await refuse_before_asking(state, print_)
        await ask_paid(state, call, creation_question(request), UNSENT_CREATION, asks)
    api, limits = state.api, state.limits
    try:
        with store_failures():
            return await create_once(
                state, request, print_, on_resend=on_resend, before_new=lambda: limits.before_create(api)
            )
    except ConcurrencyLimitError as refusal:
        raise await limits.refused(api, refusal) from None


UNSENT_CREATION = "no agent was created"


def in_flight(attempt: Act, now: float) -> ToolFailure:
    """The answer while an identical creation sent earlier may still be landing at Cursor."""
    safe_at = attempt.at + API_CREATION_SECONDS
    retry_after = None if attempt.agent_id is not None else max(0, round(safe_at - now))  # an id is safe anytime
    step = (
        advice(Step.READ_AGENT_LATER, agent_id=attempt.agent_id)
        if attempt.agent_id is not None
        else advice(Step.FIND_BY_NAME_LATER, name=attempt.name, until=iso(safe_at))
    )
    return ToolFailure(
        failures.CREATION_IN_FLIGHT,
        f"An identical creation sent at {iso(attempt.at)} may still be in progress at Cursor; nothing new was sent.",
        advice=step,
        agent_id=attempt.agent_id,
        name=attempt.name,
        sent_at=iso(attempt.at),
        retry_after_seconds=retry_after,
    )


async def _by_name(api: CursorClient, earlier: Act) -> AgentSummary | None:
    """The one agent with the attempt's name created around its time (creations with env_vars have no id)."""

    def same(agent: AgentSummary) -> bool:
        created = epoch(agent.created_at)
        return agent.name == earlier.name and created is not None and created >= earlier.at - NAME_MATCH_SLACK_SECONDS

    page = await scan.scan_agents(api, limit=2, cursor=None, keep=same, mark="journal")
    if len(page.items) > 1:
        raise ToolFailure(
            failures.MUTATION_OUTCOME_UNKNOWN,
            f"An identical creation sent earlier may have gone through, and several agents are named {earlier.name!r}",
            advice=advice(Step.FIND_BY_NAME, name=earlier.name),
            name=earlier.name,
        )
    return page.items[0] if page.items else None


@contextmanager
def store_failures() -> Generator[None]:
    """A store of paid acts that cannot be used refuses the paid act (fails closed), naming the setting."""
    try:
        yield
    except StoreUnusable as unusable:
        raise failures.store_unusable(unusable.why) from None
