"""Several attempts at one task: one paid act for the whole set, each attempt an agent paid once.

The same prompt, repositories and settings go to 2 to 8 agents, each with its own model. The set goes
through the same door as one creation (core/spend/paid.py), widened to the set:
- every model choice is checked against the published variants before anything (one unknown model
  refuses the set, nothing sent);
- the limits are checked for the whole set: the creation count has room for all its attempts, the slots
  too, and the spend is under its limit; the attempts take their places in the store together, in one
  write under the store's lock, or none does. Never a partial set because a limit ran out half-way;
- where the user asks to be asked, one question names the count and the models;
- each attempt is then sent once with its own minted agent id (all at once: a creation can take 40 s).

An answer lost for one attempt (a cut, a timeout after the POST) leaves its creation `sent`. The same set
asked again within the journal's window (`UNSETTLED_SECONDS`) finds its group by the set's fingerprint and
completes it: attempts made are answered as made, a lost one is re-sent with the same id (the API refuses
an id twice, so no second agent), and only an attempt Cursor refused is created anew, within the limits.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from cursor_cloud_agents.api import (
    Agent,
    ConcurrencyLimitError,
    CreateAgentRequest,
    CreatedAgent,
    CursorError,
    ModelSelection,
    MutationOutcomeUnknownError,
    ids,
)
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.advice import Step as NextStep
from cursor_cloud_agents.core.advice import advice
from cursor_cloud_agents.core.attempts.groups import GroupFacts, acts_of_set, mint_group_id, prompt_digest
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.request import models as model_check
from cursor_cloud_agents.core.request import texts
from cursor_cloud_agents.core.runs.watch import each_in_flight
from cursor_cloud_agents.core.spend import consent
from cursor_cloud_agents.core.spend.journal import fingerprint
from cursor_cloud_agents.core.spend.ledger import LimitReached, agents_of, use_of
from cursor_cloud_agents.core.spend.paid import UNSENT_CREATION, ask_paid, limit_reached, send_decided, store_failures
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.timing import UNSETTLED_SECONDS

MIN_ATTEMPTS = 2
MAX_ATTEMPTS = 8
"""At most 8 attempts: the API client sends 8 requests at once, so every POST of a set leaves together."""
GROUP_NAME_CHARS = texts.NAME_MAX_CHARS - len(f" ({MAX_ATTEMPTS}/{MAX_ATTEMPTS})")
"""An attempt's agent is named after its group, with " (k/N)" after: within an agent name's limit."""


@dataclass(frozen=True)
class AttemptModel:
    """One attempt's model, as asked: an id or alias, its reasoning level and parameters."""

    model_id: str
    reasoning_level: str | None = None
    params: Mapping[str, str] | None = None


@dataclass(frozen=True)
class AttemptSet:
    """A set checked and ready to send: attempt k's request is the shared one with its model and minted id."""

    facts: GroupFacts
    requests: list[CreateAgentRequest]
    prompt: str

    @property
    def models(self) -> list[str]:
        return [request.model.id if request.model else "default" for request in self.requests]

    def attempt_print(self, index: int) -> str:
        """What makes attempt `index` of this set one act (two attempts with one model are still two)."""
        wire = self.requests[index - 1].wire()
        return fingerprint(wire | {"attemptOf": self.facts.set_print, "attempt": index})


