"""`--simulated`: an in-process simulator of the API, for trying every command without a key or a bill.

Opened as the server's simulated mode opens it (`embedded.simulated_client`), with the scenario and
speed of `simulate`. The session's clock is the simulated world's, so ages, idle times and elapsed
times agree with the simulated runs even at `--speed 20`. Its runs push their branches to the stand-in
remote in the simulator's folder (`embedded.simulator_folder`), the one `simulate` prints.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

from cursor_cloud_agents.embedded import simulated_client, simulator_folder, stand_in_git_config
from cursor_cloud_agents.terminal.term import Session


@asynccontextmanager
async def simulated_session(scenario: str, speed: float) -> AsyncGenerator[Session, None]:
    """A session against a fresh simulated world of `scenario`, its time running `speed` times faster."""
    # Imported here so that the real mode never pays for the simulator (Starlette, uvicorn).
    from cursor_cloud_agents.simulator import RealClock

    clock = RealClock(speed)

    async def sleep(seconds: float) -> None:
        await clock.wait(clock.now() + seconds)

    folder = simulator_folder()
    async with simulated_client(scenario=scenario, clock=clock, folder=folder) as api:
        yield Session(
            api,
            now=clock.now,
            sleep=sleep,
            git_config=stand_in_git_config(folder),
            git_cache=folder / "cache",
            github_url=f"{api.base_url}/github",  # the simulator's GitHub stand-in (docs/pr-loop.md §8)
        )
