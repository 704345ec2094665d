"""`agents`' declaration: its options reach `terminal/agents.agents` under the coroutine's names."""

from __future__ import annotations

from cursor_cloud_agents.terminal import agents
from cursor_cloud_agents.terminal.commands import agents as declared
from tests.terminal.commands.binding import ENV, bound, parsed


def test_agents_binds_limit_name_and_all_as_archived() -> None:
    args = parsed("agents", "--limit", "5", "--name", "login", "--all")
    func, keywords = bound(declared._bind(args, ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is agents.agents
    assert keywords == {"limit": 5, "name": "login", "archived": True}


def test_agents_lists_twenty_by_default_and_no_archived() -> None:
    _, keywords = bound(declared._bind(parsed("agents"), ENV))  # pyright: ignore[reportPrivateUsage]
    assert keywords == {"limit": 20, "name": None, "archived": False}
