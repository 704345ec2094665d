"""The client against the simulator over loopback HTTP: every endpoint, a whole lifecycle (docs/architecture.md §5
contract)."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import (
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    NotFoundError,
    Prompt,
    ResultEvent,
    TailCollector,
)
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, serve


@pytest.mark.anyio
async def test_a_whole_agent_lifecycle_against_the_simulator() -> None:
    """docs/api-contract.md §3: create, run to the end, read everything, stream, follow up, cancel, archive, delete."""
    clock = ManualClock()
    async with serve(World(clock)) as sim:
        async with CursorClient(sim.base_url, SIMULATED_API_KEY, allow_loopback_artifacts=True) as client:
            assert (await client.me()).api_key_name
            assert await client.list_models()
            assert await client.list_repositories()
            created = await client.create_agent(CreateAgentRequest(prompt=Prompt(text="hello world")))
            agent, run = created.agent.id, created.run.id
            for _ in range(30):
                clock.advance(10)
            assert (await client.get_run(agent, run)).is_terminal
            assert (await client.list_agents(limit=5)).items[0].id == agent
            assert (await client.list_runs(agent)).items[0].id == run
            assert (await client.get_usage(agent, run_id=run)).runs
            await client.list_artifacts(agent)
            tail = TailCollector(5)
            outcome = await client.walk_replay(agent, run, tail)
            assert outcome.ended_by == "result" and outcome.retention_seconds is not None
            assert isinstance(tail.typed()[-1], ResultEvent)
            async with client.stream_run(agent, run) as stream:
                assert [event.event async for event in stream][-1] == "done"
            assert (await client.get_conversation(agent)).messages
            environments = await client.list_environments()
            assert (await client.get_environment(environments.items[0].id)).id == environments.items[0].id
            follow_up = await client.create_run(
                agent, CreateRunRequest(prompt=Prompt(text="more")), previous_run_id=run
            )
            assert await client.cancel_run(agent, follow_up.id) == follow_up.id
            assert await client.archive_agent(agent) == agent
            assert await client.unarchive_agent(agent) == agent
            assert await client.delete_agent(agent) == agent
            with pytest.raises(NotFoundError):
                await client.get_agent(agent)
