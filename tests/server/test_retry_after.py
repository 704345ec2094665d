"""What a refusal said about when to come back reaches the model (issue 23)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


async def test_a_5xx_retry_after_past_the_deadline_is_handed_to_the_model(harness_factory: OpenHarness) -> None:
    """F-21 (issue 23): a 503 saying `Retry-After: 600` is not slept past the call's deadline; the failure carries
    `retry_after_seconds` as a 429's does (before: none, so the model retried at once)."""
    world = World(ManualClock())
    agent = world.add_agent("Fix it", created_ago=60)
    faults = Faults()
    faults.inject("GET", "/v1/agents/{id}", Fault.error(503, "unavailable", headers={"retry-after": "600"}))
    async with harness_factory(world, faults=faults) as h:
        reply = await h.call("cursor_get_agent", {"agent_id": agent.id})
        asked = [record for record in h.requests("GET") if record.path == f"/v1/agents/{agent.id}"]
    assert reply.code == "UPSTREAM" and reply.data["retry_after_seconds"] == 600
    assert len(asked) == 1
