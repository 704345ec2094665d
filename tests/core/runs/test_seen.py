"""Ended unread (issue 24): the store remembers which ended runs a tool answer or a command has shown.

L-13: an ended run answered by cursor_get_run or cursor_wait is written down as seen (a running one is
not), and `seen.unread` leaves the seen ones out, for the status line and every face that counts unread.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core import seen
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


async def test_an_ended_run_shown_by_a_tool_is_no_longer_unread_and_a_running_one_is_not_marked(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """L-13: cursor_get_run of an ended run and cursor_wait over it mark it seen; the running run stays unread."""
    world = World(ManualClock())
    ended = world.add_agent("Done already", created_ago=3600)
    running = world.add_agent("Still going", script=RunScript(running_seconds=3600), created_ago=60)
    ended_run, running_run = ended.runs[-1].id, running.runs[-1].id
    async with harness_factory(world, state_dir=tmp_path) as h:
        await h.call("cursor_get_run", {"agent_id": running.id, "run_id": running_run})
        before = await seen.unread(Store(tmp_path), [ended_run, running_run], h.clock.now())
        await h.call("cursor_get_run", {"agent_id": ended.id, "run_id": ended_run})
        after = await seen.unread(Store(tmp_path), [ended_run, running_run], h.clock.now())
    assert before == [ended_run, running_run]
    assert after == [running_run]


async def test_marking_the_same_run_twice_writes_one_act(tmp_path: Path) -> None:
    """L-13: a run shown again does not grow the store."""
    store = Store(tmp_path)
    await seen.mark_seen(store, ["run-a", "run-a"], 1000.0)
    await seen.mark_seen(store, ["run-a"], 1001.0)
    assert len(list((await Store(tmp_path).read(1002.0)).of("seen"))) == 1
