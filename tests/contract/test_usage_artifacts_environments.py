"""Contract: usage, artifacts (list, URL, download), environments and the v0 conversation, client against simulator."""

from __future__ import annotations

import uuid
from datetime import datetime

import pytest

from cursor_cloud_agents.api import APIStatusError, CursorClient, NotFoundError, PermissionDeniedError
from cursor_cloud_agents.simulator import ArtifactSpec, ManualClock, Quirks, RunningSimulator, RunScript, World

pytestmark = pytest.mark.anyio
SHOT = ArtifactSpec("artifacts/screenshot.png", 12345)
HIDDEN = ArtifactSpec("artifacts/trace.zip", 4096, listed=False)


def _seconds(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


async def test_usage_with_cost_lists_every_run_and_sums_tokens(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12: per-run usage and cost (floats), `totalTokens` the sum of the four counts, totals
    summed."""
    agent = world.add_agent(scripts=[RunScript()], created_ago=3 * 3600)
    usage = await client.get_usage(agent.id)
    assert [r.id for r in usage.runs] == [agent.runs[1].id, agent.runs[0].id]
    first = usage.runs[0]
    assert first.usage_uuid and first.usage is not None and first.cost is not None
    tokens = first.usage
    assert tokens.total_tokens == sum(
        (tokens.input_tokens, tokens.output_tokens, tokens.cache_read_tokens, tokens.cache_write_tokens)
    )
    assert usage.total_usage is not None and usage.total_usage.total_tokens == 2 * first.usage.total_tokens
    assert usage.cost is not None and usage.cost.charged_cents == pytest.approx(2 * 23.4)
    assert isinstance(first.cost.raw_cost_cents, float)


async def test_usage_cost_arrives_late_after_the_run_ends(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.12: cost is eventually consistent: absent right after the end, present later."""
    agent = world.add_agent(script=RunScript(running_seconds=30))
    clock.advance(33)
    early = await client.get_usage(agent.id)
    assert early.runs[0].usage_uuid and early.runs[0].cost is None and early.cost is None
    clock.advance(world.quirks.usage_cost_delay_seconds)
    assert (await client.get_usage(agent.id)).runs[0].cost is not None


@pytest.mark.parametrize("quirks", [Quirks(usage_cost_delay_seconds=0)])
async def test_usage_cost_without_lag_is_there_as_soon_as_the_run_ends(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.12 (cost lag switch off): cost present the moment the run is terminal."""
    agent = world.add_agent(script=RunScript(running_seconds=30))
    clock.advance(32)
    assert (await client.get_usage(agent.id)).runs[0].cost is not None


async def test_usage_without_cost_omits_cost_for_request_priced_runs(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12: `cost` is optional ("backends that predate cost still parse")."""
    agent = world.add_agent(script=RunScript(cost_cents=None), created_ago=3600)
    usage = await client.get_usage(agent.id)
    assert usage.cost is None and usage.runs[0].cost is None and usage.runs[0].usage is not None


async def test_a_run_without_usage_yet_appears_with_zeros_and_no_usage_uuid(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12: runs with no recorded usage appear with zeros; `usageUuid` omitted."""
    agent = world.add_agent(script=RunScript(running_seconds=600))
    run = (await client.get_usage(agent.id)).runs[0]
    assert run.usage_uuid is None and run.usage is not None and run.usage.total_tokens == 0


async def test_usage_of_one_run_by_run_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12 `runId`: only that run."""
    agent = world.add_agent(scripts=[RunScript()], created_ago=3 * 3600)
    usage = await client.get_usage(agent.id, run_id=agent.runs[0].id)
    assert [r.id for r in usage.runs] == [agent.runs[0].id]


async def test_usage_of_an_unknown_run_is_run_not_found(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12: unknown `runId` → 404 `run_not_found`."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(NotFoundError) as caught:
        await client.get_usage(agent.id, run_id=f"run-{uuid.uuid4()}")
    assert caught.value.code == "run_not_found"


@pytest.mark.parametrize("quirks", [Quirks(usage_endpoint_available=False)])
async def test_usage_switched_off_is_feature_unavailable(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.12: early access → 403 `feature_unavailable`."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(PermissionDeniedError) as caught:
        await client.get_usage(agent.id)
    assert (caught.value.status_code, caught.value.code) == (403, "feature_unavailable")


async def test_artifacts_are_listed_with_path_size_and_time(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.13: `{items: [{path: "artifacts/…", sizeBytes, updatedAt}]}`."""
    agent = world.add_agent(script=RunScript(artifacts=(SHOT,)), created_ago=3600)
    [artifact] = await client.list_artifacts(agent.id)
    assert (artifact.path, artifact.size_bytes) == (SHOT.path, SHOT.size_bytes) and artifact.updated_at


async def test_an_artifact_download_url_expires_in_fifteen_minutes_and_serves_the_bytes(
    client: CursorClient, world: World, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §3.14: `{url, expiresAt: now+15 min}`; fetched without the Cursor key (loopback allowed)."""
    agent = world.add_agent(script=RunScript(artifacts=(SHOT,)), created_ago=3600)
    link = await client.artifact_download(agent.id, SHOT.path)
    assert link.expires_at is not None and _seconds(link.expires_at) - world.now() == 15 * 60
    data = await client.download_artifact(link.url)
    assert len(data) == SHOT.size_bytes and data.startswith(SHOT.path.encode())
    assert "authorization" not in sim.requests[-1].headers


async def test_an_expired_artifact_url_is_refused_by_the_storage_host(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.14: the presigned URL lasts 15 minutes; after that the host answers 403."""
    agent = world.add_agent(script=RunScript(artifacts=(SHOT,)), created_ago=3600)
    link = await client.artifact_download(agent.id, SHOT.path)
    clock.advance(16 * 60)
    with pytest.raises(APIStatusError) as caught:
        await client.download_artifact(link.url)
    assert caught.value.status_code == 403


@pytest.mark.parametrize("quirks", [Quirks(unlisted_artifacts=True)])
async def test_an_unlisted_artifact_is_missing_from_the_list_and_downloads_as_artifact_not_found(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md quirk 10 (observed side): the file was written, the list is empty, download → 404."""
    agent = world.add_agent(script=RunScript(artifacts=(HIDDEN,)), created_ago=3600)
    assert await client.list_artifacts(agent.id) == []
    with pytest.raises(NotFoundError) as caught:
        await client.artifact_download(agent.id, HIDDEN.path)
    assert (caught.value.status_code, caught.value.code) == (404, "artifact_not_found")


@pytest.mark.parametrize("quirks", [Quirks(unlisted_artifacts=False)])
async def test_with_the_empty_list_quirk_off_every_written_artifact_is_listed(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md quirk 10 (switch off): written files are listed and downloadable."""
    agent = world.add_agent(script=RunScript(artifacts=(HIDDEN,)), created_ago=3600)
    assert [a.path for a in await client.list_artifacts(agent.id)] == [HIDDEN.path]
    assert (await client.artifact_download(agent.id, HIDDEN.path)).url


async def test_an_artifact_path_outside_artifacts_is_refused_before_sending(
    client: CursorClient, world: World, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §3.14: paths are relative under `artifacts/`; the client refuses others (the API answers
    400)."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(ValueError, match="artifacts/"):
        await client.artifact_download(agent.id, "/opt/cursor/artifacts/x.png")
    assert sim.faults.count("GET", "/v1/agents/*/artifacts/download") == 0


async def test_an_artifact_that_does_not_exist_is_artifact_not_found(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.14: 404 `artifact_not_found`."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(NotFoundError) as caught:
        await client.artifact_download(agent.id, "artifacts/none.txt")
    assert caught.value.code == "artifact_not_found"


async def test_environments_page_with_an_opaque_cursor_omitted_at_the_end(client: CursorClient) -> None:
    """docs/api-contract.md §1 Paging, §3.17: `{items, nextCursor?}`; items `{id, name, owner, repos, createdAt,
    updatedAt}`."""
    first = await client.list_environments()
    assert len(first.items) == 20 and first.next_cursor == "MjA"  # base64("20"), the docs example
    rest = await client.list_environments(cursor=first.next_cursor)
    assert rest.next_cursor is None and rest.items
    env = first.items[0]
    assert env.name and env.owner in ("personal", "team") and env.repos and env.created_at


async def test_an_environment_by_id_adds_its_details(client: CursorClient) -> None:
    """docs/api-contract.md §3.17: `GET /v1/environments/{id}` adds `environmentJson`, `versionId`, `repoFile`."""
    listed = (await client.list_environments(limit=1)).items[0]
    env = await client.get_environment(listed.id)
    assert env.id == listed.id and env.environment_json and env.version_id


async def test_the_v0_conversation_lists_prompts_and_final_replies(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.17: legacy `GET /v0/agents/{id}/conversation` → `{id, messages: [{id, type, text}]}`."""
    agent = world.add_agent(created_ago=3600)
    conversation = await client.get_conversation(agent.id)
    assert conversation.id == agent.id
    assert [m.type for m in conversation.messages] == ["user_message", "assistant_message"]
    assert conversation.messages[1].text == agent.runs[0].script.result
