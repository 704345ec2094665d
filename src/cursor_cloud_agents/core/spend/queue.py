"""The follow-up queue: "send this when the running run is done", held by whichever of our processes is alive.

The API has no queue and refuses a follow-up while a run is active, so a follow-up queued for a busy agent is
written in the store of paid acts (kind `queued`: the agent, the run it waits for, the request) and sent
later by any of our processes that keeps the queue (the server, `wait`, `events`, `status`), right after
that run ends. Sending it goes through `core.followups.follow_up_within_limits`, the one door for a paid
follow-up (the spend limit, never paid twice). Its life, one line per step in the store:

- `queued`: waiting. One per agent: a second is refused until the first is sent or dropped.
- `sent`: taken by one process, under the store's lock, after reading the agent's latest run ended: two
  processes never both take it. The POST goes after the lock is given back.
- `done`: the follow-up's run was made (`run_id`).
- `failed`, with `detail["note"]`: dropped by the person, expired (`QUEUED_FOLLOWUP_SECONDS`), held because
  the run it waited for did not finish, or refused (the spend limit, the agent archived...): nothing sent.

A run that ends in error (or is cancelled, or expires) holds its queued follow-up instead of sending it: the
prompt was written for that run's work going on, and a broken or stopped run is the person's to look at
before more is paid for. The note says so and how to send it by hand.

A process that dies between taking a follow-up and sending it leaves it `sent`: nobody sends it then (never
paid twice); the follow-up's own act in the store says whether its POST left.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

import anyio

from cursor_cloud_agents.api import Agent, CreateRunRequest, CursorError, MutationOutcomeUnknownError, Run
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.runs.watch import Watched, watch
from cursor_cloud_agents.core.spend import consent
from cursor_cloud_agents.core.spend.continuation import refuse_continuation
from cursor_cloud_agents.core.spend.followups import UNSENT_FOLLOW_UP, follow_up_question, follow_up_within_limits
from cursor_cloud_agents.core.spend.paid import ask_paid, store_failures
from cursor_cloud_agents.core.state import CoreState, QueueBell
from cursor_cloud_agents.core.store import StoreUnusable
from cursor_cloud_agents.core.timing import QUEUE_STORE_SECONDS, QUEUED_FOLLOWUP_SECONDS, CallTime

logger = logging.getLogger("cursor_cloud_agents.queue")

Outcome = Literal["sent", "held", "expired", "refused", "unknown"]


@dataclass(frozen=True)
class QueueNews:
    """What became of one queued follow-up in a pass over the queue."""

    act: Act
    outcome: Outcome
    note: str
    run: Run | None = None
    """The follow-up's run, when it was sent."""


def waiting(reading: Reading, now: float) -> list[Act]:
    """The follow-ups still queued, oldest first (expired ones included: the next pass marks them)."""
    del now
    return sorted((act for act in reading.of("queued") if act.state == "queued"), key=lambda act: act.at)


async def listed(state: CoreState) -> list[Act]:
    """The follow-ups waiting in the queue, oldest first."""
    now = state.clock.now()
    with store_failures():
        return waiting(await state.store.read(now), now)


def expires_at(act: Act) -> float:
    return act.at + QUEUED_FOLLOWUP_SECONDS


async def enqueue(
    state: CoreState,
    agent: Agent,
    request: CreateRunRequest,
    active_run_id: str,
    *,
    call: Call | None = None,
    asks: frozenset[str] = frozenset(),
) -> Act:
    """Write a follow-up for `agent` to be sent once `active_run_id` ends, after the person's yes when `asks` lists
    `followup` (the same question as a follow-up sent now); nothing is sent now.

    Raises:
        ToolFailure: VALIDATION (images, or one already queued for this agent), LIMIT_REACHED (the spend limit
            is reached already), CONFIGURATION (the store cannot be used).
    """
    if request.prompt.images:
        raise ToolFailure(failures.VALIDATION, "Images cannot be queued: send them once the run has ended.")
    consent.refuse_unanswerable(call, "followup", UNSENT_FOLLOW_UP, asks)
    refuse_continuation(agent)
    await state.limits.before_spending(state.api)
    await ask_paid(state, call, follow_up_question(agent, request), UNSENT_FOLLOW_UP, asks)
    now = state.clock.now()
    act = Act(
        Act.new_id(),
        "queued",
        now,
        "queued",
        agent_id=agent.id,
        before_run_id=active_run_id,
        detail={"request": request.wire()},
    )

    def alone(reading: Reading) -> list[Act]:
        for earlier in waiting(reading, now):
            if earlier.agent_id == agent.id:
                raise ToolFailure(
                    failures.VALIDATION,
                    f"A follow-up is already queued for {agent.id} (queue id {earlier.id}); nothing was queued.",
                    advice=advice(Step.DROP_QUEUED, queue_id=earlier.id),
                    queue_id=earlier.id,
                )
        return [act]

    with store_failures():
        await state.store.change(alone, now)
    state.queue_bell.ring()
    return act


