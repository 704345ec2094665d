"""`run` and `followup`: the commands that spend, through the server's own paid path and limits.

Nothing here is a second implementation. The request is checked by the server's creation checks
(`core.creation`) and model check (`core.models`), its images by
`core.images`, the agent id minted by `api.ids`, and the creation sent by
`core.paid.create_within_limits`, with the same store of paid acts, limits and model
list the server keeps: a `core.state.CoreState` per command (in simulated mode the store stays in
memory, as the server's does). A follow-up goes through the server's own continuation
check (`core.continuation`) and spend limit. None of it loads the MCP SDK.

`CURSOR_MCP_ALLOW_WRITES` is the model's gate; here the person confirms instead, through the core's door
(`terminal/asking.py` answers the question the core words). The order keeps every refusal free: local
checks, then the reads the checks need, then (no `--yes` and no terminal to ask on) the door's refusal before
any of its own reads, then the creation count (`CURSOR_MCP_MAX_NEW_AGENTS`), the spend and the agents
running, then the question with the limits used, then the one paid request.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import anyio
from rich.text import Text

from cursor_cloud_agents.api import (
    AgentSummary,
    CreatedAgent,
    PromptImage,
    RepoSpec,
    Run,
)
from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core import (
    MAX_IMAGES,
    Act,
    AgentAsked,
    CoreState,
    cancel_past_ceiling,
    check_before_opening,
    create_within_limits,
    follow_up_request,
    follow_up_within_limits,
    new_agent_request,
    prompt_image,
)
from cursor_cloud_agents.core import queue as follow_up_queue
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.terminal.asking import Person
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, TIMED_OUT, UsageError
from cursor_cloud_agents.terminal.notify import Notifier
from cursor_cloud_agents.terminal.ownrepo import Here, no_repository_note, prepare_simulated
from cursor_cloud_agents.terminal.progress import wait_for_end
from cursor_cloud_agents.terminal.term import Session, Term
from cursor_cloud_agents.terminal.watch import follow_run

Then = Literal["wait", "watch"] | None


@dataclass(frozen=True)
class Order:
    """What the person asked `run` for, as typed."""

    prompt: str
    repo: str | None
    ref: str | None
    model: str | None
    images: tuple[str, ...]
    confirmed: bool
    models: tuple[str, ...] = ()
    """`--models A,B,C`: one agent per model on the same task (terminal/attempts.py)."""
    max_minutes: float | None = None
    """`--max-minutes`: the run is cancelled once it is this old (the command waits for it meanwhile)."""
    here: Here | None = None
    """Where `run` was typed: simulated, the person's own repository is seeded into the stand-in (ownrepo.py)."""


def prompt_images(paths: tuple[str, ...]) -> list[PromptImage] | None:
    """The images to attach, checked and encoded by the server's image checks (VALIDATION names the file).

    The person typed these paths: any file they can read may go, unlike a model's, which the server keeps
    under the client's roots."""
    if not paths:
        return None
    if len(paths) > MAX_IMAGES:
        raise UsageError(f"at most {MAX_IMAGES} images (--image given {len(paths)} times); nothing was sent")
    return [prompt_image(path, [Path("/")], where=f"--image {path}") for path in paths]


def command_state(term: Term, session: Session) -> CoreState:
    """The core's state for this command, as the server keeps its own: the store of paid acts (in memory in
    simulated mode, as the server keeps it), limits and model list, on the session's clock."""
    settings = session.settings_for(term.settings)
    return CoreState(settings, term.redactor, Clock(now=session.now, sleep=session.sleep), client=session.api)


def repos_line(repos: list[RepoSpec]) -> Text:
    if not repos:
        return Text("none (an agent without a repository)", style="dim")
    return agent_text(
        ", ".join(f"{repo.url}" + (f" @ {repo.starting_ref}" if repo.starting_ref else "") for repo in repos)
    )


def new_agent(order: Order) -> AgentAsked:
    """What `run` was asked for, as the core's one request builder takes it (`core/request/builder.py`)."""
    return AgentAsked(
        prompt=order.prompt, images=prompt_images(order.images), repository=order.repo, starting_ref=order.ref
    )


def _started(term: Term, agent: AgentSummary, run_id: str | None, *, resumed: bool) -> None:
    """Say which agent runs now: a new one, or the one an earlier identical creation made (found again)."""
    if term.json:
        term.emit({"agent_id": agent.id, "run_id": run_id, "url": agent.url, "name": agent.name, "resumed": resumed})
        return
    said = "found again " if resumed else "started "
    term.out.print(
        Text(said, style="yellow" if resumed else "green").append_text(agent_text(f"{agent.id} {run_id or ''}"))
    )
    if resumed:
        term.out.print("an earlier identical creation made this agent; no new agent was created", style="dim")
    if agent.url:
        term.out.print(agent_text(agent.url, "dim"))


