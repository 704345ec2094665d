"""Endpoint facts of docs/api-contract.md §1-§3 over real HTTP: shapes, auth, paging, validations, errors."""

from __future__ import annotations

import base64
from typing import Any

import httpx2
import pytest

from cursor_cloud_agents.simulator import (
    REPOSITORY_SCOPED_KEY,
    SERVICE_ACCOUNT_KEY,
    SIMULATED_API_KEY,
    ManualClock,
    Quirks,
    RunningSimulator,
    World,
)

CREATE: dict[str, Any] = {"prompt": {"text": "Add a README"}, "repos": [{"url": "https://github.com/acme/web"}]}


async def _error(response: httpx2.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code and body["error"]["message"]


@pytest.mark.anyio
async def test_basic_auth_with_the_key_as_username_is_accepted(sim: RunningSimulator) -> None:
    """Auth: `Basic base64(key:)` works like Bearer."""
    token = base64.b64encode(f"{SIMULATED_API_KEY}:".encode()).decode()
    async with httpx2.AsyncClient(base_url=sim.base_url) as http:
        response = await http.get("/v1/me", headers={"Authorization": f"Basic {token}"})
    assert response.status_code == 200


@pytest.mark.anyio
@pytest.mark.parametrize("header", [None, "Bearer wrong-key", "Token abc", "Basic !!!"])
async def test_a_missing_or_bad_key_is_401_unauthorized(sim: RunningSimulator, header: str | None) -> None:
    """No key or a bad key → 401 with the envelope and "Invalid User API Key"."""
    headers = {"Authorization": header} if header else {}
    async with httpx2.AsyncClient(base_url=sim.base_url) as http:
        response = await http.get("/v1/agents", headers=headers)
    await _error(response, 401, "unauthorized")
    assert response.json()["error"]["message"] == "Invalid User API Key"


@pytest.mark.anyio
async def test_me_for_a_service_account_key_has_only_name_and_created_at(sim: RunningSimulator) -> None:
    """Service-account keys: only `apiKeyName` and `createdAt`."""
    async with httpx2.AsyncClient(base_url=sim.base_url) as http:
        response = await http.get("/v1/me", headers={"Authorization": f"Bearer {SERVICE_ACCOUNT_KEY}"})
    assert set(response.json()) == {"apiKeyName", "createdAt"}


@pytest.mark.anyio
async def test_models_lists_the_documented_example_first(client: httpx2.AsyncClient) -> None:
    """`GET /v1/models` → `{items: Model[]}` with parameters and variants (string values)."""
    items = (await client.get("/v1/models")).json()["items"]
    assert [m["id"] for m in items[:2]] == ["composer-2", "claude-4.6-sonnet-thinking"]
    assert items[0]["variants"][0] == {
        "params": [{"id": "fast", "value": "true"}],
        "displayName": "Composer 2",
        "isDefault": True,
    }


@pytest.mark.anyio
async def test_create_agent_answers_201_with_agent_active_and_run_creating(client: httpx2.AsyncClient) -> None:
    """201 `{agent, run}`: agent ACTIVE with latestRunId = run.id, run CREATING, no nulls, no model."""
    response = await client.post("/v1/agents", json=CREATE | {"model": {"id": "composer-2"}})
    assert response.status_code == 201
    body = response.json()
    agent, run = body["agent"], body["run"]
    assert agent["status"] == "ACTIVE" and agent["latestRunId"] == run["id"] and run["status"] == "CREATING"
    assert agent["url"] == f"https://cursor.com/agents/{agent['id']}"
    assert set(run) == {"id", "agentId", "status", "createdAt", "updatedAt"}
    assert "model" not in agent and "null" not in response.text


@pytest.mark.anyio
async def test_idempotency_key_is_ignored_three_posts_make_three_agents(client: httpx2.AsyncClient) -> None:
    """Quirk 6: the same `Idempotency-Key` three times → three agents."""
    ids = {
        (await client.post("/v1/agents", json=CREATE, headers={"Idempotency-Key": "k"})).json()["agent"]["id"]
        for _ in range(3)
    }
    assert len(ids) == 3


@pytest.mark.anyio
async def test_a_reused_agent_id_is_agent_id_conflict(client: httpx2.AsyncClient) -> None:
    """Client-minted `agentId`: the second POST → 409 `agent_id_conflict`."""
    body = CREATE | {"agentId": "bc-00000000-0000-4000-8000-000000000001"}
    assert (await client.post("/v1/agents", json=body)).status_code == 201
    await _error(await client.post("/v1/agents", json=body), 409, "agent_id_conflict")


BAD_CREATES: list[tuple[str, dict[str, Any], str]] = [
    (
        "agentId with envVars",
        CREATE | {"agentId": "bc-00000000-0000-4000-8000-000000000002", "envVars": {"A": "1"}},
        "validation_error",
    ),
    ("CURSOR_ env var", CREATE | {"envVars": {"CURSOR_TOKEN": "x"}}, "validation_error"),
    (
        "21 repos",
        {
            "prompt": {"text": "x"},
            "env": {"type": "pool", "name": "acme-any-repo"},
            "repos": [{"url": f"https://github.com/a/r{i}"} for i in range(21)],
        },
        "validation_error",
    ),
    ("named cloud env with repos", CREATE | {"env": {"type": "cloud", "name": "web-env-1"}}, "validation_error"),
    (
        "two repos on a machine",
        {
            "prompt": {"text": "x"},
            "env": {"type": "machine"},
            "repos": [{"url": "https://github.com/a/b"}, {"url": "https://github.com/a/c"}],
        },
        "validation_error",
    ),
    (
        "two repos on the default pool",
        {
            "prompt": {"text": "x"},
            "env": {"type": "pool"},
            "repos": [{"url": "https://github.com/a/b"}, {"url": "https://github.com/a/c"}],
        },
        "validation_error",
    ),
    ("six images", {"prompt": {"text": "x", "images": [{"url": "https://e.com/i.png"}] * 6}}, "validation_error"),
    (
        "bad image type",
        {"prompt": {"text": "x", "images": [{"data": "AAAA", "mimeType": "image/bmp"}]}},
        "validation_error",
    ),
    ("unknown model", CREATE | {"model": {"id": "gpt-0"}}, "invalid_model"),
    (
        "unknown param",
        CREATE | {"model": {"id": "composer-2", "params": [{"id": "turbo", "value": "true"}]}},
        "validation_error",
    ),
    (
        "variant not offered",
        CREATE | {"model": {"id": "claude-4.6-opus", "params": [{"id": "fast", "value": "true"}]}},
        "validation_error",
    ),
    ("empty prompt", {"prompt": {"text": " "}}, "validation_error"),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("case", "body", "code"), BAD_CREATES, ids=[c[0] for c in BAD_CREATES])
async def test_create_validations_are_400_with_the_documented_codes(
    client: httpx2.AsyncClient, case: str, body: dict[str, Any], code: str
) -> None:
    """docs/api-contract.md §3.6 limits: agentId+envVars, CURSOR_ names, >20 repos, env/repos combinations, images,
    models."""
    await _error(await client.post("/v1/agents", json=body), 400, code)


@pytest.mark.anyio
async def test_several_repos_on_a_machine_quote_the_documented_message(client: httpx2.AsyncClient) -> None:
    """The documented 400 message for several repos on a machine or repo-bound pool."""
    body = {"prompt": {"text": "x"}, "env": {"type": "machine"}, "repos": [{"url": "https://github.com/a/b"}] * 2}
    message = (await client.post("/v1/agents", json=body)).json()["error"]["message"]
    assert message.startswith("My Machines and repo-bound pools accept one repo in repos.")


@pytest.mark.anyio
async def test_a_valid_variant_combination_is_accepted(client: httpx2.AsyncClient) -> None:
    """`fast=true` with `effort=low, thinking=false` is a variant of the restricted model."""
    params = [{"id": "effort", "value": "low"}, {"id": "thinking", "value": "false"}, {"id": "fast", "value": "true"}]
    response = await client.post("/v1/agents", json=CREATE | {"model": {"id": "opus", "params": params}})
    assert response.status_code == 201


@pytest.mark.anyio
async def test_an_empty_body_is_missing_body(client: httpx2.AsyncClient) -> None:
    """No body → 400 `missing_body`."""
    await _error(await client.post("/v1/agents"), 400, "missing_body")


@pytest.mark.anyio
@pytest.mark.parametrize("accept", [True, False])
async def test_full_sha_starting_ref_is_accepted_by_default_or_refused_in_strict_mode(
    clock: ManualClock, accept: bool
) -> None:
    """Quirk 1 (uncertain): refused 2026-10-01, accepted 2026-10-19; default follows the latest."""
    from cursor_cloud_agents.simulator import Quirks, serve

    world = World(clock, quirks=Quirks(accept_full_sha_starting_ref=accept))
    body = {"prompt": {"text": "x"}, "repos": [{"url": "https://github.com/a/b", "startingRef": "a" * 40}]}
    async with (
        serve(world) as sim,
        httpx2.AsyncClient(base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}) as http,
    ):
        response = await http.post("/v1/agents", json=body)
    assert response.status_code == (201 if accept else 400)


