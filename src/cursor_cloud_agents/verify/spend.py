"""`verify --spend`: one small paid agent walked through its lifecycle, then what it cost.

Creates one agent without a repository on the cheapest variant found, follows its stream live (when
does the first heartbeat come?), sends a follow-up while it is busy (`agent_busy` expected; sent as any
follow-up, through `core.followups`), cancels it, archives, unarchives and deletes it. Whatever happens,
the agent is deleted at the end.

The agent is created like any other (`core.paid.create_within_limits`): it takes its place in the
store of paid acts, so it counts towards `CURSOR_MCP_MAX_NEW_AGENTS`, is held to the agents running and
the spend limit, and is never paid twice when its answer is lost. The limits are checked, and said, before
the person is asked, by that door: the core words the question, `Confirmation` only answers it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import anyio

from cursor_cloud_agents.api import (
    TERMINAL_RUN_STATUSES,
    AgentSummary,
    CreateAgentRequest,
    CreatedAgent,
    CursorError,
    Deadline,
    Model,
    ModelParam,
    ModelSelection,
    NotFoundError,
    Run,
    RunNotCancellableError,
    ids,
)
from cursor_cloud_agents.core import (
    Code,
    CoreState,
    ToolFailure,
    agent_request,
    create_within_limits,
    failures,
    follow_up_request,
    follow_up_within_limits,
    prompt_of,
)
from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.timing import CallTime
from cursor_cloud_agents.verify.facts import Context
from cursor_cloud_agents.verify.report import Line, differs, new, ok, skipped

PROMPT = "Reply with the single word OK. Do not read, write or run anything."
SIMULATOR_MARKER = " [sim:seconds=120]"
"""On a loopback simulator only: the run lasts long enough for a heartbeat and a cancel."""
COST_WARNING = (
    "--spend creates one Cloud Agent without a repository on the cheapest model variant listed, with a "
    "one-line prompt, cancels it within a minute and deletes it. Cursor bills it: usually a few cents."
)
HEARTBEAT_MAX_SECONDS = 40.0
FOLLOW_SECONDS = 45.0
CANCEL_READS = 30
NOTHING_SENT = frozenset({failures.LIMIT_REACHED, failures.CAPACITY, failures.CONFIGURATION, failures.DECLINED})
"""Refusals of a creation that sent nothing (a limit, the store of paid acts, Cursor's count): nothing to delete."""
# Values ranked from cheapest to dearest; a variant's cost is the sum of its values' ranks.
_VALUE_RANK = {"false": 0, "none": 0, "minimal": 1, "low": 2, "medium": 3, "high": 4, "xhigh": 5, "true": 6}


def cheapest(models: Sequence[Model]) -> ModelSelection | None:
    """The listed variant with the cheapest-looking parameter values (never `fast=true` when avoidable).

    A model that lists no variants cannot be ranked (its default may be a costly one), so it is never
    chosen; None when no model lists any (the older id-only `/v1/models`): no guess is made.
    """
    best: tuple[int, ModelSelection] | None = None
    for model in models:
        for variant in model.variants or []:
            score = sum(_VALUE_RANK.get(param.value, 3) for param in variant.params)
            params = [ModelParam(id=p.id, value=p.value) for p in variant.params] or None
            if best is None or score < best[0]:
                best = (score, ModelSelection(id=model.id, params=params))
    return None if best is None else best[1]


def creation(selection: ModelSelection, *, on_simulator: bool) -> CreateAgentRequest:
    """The one agent `--spend` creates, its id minted here: the delete finds it even when the creation's
    answer was lost (outcome unknown)."""
    text = PROMPT + (SIMULATOR_MARKER if on_simulator else "")
    return agent_request(prompt_of(text), agent_id=ids.mint_agent_id(), model=selection)


@dataclass
class Confirmation:
    """The person at `verify --spend`, as the core's paid door sees them (`core.call.Call`): the core's question
    is shown after the cost warning, and only `yes` typed (or `--yes` given) answers yes."""

    say: Callable[[str], object]
    ask: Callable[[str], str]
    confirmed: bool
    time: CallTime = CallTime(Deadline(math.inf))
    can_ask: bool = True

    async def progress(self, message: str) -> None:
        del message  # verify's lines report the steps

    async def roots(self) -> list[Path] | None:
        return None

    async def confirm(self, question: Question, unsent: str) -> None:
        self.say(f"{COST_WARNING} {question.message}")
        if not self.confirmed and self.ask("Create it? Type yes to spend: ").strip().lower() != "yes":
            raise ToolFailure(failures.DECLINED, f"not confirmed; {unsent}")


async def spend(
    ctx: Context, state: CoreState, request: CreateAgentRequest, confirmation: Confirmation | None = None
) -> list[Line]:
    """Create `request`, follow, follow up while busy, cancel, archive, unarchive, delete; the lines of each
    step. A failed step is a DIFFERS line; the delete runs whatever happened, unless nothing was sent."""
    assert request.agent_id is not None
    agent_id = request.agent_id
    lines: list[Line] = []

    def asked_again(earlier: str) -> None:
        nonlocal agent_id
        agent_id = earlier  # an earlier --spend creation whose answer was lost: this one is sent with its id

    try:
        asks = frozenset({"create"}) if confirmation is not None else frozenset[str]()
        created = await create_within_limits(state, request, call=confirmation, asks=asks, on_resend=asked_again)
    except ToolFailure as refused:
        if refused.code in NOTHING_SENT:
            return [skipped("--spend", f"{refused.message}")]
        lines.append(differs("--spend", "the agent to be created", refused.message))
        created = None
    except CursorError as exc:
        lines.append(differs("--spend", "the lifecycle to complete", exc.message))
        created = None
    try:
        if created is not None:
            await _lifecycle(ctx, state, agent_id, created, lines)
    except CursorError as exc:
        lines.append(differs("--spend", "the lifecycle to complete", exc.message))
    finally:
        with anyio.CancelScope(shield=True):
            lines += await _delete(ctx, agent_id)
    return lines


async def _lifecycle(
    ctx: Context, state: CoreState, agent_id: str, created: CreatedAgent | AgentSummary, lines: list[Line]
) -> None:
    """The paid steps after the creation in order, each adding its lines to `lines` as it ends (kept when a
    later one fails)."""
    if isinstance(created, CreatedAgent):
        run = created.run
        lines.append(ok("POST /v1/agents (no repository)", f"agent {created.agent.status}, run {run.status}"))
    else:  # an earlier --spend creation whose answer was lost, found again: its run is the one followed
        if created.latest_run_id is None:
            lines.append(differs("POST /v1/agents (no repository)", "a run on the agent", "none"))
            return
        run = await ctx.api.get_run(agent_id, created.latest_run_id)
        lines.append(ok("POST /v1/agents (no repository)", f"an earlier creation found again, run {run.status}"))
    if run.status == "QUEUED":
        lines.append(new("run status", "QUEUED on a new run"))
    lines += await _busy(state, agent_id)
    lines += await _heartbeat(ctx, agent_id, run.id)
    lines += await _cancel(ctx, agent_id, run.id)
    lines += await _cost(ctx, agent_id)
    lines += await _archive_cycle(ctx, agent_id)


async def _busy(state: CoreState, agent_id: str) -> list[Line]:
    """A follow-up while the run is busy, sent as any follow-up is (`core.followups`): held to the spend limit
    and written in the store of paid acts first, so that should the run have ended meanwhile, the run it
    makes is a recorded paid act, never paid twice when its answer is lost."""
    try:
        agent = await state.api.get_agent(agent_id)
        await follow_up_within_limits(state, agent, follow_up_request(PROMPT))
    except ToolFailure as refused:
        if refused.code == Code.AGENT_BUSY:
            return [ok("follow-up while busy", "409 agent_busy")]
        return [skipped("follow-up while busy", refused.message)]
    return [differs("follow-up while busy", "409 agent_busy", "a second run was created (and is billed)")]


async def _heartbeat(ctx: Context, agent_id: str, run_id: str) -> list[Line]:
    """Follow the stream live until its first heartbeat (or the run's end), timing it on `ctx.now`."""
    started = ctx.now()
    with anyio.move_on_after(FOLLOW_SECONDS + 15):
        async with ctx.api.stream_run(agent_id, run_id) as stream:
            async for raw in stream.raw_events():
                waited = ctx.now() - started
                if raw.event == "heartbeat":
                    if waited <= HEARTBEAT_MAX_SECONDS:
                        return [ok("live stream heartbeat", f"first after {waited:.1f} s")]
                    return [
                        differs("live stream heartbeat", f"within {HEARTBEAT_MAX_SECONDS:.0f} s", f"{waited:.1f} s")
                    ]
                if raw.event in ("result", "done"):
                    return [skipped("live stream heartbeat", "the run ended before the first heartbeat")]
                if waited > FOLLOW_SECONDS:
                    break
    return [differs("live stream heartbeat", f"a heartbeat within {HEARTBEAT_MAX_SECONDS:.0f} s", "none")]


async def _cancel(ctx: Context, agent_id: str, run_id: str) -> list[Line]:
    try:
        await ctx.api.cancel_run(agent_id, run_id)
    except RunNotCancellableError:
        return [skipped("cancel", "the run had already ended")]
    run = await _until_ended(ctx, agent_id, run_id)
    if run.status == "CANCELLED":
        return [ok("cancel", "the run reads CANCELLED")]
    if run.is_terminal:
        return [ok("cancel", f"the run ended as {run.status} before the cancel took effect (the documented race)")]
    return [differs("cancel", "CANCELLED within 30 reads", f"still {run.status}")]


async def _until_ended(ctx: Context, agent_id: str, run_id: str) -> Run:
    run = await ctx.api.get_run(agent_id, run_id)
    for _ in range(CANCEL_READS):
        if run.status in TERMINAL_RUN_STATUSES:
            break
        await ctx.sleep(1.0)
        run = await ctx.api.get_run(agent_id, run_id)
    return run


async def _cost(ctx: Context, agent_id: str) -> list[Line]:
    answer = await ctx.api.get_usage(agent_id)
    tokens = answer.total_usage.total_tokens if answer.total_usage else 0
    if answer.cost is None or answer.cost.charged_cents is None:
        return [ok("cost", f"{tokens} tokens; no cost yet (it lags: see the dashboard)")]
    return [ok("cost", f"{tokens} tokens, charged {answer.cost.charged_cents:.2f} cents")]


async def _archive_cycle(ctx: Context, agent_id: str) -> list[Line]:
    await ctx.api.archive_agent(agent_id)
    archived = (await ctx.api.get_agent(agent_id)).status
    await ctx.api.unarchive_agent(agent_id)
    back = (await ctx.api.get_agent(agent_id)).status
    lines = [
        ok("archive", "ARCHIVED") if archived == "ARCHIVED" else differs("archive", "ARCHIVED", archived),
        ok("unarchive", back) if back != "ARCHIVED" else differs("unarchive", "not ARCHIVED", back),
    ]
    return lines


async def _delete(ctx: Context, agent_id: str) -> list[Line]:
    # A 404 on the delete itself is done too: the creation never happened.
    try:
        await ctx.api.delete_agent(agent_id)
        await ctx.api.get_agent(agent_id)
    except NotFoundError:
        return [ok("delete", "the agent reads 404 afterwards")]
    except CursorError as exc:
        return [differs("delete", "the agent deleted", exc.message)]
    return [differs("delete", "404 after delete", "the agent still reads")]
