"""`--simulated`: a simulator of the API, for trying every command without a key or a bill.

With a state directory, every `--simulated` command reaches the person's lasting world (`lasting.py`): one
background simulator, started by the first command that opens the API and reused by the next, so that an
agent started by `run` is there for `watch`, `diff`, `checkout` and `apply`. Its paid acts are counted under
its own origin (`Session.base_url`, core/spend/origins.py), never the real API's. Without a state directory
(`CURSOR_MCP_STATE_DIR=memory`) the world is served inside the command, as the server's simulated mode opens it
(`embedded.simulated_client`), and ends with it.

The session's clock is the simulated world's, so ages, idle times and elapsed times agree with the simulated
runs even at `--speed 20`. Its runs push their branches to the stand-in remote in the simulator's folder
(`embedded.simulator_folder`), the one `simulate` prints.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import anyio

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.embedded import simulated_client, simulator_folder, stand_in_git_config
from cursor_cloud_agents.terminal import lasting
from cursor_cloud_agents.terminal.exits import UsageError
from cursor_cloud_agents.terminal.term import OpenSession, Session

DEFAULT_SCENARIO = "demo"
DEFAULT_SPEED = 1.0


def simulated_opener(
    settings: Settings, scenario: str | None, speed: float | None, env: Mapping[str, str]
) -> OpenSession:
    """How a `--simulated` command opens its session: the lasting world (reached when the command first opens
    the API, so a command refused before that starts nothing), or, without a state directory, a world of its own."""
    if settings.state_dir is None:
        return partial(simulated_session, scenario or DEFAULT_SCENARIO, speed or DEFAULT_SPEED)
    return partial(lasting_session, settings.state_dir, scenario, speed, env)


@asynccontextmanager
async def lasting_session(
    state_dir: Path, scenario: str | None, speed: float | None, env: Mapping[str, str]
) -> AsyncGenerator[Session, None]:
    """A session against the person's lasting world (started if none is alive), on its clock.

    Raises:
        UsageError: the world cannot be started, or the running one is not the one asked.
    """
    from cursor_cloud_agents.api import CursorClient

    try:
        world = await anyio.to_thread.run_sync(lasting.reach, state_dir, scenario, speed, env)
    except (lasting.WorldProblem, OSError) as problem:
        raise UsageError(f"{problem} (CURSOR_MCP_STATE_DIR=memory gives each command a world of its own)") from None

    async def sleep(seconds: float) -> None:
        await anyio.sleep(max(0.0, seconds) / world.speed)

    folder = simulator_folder()
    async with CursorClient(world.base_url, world.key, allow_loopback_artifacts=True, wall_clock=world.now) as api:
        yield Session(
            api,
            now=world.now,
            sleep=sleep,
            git_config=stand_in_git_config(folder),
            git_cache=folder / "cache",
            base_url=world.base_url,
            github_url=f"{world.base_url}/github",  # the lasting world's GitHub stand-in (docs/pr-loop.md §8)
        )


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
