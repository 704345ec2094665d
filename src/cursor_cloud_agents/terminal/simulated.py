"""`--simulated`: an in-process simulator of the API, for trying every command without a key or a bill.

Built as the CLI's simulated mode builds it (`cli._open_simulated_client`), with the scenario and
speed of `simulate`. The session's clock is the simulated world's, so ages, idle times and elapsed
times agree with the simulated runs even at `--speed 20`.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.terminal.term import Session


@asynccontextmanager
async def simulated_session(scenario: str, speed: float) -> AsyncGenerator[Session, None]:
    """A session against a fresh simulated world of `scenario`, its time running `speed` times faster."""
    # Imported here so that the real mode never pays for the simulator (Starlette, uvicorn).
    from cursor_cloud_agents.simulator import SIMULATED_API_KEY, RealClock, build_scenario, serve

    clock = RealClock(speed)
    world = build_scenario(scenario, clock)

    async def sleep(seconds: float) -> None:
        await clock.wait(clock.now() + seconds)

    async with (
        serve(world) as sim,
        CursorClient(sim.base_url, SIMULATED_API_KEY, allow_loopback_artifacts=True, wall_clock=clock.now) as api,
    ):
        yield Session(api, now=clock.now, sleep=sleep)
