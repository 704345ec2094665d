"""Bounds under load (issue 13, F-28): however many tool calls are in flight, Cursor sees at most 8 requests
at once (one per pooled connection); the others wait for a connection, inside their own deadline."""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.simulator import Faults, ManualClock, World
from tests.tool_harness import OpenHarness, Reply

pytestmark = pytest.mark.anyio

CALLS = 50


async def test_fifty_concurrent_calls_put_at_most_eight_requests_in_flight(harness_factory: OpenHarness) -> None:
    """Measured before: 50 concurrent tool calls made 16 concurrent upstream requests."""
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600)
    faults = Faults(latency=0.02)  # each request holds its connection a moment, so calls overlap
    replies: list[Reply] = []
    async with harness_factory(world, faults=faults) as h:

        async def one() -> None:
            replies.append(await h.call("cursor_get_agent", {"agent_id": agent.id}))

        async with anyio.create_task_group() as group:
            for _ in range(CALLS):
                group.start_soon(one)
        seen = h.sim.max_in_flight
    assert len(replies) == CALLS and not any(reply.is_error for reply in replies)
    assert 1 < seen <= 8