async def plan_set(
    state: CoreState, base: CreateAgentRequest, choices: Sequence[AttemptModel], group_name: str | None
) -> AttemptSet:
    """The set to send: the count in bounds, every model choice checked, an id minted for each attempt.

    Raises:
        ToolFailure: VALIDATION naming the attempt to change; nothing was sent.
    """
    if not MIN_ATTEMPTS <= len(choices) <= MAX_ATTEMPTS:
        raise _refuse(f"attempts takes {MIN_ATTEMPTS} to {MAX_ATTEMPTS} model choices; {len(choices)} were given.")
    if base.env_vars:
        raise _refuse(
            "attempts cannot carry env_vars or forward_env: the API forbids an agent id with variables, and each "
            "attempt needs one to be paid only once. Start agents with variables one by one."
        )
    if base.agent_id is not None or base.model is not None:
        raise _refuse("With attempts, each attempt gets its own minted agent id and model: omit agent_id and model_id.")
    published = await model_check.models_of(state.api, state.models)
    selections: list[ModelSelection] = []
    for index, choice in enumerate(choices, start=1):
        try:
            selections.append(
                model_check.select(published, choice.model_id, choice.reasoning_level, choice.params or {})
            )
        except ToolFailure as refused:
            raise ToolFailure(refused.code, f"attempts[{index}]: {refused.message}", attempt=index) from None
    shared = base.wire()
    chosen = [selection.model_dump(mode="json") for selection in selections]
    set_print = fingerprint(shared | {"attempts": chosen, "groupName": group_name})  # two named sets are two
    size = len(selections)
    requests = [
        base.model_copy(
            update={
                "model": selection,
                "agent_id": ids.mint_agent_id(),
                "name": None if group_name is None else f"{group_name[:GROUP_NAME_CHARS]} ({index}/{size})",
            }
        )
        for index, selection in enumerate(selections, start=1)
    ]
    facts = GroupFacts(mint_group_id(), group_name, prompt_digest(base.prompt.text), size, set_print)
    return AttemptSet(facts, requests, base.prompt.text)


def _refuse(message: str) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, message + " Nothing was sent.")


Step = Literal["made", "resend", "new"]


@dataclass(frozen=True)
class _Planned:
    index: int
    step: Step
    act: Act
    request: CreateAgentRequest


def _planned(plan: AttemptSet, reading: Reading, now: float) -> tuple[GroupFacts, list[_Planned]]:
    """What each attempt needs now: a fresh set is all new; the same set asked again within the window, while
    one of its attempts is not made, completes that group."""
    earlier = [act for act in acts_of_set(reading, plan.facts.set_print) if now - act.at <= UNSETTLED_SECONDS]
    latest: dict[int, Act] = {}
    for act in sorted(earlier, key=lambda act: act.at):
        latest[int((act.detail or {}).get("attempt", 0))] = act
    size = len(plan.requests)
    resumable = bool(earlier) and any(
        latest.get(index) is None or latest[index].state != "done" for index in range(1, size + 1)
    )
    facts = plan.facts
    if resumable:
        facts = replace(facts, group_id=str((earlier[0].detail or {})["group"]))
    else:
        latest = {}
    steps: list[_Planned] = []
    for index, request in enumerate(plan.requests, start=1):
        act = latest.get(index)
        if act is not None and act.state == "done":
            steps.append(_Planned(index, "made", act, request.model_copy(update={"agent_id": act.agent_id})))
        elif act is not None and act.state == "sent":
            steps.append(_Planned(index, "resend", act, request.model_copy(update={"agent_id": act.agent_id})))
        else:  # new, or refused by Cursor before (no agent made): created now, with an id of its own
            fresh = request if act is None else request.model_copy(update={"agent_id": ids.mint_agent_id()})
            steps.append(_Planned(index, "new", _new_act(plan, facts, index, fresh, now), fresh))
    return facts, steps


def _new_act(plan: AttemptSet, facts: GroupFacts, index: int, request: CreateAgentRequest, now: float) -> Act:
    model = request.model.id if request.model else None
    return Act(
        Act.new_id(),
        "create",
        now,
        "sent",
        counted=True,
        fingerprint=plan.attempt_print(index),
        agent_id=request.agent_id,
        name=request.name,
        detail=facts.detail(index, model),
    )


