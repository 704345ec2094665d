"""Serving: the simulator answers on a real loopback socket, starts at once and stops cleanly."""

from __future__ import annotations

import time

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, serve


@pytest.mark.anyio
async def test_serve_binds_an_ephemeral_loopback_port_and_answers_me(client: httpx2.AsyncClient) -> None:
    """`/v1/me` with the simulated key answers the documented user-key shape."""
    response = await client.get("/v1/me")
    assert response.status_code == 200
    assert set(response.json()) == {"apiKeyName", "userId", "createdAt", "userEmail", "userFirstName", "userLastName"}
    assert str(client.base_url).startswith("http://127.0.0.1:")


@pytest.mark.anyio
async def test_serve_starts_fast_and_closes_open_streams_on_exit() -> None:
    """Start-up is far below the 0.2 s budget; leaving the block ends a live stream."""
    clock = ManualClock()
    world = World(clock)
    agent = world.add_agent()
    started = time.perf_counter()
    with anyio.fail_after(10):
        async with serve(world) as sim:
            assert time.perf_counter() - started < 0.2
            headers = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
            async with httpx2.AsyncClient(base_url=sim.base_url, headers=headers) as http:
                url = f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}/stream"
                async with http.stream("GET", url) as response:
                    assert response.status_code == 200
                    async for _ in response.aiter_bytes():
                        break
