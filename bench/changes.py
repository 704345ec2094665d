"""Bench: reading an agent's change (issue 30), against the simulator's stand-in remote and real git.

The `changes` world pushes its eight named changes once (timed), then for each the core reads the change
into a fresh cache (ls-remote, fetch, the files), and `cursor_get_changes` answers its first page and, for
the 3.6 MB diff, a later page (read from git again up to its window: issue 42). Prints each time in milliseconds.

Run: `.venv/bin/python bench/changes.py`
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.stand_in import agent_named, changes_world, make_remote, target_of
from tests.tool_harness import open_harness

from cursor_cloud_agents.core.review.changes import read_change
from cursor_cloud_agents.simulator import CHANGES


def _ms(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:7.0f} ms"


async def main() -> None:
    with tempfile.TemporaryDirectory() as place:
        remote = make_remote(Path(place))
        started = time.perf_counter()
        world = changes_world(remote)
        print(f"push the {len(CHANGES)} changes (one git fast-import each): {_ms(started)}")
        for name in CHANGES:
            started = time.perf_counter()
            change = await read_change(remote.places(cache=f"cache-{name}"), target_of(agent_named(world, name)))
            size = change.size
            print(f"read {name:<18} ({size.files:>2} files, +{size.additions}): {_ms(started)}")
        async with open_harness(world, git_places=remote.places()) as h:
            agent_id = agent_named(world, "large").id
            started = time.perf_counter()
            first = await h.call("cursor_get_changes", {"agent_id": agent_id})
            print(f"cursor_get_changes, 3.6 MB diff, first page ({first.size} bytes): {_ms(started)}")
            started = time.perf_counter()
            later = await h.call("cursor_get_changes", {"agent_id": agent_id, "offset": 2_000_000})
            print(f"cursor_get_changes, a later page ({later.size} bytes):            {_ms(started)}")
    print(f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


if __name__ == "__main__":
    anyio.run(main)
