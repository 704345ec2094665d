"""The contract suite's fixtures: the real `CursorClient` against `serve(World(ManualClock()))` on loopback.

The client's sleeps are recorded, never slept; its monotonic clock and wall clock are the world's
manual clock, so "now" is the same instant on both sides and nothing waits in real time.
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import anyio
import httpx2
import pytest

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Faults, ManualClock, Quirks, RunningSimulator, World, serve


@dataclass
class Sleeps:
    """The client's injected sleep: records each wait and returns at once."""

    waits: list[float] = field(default_factory=list[float])

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        await anyio.lowlevel.checkpoint()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def quirks() -> Quirks:
    return Quirks()


@pytest.fixture
def world(clock: ManualClock, quirks: Quirks) -> World:
    return World(clock, quirks=quirks)


@pytest.fixture
def faults() -> Faults:
    return Faults()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
async def sim(world: World, faults: Faults) -> AsyncIterator[RunningSimulator]:
    with anyio.fail_after(10):
        async with serve(world, faults=faults) as running:
            yield running


# Building a default TLS context costs about 0.1 s per client; the suite shares one (loopback is plain http).
_TLS = ssl.create_default_context()


def make_client(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps, key: str = SIMULATED_API_KEY
) -> CursorClient:
    """A client of `sim` with no real waits (a high limiter rate, recorded sleeps, the world's clock)."""
    return CursorClient(
        sim.base_url,
        key,
        transport=httpx2.AsyncHTTPTransport(verify=_TLS),
        artifact_transport=httpx2.AsyncHTTPTransport(verify=_TLS),
        allow_loopback_artifacts=True,
        requests_per_second=1000.0,
        clock=clock.now,
        wall_clock=clock.now,
        sleep=sleeps,
    )


@pytest.fixture
async def client(sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps) -> AsyncIterator[CursorClient]:
    async with make_client(sim, clock, sleeps) as api:
        yield api