async def refuse_set_before_asking(state: CoreState, plan: AttemptSet) -> None:
    """The limits the set would meet, said before the person is asked (a yes would be wasted on a refusal)."""
    now = state.clock.now()
    with store_failures():
        reading = await state.store.read(now)
    _, steps = _planned(plan, reading, now)
    places = sum(step.step == "new" for step in steps)
    if not places:
        return  # the same set again, every attempt sent before: re-sends pass any limit, as in `create_once`
    used, frees_at = use_of(reading, now)
    if used + places > state.limits.max_new:  # said without taking a place
        raise limit_reached(LimitReached(used, state.limits.max_new, frees_at, asked=places))
    await state.limits.check_room(state.api, places)


def attempts_question(plan: AttemptSet, use: str) -> consent.Question:
    """The one question for the whole set: how many agents, which models."""
    repos = [repo.url for repo in plan.requests[0].repos or []]
    return consent.attempts(plan.prompt, repos, plan.models, use)


@dataclass
class Outcome:
    """What became of one attempt."""

    index: int
    model: str | None
    agent_id: str | None
    run_id: str | None = None
    url: str | None = None
    resumed: bool = False
    """Made by an earlier ask of the same set (its answer was lost, or it was answered then)."""
    failure: ToolFailure | None = None


@dataclass
class SetResult:
    """The set as it stands after this ask: every attempt made, or which were not and why."""

    group: GroupFacts
    outcomes: list[Outcome] = field(default_factory=list[Outcome])

    def made(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.failure is None]


async def create_attempts(
    state: CoreState,
    plan: AttemptSet,
    *,
    call: Call | None = None,
    asks: frozenset[str] = frozenset(),
    on_ids: Callable[[str, list[str]], None] = lambda _group, _agents: None,
) -> SetResult:
    """The one door of a set of attempts, shaped as `core.paid.create_within_limits`: the limits checked for the
    whole set (before the one question the core words and `call` answers, when `asks` lists `create`: a yes would
    be wasted on a refusal), every
    place taken in one write, then each attempt sent once (or re-sent, or answered as made by an earlier ask).
    `on_ids` hears the group id and the agent ids before anything is sent (a tool notes them on the call).

    Raises:
        ToolFailure: VALIDATION, LIMIT_REACHED, CAPACITY, DECLINED, CONFIGURATION before any POST (nothing
            sent); MUTATION_OUTCOME_UNKNOWN or Cursor's refusal when an attempt did not end made, with the
            group and every attempt's id (asking again completes the set, never paying twice).
    """
    if "create" in asks:
        consent.refuse_unanswerable(call, "create", UNSENT_CREATION, asks)
        await refuse_set_before_asking(state, plan)
        await ask_paid(state, call, lambda use: attempts_question(plan, use), UNSENT_CREATION, asks)
    return settled(await _create_set(state, plan, on_ids))


async def _create_set(state: CoreState, plan: AttemptSet, on_ids: Callable[[str, list[str]], None]) -> SetResult:
    with store_failures():
        async with state.deciding:  # an identical set at once finds this one written, never absent
            facts, steps = await _decide(state, plan)
    on_ids(facts.group_id, [step.act.agent_id for step in steps if step.act.agent_id])
    outcomes: dict[int, Outcome] = {}

    async def one(step: _Planned) -> None:
        outcomes[step.index] = await _send(state, step)

    await each_in_flight(steps, one, at_once=MAX_ATTEMPTS)
    return SetResult(facts, [outcomes[index] for index in sorted(outcomes)])


async def _decide(state: CoreState, plan: AttemptSet) -> tuple[GroupFacts, list[_Planned]]:
    """The steps of each attempt, the new ones held to the limits and written as sent, all together."""
    now = state.clock.now()
    facts, steps = _planned(plan, await state.store.read(now), now)
    new = [step.act for step in steps if step.step == "new"]
    if new:
        await state.limits.before_create(state.api, places=len(new))
        try:
            await state.limits.take_all(new)
        except LimitReached as full:
            raise limit_reached(full) from None
    return facts, steps


