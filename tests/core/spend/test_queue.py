"""The follow-up queue (issue 32): sent once, right after the busy agent's run ends, by whichever process is alive.

Against the simulator on its manual clock. Each "process" is a `CoreState` of its own (its own store object,
API client and clock) on one state directory, as separate processes on one machine share the store's file
and its lock. Only the test moves the clock; the queue keepers' pauses wait for it.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, MutableMapping
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest

from cursor_cloud_agents.api import CreateRunRequest, CursorClient, Deadline, Prompt
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core import queue
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.store import Act
from cursor_cloud_agents.core.timing import QUEUED_FOLLOWUP_SECONDS, USAGE_SECONDS, CallTime, Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.simulator import ManualClock, RunningSimulator, RunScript, World, serve
from cursor_cloud_agents.simulator.records import AgentRecord as Agent
from tests.core.rig import process

pytestmark = pytest.mark.anyio

RUNS = "/v1/agents/{}/runs"


def busy_world(outcome: str = "FINISHED", *, cost: tuple[float, float] | None = None) -> tuple[World, Agent]:
    clock = ManualClock()
    world = World(clock)
    script = RunScript(running_seconds=60, result="Done.", outcome=outcome, cost_cents=cost)  # pyright: ignore[reportArgumentType]
    return world, world.add_agent("Busy", script=script)


def clock_of(world: World) -> ManualClock:
    assert isinstance(world.clock, ManualClock)
    return world.clock


def call_time(state: CoreState) -> CallTime:
    return CallTime(Deadline(math.inf), state.clock)


def request(text: str = "Now add the tests") -> CreateRunRequest:
    return CreateRunRequest(prompt=Prompt(text=text))


def follow_ups(sim: RunningSimulator, agent: Agent) -> int:
    return len(
        [record for record in sim.faults.requests if record.method == "POST" and record.path == RUNS.format(agent.id)]
    )


async def queued_on(state: CoreState, agent: Agent) -> Act:
    read = await state.api.get_agent(agent.id)
    assert read.latest_run_id is not None
    return await queue.enqueue(state, read, request(), read.latest_run_id)


async def until(condition: Callable[[], bool], *, seconds: float = 5) -> None:
    with anyio.fail_after(seconds):
        while not condition():
            await anyio.lowlevel.checkpoint()


async def test_a_follow_up_queued_with_three_processes_alive_is_sent_exactly_once_f_65(tmp_path: Path) -> None:
    """F-65: three processes keep the queue when the busy run ends: the follow-up is sent once, by one of them,
    and not before the end; the store says `done` with the run it made."""
    world, agent = busy_world()
    clock = clock_of(world)
    async with serve(world) as sim, AsyncExitStack() as stack:
        states = [await stack.enter_async_context(process(sim, clock, tmp_path)) for _ in range(3)]
        act = await queued_on(states[0], agent)
        told: list[queue.QueueNews] = []

        async def heard(news: queue.QueueNews) -> None:
            told.append(news)

        async with anyio.create_task_group() as group:
            for state in states:
                group.start_soon(queue.keep, state, call_time(state), heard)
            clock.advance(30)
            for _ in range(200):
                await anyio.lowlevel.checkpoint()
            assert follow_ups(sim, agent) == 0, "sent while the run was active"
            clock.set(agent.runs[0].ended_at)
            await until(lambda: len(told) == 1)
            for _ in range(500):  # the other keepers get every chance to send it too
                await anyio.lowlevel.checkpoint()
            group.cancel_scope.cancel()
        stored = (await states[1].store.read(clock.now())).acts[act.id]
    assert follow_ups(sim, agent) == 1 and len(told) == 1 and told[0].outcome == "sent"
    assert stored.state == "done" and told[0].run is not None and stored.run_id == told[0].run.id
    assert len(agent.runs) == 2


async def test_with_no_process_alive_when_the_run_ends_the_next_one_started_sends_it_f_66(tmp_path: Path) -> None:
    """F-66: the process that queued it ends; the run ends; the next process started sends it on its first pass."""
    world, agent = busy_world()
    clock = clock_of(world)
    async with serve(world) as sim:
        async with process(sim, clock, tmp_path) as first:
            await queued_on(first, agent)
        clock.set(agent.runs[0].ended_at + 600)
        assert follow_ups(sim, agent) == 0
        async with process(sim, clock, tmp_path) as later:
            news = await queue.send_due(later)
            again = await queue.send_due(later)
    assert [item.outcome for item in news] == ["sent"] and again == []
    assert follow_ups(sim, agent) == 1


async def test_a_run_that_ends_in_error_holds_its_queued_follow_up_with_a_note_f_67(tmp_path: Path) -> None:
    """F-67: the run it waited for ends in ERROR: nothing is sent; the follow-up leaves the queue `held`, with a
    note naming the run's status and how to send it by hand."""
    world, agent = busy_world("ERROR")
    clock = clock_of(world)
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        act = await queued_on(state, agent)
        clock.set(agent.runs[0].ended_at)
        news = await queue.send_due(state)
        stored = (await state.store.read(clock.now())).acts[act.id]
        left = await queue.listed(state)
    assert [item.outcome for item in news] == ["held"] and follow_ups(sim, agent) == 0
    assert stored.state == "failed" and "ended ERROR" in (stored.detail or {})["note"]
    assert f"followup {agent.id}" in news[0].note and left == []


