"""Contract: what the API may now send (issue 15), each with the simulator fact that makes it answer so.

`QUEUED` runs, `cursor_expired`, `key_not_supported`, `team_*`, and the team id header.
"""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import (
    ACTIVE_RUN_STATUSES,
    AccountSetupError,
    AgentBusyError,
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    CursorExpiredError,
    Prompt,
)
from cursor_cloud_agents.core.failures import from_api_error
from cursor_cloud_agents.server.pipeline.words import for_model
from cursor_cloud_agents.simulator import UNSUPPORTED_KEY, ManualClock, Quirks, RunningSimulator, World
from tests.contract.conftest import Sleeps, make_client

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("quirks", [Quirks(queued_seconds=1.0)])
async def test_a_queued_run_reads_queued_counts_as_active_and_refuses_a_follow_up(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """SDK internals: QUEUED is a run not started yet; kept as sent, active, and the agent is busy."""
    created = await client.create_agent(CreateAgentRequest(prompt=Prompt(text="Queue me")))
    run = await client.get_run(created.agent.id, created.run.id)
    assert run.status == "QUEUED" and run.status in ACTIVE_RUN_STATUSES and not run.is_terminal
    with pytest.raises(AgentBusyError):
        await client.create_run(created.agent.id, CreateRunRequest(prompt=Prompt(text="More")))
    clock.advance(1.5)
    assert (await client.get_run(created.agent.id, created.run.id)).status == "CREATING"


@pytest.mark.parametrize("quirks", [Quirks(cursor_ttl_seconds=60.0)])
async def test_an_expired_list_cursor_is_a_stale_cursor_error_the_tools_restart_from(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """cursor_expired: the client raises CursorExpiredError; the tools say to list again without cursor."""
    for index in range(3):
        world.add_agent(f"Task {index}")
    first = await client.list_agents(limit=1)
    assert first.next_cursor is not None
    clock.advance(61)
    with pytest.raises(CursorExpiredError) as caught:
        await client.list_agents(limit=1, cursor=first.next_cursor)
    failure = from_api_error(caught.value)
    assert failure.code == "CURSOR_EXPIRED" and "without cursor" in for_model(failure)  # the tools' words


async def test_a_key_of_another_api_is_a_configuration_error_naming_key_not_supported(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps
) -> None:
    """key_not_supported: an AccountSetupError, reported as CONFIGURATION naming the cause and the variable."""
    async with make_client(sim, clock, sleeps, key=UNSUPPORTED_KEY) as api:
        with pytest.raises(AccountSetupError) as caught:
            await api.me()
    refused = from_api_error(caught.value)
    failure = refused.payload() | {"message": for_model(refused)}  # as a tool answers it
    assert failure["code"] == "CONFIGURATION" and failure["upstream_code"] == "key_not_supported"
    assert "CURSOR_API_KEY" in failure["message"]


@pytest.mark.parametrize(("admin", "code"), [(None, "team_not_found"), (False, "team_admin_required")])
async def test_the_team_id_is_sent_as_a_header_and_team_errors_are_configuration_errors(
    sim: RunningSimulator, world: World, admin: bool | None, code: str
) -> None:
    """SDK 1.1 `x-cursor-team-id`: sent on every request; team_* answers map to CONFIGURATION naming CURSOR_TEAM_ID."""
    if admin is not None:
        world.teams["team-42"] = admin
    async with CursorClient(sim.base_url, "sim-key-00000000000000000000000000000000", team_id="team-42") as api:
        with pytest.raises(AccountSetupError) as caught:
            await api.create_agent(CreateAgentRequest(prompt=Prompt(text="Team work")))
    assert sim.requests[-1].headers["x-cursor-team-id"] == "team-42"
    assert caught.value.code == code
    failure = from_api_error(caught.value)
    assert failure.code == "CONFIGURATION" and "CURSOR_TEAM_ID" in for_model(failure)  # the tools' words


async def test_a_team_member_reads_within_the_team(sim: RunningSimulator, world: World) -> None:
    """A known team lets reads through (only mutations need an admin)."""
    world.teams["team-42"] = False
    async with CursorClient(sim.base_url, "sim-key-00000000000000000000000000000000", team_id="team-42") as api:
        assert (await api.me()).api_key_name
