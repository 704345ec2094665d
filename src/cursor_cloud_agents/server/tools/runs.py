"""The run tools: list an agent's runs, read one (waiting for its end, slicing its result), cancel one.

A run's `git` is the agent's current state (the same on every run, no SHA): it is shown as such,
and no commit is ever made up. Waiting re-reads on the call's clock, reports MCP progress at every
re-read and answers `timed_out` inside the call's budget; a wait above its maximum is clamped.
Cancelling is asynchronous on Cursor's side, so the tool re-reads the run and says what it saw,
confirming only a CANCELLED it read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import Field

from cursor_cloud_agents.api import CursorClient, CursorError, Run, RunNotCancellableError
from cursor_cloud_agents.core import (
    ActivityCache,
    ActivitySummary,
    Replays,
    clean,
    consent,
    fold_liveness,
    mark_seen,
    with_progress,
)
from cursor_cloud_agents.core.call import Call
from cursor_cloud_agents.core.timing import (
    ACTIVITY_RESERVE,
    ACTIVITY_WALK_SECONDS,
    CANCEL_BUDGET_SECONDS,
    CANCEL_POLL_SECONDS,
    CANCEL_REREADS,
    READ_RESERVE,
    WAIT_MARGIN_SECONDS,
    WAIT_POLL_SECONDS,
    Clock,
)
from cursor_cloud_agents.server.pipeline.declaration import Access, Catalogue, TaskRule
from cursor_cloud_agents.server.pipeline.pages import paged
from cursor_cloud_agents.server.pipeline.params import AgentId, PageCursor, PageLimit, RunId, RunWait, SliceLimit
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.views.runs import RUN_ITEM_MAX_BYTES, CancelView, RunList, RunView

RUNS_ENVELOPE_BYTES = 600
"""Room for the agent id, next_cursor (opaque; a few hundred bytes at most seen) and flags around the rows."""

catalogue = Catalogue()


async def summarize(
    call: Call, api: CursorClient, cache: ActivityCache, clock: Clock, agent_id: str, run_id: str, *, terminal: bool
) -> ActivitySummary:
    """The activity summary of one run, as placed under `activity` in get_run's answer.

    Never raises for an unreadable stream: it answers a summary with `activity_error` instead.
    Reports MCP progress every 5 s while the replay is walked. An active run is `stale` by the rule
    `cursor_supervise` applies with its default threshold (`liveness`).
    """

    async def work() -> ActivitySummary:
        return await fold_liveness(Replays(api, cache, clock), agent_id, run_id, terminal=terminal)

    return await with_progress(call, work, lambda: "reading the run's stream for its activity")


def _progress_text(run: Run, waited: float, wait_seconds: int) -> str:
    return f"run {clean(run.status)[:24]}, waited {waited:.0f} of {wait_seconds} s"


async def wait_for_end(
    call: Call, api: CursorClient, agent_id: str, run: Run, wait_seconds: int, reserve: float
) -> tuple[Run, bool]:
    """Re-read `run` until it is terminal, `wait_seconds` pass or the deadline runs short; True when timed out."""

    async def report(seen: Run, waited: float) -> None:
        await call.progress(_progress_text(seen, waited, wait_seconds))

    run, ended = await call.time.poll(
        run,
        lambda: api.get_run(agent_id, run.id),
        lambda seen: seen.is_terminal,
        report,
        every=WAIT_POLL_SECONDS,
        within=wait_seconds,
        reserve=reserve,
    )
    return run, not ended


async def observe_cancel(call: Call, api: CursorClient, agent_id: str, run_id: str) -> Run | None:
    """Re-read a run a few times after a cancel, until it is terminal; None when no read succeeded."""
    time = call.time
    seen: Run | None = None
    for _ in range(CANCEL_REREADS):
        if not time.fits(CANCEL_POLL_SECONDS, READ_RESERVE):
            break
        await time.pause(CANCEL_POLL_SECONDS)
        try:
            seen = await api.get_run(agent_id, run_id)
        except CursorError:
            continue  # one failed re-read is not an outcome; the next one may succeed
        if seen.is_terminal:
            break
    return seen


async def read_quietly(api: CursorClient, agent_id: str, run_id: str) -> Run | None:
    """The run, or None when it cannot be read."""
    try:
        return await api.get_run(agent_id, run_id)
    except CursorError:
        return None


def get_run_budget(arguments: Mapping[str, Any]) -> float:
    """Seconds for one get_run call: the reads, the wait, and the activity walk when asked for."""
    walk = 0.0 if arguments.get("activity") is False else ACTIVITY_WALK_SECONDS
    return WAIT_MARGIN_SECONDS + arguments.get("wait_seconds", 0) + walk


def get_run_waits(arguments: Mapping[str, Any]) -> bool:
    """A get_run call with a wait is waiting (a declaring client gets a task)."""
    return bool(arguments.get("wait_seconds"))


def run_still_waiting(answer: RunView) -> bool:
    """The run did not end within the wait: ask again."""
    return answer.timed_out is True


async def ask_before_cancelling(
    call: Call, api: CursorClient, agent_id: str, run_id: str, asked: frozenset[str]
) -> None:
    """When CURSOR_MCP_ASK (`asked`) lists `cancel`, a running run is cancelled only on a yes (two reads to name
    it; a client that cannot ask is refused)."""
    if "cancel" not in asked:
        return
    run = await api.get_run(agent_id, run_id)
    if not run.is_terminal:
        question = consent.cancellation(await api.get_agent(agent_id), run)
        await consent.ask_before(call, question, "the run was not cancelled", asked)


@catalogue.tool(title="List runs")
async def cursor_list_runs(
    state: ServerState, agent_id: AgentId, limit: PageLimit = 20, cursor: PageCursor = None
) -> RunList:
    """List one page of an agent's runs, newest first; read one with cursor_get_run."""
    used = state.answers.page_size(limit, RUN_ITEM_MAX_BYTES, RUNS_ENVELOPE_BYTES)
    page = await state.api.list_runs(agent_id, limit=used, cursor=cursor)
    return RunList.of(agent_id, page, limit=limit, used=used)


