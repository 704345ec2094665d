"""`cursor_watch_pr`: start, read and stop a watch kept in the store; no GitHub token refuses to start."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import ToolFailure, load_watch
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.tools.prwatch import cursor_watch_pr
from tests.pr_stand_ins import AGENT, PR_URL, CursorStandIn, FakeClock

pytestmark = pytest.mark.anyio


def server_state(clock: FakeClock, cursor: CursorStandIn, **env: str) -> ServerState:
    settings = Settings.from_env({"CURSOR_API_KEY": "key_stand_in", "CURSOR_MCP_STATE_DIR": "memory"} | env)
    return ServerState(settings, Redactor(), Clock(now=clock.now, sleep=clock.sleep), client=cursor.client())


async def test_a_watch_started_by_pr_is_kept_in_the_store_read_and_stopped_without_sending_anything() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    state = server_state(clock, cursor, GH_TOKEN="ghp_x")
    started = await cursor_watch_pr(state, "your-org/your-repo#7", "start", 2)
    assert started.agent_id == AGENT and started.pr == "your-org/your-repo#7" and started.watching
    assert started.max_fixes == 2 and cursor.posts == []
    assert (await cursor_watch_pr(state, PR_URL, "read")).watching
    stopped = await cursor_watch_pr(state, AGENT, "stop")
    assert stopped.ended == "stopped" and await load_watch(state.store, AGENT, clock.now()) is None
    with pytest.raises(ToolFailure) as none:
        await cursor_watch_pr(state, AGENT, "read")
    assert none.value.code == "NOT_FOUND"


async def test_starting_without_a_github_token_names_it_and_starts_nothing() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    state = server_state(clock, cursor)
    with pytest.raises(ToolFailure) as missing:
        await cursor_watch_pr(state, AGENT, "start")
    assert "GH_TOKEN" in missing.value.message and cursor.requests == 0
    assert await load_watch(state.store, AGENT, clock.now()) is None
