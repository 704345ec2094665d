"""cursor_supervise end to end: the fleet in one call, exact paging, activity signals, 8 requests at most."""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.simulator import (
    BackgroundTaskScript,
    Fault,
    Faults,
    ManualClock,
    RunScript,
    World,
    build_scenario,
)
from tests.clock import while_time_passes
from tests.tool_harness import Harness, OpenHarness, Reply

pytestmark = pytest.mark.anyio

TOOL = "cursor_supervise"
QUIET = RunScript(running_seconds=360_000, thinking=None, text="Working.", tool_calls=(), summary=None)


def mixed_world(count: int = 30) -> World:
    """Finished, running (quiet, long idle), and finished-with-a-background-job agents, in turn."""
    world = World(ManualClock())
    background = RunScript(background=BackgroundTaskScript(polls=1))
    for index in range(count):
        script = (RunScript(), QUIET, background)[index % 3]
        world.add_agent(f"job {index:02d}", script=script, created_ago=7200.0 + index)
    return world


async def supervise(h: Harness, **arguments: Any) -> Reply:
    reply = await h.call(TOOL, arguments)
    assert not reply.is_error, reply.data
    assert reply.size <= 38_000
    return reply


async def with_clock(h: Harness, **arguments: Any) -> Reply:
    """Call while the world clock moves (running replays end on their first heartbeat)."""
    return await while_time_passes(h.clock, supervise(h, **arguments))


