"""Waits above their maximum are clamped to it, not refused (issue 10), and the answer says so.

Codex strips maxima from the schema its model sees and Claude Code checks no schema: a refused wait
costs the user a round trip for nothing, while waiting less than asked is harmless.
"""

from __future__ import annotations

import pytest

from cursor_cloud_agents.server.pipeline.params import MAX_WAIT_SECONDS
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


def running_world() -> tuple[World, str, str]:
    world = World(ManualClock())
    agent = world.add_agent("Add a README", script=RunScript(running_seconds=3600))
    return world, agent.id, agent.runs[-1].id


async def test_a_run_wait_above_its_maximum_waits_the_maximum_and_says_so(harness_factory: OpenHarness) -> None:
    """Measured with Claude Code 2.1.328: `wait_seconds: 60` reached the server and got VALIDATION."""
    world, agent_id, run_id = running_world()
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 60})
    assert not reply.is_error and reply.data["timed_out"] is True
    assert reply.data["clamped"] == {"wait_seconds": MAX_WAIT_SECONDS}
    assert world.clock.now() - started == MAX_WAIT_SECONDS


async def test_an_events_wait_above_its_maximum_is_clamped_too(harness_factory: OpenHarness) -> None:
    """Every wait parameter is clamped the same way (one marker on the parameter type)."""
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600)
    agent_id, run_id = agent.id, agent.runs[-1].id
    async with harness_factory(world) as h:
        reply = await h.call(
            "cursor_read_run_events", {"agent_id": agent_id, "run_id": run_id, "tail": 1, "max_wait_seconds": 600}
        )
    assert not reply.is_error and reply.data["clamped"] == {"max_wait_seconds": MAX_WAIT_SECONDS}


@pytest.mark.parametrize("wait", [-1, True, "60", 60.5])
async def test_a_wait_that_is_no_whole_number_within_bounds_is_still_refused(
    harness_factory: OpenHarness, wait: object
) -> None:
    """Clamping only brings a too large integer down: negative, boolean, string and fractional waits stay
    VALIDATION, and nothing is sent."""
    world, agent_id, run_id = running_world()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": wait})
        sent = h.requests()
    assert reply.code == "VALIDATION" and sent == []


async def test_a_wait_within_its_maximum_is_not_marked(harness_factory: OpenHarness) -> None:
    """No `clamped` field when nothing was changed."""
    world, agent_id, run_id = running_world()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 5})
    assert "clamped" not in reply.data
