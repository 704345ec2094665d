"""Serving: the simulator answers on a real loopback socket, starts at once and stops cleanly."""

from __future__ import annotations

from functools import partial

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, run_simulator, serve


@pytest.mark.anyio
async def test_serve_binds_an_ephemeral_loopback_port_and_answers_me(client: httpx2.AsyncClient) -> None:
    """`/v1/me` with the simulated key answers the documented user-key shape."""
    response = await client.get("/v1/me")
    assert response.status_code == 200
    assert set(response.json()) == {"apiKeyName", "userId", "createdAt", "userEmail", "userFirstName", "userLastName"}
    assert str(client.base_url).startswith("http://127.0.0.1:")


@pytest.mark.anyio
async def test_serve_closes_open_streams_on_exit() -> None:
    """Leaving the block ends a live stream (start-up time is measured by bench/simulator.py)."""
    clock = ManualClock()
    world = World(clock)
    agent = world.add_agent()
    with anyio.fail_after(10):
        async with serve(world) as sim:
            headers = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
            async with httpx2.AsyncClient(base_url=sim.base_url, headers=headers) as http:
                url = f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}/stream"
                async with http.stream("GET", url) as response:
                    assert response.status_code == 200
                    async for _ in response.aiter_bytes():
                        break


@pytest.mark.anyio
async def test_run_simulator_serves_under_uvicorn_on_an_ephemeral_port_and_stops_when_cancelled() -> None:
    """Issue 4 §9: `simulate` serves the Starlette app under uvicorn on 127.0.0.1 and prints the bound URL."""
    urls: list[str] = []
    bound = anyio.Event()
    answers: list[httpx2.Response] = []

    def ready(url: str) -> None:
        urls.append(url)
        bound.set()

    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(partial(run_simulator, port=0, scenario="empty", ready=ready))
            await bound.wait()
            headers = {"Authorization": f"Bearer {SIMULATED_API_KEY}"}
            async with httpx2.AsyncClient(base_url=urls[0], headers=headers) as http:
                answers.append(await http.get("/v1/me"))
            group.cancel_scope.cancel()
    [response] = answers
    assert response.status_code == 200 and response.json()["apiKeyName"] == "Simulated API Key"
    assert urls[0].startswith("http://127.0.0.1:") and not urls[0].endswith(":0")
    assert "uvicorn" in response.headers.get("server", "")