async def test_active_means_the_latest_run_is_creating_or_running(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §2a: the agent status is no guide; rows are the agents whose latest run is active."""
    async with harness_factory(mixed_world()) as h:
        data = (await supervise(h)).data
    assert len(data["agents"]) == 10
    assert {row["status"] for row in data["agents"]} == {"RUNNING"}
    assert data["summary"]["runs"] == {"RUNNING": 10} and data.get("next_cursor") is None


async def test_a_page_ending_inside_an_api_page_resumes_exactly(harness_factory: OpenHarness) -> None:
    """Reference: `limit` is exact and next_cursor resumes right after the last row, even inside an API page."""
    async with harness_factory(mixed_world()) as h:
        everything = [row["agent_id"] for row in (await supervise(h, status="all", limit=100)).data["agents"]]
        active = [row["agent_id"] for row in (await supervise(h)).data["agents"]]
        seen: list[str] = []
        seen_active: list[str] = []
        cursor: str | None = None
        for _ in range(20):
            page = (await supervise(h, status="all", limit=7, **({"cursor": cursor} if cursor else {}))).data
            assert len(page["agents"]) <= 7
            seen += [row["agent_id"] for row in page["agents"]]
            cursor = page.get("next_cursor")
            if cursor is None:
                break
        for _ in range(20):
            page = (await supervise(h, limit=3, **({"cursor": cursor} if cursor else {}))).data
            seen_active += [row["agent_id"] for row in page["agents"]]
            cursor = page.get("next_cursor")
            if cursor is None:
                break
        refused = await h.call(TOOL, {"status": "all", "cursor": "garbage!"})
    assert len(everything) == 30 and seen == everything
    assert seen_active == active
    assert refused.code == "VALIDATION"


async def test_activity_lists_stale_runs_and_jobs_left_running_after_the_end(harness_factory: OpenHarness) -> None:
    """Reference: stale (idle > stale_after_minutes) and unfinished_after_end, from complete replays only."""
    async with harness_factory(mixed_world(9)) as h:
        data = (await with_clock(h, status="all", activity=True)).data
        in_flight = h.sim.max_in_flight
    rows = {row["agent_id"]: row for row in data["agents"]}
    names = {row["agent_id"]: row["name"] for row in data["agents"]}
    summary = data["summary"]
    assert sorted(names[a] for a in summary["stale"]) == ["job 01", "job 04", "job 07"]
    assert sorted(names[a] for a in summary["unfinished_after_end"]) == ["job 02", "job 05", "job 08"]
    assert summary["incomplete"] == []
    assert all(
        row["unfinished_background_tasks"] == 1 for a, row in rows.items() if a in summary["unfinished_after_end"]
    )
    said_nothing_new = [name for name in names.values() if name in ("job 00", "job 03", "job 06")]  # just finished
    assert all(("idle_seconds" in row) != (row["name"] in said_nothing_new) for row in data["agents"])
    assert {rows[a]["evidence"] for a in summary["stale"]} == {"heartbeat"}  # the world clock moved past it
    assert {row.get("evidence") for a, row in rows.items() if a not in summary["stale"]} == {"result", None}
    assert in_flight <= 8


async def test_a_failed_read_marks_only_its_row(harness_factory: OpenHarness) -> None:
    """Reference: a failed read only marks its row with read_error."""
    world = mixed_world(6)
    victim = list(world.agents.values())[3]
    faults = Faults()
    faults.inject("GET", f"/v1/agents/{victim.id}/runs/{victim.runs[-1].id}", Fault.error(404, "run_not_found"))
    async with harness_factory(world, faults=faults) as h:
        data = (await supervise(h, status="all")).data
    errors = {row["agent_id"]: row.get("read_error") for row in data["agents"]}
    assert errors[victim.id] == "NOT_FOUND"
    assert [a for a, e in errors.items() if e] == [victim.id]
    assert data["summary"]["read_errors"] == 1


async def test_usage_adds_charged_cents_per_agent_and_for_the_fleet(harness_factory: OpenHarness) -> None:
    """Reference: usage=true adds each agent's charged_cents and the total; a missing cost stays missing."""
    world = World(ManualClock())
    world.add_agent("paid", created_ago=3600)
    world.add_agent("unpriced", script=RunScript(cost_cents=None), created_ago=3600)
    async with harness_factory(world) as h:
        data = (await supervise(h, status="all", usage=True)).data
    cents = {row["name"]: row.get("charged_cents") for row in data["agents"]}
    assert cents == {"paid": 23.4, "unpriced": None}
    assert data["summary"]["charged_cents"] == 23.4 and data["summary"]["cost_missing"] == 1


async def test_fifty_fleet_rows_with_activity_fit_in_twenty_thousand_bytes(harness_factory: OpenHarness) -> None:
    """Issue 6: a 50-row page with activity fits the result cap (aim: 20,000 bytes); 8 requests at most."""
    world = build_scenario("fleet", ManualClock())
    async with harness_factory(world) as h:
        reply = await with_clock(h, status="all", activity=True, usage=True)
        assert h.sim.max_in_flight <= 8
    assert len(reply.data["agents"]) == 50
    assert reply.size <= 20_000
    assert reply.data["next_cursor"] is not None


@pytest.mark.parametrize("status", ["all", "active"])
async def test_rows_the_cap_cannot_hold_are_left_for_the_next_call_never_skipped(
    harness_factory: OpenHarness, status: str
) -> None:
    """Tool contract 6: a fleet too large for the cap answers the rows that fit, `limit_used` and the cursor
    right after the last of them (never RESULT_TOO_LARGE after all the reading); paging on shows every agent
    once, in order, as one big page would."""
    world = World(ManualClock())
    for index in range(60):
        world.add_agent(f"job {index:02d} " + "é" * 50, script=QUIET, created_ago=7200.0 + index)
    async with harness_factory(world) as h:
        everything = [row["agent_id"] for row in (await supervise(h, status=status, limit=100)).data["agents"]]
    seen: list[str] = []
    async with harness_factory(world, max_result_bytes=4_000) as h:
        cursor: str | None = None
        first: dict[str, Any] = {}
        for _ in range(60):
            page = await h.call(TOOL, {"status": status, "limit": 100, **({"cursor": cursor} if cursor else {})})
            assert not page.is_error, page.data
            assert page.size <= 4_000
            first = first or page.data
            seen += [row["agent_id"] for row in page.data["agents"]]
            cursor = page.data.get("next_cursor")
            if cursor is None:
                break
    assert len(everything) == 60 and seen == everything
    assert first["limit_used"] == len(first["agents"]) < 60


async def test_rows_of_ended_runs_that_say_nothing_new_carry_no_activity(harness_factory: OpenHarness) -> None:
    """Issue 25 (SL-30): a run that ended, its replay ended on its result, with no background task left going and
    no stream error, gets no activity fields (its status says it all); one with a job left running keeps them,
    and so does a running one. 100 such finished rows take about 15 KB (24 KB before)."""
    async with harness_factory(mixed_world(6)) as h:
        data = (await with_clock(h, status="all", activity=True)).data
    rows = {row["name"]: row for row in data["agents"]}
    for name in ("job 00", "job 03"):  # finished, nothing left going
        assert rows[name]["status"] == "FINISHED"
        assert not {"idle_seconds", "last_tool", "evidence"} & rows[name].keys()
    assert rows["job 02"]["unfinished_background_tasks"] == 1 and rows["job 02"]["evidence"] == "result"
    assert "idle_seconds" in rows["job 01"]
