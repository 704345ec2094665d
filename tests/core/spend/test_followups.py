"""A follow-up whose answer is lost is never paid twice (issue 21): it is written down before it is sent.

F-30: each way of losing the answer (the connection cut or reset after Cursor made the run, the client
cancelling the call, the server process ending after the POST left), asked again before and after that
run ends, and with `replace_active=true`: the simulator holds exactly one new run each time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.core.timing import API_CREATION_SECONDS
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World
from cursor_cloud_agents.simulator.records import AgentRecord
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

FOLLOW_UP = {"prompt": "Now add tests"}
RUN_SECONDS = 600.0
"""How long the follow-up's run works: long enough to be asked again while it runs, and after."""


def world_with_idle_agent() -> tuple[World, AgentRecord]:
    world = World(ManualClock())
    return world, world.add_agent("Add a README", created_ago=3600, script=RunScript(running_seconds=RUN_SECONDS))


def runs_posted(h: Harness) -> int:
    return sum(1 for record in h.requests("POST") if record.path.endswith("/runs"))


def lose_one_answer(agent: AgentRecord, fault: Fault) -> Faults:
    faults = Faults()
    faults.inject("POST", f"/v1/agents/{agent.id}/runs", fault, times=1)
    return faults


async def follow_up(h: Harness, agent: AgentRecord, **arguments: Any) -> Any:
    return await h.call("cursor_create_run", {"agent_id": agent.id} | FOLLOW_UP | arguments)


async def cancel_during_post(h: Harness, agent: AgentRecord) -> None:
    """Start the follow-up and cancel the call once Cursor has made its run, while its answer drips back
    (`Fault.drip`): the answer never arrives."""
    before = len(agent.runs)
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(follow_up, h, agent)
            while len(agent.runs) == before:
                await anyio.wait_all_tasks_blocked()
            group.cancel_scope.cancel()


@pytest.mark.parametrize("fault", [Fault.cut_after_request(), Fault.reset()], ids=["cut", "reset"])
@pytest.mark.parametrize("ended", [False, True], ids=["while-running", "after-it-ended"])
async def test_a_follow_up_whose_answer_was_lost_is_answered_as_its_run_when_asked_again(
    harness_factory: OpenHarness, fault: Fault, ended: bool
) -> None:
    """F-30: the POST made a run and its answer was lost; the same follow-up asked again, while that run
    works or after it ended, answers that run (`resumed`) and sends nothing."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, fault)) as h:
        lost = await follow_up(h, agent)
        made = agent.runs[-1].id
        if ended:
            h.clock.advance(RUN_SECONDS + 60)
        again = await follow_up(h, agent)
        posts = runs_posted(h)
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN"
    assert again.data["resumed"] is True and again.data["run_id"] == made
    assert posts == 1 and len(agent.runs) == 2


async def test_a_follow_up_cancelled_by_the_client_after_cursor_made_its_run_is_not_paid_again(
    harness_factory: OpenHarness,
) -> None:
    """F-30: the client cancels the call while the POST is in flight (Cursor made the run): asked again,
    the run is found, nothing is sent."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, Fault.drip(200))) as h:
        await cancel_during_post(h, agent)
        made = agent.runs[-1].id
        again = await follow_up(h, agent)
        posts = runs_posted(h)
    assert again.data["resumed"] is True and again.data["run_id"] == made
    assert posts == 1 and len(agent.runs) == 2


async def test_replace_active_never_cancels_the_run_a_lost_identical_follow_up_made(
    harness_factory: OpenHarness,
) -> None:
    """F-31: asked again with replace_active=true while the lost follow-up's run works, that run is the
    answer: it is not cancelled to make room for the same prompt, and nothing is paid again."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, Fault.cut_after_request())) as h:
        await follow_up(h, agent)
        made = agent.runs[-1]
        again = await follow_up(h, agent, replace_active=True)
        cancels = [record for record in h.requests("POST") if record.path.endswith("/cancel")]
        posts = runs_posted(h)
    assert again.data["resumed"] is True and again.data["run_id"] == made.id
    assert cancels == []
    assert posts == 1 and len(agent.runs) == 2


async def test_a_follow_up_lost_before_cursor_made_a_run_waits_out_the_creation_time_then_is_sent(
    harness_factory: OpenHarness,
) -> None:
    """F-32: a POST lost before Cursor processed it (a 502) shows no new run: asked again inside the API's
    creation time, FOLLOWUP_IN_FLIGHT says when asking again is safe and sends nothing; after it, one run."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, Fault.server_error(502))) as h:
        lost = await follow_up(h, agent)
        early = await follow_up(h, agent)
        posts_early = runs_posted(h)
        h.clock.advance(API_CREATION_SECONDS)
        late = await follow_up(h, agent)
        posts = runs_posted(h)
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN"
    assert early.code == "FOLLOWUP_IN_FLIGHT" and early.data["retry_after_seconds"] == API_CREATION_SECONDS
    assert posts_early == 1
    assert "resumed" not in late.data and posts == 2 and len(agent.runs) == 2


async def test_another_prompt_is_another_follow_up(harness_factory: OpenHarness) -> None:
    """F-32: only the same request (prompt, model, images) is the same act; a different prompt is sent."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, Fault.cut_after_request())) as h:
        await follow_up(h, agent)
        h.clock.advance(RUN_SECONDS + 60)
        other = await follow_up(h, agent, prompt="Now write the changelog")
        posts = runs_posted(h)
    assert not other.is_error and "resumed" not in other.data
    assert posts == 2 and len(agent.runs) == 3


async def test_a_follow_up_lost_with_its_process_is_found_by_the_next_process(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-30: the server process ends after the POST left (the act was flushed before it): a new process on
    the same state directory answers the run that POST made instead of paying for another."""
    world, agent = world_with_idle_agent()
    async with harness_factory(world, faults=lose_one_answer(agent, Fault.drip(200)), state_dir=tmp_path) as first:
        await cancel_during_post(first, agent)
    made = agent.runs[-1].id
    async with harness_factory(world, state_dir=tmp_path) as second:
        again = await follow_up(second, agent)
        posts = runs_posted(second)
    assert again.data["resumed"] is True and again.data["run_id"] == made
    assert posts == 0 and len(agent.runs) == 2


async def test_a_follow_up_refused_by_a_store_that_cannot_be_written_sends_nothing(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-41: a state directory that is a file refuses the paid follow-up with CONFIGURATION naming
    CURSOR_MCP_STATE_DIR, before the POST; reads go on."""
    blocked = tmp_path / "state"
    blocked.write_text("not a folder")
    world, agent = world_with_idle_agent()
    async with harness_factory(world, state_dir=blocked) as h:
        refused = await follow_up(h, agent)
        read = await h.call("cursor_get_agent", {"agent_id": agent.id})
        posts = runs_posted(h)
    assert refused.code == "CONFIGURATION" and refused.data["variable"] == "CURSOR_MCP_STATE_DIR"
    assert posts == 0 and not read.is_error