async def drop(state: CoreState, queue_id: str) -> Act:
    """Take a queued follow-up out of the queue; nothing is sent.

    Raises:
        ToolFailure: NOT_FOUND when no follow-up with that id is waiting (sent, dropped, expired, or unknown).
    """
    now = state.clock.now()

    def dropped(reading: Reading) -> list[Act]:
        act = reading.acts.get(queue_id)
        if act is None or act.kind != "queued" or act.state != "queued":
            raise ToolFailure(failures.Code.NOT_FOUND, f"No follow-up {queue_id} is waiting in the queue.")
        return [_failed(act, "dropped by the person; nothing was sent")]

    with store_failures():
        return (await state.store.change(dropped, now))[0]


def _failed(act: Act, note: str) -> Act:
    return replace(act, state="failed", detail=(act.detail or {}) | {"note": note})


async def send_due(state: CoreState) -> list[QueueNews]:
    """One pass over the queue: each follow-up whose run has ended is sent (or held, or refused), each one
    past its time expires; those whose run still works stay. What became of each that moved."""
    news: list[QueueNews] = []
    for act in await listed(state):
        moved = await _settle_one(state, act)
        if moved is not None:
            news.append(moved)
    return news


LAST_PASS_TRIES = 3
"""Passes of `send_due_after_an_end`, a second apart: a run's end heard on its stream can come a moment before
the run's record says it ended (seen under load), and the record is what a pass reads."""


async def send_due_after_an_end(state: CoreState) -> list[QueueNews]:
    """`send_due` as a command's last act once the run it waited for ended (`wait`, `events --until`): while
    something is queued and nothing moved, looked at again a second later, `LAST_PASS_TRIES` passes at most."""
    news = await send_due(state)
    for _ in range(LAST_PASS_TRIES - 1):
        if news or not await listed(state):
            break
        await state.clock.sleep(1.0)
        news = await send_due(state)
    return news


async def _settle_one(state: CoreState, act: Act) -> QueueNews | None:
    now = state.clock.now()
    if now >= expires_at(act):
        note = "expired: not sent within 12 hours of being queued; nothing was sent"
        return await _close(state, act, "expired", note)
    agent_id = act.agent_id or ""
    try:
        agent = await state.api.get_agent(agent_id)
        latest = await state.api.get_run(agent_id, agent.latest_run_id) if agent.latest_run_id else None
        waited = latest if latest is None or latest.id == act.before_run_id else None
        if waited is None and act.before_run_id is not None:
            waited = await state.api.get_run(agent_id, act.before_run_id)
    except CursorError:
        return None  # read again on the next pass
    if latest is not None and not latest.is_terminal:
        return None  # never while a run is active
    if waited is not None and waited.status != "FINISHED":
        note = (
            f"held: run {waited.id} ended {waited.status}, so the follow-up written for it was not sent; "
            f"send it by hand (cursor-cloud-agents followup {agent_id} ...) if it still applies"
        )
        return await _close(state, act, "held", note)
    if not await _take(state, act):
        return None  # another process took it first
    return await _send(state, act, agent)


async def _close(state: CoreState, act: Act, outcome: Outcome, note: str) -> QueueNews | None:
    """Mark a waiting follow-up failed with `note`, unless another process moved it first."""
    now = state.clock.now()

    def still_waiting(reading: Reading) -> list[Act]:
        current = reading.acts.get(act.id)
        return [_failed(act, note)] if current is not None and current.state == "queued" else []

    with store_failures():
        written = await state.store.change(still_waiting, now)
    return QueueNews(written[0], outcome, note) if written else None


async def _take(state: CoreState, act: Act) -> bool:
    """Under the store's lock: mark the follow-up `sent` if it is still waiting; whether this process took it."""
    now = state.clock.now()

    def take(reading: Reading) -> list[Act]:
        current = reading.acts.get(act.id)
        return [replace(act, state="sent")] if current is not None and current.state == "queued" else []

    with store_failures():
        return bool(await state.store.change(take, now))


