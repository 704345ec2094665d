"""`run` and `followup`: the commands that spend, through the server's own paid path and limits.

Nothing here is a second implementation. The request is checked by the server's creation checks
(`server.domain.creation`) and model check (`server.domain.models`), its images by
`server.domain.images`, the agent id minted by `api.ids`, and the creation sent by
`server.domain.paid.create_within_limits`, with the same creation journal, ledger and limits the
server keeps (in simulated mode the journal and ledger stay in memory, as the server's do). A
follow-up goes through the server's own continuation check and spend limit.

`CURSOR_MCP_ALLOW_WRITES` is the model's gate; here the person confirms instead. The order keeps every
refusal free: local checks, then (no `--yes` and no terminal to ask on) a refusal before any request,
then the reads the checks need and the creation count (`CURSOR_MCP_MAX_NEW_AGENTS`), then what will be
paid for and the question, then the spend and the agents running (before a new agent only), then the one
paid request.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rich.text import Text

from cursor_cloud_agents.api import (
    AgentSummary,
    CreateAgentRequest,
    CreatedAgent,
    CreateRunRequest,
    CursorClient,
    ModelSelection,
    Prompt,
    PromptImage,
    RepoSpec,
    Run,
    ids,
)
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.server.cache import Cache
from cursor_cloud_agents.server.deadline import Clock
from cursor_cloud_agents.server.domain import creation
from cursor_cloud_agents.server.domain import models as model_check
from cursor_cloud_agents.server.domain.limits import Limits
from cursor_cloud_agents.server.domain.paid import create_within_limits, refuse_when_full
from cursor_cloud_agents.server.journal import CreationJournal
from cursor_cloud_agents.server.ledger import CreationLedger
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.progress import wait_for_end
from cursor_cloud_agents.terminal.term import Session, Term
from cursor_cloud_agents.terminal.watch import follow_run

Then = Literal["wait", "watch"] | None
FIRST_LINE_CHARS = 100


@dataclass(frozen=True)
class Order:
    """What the person asked `run` for, as typed."""

    prompt: str
    repo: str | None
    ref: str | None
    model: str | None
    images: tuple[str, ...]
    confirmed: bool


def prompt_images(paths: tuple[str, ...]) -> list[PromptImage] | None:
    """The images to attach, checked and encoded by the server's image checks (VALIDATION names the file).

    The person typed these paths: any file they can read may go, unlike a model's, which the server keeps
    under the client's roots."""
    if not paths:
        return None
    # Imported here: the image checks live beside the server's tool plumbing, which loads the MCP SDK.
    from cursor_cloud_agents.server.domain.images import MAX_IMAGES, prompt_image

    if len(paths) > MAX_IMAGES:
        raise UsageError(f"at most {MAX_IMAGES} images (--image given {len(paths)} times); nothing was sent")
    return [prompt_image(path, [Path("/")], where=f"--image {path}") for path in paths]


def first_line(prompt: str) -> str:
    """The prompt's first line, clipped: what the confirmation shows of it."""
    line = prompt.strip().splitlines()[0] if prompt.strip() else ""
    return line if len(line) <= FIRST_LINE_CHARS else line[: FIRST_LINE_CHARS - 1] + "…"


def state_dir(settings: Settings) -> Path | None:
    """Where the journal and the ledger live; None (memory) in simulated mode, as the server keeps them."""
    return None if settings.simulated else settings.state_dir


def _refuse_unconfirmed(term: Term, confirmed: bool, what: str) -> None:
    if not confirmed and not term.interactive:
        raise UsageError(
            f"{what} is paid and there is no terminal to confirm on: pass --yes to confirm it. Nothing was sent."
        )


def _confirm(term: Term, confirmed: bool, lines: list[tuple[str, Text]], question: str) -> None:
    """Show what will be paid for; ask y/N unless `--yes` was given."""
    for label, value in lines:
        term.err.print(Text(f"{label:>10}  ", style="bold").append_text(value))
    if confirmed:
        return
    answer = term.ask(f"{question} [y/N] ").strip().lower()
    if answer not in ("y", "yes"):
        raise UsageError("not confirmed; nothing was sent")


def _repos_line(repos: list[RepoSpec]) -> Text:
    if not repos:
        return Text("none (an agent without a repository)", style="dim")
    return agent_text(
        ", ".join(f"{repo.url}" + (f" @ {repo.starting_ref}" if repo.starting_ref else "") for repo in repos)
    )


