"""`followup --queue` (issue 32): a busy agent's follow-up waits in the queue and is sent once its run ends."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from cursor_cloud_agents.core import queue
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal import paid
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.paid import command_state
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio


async def test_followup_queue_on_a_busy_agent_answers_queued_and_sends_nothing_yet(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """Issue 32: `followup --queue --yes` on a running agent: `queued` with its id and the run it waits for,
    nothing POSTed; the next pass after the run ended (another process: the store on disk) sends it once."""
    world = World(ManualClock())
    agent = world.add_agent("Busy", script=RunScript(running_seconds=60))
    async with rig_factory(world, json_output=True, state_dir=tmp_path) as rig:
        command = partial(paid.followup, agent_id=agent.id, prompt="Then the docs", confirmed=True, queue=True)
        code = await execute(rig.term, command)
        answered = rig.documents()
        before = len(rig.requests("POST"))
        rig.clock.set(agent.runs[0].ended_at)
        news = await queue.send_due(command_state(rig.term, rig.session))
        after = len(rig.requests("POST"))
    assert code == OK and answered[0]["queued"] is True and answered[0]["after_run_id"] == agent.runs[0].id
    assert before == 0 and [item.outcome for item in news] == ["sent"] and after == 1
