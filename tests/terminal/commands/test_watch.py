"""`watch`'s declaration: the agent and the optional run reach `terminal/watch.watch`."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.terminal import watch
from cursor_cloud_agents.terminal.commands import watch as declared
from tests.terminal.commands.binding import AGENT, ENV, RUN, bound, parsed


def test_watch_binds_the_agent_and_its_run() -> None:
    func, keywords = bound(declared._bind(parsed("watch", AGENT, RUN), ENV))  # pyright: ignore[reportPrivateUsage]
    assert func is watch.watch and keywords == {"agent_id": AGENT, "run_id": RUN}


def test_watch_refuses_a_run_that_is_not_a_run_id(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        parsed("watch", AGENT, "bc-not-a-run")
    assert exited.value.code == 2 and "is not a run id" in capsys.readouterr().err
