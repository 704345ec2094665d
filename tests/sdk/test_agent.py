"""`AsyncAgent` (`sdk/_agent.py`): acceptance against an independent mock, and the product's guarantees on paid acts."""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.api import CreateAgentRequest, Prompt, ids
from cursor_cloud_agents.core.spend.paid import create_within_limits
from cursor_cloud_agents.core.state import CoreState
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk import (
    Agent,
    AgentNotFoundError,
    AssistantMessage,
    AsyncAgent,
    AsyncCursor,
    BadRequestError,
    Code,
    Cursor,
    ToolFailure,
)
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, Faults
from tests.sdk.conftest import ProgramEnvironment
from tests.sdk.mockapi import ASSISTANT_PIECES, RESULT_TEXT, mock_api
from tests.sdk.rig import program_settings, sdk_rig

pytestmark = pytest.mark.anyio


async def test_the_async_classes_with_only_key_and_base_url_create_send_and_wait_for_the_mocks_result(
    program_environment: ProgramEnvironment,
) -> None:
    """Acceptance (async): create + send + wait end with the mock's text after one POST /v1/agents; a second send
    is one POST .../runs; the stream yields the assistant's text; AsyncAgent.prompt answers in one call."""
    with mock_api(finish_on_read=False) as api:
        program_environment(api.base_url)
        async with AsyncCursor() as cursor:
            agent = await AsyncAgent.create(client=cursor, name="acceptance")
            run = await agent.send("Do the work")
            assert (await run.wait()).result == RESULT_TEXT
            assert api.count("POST /v1/agents") == 1
            await agent.send("And the rest")
            assert api.count(f"POST /v1/agents/{agent.agent_id}/runs") == 1
            texts = [message.text async for message in run.stream() if isinstance(message, AssistantMessage)]
            assert "".join(texts) == "".join(ASSISTANT_PIECES)
            assert (await AsyncAgent.prompt("One shot", client=cursor)).result == RESULT_TEXT
            assert api.count("POST /v1/agents") == 2


async def test_f71_a_create_whose_answer_is_cut_after_the_post_is_settled_with_one_agent() -> None:
    """F-71: the POST reached the simulator, the answer never came back; `send` asks again with the same minted id
    (refused as a duplicate), reads that agent and returns its run: one agent, never paid twice."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    async with sdk_rig(faults) as rig:
        agent = await AsyncAgent.create(client=rig.cursor)
        run = await agent.send("Build it")
        assert list(rig.world.agents) == [agent.agent_id]
        assert rig.posts("/v1/agents") == 2  # the same id both times: the API made one agent
        assert run.id == rig.world.agents[agent.agent_id].runs[0].id
        assert (await run.wait()).finished


async def test_f72_a_follow_up_whose_answer_is_cut_is_settled_with_one_run() -> None:
    """F-72: a follow-up POST reached the simulator and its answer was lost; asked again, the agent's latest run is
    that POST's run: it is returned and nothing is sent a second time."""
    faults = Faults()
    async with sdk_rig(faults) as rig:
        agent = await AsyncAgent.create(client=rig.cursor)
        await (await agent.send("First")).wait()
        faults.inject("POST", "/v1/agents/*/runs", Fault.cut_after_request())
        run = await agent.send("Second")
        runs = rig.world.agents[agent.agent_id].runs
        assert rig.posts("/v1/agents/*/runs") == 1
        assert len(runs) == 2 and run.id == runs[-1].id


async def test_l73_the_creation_limit_refuses_a_script_when_the_server_used_the_places(tmp_path: Path) -> None:
    """L-73: a server on the same state directory created the one agent CURSOR_MCP_MAX_NEW_AGENTS=1 allows; the
    script's first send is refused LIMIT_REACHED and sends nothing."""
    async with sdk_rig(state_dir=tmp_path, CURSOR_MCP_MAX_NEW_AGENTS="1") as rig:
        server = CoreState(
            program_settings(rig.sim.base_url, tmp_path, CURSOR_MCP_MAX_NEW_AGENTS="1"),
            Redactor([SIMULATED_API_KEY]),
            Clock(now=rig.clock.now),
            client=rig.cursor.api,
        )
        request = CreateAgentRequest(prompt=Prompt(text="The server's"), agent_id=ids.mint_agent_id())
        await create_within_limits(server, request)
        agent = await AsyncAgent.create(client=rig.cursor)
        with pytest.raises(ToolFailure) as refused:
            await agent.send("The script's")
        assert refused.value.code == Code.LIMIT_REACHED
        assert rig.posts("/v1/agents") == 1
        assert "max_new_agents=1 (CURSOR_MCP_MAX_NEW_AGENTS)" in refused.value.message  # the argument and its variable


async def test_the_model_given_to_send_stays_for_the_later_sends() -> None:
    async with sdk_rig() as rig:
        models = await rig.cursor.models()
        first, other = models[0].id, models[-1].id
        agent = await AsyncAgent.create(client=rig.cursor, model=first)
        await (await agent.send("One")).wait()
        await (await agent.send("Two", model=other)).wait()
        await (await agent.send("Three")).wait()
        sent = [r.json().get("model", {}).get("id") for r in rig.sim.faults.requests if r.method == "POST"]
        assert sent == [first, other, other]


