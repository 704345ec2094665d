"""The server's run ceiling (`CURSOR_MCP_MAX_RUN_MINUTES`): a run of an agent this machine created, older than
the ceiling, is cancelled; a younger one, or an agent of someone else, is left alone (G-19)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import CoreState, sweep_ceilings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from tests.pr_stand_ins import AGENT, CursorStandIn, FakeClock

pytestmark = pytest.mark.anyio

RUN = "run-4343aaaa-0000-4000-8000-0000000000aa"


async def a_state(clock: FakeClock, cursor: CursorStandIn, *, created_here: bool) -> CoreState:
    settings = Settings.from_env({"CURSOR_API_KEY": "key_stand_in", "CURSOR_MCP_STATE_DIR": "memory"})
    state = CoreState(settings, Redactor(), Clock(now=clock.now, sleep=clock.sleep), client=cursor.client())
    if created_here:
        await state.store.write(Act("c1", "create", clock.now(), "done", counted=True, agent_id=AGENT), now=clock.now())
    return state


async def test_a_run_past_the_server_ceiling_is_cancelled_and_a_younger_one_is_not_g_19() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    cursor.runs[RUN] = (clock.now() - 2 * 3600, "RUNNING")
    cursor.order.append(RUN)
    state = await a_state(clock, cursor, created_here=True)
    assert await sweep_ceilings(state, 3 * 3600) == [] and cursor.cancels == []
    assert await sweep_ceilings(state, 3600) == [RUN] and cursor.cancels == [RUN]


async def test_the_ceiling_leaves_agents_this_machine_did_not_create_alone_g_19() -> None:
    clock = FakeClock()
    cursor = CursorStandIn(clock)
    cursor.runs[RUN] = (clock.now() - 2 * 3600, "RUNNING")
    cursor.order.append(RUN)
    state = await a_state(clock, cursor, created_here=False)
    assert await sweep_ceilings(state, 60) == [] and cursor.cancels == []
