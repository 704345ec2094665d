"""Contract: agents (list, get, create, archive, unarchive, delete), client against simulator."""

from __future__ import annotations

import uuid

import pytest

from cursor_cloud_agents.api import (
    AgentArchivedError,
    AgentIdConflictError,
    BadRequestError,
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    EnvSpec,
    ModelParam,
    ModelSelection,
    NotFoundError,
    PermissionDeniedError,
    Prompt,
    RateLimitError,
    RepoSpec,
    UsageLimitExceededError,
)
from cursor_cloud_agents.simulator import (
    REPOSITORY_SCOPED_KEY,
    ManualClock,
    Quirks,
    RunningSimulator,
    World,
)
from cursor_cloud_agents.simulator.environments import environments

from .conftest import Sleeps, make_client

pytestmark = pytest.mark.anyio
REPO = "https://github.com/acme/web"
SHA = "0123456789abcdef0123456789abcdef01234567"


def create_body(**fields: object) -> CreateAgentRequest:
    """A create body for one repository, with any extra fields."""
    values: dict[str, object] = {"prompt": Prompt(text="Add a README with setup instructions")}
    values["repos"] = [RepoSpec(url=REPO)]
    return CreateAgentRequest.model_validate(values | fields)


async def test_a_created_agent_is_active_with_a_creating_run_that_becomes_running_then_finished(
    client: CursorClient, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.6, §2a: 201 {agent ACTIVE with latestRunId, run CREATING}; then RUNNING, FINISHED, agent
    IDLE."""
    created = await client.create_agent(create_body())
    agent, run = created.agent, created.run
    assert (agent.status, run.status, agent.latest_run_id) == ("ACTIVE", "CREATING", run.id)
    clock.advance(5)
    assert (await client.get_run(agent.id, run.id)).status == "RUNNING"
    clock.advance(60)
    finished = await client.get_run(agent.id, run.id)
    assert finished.status == "FINISHED" and finished.result and finished.duration_ms
    assert (await client.get_agent(agent.id)).status == "IDLE"


async def test_create_sends_a_client_minted_agent_id_and_the_agent_has_it(
    client: CursorClient, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §3.6 `agentId`: the client mints `bc-<uuid>` before the POST; the API uses it."""
    created = await client.create_agent(create_body())
    sent = sim.requests[-1].json()
    assert sent["agentId"] == created.agent.id and created.agent.id.startswith("bc-")


async def test_a_created_agent_is_named_from_the_prompt_when_no_name_is_given(client: CursorClient) -> None:
    """docs/api-contract.md §2 Agent `name`: auto-derived from the prompt."""
    created = await client.create_agent(create_body())
    assert created.agent.name == "Add a README with setup instructions"


async def test_create_with_an_existing_agent_id_is_agent_id_conflict(client: CursorClient) -> None:
    """docs/api-contract.md §3.6: re-POST of an existing `agentId` → 409 `agent_id_conflict` (the idempotency key)."""
    agent_id = f"bc-{uuid.uuid4()}"
    await client.create_agent(create_body(agent_id=agent_id))
    with pytest.raises(AgentIdConflictError) as caught:
        await client.create_agent(create_body(agent_id=agent_id))
    assert (caught.value.status_code, caught.value.code) == (409, "agent_id_conflict")


async def test_agent_id_with_env_vars_is_a_validation_error(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.6, quirk 7: `envVars` cannot be combined with `agentId` → 400."""
    body = create_body(agent_id=f"bc-{uuid.uuid4()}", env_vars={"TOKEN": "x"})
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(body)
    assert (caught.value.status_code, caught.value.code) == (400, "validation_error") and world.agents == {}


async def test_env_vars_without_agent_id_create_an_agent_whose_id_the_client_did_not_mint(
    client: CursorClient, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §3.6: with `envVars` the client sends no `agentId`; the server mints one."""
    created = await client.create_agent(create_body(env_vars={"TOKEN": "x"}))
    assert "agentId" not in sim.requests[-1].json() and created.agent.id.startswith("bc-")


async def test_env_var_names_starting_with_cursor_are_refused(client: CursorClient) -> None:
    """docs/api-contract.md §3.6 `envVars`: names must not start with `CURSOR_` → 400."""
    with pytest.raises(BadRequestError, match="CURSOR_"):
        await client.create_agent(create_body(env_vars={"CURSOR_TOKEN": "x"}))


async def test_an_unknown_model_is_invalid_model(client: CursorClient) -> None:
    """docs/api-contract.md §3.2: unknown model id on create → 400 `invalid_model`."""
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(create_body(model=ModelSelection(id="gpt-0")))
    assert caught.value.code == "invalid_model"


async def test_an_unknown_model_parameter_is_a_validation_error(client: CursorClient) -> None:
    """docs/api-contract.md §3.2: parameters come from `/v1/models`; an unknown one → 400 `validation_error`."""
    model = ModelSelection(id="composer-2", params=[ModelParam(id="turbo", value="true")])
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(create_body(model=model))
    assert caught.value.code == "validation_error"


async def test_a_known_model_with_a_valid_variant_is_accepted_and_never_returned(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §2, quirk 8: the model is kept by the API but never returned on agent or run."""
    model = ModelSelection(id="composer-2", params=[ModelParam(id="fast", value="false")])
    created = await client.create_agent(create_body(model=model))
    assert world.agents[created.agent.id].model == {"id": "composer-2", "params": [{"id": "fast", "value": "false"}]}
    assert "model" not in (created.agent.model_extra or {}) and "model" not in (created.run.model_extra or {})


@pytest.mark.parametrize("quirks", [Quirks(accept_full_sha_starting_ref=True)])
async def test_a_full_sha_starting_ref_is_accepted_as_observed_on_2026_10_19(client: CursorClient) -> None:
    """docs/api-contract.md quirk 1 (accepted side): a 40-hex `startingRef` → 201."""
    created = await client.create_agent(create_body(repos=[RepoSpec(url=REPO, starting_ref=SHA)]))
    assert created.agent.repos and created.agent.repos[0].starting_ref == SHA


@pytest.mark.parametrize("quirks", [Quirks(accept_full_sha_starting_ref=False)])
async def test_a_full_sha_starting_ref_is_refused_as_observed_on_2026_10_01(client: CursorClient) -> None:
    """docs/api-contract.md quirk 1 (refused side): a 40-hex `startingRef` → 400 `invalid_branch_name`."""
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(create_body(repos=[RepoSpec(url=REPO, starting_ref=SHA)]))
    assert caught.value.code == "invalid_branch_name"


async def test_a_named_cloud_environment_with_repositories_is_refused(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.6 `env`: a named cloud env is mutually exclusive with `repos` → 400."""
    name = environments(world.origin)[0]["name"]
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(create_body(env=EnvSpec(type="cloud", name=name)))
    assert caught.value.code == "validation_error"


async def test_a_named_cloud_environment_from_the_environment_list_is_accepted(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.17: an environment's `name` is what goes in `env.name` for `type: cloud`."""
    name = (await client.list_environments()).items[0].name
    created = await client.create_agent(create_body(repos=None, env=EnvSpec(type="cloud", name=name)))
    assert created.agent.env is not None and (created.agent.env.type, created.agent.env.name) == ("cloud", name)
    assert name in {e["name"] for e in environments(world.origin)}


async def test_an_unknown_named_cloud_environment_is_a_validation_error(client: CursorClient) -> None:
    """docs/api-contract.md §3.17: `env.name` must name one of the account's environments → 400 `validation_error`."""
    with pytest.raises(BadRequestError, match="Unknown environment") as caught:
        await client.create_agent(create_body(repos=None, env=EnvSpec(type="cloud", name="no-such-env")))
    assert caught.value.code == "validation_error"


@pytest.mark.parametrize("env", [EnvSpec(type="machine"), EnvSpec(type="pool")], ids=["machine", "default-pool"])
async def test_several_repositories_on_a_machine_or_the_default_pool_are_refused(
    client: CursorClient, env: EnvSpec
) -> None:
    """docs/api-contract.md §3.6 `repos`: machines and the default pool take exactly one repo → 400 with the documented
    text."""
    repos = [RepoSpec(url=REPO), RepoSpec(url="https://github.com/acme/api")]
    with pytest.raises(BadRequestError, match="accept one repo in repos"):
        await client.create_agent(create_body(env=env, repos=repos))


async def test_an_unknown_pool_is_refused(client: CursorClient) -> None:
    """docs/api-contract.md §3.6 `env`: unknown pool → 400."""
    with pytest.raises(BadRequestError, match="Unknown pool"):
        await client.create_agent(create_body(env=EnvSpec(type="pool", name="nope")))


async def test_more_than_twenty_repositories_are_refused_by_the_client_before_sending(
    client: CursorClient, sim: RunningSimulator, world: World
) -> None:
    """docs/api-contract.md §3.6 `repos` ≤ 20: the client's request model refuses 21; the simulator would answer 400."""
    with pytest.raises(ValueError, match="20"):
        create_body(repos=[RepoSpec(url=f"{REPO}{n}") for n in range(21)])
    assert sim.requests == [] and world.agents == {}


async def test_a_repository_without_the_scm_integration_is_integration_not_connected(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.6: 400 `integration_not_connected` with `helpUrl` and `provider`; nothing created."""
    world.disconnected_providers.add("gitlab")
    with pytest.raises(BadRequestError) as caught:
        await client.create_agent(create_body(repos=[RepoSpec(url="https://gitlab.com/acme/web")]))
    assert (caught.value.code, caught.value.details["provider"]) == ("integration_not_connected", "gitlab")
    assert "helpUrl" in caught.value.details and world.agents == {}


async def test_a_no_repo_agent_with_a_repository_scoped_key_is_forbidden(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps
) -> None:
    """Issue 4 §2 (from docs/api-contract.md §3.6): no `repos` and no `env` with a repository-scoped key → 403."""
    async with make_client(sim, clock, sleeps, REPOSITORY_SCOPED_KEY) as scoped:
        with pytest.raises(PermissionDeniedError) as caught:
            await scoped.create_agent(create_body(repos=None))
    assert caught.value.status_code == 403


async def test_a_no_repo_agent_is_created_where_the_account_allows_it(client: CursorClient) -> None:
    """docs/api-contract.md §3.6: omit `repos` and `env` for a no-repo agent (enabled side of the switch)."""
    created = await client.create_agent(create_body(repos=None))
    assert created.agent.repos == [] and created.run.status == "CREATING"


@pytest.mark.parametrize("quirks", [Quirks(no_repo_agents_enabled=False)])
async def test_a_no_repo_agent_where_the_account_has_it_disabled_is_forbidden(client: CursorClient) -> None:
    """Issue 4 §2: a no-repo agent where the account has it disabled → 403 `feature_unavailable`."""
    with pytest.raises(PermissionDeniedError) as caught:
        await client.create_agent(create_body(repos=None))
    assert caught.value.code == "feature_unavailable"


@pytest.mark.parametrize("quirks", [Quirks(exhausted_usage_as_rate_limit=True)])
async def test_exhausted_usage_is_429_rate_limit_exceeded_and_the_client_knows_waiting_will_not_help(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md quirk 11 (observed): 429 `rate_limit_exceeded` "used all included…" →
    UsageLimitExceededError."""
    world.usage_exhausted = True
    with pytest.raises(UsageLimitExceededError) as caught:
        await client.create_agent(create_body())
    assert (caught.value.status_code, caught.value.code) == (429, "rate_limit_exceeded") and world.agents == {}


@pytest.mark.parametrize("quirks", [Quirks(exhausted_usage_as_rate_limit=False)])
async def test_exhausted_usage_as_documented_is_429_usage_limit_exceeded(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §1 Rate limits (documented side): 429 `usage_limit_exceeded`."""
    world.usage_exhausted = True
    with pytest.raises(UsageLimitExceededError) as caught:
        await client.create_agent(create_body())
    assert (caught.value.status_code, caught.value.code) == (429, "usage_limit_exceeded")
    assert isinstance(caught.value, RateLimitError)


async def test_idempotency_key_is_ignored_so_two_creates_make_two_agents(client: CursorClient, world: World) -> None:
    """docs/api-contract.md quirk 6: the server ignores `Idempotency-Key`; only `agentId` deduplicates."""
    await client.create_agent(create_body())
    await client.create_agent(create_body())
    assert len(world.agents) == 2


async def test_get_agent_returns_the_full_record(client: CursorClient) -> None:
    """docs/api-contract.md §2 Agent: the full record adds repos, workOnCurrentBranch, autoCreatePR; url is
    /agents/<id>."""
    created = await client.create_agent(create_body(auto_create_pr=True))
    agent = await client.get_agent(created.agent.id)
    assert agent.repos and agent.repos[0].url == REPO
    assert (agent.work_on_current_branch, agent.auto_create_pr) == (False, True)
    assert agent.url == f"https://cursor.com/agents/{agent.id}" and agent.env is not None


async def test_get_an_unknown_agent_is_agent_not_found(client: CursorClient) -> None:
    """docs/api-contract.md §3.5: 404 `agent_not_found`."""
    with pytest.raises(NotFoundError) as caught:
        await client.get_agent(f"bc-{uuid.uuid4()}")
    assert (caught.value.status_code, caught.value.code) == (404, "agent_not_found")


async def test_list_agents_items_carry_only_the_summary_fields(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §2: list items carry only id, name, status, env, url, createdAt, updatedAt, latestRunId."""
    world.add_agent(created_ago=3600)
    page = await client.list_agents()
    item = page.items[0]
    assert item.model_extra == {} and item.latest_run_id and item.status == "IDLE"
    assert not hasattr(item, "repos")


async def test_list_agents_omits_next_cursor_on_the_last_page(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §1 Paging: `nextCursor` while more pages follow, omitted (never null) on the last one."""
    for index in range(5):
        world.add_agent(f"task {index}", created_ago=3600 - index)
    first = await client.list_agents(limit=3)
    assert len(first.items) == 3 and first.next_cursor is not None
    last = await client.list_agents(limit=3, cursor=first.next_cursor)
    assert len(last.items) == 2 and last.next_cursor is None
    assert {a.id for a in first.items + last.items} == set(world.agents)


async def test_list_agents_default_limit_is_twenty(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §1 Paging: `limit` defaults to 20."""
    for index in range(21):
        world.add_agent(f"task {index}")
    page = await client.list_agents()
    assert len(page.items) == 20 and page.next_cursor is not None


async def test_list_agents_limit_out_of_range_is_a_validation_error(client: CursorClient) -> None:
    """docs/api-contract.md §1 Paging: limit 1-100; 101 → 400 `validation_error` (inferred, L)."""
    with pytest.raises(BadRequestError) as caught:
        await client.list_agents(limit=101)
    assert caught.value.code == "validation_error"


async def test_list_agents_includes_archived_by_default_and_hides_them_on_request(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.4: `includeArchived` defaults to true; false hides ARCHIVED agents."""
    kept = world.add_agent("kept", created_ago=3600)
    archived = world.add_agent("old", created_ago=7200, archived=True)
    assert {a.id for a in (await client.list_agents()).items} == {kept.id, archived.id}
    assert [a.id for a in (await client.list_agents(include_archived=False)).items] == [kept.id]


async def test_list_agents_by_pr_url_returns_only_the_linked_agent(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.4: `prUrl` returns only the agent(s) linked to that PR."""
    linked = world.add_agent("with a PR", created_ago=3600, auto_create_pr=True)
    world.add_agent("without", created_ago=3600)
    git = linked.git(world.now())
    assert git is not None
    page = await client.list_agents(pr_url=git["branches"][0]["prUrl"])
    assert [a.id for a in page.items] == [linked.id]


async def test_archive_and_unarchive_are_idempotent_and_return_the_agent_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.15: 200 `{id}`; re-archiving is a no-op 200; archived agents stay readable."""
    agent = world.add_agent(created_ago=3600)
    assert await client.archive_agent(agent.id) == agent.id
    assert await client.archive_agent(agent.id) == agent.id
    assert (await client.get_agent(agent.id)).status == "ARCHIVED"
    assert await client.unarchive_agent(agent.id) == agent.id
    assert await client.unarchive_agent(agent.id) == agent.id
    assert (await client.get_agent(agent.id)).status == "IDLE"


async def test_a_follow_up_on_an_archived_agent_is_agent_archived(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.7: 409 `agent_archived`; after unarchive the follow-up is accepted."""
    agent = world.add_agent(created_ago=3600, archived=True)
    body = CreateRunRequest(prompt=Prompt(text="again"))
    with pytest.raises(AgentArchivedError) as caught:
        await client.create_run(agent.id, body)
    assert (caught.value.status_code, caught.value.code) == (409, "agent_archived")
    await client.unarchive_agent(agent.id)
    assert (await client.create_run(agent.id, body)).status == "CREATING"


async def test_a_deleted_agent_reads_as_agent_not_found(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.16: DELETE → 200 `{id}`; later reads → 404 `agent_not_found`."""
    agent = world.add_agent(created_ago=3600)
    assert await client.delete_agent(agent.id) == agent.id
    with pytest.raises(NotFoundError) as caught:
        await client.get_agent(agent.id)
    assert caught.value.code == "agent_not_found"


async def test_a_deleted_agent_id_cannot_be_reused(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.6 `agentId`: an id once used conflicts even after delete (so a lost create stays
    resolvable)."""
    agent_id = f"bc-{uuid.uuid4()}"
    await client.create_agent(create_body(agent_id=agent_id))
    await client.delete_agent(agent_id)
    with pytest.raises(AgentIdConflictError):
        await client.create_agent(create_body(agent_id=agent_id))


async def test_an_uppercase_agent_id_reaches_the_same_agent_in_lowercase(
    client: CursorClient, world: World, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §1 Ids, quirk 15: uppercase hex accepted, answered in lowercase."""
    agent = world.add_agent(created_ago=3600)
    fetched = await client.get_agent(agent.id.upper().replace("BC-", "bc-"))
    assert fetched.id == agent.id and sim.requests[-1].path == f"/v1/agents/{agent.id}"