@pytest.mark.anyio
async def test_no_repo_agent_with_a_repository_scoped_key_is_403(sim: RunningSimulator) -> None:
    """A no-repo agent with a repository-scoped key → 403."""
    async with httpx2.AsyncClient(
        base_url=sim.base_url, headers={"Authorization": f"Bearer {REPOSITORY_SCOPED_KEY}"}
    ) as http:
        response = await http.post("/v1/agents", json={"prompt": {"text": "no repo"}})
    assert response.status_code == 403


@pytest.mark.anyio
@pytest.mark.parametrize("enabled", [True, False])
async def test_no_repo_agent_is_refused_403_when_disabled_for_the_account(clock: ManualClock, enabled: bool) -> None:
    """No-repo agents: 201 when enabled, 403 when the account has them disabled."""
    from cursor_cloud_agents.simulator import Quirks, serve

    world = World(clock, quirks=Quirks(no_repo_agents_enabled=enabled))
    async with (
        serve(world) as sim,
        httpx2.AsyncClient(base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}) as http,
    ):
        response = await http.post("/v1/agents", json={"prompt": {"text": "no repo"}})
    assert response.status_code == (201 if enabled else 403)


@pytest.mark.anyio
@pytest.mark.parametrize(("as_rate_limit", "code"), [(True, "rate_limit_exceeded"), (False, "usage_limit_exceeded")])
async def test_exhausted_usage_is_429_rate_limit_exceeded_by_default(
    clock: ManualClock, as_rate_limit: bool, code: str
) -> None:
    """Quirk 11: exhausted included usage observed as 429 `rate_limit_exceeded` with the recorded message."""
    from cursor_cloud_agents.simulator import Quirks, serve

    world = World(clock, quirks=Quirks(exhausted_usage_as_rate_limit=as_rate_limit))
    world.usage_exhausted = True
    async with (
        serve(world) as sim,
        httpx2.AsyncClient(base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}) as http,
    ):
        response = await http.post("/v1/agents", json=CREATE)
    await _error(response, 429, code)
    assert "used all included Cloud Agent usage" in response.json()["error"]["message"]


