"""`run --models`, `compare GROUP`, `keep GROUP AGENT` (issue 31): the price of N runs asked first, a table."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal import attempts
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, USAGE
from cursor_cloud_agents.terminal.fleet import fleet
from tests.stand_in import make_remote
from tests.terminal.conftest import RigFactory
from tests.terminal.test_actions import order

pytestmark = pytest.mark.anyio

MODELS = ("composer-2", "gpt-5.2", "claude-4.6-opus")


async def test_run_with_models_shows_the_price_of_n_runs_and_a_no_sends_nothing(rig_factory: RigFactory) -> None:
    async with rig_factory(interactive=True, answers=["n"]) as rig:
        command = partial(attempts.run_attempts, order=order(confirmed=False), models=MODELS)
        code = await execute(rig.term, command)
        posts = rig.requests("POST")
    assert code == USAGE and posts == []
    shown = " ".join(rig.errors().split())  # the core's question wraps at the console's width
    assert "3 paid runs" in shown and "composer-2, gpt-5.2, claude-4.6-opus" in shown
    assert "Start 3 paid Cursor Cloud Agents" in shown and "0 of 25 new agents in 24 h" in shown
    assert rig.asked == ["Go ahead? [y/N] "]


async def test_run_with_models_and_yes_starts_one_agent_per_model(rig_factory: RigFactory, tmp_path: Path) -> None:
    async with rig_factory(json_output=True, state_dir=tmp_path) as rig:
        code = await execute(rig.term, partial(attempts.run_attempts, order=order(confirmed=True), models=MODELS))
        posts = [record.json() for record in rig.requests("POST")]
    started = rig.documents()[0]
    assert code == OK and len(posts) == 3 and sorted(p["model"]["id"] for p in posts) == sorted(MODELS)
    assert started["group_id"].startswith("grp-") and [a["model"] for a in started["attempts"]] == list(MODELS)


async def test_run_with_models_over_the_creation_limit_refuses_the_set_before_asking(rig_factory: RigFactory) -> None:
    async with rig_factory(interactive=True, answers=["y"], max_new_agents=2) as rig:
        code = await execute(rig.term, partial(attempts.run_attempts, order=order(confirmed=False), models=MODELS))
        posts = rig.requests("POST")
    assert code != OK and posts == [] and rig.asked == [] and "CURSOR_MCP_MAX_NEW_AGENTS=2" in rig.errors()


async def test_compare_prints_a_table_with_each_change_size_and_keep_archives_the_others(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """H-31: the change column is measured by git in the person's clone (it said "unknown" before)."""
    remote = make_remote(tmp_path / "git")
    world = remote.attach(World(ManualClock()))
    clone = remote.clone("clone")
    async with rig_factory(world, json_output=True, state_dir=tmp_path / "state") as rig:
        await execute(rig.term, partial(attempts.run_attempts, order=order(confirmed=True), models=MODELS))
        group = rig.documents()[0]["group_id"]
        ids = [attempt["agent_id"] for attempt in rig.documents()[0]["attempts"]]
        rig.clock.advance(120)
        world.push_ended()
        rig.term.json = False
        compare = partial(attempts.compare_group, group=group, cwd=clone, env=remote.env)
        assert await execute(rig.term, compare) == OK
        table = rig.text()
        assert await execute(rig.term, partial(attempts.keep_attempt, group=group, agent_id=ids[0])) == OK
    # at 80 columns a long model id folds onto a second line (the agent id stays whole for `keep`)
    assert all(model[:12] in table for model in MODELS) and table.count("FINISHED") == 3, table
    assert all(cost in table for cost in ("$0.06", "$0.34", "$0.52"))  # each model its own cost (K-62)
    assert "unknown" not in table and " files +" in table, table  # each change measured by git (H-31)
    assert [world.agents[agent_id].archived_at is not None for agent_id in ids] == [False, True, True]
    assert f"archived {ids[1]}" in rig.text() and f"archived {ids[2]}" in rig.text()


async def test_run_with_models_refuses_wait_and_watch(rig_factory: RigFactory) -> None:
    async with rig_factory() as rig:
        command = partial(attempts.run_attempts, order=order(confirmed=True), models=MODELS, waits=True)
        assert await execute(rig.term, command) == USAGE
        assert rig.requests() == []


def test_models_take_two_to_eight_names() -> None:
    assert attempts.models_of("a, b") == ("a", "b")
    for wrong in ("a", "a,,b", "a,b,c,d,e,f,g,h,i"):
        with pytest.raises(ValueError, match="2 to 8"):
            attempts.models_of(wrong)


async def test_fleet_shows_the_attempts_of_a_group_together_with_their_place(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    world = World(ManualClock())
    world.add_agent("Unrelated work", script=RunScript(running_seconds=10_000))
    async with rig_factory(world, json_output=True, state_dir=tmp_path) as rig:
        await execute(rig.term, partial(attempts.run_attempts, order=order(confirmed=True), models=MODELS))
        group = rig.documents()[0]["group_id"]
        rig.clock.advance(10)
        assert await rig.drive(fleet(rig.term, interval=10.0)) == OK
    rows = rig.documents()[-1]["agents"]
    placed = [row for row in rows if row.get("group_id") == group]
    assert [row["attempt"] for row in placed] == ["1/3", "2/3", "3/3"]
    first = rows.index(placed[0])
    assert rows[first : first + 3] == placed  # one after the other
