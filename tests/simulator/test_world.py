"""Lifecycle facts of docs/api-contract.md §2a, checked on the world with a manual clock (no HTTP)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ApiError, ManualClock, Quirks, RunScript, World
from cursor_cloud_agents.simulator.script import Outcome

PROMPT = {"prompt": {"text": "Add a README"}, "repos": [{"url": "https://github.com/acme/web"}]}


def _create(world: World, body: dict[str, object] | None = None) -> tuple[str, str]:
    agent, run = world.landed(world.create_agent(body or PROMPT, world.keys[SIMULATED_API_KEY]))
    return agent.id, run.id


def _status(world: World, agent_id: str, run_id: str) -> str:
    return world.run(agent_id, run_id)[1].status(world.now())


def test_a_new_run_is_creating_then_running_then_finished_on_the_clock(clock: ManualClock, world: World) -> None:
    """CREATING → RUNNING → FINISHED on the scripted timeline (2 s + 30 s by default)."""
    agent_id, run_id = _create(world)
    assert _status(world, agent_id, run_id) == "CREATING"
    clock.advance(2)
    assert _status(world, agent_id, run_id) == "RUNNING"
    clock.advance(30)
    assert _status(world, agent_id, run_id) == "FINISHED"


def test_agent_is_active_while_its_run_is_active_and_idle_after(clock: ManualClock, world: World) -> None:
    """Agent ACTIVE while a run is CREATING/RUNNING, IDLE once it ended."""
    agent_id, _ = _create(world)
    assert world.agent(agent_id).status(world.now()) == "ACTIVE"
    clock.advance(60)
    assert world.agent(agent_id).status(world.now()) == "IDLE"


@pytest.mark.parametrize("outcome", ["ERROR", "CANCELLED", "EXPIRED"])
def test_scripted_outcomes_are_terminal_states(clock: ManualClock, world: World, outcome: Outcome) -> None:
    """Runs end in FINISHED, ERROR, CANCELLED or EXPIRED as scripted, with durationMs."""
    world.queue_script(RunScript(outcome=outcome))
    agent_id, run_id = _create(world)
    clock.advance(100)
    _, run = world.run(agent_id, run_id)
    wire = run.wire(world.now(), world.quirks, None)
    assert wire["status"] == outcome
    assert wire["durationMs"] == 32000


def test_queued_scripts_apply_to_the_next_runs_in_order(clock: ManualClock, world: World) -> None:
    """`queue_script` drives the next created run, then the default applies again."""
    world.queue_script(RunScript(outcome="ERROR", running_seconds=5))
    first = _create(world)
    second = _create(world)
    clock.advance(10)
    assert _status(world, *first) == "ERROR"
    assert _status(world, *second) == "RUNNING"


def test_follow_up_while_a_run_is_active_is_agent_busy(world: World) -> None:
    """409 `agent_busy`: only one run can be active per agent (CREATING counts as active)."""
    agent_id, _ = _create(world)
    with pytest.raises(ApiError) as caught:
        world.follow_up(agent_id, {"prompt": {"text": "more"}})
    assert (caught.value.status, caught.value.code) == (409, "agent_busy")


def test_follow_up_on_an_archived_agent_is_agent_archived(clock: ManualClock, world: World) -> None:
    """409 `agent_archived` on an archived agent; unarchive makes it accept runs again."""
    agent_id, _ = _create(world)
    clock.advance(60)
    world.archive(agent_id)
    with pytest.raises(ApiError) as caught:
        world.follow_up(agent_id, {"prompt": {"text": "more"}})
    assert (caught.value.status, caught.value.code) == (409, "agent_archived")
    world.unarchive(agent_id)
    assert world.follow_up(agent_id, {"prompt": {"text": "more"}}).status(world.now()) == "CREATING"


def test_follow_up_after_the_run_ended_becomes_the_latest_run(clock: ManualClock, world: World) -> None:
    """The agent's latestRunId becomes the new run."""
    agent_id, first = _create(world)
    clock.advance(60)
    run = world.follow_up(agent_id, {"prompt": {"text": "Also add troubleshooting"}})
    assert run.id != first
    assert world.agent(agent_id).summary(world.now())["latestRunId"] == run.id