async def _send(state: CoreState, step: _Planned) -> Outcome:
    model = step.request.model.id if step.request.model else None
    outcome = Outcome(step.index, model, step.act.agent_id, resumed=step.step != "new")
    if step.step == "made":
        outcome.run_id = step.act.run_id
        return outcome
    try:
        with store_failures():
            created = await send_decided(
                state.api, state.store, state.clock, step.request, step.act, counted=step.step == "new"
            )
    except ConcurrencyLimitError as refusal:
        outcome.failure = await state.limits.refused(state.api, refusal)
    except MutationOutcomeUnknownError as lost:
        outcome.failure = failures.from_api_error(lost)
    except CursorError as refused:
        outcome.failure = failures.from_api_error(refused)
    except ToolFailure as refused:
        outcome.failure = refused
    else:
        _made(outcome, created)
    return outcome


def _made(outcome: Outcome, created: CreatedAgent | Agent) -> None:
    if isinstance(created, CreatedAgent):
        outcome.agent_id, outcome.run_id, outcome.url = created.agent.id, created.run.id, created.agent.url
    else:  # an earlier send of this id made it: the agent as read
        outcome.agent_id, outcome.run_id, outcome.url = created.id, created.latest_run_id, created.url


def settled(result: SetResult) -> SetResult:
    """`result` when every attempt was made; else the failure that says which were and how to complete the set.

    An attempt whose answer was lost comes first (MUTATION_OUTCOME_UNKNOWN): asking again with the same arguments
    re-sends its id, which never makes a second agent."""
    missing = [outcome for outcome in result.outcomes if outcome.failure is not None]
    if not missing:
        return result
    lost = [outcome for outcome in missing if outcome.failure and outcome.failure.code == Code.MUTATION_OUTCOME_UNKNOWN]
    first = (lost or missing)[0].failure
    assert first is not None
    made = len(result.outcomes) - len(missing)
    group = result.group.group_id
    message = (
        f"{made} of {len(result.outcomes)} attempts of group {group} were made; "
        f"{len(lost)} may or may not have been (answer lost) and {len(missing) - len(lost)} were refused "
        f"(first: {first.message}). Ask again with exactly the same arguments within "
        f"{round(UNSETTLED_SECONDS / 60)} minutes: it re-sends the same agent ids (never a second agent) and "
        "creates only the attempts refused, within the limits."
    )
    raise ToolFailure(
        first.code,
        message,
        advice=advice(NextStep.READ_AGENTS),
        group_id=group,
        attempts=[_row(outcome) for outcome in result.outcomes],
    )


def _row(outcome: Outcome) -> dict[str, Any]:
    failure = outcome.failure
    state = "made" if failure is None else ("unknown" if failure.code == Code.MUTATION_OUTCOME_UNKNOWN else "refused")
    row: dict[str, Any] = {"attempt": outcome.index, "model": outcome.model, "agent_id": outcome.agent_id}
    row |= {"run_id": outcome.run_id, "outcome": state, "code": None if failure is None else str(failure.code)}
    return {key: value for key, value in row.items() if value is not None}


@dataclass(frozen=True)
class PriceHint:
    """What the agents created through this machine in the last 24 hours cost each, on average: the nearest thing
    to a price of N more runs (Cursor publishes none before a run ends)."""

    cents_each: float | None
    """None when no agent of the window has a known cost yet."""
    known: int


async def price_hint(state: CoreState) -> PriceHint:
    """The average charged cents of this machine's recent agents (their usage read at most once a minute)."""
    spend = await state.limits.spend(state.api)
    now = state.clock.now()
    with store_failures():
        agents = len(agents_of(await state.store.read(now), now))
    known = agents - spend.unknown
    # The spend limit holds each run not reported yet at this same price (core/spend/spending.py).
    return PriceHint(spend.estimate_cents if known > 0 else None, known)
