"""MCP tasks outlive the server process that made them (issue 22): Claude Code saves a task and polls it
again after `claude --resume`, against a new server process on the same state directory.

D-40: a task created by one server is completed through `tasks/get` on the next one, with the answer the
inline call gives; a task cancelled on the next one stays cancelled; a record past its time-to-live is
"Task has expired"; an id never made is still "Task not found".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.server.protocol.tasks import KEEP_SECONDS, TASK_NOT_FOUND
from cursor_cloud_agents.simulator import ManualClock
from tests.server.protocol.test_tasks import long_run, raw_client

pytestmark = pytest.mark.anyio


async def test_a_task_made_by_one_server_is_completed_by_the_next_with_the_inline_answer(tmp_path: Path) -> None:
    """D-40: the first server ends while its task waits (the run goes on at Cursor); the next server, asked
    for that task id, runs the same wait again and completes it with what the call answers inline."""
    world, agent_id, run_id = long_run(10)
    arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50}
    async with raw_client(world, state_dir=tmp_path) as first:
        created = await first.call("cursor_get_run", arguments)
        working = await first.request("tasks/get", {"taskId": created["taskId"]})
    async with raw_client(world, state_dir=tmp_path) as second:
        done = await second.until_done(created["taskId"])
        inline = await second.call("cursor_get_run", arguments, tasks=False)
    assert created["resultType"] == "task" and working["status"] == "working"
    assert done["status"] == "completed" and done["taskId"] == created["taskId"]
    assert done["result"] == {key: value for key, value in inline.items() if key != "_meta"}


async def test_a_task_cancelled_on_the_next_server_stays_cancelled_for_the_one_after(tmp_path: Path) -> None:
    """D-40: tasks/cancel works on a task another process made, and what it did is what a later one says."""
    world, agent_id, run_id = long_run(30)
    arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50}
    async with raw_client(world, state_dir=tmp_path) as first:
        created = await first.call("cursor_get_run", arguments)
    async with raw_client(world, state_dir=tmp_path) as second:
        await second.request("tasks/cancel", {"taskId": created["taskId"]})
    async with raw_client(world, state_dir=tmp_path) as third:
        later = await third.request("tasks/get", {"taskId": created["taskId"]})
    assert later["status"] == "cancelled"


async def test_a_task_record_past_its_time_to_live_has_expired_and_an_unknown_id_is_not_found(
    tmp_path: Path,
) -> None:
    """D-40, the extension's errors: -32602 "Task has expired" for a record past its ttl, "Task not found" for
    an id this store never held."""
    world, agent_id, run_id = long_run(10)
    arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50}
    async with raw_client(world, state_dir=tmp_path, task_max_seconds=600.0) as first:
        created = await first.call("cursor_get_run", arguments)
    clock = world.clock
    assert isinstance(clock, ManualClock)
    clock.advance(600.0 + KEEP_SECONDS + 1)
    async with raw_client(world, state_dir=tmp_path, task_max_seconds=600.0) as second:
        expired = await second.request("tasks/get", {"taskId": created["taskId"]})
        unknown = await second.request("tasks/get", {"taskId": "never-made-by-anyone"})
    assert expired["code"] == TASK_NOT_FOUND and "expired" in expired["message"]
    assert unknown["code"] == TASK_NOT_FOUND and "not found" in unknown["message"]
