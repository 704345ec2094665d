"""The activity summary (issue 6): a cheap fold over the replay, cached for terminal runs, never failing the call."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from mcp import Client

from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.runs.activity import ActivitySummary
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import serve_toolkit
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.pipeline.toolkit import Toolkit
from cursor_cloud_agents.server.tools import runs
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    Fault,
    Faults,
    ManualClock,
    RunScript,
    World,
    build_scenario,
)
from tests.tool_harness import Harness, OpenHarness, reply_of

pytestmark = pytest.mark.anyio


@asynccontextmanager
async def probe(h: Harness) -> AsyncGenerator[Client, None]:
    """A one-tool server calling `summarize` as cursor_get_run does, on the harness's client and clock."""
    settings = Settings(api_key=Secret(SIMULATED_API_KEY))
    state = ServerState(settings, Redactor(settings.secrets()), Clock(h.clock.now), client=h.api)
    kit = Toolkit(state)

    @kit.tool(title="Probe")
    async def probe_activity(call: ToolCall, agent_id: str, run_id: str, terminal: bool) -> dict[str, ActivitySummary]:
        """Summarize a run."""
        summary = await runs.summarize(
            call, state.api, state.activity, state.clock, agent_id, run_id, terminal=terminal
        )
        return {"activity": summary}

    async with Client(serve_toolkit(kit, name="probe", cached=False), mode="legacy") as client:
        yield client


async def summarize(client: Client, world: World, index: int = 0, terminal: bool = True) -> dict[str, Any]:
    agent = list(world.agents.values())[index]
    result = await client.call_tool(
        "probe_activity", {"agent_id": agent.id, "run_id": agent.runs[-1].id, "terminal": terminal}
    )
    reply = reply_of(result)
    assert not reply.is_error and reply.size <= 38_000
    return reply.data["activity"]


async def test_a_long_run_shows_its_background_task_still_running_after_the_end(harness_factory: OpenHarness) -> None:
    """Reference: FINISHED is not done; `run_terminal_cmd` + isBackground, last `await` state, counted unfinished."""
    world = build_scenario("long-run", ManualClock())
    async with harness_factory(world) as h, probe(h) as client:
        summary = await summarize(client, world)
    assert summary["complete"] is True
    assert summary["background_tasks"] == [{"task_id": "931367", "command": "bash ~/monitor.sh", "state": "running"}]
    assert summary["unfinished_background_tasks"] == 1
    assert summary["last_tool"] == {"name": "await", "status": "completed"}
    assert summary["summarized"] is True
    assert summary["last_text"] == "Done: the change is committed on the agent's branch."
    assert summary["last_event_at"] == "2026-10-06T11:50:02.000Z"
    assert summary["idle_seconds"] == 598


async def test_an_error_run_without_cause_still_shows_what_it_last_did(harness_factory: OpenHarness) -> None:
    """Contract quirk 3: an ERROR run carries neither error nor result; the stream still tells its last steps."""
    world = build_scenario("failing", ManualClock())
    async with harness_factory(world) as h, probe(h) as client:
        summary = await summarize(client, world, 0)
    assert summary["last_text"] == "I'll read the code and make the change."
    assert summary["last_tool"] == {"name": "read_file", "status": "completed"}
    assert summary["unfinished_background_tasks"] == 0 and summary["complete"] is True


async def test_a_terminal_summary_is_cached_and_its_idle_time_recomputed(harness_factory: OpenHarness) -> None:
    """Reference: the complete summary of a terminal run is cached, idle_seconds recomputed on each read."""
    world = build_scenario("failing", ManualClock())
    async with harness_factory(world) as h, probe(h) as client:
        first = await summarize(client, world, 1)
        streams = len(h.requests("GET"))
        h.clock.advance(100)
        second = await summarize(client, world, 1)
        assert len(h.requests("GET")) == streams
    assert second["idle_seconds"] == first["idle_seconds"] + 100
    assert {k: v for k, v in second.items() if k != "idle_seconds"} == {
        k: v for k, v in first.items() if k != "idle_seconds"
    }


async def test_an_expired_stream_sets_activity_error_without_failing(harness_factory: OpenHarness) -> None:
    """Reference: STREAM_EXPIRED after the retention only sets activity_error."""
    world = World(ManualClock())
    world.add_agent("old", created_ago=2 * 86_400)
    async with harness_factory(world) as h, probe(h) as client:
        summary = await summarize(client, world)
    assert summary == {"activity_error": "STREAM_EXPIRED", "complete": False}


async def test_a_cut_stream_degrades_to_a_partial_summary_and_is_not_cached(harness_factory: OpenHarness) -> None:
    """Reference: an unreadable stream leaves activity_error without failing the call; nothing cached."""
    world = build_scenario("long-run", ManualClock())
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=50_000))
    async with harness_factory(world, faults=faults) as h, probe(h) as client:
        cut = await summarize(client, world)
        whole = await summarize(client, world)
        assert len(h.requests("GET")) == 2
    assert cut["activity_error"] == "UPSTREAM" and cut["complete"] is False and cut["interrupted"] is True
    assert whole["complete"] is True and "activity_error" not in whole


async def test_a_replay_that_reached_the_result_is_cached_even_if_the_caller_did_not_know(
    harness_factory: OpenHarness,
) -> None:
    """Ours: a walk that ended on `result` proves the run terminal, so its complete summary is cached."""
    world = World(ManualClock())
    world.add_agent("short", script=RunScript(running_seconds=30), created_ago=3600)
    async with harness_factory(world) as h, probe(h) as client:
        await summarize(client, world, terminal=False)
        await summarize(client, world, terminal=False)
        await summarize(client, world, terminal=False)
        assert len(h.requests("GET")) == 1
