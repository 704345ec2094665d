"""`run --wait`: a progress line (status, elapsed time) until the run ends, then its result.

The run is re-read at the server's cadence for waits (`server.deadline.WAIT_POLL_SECONDS`), on the
session's clock. On a terminal the line is redrawn in place; elsewhere each change of status is
one line. With `--json` nothing is drawn and the run's last read is the one document.
"""

from __future__ import annotations

from contextlib import nullcontext

from rich.live import Live
from rich.spinner import Spinner
from rich.text import Text

from cursor_cloud_agents.api import Run
from cursor_cloud_agents.core.timing import WAIT_POLL_SECONDS
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.runview import end_block
from cursor_cloud_agents.terminal.term import Session, Term


def progress_line(run: Run, now: float) -> Text:
    """`RUNNING · 2m` for the run as last read."""
    line = render.status(run.status)
    return line.append(f" · {render.duration(render.since(run.created_at, now))}", style="dim")


async def wait_for_end(term: Term, session: Session, agent_id: str, run_id: str) -> Run:
    """Re-read the run until it ends, showing its progress; the last read."""
    term.come_back = f"The run goes on. Follow it with: cursor-cloud-agents watch {agent_id} {run_id}"
    run = await session.api.get_run(agent_id, run_id)
    spinner = Spinner("dots", progress_line(run, session.now()))
    drawn = term.out.is_terminal and not term.json
    shown: str | None = None
    with Live(spinner, console=term.out, transient=True) if drawn else nullcontext():
        while True:
            spinner.update(text=progress_line(run, session.now()))
            if not drawn and not term.json and run.status != shown:
                shown = run.status
                term.out.print(progress_line(run, session.now()))
            if run.is_terminal:
                break
            await session.sleep(WAIT_POLL_SECONDS)
            run = await session.api.get_run(agent_id, run_id)
    term.come_back = None
    if term.json:
        term.emit({"agent_id": agent_id, "run": run.model_dump(mode="json", exclude_none=True)})
    else:
        end_block(term.out, run, None)
    return run