@pytest.mark.anyio
async def test_list_agents_pages_with_limit_and_omits_next_cursor_at_the_end(
    world: World, client: httpx2.AsyncClient
) -> None:
    """Paging: default 20, opaque cursor, `nextCursor` omitted (never null) on the last page, newest first."""
    for index in range(25):
        world.add_agent(f"task {index}", created_ago=1000 - index)
    first = (await client.get("/v1/agents")).json()
    assert len(first["items"]) == 20 and first["items"][0]["name"] == "task 24"
    second = (await client.get("/v1/agents", params={"cursor": first["nextCursor"]})).json()
    assert len(second["items"]) == 5 and "nextCursor" not in second
    assert set(first["items"][0]) == {"id", "name", "status", "env", "url", "createdAt", "updatedAt", "latestRunId"}


@pytest.mark.anyio
@pytest.mark.parametrize("limit", ["0", "101", "abc"])
async def test_an_out_of_range_limit_is_validation_error(client: httpx2.AsyncClient, limit: str) -> None:
    """`limit` 1-100 (out of range → 400 `validation_error`, inferred)."""
    await _error(await client.get("/v1/agents", params={"limit": limit}), 400, "validation_error")


@pytest.mark.anyio
async def test_include_archived_defaults_to_true(world: World, client: httpx2.AsyncClient) -> None:
    """Archived agents are listed unless `includeArchived=false`."""
    world.add_agent("kept", created_ago=100)
    world.add_agent("archived", created_ago=100, archived=True)
    assert len((await client.get("/v1/agents")).json()["items"]) == 2
    hidden = (await client.get("/v1/agents", params={"includeArchived": "false"})).json()["items"]
    assert [a["name"] for a in hidden] == ["kept"]