async def test_the_spend_limit_reached_before_sending_refuses_it_with_a_note_sl_68(tmp_path: Path) -> None:
    """SL-68: under the limit of 30 when queued (the run's charge not known yet: held at the estimate of 25), over
    it when the run has ended and its 35 cents arrived: nothing is sent, the follow-up leaves the queue refused,
    the note names the limit."""
    world, agent = busy_world(cost=(35.0, 35.0))
    clock = clock_of(world)
    async with serve(world) as sim, process(sim, clock, tmp_path, max_spend_cents=30) as state:
        # The agent was created through this machine: the spend limit counts it.
        await state.store.write(
            Act("made", "create", clock.now(), "done", counted=True, agent_id=agent.id), now=clock.now()
        )
        act = await queued_on(state, agent)
        clock.set(agent.runs[0].ended_at + 30 + USAGE_SECONDS)
        news = await queue.send_due(state)
        stored = (await state.store.read(clock.now())).acts[act.id]
    assert [item.outcome for item in news] == ["refused"] and follow_ups(sim, agent) == 0
    assert stored.state == "failed" and "CURSOR_MCP_MAX_SPEND_CENTS" in (stored.detail or {})["note"]


async def test_a_dropped_follow_up_is_never_sent_and_leaves_the_list_f_69(tmp_path: Path) -> None:
    """F-69: listed while it waits; dropped, it leaves the list and nothing is sent when the run ends; dropping it
    again says it is not waiting."""
    world, agent = busy_world()
    clock = clock_of(world)
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        act = await queued_on(state, agent)
        listed = [queue.describe(item) for item in await queue.listed(state)]
        await queue.drop(state, act.id)
        clock.set(agent.runs[0].ended_at)
        news = await queue.send_due(state)
        with pytest.raises(ToolFailure) as again:
            await queue.drop(state, act.id)
    assert listed[0]["queue_id"] == act.id and listed[0]["prompt_start"] == "Now add the tests"
    assert news == [] and follow_ups(sim, agent) == 0 and again.value.code == "NOT_FOUND"


async def test_a_follow_up_not_sent_in_time_expires_with_a_note_and_a_second_one_is_refused_f_70(
    tmp_path: Path,
) -> None:
    """F-70: one follow-up per agent (a second is refused naming the first); one still waiting after
    QUEUED_FOLLOWUP_SECONDS expires with a note, nothing sent."""
    clock = ManualClock()
    world = World(clock)
    agent = world.add_agent("Long", script=RunScript(running_seconds=2 * QUEUED_FOLLOWUP_SECONDS))
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        act = await queued_on(state, agent)
        with pytest.raises(ToolFailure) as second:
            await queued_on(state, agent)
        clock.advance(QUEUED_FOLLOWUP_SECONDS)
        news = await queue.send_due(state)
    assert second.value.code == "VALIDATION" and act.id in second.value.message
    assert [item.outcome for item in news] == ["expired"] and "expired" in news[0].note
    assert follow_ups(sim, agent) == 0


