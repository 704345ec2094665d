"""`wait`'s declaration: runs, agents and groups as targets, `--any` by default, reaching `terminal/wait.wait`."""

from __future__ import annotations

from cursor_cloud_agents.terminal import wait
from cursor_cloud_agents.terminal.commands import wait as declared
from tests.terminal.commands.binding import AGENT, ENV, GROUP, RUN, bound, parsed


def test_wait_binds_each_target_and_waits_for_any_by_default() -> None:
    func, keywords = bound(declared._bind(parsed("wait", f"{AGENT}:{RUN}", GROUP), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is wait.wait
    assert keywords == {
        "targets": [wait.Target(AGENT, RUN), wait.Target(GROUP, None)],
        "active": False,
        "until": "any",
        "timeout": None,
        "notify": False,
    }


def test_wait_all_with_a_timeout_and_notifications() -> None:
    args = parsed("wait", "--active", "--all", "--timeout", "60", "--notify")
    _, keywords = bound(declared._bind(args, ENV))  # pyright: ignore[reportPrivateUsage]
    assert keywords == {"targets": [], "active": True, "until": "all", "timeout": 60.0, "notify": True}
