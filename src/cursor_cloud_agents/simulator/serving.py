"""Serving the simulator on 127.0.0.1: `serve()` for tests and simulated mode, `run_simulator()` for `simulate`.

`serve()` runs our own small HTTP server inside the caller's event loop, because socket-level faults
need the socket (see `httpserver.py`). `run_simulator()`, the `simulate` command, needs no such
faults and serves the same Starlette app under uvicorn (so that the client meets real sockets, not a mock transport).
"""

from __future__ import annotations

import logging
import socket
from collections.abc import AsyncGenerator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import anyio
import uvicorn
from anyio.abc import SocketAttribute
from starlette.types import ASGIApp

from .app import build_app
from .clock import RealClock
from .faults import Faults, RequestRecord
from .httpserver import handle_connection
from .replay import build_replay_app, load_trace
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
    async with serve_app(build_app(world, faults), host=host, port=port) as base_url:
        yield RunningSimulator(base_url, world, faults)


@asynccontextmanager
async def serve_replay(directory: Path, *, speed: float | None = None) -> AsyncGenerator[str]:
    """Serve the trace recorded in `directory` on loopback (the scenario loader of tests); yields the base URL.

    Raises:
        TraceError: the folder holds no trace, or a line is not a trace record.
    """
    async with serve_app(build_replay_app(load_trace(directory), speed=speed)) as base_url:
        yield base_url


@asynccontextmanager
async def serve_app(app: ASGIApp, *, host: str = "127.0.0.1", port: int = 0) -> AsyncGenerator[str]:
    """Serve any ASGI `app` of the simulator (the world's, a replay's) until the block exits; yields its base URL."""
    listener = await anyio.create_tcp_listener(local_host=host, local_port=port)
    bound = listener.extra(SocketAttribute.local_port)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(listener.serve, partial(handle_connection, app))
            logger.info("simulator listening on http://%s:%d", host, bound)
            try:
                yield f"http://{host}:{bound}"
            finally:
                group.cancel_scope.cancel()
    finally:
        await listener.aclose()


async def run_simulator(
    *,
    port: int | None = None,
    scenario: str = "demo",
    speed: float = 1.0,
    ready: Callable[[str], None],
    host: str = "127.0.0.1",
    replay: Path | None = None,
) -> None:
    """Serve a scenario on real (optionally accelerated) time under uvicorn until cancelled or interrupted.

    The body of `cursor-cloud-agents simulate [--port N] [--scenario NAME] [--speed X]`:
    `anyio.run(partial(run_simulator, port=args.port, scenario=args.scenario, speed=args.speed, ready=print_url))`.
    `ready` receives the base URL with the port actually bound (any free one when `port` is None or 0)
    once uvicorn accepts connections; clients authenticate with `SIMULATED_API_KEY`, which every
    scenario's world accepts. Raises `ValueError` for an unknown scenario (`scenarios.NAMES`).
    With `replay`, a recorded trace folder is served instead of a scenario (see `replay.py`); `speed`
    then divides the recorded stream timing.
    """
    app = (
        build_replay_app(load_trace(replay), speed=speed)
        if replay is not None
        else build_app(build(scenario, RealClock(speed)))
    )
    server = uvicorn.Server(_uvicorn_config(app, host))
    # Bound here, not by uvicorn, so the real port is known before serving (port 0 = ephemeral).
    with socket.create_server((host, port or 0)) as sock:
        stopped = anyio.Event()
        async with anyio.create_task_group() as group:
            group.start_soon(_serve_uvicorn, server, sock, stopped)
            try:
                await _until_started(server, stopped)
                if server.started:
                    ready(f"http://{host}:{sock.getsockname()[1]}")
                await stopped.wait()  # uvicorn stops by itself on SIGINT/SIGTERM
            finally:
                await _stop_uvicorn(server, stopped)


def _uvicorn_config(app: ASGIApp, host: str) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        lifespan="off",
        log_config=None,  # the CLI has configured logging (with redaction); uvicorn must not replace it
        access_log=False,
        timeout_graceful_shutdown=1,  # open streams never end by themselves
    )


async def _serve_uvicorn(server: uvicorn.Server, sock: socket.socket, stopped: anyio.Event) -> None:
    try:
        # Shielded: uvicorn stops cleanly only through `should_exit`, never by cancellation.
        with anyio.CancelScope(shield=True):
            await server.serve(sockets=[sock])
    finally:
        stopped.set()


async def _until_started(server: uvicorn.Server, stopped: anyio.Event) -> None:
    while not server.started and not stopped.is_set():
        await anyio.sleep(0.005)  # uvicorn offers no start event to wait on


async def _stop_uvicorn(server: uvicorn.Server, stopped: anyio.Event) -> None:
    server.should_exit = True
    with anyio.CancelScope(shield=True), anyio.move_on_after(5):
        await stopped.wait()