@pytest.mark.anyio
async def test_pr_url_filter_returns_only_the_linked_agent(world: World, client: httpx2.AsyncClient) -> None:
    """`prUrl` filters to the agent linked to that PR."""
    linked = world.add_agent("with PR", created_ago=3600, auto_create_pr=True)
    world.add_agent("other", created_ago=3600)
    pr_url = linked.branches[0]["prUrl"]
    items = (await client.get("/v1/agents", params={"prUrl": pr_url})).json()["items"]
    assert [a["id"] for a in items] == [linked.id]


@pytest.mark.anyio
async def test_unknown_ids_are_the_documented_404_codes(world: World, client: httpx2.AsyncClient) -> None:
    """404 `agent_not_found`, `run_not_found`, `artifact_not_found`."""
    agent = world.add_agent(created_ago=3600)
    missing_agent = "bc-00000000-0000-4000-8000-00000000dead"
    await _error(await client.get(f"/v1/agents/{missing_agent}"), 404, "agent_not_found")
    await _error(
        await client.get(f"/v1/agents/{agent.id}/runs/run-00000000-0000-4000-8000-000000000000"), 404, "run_not_found"
    )
    download = await client.get(f"/v1/agents/{agent.id}/artifacts/download", params={"path": "artifacts/none.txt"})
    await _error(download, 404, "artifact_not_found")


