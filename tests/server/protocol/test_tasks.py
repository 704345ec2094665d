"""MCP Tasks (issue 11, `io.modelcontextprotocol/tasks`): a raw JSON-RPC client speaking 2026-07-28.

The client writes JSON-RPC messages itself (no SDK client session), declaring the extension in each
request's `_meta` as the extension text says; the server runs against the simulator on its manual
clock, so a run that lasts minutes ends when the test moves the clock, and nothing really sleeps.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import MCPError
from mcp.shared.memory import create_client_server_memory_streams
from mcp.shared.message import SessionMessage
from mcp_types import CallToolResult, jsonrpc_message_adapter

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server
from cursor_cloud_agents.server.protocol.tasks import (
    EXTENSION,
    FINISHED_KEPT,
    MISSING_CAPABILITY,
    TASK_NOT_FOUND,
    WORKING_MAX,
    TaskStore,
)
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, RunningSimulator, RunScript, World, serve

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"


def meta(*, tasks: bool) -> dict[str, Any]:
    capabilities: dict[str, Any] = {"extensions": {EXTENSION: {}}} if tasks else {}
    return {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientInfo": {"name": "raw-tasks-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    }


@dataclass
class Raw:
    """A JSON-RPC client that writes and reads the messages itself."""

    read: Any
    write: Any
    clock: ManualClock
    world: World
    sim: RunningSimulator
    next_id: int = 0

    async def request(self, method: str, params: dict[str, Any] | None = None, *, tasks: bool = True) -> Any:
        """Send one request and return its `result`, or its `error` object."""
        self.next_id += 1
        body: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        body["params"] = (params or {}) | {"_meta": meta(tasks=tasks)}
        await self.write.send(SessionMessage(jsonrpc_message_adapter.validate_python(body)))
        with anyio.fail_after(10):
            while True:
                message = await self.read.receive()
                answer = message.message.model_dump(by_alias=True, exclude_none=True, mode="json")
                if answer.get("id") == self.next_id:
                    return answer.get("result", answer.get("error"))

    async def call(self, tool: str, arguments: dict[str, Any], *, tasks: bool = True) -> Any:
        return await self.request("tools/call", {"name": tool, "arguments": arguments}, tasks=tasks)

    async def until_done(self, task_id: str) -> dict[str, Any]:
        """Poll `tasks/get` as a client would, moving the simulated clock by the advised interval."""
        for _ in range(1_000):
            task = await self.request("tasks/get", {"taskId": task_id})
            if task["status"] != "working":
                return task
            self.clock.advance(task["pollIntervalMs"] / 1000)
            await anyio.wait_all_tasks_blocked()
        raise AssertionError("the task never ended")


@asynccontextmanager
async def raw_client(world: World, **settings: Any) -> AsyncGenerator[Raw, None]:
    """The server over in-memory JSON-RPC streams, against `world` served on loopback."""
    clock = world.clock
    assert isinstance(clock, ManualClock)
    config = Settings(api_key=Secret(SIMULATED_API_KEY), **settings)

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    async with serve(world) as sim:
        api = CursorClient(sim.base_url, SIMULATED_API_KEY, clock=clock.now, wall_clock=clock.now, sleep=advance)

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        server = build_server(config, Redactor(config.secrets()), borrow, clock=clock.now, sleep=advance)
        async with api, create_client_server_memory_streams() as (client, server_streams):
            async with anyio.create_task_group() as group:
                group.start_soon(
                    lambda: server.run(server_streams[0], server_streams[1], server.create_initialization_options())
                )
                raw = Raw(client[0], client[1], clock, world, sim)
                await raw.request("server/discover")
                yield raw
                group.cancel_scope.cancel()


def long_run(minutes: float) -> tuple[World, str, str]:
    world = World(ManualClock())
    agent = world.add_agent("Refactor the billing module", script=RunScript(running_seconds=minutes * 60))
    return world, agent.id, agent.runs[-1].id


async def test_server_discover_advertises_the_tasks_extension() -> None:
    """Extension text, Capability Negotiation: the server declares it in `server/discover`."""
    world, _, _ = long_run(1)
    async with raw_client(world) as raw:
        found = await raw.request("server/discover")
    assert found["capabilities"]["extensions"][EXTENSION] == {}


async def test_a_wait_on_a_ten_minute_run_becomes_a_task_that_completes_with_the_inline_answer() -> None:
    """Issue 11: declared per request -> resultType task; tasks/get until completed; the result is byte for
    byte what the same call answers inline once the run has ended."""
    world, agent_id, run_id = long_run(10)
    arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50}
    async with raw_client(world) as raw:
        created = await raw.call("cursor_get_run", arguments)
        done = await raw.until_done(created["taskId"])
        inline = await raw.call("cursor_get_run", arguments, tasks=False)
    assert created["resultType"] == "task" and created["status"] == "working"
    assert created["pollIntervalMs"] == 2500 and created["ttlMs"] > 0
    assert done["status"] == "completed" and done["result"]["structuredContent"]["status"] == "FINISHED"
    stamped = {key: value for key, value in inline.items() if key != "_meta"}  # the runner's serverInfo stamp
    assert done["result"] == stamped


async def test_a_request_without_the_capability_gets_the_inline_answer() -> None:
    """Extension text: a server MUST NOT return a task to a client that did not declare it on the request."""
    world, agent_id, run_id = long_run(10)
    async with raw_client(world) as raw:
        arguments = {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 5}
        answer = await raw.call("cursor_get_run", arguments, tasks=False)
    assert "taskId" not in answer and answer["structuredContent"]["timed_out"] is True


async def test_a_tool_whose_answer_is_quick_stays_synchronous_for_a_declaring_client() -> None:
    """Issue 11: only waits become tasks; a read without a wait answers inline."""
    world, agent_id, run_id = long_run(10)
    async with raw_client(world) as raw:
        answer = await raw.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
    assert "taskId" not in answer and answer["structuredContent"]["status"] in ("CREATING", "RUNNING")


async def test_cancelling_a_task_mid_wait_stops_its_reads_at_once() -> None:
    """Issue 11: tasks/cancel stops the work and any request in flight; no request reaches Cursor after it."""
    world, agent_id, run_id = long_run(10)
    async with raw_client(world) as raw:
        created = await raw.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50})
        raw.clock.advance(10)
        await anyio.wait_all_tasks_blocked()
        assert (await raw.request("tasks/cancel", {"taskId": created["taskId"]}))["resultType"] == "complete"
        seen = len(raw.sim.requests)
        raw.clock.advance(600)
        await anyio.wait_all_tasks_blocked()
        task = await raw.request("tasks/get", {"taskId": created["taskId"]})
        after = len(raw.sim.requests)
    assert task["status"] == "cancelled" and "result" not in task
    assert after == seen


async def test_an_unknown_task_id_answers_the_error_the_extension_names() -> None:
    """Extension text, Protocol Errors: -32602 for a task that does not exist (or no longer does)."""
    world, _, _ = long_run(1)
    async with raw_client(world) as raw:
        error = await raw.request("tasks/get", {"taskId": "no-such-task"})
    assert error["code"] == TASK_NOT_FOUND


async def test_a_client_that_does_not_declare_the_extension_cannot_poll_tasks() -> None:
    """Extension text: -32021 for tasks/get from a request that does not declare the extension."""
    world, _, _ = long_run(1)
    async with raw_client(world) as raw:
        error = await raw.request("tasks/get", {"taskId": "whatever"}, tasks=False)
    assert error["code"] == MISSING_CAPABILITY
    assert error["data"]["requiredCapabilities"]["extensions"] == {EXTENSION: {}}


async def test_a_task_is_not_capped_by_the_call_limit_but_by_the_task_limit() -> None:
    """Issue 11: a task waits past CURSOR_MCP_MAX_CALL_SECONDS (55 s) and ends at CURSOR_MCP_TASK_MAX_SECONDS
    at the latest, with the last inline answer (timed_out: the run goes on)."""
    world, agent_id, run_id = long_run(24 * 60)
    async with raw_client(world, task_max_seconds=600.0) as raw:
        started = raw.clock.now()
        created = await raw.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id, "wait_seconds": 50})
        done = await raw.until_done(created["taskId"])
        waited = raw.clock.now() - started
    assert done["status"] == "completed" and done["result"]["structuredContent"]["timed_out"] is True
    assert 600 <= waited < 600 + 60


async def test_finished_tasks_beyond_the_kept_number_are_dropped_oldest_first() -> None:
    """Issue 11: memory is bounded: past FINISHED_KEPT finished tasks, the oldest answers task-not-found."""

    async def answer(
        _tool: str, _arguments: Mapping[str, Any], _report: Any, _since: float
    ) -> tuple[CallToolResult, bool]:
        return CallToolResult(content=[], structured_content={"timed_out": False}), False

    store = TaskStore(answer, Clock(ManualClock().now), max_seconds=60.0, poll_seconds=2.5)
    ids: list[str] = []
    async with anyio.create_task_group() as group:
        store.group = group
        for _ in range(FINISHED_KEPT + 1):
            created = await store.start("cursor_wait", {})
            assert created is not None
            ids.append(str(created["taskId"]))
            await anyio.wait_all_tasks_blocked()  # it ends before the next starts: finished, not working at once
    assert (await store.get(ids[-1]))["status"] == "completed"
    with pytest.raises(MCPError) as dropped:
        await store.get(ids[0])
    assert dropped.value.error.code == TASK_NOT_FOUND


async def test_a_wait_task_over_several_rounds_says_how_long_the_whole_wait_lasted() -> None:
    """A task's final answer is the last round's, but `waited_seconds` and each run's `ended_after` count from
    the task's start: a cursor_wait task on a ten-minute run (rounds of 50 s) says about 600 s, not the few
    seconds of its last round (it said 5.1 s after 113 s of real waiting, issue 22's drive)."""
    world, agent_id, run_id = long_run(10)
    async with raw_client(world) as raw:
        started = raw.clock.now()
        created = await raw.call(
            "cursor_wait", {"runs": [{"agent_id": agent_id, "run_id": run_id}], "wait_seconds": 50}
        )
        done = await raw.until_done(created["taskId"])
        waited = raw.clock.now() - started
    answer = done["result"]["structuredContent"]
    assert done["status"] == "completed" and [row["run_id"] for row in answer["ended"]] == [run_id]
    assert 550 <= answer["waited_seconds"] <= waited
    assert 550 <= answer["ended"][0]["ended_after_seconds"] <= waited


async def test_fifty_task_augmented_waits_sent_at_once_make_at_most_the_bound_of_tasks_and_all_are_answered(
    tmp_path: Path,
) -> None:
    """SL-83 (issue 34): the bound was checked before the record's await and used after it, so 50 waits sent
    together all saw room and all became tasks (50 pollers at 28.6 GETs a second); now the place is taken
    before the await: at most WORKING_MAX tasks, the rest answered inline, every call answered."""
    world, agent_id, run_id = long_run(24 * 60)
    arguments = {"runs": [{"agent_id": agent_id, "run_id": run_id}], "wait_seconds": 1}
    async with raw_client(world, state_dir=tmp_path, task_max_seconds=60) as raw:
        for number in range(1, 51):
            body = {"name": "cursor_wait", "arguments": arguments, "_meta": meta(tasks=True)}
            message = {"jsonrpc": "2.0", "id": 1000 + number, "method": "tools/call", "params": body}
            await raw.write.send(SessionMessage(jsonrpc_message_adapter.validate_python(message)))
        answers: dict[int, Any] = {}
        with anyio.fail_after(20):
            while len(answers) < 50:
                answer = (await raw.read.receive()).message.model_dump(by_alias=True, exclude_none=True, mode="json")
                if isinstance(answer.get("id"), int) and answer["id"] > 1000:
                    answers[answer["id"]] = answer.get("result", answer.get("error"))
        created = [answer["taskId"] for answer in answers.values() if answer.get("resultType") == "task"]
        for task_id in created:
            await raw.request("tasks/cancel", {"taskId": task_id})
    inline = [answer for answer in answers.values() if "taskId" not in answer]
    assert len(answers) == 50 and 1 <= len(created) <= WORKING_MAX
    assert all(answer["structuredContent"]["timed_out"] is True for answer in inline)


async def _recorded_tasks(tmp_path: Path, count: int) -> list[str]:
    """The ids of `count` working tasks recorded by an earlier process (then gone) in the store at `tmp_path`."""
    ids = [f"earlier-{number}" for number in range(count)]
    detail: dict[str, Any] = {"tool": "cursor_wait", "arguments": {}, "status": "working", "message": None}
    acts = [Act(task_id, "task", 1000.0, "sent", detail=detail) for task_id in ids]
    await Store(tmp_path).write(*acts, now=1000.0)
    return ids


async def test_a_recorded_task_asked_for_twice_at_once_is_taken_up_by_one_poller(tmp_path: Path) -> None:
    """SL-84 (issue 34): take-up checked the tasks held, awaited the store, then started the task: two tasks/get
    of the same recorded id at once both started it (two pollers for one task). Checked again after the read."""
    (task_id,) = await _recorded_tasks(tmp_path, 1)
    rounds: list[str] = []

    async def waiting(
        _tool: str, _arguments: Mapping[str, Any], _report: Any, _since: float
    ) -> tuple[CallToolResult, bool]:
        rounds.append(_tool)
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    store = TaskStore(waiting, Clock(lambda: 1010.0), max_seconds=600.0, poll_seconds=2.5, records=Store(tmp_path))
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            store.group = group
            async with anyio.create_task_group() as asking:
                asking.start_soon(store.get, task_id)
                asking.start_soon(store.get, task_id)
            await anyio.wait_all_tasks_blocked()
            group.cancel_scope.cancel()
    assert rounds == ["cursor_wait"]


async def test_recorded_tasks_taken_up_past_the_bound_wait_for_a_place_instead_of_polling(tmp_path: Path) -> None:
    """SL-84 (issue 34): take-up started every recorded task it was asked for, past WORKING_MAX; now one past
    the bound answers working, not run, and is taken up by a later tasks/get once a place is free."""
    ids = await _recorded_tasks(tmp_path, WORKING_MAX + 1)
    rounds: list[str] = []

    async def waiting(
        _tool: str, _arguments: Mapping[str, Any], _report: Any, _since: float
    ) -> tuple[CallToolResult, bool]:
        rounds.append(_tool)
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    store = TaskStore(waiting, Clock(lambda: 1010.0), max_seconds=600.0, poll_seconds=2.5, records=Store(tmp_path))
    views: list[dict[str, Any]] = []
    running, again = 0, {}
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            store.group = group
            views = [await store.get(task_id) for task_id in ids]
            await anyio.wait_all_tasks_blocked()
            running = len(rounds)
            await store.cancel(ids[0])
            again = await store.get(ids[-1])
            await anyio.wait_all_tasks_blocked()
            group.cancel_scope.cancel()
    assert running == WORKING_MAX and len(rounds) == WORKING_MAX + 1
    assert views[-1]["status"] == "working" and "waiting for a place" in views[-1]["statusMessage"]
    assert again["status"] == "working" and "waiting for a place" not in again["statusMessage"]
