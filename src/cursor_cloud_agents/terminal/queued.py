"""The follow-up queue at the terminal: `followup AGENT --drop`, and the last pass of `wait` and `events --until`.

A follow-up queued for a busy agent (`followup --queue`) is sent by whichever of our processes sees its run end
(`core.queue`). `wait` and `events` keep the queue while they run; the run they wait for is the run the
follow-up waits for, so they end the moment it ends, and the keeper beside them could be cancelled before it
looked: each ends with one more pass (`last_pass`), which sends what that end made due, as the README says.
"""

from __future__ import annotations

from rich.text import Text

from cursor_cloud_agents.api import CursorError
from cursor_cloud_agents.core import CoreState, ToolFailure, queue
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, UsageError
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.term import Term


async def last_pass(term: Term, state: CoreState) -> list[queue.QueueNews]:
    """One pass over the queue, each follow-up that moved said on stderr; a failure is said, never raised (the
    wait itself went well)."""
    try:
        news = await queue.send_due_after_an_end(state)
    except (ToolFailure, CursorError) as failed:
        term.notice(f"the follow-up queue could not be kept: {failed}", style="yellow")
        return []
    for item in news:
        sent = f" (run {item.run.id})" if item.run is not None else ""
        term.notice(f"queued follow-up of {item.act.agent_id}: {item.outcome}{sent}; {item.note}", style="cyan")
    return news


async def drop_followup(term: Term, *, agent_id: str, prompt: str | None = None) -> int:
    """`followup AGENT --drop`: take the follow-up queued for AGENT out of the queue; nothing is sent."""
    if prompt is not None:
        raise UsageError("--drop takes no prompt: it drops the follow-up queued for the agent; nothing was changed")
    async with term.open_session() as session:
        state = command_state(term, session)
        waiting = [act for act in await queue.listed(state) if act.agent_id == agent_id]
        if not waiting:
            raise UsageError(
                f"no follow-up is queued for {agent_id} (sent, dropped or expired already); nothing changed"
            )
        dropped = await queue.drop(state, waiting[0].id)
    row = queue.describe(dropped)
    if term.json:
        term.emit({"dropped": True, "queue_id": row["queue_id"], "agent_id": agent_id})
    else:
        term.out.print(Text("dropped ", style="yellow").append_text(agent_text(f"the follow-up queued for {agent_id}")))
        term.out.print(Text("nothing was sent", style="dim"))
    return OK
