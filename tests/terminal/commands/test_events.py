"""`events`' declaration: the agents followed, by name or id, reach `terminal/events.events`."""

from __future__ import annotations

from cursor_cloud_agents.terminal import events
from cursor_cloud_agents.terminal.commands import events as declared
from tests.terminal.commands.binding import AGENT, ENV, bound, parsed


def test_events_binds_the_agents_the_name_and_the_end() -> None:
    args = parsed("events", AGENT, "--name", "nightly", "--until", "all", "--notify")
    func, keywords = bound(declared._bind(args, ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is events.events
    assert keywords == {"agent_ids": [AGENT], "name": "nightly", "until": "all", "notify": True}
