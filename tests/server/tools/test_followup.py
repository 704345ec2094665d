"""cursor_create_run (the follow-up) end to end against the simulator: guards, busy agents, replace_active."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, ManualClock, Quirks, RunScript, World
from cursor_cloud_agents.simulator.records import AgentRecord
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

LONG = RunScript(running_seconds=3600)


def idle_world() -> tuple[World, AgentRecord]:
    world = World(ManualClock())
    return world, world.add_agent("Add a README", created_ago=3600)


def busy_world(quirks: Quirks | None = None) -> tuple[World, AgentRecord]:
    world = World(ManualClock(), quirks=quirks)
    return world, world.add_agent("Long migration", script=LONG, created_ago=60)


def run_posts(h: Harness) -> list[Any]:
    return [record for record in h.requests("POST") if record.path.endswith("/runs")]


async def follow_up(h: Harness, agent: AgentRecord, **arguments: Any) -> Any:
    return await h.call("cursor_create_run", {"agent_id": agent.id, "prompt": "Now add tests"} | arguments)


def serve_agent_as(h: Harness, agent: AgentRecord, **changes: Any) -> None:
    """Answer the next read of `agent` with its record changed (None removes a field)."""
    wire = agent.wire(h.world.now()) | changes
    body = json.dumps({key: value for key, value in wire.items() if value is not None})
    h.sim.faults.inject("GET", f"/v1/agents/{agent.id}", Fault.raw(200, body))


async def test_a_follow_up_on_an_idle_agent_starts_a_new_run_of_the_same_agent(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.7: one POST, the agent's latest run becomes the new run; the agent is read first."""
    world, agent = idle_world()
    previous = agent.runs[-1].id
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent)
        (sent,) = run_posts(h)
        assert [r.method for r in h.requests()][:1] == ["GET"]
    assert not reply.is_error
    assert reply.data["agent_id"] == agent.id
    assert reply.data["run_id"] == agent.runs[-1].id != previous
    assert reply.data["run_status"] == "CREATING"
    assert sent.json() == {"prompt": {"text": "Now add tests"}}
    assert "model_note" not in reply.data and "replaced_run_id" not in reply.data


async def test_a_model_change_is_checked_sent_and_said_to_persist(harness_factory: OpenHarness) -> None:
    """Reference: the model changes for this run and the following ones (verified 2026-10-05); say so."""
    world, agent = idle_world()
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent, model_id="gpt-5.2", reasoning_level="high")
        sent = run_posts(h)[0].json()
    assert sent["model"] == {"id": "gpt-5.2", "params": [{"id": "reasoning_effort", "value": "high"}]}
    assert reply.data["model"] == {"id": "gpt-5.2", "params": {"reasoning_effort": "high"}}
    assert "later runs" in reply.data["model_note"]
    assert agent.model == {"id": "gpt-5.2", "params": [{"id": "reasoning_effort", "value": "high"}]}


@pytest.mark.parametrize(
    "arguments",
    [
        {"model_id": "claude-4.6-opus", "model_params": {"fast": "true"}},
        {"model_id": "gpt-5.2", "reasoning_level": "extra-high"},
        {"model_params": {"fast": "false"}},
    ],
    ids=["absent-combination", "unknown-level", "params-without-model"],
)
async def test_a_follow_up_with_an_unpublished_model_choice_is_refused_with_zero_posts(
    harness_factory: OpenHarness, arguments: dict[str, Any]
) -> None:
    """Reference: model_params and reasoning_level are checked against the catalogue as at creation."""
    world, agent = idle_world()
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent, **arguments)
        assert h.requests("POST") == []
    assert reply.code == "VALIDATION"


