"""`events [AGENT ...] [--name TEXT]`: one JSON line per change across the agents followed, as it happens.

Made for a reader that wakes on lines: Claude Code's Monitor tool, or any agent's background shell. Each
line is one event of `core.events` (a run started or ended, became stuck, opened a PR; a queued follow-up
sent), stamped with its time, written and flushed at once. Without ids or `--name`, the key's active fleet
is followed. `--until any|all` ends the command (exit 0) once a run (every run followed) ended; otherwise it
runs until interrupted. A dropped connection is said on stderr and followed again; the queue of follow-ups
is kept while it runs. `--notify` adds a desktop notification per ended run, and per PR watch escalated, merged
or closed (docs/pr-loop.md).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.core import Event, Followed, follow_events, stamped
from cursor_cloud_agents.core.timing import CallTime, Clock
from cursor_cloud_agents.terminal.exits import OK, UsageError
from cursor_cloud_agents.terminal.notify import Notifier
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.term import Term


async def events(
    term: Term,
    *,
    agent_ids: Sequence[str],
    name: str | None,
    until: str | None,
    notify: bool,
    notifier: Notifier | None = None,
) -> int:
    """Follow the agents and print each change as one JSON line; 0 once `until` is met."""
    if agent_ids and name is not None:
        raise UsageError("name agents or give --name, not both")
    notifier = notifier or Notifier()
    async with term.open_session() as session:
        state = command_state(term, session)
        time = CallTime(Deadline(math.inf), Clock(now=session.now, sleep=session.sleep))

        async def emit(event: Event) -> None:
            term.emit(stamped(event, session.now()))
            term.out.file.flush()  # a line reader wakes on each line: never leave one in a buffer
            if notify and event["event"] == "ended":
                await notifier.ended(str(event["run_id"]), f"{event.get('message', 'ended')} · {event['agent_id']}")
            if notify and event["event"] in ("escalated", "merged", "closed") and "pr" in event:
                key = f"{event['event']}-{event['agent_id']}-{event.get('seq')}"
                await notifier.ended(key, f"{event['pr']} {event['event']} · {event['agent_id']}")

        term.come_back = "The runs go on. Follow them again with the same command."
        await follow_events(state, Followed(tuple(agent_ids), name), emit, time, until=until, say=term.notice)
    term.come_back = None
    return OK
