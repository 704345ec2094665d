"""Fleet events (issue 32): each change told once, an end within a second of its `result`, through a dropped
connection.

Against the simulator on its manual clock, which only the test moves: the follower's pauses wait for it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.api import Deadline
from cursor_cloud_agents.core.runs.fleet_events import Event, FleetFollower, Followed, follow_events
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.timing import EVENTS_LOOK_SECONDS, CallTime
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World, serve
from tests.core.rig import process

pytestmark = pytest.mark.anyio

STREAM = "/v1/agents/*/runs/*/stream"


async def following(
    state: CoreState, target: Followed, told: list[Event], until: str | None, said: list[str] | None = None
) -> FleetFollower:
    async def emit(event: Event) -> None:
        told.append(event)

    lines: list[str] = said if said is not None else []
    time = CallTime(Deadline(math.inf), state.clock)
    return await follow_events(state, target, emit, time, until=until, keep_queue=False, say=lines.append)


async def time_passes(clock: ManualClock, done: Callable[[], bool]) -> None:
    """Move the clock a second at a time, letting everything else run between, until `done` (bounded)."""
    with anyio.fail_after(10):
        while not done():
            clock.advance(1.0)
            for _ in range(100):
                await anyio.lowlevel.checkpoint()


async def test_an_end_is_told_once_within_a_second_with_its_status_elapsed_branch_and_pr_d_65(tmp_path: Path) -> None:
    """D-65 (issue 32): two agents followed by id; the clock moved to one run's end (no look due for 10 s): its
    `ended` line comes at once, with `FINISHED after 1m`, its branch and PR; `--until any` then stops."""
    clock = ManualClock()
    world = World(clock)
    ending = world.add_agent("Ends", script=RunScript(running_seconds=60), auto_create_pr=True)
    going = world.add_agent("Goes on", script=RunScript(running_seconds=3600))
    told: list[Event] = []
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        answer: list[FleetFollower] = []
        async with anyio.create_task_group() as group:

            async def run() -> None:
                answer.append(await following(state, Followed((ending.id, going.id)), told, "any"))

            group.start_soon(run)
            with anyio.fail_after(5):
                while sim.faults.count("GET", STREAM) < 2:
                    await anyio.lowlevel.checkpoint()
            clock.set(ending.runs[0].ended_at)
            with anyio.fail_after(1):
                while not answer:
                    await anyio.lowlevel.checkpoint()
    assert clock.now() == ending.runs[0].ended_at, "told by the stream, not by a look"
    assert [event["event"] for event in told] == ["ended"]
    ended = told[0]
    assert (
        ended["agent_id"] == ending.id
        and ended["status"] == "FINISHED"
        and ended["message"].startswith("FINISHED after 1m")
    )
    assert ended["elapsed_seconds"] >= 60 and ended["branches"][0]["branch"] and ended["pr_url"].startswith("https://")


async def test_events_go_on_through_a_dropped_connection_and_miss_nothing_d_66(tmp_path: Path) -> None:
    """D-66: every request fails (connection reset) while the run ends; the failure is said, the follower
        looks again after its pauses, and the end is told once the API answers (heard again on the stream, or read
    by a look), once."""
    clock = ManualClock()
    world = World(clock)
    agent = world.add_agent("Ends", script=RunScript(running_seconds=30))
    faults = Faults()
    told: list[Event] = []
    said: list[str] = []
    async with serve(world, faults=faults) as sim, process(sim, clock, tmp_path) as state:
        answer: list[FleetFollower] = []
        async with anyio.create_task_group() as group:

            async def run() -> None:
                answer.append(await following(state, Followed((agent.id,)), told, "all", said))

            group.start_soon(run)
            with anyio.fail_after(5):
                while sim.faults.count("GET", STREAM) < 1:
                    await anyio.lowlevel.checkpoint()
            # The connection drops: the stream is cut, and every read fails until the rule is dropped.
            rule = faults.inject("GET", "/v1/agents/*", Fault.reset(), times=None)
            cut = faults.inject("GET", STREAM, Fault.reset(), times=None)
            clock.set(agent.runs[0].ended_at)
            await time_passes(clock, lambda: bool(said))
            faults.rules.remove(rule)
            faults.rules.remove(cut)
            await time_passes(clock, lambda: bool(answer))
    assert [event["event"] for event in told] == ["ended"] and told[0]["run_id"] == agent.runs[0].id
    assert "could not read the agents" in said[0] and "trying again in 1 s" in said[0]


async def test_the_fleet_tells_a_new_run_started_and_stays_quiet_on_what_was_going_before_d_67(
    tmp_path: Path,
) -> None:
    """D-67: following the fleet, an agent created meanwhile is `started` at the next look; nothing is told
    of what was going before."""
    clock = ManualClock()
    world = World(clock)
    world.add_agent("Before", script=RunScript(running_seconds=3600))
    told: list[Any] = []
    later = None
    async with serve(world) as sim, process(sim, clock, tmp_path) as state:
        async with anyio.create_task_group() as group:

            async def run() -> None:
                await following(state, Followed(), told, None)

            group.start_soon(run)
            with anyio.fail_after(5):
                while sim.faults.count("GET", STREAM) < 1:
                    await anyio.lowlevel.checkpoint()
            later = world.add_agent("Later", script=RunScript(running_seconds=3600))
            clock.advance(EVENTS_LOOK_SECONDS)
            with anyio.fail_after(5):
                while not told:
                    await anyio.lowlevel.checkpoint()
            group.cancel_scope.cancel()
    assert later is not None
    assert told == [{"event": "started", "agent_id": later.id, "run_id": later.runs[0].id, "status": "RUNNING"}]
