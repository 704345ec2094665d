"""Attempts side by side, and the best one kept (issue 31): cursor_compare, cursor_keep, cursor_wait on a group."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.core.review.changes import GitPlaces
from cursor_cloud_agents.simulator import ManualClock, RunScript, StandInRemote, World
from tests.core.attempts.test_attempts import MODELS, TASK
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

FINISHED = RunScript(running_seconds=30, result="Done: parser 2.1x faster.\nDetails below\nmore\nand more")
FAILED = RunScript(outcome="ERROR", running_seconds=30)
RUNNING = RunScript(running_seconds=10_000)


def git_world(tmp_path: Path) -> tuple[World, dict[str, Any]]:
    """A world whose finished runs push real branches, and the git places that read them."""
    world = World(ManualClock())
    remote = StandInRemote(tmp_path / "remote")
    world.remote = remote
    env = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    places = GitPlaces(env=env, cache_dir=tmp_path / "cache", config=(remote.rewrite(),))
    return world, {"git_places": places}


async def made_set(h: Harness, *scripts: RunScript) -> dict[str, Any]:
    for script in scripts:
        h.world.queue_script(script)
    reply = await h.call("cursor_create_agent", TASK | {"attempts": [{"model_id": m} for m in MODELS[: len(scripts)]]})
    assert not reply.is_error, reply.data
    return reply.data


def outcome_of(h: Harness, agent_id: str) -> str:
    """What the world scripted for this agent's run (the POSTs of a set leave together, in any order)."""
    run = h.world.agents[agent_id].runs[0]
    return "RUNNING" if run.script.running_seconds > 1000 else run.script.outcome