@catalogue.tool(
    title="Get run",
    budget=get_run_budget,
    shrink_hint="pass a smaller result_limit or activity=false",
    task=TaskRule(waits=get_run_waits, still_waiting=run_still_waiting),
)
async def cursor_get_run(
    state: ServerState,
    call: ToolCall,
    agent_id: AgentId,
    run_id: RunId,
    wait_seconds: RunWait = 0,
    result_offset: Annotated[int, Field(ge=0)] = 0,
    result_limit: SliceLimit = 12_000,
    activity: bool | None = None,
) -> RunView:
    """Read a run: status, result, error, branches.

    wait_seconds waits for its end (timed_out: call again). Long results come in slices (chars):
    pass result_next_offset as result_offset. activity adds what the agent last did (default: only
    for an ended run without result).
    """
    call.note(agent_id=agent_id, run_id=run_id)
    run, timed_out = await state.api.get_run(agent_id, run_id), False
    if wait_seconds > 0:
        reserve = ACTIVITY_RESERVE if activity else READ_RESERVE
        run, timed_out = await wait_for_end(call, state.api, agent_id, run, wait_seconds, reserve)
    summary = None
    if activity or (activity is None and run.is_terminal and not run.result):
        summary = await summarize(
            call, state.api, state.activity, state.clock, agent_id, run.id, terminal=run.is_terminal
        )
    answer = RunView.of(agent_id, run, timed_out=timed_out, activity=summary)
    if run.is_terminal:
        await mark_seen(state.store, [run.id], state.clock.now())
    if run.result is None:
        return answer
    return paged(state.answers, call.client).slice_text(  # a slice Codex's model reads whole (K-68)
        answer,
        "result",
        state.answers.text(run.result),
        offset=result_offset,
        limit=result_limit,
        next_key="result_next_offset",
    )


def cancel_budget(_arguments: Mapping[str, Any]) -> float:
    return CANCEL_BUDGET_SECONDS


@catalogue.tool(title="Cancel run", access=Access.DESTRUCTIVE, idempotent=True, budget=cancel_budget)
async def cursor_cancel_run(state: ServerState, call: ToolCall, agent_id: AgentId, run_id: RunId) -> CancelView:
    """Cancel an active run and report outcome: cancelled, ended_without_cancel, still_running or unknown.

    Pushed commits stay. Asked first if CURSOR_MCP_ASK lists cancel.
    """
    call.note(agent_id=agent_id, run_id=run_id)
    await ask_before_cancelling(call, state.api, agent_id, run_id, state.settings.ask)
    try:
        await state.api.cancel_run(agent_id, run_id)
    except RunNotCancellableError:
        seen, refused = await read_quietly(state.api, agent_id, run_id), True
    else:
        seen, refused = await observe_cancel(call, state.api, agent_id, run_id), False
    return CancelView.of(agent_id, run_id, seen, refused=refused)