async def _send(state: CoreState, act: Act, agent: Agent) -> QueueNews:
    request = CreateRunRequest.model_validate((act.detail or {}).get("request", {}))
    try:
        made = await follow_up_within_limits(state, agent, request, checked_when_queued=True)
    except MutationOutcomeUnknownError:
        note = "sent, but its answer was lost: read the agent to see the run it made"
        await _note(state, replace(act, state="sent"), note)
        return QueueNews(act, "unknown", note)
    except (ToolFailure, CursorError) as refused:
        why = refused.message if isinstance(refused, ToolFailure) else str(refused)
        note = f"refused, nothing was sent: {why}"
        await _note(state, _failed(act, note), None)
        return QueueNews(act, "refused", note)
    done = replace(act, state="done", run_id=made.run.id)
    await _note(state, done, None)
    return QueueNews(done, "sent", f"sent: run {made.run.id}", made.run)


async def _note(state: CoreState, act: Act, note: str | None) -> None:
    if note is not None:
        act = replace(act, detail=(act.detail or {}) | {"note": note})
    with store_failures():
        await state.store.write(act, now=state.clock.now())


def describe(act: Act) -> dict[str, Any]:
    """A queued follow-up as listed (`status`, cursor_supervise): no prompt text beyond its first line."""
    request: dict[str, Any] = (act.detail or {}).get("request", {})
    prompt = str(request.get("prompt", {}).get("text", ""))
    return {
        "queue_id": act.id,
        "agent_id": act.agent_id,
        "after_run_id": act.before_run_id,
        "queued_at": act.at,
        "expires_at": expires_at(act),
        "prompt_start": prompt.splitlines()[0][:80] if prompt else "",
    }


async def keep(
    state: CoreState,
    time: CallTime,
    on_news: Callable[[QueueNews], Awaitable[None]] | None = None,
    *,
    bell: QueueBell | None = None,
) -> None:
    """Keep the queue for as long as the caller runs it (cancel to stop): a pass at once (a process started
    after a run ended sends its follow-up), then one each time a run a follow-up waits for ends (heard on its
    stream, within a second: `core.watch`), and one whenever the follow-ups queued change (this process's
    `bell`, or the store read each QUEUE_STORE_SECONDS of real time for other processes'). With nothing
    queued, it only reads the store."""
    while True:
        # A pass is never cut in the middle by the caller's cancel (`wait` and `events` cancel their keeper the
        # moment the run they waited for ends): a follow-up begun is sent, recorded and told, never left half-way
        # for the next process to settle. Each request of the pass is bounded by its own timeout.
        with anyio.CancelScope(shield=True):
            for item in await send_due(state):
                if on_news is not None:
                    await on_news(item)
        pending = await listed(state)
        rows = [Watched(act.agent_id or "", act.before_run_id) for act in pending if act.agent_id]
        async with anyio.create_task_group() as group:

            async def queue_changed(ids: frozenset[str] = frozenset(act.id for act in pending)) -> None:
                await _queue_changes(state, ids, bell)
                group.cancel_scope.cancel()

            group.start_soon(queue_changed)
            if rows:
                await watch(state.api, rows, "any", time, math.inf, _nothing)
                group.cancel_scope.cancel()


async def keep_going(
    state: CoreState, time: CallTime, on_news: Callable[[QueueNews], Awaitable[None]] | None = None
) -> None:
    """`keep` for a process's whole life: a failure (the store unusable, Cursor down) is logged and the queue
    kept again QUEUE_STORE_SECONDS later, never ending the process that keeps it."""
    while True:
        try:
            await keep(state, time, on_news, bell=state.queue_bell)
        except (ToolFailure, CursorError, StoreUnusable) as failed:
            logger.warning("the follow-up queue could not be kept (%s); trying again shortly", failed)
        await anyio.sleep(QUEUE_STORE_SECONDS)


async def _nothing(_message: str) -> None:
    return None


async def _queue_changes(state: CoreState, ids: frozenset[str], bell: QueueBell | None) -> None:
    """Return once the follow-ups waiting are no longer `ids` (or the bell rang)."""
    async with anyio.create_task_group() as group:

        async def rung() -> None:
            if bell is not None:
                await bell.wait()
                group.cancel_scope.cancel()

        group.start_soon(rung)
        while frozenset(act.id for act in await listed(state)) == ids:
            await anyio.sleep(QUEUE_STORE_SECONDS)  # real time: the store is a local file, the clock may be a test's
        group.cancel_scope.cancel()
