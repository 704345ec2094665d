"""`wait AGENT[:RUN] ... | --active`: block until any (or all) of the runs end, then a short report per run.

The bridge for the clients the server cannot wake (`claude -p`, Codex, OpenCode): each can run a shell command
in the background and is told when it exits. The waiting is cursor_wait's own (`core.watch.watch`): each run
heard ending on its stream (`core.ends`), and every run not yet settled re-read every WAIT_POLL_SECONDS,
IN_FLIGHT at a time, at most MAX_RUNS runs, so a wait here costs what the tool costs. While it waits nothing is
printed unless stdout is a terminal (then one progress line, redrawn in place); at the end the report goes to
stdout (`report.py`) and the exit code says how it went (`outcome`).
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass

import anyio
from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from cursor_cloud_agents.api import CursorClient, Deadline
from cursor_cloud_agents.core import MAX_RUNS, Until, Watched, end_line, queue, watch
from cursor_cloud_agents.core.timing import CallTime, Clock
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.exits import OK, REFUSED, TIMED_OUT, UsageError
from cursor_cloud_agents.terminal.grouptargets import expanded, is_group
from cursor_cloud_agents.terminal.notify import Notifier
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.queued import last_pass
from cursor_cloud_agents.terminal.report import report_document, report_lines
from cursor_cloud_agents.terminal.status import shown_ended
from cursor_cloud_agents.terminal.term import Session, Term

ACTIVE_PAGE = 100
"""The newest agents read for `--active`: running agents are recent, so one page tells (as the slot check)."""


@dataclass(frozen=True)
class Target:
    """A run named on the command line: `AGENT` (its latest run) or `AGENT:RUN`."""

    agent_id: str
    run_id: str | None = None

    def __str__(self) -> str:
        return self.agent_id if self.run_id is None else f"{self.agent_id}:{self.run_id}"


async def active_targets(api: CursorClient) -> list[Target]:
    """The latest run of every running agent of the key."""
    agents = (await api.list_agents(limit=ACTIVE_PAGE, include_archived=False)).items
    return [Target(agent.id, agent.latest_run_id) for agent in agents if agent.status == "ACTIVE"]


def outcome(rows: Sequence[Watched], met: bool) -> int:
    """124 when the timeout came first; else 0 when every run that ended finished, 1 when one ended otherwise
    (error, cancelled, expired) or could not be read."""
    if not met:
        return TIMED_OUT
    failed = any(row.ended and row.run is not None and row.run.status != "FINISHED" for row in rows)
    unreadable = any(row.failure is not None and row.run is None for row in rows)
    return REFUSED if failed or unreadable else OK


def _checked(targets: Sequence[Target], active: bool) -> None:
    if active and targets:
        raise UsageError("name runs or give --active, not both")
    if not active and not targets:
        raise UsageError("name at least one AGENT[:RUN], or give --active for every running agent")
    if len(targets) > MAX_RUNS:
        raise UsageError(f"at most {MAX_RUNS} runs at once ({len(targets)} given), as cursor_wait; nothing was read")


def _progress_line(rows: Sequence[Watched], until: Until, waited: float) -> Text:
    ended = sum(row.ended for row in rows)
    line = Text(f"waiting for {until} of {len(rows)} runs: {ended} ended", style="bold")
    return line.append(f" · {render.duration(waited)} · Ctrl-C stops waiting, not the runs", style="dim")


async def _watch(term: Term, session: Session, rows: list[Watched], until: Until, timeout: float | None) -> bool:
    """cursor_wait's loop on the session's clock, without a call deadline (the timeout is the only bound)."""
    time = CallTime(Deadline(math.inf), Clock(now=session.now, sleep=session.sleep))
    started = session.now()
    spinner = Spinner("dots", _progress_line(rows, until, 0.0))

    async def progress(_message: str) -> None:
        spinner.update(text=_progress_line(rows, until, session.now() - started))

    drawn = term.out.is_terminal and not term.json  # under a pipe the reader hears only the report
    with Live(spinner, console=term.out, transient=True) if drawn else nullcontext():
        return await watch(session.api, rows, until, time, timeout or math.inf, progress)


async def _keeping_the_queue(term: Term, session: Session, waiting: Awaitable[bool]) -> bool:
    """`waiting`'s answer, the follow-up queue kept beside it (a follow-up queued for one of these runs goes out
    right after it ends, by this process if no other of ours is alive)."""
    state = command_state(term, session)
    time = CallTime(Deadline(math.inf), Clock(now=session.now, sleep=session.sleep))
    met = False
    async with anyio.create_task_group() as group:
        group.start_soon(queue.keep_going, state, time)
        met = await waiting
        group.cancel_scope.cancel()
    await last_pass(term, state)  # what the end just waited for made due, sent before the command ends
    return met


def _say_none_running(term: Term, until: Until) -> None:
    if term.json:
        term.emit({"until": until, "met": True, "timed_out": False, "waited_seconds": 0, "runs": []})
    else:
        term.out.print("No agent is running.")


async def wait(
    term: Term,
    *,
    targets: Sequence[Target],
    active: bool,
    until: Until,
    timeout: float | None,
    notify: bool = False,
    notifier: Notifier | None = None,
) -> int:
    """Wait until any (or all) of the runs end or `timeout` seconds pass; report each run; the exit code.
    While it waits, the follow-up queue is kept (`core.queue`); `notify`: one notification per ended run."""
    _checked(targets, active)
    async with term.open_session() as session:
        if any(is_group(target.agent_id) for target in targets):  # `wait grp-…`: the group's attempts
            pairs = await expanded(command_state(term, session), [(t.agent_id, t.run_id) for t in targets])
            targets = [Target(agent_id, run_id) for agent_id, run_id in pairs]
        targets = list(targets) or await active_targets(session.api)
        if len(targets) > MAX_RUNS:
            raise UsageError(f"{len(targets)} agents are running; name at most {MAX_RUNS} of them to wait on")
        if not targets:
            _say_none_running(term, until)
            return OK
        named = " ".join(map(str, targets))
        term.come_back = f"The runs go on. Wait again with: cursor-cloud-agents wait {named}"
        rows = [Watched(target.agent_id, target.run_id) for target in targets]
        started = session.now()
        met = await _keeping_the_queue(term, session, _watch(term, session, rows, until, timeout))
        now = session.now()
    term.come_back = None
    # The report first, flushed: a background reader is told the moment it is written, not at the exit.
    if term.json:
        term.emit(report_document(rows, until, met=met, waited=now - started, now=now))
    else:
        for line in report_lines(rows, met=met, waited=now - started, now=now):
            term.out.print(line, soft_wrap=True)  # whole lines: a command in it stays one line
    term.out.file.flush()
    if notify:
        notifier = notifier or Notifier()
        for row in rows:
            if row.ended and row.run is not None and row.run_id is not None:
                await notifier.ended(row.run_id, f"{end_line(row.run)} · {row.agent_id}")
    await shown_ended(term, [row.run_id for row in rows if row.ended and row.run_id is not None], now)
    return outcome(rows, met)
