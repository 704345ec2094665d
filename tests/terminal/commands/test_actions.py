"""`cancel`, `archive`, `usage` and `artifacts`' declarations: each binds its action of `terminal/actions.py`."""

from __future__ import annotations

from cursor_cloud_agents.terminal import actions
from cursor_cloud_agents.terminal.commands import actions as declared
from tests.terminal.commands.binding import AGENT, ENV, RUN, bound, parsed


def test_each_action_binds_its_coroutine_and_arguments() -> None:
    binds = {
        ("cancel", AGENT, RUN): (declared._cancel, actions.cancel, {"agent_id": AGENT, "run_id": RUN}),  # pyright: ignore[reportPrivateUsage]
        ("archive", AGENT): (declared._archive, actions.archive, {"agent_id": AGENT}),  # pyright: ignore[reportPrivateUsage]
        ("usage", AGENT): (declared._usage, actions.usage, {"agent_id": AGENT}),  # pyright: ignore[reportPrivateUsage]
        ("artifacts", AGENT, "--get", "artifacts/a.md", "-o", "a.md"): (
            declared._artifacts,  # pyright: ignore[reportPrivateUsage]
            actions.artifacts,
            {"agent_id": AGENT, "path": "artifacts/a.md", "output": "a.md"},
        ),
    }
    for argv, (bind, coroutine, expected) in binds.items():
        func, keywords = bound(bind(parsed(*argv), ENV))
        assert (func, keywords) == (coroutine, expected), argv
