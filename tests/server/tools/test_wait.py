"""`cursor_wait` (issue 11): wait on several runs, answer as soon as any (or all) end, inside the call limit.

Against the simulator on its manual clock: the wait's pauses move the clock, so runs of different
lengths end in the order of their scripts and no test really sleeps.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from cursor_cloud_agents.core.timing import WAIT_POLL_SECONDS
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


def staggered(*seconds: float, result: str = "Done.") -> tuple[World, list[dict[str, str]]]:
    """A world with one running agent per duration (after a 2 s CREATING), and the refs to wait on."""
    world = World(ManualClock())
    refs: list[dict[str, str]] = []
    for length in seconds:
        agent = world.add_agent(f"Task of {length:g} s", script=RunScript(running_seconds=length, result=result))
        refs.append({"agent_id": agent.id, "run_id": agent.runs[-1].id})
    return world, refs


async def test_any_answers_at_the_first_end_among_runs_of_different_lengths(harness_factory: OpenHarness) -> None:
    """Issue 11: `any` returns as soon as one run ended, noticed within the cadence; the others are running."""
    world, refs = staggered(40, 12, 25)
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs})
    waited = world.clock.now() - started
    assert not reply.is_error and "timed_out" not in reply.data
    assert [row["run_id"] for row in reply.data["ended"]] == [refs[1]["run_id"]]
    assert {row["run_id"] for row in reply.data["running"]} == {refs[0]["run_id"], refs[2]["run_id"]}
    ended = reply.data["ended"][0]
    assert ended["status"] == "FINISHED" and ended["result"] == "Done."
    assert 2 + 12 <= waited <= 2 + 12 + WAIT_POLL_SECONDS
    assert "cursor_wait" in reply.data["next"]


async def test_an_end_among_twenty_runs_is_noticed_within_three_seconds(harness_factory: OpenHarness) -> None:
    """Issue 11: with 20 runs, every one re-read each WAIT_POLL_SECONDS, the first end is seen within 3 s."""
    world, refs = staggered(*(30 + 7 * index for index in range(20)))
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs})
    assert [row["run_id"] for row in reply.data["ended"]] == [refs[0]["run_id"]]
    assert world.clock.now() - started - (2 + 30) <= 3


async def test_all_answers_when_the_last_run_ends(harness_factory: OpenHarness) -> None:
    """Issue 11: `all` returns once every run ended."""
    world, refs = staggered(30, 10, 20)
    started = world.clock.now()
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs, "until": "all"})
    waited = world.clock.now() - started
    assert len(reply.data["ended"]) == 3 and "running" not in reply.data
    assert 2 + 30 <= waited <= 2 + 30 + WAIT_POLL_SECONDS


async def test_a_wait_that_runs_out_says_timed_out_with_every_run_still_going(harness_factory: OpenHarness) -> None:
    """Issue 11: nothing ended within wait_seconds: timed_out, and how to wait again."""
    world, refs = staggered(3600, 3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs, "wait_seconds": 10})
    assert reply.data["timed_out"] is True and reply.data["ended"] == [] and len(reply.data["running"]) == 2


async def test_an_agent_id_alone_waits_on_its_latest_run(harness_factory: OpenHarness) -> None:
    """Issue 11: runs given as agent ids mean their latest run."""
    world, refs = staggered(5)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": [{"agent_id": refs[0]["agent_id"]}]})
    assert reply.data["ended"][0]["run_id"] == refs[0]["run_id"]


async def test_a_deleted_agent_marks_only_its_own_row(harness_factory: OpenHarness) -> None:
    """Issue 11: an unknown or deleted agent is one unread row; the wait goes on for the others."""
    world, refs = staggered(8, 3600)
    world.delete(refs[1]["agent_id"])
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs})
    assert [row["run_id"] for row in reply.data["ended"]] == [refs[0]["run_id"]]
    assert reply.data["unread"] == [
        {
            "agent_id": refs[1]["agent_id"],
            "run_id": refs[1]["run_id"],
            "code": "NOT_FOUND",
            "message": reply.data["unread"][0]["message"],
        }
    ]


async def test_progress_says_how_many_runs_ended(harness_factory: OpenHarness) -> None:
    """Issue 11: progress at every re-read (every 2.5 s of the wait), counting the runs that ended."""
    world, refs = staggered(4, 30)
    async with harness_factory(world) as h:
        await h.call("cursor_wait", {"runs": refs, "until": "all"})
    assert h.progress[0] == "0 of 2 runs ended" and "1 of 2 runs ended" in h.progress


async def test_a_cancelled_wait_sends_no_further_request(harness_factory: OpenHarness) -> None:
    """The tool contract: a client cancel stops the wait; nothing more reaches Cursor. The cancel comes once
    the wait has read (not after a fixed 0.2 s, which a first call's loading could outlast)."""
    world, refs = staggered(3600, 3600)
    async with harness_factory(world) as h:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(h.call, "cursor_wait", {"runs": refs})
                while not h.requests():
                    await anyio.sleep(0.01)
                await anyio.wait_all_tasks_blocked()
                group.cancel_scope.cancel()
        await anyio.wait_all_tasks_blocked()  # the server has heard the cancel, and a read begun before it ended
        seen = len(h.requests())
        h.clock.advance(60)
        await anyio.wait_all_tasks_blocked()
        after = len(h.requests())
    assert seen > 0 and after == seen


async def test_twenty_runs_with_long_results_fit_the_cap_each_with_where_to_read_on(
    harness_factory: OpenHarness,
) -> None:
    """Issue 11: 20 runs of 200 KB results each: the answer stays under the cap, each result sliced fairly,
    with result_next_offset and how to read on."""
    world, refs = staggered(*([5] * 20), result="x" * 200_000)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs, "until": "all"})
    assert not reply.is_error and reply.size <= 38_000 and len(reply.data["ended"]) == 20
    shares = {len(row["result"]) for row in reply.data["ended"]}
    assert max(shares) - min(shares) <= 1 and min(shares) > 1_000
    assert all(row["result_next_offset"] == len(row["result"]) for row in reply.data["ended"])
    assert "result_offset" in reply.data["read_on"]


