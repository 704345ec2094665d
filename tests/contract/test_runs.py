"""Contract: runs (follow-up create, list, get, cancel) and their lifecycle, client against simulator."""

from __future__ import annotations

import uuid

import pytest

from cursor_cloud_agents.api import (
    AgentBusyError,
    CreateRunRequest,
    CursorClient,
    ModelSelection,
    NotFoundError,
    Prompt,
    RunNotCancellableError,
)
from cursor_cloud_agents.simulator import ManualClock, Quirks, RunScript, World

pytestmark = pytest.mark.anyio
FOLLOW_UP = CreateRunRequest(prompt=Prompt(text="Now add a CHANGELOG"))


async def test_follow_up_while_a_run_is_active_is_agent_busy(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.7: 409 `agent_busy` while the latest run is RUNNING ("only one run can be active")."""
    agent = world.add_agent(script=RunScript(running_seconds=600), created_ago=10)
    with pytest.raises(AgentBusyError) as caught:
        await client.create_run(agent.id, FOLLOW_UP)
    assert (caught.value.status_code, caught.value.code) == (409, "agent_busy") and len(agent.runs) == 1


async def test_follow_up_while_the_run_is_still_creating_is_agent_busy(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §2a: "active" includes CREATING for the agent_busy rule."""
    agent = world.add_agent()
    assert agent.runs[0].status(world.now()) == "CREATING"
    with pytest.raises(AgentBusyError):
        await client.create_run(agent.id, FOLLOW_UP)


async def test_a_follow_up_after_the_run_ended_is_creating_and_becomes_the_latest_run(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.7: 201 `{run}` CREATING; the agent's `latestRunId` becomes the new run."""
    agent = world.add_agent(created_ago=3600)
    run = await client.create_run(agent.id, FOLLOW_UP, previous_run_id=agent.runs[0].id)
    assert (run.status, run.agent_id) == ("CREATING", agent.id) and run.id != agent.runs[0].id
    fetched = await client.get_agent(agent.id)
    assert (fetched.latest_run_id, fetched.status) == (run.id, "ACTIVE")


async def test_a_follow_up_model_becomes_the_agent_model_and_is_never_returned(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.7, quirk 8: `model` on POST /runs changes it for this and later runs; never echoed."""
    agent = world.add_agent(created_ago=3600)
    run = await client.create_run(agent.id, CreateRunRequest(prompt=Prompt(text="go"), model=ModelSelection(id="opus")))
    assert "model" not in (run.model_extra or {})
    clock.advance(3600)
    await client.create_run(agent.id, FOLLOW_UP)
    assert [r.model for r in agent.runs[1:]] == [{"id": "claude-4.6-opus", "params": []}] * 2


async def test_list_runs_is_newest_first_with_full_run_objects_and_paging(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.8: full Run objects newest first; `nextCursor` omitted on the last page."""
    agent = world.add_agent(scripts=[RunScript(), RunScript()], created_ago=10 * 3600)
    first = await client.list_runs(agent.id, limit=2)
    assert [r.id for r in first.items] == [agent.runs[2].id, agent.runs[1].id] and first.next_cursor
    last = await client.list_runs(agent.id, limit=2, cursor=first.next_cursor)
    assert [r.id for r in last.items] == [agent.runs[0].id] and last.next_cursor is None
    assert all(r.duration_ms and r.result and r.git for r in first.items + last.items)


async def test_list_runs_of_an_unknown_agent_is_agent_not_found(client: CursorClient) -> None:
    """docs/api-contract.md §3.8: 404 for an unknown agent."""
    with pytest.raises(NotFoundError) as caught:
        await client.list_runs(f"bc-{uuid.uuid4()}")
    assert caught.value.code == "agent_not_found"


async def test_get_an_unknown_run_is_run_not_found(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.9: 404 `run_not_found` (the agent exists)."""
    agent = world.add_agent()
    with pytest.raises(NotFoundError) as caught:
        await client.get_run(agent.id, f"run-{uuid.uuid4()}")
    assert (caught.value.status_code, caught.value.code) == (404, "run_not_found")


@pytest.mark.parametrize("outcome", ["FINISHED", "ERROR", "CANCELLED", "EXPIRED"])
async def test_every_terminal_run_carries_duration_ms(client: CursorClient, world: World, outcome: str) -> None:
    """docs/api-contract.md §2 Run: `durationMs` once terminal, in all four terminal states."""
    agent = world.add_agent(script=RunScript(outcome=outcome), created_ago=3600)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType] -- parametrized Outcome
    run = await client.get_run(agent.id, agent.runs[0].id)
    assert run.status == outcome and run.is_terminal and run.duration_ms == 32_000


@pytest.mark.parametrize("quirks", [Quirks(running_updated_at_frozen=True)])
async def test_a_running_run_keeps_the_updated_at_of_its_creation(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md quirk 2 (observed side): RUNNING `updatedAt` stays frozen at creation."""
    agent = world.add_agent(script=RunScript(running_seconds=600))
    clock.advance(100)
    run = await client.get_run(agent.id, agent.runs[0].id)
    assert run.status == "RUNNING" and run.updated_at == run.created_at


@pytest.mark.parametrize("quirks", [Quirks(running_updated_at_frozen=False)])
async def test_a_running_run_updated_at_moves_to_its_start_as_the_docs_examples_show(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §2a Timestamps (docs side): `updatedAt` moves once the run is RUNNING."""
    agent = world.add_agent(script=RunScript(running_seconds=600))
    clock.advance(100)
    run = await client.get_run(agent.id, agent.runs[0].id)
    assert run.status == "RUNNING" and run.updated_at != run.created_at


@pytest.mark.parametrize("quirks", [Quirks(error_runs_without_cause=True)])
async def test_an_error_run_carries_neither_error_nor_result(client: CursorClient, world: World) -> None:
    """docs/api-contract.md quirk 3 (observed side): ERROR runs carry neither `error` nor `result`."""
    agent = world.add_agent(script=RunScript(outcome="ERROR"), created_ago=3600)
    run = await client.get_run(agent.id, agent.runs[0].id)
    assert (run.status, run.error, run.result) == ("ERROR", None, None)


@pytest.mark.parametrize("quirks", [Quirks(error_runs_without_cause=False)])
async def test_an_error_run_with_a_cause_carries_error_message_and_code(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §2 Run `error` `{message, code?}` (SDK side of quirk 3)."""
    agent = world.add_agent(script=RunScript(outcome="ERROR"), created_ago=3600)
    run = await client.get_run(agent.id, agent.runs[0].id)
    assert run.status == "ERROR" and run.error is not None and run.error.message and run.error.code


async def test_git_is_per_agent_the_same_on_every_run_without_scheme_or_sha(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §2 Run `git`, quirk 9: same branches on every run; `repoUrl` has no scheme; no SHA."""
    agent = world.add_agent(scripts=[RunScript()], created_ago=3 * 3600, auto_create_pr=True)
    runs = [await client.get_run(agent.id, r.id) for r in agent.runs]
    assert runs[0].git == runs[1].git and runs[0].git is not None
    branch = runs[0].git.branches[0]
    assert branch.repo_url == "github.com/your-org/your-repo" and branch.branch and branch.branch.startswith("cursor/")
    assert branch.pr_url and "sha" not in str(branch.model_dump()).lower()


async def test_cancel_is_accepted_on_a_running_run_and_takes_effect_asynchronously(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.10, quirk 12: 200 `{id}`; the run still reads RUNNING right after, then CANCELLED."""
    agent = world.add_agent(script=RunScript(running_seconds=600), created_ago=60)
    run_id = agent.runs[0].id
    assert await client.cancel_run(agent.id, run_id) == run_id
    assert (await client.get_run(agent.id, run_id)).status == "RUNNING"
    clock.advance(world.quirks.cancel_delay_seconds)
    cancelled = await client.get_run(agent.id, run_id)
    assert cancelled.status == "CANCELLED" and cancelled.duration_ms
    assert (await client.get_agent(agent.id)).status == "IDLE"


async def test_cancel_is_accepted_on_a_creating_run(client: CursorClient, world: World, clock: ManualClock) -> None:
    """docs/api-contract.md §2a: CREATING is active, so it can be cancelled (inferred, M)."""
    agent = world.add_agent()
    await client.cancel_run(agent.id, agent.runs[0].id)
    clock.advance(60)
    assert (await client.get_run(agent.id, agent.runs[0].id)).status == "CANCELLED"


async def test_cancelling_a_terminal_run_is_run_not_cancellable(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.10: 409 `run_not_cancellable` for a terminal run."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(RunNotCancellableError) as caught:
        await client.cancel_run(agent.id, agent.runs[0].id)
    assert (caught.value.status_code, caught.value.code) == (409, "run_not_cancellable")


async def test_a_run_that_ends_before_the_cancel_lands_keeps_its_own_outcome(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §2a: cancellation races the run's own end ("or end otherwise")."""
    agent = world.add_agent(script=RunScript(running_seconds=30), created_ago=31)
    await client.cancel_run(agent.id, agent.runs[0].id)
    clock.advance(5)
    assert (await client.get_run(agent.id, agent.runs[0].id)).status == "FINISHED"
