"""MCP Tasks (issue 11, tasks extension): a task never re-asks Cursor without pause or end, and a model
calling in a loop cannot start waiting tasks without bound.

Raw JSON-RPC on the simulator's manual clock, as in `test_tasks.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anyio
import pytest
from mcp_types import CallToolResult

from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.server.protocol.tasks import WORKING_MAX, TaskStore
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from tests.server.protocol.test_tasks import long_run, raw_client

pytestmark = pytest.mark.anyio


async def test_a_task_reading_an_ended_run_past_its_last_event_completes_at_once() -> None:
    """The stream of an ended run, read after its last event, closes empty with run_status FINISHED: before, the
    task read it again and again, at once, for CURSOR_MCP_TASK_MAX_SECONDS (thousands of requests)."""
    world = World(ManualClock())
    agent = world.add_agent("Tidy the docs", script=RunScript(running_seconds=30), created_ago=3600)
    arguments = {"agent_id": agent.id, "run_id": agent.runs[-1].id}
    async with raw_client(world) as raw:
        read = await raw.call("cursor_read_run_events", arguments, tasks=False)
        after = arguments | {"after_event_id": read["structuredContent"]["last_event_id"]}
        before = len(raw.sim.requests)
        created = await raw.call("cursor_read_run_events", after)
        done = await raw.until_done(created["taskId"])
        streams = len(raw.sim.requests) - before
    assert created["resultType"] == "task" and done["status"] == "completed"
    assert done["result"]["structuredContent"]["run_status"] == "FINISHED" and streams == 1


async def test_a_task_whose_answers_come_back_at_once_asks_again_no_faster_than_its_poll_interval() -> None:
    """A wait answered at once and still waiting (timed_out) is asked again after pollIntervalMs, not at once:
    60 s of task at 2.5 s intervals is at most 25 answers (before: one every 0.1 s, 600)."""
    clock = ManualClock()
    calls: list[float] = []

    async def quick(
        _tool: str, _arguments: Mapping[str, Any], _report: Any, _since: float
    ) -> tuple[CallToolResult, bool]:
        calls.append(clock.now())
        clock.advance(0.1)
        await anyio.lowlevel.checkpoint()
        return CallToolResult(content=[], structured_content={"timed_out": True}), True

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    store = TaskStore(quick, Clock(clock.now, advance), max_seconds=60.0, poll_seconds=2.5)
    ids: list[str] = []
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            store.group = group
            created = await store.start("cursor_wait", {})
            assert created is not None
            ids.append(str(created["taskId"]))
    assert (await store.get(ids[0]))["status"] == "completed"
    assert len(calls) <= 25 and min(b - a for a, b in zip(calls, calls[1:], strict=False)) >= 2.5


async def test_waits_past_the_working_task_limit_are_answered_inline_until_one_ends() -> None:
    """Each task re-reads Cursor until its runs end: past WORKING_MAX at once a declared wait is answered inline
    (the server decides per request), and a task again once one has ended (before: no bound at all)."""
    world, agent_id, run_id = long_run(24 * 60)
    arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 5}
    async with raw_client(world) as raw:
        started = [await raw.call("cursor_get_run", arguments) for _ in range(WORKING_MAX)]
        inline = await raw.call("cursor_get_run", arguments)
        await raw.request("tasks/cancel", {"taskId": started[0]["taskId"]})
        again = await raw.call("cursor_get_run", arguments)
        await raw.request("tasks/cancel", {"taskId": again["taskId"]})
        for task in started[1:]:
            await raw.request("tasks/cancel", {"taskId": task["taskId"]})
    assert all(task["resultType"] == "task" for task in started)
    assert "taskId" not in inline and inline["structuredContent"]["timed_out"] is True
    assert again["resultType"] == "task"
