"""`events` (issue 32): one JSON line per change, `--until`, `--notify` once per ended run.

Against the simulator on its manual clock: the command's pauses move it, so runs end in script order.
"""

from __future__ import annotations

from functools import partial

import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.events import events
from cursor_cloud_agents.terminal.exits import OK, USAGE
from cursor_cloud_agents.terminal.notify import Notifier
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio


def bells() -> tuple[Notifier, list[str]]:
    """A notifier on a machine without a notification command: each notification rings the bell, recorded."""
    rung: list[str] = []
    return Notifier(which=lambda _name: None, bell=lambda: rung.append("\a")), rung


async def test_until_all_prints_one_ended_line_per_run_with_its_elapsed_time_and_notifies_once_each(
    rig_factory: RigFactory,
) -> None:
    """Issue 32: two agents followed until all ended: exactly two `ended` lines, each stamped, with
    `FINISHED after …`; `--notify` rings once per ended run; exit 0."""
    world = World(ManualClock())
    first = world.add_agent("One", script=RunScript(running_seconds=20))
    second = world.add_agent("Two", script=RunScript(running_seconds=50))
    notifier, rung = bells()
    async with rig_factory(world) as rig:
        command = partial(
            events, agent_ids=[first.id, second.id], name=None, until="all", notify=True, notifier=notifier
        )
        code = await rig.drive(execute(rig.term, command), step=1.0)
        lines = rig.documents()
    assert code == OK
    assert [(line["event"], line["agent_id"]) for line in lines] == [("ended", first.id), ("ended", second.id)]
    assert all(line["message"].startswith("FINISHED after") and line["at"].endswith("Z") for line in lines)
    assert rung == ["\a", "\a"]


async def test_ids_and_a_name_together_are_refused_before_anything_is_read(rig_factory: RigFactory) -> None:
    """Issue 32: a group is a name or ids, not both: a usage error, no request."""
    async with rig_factory() as rig:
        command = partial(
            events, agent_ids=["bc-00000000-0000-4000-8000-000000000000"], name="x", until=None, notify=False
        )
        code = await execute(rig.term, command)
        sent = rig.requests()
    assert code == USAGE and sent == []
