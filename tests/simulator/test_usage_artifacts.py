"""Usage (docs/api-contract.md §3.12) and artifacts (§3.13, §3.14) over HTTP, with their quirks under both settings."""

from __future__ import annotations

import httpx2
import pytest

from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    ArtifactSpec,
    ManualClock,
    Quirks,
    RunningSimulator,
    RunScript,
    World,
    serve,
)

AUTH = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}


@pytest.mark.anyio
async def test_usage_lists_every_run_with_zeros_until_recorded(
    clock: ManualClock, world: World, client: httpx2.AsyncClient
) -> None:
    """Runs without usage appear with zeros and no `usageUuid`; totals sum the runs; totalTokens sums the four."""
    agent = world.add_agent(created_ago=3600)
    clock.advance(1)
    await client.post(f"/v1/agents/{agent.id}/runs", json={"prompt": {"text": "more"}})
    body = (await client.get(f"/v1/agents/{agent.id}/usage")).json()
    newest, oldest = body["runs"]
    assert "usageUuid" not in newest and newest["usage"]["totalTokens"] == 0
    assert oldest["usage"]["totalTokens"] == 6160 + 1660 + 11100 + 21300
    assert body["totalUsage"] == oldest["usage"]
    assert isinstance(oldest["cost"]["rawCostCents"], float) and isinstance(body["cost"]["chargedCents"], float)


@pytest.mark.anyio
@pytest.mark.parametrize("delay", [30.0, 0.0])
async def test_usage_cost_arrives_late_after_the_run_ended(clock: ManualClock, delay: float) -> None:
    """Cost is eventually consistent: absent right after the end (default 30 s lag), present after."""
    world = World(clock, quirks=Quirks(usage_cost_delay_seconds=delay))
    agent = world.add_agent()
    clock.advance(32)
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        early = (await http.get(f"/v1/agents/{agent.id}/usage")).json()
        clock.advance(31)
        late = (await http.get(f"/v1/agents/{agent.id}/usage")).json()
    assert ("cost" in early["runs"][0]) is (delay == 0)
    assert "cost" in late["runs"][0] and "usageUuid" in early["runs"][0]


@pytest.mark.anyio
async def test_usage_for_an_unknown_run_id_is_run_not_found(world: World, client: httpx2.AsyncClient) -> None:
    """`?runId=` unknown → 404 `run_not_found`; known → only that run."""
    agent = world.add_agent(created_ago=3600)
    missing = await client.get(
        f"/v1/agents/{agent.id}/usage", params={"runId": "run-00000000-0000-4000-8000-000000000000"}
    )
    assert missing.json()["error"]["code"] == "run_not_found"
    one = (await client.get(f"/v1/agents/{agent.id}/usage", params={"runId": agent.runs[0].id})).json()
    assert [r["id"] for r in one["runs"]] == [agent.runs[0].id]


@pytest.mark.anyio
async def test_usage_switched_off_is_403_feature_unavailable(clock: ManualClock) -> None:
    """Usage is early access: 403 `feature_unavailable` when switched off."""
    world = World(clock, quirks=Quirks(usage_endpoint_available=False))
    agent = world.add_agent()
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        response = await http.get(f"/v1/agents/{agent.id}/usage")
    assert response.status_code == 403 and response.json()["error"]["code"] == "feature_unavailable"


def _artifact_world(clock: ManualClock, quirks: Quirks) -> World:
    world = World(clock, quirks=quirks)
    specs = (ArtifactSpec("artifacts/screenshot.png", 12345), ArtifactSpec("artifacts/hidden.log", 10, listed=False))
    world.add_agent(script=RunScript(artifacts=specs), created_ago=3600)
    return world


@pytest.mark.anyio
async def test_artifacts_download_url_is_served_on_loopback_without_authorization(clock: ManualClock) -> None:
    """Download → `{url, expiresAt = now + 15 min}`; the URL serves the bytes without the key."""
    world = _artifact_world(clock, Quirks())
    agent = next(iter(world.agents.values()))
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        items = (await http.get(f"/v1/agents/{agent.id}/artifacts")).json()["items"]
        assert items == [{"path": "artifacts/screenshot.png", "sizeBytes": 12345, "updatedAt": items[0]["updatedAt"]}]
        link = (await http.get(f"/v1/agents/{agent.id}/artifacts/download", params={"path": items[0]["path"]})).json()
        assert link["expiresAt"] == "2026-10-06T12:15:00.000Z"
        async with httpx2.AsyncClient() as anonymous:
            content = await anonymous.get(link["url"])
            assert content.status_code == 200 and len(content.content) == 12345
            clock.advance(15 * 60 + 1)
            assert (await anonymous.get(link["url"])).status_code == 403


@pytest.mark.anyio
@pytest.mark.parametrize("quirk", [True, False])
async def test_an_artifact_written_but_missing_from_the_list_downloads_as_artifact_not_found(
    clock: ManualClock, quirk: bool
) -> None:
    """Quirk 10: an unlisted file is absent from the list and 404s; the switch lists it."""
    world = _artifact_world(clock, Quirks(unlisted_artifacts=quirk))
    agent = next(iter(world.agents.values()))
    async with serve(world) as sim, httpx2.AsyncClient(base_url=sim.base_url, headers=AUTH) as http:
        paths = [a["path"] for a in (await http.get(f"/v1/agents/{agent.id}/artifacts")).json()["items"]]
        download = await http.get(f"/v1/agents/{agent.id}/artifacts/download", params={"path": "artifacts/hidden.log"})
    assert ("artifacts/hidden.log" in paths) is (not quirk)
    assert download.status_code == (404 if quirk else 200)


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["/opt/cursor/artifacts/x.png", "screenshot.png", "artifacts/../secret"])
async def test_an_artifact_path_outside_artifacts_is_400(
    sim: RunningSimulator, world: World, client: httpx2.AsyncClient, path: str
) -> None:
    """Paths are relative under `artifacts/`; absolute v0 paths are refused."""
    agent = world.add_agent(created_ago=3600)
    response = await client.get(f"/v1/agents/{agent.id}/artifacts/download", params={"path": path})
    assert response.status_code == 400