def test_a_follow_up_model_sticks_for_later_runs_and_is_never_returned(clock: ManualClock, world: World) -> None:
    """Quirk 8: `model` on POST /runs changes the agent's model persistently; reads never show it."""
    agent_id, _ = _create(world)
    clock.advance(60)
    world.follow_up(agent_id, {"prompt": {"text": "x"}, "model": {"id": "gpt-5.2"}})
    clock.advance(60)
    later = world.follow_up(agent_id, {"prompt": {"text": "y"}})
    agent = world.agent(agent_id)
    assert agent.model is not None and agent.model["id"] == "gpt-5.2"
    assert later.model is not None and later.model["id"] == "gpt-5.2"
    assert "model" not in agent.wire(world.now())
    assert "model" not in later.wire(world.now(), world.quirks, None)


def test_cancel_is_asynchronous_the_run_reads_running_right_after(clock: ManualClock, world: World) -> None:
    """Quirk 12: right after the 200 the run can still read RUNNING; it turns CANCELLED shortly."""
    agent_id, run_id = _create(world)
    clock.advance(5)
    world.cancel(agent_id, run_id)
    assert _status(world, agent_id, run_id) == "RUNNING"
    clock.advance(2)
    assert _status(world, agent_id, run_id) == "CANCELLED"
    assert world.agent(agent_id).status(world.now()) == "IDLE"


def test_cancel_of_a_creating_run_is_accepted(clock: ManualClock, world: World) -> None:
    """ "Active" includes CREATING, so cancelling it is allowed (inferred, M)."""
    agent_id, run_id = _create(world)
    world.cancel(agent_id, run_id)
    clock.advance(3)
    assert _status(world, agent_id, run_id) == "CANCELLED"


def test_cancel_of_a_terminal_run_is_run_not_cancellable(clock: ManualClock, world: World) -> None:
    """409 `run_not_cancellable` once the run is terminal."""
    agent_id, run_id = _create(world)
    clock.advance(60)
    with pytest.raises(ApiError) as caught:
        world.cancel(agent_id, run_id)
    assert (caught.value.status, caught.value.code) == (409, "run_not_cancellable")


def test_cancel_that_races_the_natural_end_leaves_the_run_finished(clock: ManualClock, world: World) -> None:
    """Cancellation is a request: a run about to end may still end FINISHED (the docs' race)."""
    agent_id, run_id = _create(world)
    clock.advance(31)
    world.cancel(agent_id, run_id)
    clock.advance(5)
    assert _status(world, agent_id, run_id) == "FINISHED"


@pytest.mark.parametrize("frozen", [True, False])
def test_running_run_updated_at_is_frozen_at_creation_by_default(clock: ManualClock, frozen: bool) -> None:
    """Quirk 2 (uncertain: docs show it moving): both settings of `running_updated_at_frozen`."""
    world = World(clock, quirks=Quirks(running_updated_at_frozen=frozen))
    agent_id, run_id = _create(world)
    clock.advance(10)
    _, run = world.run(agent_id, run_id)
    wire = run.wire(world.now(), world.quirks, None)
    assert wire["status"] == "RUNNING"
    assert (wire["updatedAt"] == wire["createdAt"]) is frozen


@pytest.mark.parametrize("without_cause", [True, False])
def test_error_runs_carry_neither_error_nor_result_by_default(clock: ManualClock, without_cause: bool) -> None:
    """Quirk 3: ERROR runs observed without `error`/`result`; the switch adds both."""
    world = World(clock, quirks=Quirks(error_runs_without_cause=without_cause))
    world.queue_script(RunScript(outcome="ERROR"))
    agent_id, run_id = _create(world)
    clock.advance(60)
    wire = world.run(agent_id, run_id)[1].wire(world.now(), world.quirks, None)
    assert ("error" in wire, "result" in wire) == (not without_cause, not without_cause)


