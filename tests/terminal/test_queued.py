"""Issue 46, the terminal's promises about the follow-up queue, the model list and groups.

`wait` and `events --until` send a follow-up queued for the run they waited for (README: they keep the queue);
`followup AGENT --drop` takes one out; `models` lists the ids `--model` takes; `wait grp-…` waits on a group's
attempts; `keep` takes an attempt's number or id prefix. Against the simulator on its manual clock.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal import attempts, paid
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.events import events
from cursor_cloud_agents.terminal.exits import OK, USAGE, UsageError
from cursor_cloud_agents.terminal.models import models
from cursor_cloud_agents.terminal.picking import attempt_agent
from cursor_cloud_agents.terminal.queued import drop_followup
from cursor_cloud_agents.terminal.wait import Target, wait
from tests.terminal.conftest import Rig, RigFactory
from tests.terminal.test_actions import order

pytestmark = pytest.mark.anyio


def busy() -> tuple[World, str]:
    world = World(ManualClock())
    agent = world.add_agent("Busy", script=RunScript(running_seconds=60, result="Done."))
    return world, agent.id


def follow_up_posts(rig: Rig, agent_id: str) -> int:
    return len([r for r in rig.requests("POST") if r.path == f"/v1/agents/{agent_id}/runs"])


async def queue_one(rig: Rig, agent_id: str) -> None:
    queued = partial(paid.followup, agent_id=agent_id, prompt="Then add docs", confirmed=True, queue=True)
    assert await execute(rig.term, queued) == OK
    assert follow_up_posts(rig, agent_id) == 0


async def test_wait_sends_the_follow_up_queued_for_the_run_it_waited_for_k_10(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """K-10: `followup --queue` on a busy agent, then `wait AGENT`: when the run ends the wait ends, and the queued
    follow-up has been sent by then (exactly one POST), as the README says `wait` does."""
    world, agent_id = busy()
    async with rig_factory(world, state_dir=tmp_path) as rig:
        await queue_one(rig, agent_id)
        command = partial(wait, targets=[Target(agent_id)], active=False, until="any", timeout=None)
        code = await rig.drive(execute(rig.term, command))
        sent = follow_up_posts(rig, agent_id)
    assert code == OK and sent == 1


async def test_events_until_any_sends_the_follow_up_and_tells_it_k_11(rig_factory: RigFactory, tmp_path: Path) -> None:
    """K-11: `events AGENT --until any` ends with the run, the queued follow-up sent and told as a JSON line."""
    world, agent_id = busy()
    async with rig_factory(world, state_dir=tmp_path, json_output=True) as rig:
        await queue_one(rig, agent_id)
        rig.written.clear()
        command = partial(events, agent_ids=[agent_id], name=None, until="any", notify=False)
        code = await rig.drive(execute(rig.term, command))
        sent = follow_up_posts(rig, agent_id)
        told = [document["event"] for document in rig.documents()]
    assert code == OK and sent == 1 and "followup_sent" in told


async def test_followup_drop_takes_the_queued_one_out_and_nothing_is_sent_k_12(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """K-12: `followup AGENT --drop` takes the follow-up queued for AGENT out; when the run ends nothing is sent;
    dropping again is a usage error that says nothing was queued."""
    world, agent_id = busy()
    async with rig_factory(world, state_dir=tmp_path) as rig:
        await queue_one(rig, agent_id)
        dropped = await execute(rig.term, partial(drop_followup, agent_id=agent_id))
        command = partial(wait, targets=[Target(agent_id)], active=False, until="any", timeout=None)
        await rig.drive(execute(rig.term, command))
        again = await execute(rig.term, partial(drop_followup, agent_id=agent_id))
        sent = follow_up_posts(rig, agent_id)
    assert (dropped, again, sent) == (OK, USAGE, 0)
    assert "dropped" in rig.text() and "no follow-up is queued" in rig.errors()


async def test_models_lists_the_ids_run_takes_k_13(rig_factory: RigFactory) -> None:
    """K-13: `models` prints one model id first on each line (aliases beside), `--json` the same as a document."""
    async with rig_factory() as rig:
        assert await execute(rig.term, models) == OK
        lines = rig.text().splitlines()
        rig.term.json = True
        assert await execute(rig.term, models) == OK
        listed = rig.documents()[0]["models"]
    ids = [model["id"] for model in listed]
    assert "composer-2" in ids and [line.split()[0] for line in lines] == ids


async def test_wait_takes_a_group_and_waits_on_its_attempts_k_14(rig_factory: RigFactory, tmp_path: Path) -> None:
    """K-14: `wait grp-… --all` (as cursor_wait takes a group) waits on every attempt of the group."""
    async with rig_factory(json_output=True, state_dir=tmp_path) as rig:
        start = partial(attempts.run_attempts, order=order(confirmed=True), models=("composer-2", "gpt-5.2"))
        assert await execute(rig.term, start) == OK
        group = rig.documents()[0]["group_id"]
        made = {attempt["agent_id"] for attempt in rig.documents()[0]["attempts"]}
        command = partial(wait, targets=[Target(group)], active=False, until="all", timeout=None)
        code = await rig.drive(execute(rig.term, command))
        report = rig.documents()[-1]
    assert code == OK and {run["agent_id"] for run in report["runs"]} == made


def test_keep_takes_an_attempts_number_or_an_unambiguous_prefix_k_15() -> None:
    """K-15: an attempt is named by its number in `compare`, its id, or 4+ characters of its id (with or
    without `bc-`); a prefix of several, a number not made, or too short a prefix is refused, listing them."""
    made = [(1, "bc-a8e0a392-b915-4eeb-9426-df0abc81bd31"), (2, "bc-a8e0ffff-1d08-487c-94e2-655798e3a0f3")]
    assert attempt_agent("2", made) == made[1][1]
    assert attempt_agent("bc-a8e0a", made) == made[0][1] and attempt_agent("A8E0F", made) == made[1][1]
    assert attempt_agent(made[0][1].upper(), made) == made[0][1]
    for wrong, said in (
        ("a8e", "too short"),
        ("a8e0a392-x", "no attempt"),
        ("bc-a8e", "too short"),
        ("3", "no attempt"),
    ):
        with pytest.raises(UsageError, match=said):
            attempt_agent(wrong, made)
    with pytest.raises(UsageError, match="several"):
        attempt_agent("a8e0", made)