async def test_compare_shows_finished_failed_and_running_attempts_side_by_side(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-62 (issue 31 acceptance): one row per attempt with status, duration, cost and change size; the
    running ones listed; a result's first lines only, cleaned."""
    world, options = git_world(tmp_path)
    async with harness_factory(world, server_options=options) as h:
        created = await made_set(h, FINISHED, FAILED, RUNNING)
        h.clock.advance(120)
        reply = await h.call("cursor_compare", {"group_id": created["group_id"]})
        expected = {row["agent_id"]: outcome_of(h, row["agent_id"]) for row in created["attempts"]}
    assert not reply.is_error, reply.data
    rows = reply.data["attempts"]
    assert [row["model"] for row in rows] == MODELS and len(rows) == 3
    assert {row["agent_id"]: row["status"] for row in rows} == expected
    by_status = {row["status"]: row for row in rows}
    finished = by_status["FINISHED"]
    assert finished["cost_cents"] > 0 and finished["duration_seconds"] > 0
    assert isinstance(finished["change"], dict), finished["change"]
    assert set(finished["change"]) == {"files", "additions", "deletions"} and finished["change"]["files"] > 0
    assert finished["result_head"] == "Done: parser 2.1x faster.\nDetails below\nmore"
    running = by_status["RUNNING"]
    assert running["running"] is True and "change" not in running and "still going" in running["change_note"]
    assert reply.data["running"] == [by_status["RUNNING"]["agent_id"]]
    assert "cursor_wait" in reply.data["next"]


async def test_without_git_the_change_column_says_unknown_and_why(harness: Harness) -> None:
    created = await made_set(harness, FINISHED, FINISHED)
    harness.clock.advance(120)
    reply = await harness.call("cursor_compare", {"group_id": created["group_id"]})
    assert all("change" not in row and row["change_note"].startswith("unknown: ") for row in reply.data["attempts"])


async def test_eight_attempts_with_long_hostile_results_fit_under_the_cap(harness: Harness) -> None:
    """Each row is bounded: eight attempts whose results are 200 KB of wide characters stay under the cap."""
    huge = RunScript(running_seconds=5, result=("\u202e界" * 100 + "\n") * 1000)
    for _ in range(8):
        harness.world.queue_script(huge)
    task = TASK | {"attempts": [{"model_id": "gpt-5.2"}] * 8}
    created = await harness.call("cursor_create_agent", task)
    harness.clock.advance(60)
    reply = await harness.call("cursor_compare", {"group_id": created.data["group_id"]})
    assert not reply.is_error and len(reply.data["attempts"]) == 8
    assert reply.size < 38_000 and "\u202e" not in json.dumps(reply.data, ensure_ascii=False)


async def test_an_unknown_group_is_not_found(harness: Harness) -> None:
    reply = await harness.call("cursor_compare", {"group_id": "grp-00000000-0000-4000-8000-000000000000"})
    assert reply.code == "NOT_FOUND" and "kept a week" in reply.data["message"]


async def test_keep_archives_every_attempt_but_the_one_kept(harness: Harness) -> None:
    """Issue 31 acceptance: cursor_keep leaves one attempt unarchived and says what it archived."""
    created = await made_set(harness, FINISHED, FINISHED, FINISHED)
    harness.clock.advance(60)
    ids = [row["agent_id"] for row in created["attempts"]]
    reply = await harness.call("cursor_keep", {"group_id": created["group_id"], "agent_id": ids[1]})
    assert not reply.is_error, reply.data
    assert reply.data["kept"] == ids[1] and reply.data["archived"] == [ids[0], ids[2]]
    statuses = {agent_id: harness.world.agents[agent_id].archived_at is not None for agent_id in ids}
    assert statuses == {ids[0]: True, ids[1]: False, ids[2]: True}
    again = await harness.call("cursor_keep", {"group_id": created["group_id"], "agent_id": ids[1]})
    assert again.data["archived"] == [] and again.data["already_archived"] == [ids[0], ids[2]]


async def test_keep_refuses_an_agent_that_is_not_an_attempt_and_archives_nothing(harness: Harness) -> None:
    created = await made_set(harness, FINISHED, FINISHED)
    stranger = harness.world.add_agent().id
    reply = await harness.call("cursor_keep", {"group_id": created["group_id"], "agent_id": stranger})
    assert reply.code == "VALIDATION" and not [r for r in harness.requests("POST") if r.path.endswith("/archive")]


async def test_wait_on_a_group_waits_for_its_attempts(harness: Harness) -> None:
    created = await made_set(harness, FINISHED, FINISHED)
    reply = await harness.call("cursor_wait", {"group_id": created["group_id"], "until": "all", "wait_seconds": 120})
    assert not reply.is_error, reply.data
    assert {row["agent_id"] for row in reply.data["ended"]} == {row["agent_id"] for row in created["attempts"]}
    neither = await harness.call("cursor_wait", {})
    assert neither.code == "VALIDATION"


async def test_supervise_names_each_attempts_group_and_place(harness: Harness) -> None:
    created = await made_set(harness, RUNNING, RUNNING)
    harness.world.add_agent("Unrelated", script=RUNNING)
    reply = await harness.call("cursor_supervise", {})
    rows = {row["agent_id"]: row for row in reply.data["agents"]}
    for index, attempt in enumerate(created["attempts"], start=1):
        assert rows[attempt["agent_id"]]["group_id"] == created["group_id"]
        assert rows[attempt["agent_id"]]["attempt"] == f"{index}/2"
    assert sum("group_id" in row for row in rows.values()) == 2


async def test_a_cost_cursor_has_not_reported_yet_is_null_with_why_and_when_to_look_again_k_64(
    harness: Harness,
) -> None:
    """K-64: Cursor reports a run's cost some time after it ends: `cost_cents` stays a number or null (left out),
    never a sentence; `cost_note` says why and, once the run ended, `look_again_after_seconds` when."""
    created = await made_set(harness, FINISHED, FINISHED)
    running = await harness.call("cursor_compare", {"group_id": created["group_id"]})
    harness.clock.advance(40)  # ended, cost not reported yet (the simulator reports it 30 s after the end)
    ended = await harness.call("cursor_compare", {"group_id": created["group_id"]})
    harness.clock.advance(60)
    reported = await harness.call("cursor_compare", {"group_id": created["group_id"]})
    for row in running.data["attempts"]:
        assert "cost_cents" not in row and "still going" in row["cost_note"] and "look_again_after_seconds" not in row
    for row in ended.data["attempts"]:
        assert "cost_cents" not in row and row["cost_note"].startswith("not reported yet")
        assert row["look_again_after_seconds"] == 60
    for row in reported.data["attempts"]:
        assert isinstance(row["cost_cents"], float) and "cost_note" not in row


async def test_a_simulated_group_differs_in_change_and_check_and_compare_marks_the_one_kept_k_62_k_63(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """Issue 46 acceptance (K-62, K-63): on the simulator's own models the attempts of one task differ in their
    change, duration, cost and check verdict; after cursor_keep, compare marks the kept attempt and the
    archived ones, and `next` no longer says to keep."""
    world, options = git_world(tmp_path)
    models = ["composer-2", "gpt-5.2", "claude-4.6-sonnet-thinking"]
    command = f"{sys.executable} -m unittest discover -s tests"
    async with harness_factory(world, server_options=options, check_command=command) as h:
        created = await h.call("cursor_create_agent", TASK | {"attempts": [{"model_id": m} for m in models]})
        h.clock.advance(3600)
        ids = [row["agent_id"] for row in created.data["attempts"]]
        for agent_id in ids:
            checked = await h.call("cursor_check_changes", {"agent_id": agent_id})
            assert not checked.is_error, checked.data
        before = (await h.call("cursor_compare", {"group_id": created.data["group_id"]})).data
        await h.call("cursor_keep", {"group_id": created.data["group_id"], "agent_id": ids[1]})
        after = (await h.call("cursor_compare", {"group_id": created.data["group_id"]})).data
    rows = before["attempts"]
    assert [row["model"] for row in rows] == models
    assert len({json.dumps(row["change"], sort_keys=True) for row in rows}) == 3
    assert len({row["commit"] for row in rows}) == 3
    assert len({row["cost_cents"] for row in rows}) == 3 and len({row["duration_seconds"] for row in rows}) == 3
    assert [row["check"]["passed"] for row in rows] == [True, True, False]
    assert "checks" not in before and "choice" not in json.dumps(rows) and "cursor_keep" in before["next"]
    assert after["kept"] == ids[1]
    assert [row.get("choice") for row in after["attempts"]] == ["archived", "kept", "archived"]
    assert "cursor_keep" not in after["next"] and ids[1] in after["next"]