async def test_a_send_while_a_run_is_active_is_refused_agent_busy_and_sends_nothing_more() -> None:
    async with sdk_rig() as rig:
        agent = await AsyncAgent.create(client=rig.cursor)
        await agent.send("Long work")
        with pytest.raises(ToolFailure) as refused:
            await agent.send("Too soon")
        assert refused.value.code == Code.AGENT_BUSY


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"local": {"cwd": "/tmp"}}, "Local agents"),
        ({"cloud": {"repos": [{"url": "http://github.com/o/r"}]}}, "https URL"),
        ({"cloud": {"repos": [{"url": "https://github.com/o/r", "ref": "main"}]}}, "unknown keys"),
        ({"cloud": {"env": {"type": "laptop"}}}, "not one of cloud, pool, machine"),
        ({"agent_id": "bc-not-a-uuid"}, "Nothing was sent"),
        ({"model": "no-such-model"}, "Unknown model"),
        ({"name": "n" * 101}, "name"),
    ],
)
async def test_a_create_with_options_it_cannot_send_is_refused_before_any_post(
    options: dict[str, object], says: str
) -> None:
    async with sdk_rig() as rig:
        with pytest.raises(ToolFailure) as refused:
            await AsyncAgent.create(client=rig.cursor, **options)  # pyright: ignore[reportArgumentType] -- checked at run time
        assert refused.value.code == Code.VALIDATION and says in refused.value.message
        assert rig.posts("*") == 0


async def test_an_upstream_error_that_echoes_the_key_reaches_the_program_masked() -> None:
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.echo_auth())
    async with sdk_rig(faults) as rig:
        agent = await AsyncAgent.create(client=rig.cursor)
        with pytest.raises(ToolFailure) as refused:
            await agent.send("Build it")
        shown = f"{refused.value} {refused.value.payload()}"
        assert SIMULATED_API_KEY not in shown
        assert refused.value.code == Code.VALIDATION


async def test_artifacts_usage_and_the_records_of_an_agent_are_read() -> None:
    async with sdk_rig() as rig:
        agent = await AsyncAgent.create(client=rig.cursor, name="Reader")
        await (await agent.send("Write a report [sim:artifact]")).wait()
        listed = await agent.list_artifacts()
        assert [artifact.path for artifact in listed] == ["artifacts/report.md"]
        assert len(await agent.download_artifact("artifacts/report.md")) == 2048
        assert (await agent.get_usage()).runs
        assert (await AsyncAgent.get(agent.agent_id, client=rig.cursor)).name == "Reader"
        assert [item.id for item in (await AsyncAgent.list(client=rig.cursor)).items] == [agent.agent_id]
        resumed = await AsyncAgent.resume(agent.agent_id, client=rig.cursor)
        assert (await (await resumed.send("More")).wait()).finished
        await AsyncAgent.archive(agent.agent_id, client=rig.cursor)
        assert (await agent.reload()).status == "ARCHIVED"
        await AsyncAgent.unarchive(agent.agent_id, client=rig.cursor)
        await AsyncAgent.delete(agent.agent_id, client=rig.cursor)
        assert rig.world.agents == {}


def test_agents_and_runs_are_found_by_class_as_cursors_sdk_finds_them_k_53() -> None:
    """K-53: `Agent.get`, `Agent.list`, `Agent.list_runs(agent_id)`, `Agent.get_run(run_id)` and
    `Agent.cancel_run(run_id)` work on the class as in Cursor's SDK (a run's agent is the one this connection
    remembers, or `agent_id=`); `agent.list_runs()` still works on an agent; unknown ids are said as such."""
    with Cursor(simulated=True) as cursor:
        agent = Agent.create(client=cursor)
        run = agent.send("Work for a while [sim:seconds=600]")
        assert Agent.get(agent.agent_id, client=cursor).id == agent.agent_id
        assert agent.agent_id in [summary.id for summary in Agent.list(client=cursor, runtime="cloud")]
        assert [r.id for r in Agent.list_runs(agent.agent_id, client=cursor)] == [r.id for r in agent.list_runs()]
        assert Agent.get_run(run.id, client=cursor).agent_id == agent.agent_id
        assert Agent.get_run(run.id, {"agent_id": agent.agent_id}, client=cursor).id == run.id
        Agent.cancel_run(run.id, client=cursor)
        assert run.wait().status == "cancelled"
        with pytest.raises(BadRequestError, match="Pass agent_id="):
            Agent.get_run("run-11111111-1111-4111-8111-111111111111", client=cursor)
        with pytest.raises(AgentNotFoundError):
            Agent.get("bc-11111111-1111-4111-8111-111111111111", client=cursor)
        with pytest.raises(BadRequestError, match="only cloud agents are listed"):
            Agent.list({"runtime": "local"}, client=cursor)


def test_a_run_started_by_another_program_of_this_machine_is_found_through_the_store_k_53(
    program_environment: ProgramEnvironment,
) -> None:
    with mock_api() as api:
        program_environment(api.base_url)
        with Cursor() as first:
            run = Agent.create(client=first).send("Work")
        with Cursor() as second:
            assert Agent.get_run(run.id, client=second).agent_id == run.agent_id