async def test_more_than_twenty_runs_are_refused_before_anything_is_read(harness_factory: OpenHarness) -> None:
    """Issue 11: up to 20 runs; more is VALIDATION and no request is sent."""
    world, refs = staggered(5)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs * 21})
        sent: list[Any] = h.requests()
    assert reply.code == "VALIDATION" and sent == []


async def test_a_read_that_failed_in_passing_is_tried_again_and_its_end_seen(harness_factory: OpenHarness) -> None:
    """Issue 11: a 5xx on one round is no reason to stop waiting on that run; only an agent that cannot be
    read (unknown, deleted) settles its row."""
    world, refs = staggered(8)
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/runs/*", Fault.server_error(503), times=4)
    async with harness_factory(world, faults=faults) as h:
        reply = await h.call("cursor_wait", {"runs": refs})
    assert [row["run_id"] for row in reply.data["ended"]] == [refs[0]["run_id"]]
    assert "unread" not in reply.data


async def test_an_agent_deleted_during_the_wait_settles_its_row_instead_of_holding_the_wait(
    harness_factory: OpenHarness,
) -> None:
    """Issue 24: an agent read as running and then deleted is no longer waited for: `all` ends when the other
    run ends, and the deleted one is an unread row (before, its last read kept it running to the timeout)."""
    world, refs = staggered(30, 3600)
    clock = world.clock
    assert isinstance(clock, ManualClock)
    started = clock.now()

    async def delete_later() -> None:
        await clock.wait(started + 10)
        world.delete(refs[1]["agent_id"])

    replies: list[Any] = []
    async with harness_factory(world) as h, anyio.create_task_group() as group:
        group.start_soon(delete_later)
        replies.append(await h.call("cursor_wait", {"runs": refs, "until": "all", "wait_seconds": 50}))
    [reply] = replies
    assert "timed_out" not in reply.data and [row["run_id"] for row in reply.data["ended"]] == [refs[0]["run_id"]]
    assert [row["code"] for row in reply.data["unread"]] == ["NOT_FOUND"] and "running" not in reply.data
