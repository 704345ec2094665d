"""`cursor_create_run` with `queue: true` (issue 32): a busy agent's follow-up answered `queued`, sent by the
server right after the run ends, listed and droppable in cursor_supervise.

Against the simulator on its manual clock: the server's queue keeper pauses by moving that clock, so the busy
run ends while the test waits for the follow-up's POST.
"""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.simulator.records import AgentRecord as Agent
from tests.tool_harness import Harness, open_harness

pytestmark = pytest.mark.anyio


def busy() -> tuple[World, Agent]:
    world = World(ManualClock())
    return world, world.add_agent("Busy", script=RunScript(running_seconds=60, result="Done."))


def posts(h: Harness, agent: Agent) -> list[float]:
    return [record.at for record in h.requests("POST") if record.path == f"/v1/agents/{agent.id}/runs"]


async def test_a_follow_up_queued_on_a_busy_agent_is_sent_once_right_after_its_run_ends() -> None:
    """Issue 32 (F-65): `queued` with its id and the run it waits for; nothing sent while the run works; the
    server sends it once after the end; cursor_supervise lists it until then."""
    world, agent = busy()
    async with open_harness(world) as h:
        reply = await h.call("cursor_create_run", {"agent_id": agent.id, "prompt": "Then the docs", "queue": True})
        listed = await h.call("cursor_supervise")
        with anyio.fail_after(10):
            while not posts(h, agent):
                await anyio.lowlevel.checkpoint()
        after = await h.call("cursor_supervise")
        sent = posts(h, agent)
    assert not reply.is_error and reply.data["queued"] is True and reply.data["after_run_id"] == agent.runs[0].id
    assert "run_id" not in reply.data and "queue_id" in reply.data
    assert [row["queue_id"] for row in listed.data["queued"]] == [reply.data["queue_id"]]
    assert listed.data["queued"][0]["prompt_start"] == "Then the docs"
    assert len(sent) == 1 and sent[0] >= agent.runs[0].ended_at and "queued" not in after.data


async def test_a_queued_follow_up_dropped_through_supervise_is_never_sent() -> None:
    """Issue 32 (F-69): drop_queued takes it out of the queue; an unknown id is NOT_FOUND; nothing is sent."""
    world, agent = busy()
    async with open_harness(world) as h:
        reply = await h.call("cursor_create_run", {"agent_id": agent.id, "prompt": "Then the docs", "queue": True})
        dropped = await h.call("cursor_supervise", {"drop_queued": reply.data["queue_id"]})
        again = await h.call("cursor_supervise", {"drop_queued": reply.data["queue_id"]})
        h.clock.set(agent.runs[0].ended_at + 60)
        await anyio.wait_all_tasks_blocked()
        sent = posts(h, agent)
    assert dropped.data["dropped_queue_id"] == reply.data["queue_id"] and "queued" not in dropped.data
    assert again.code == "NOT_FOUND" and sent == []


async def test_queue_on_an_idle_agent_sends_at_once_and_with_replace_active_is_refused() -> None:
    """Issue 32: an agent whose run has ended gets the follow-up now (queue is only for a busy one); queue
    together with replace_active is VALIDATION, nothing sent."""
    world = World(ManualClock())
    agent = world.add_agent("Idle", script=RunScript(running_seconds=5), created_ago=3600)
    async with open_harness(world) as h:
        both = await h.call(
            "cursor_create_run", {"agent_id": agent.id, "prompt": "x", "queue": True, "replace_active": True}
        )
        now = await h.call("cursor_create_run", {"agent_id": agent.id, "prompt": "Then the docs", "queue": True})
    assert both.code == "VALIDATION"
    assert not now.is_error and now.data["run_id"] and "queued" not in now.data
