"""Serving the simulator on 127.0.0.1 inside the caller's event loop, and the `simulate` command body."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial

import anyio
from anyio.abc import SocketAttribute

from .app import build_app
from .clock import RealClock
from .faults import Faults, RequestRecord
from .httpserver import handle_connection
from .scenarios import build
from .world import World

logger = logging.getLogger("cursor_cloud_agents.simulator")


@dataclass
class RunningSimulator:
    """A simulator being served: where it listens, its world, its faults and what it saw."""

    base_url: str
    world: World
    faults: Faults

    @property
    def requests(self) -> list[RequestRecord]:
        """Every request received so far, in order."""
        return self.faults.requests

    @property
    def max_in_flight(self) -> int:
        """The largest number of requests being handled at the same moment."""
        return self.faults.max_in_flight


@asynccontextmanager
async def serve(
    world: World, *, faults: Faults | None = None, host: str = "127.0.0.1", port: int = 0
) -> AsyncGenerator[RunningSimulator]:
    """Serve `world` over HTTP until the block exits; `port=0` picks a free port.

    The socket is bound before this yields, so the base URL is usable at once. Leaving the block
    closes the listener and every open connection (streams included).
    """
    faults = faults or Faults()
    app = build_app(world, faults)
    listener = await anyio.create_tcp_listener(local_host=host, local_port=port)
    bound = listener.extra(SocketAttribute.local_port)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(listener.serve, partial(handle_connection, app))
            logger.info("simulator listening on http://%s:%d", host, bound)
            try:
                yield RunningSimulator(f"http://{host}:{bound}", world, faults)
            finally:
                group.cancel_scope.cancel()
    finally:
        await listener.aclose()


async def run_simulator(
    *, port: int | None = None, scenario: str = "demo", speed: float = 1.0, ready: Callable[[str], None]
) -> None:
    """Serve a scenario on real (optionally accelerated) time until cancelled.

    The body of `cursor-cloud-agents simulate [--port N] [--scenario NAME] [--speed X]`:
    `anyio.run(partial(run_simulator, port=args.port, scenario=args.scenario, speed=args.speed, ready=print_url))`.
    `ready` receives the base URL once the socket is bound (the CLI prints it). Raises
    `ValueError` for an unknown scenario (`scenarios.NAMES` lists them).
    """
    world = build(scenario, RealClock(speed))
    async with serve(world, port=port or 0) as sim:
        ready(sim.base_url)
        await anyio.sleep_forever()
