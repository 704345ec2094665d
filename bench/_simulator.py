"""The simulator served from a process of its own, so that a benchmark's timings are not shared with it."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Generator
from contextlib import contextmanager
from multiprocessing.connection import Connection

import anyio

from cursor_cloud_agents.simulator import Faults, World, serve

Build = Callable[[], tuple[World, Faults]]
"""Makes the world to serve and its faults (a module-level function or a partial of one: it crosses into
the child process)."""


def _serve_in_child(build: Build, conn: Connection) -> None:
    """The simulator's process: serve the world, send its URL, and its busiest moment when asked."""

    async def main() -> None:
        world, faults = build()
        async with serve(world, faults=faults) as sim:
            conn.send(sim.base_url)
            await anyio.to_thread.run_sync(conn.recv)
            conn.send(faults.max_in_flight)

    anyio.run(main)


@contextmanager
def simulator_process(build: Build) -> Generator[tuple[str, Connection], None, None]:
    """The base URL of the served world, and the line to ask it for `max_in_flight`."""
    ours, theirs = multiprocessing.Pipe()
    child = multiprocessing.Process(target=_serve_in_child, args=(build, theirs), daemon=True)
    child.start()
    try:
        yield ours.recv(), ours
    finally:
        child.terminate()
        child.join()


def max_in_flight(conn: Connection) -> int:
    """The most requests the simulator held at once (asked once, at the end)."""
    conn.send("stats")
    return conn.recv()
