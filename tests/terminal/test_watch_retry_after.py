"""`watch` reconnecting after a refused stream waits what the refusal said (`Retry-After`), in seconds or as a
date, on a 5xx and a 429 alike (issue 23); on the simulator's manual clock."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime

import pytest

from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.watch import watch
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

STREAM = "/v1/agents/*/runs/*/stream"


def _date_in(clock: ManualClock, seconds: float) -> str:
    return format_datetime(datetime.fromtimestamp(clock.now() + seconds, UTC), usegmt=True)


async def test_watch_waits_what_a_refused_stream_asked_before_reconnecting(rig_factory: RigFactory) -> None:
    """F-21 (issue 23): a 503 with `Retry-After: 20`, then a 429 with a date 40 s ahead: each reconnection goes
    only once that time has come (before: the 503 was retried after 1 s, and a 429 ended `watch`)."""
    clock = ManualClock()
    world = World(clock)
    agent = world.add_agent("Fix the parser", script=RunScript(text="Done.", running_seconds=120.0), created_ago=5)
    faults = Faults()
    faults.inject("GET", STREAM, Fault.error(503, "unavailable", headers={"retry-after": "20"}))
    faults.inject("GET", STREAM, Fault.rate_limited(_date_in(clock, 40)))
    async with rig_factory(world, faults=faults) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent.id, run_id=agent.runs[-1].id), step=1.0)
        opened = [record.at for record in rig.requests("GET") if record.path.endswith("/stream")]
        notices = rig.errors()
    assert code == OK
    assert len(opened) == 3
    assert opened[1] - opened[0] >= 20 and opened[2] >= opened[0] + 40
    assert "Cursor asked to wait 20 s" in notices