async def test_a_busy_agent_answers_agent_busy_with_the_active_run(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.7 / docs/reliability.md F-11: 409 agent_busy is returned as AGENT_BUSY with the run id,
    no retry."""
    world, agent = busy_world()
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent)
        assert len(run_posts(h)) == 1
    assert reply.code == "AGENT_BUSY"
    assert reply.data["active_run_id"] == agent.runs[0].id
    assert "replace_active=true" in reply.data["message"]
    assert len(agent.runs) == 1


async def test_replace_active_cancels_waits_for_the_end_then_sends(harness_factory: OpenHarness) -> None:
    """Reference: replace_active cancels, re-reads until terminal, then sends and reports replaced_run_id."""
    world, agent = busy_world()
    old = agent.runs[0].id
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent, replace_active=True)
        order = [(r.method, r.path.rsplit("/", 1)[-1]) for r in h.requests("POST")]
        progress = list(h.progress)
    assert not reply.is_error
    assert reply.data["replaced_run_id"] == old
    assert reply.data["replaced_run_status"] == "CANCELLED"
    assert reply.data["run_id"] == agent.runs[-1].id != old
    assert order == [("POST", "cancel"), ("POST", "runs")]
    assert progress and all(old in message for message in progress)


async def test_replace_active_on_an_idle_agent_just_sends(harness_factory: OpenHarness) -> None:
    """Reference: with no active run there is nothing to cancel; the follow-up is sent."""
    world, agent = idle_world()
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent, replace_active=True)
        assert [r.path.rsplit("/", 1)[-1] for r in h.requests("POST")] == ["runs"]
    assert not reply.is_error and "replaced_run_id" not in reply.data


async def test_replace_active_sends_nothing_when_the_old_run_does_not_end_in_time(
    harness_factory: OpenHarness,
) -> None:
    """Reference: if the run is not terminal in time, nothing is sent (AGENT_BUSY); waits never really sleep."""
    world, agent = busy_world(Quirks(cancel_delay_seconds=7200))
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent, replace_active=True)
        assert run_posts(h) == []
        assert len(h.requests("POST")) == 1
        reads = [r for r in h.requests("GET") if "/runs/" in r.path]
    assert reply.code == "AGENT_BUSY"
    assert reply.data["active_run_id"] == agent.runs[0].id
    assert "Nothing was sent" in reply.data["message"]
    assert len(reads) >= 2 and len(h.progress) == len(reads) - 1  # one progress report per re-read after the cancel
    assert len(agent.runs) == 1


async def test_a_follow_up_on_an_archived_agent_is_refused_without_a_post(harness_factory: OpenHarness) -> None:
    """Reference: the follow-up is refused with CONTINUATION_REFUSED when the agent is archived."""
    world = World(ManualClock())
    agent = world.add_agent("old", archived=True, created_ago=7200)
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent)
        assert h.requests("POST") == []
    assert reply.code == "CONTINUATION_REFUSED"
    assert "unarchive" in reply.data["message"]


@pytest.mark.parametrize(
    "changes",
    [{"status": "PAUSED"}, {"workOnCurrentBranch": None}, {"workOnCurrentBranch": True}],
    ids=["unknown-status", "work-on-current-branch-absent", "work-on-current-branch-true"],
)
async def test_a_follow_up_without_proof_of_safety_is_refused_without_a_post(
    harness_factory: OpenHarness, changes: dict[str, Any]
) -> None:
    """Reference: an unknown status, or workOnCurrentBranch not explicitly false, refuses the write."""
    world, agent = idle_world()
    async with harness_factory(world) as h:
        serve_agent_as(h, agent, **changes)
        reply = await follow_up(h, agent)
        assert h.requests("POST") == []
    assert reply.code == "CONTINUATION_REFUSED"


async def test_an_agent_created_on_its_current_branch_takes_no_follow_up(harness_factory: OpenHarness) -> None:
    """Reference: workOnCurrentBranch true (pushes onto the starting branch) refuses the follow-up."""
    clock = ManualClock()
    world = World(clock)
    body = {"prompt": {"text": "x"}, "repos": [{"url": "https://github.com/a/b"}], "workOnCurrentBranch": True}
    agent, _ = world.landed(world.create_agent(body, world.keys[SIMULATED_API_KEY]))
    clock.advance(3600)
    async with harness_factory(world) as h:
        reply = await follow_up(h, agent)
        assert h.requests("POST") == []
    assert reply.code == "CONTINUATION_REFUSED"
    assert "workOnCurrentBranch" in reply.data["message"]


async def test_a_follow_up_with_writes_off_is_read_only_and_reaches_nothing(harness_factory: OpenHarness) -> None:
    """Tool contract 2: the follow-up is a paid mutation; zero requests with writes off."""
    world, agent = idle_world()
    async with harness_factory(world, allow_writes=False) as h:
        reply = await follow_up(h, agent, replace_active=True)
        assert h.requests() == []
    assert reply.code == "READ_ONLY"


async def test_a_follow_up_on_an_unknown_agent_answers_not_found(harness: Harness) -> None:
    """docs/api-contract.md §3.5: 404 agent_not_found; nothing sent."""
    reply = await harness.call(
        "cursor_create_run", {"agent_id": "bc-00000000-0000-4000-8000-000000000009", "prompt": "hello"}
    )
    assert reply.code == "NOT_FOUND"
    assert harness.requests("POST") == []


@pytest.mark.parametrize(
    "fault", [Fault.cut_after_request(), Fault.reset(), Fault.cut_mid_body()], ids=["cut", "reset", "cut-mid-body"]
)
async def test_a_lost_follow_up_answer_is_outcome_unknown_with_one_post(
    harness_factory: OpenHarness, fault: Fault
) -> None:
    """docs/reliability.md F-01..F-03 on follow-up: one POST; the ids to resolve it; the agent's latest run tells."""
    world, agent = idle_world()
    previous = agent.runs[-1].id
    async with harness_factory(world) as h:
        h.sim.faults.inject("POST", "/v1/agents/{id}/runs", fault)
        reply = await follow_up(h, agent)
        assert len(run_posts(h)) == 1
        after = await h.call("cursor_get_agent", {"agent_id": agent.id})
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert reply.data["agent_id"] == agent.id
    assert reply.data["previous_run_id"] == previous
    assert after.data["latest_run_id"] != previous