def _request(order: Order, model: ModelSelection | None) -> CreateAgentRequest:
    repos = creation.repos(order.repo, order.ref, None)
    return CreateAgentRequest(
        prompt=Prompt(text=order.prompt, images=prompt_images(order.images)), agent_id=ids.mint_agent_id(),
        model=model, repos=repos or None, work_on_current_branch=False,
    )  # fmt: skip


def _check_order(order: Order) -> None:
    """The checks that need no request (repository, ref, prompt, images), before anything is asked."""
    if not order.prompt.strip():
        raise UsageError("the prompt is empty: say what the agent should do")
    _request(order, None)


async def _model(api: CursorClient, clock: Clock, model: str | None) -> ModelSelection | None:
    return await model_check.selection(api, Cache(clock, 1, 600.0), model, None, None)


def _started(term: Term, agent: AgentSummary, run_id: str | None) -> None:
    if term.json:
        term.emit({"agent_id": agent.id, "run_id": run_id, "url": agent.url, "name": agent.name})
        return
    term.out.print(Text("started ", style="green").append_text(agent_text(f"{agent.id} {run_id or ''}")))
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
    _check_order(order)
    _refuse_unconfirmed(term, order.confirmed, "Starting an agent")
    folder = state_dir(term.settings)
    journal, ledger = CreationJournal(folder), CreationLedger(folder, term.settings.max_new_agents)
    async with term.open_session() as session:
        clock = Clock(now=session.now, sleep=session.sleep)
        request = _request(order, await _model(session.api, clock, order.model))
        refuse_when_full(ledger, clock.now())  # said before the person is asked
        used, _ = ledger.use(clock.now())
        _confirm(term, order.confirmed, [
            ("prompt", agent_text(first_line(order.prompt))),
            ("repos", _repos_line(request.repos or [])),
            ("model", agent_text(order.model or "the account's default model")),
            ("images", Text(str(len(request.prompt.images or [])))),
            ("limit", Text(f"new agent {used + 1} of {ledger.limit} in 24 hours (CURSOR_MCP_MAX_NEW_AGENTS)")),
        ], "Start this paid agent?")  # fmt: skip
        limits = Limits(term.settings, ledger, clock)
        created = await create_within_limits(session.api, journal, ledger, clock, limits, request)
        agent = created.agent if isinstance(created, CreatedAgent) else created  # an earlier identical creation
        run_id = created.run.id if isinstance(created, CreatedAgent) else agent.latest_run_id
        _started(term, agent, run_id)
        return await _then(term, session, agent.id, run_id, then)


async def followup(term: Term, *, agent_id: str, prompt: str, confirmed: bool) -> int:
    """Send a follow-up prompt (a paid run of the same agent) after confirmation."""
    if not prompt.strip():
        raise UsageError("the prompt is empty: say what the agent should do next")
    _refuse_unconfirmed(term, confirmed, "A follow-up run")
    # Imported here: the continuation check lives with the follow-up tool, which loads the MCP SDK.
    from cursor_cloud_agents.server.tools.followup import continuation_problem

    async with term.open_session() as session:
        agent = await session.api.get_agent(agent_id)
        problem = continuation_problem(agent)
        if problem is not None:
            raise UsageError(f"no follow-up was sent: {problem}")
        _confirm(term, confirmed, [
            ("agent", agent_text(f"{agent.name or ''} {agent.id}")),
            ("prompt", agent_text(first_line(prompt))),
        ], "Send this paid follow-up?")  # fmt: skip
        clock = Clock(now=session.now, sleep=session.sleep)
        ledger = CreationLedger(state_dir(term.settings), term.settings.max_new_agents)
        await Limits(term.settings, ledger, clock).before_spending(session.api)  # the spend limit holds here too
        run_ = await session.api.create_run(
            agent.id, CreateRunRequest(prompt=Prompt(text=prompt)), previous_run_id=agent.latest_run_id
        )
        if term.json:
            term.emit({"agent_id": agent.id, "run_id": run_.id, "status": run_.status})
        else:
            term.out.print(Text("sent ", style="green").append_text(agent_text(f"{agent.id} {run_.id}")))
            term.out.print(Text(f"follow it: cursor-cloud-agents watch {agent.id} {run_.id}", style="dim"))
        return OK
