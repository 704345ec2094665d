"""`checkout`'s declaration: where the branch goes, the check, and git's environment without the key."""

from __future__ import annotations

from cursor_cloud_agents.terminal import checkout
from cursor_cloud_agents.terminal.commands import checkout as declared
from tests.terminal.commands.binding import AGENT, bound, parsed


def test_checkout_binds_where_and_the_check_and_hands_git_no_key() -> None:
    env = {"PATH": "/usr/bin:/bin", "CURSOR_API_KEY": "key_never_for_git"}
    args = parsed("checkout", AGENT, "--branch", "--remote", "upstream", "--check", "make test", "--anyway")
    func, keywords = bound(declared._bind(args, env))  # pyright: ignore[reportPrivateUsage]
    assert func is checkout.checkout
    assert keywords["where"] == checkout.Where(None, True, "upstream")
    assert (keywords["agent_id"], keywords["check"], keywords["anyway"]) == (AGENT, "make test", True)
    assert "CURSOR_API_KEY" not in keywords["env"]
