"""`watch AGENT [RUN]`: follow a run live, from its replay to its result, branches and PR.

The events come from `follow.Follower` (resumes after a cut, never hands an event twice) and are
shown by `runview.RunView`; on a terminal the status line stays drawn below the text. With `--json`
each event is one JSON line, then the run's last read. Ctrl-C stops watching, never the run: the
dispatcher prints how to come back (`Term.come_back`).
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from rich.live import Live

from cursor_cloud_agents.api import CursorClient, Run, StreamEvent
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.terminal.exits import OK, REFUSED, UsageError
from cursor_cloud_agents.terminal.follow import Follower
from cursor_cloud_agents.terminal.runview import RunPrinter, end_block, event_document
from cursor_cloud_agents.terminal.term import Session, Term


async def latest_run(api: CursorClient, agent_id: str) -> str:
    """The agent's latest run id; a usage error when it has none yet."""
    run_id = (await api.get_agent(agent_id)).latest_run_id
    if run_id is None:
        raise UsageError(f"agent {agent_id} has no run yet: nothing to watch")
    return run_id


def run_document(run: Run) -> dict[str, Any]:
    """The run's last read, as the closing JSON line."""
    return {"type": "end", "run": run.model_dump(mode="json", exclude_none=True)}


async def follow_run(term: Term, session: Session, agent_id: str, run_id: str) -> int:
    """Show one run until its end; 0 when it finished, 1 when it ended otherwise or could not be followed."""
    term.come_back = f"The run goes on. Follow it again with: cursor-cloud-agents watch {agent_id} {run_id}"
    first = await session.api.get_run(agent_id, run_id)
    view = RunPrinter(term.out, created_at=epoch(first.created_at), now=session.now)
    follower = Follower(session, agent_id, run_id)

    def on_event(event: StreamEvent) -> None:
        if term.json:
            document = event_document(event)
            if document is not None:
                term.emit(document)
        else:
            view.take(event)

    def on_resume(reason: str, after: str | None) -> None:
        where = "from the start" if after is None else f"after event {after}"
        if term.json:
            term.emit({"type": "resumed", "reason": reason, "after_event_id": after})
        else:
            view.flush()
            term.notice(f"{reason}: resuming {where}", style="yellow")

    drawn = term.out.is_terminal and not term.json  # JSON lines go to stdout: nothing is drawn between them
    with Live(view, console=term.out, transient=True, refresh_per_second=4) if drawn else nullcontext():
        followed = await follower.follow(on_event, on_resume)
        view.flush()
    last = await session.api.get_run(agent_id, run_id)
    if term.json:
        term.emit(run_document(last))
    else:
        if not followed:
            term.notice("the stream could not be resumed; the run's last read follows", style="yellow")
        end_block(term.out, last, view.result)
    term.come_back = None
    return OK if last.status == "FINISHED" else REFUSED


async def watch(term: Term, *, agent_id: str, run_id: str | None) -> int:
    """Follow a run (the agent's latest when `run_id` is None) until it ends."""
    async with term.open_session() as session:
        run_id = run_id or await latest_run(session.api, agent_id)
        return await follow_run(term, session, agent_id, run_id)
