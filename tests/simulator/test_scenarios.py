"""Scenarios (issue 4 §8) and the performance the client benchmarks rely on."""

from __future__ import annotations

import ast
from pathlib import Path

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    ManualClock,
    World,
    build_scenario,
    scenarios,
    seed_replay_run,
    serve,
)

AUTH = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
PACKAGE = Path(__file__).parents[2] / "src" / "cursor_cloud_agents" / "simulator"


def test_every_scenario_builds_and_is_reproducible() -> None:
    """Each named scenario builds; the same name and seed give the same ids."""
    for name in scenarios.NAMES:
        first, second = build_scenario(name, ManualClock()), build_scenario(name, ManualClock())
        assert list(first.agents) == list(second.agents)


def test_an_unknown_scenario_is_a_value_error() -> None:
    """`build` names the known scenarios when refusing."""
    with pytest.raises(ValueError, match="demo"):
        build_scenario("nope", ManualClock())


def test_demo_has_agents_in_various_states() -> None:
    """`demo`: IDLE, ACTIVE, ARCHIVED agents and FINISHED, RUNNING, ERROR runs."""
    world = build_scenario("demo", ManualClock())
    now = world.now()
    assert {a.status(now) for a in world.agents.values()} == {"IDLE", "ACTIVE", "ARCHIVED"}
    assert {"FINISHED", "RUNNING", "ERROR"} <= {a.runs[-1].status(now) for a in world.agents.values()}


def test_fleet_has_500_agents_with_mixed_statuses() -> None:
    """`fleet`: 500 agents, mixed agent statuses and run states."""
    world = build_scenario("fleet", ManualClock())
    now = world.now()
    assert len(world.agents) == 500
    assert {a.status(now) for a in world.agents.values()} == {"IDLE", "ACTIVE", "ARCHIVED"}
    assert {"FINISHED", "RUNNING", "ERROR", "CANCELLED", "EXPIRED"} <= {
        a.runs[-1].status(now) for a in world.agents.values()
    }


def test_long_run_is_seven_hours_with_a_replay_of_about_839_kb() -> None:
    """`long-run`: a 7-hour run whose replay is about 839 KB (observed 2026-10-06)."""
    world = build_scenario("long-run", ManualClock())
    run = next(iter(world.agents.values())).runs[0]
    assert run.ended_at - run.running_at == 7 * 3600
    assert 800_000 <= len(run.timeline.slice(0, len(run.timeline))) <= 900_000


def test_huge_has_a_200_kb_result_and_a_2_mib_replay() -> None:
    """`huge`: a 200 KB result and a replay of at least 2 MiB."""
    run = next(iter(build_scenario("huge", ManualClock()).agents.values())).runs[0]
    assert len(run.script.result) == 200_000
    assert len(run.timeline.slice(0, len(run.timeline))) >= 2 * 1024 * 1024


def test_failing_has_an_error_without_cause_and_a_background_task_left_running() -> None:
    """`failing`: ERROR run without `error`/`result`; a FINISHED run whose background task still runs."""
    world = build_scenario("failing", ManualClock())
    errored, background = (a.runs[0] for a in world.agents.values())
    wire = errored.wire(world.now(), world.quirks, None)
    assert wire["status"] == "ERROR" and "error" not in wire and "result" not in wire
    assert background.outcome == "FINISHED" and background.script.background is not None
    assert not background.script.background.finishes


@pytest.mark.anyio
async def test_fleet_pages_through_500_agents_in_five_requests_of_100() -> None:
    """The fleet scenario: 500 agents, paged by the documented limit maximum (speed: bench/simulator.py)."""
    world = build_scenario("fleet", ManualClock())
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        seen, cursor, requests = 0, None, 0
        while True:
            requests += 1
            params = {"limit": "100"} | ({"cursor": cursor} if cursor else {})
            page = (await http.get("/v1/agents", params=params)).json()
            seen += len(page["items"])
            cursor = page.get("nextCursor")
            if cursor is None:
                break
    assert (seen, requests) == (500, 5)


@pytest.mark.anyio
async def test_a_seeded_16_mib_replay_is_served_whole_and_ends_with_result_and_done(clock: ManualClock) -> None:
    """The benchmark replay: 16 MiB of events over loopback, ending like a terminal run (speed: bench/simulator.py)."""
    world = World(clock)
    agent, run = seed_replay_run(world, 16 * 1024 * 1024)
    tail = b""
    size = 0
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        with anyio.fail_after(30):
            async with http.stream("GET", f"/v1/agents/{agent.id}/runs/{run.id}/stream") as response:
                async for chunk in response.aiter_raw(1 << 20):
                    size += len(chunk)
                    tail = (tail + chunk)[-4096:]
    assert size >= 16 * 1024 * 1024
    assert b"event: result\n" in tail and tail.rstrip().endswith(b"data: {}")


def test_the_simulator_imports_neither_the_client_nor_the_server_nor_reads_the_environment() -> None:
    """docs/architecture.md: the simulator speaks the wire format on its own and never reads os.environ."""
    for module in PACKAGE.glob("*.py"):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("cursor_cloud_agents.api", "cursor_cloud_agents.server")), module
            assert not (isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv")), module