async def _then(term: Term, session: Session, agent_id: str, run_id: str | None, then: Then) -> int:
    if then is None or run_id is None:
        return OK
    if then == "watch":
        return await follow_run(term, session, agent_id, run_id)
    last: Run = await wait_for_end(term, session, agent_id, run_id)
    return OK if last.status == "FINISHED" else REFUSED


async def run(term: Term, *, order: Order, then: Then) -> int:
    """Start a paid agent after showing what will be paid for, and optionally wait for it or watch it."""
    asked = new_agent(order)
    person = Person(term, order.confirmed)
    person.cannot_ask_now("create", "no agent was created")
    check_before_opening(asked)  # refused before any world starts or connection opens
    note = no_repository_note(order.here, order.repo)
    if note is not None:
        term.notice(note)
    async with term.open_session() as session:
        state = command_state(term, session)
        request = await new_agent_request(state, asked.with_model(order.model))
        await prepare_simulated(term.settings.simulated, order.here, request.repos)
        created = await create_within_limits(state, request, call=person, asks=person.asks)
        resumed = not isinstance(created, CreatedAgent)  # an earlier identical creation, found again
        agent = created if resumed else created.agent
        run_id = agent.latest_run_id if resumed else created.run.id
        _started(term, agent, run_id, resumed=resumed)
        if order.max_minutes is not None and run_id is not None:
            return await _within_ceiling(term, session, agent.id, run_id, order.max_minutes, then or "wait")
        return await _then(term, session, agent.id, run_id, then)


async def _within_ceiling(term: Term, session: Session, agent_id: str, run_id: str, minutes: float, then: Then) -> int:
    """`_then`, with the run cancelled once it is `minutes` old (core.cancel_past_ceiling): said, notified, 124."""
    cut: list[bool] = []

    async def watchdog() -> None:
        if await cancel_past_ceiling(session.api, agent_id, run_id, minutes * 60, session.now, session.sleep):
            cut.append(True)
            event = {"event": "cancelled_at_ceiling", "agent_id": agent_id, "run_id": run_id, "max_minutes": minutes}
            if term.json:
                term.emit(event)
            term.notice(f"run {run_id} outlived --max-minutes {minutes:g} and was cancelled", style="yellow")
            await Notifier().ended(run_id, f"cancelled after {minutes:g} min (--max-minutes) · {agent_id}")

    code = OK
    async with anyio.create_task_group() as group:
        group.start_soon(watchdog)
        code = await _then(term, session, agent_id, run_id, then)
        group.cancel_scope.cancel()
    return TIMED_OUT if cut else code


async def followup(term: Term, *, agent_id: str, prompt: str, confirmed: bool, queue: bool = False) -> int:
    """Send a follow-up prompt (a paid run of the same agent) after confirmation; with `queue`, a busy agent's
    follow-up waits in the queue (`core.queue`) and goes out right after its run ends."""
    if not prompt.strip():
        raise UsageError("the prompt is empty: say what the agent should do next")
    person = Person(term, confirmed)
    person.cannot_ask_now("followup", "no follow-up was sent")
    async with term.open_session() as session:
        agent = await session.api.get_agent(agent_id)
        state = command_state(term, session)
        request = follow_up_request(prompt)
        active = agent.latest_run_id
        if queue and active and not (await session.api.get_run(agent.id, active)).is_terminal:
            if not state.store.on_disk:  # this command ends now: a queue in its memory would end with it
                raise UsageError(
                    "the agent is busy and --queue needs the store on disk (CURSOR_MCP_STATE_DIR, not memory or "
                    "simulated mode) so that another process can send it; nothing was queued or sent"
                )
            queued = await follow_up_queue.enqueue(state, agent, request, active, call=person, asks=person.asks)
            return _queued(term, queued)
        # The spend limit holds here too; an identical follow-up whose answer was lost is this one (resumed).
        made = await follow_up_within_limits(state, agent, request, call=person, asks=person.asks)
        run_ = made.run
        if term.json:
            term.emit({"agent_id": agent.id, "run_id": run_.id, "status": run_.status, "resumed": made.resumed})
        else:
            term.out.print(Text("sent ", style="green").append_text(agent_text(f"{agent.id} {run_.id}")))
            term.out.print(Text(f"follow it: cursor-cloud-agents watch {agent.id} {run_.id}", style="dim"))
        return OK


def _queued(term: Term, act: Act) -> int:
    """Say where a queued follow-up stands: nothing sent yet, who sends it, how to drop it."""
    row = follow_up_queue.describe(act)
    if term.json:
        term.emit({"queued": True} | row | {"queued_at": iso(row["queued_at"]), "expires_at": iso(row["expires_at"])})
        return OK
    term.out.print(Text("queued ", style="yellow").append_text(agent_text(f"{act.agent_id} after {act.before_run_id}")))
    term.out.print(
        Text(
            "sent right after that run ends by whichever of our processes is alive (the MCP server, `wait`, "
            f"`events`, `status`; else the next one started); expires {iso(row['expires_at'])}",
            style="dim",
        )
    )
    return OK