class BusyAgentMock:
    """An independent mock of the API, written here from the contract (not the simulator): one agent whose run
    works until `ends_at` (real time), its stream, and follow-up POSTs recorded (409 `agent_busy` while busy)."""

    AGENT = "bc-11111111-2222-4333-8444-555555555555"
    RUN = "run-11111111-2222-4333-8444-555555555555"
    NEXT = "run-66666666-7777-4888-8999-000000000000"

    def __init__(self, running_seconds: float) -> None:
        self.ends_at = time.monotonic() + running_seconds
        self.posts: list[float] = []

    def running(self) -> bool:
        return time.monotonic() < self.ends_at

    def run(self) -> dict[str, Any]:
        status = "RUNNING" if self.running() else "FINISHED"
        return {"id": self.RUN, "agentId": self.AGENT, "status": status, "createdAt": "2026-12-03T08:00:00Z"}

    def agent(self) -> dict[str, Any]:
        latest = self.NEXT if self.posts else self.RUN
        return {
            "id": self.AGENT,
            "name": "Busy",
            "status": "ACTIVE",
            "latestRunId": latest,
            "workOnCurrentBranch": False,  # a follow-up's door checks it (core/spend/continuation.py)
        }

    async def __call__(self, scope: MutableMapping[str, Any], _receive: Any, send: Any) -> None:
        assert scope["type"] == "http"
        method, path = scope["method"], scope["path"]
        runs = f"/v1/agents/{self.AGENT}/runs"
        if method == "POST" and path == runs:
            if self.running():
                error = {"error": {"code": "agent_busy", "message": "A run is active"}}
                return await self.answer(send, 409, error)
            self.posts.append(time.monotonic())
            run = {"id": self.NEXT, "agentId": self.AGENT, "status": "CREATING"}
            return await self.answer(send, 201, {"run": run})
        if path == f"{runs}/{self.RUN}/stream":
            return await self.stream(send)
        if path == f"{runs}/{self.RUN}":
            return await self.answer(send, 200, self.run())
        if path == f"{runs}/{self.NEXT}":
            return await self.answer(send, 200, {"id": self.NEXT, "agentId": self.AGENT, "status": "RUNNING"})
        if path == f"/v1/agents/{self.AGENT}":
            return await self.answer(send, 200, self.agent())
        return await self.answer(send, 404, {"error": {"code": "not_found", "message": path}})

    async def answer(self, send: Any, status: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        headers = [(b"content-type", b"application/json"), (b"x-request-id", b"req-mock")]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    async def stream(self, send: Any) -> None:
        headers = [(b"content-type", b"text/event-stream"), (b"x-request-id", b"req-mock")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        opening = b'event: status\ndata: {"status":"RUNNING"}\n\n'
        await send({"type": "http.response.body", "body": opening, "more_body": True})
        await anyio.sleep(max(0.0, self.ends_at - time.monotonic()))
        ended = int(time.time() * 1000)
        tail = (
            f'id: {ended}-0\nevent: result\ndata: {{"status":"FINISHED"}}\n\nid: {ended}-1\nevent: done\ndata: {{}}\n\n'
        )
        await send({"type": "http.response.body", "body": tail.encode()})


async def test_against_an_independent_mock_a_queued_follow_up_is_sent_once_within_3_s_of_the_end(
    tmp_path: Path,
) -> None:
    """Issue 32's acceptance, in real time (about 1 s: the mock's run works 0.5 s of wall clock): a follow-up
    queued while the agent's run works is sent exactly once, within 3 s after that run ends, and not before."""
    mock = BusyAgentMock(running_seconds=0.5)
    config = Settings(api_key=Secret("key_" + "m" * 40), allow_writes=True, state_dir=tmp_path)
    api = CursorClient("https://api.cursor.com", "key_" + "m" * 40, transport=httpx2.ASGITransport(app=mock))
    async with api:
        state = CoreState(config, Redactor(config.secrets()), Clock(), client=api)
        agent = await api.get_agent(mock.AGENT)
        await queue.enqueue(state, agent, request(), mock.RUN)
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(queue.keep, state, CallTime(Deadline(math.inf), state.clock))
                while not mock.posts:
                    await anyio.sleep(0.05)
                await anyio.sleep(0.5)  # a second send would come at once: the sent one leaves the queue, its next pass
                group.cancel_scope.cancel()
    assert len(mock.posts) == 1
    assert 0 <= mock.posts[0] - mock.ends_at <= 3.0


async def test_a_commands_last_pass_looks_again_when_the_run_record_has_not_caught_up_with_its_end_f_65(
    tmp_path: Path,
) -> None:
    """F-65: `wait` and `events --until` end the moment they hear the run end; the run's record can still say
    RUNNING then (a stream heard before the record, seen under load), so their last pass looks again a second
    later instead of leaving the follow-up for a process that may never come."""
    world, agent = busy_world()
    clock = clock_of(world)
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        await queued_on(state, agent)
        clock.set(agent.runs[0].ended_at - 0.5)  # heard ended; its record still RUNNING
        paused = anyio.Event()
        pause = state.clock.sleep

        async def sleep(seconds: float) -> None:
            paused.set()  # the first pass read RUNNING and now waits a second
            await pause(seconds)

        state.clock = Clock(now=state.clock.now, sleep=sleep)
        news: list[queue.QueueNews] = []

        async def last_pass() -> None:
            news.extend(await queue.send_due_after_an_end(state))

        async with anyio.create_task_group() as group:
            group.start_soon(last_pass)
            with anyio.fail_after(5):
                await paused.wait()
            assert follow_ups(sim, agent) == 0
            clock.advance(1.0)
    assert [item.outcome for item in news] == ["sent"] and follow_ups(sim, agent) == 1