def test_git_branches_are_per_agent_the_same_on_every_run(clock: ManualClock, world: World) -> None:
    """Quirk 9: `git` is per-agent state, no SHA, `repoUrl` without scheme."""
    agent_id, _ = _create(world)
    clock.advance(60)
    world.follow_up(agent_id, {"prompt": {"text": "more"}})
    clock.advance(60)
    agent = world.agent(agent_id)
    gits = [r.wire(world.now(), world.quirks, agent.git(world.now()))["git"] for r in agent.runs]
    assert gits[0] == gits[1]
    branch = gits[0]["branches"][0]
    assert branch["repoUrl"] == "github.com/acme/web"
    assert branch["branch"].startswith("cursor/")


def test_ids_are_reproducible_from_the_seed() -> None:
    """Seeded ids: two worlds with the same seed mint the same `bc-`/`run-` ids."""
    ids = [_create(World(ManualClock(), seed=7)) for _ in range(2)]
    assert ids[0] == ids[1]
    assert ids[0][0].startswith("bc-") and ids[0][1].startswith("run-")


def test_a_deleted_agent_is_not_found(world: World) -> None:
    """Reads after DELETE answer 404 `agent_not_found`."""
    agent_id, _ = _create(world)
    world.delete(agent_id)
    with pytest.raises(ApiError) as caught:
        world.agent(agent_id)
    assert (caught.value.status, caught.value.code) == (404, "agent_not_found")


def test_uppercase_hex_ids_are_accepted_and_answered_lowercase(world: World) -> None:
    """Quirk 15: ids in uppercase hex find the agent, whose id stays lowercase."""
    agent_id, _ = _create(world)
    assert world.agent(agent_id.upper().replace("BC-", "bc-")).id == agent_id


def test_a_slow_creation_exists_only_once_its_time_has_come_and_its_id_is_taken_at_once(clock: ManualClock) -> None:
    """Quirk 16: a create can take over 40 s; meanwhile its id reads 404 and a second POST of it answers 409."""
    world = World(clock, quirks=Quirks(creation_seconds=14))
    body = PROMPT | {"agentId": "bc-00000000-0000-4000-8000-000000000001"}
    creation = world.create_agent(body, world.keys[SIMULATED_API_KEY])
    with pytest.raises(ApiError) as missing:
        world.agent(creation.agent_id)
    with pytest.raises(ApiError) as taken:
        world.create_agent(body, world.keys[SIMULATED_API_KEY])
    clock.advance(14)
    assert missing.value.status == 404 and taken.value.code == "agent_id_conflict"
    assert list(world.agents) == [creation.agent_id]
    assert world.landed(creation)[1].status(world.now()) == "CREATING"


def test_a_run_scripted_with_events_seconds_says_nothing_after_them_until_its_end(world: World) -> None:
    """Issue 25: `events_seconds` puts a run's events in its first minute, then silence until it ends (stuck)."""
    agent = world.add_agent(script=RunScript(running_seconds=3600.0, events_seconds=60.0))
    run = agent.runs[-1]
    times = run.timeline.times
    assert times[-4] <= run.running_at + 60.0 < run.ended_at == times[-3]  # then the end's status, result, done


@pytest.mark.anyio
async def test_an_instant_clock_jumps_to_each_deadline_waited_for_and_never_back() -> None:
    """`InstantClock` (the SDK's simulated time): a wait returns at once with the clock at its deadline."""
    from cursor_cloud_agents.simulator import InstantClock

    clock = InstantClock(start=100.0)
    await clock.wait(130.0)
    assert clock.now() == 130.0
    await clock.wait(120.0)
    assert clock.now() == 130.0
