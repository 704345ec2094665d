"""Ends heard on the runs' streams (issue 32): a wait told within a second of a run's `result`.

Against the simulator on its manual clock, which only the test moves: the wait's cadence is set to an hour,
so only a stream can tell it that a run ended; the test moves the clock to the end of one run and the wait
must answer with the clock still there, within 1 s of real time.
"""

from __future__ import annotations

import math
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio
import pytest

from cursor_cloud_agents.api import CursorClient, Deadline
from cursor_cloud_agents.core.runs.watch import Watched, watch
from cursor_cloud_agents.core.timing import STREAM_RESUMES, WAIT_POLL_SECONDS, CallTime, Clock
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    Fault,
    Faults,
    ManualClock,
    RunningSimulator,
    RunScript,
    World,
    serve,
)
from cursor_cloud_agents.simulator.records import RunRecord as Run

pytestmark = pytest.mark.anyio

STREAM = "/v1/agents/*/runs/*/stream"
HOUR = 3600.0


def runs_of(world: World, *seconds: float) -> tuple[list[Watched], list[Run]]:
    """One running agent per duration, and the rows that wait on their runs."""
    agents = [world.add_agent(f"Task of {length:g} s", script=_script(length)) for length in seconds]
    return [Watched(agent.id, agent.runs[-1].id) for agent in agents], [agent.runs[-1] for agent in agents]


def _script(seconds: float) -> RunScript:
    return RunScript(running_seconds=seconds, result="Done.")


@asynccontextmanager
async def simulator(
    world: World, clock: ManualClock, faults: Faults | None = None
) -> AsyncGenerator[tuple[RunningSimulator, CursorClient]]:

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    async with serve(world, faults=faults) as sim:
        api = CursorClient(sim.base_url, SIMULATED_API_KEY, clock=clock.now, wall_clock=clock.now, sleep=advance)
        async with api:
            yield sim, api


def waiting_on(clock: ManualClock) -> CallTime:
    """A wait's time whose pauses wait for the test to move the clock (they never move it themselves)."""

    async def sleep(seconds: float) -> None:
        until = clock.now() + seconds
        while clock.now() < until:
            await clock.wait(until)

    return CallTime(Deadline(math.inf), Clock(now=clock.now, sleep=sleep))


async def until_streams_opened(sim: RunningSimulator, count: int) -> None:
    with anyio.fail_after(5):
        while sim.faults.count("GET", STREAM) < count:
            await anyio.lowlevel.checkpoint()


async def ignore(_message: str) -> None:
    return None


@pytest.mark.parametrize("followed", [1, 8, 20])
async def test_an_end_is_seen_within_a_second_of_its_result_whatever_the_runs_followed_s_63(followed: int) -> None:
    """S-63: with 1, 8 or 20 runs followed and no re-read due for an hour, the first run's `result` ends the
    wait with the clock still at that end, within 1 s of real time: the stream told it. (About 1 s with 20
    runs: 20 streams and their reads over loopback.)"""
    clock = ManualClock()
    world = World(clock)
    rows, runs = runs_of(world, *(60 + 10 * index for index in range(followed)))
    async with simulator(world, clock) as (sim, api):
        answer: list[bool] = []
        async with anyio.create_task_group() as group:

            async def wait() -> None:
                answer.append(await watch(api, rows, "any", waiting_on(clock), HOUR, ignore, every=HOUR))

            group.start_soon(wait)
            await until_streams_opened(sim, followed)
            clock.set(runs[0].ended_at)
            with anyio.fail_after(1):
                while not answer:
                    await anyio.lowlevel.checkpoint()
    assert answer == [True] and clock.now() == runs[0].ended_at
    assert [row.ended for row in rows] == [True] + [False] * (followed - 1)
    assert rows[0].run is not None and rows[0].run.status == "FINISHED"


async def test_a_stream_that_keeps_breaking_falls_back_to_reading_s_64() -> None:
    """S-64: every stream connection is cut mid-body: each is resumed STREAM_RESUMES times, then given up, and
    the run's end is still seen by the re-reads within WAIT_POLL_SECONDS."""
    clock = ManualClock()
    world = World(clock)
    faults = Faults()
    faults.inject("GET", STREAM, Fault.cut_mid_body(40), times=None)
    rows, runs = runs_of(world, 30, 45)
    async with simulator(world, clock, faults) as (sim, api):
        answer: list[bool] = []
        async with anyio.create_task_group() as group:

            async def wait() -> None:
                answer.append(await watch(api, rows, "any", waiting_on(clock), HOUR, ignore))

            group.start_soon(wait)
            await until_streams_opened(sim, 2 * (STREAM_RESUMES + 1))
            with anyio.fail_after(10):
                while not answer:
                    clock.advance(0.5)
                    for _ in range(50):
                        await anyio.lowlevel.checkpoint()
    assert answer == [True] and rows[0].ended and not rows[1].ended
    assert clock.now() - runs[0].ended_at <= WAIT_POLL_SECONDS + 0.5
    assert sim.faults.count("GET", STREAM) == 2 * (STREAM_RESUMES + 1), "each stream given up after its resumes"
