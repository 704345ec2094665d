"""Every MCP tool that takes an agent id also takes the agent's PR URL, resolved through the API's prUrl filter
once the gates let the call run (G-10)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.simulator import ManualClock, World
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio


def world_with_a_pr() -> tuple[World, str, str]:
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600, auto_create_pr=True)
    return world, agent.id, f"https://github.com/your-org/your-repo/pull/{agent.pr_number}"


async def test_a_tool_given_the_agents_pr_answers_for_that_agent_g_10() -> None:
    world, agent_id, pr = world_with_a_pr()
    async with open_harness(world) as harness:
        reply = await harness.call("cursor_get_agent", {"agent_id": pr})
        listed = [record for record in harness.requests("GET") if record.path == "/v1/agents"]
    assert not reply.is_error and reply.data["id"] == agent_id
    assert len(listed) == 1 and "prUrl=" in listed[0].query


async def test_a_pr_no_agent_is_on_is_not_found_and_a_refused_call_sends_nothing_g_10() -> None:
    world, _, pr = world_with_a_pr()
    async with open_harness(world) as harness:
        missing = await harness.call("cursor_get_agent", {"agent_id": "your-org/your-repo#1"})
    assert missing.code == "NOT_FOUND"
    async with open_harness(world, allow_writes=False) as harness:
        refused = await harness.call("cursor_create_run", {"agent_id": pr, "prompt": "also add tests"})
        sent = harness.requests()
    assert refused.code == "READ_ONLY" and sent == []
