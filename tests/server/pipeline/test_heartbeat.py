"""Issue 22, fit OpenCode: every wait reports progress at least every 20 s, on every waiting path.

OpenCode cuts a call at 60 s unless progress arrives (each notification restarts its clock), and
CURSOR_MCP_MAX_CALL_SECONDS may be raised past that. Two guarantees, each tested here:

- the waits that pause on the call's clock (re-reads of runs, cancel re-reads, a live stream) report as
  they go: measured on the simulator's manual clock, no gap between the start, each notification and the
  answer exceeds 20 s, for the longest wait each tool allows;
- anything else a call waits on in real time (a slow request, a creation Cursor takes long to answer, a
  question to the person) is covered by the toolkit's heartbeat: no call goes `HEARTBEAT_SECONDS` (15 s)
  of real time without a notification.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp.client.context import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult

from cursor_cloud_agents.core.runs import waiting
from cursor_cloud_agents.server.pipeline import heartbeat
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, Quirks, RunScript, World
from tests.clock import while_time_passes
from tests.tool_harness import Harness, OpenHarness, Reply, reply_of

pytestmark = pytest.mark.anyio

MAX_GAP_SECONDS = 20.0
LONG = RunScript(running_seconds=36_000, thinking=None, text="Working.", tool_calls=(), summary=None)
"""A run that stays RUNNING for hours, its stream silent for as long."""
SLOW_CANCEL_SECONDS = 30.0
"""A cancel that lands this long after Cursor accepted it (quirk 12, stretched)."""


async def timed_call(h: Harness, tool: str, arguments: dict[str, Any], step: float = 1.0) -> tuple[Reply, list[float]]:
    """The answer, and the manual clock's time at the start, at each progress notification and at the answer."""
    times = [h.clock.now()]

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        del progress, total, message
        times.append(h.clock.now())

    async def call() -> Any:
        with anyio.fail_after(60):
            return await h.mcp.call_tool(tool, arguments, progress_callback=on_progress)

    result = await while_time_passes(h.clock, call(), step=step)
    times.append(h.clock.now())
    return reply_of(result), times


def largest_gap(times: list[float]) -> float:
    return max(later - earlier for earlier, later in zip(times, times[1:], strict=False))


def one_running(cancel_delay: float = 2.0) -> tuple[World, str, str]:
    world = World(ManualClock(), quirks=Quirks(cancel_delay_seconds=cancel_delay))
    agent = world.add_agent("long job", script=LONG, created_ago=60.0)
    return world, agent.id, agent.runs[-1].id


Case = Callable[[str, str], tuple[str, dict[str, Any]]]
CASES: dict[str, Case] = {
    "get_run": lambda a, r: ("cursor_get_run", {"agent_id": a, "run_id": r, "wait_seconds": 50, "activity": False}),
    "wait": lambda a, r: ("cursor_wait", {"runs": [{"agent_id": a, "run_id": r}], "wait_seconds": 50}),
    "cancel": lambda a, r: ("cursor_cancel_run", {"agent_id": a, "run_id": r}),
    "replace": lambda a, _r: ("cursor_create_run", {"agent_id": a, "prompt": "Instead", "replace_active": True}),
}
"""The waits that pause on the call's clock. The stream reads (`cursor_read_run_events` live, the activity walks
of `cursor_get_run` and `cursor_supervise`) report on a real-time timer every 5 s, and the heartbeat backs every
call: both are tested below in real time, since the manual clock never sees real time pass."""


@pytest.mark.parametrize("case", list(CASES))
async def test_no_wait_goes_20_seconds_of_the_calls_clock_without_progress(
    harness_factory: OpenHarness, case: str
) -> None:
    """D-30: measured on the manual clock, from the call's start to its answer, for the longest wait each tool
    allows (cancels that take 30 s to land included)."""
    world, agent_id, run_id = one_running(SLOW_CANCEL_SECONDS if case in ("cancel", "replace") else 2.0)
    tool, arguments = CASES[case](agent_id, run_id)
    async with harness_factory(world, max_call_seconds=55) as h:
        reply, times = await timed_call(h, tool, arguments)
    assert reply.code is None or reply.code == "AGENT_BUSY", reply.data
    assert times[-1] - times[0] >= 8 and largest_gap(times) <= MAX_GAP_SECONDS, times


@pytest.mark.parametrize("tool", ["cursor_read_run_events", "cursor_supervise"])
async def test_a_silent_stream_read_reports_in_real_time(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch, tool: str
) -> None:
    """D-30: a stream that stays silent (real time passing, the simulated world still) is covered by the reads' own
    5 s timer (shortened here) and by the heartbeat; the stream is held 0.6 s by a slow answer."""
    monkeypatch.setattr(waiting, "PROGRESS_SECONDS", 0.05)
    world, agent_id, run_id = one_running()
    faults = Faults()
    faults.inject("GET", f"/v1/agents/{agent_id}/runs/{run_id}/stream", Fault.slow(0.6), times=1)
    arguments = {"agent_id": agent_id, "run_id": run_id, "max_wait_seconds": 1}
    async with harness_factory(world, faults=faults) as h:
        await h.call(tool, arguments if tool == "cursor_read_run_events" else {"activity": True})
    assert len(h.progress) >= 3, h.progress


Blocker = Callable[[Harness], Awaitable[None]]


async def test_a_creation_cursor_takes_long_to_answer_is_kept_alive_by_the_heartbeat(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """D-31: a POST that takes a while (real time, which no pause of the tool sees) still sends progress: the
    heartbeat beats every HEARTBEAT_SECONDS (shortened here) while the call runs."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.05)
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.slow(0.6), times=1)
    async with harness_factory(faults=faults) as h:
        reply = await h.call("cursor_create_agent", {"prompt": "Fix the flaky test"})
    assert not reply.is_error, reply.data
    assert len(h.progress) >= 3 and all("still working" in message for message in h.progress), h.progress


async def test_a_question_waiting_for_its_answer_is_kept_alive_by_the_heartbeat(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """D-31: the person may take a while to answer; the call keeps beating meanwhile (the answer comes only once
    two heartbeats were seen, so the test waits on events, not on time)."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.02)
    beats = anyio.Event()
    seen: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        del progress, total
        seen.append(message or "")
        if len(seen) >= 2:
            beats.set()

    async def patient(_context: ClientRequestContext, _params: ElicitRequestParams) -> ElicitResult:
        await beats.wait()
        return ElicitResult(action="accept", content={"confirm": True})

    world, agent_id, _ = one_running()
    options = {"client_options": {"elicitation_callback": patient}, "allow_delete": True}
    async with harness_factory(world, **options) as h:
        with anyio.fail_after(5):
            result = await h.mcp.call_tool("cursor_delete_agent", {"agent_id": agent_id}, progress_callback=on_progress)
    assert not result.is_error and len(seen) >= 2


async def test_the_heartbeat_is_quiet_while_the_tool_reports_itself(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat fills silences only: a call that answers at once sends no notification at all."""
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 30.0)
    async with harness_factory() as h:
        await h.call("cursor_list_agents", {})
    assert h.progress == []