@pytest.mark.anyio
async def test_get_run_and_list_runs_newest_first(clock: ManualClock, world: World, client: httpx2.AsyncClient) -> None:
    """Runs list newest first with full Run objects; a terminal run has durationMs and result."""
    agent = world.add_agent(created_ago=3600)
    clock.advance(1)
    created = (await client.post(f"/v1/agents/{agent.id}/runs", json={"prompt": {"text": "more"}})).json()["run"]
    runs = (await client.get(f"/v1/agents/{agent.id}/runs")).json()["items"]
    assert [r["id"] for r in runs] == [created["id"], agent.runs[0].id]
    first = (await client.get(f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}")).json()
    assert first["status"] == "FINISHED" and first["durationMs"] > 0 and first["result"]


@pytest.mark.anyio
async def test_cancel_archive_unarchive_delete_answer_the_id(
    clock: ManualClock, world: World, client: httpx2.AsyncClient
) -> None:
    """Cancel → `{id: runId}`; archive/unarchive (idempotent) and delete → `{id: agentId}`."""
    agent = world.add_agent()
    run_id = agent.runs[0].id
    assert (await client.post(f"/v1/agents/{agent.id}/runs/{run_id}/cancel")).json() == {"id": run_id}
    clock.advance(5)
    for action in ("archive", "archive", "unarchive", "unarchive"):
        assert (await client.post(f"/v1/agents/{agent.id}/{action}")).json() == {"id": agent.id}
    assert (await client.delete(f"/v1/agents/{agent.id}")).json() == {"id": agent.id}
    await _error(await client.get(f"/v1/agents/{agent.id}"), 404, "agent_not_found")


@pytest.mark.anyio
async def test_repositories_over_one_per_minute_is_429_with_retry_after(
    clock: ManualClock, client: httpx2.AsyncClient
) -> None:
    """`/v1/repositories`: 1/min per key → 429 with `Retry-After` and `X-RateLimit-*`."""
    assert (await client.get("/v1/repositories")).json()["items"][0] == {"url": "https://github.com/your-org/your-repo"}
    refused = await client.get("/v1/repositories")
    await _error(refused, 429, "rate_limit_exceeded")
    assert refused.headers["retry-after"] == "60"
    assert {"x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"} <= set(refused.headers)
    clock.advance(60)
    assert (await client.get("/v1/repositories")).status_code == 200


@pytest.mark.anyio
async def test_repositories_over_thirty_per_hour_is_429(clock: ManualClock, client: httpx2.AsyncClient) -> None:
    """30 per hour per key even when spaced a minute apart."""
    for _ in range(30):
        assert (await client.get("/v1/repositories")).status_code == 200
        clock.advance(61)
    refused = await client.get("/v1/repositories")
    assert refused.status_code == 429 and refused.headers["x-ratelimit-limit"] == "30"


@pytest.mark.anyio
async def test_environments_page_with_an_offset_cursor_and_get_details(client: httpx2.AsyncClient) -> None:
    """`/v1/environments` pages (docs cursor form `MjA`); `/v1/environments/{id}` adds details."""
    first = (await client.get("/v1/environments")).json()
    assert len(first["items"]) == 20 and first["nextCursor"] == "MjA"
    second = (await client.get("/v1/environments", params={"cursor": "MjA"})).json()
    assert len(second["items"]) == 5 and "nextCursor" not in second
    detail = (await client.get(f"/v1/environments/{first['items'][0]['id']}")).json()
    assert {"environmentJson", "versionId", "repoFile"} <= set(detail)


@pytest.mark.anyio
async def test_v0_conversation_lists_prompts_and_replies(world: World, client: httpx2.AsyncClient) -> None:
    """Legacy `GET /v0/agents/{id}/conversation` → `{id, messages: [{id, type, text}]}`."""
    agent = world.add_agent("Add a README", created_ago=3600)
    body = (await client.get(f"/v0/agents/{agent.id}/conversation")).json()
    assert body["id"] == agent.id
    assert [m["type"] for m in body["messages"]] == ["user_message", "assistant_message"]


@pytest.mark.anyio
async def test_with_the_quirk_an_agent_whose_run_ended_still_reads_active_while_follow_ups_are_taken(
    world: World, client: httpx2.AsyncClient
) -> None:
    """Quirk `ended_agents_listed_active` (issue 21): listed and read ACTIVE after its run ended, as the docs
    allow (ACTIVE also means waiting on background work); the run says it ended, and a follow-up is taken."""
    world.quirks = Quirks(ended_agents_listed_active=True)
    agent = world.add_agent("Ended", created_ago=3600)
    listed = (await client.get("/v1/agents")).json()["items"]
    read = (await client.get(f"/v1/agents/{agent.id}")).json()
    run = (await client.get(f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}")).json()
    follow_up = await client.post(f"/v1/agents/{agent.id}/runs", json={"prompt": {"text": "More"}})
    assert [item["status"] for item in listed] == ["ACTIVE"] and read["status"] == "ACTIVE"
    assert run["status"] == "FINISHED"
    assert follow_up.status_code == 201
