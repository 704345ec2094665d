"""Faults (issue 4 §7, docs/reliability.md §2.1-2.3): HTTP-level and socket-level, per route and count, with the log."""

from __future__ import annotations

from collections.abc import Callable

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import SIMULATED_API_KEY, Fault, Faults, ManualClock, RunningSimulator, World, serve

CREATE = {"prompt": {"text": "Add a README"}, "repos": [{"url": "https://github.com/acme/web"}]}


@pytest.mark.anyio
async def test_a_fault_applies_to_the_next_n_matching_requests_only(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """Per route and per count: "the next 2 GETs of /v1/agents/{id}" get 503, the third succeeds."""
    agent = world.add_agent()
    faults.inject("GET", "/v1/agents/{id}", Fault.server_error(503), times=2)
    statuses = [(await client.get(f"/v1/agents/{agent.id}")).status_code for _ in range(3)]
    assert statuses == [503, 503, 200]
    assert (await client.get("/v1/agents")).status_code == 200


@pytest.mark.anyio
async def test_429_fault_carries_retry_after(faults: Faults, client: httpx2.AsyncClient) -> None:
    """429 `rate_limit_exceeded` with `Retry-After: 2` (F-07, F-21)."""
    faults.inject("GET", "/v1/me", Fault.rate_limited(2))
    response = await client.get("/v1/me")
    assert response.status_code == 429 and response.headers["retry-after"] == "2"
    assert response.json()["error"]["code"] == "rate_limit_exceeded"


@pytest.mark.anyio
async def test_a_refused_request_does_not_reach_the_world(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """An HTTP-level error fault answers instead of the world: no agent is created."""
    faults.inject("POST", "/v1/agents", Fault.server_error(500))
    assert (await client.post("/v1/agents", json=CREATE)).status_code == 500
    assert world.agents == {}


Check = Callable[[httpx2.Response], bool]
BODY_FAULTS: list[tuple[Fault, Check]] = [
    (Fault.html(502), lambda r: r.status_code == 502 and r.headers["content-type"] == "text/html"),
    (Fault.malformed_json(), lambda r: r.status_code == 200 and r.text.startswith('{"items": [ this')),
    (Fault.truncated_json(), lambda r: r.text == '{"id":"bc_12'),
    (Fault.oversized(2_000_000), lambda r: len(r.content) >= 1_999_000),
]


@pytest.mark.anyio
@pytest.mark.parametrize(("fault", "check"), BODY_FAULTS, ids=["html", "malformed", "truncated", "oversized"])
async def test_body_faults_send_the_scripted_body(
    faults: Faults, client: httpx2.AsyncClient, fault: Fault, check: Check
) -> None:
    """F-26/F-27: HTML pages, malformed or truncated JSON, oversized bodies."""
    faults.inject("GET", "/v1/agents", fault)
    response = await client.get("/v1/agents")
    assert check(response)


@pytest.mark.anyio
async def test_echo_fault_puts_the_authorization_header_in_the_error_message(
    faults: Faults, client: httpx2.AsyncClient
) -> None:
    """SL-02: a leaky upstream echoes the Authorization header inside an error message."""
    faults.inject("GET", "/v1/me", Fault.echo_auth(400))
    response = await client.get("/v1/me")
    assert response.status_code == 400 and SIMULATED_API_KEY in response.json()["error"]["message"]


@pytest.mark.anyio
async def test_the_request_log_keeps_everything_but_the_authorization_value(
    faults: Faults, client: httpx2.AsyncClient
) -> None:
    """Log: method, path, query, headers (Authorization scheme only), body, time, status."""
    await client.post("/v1/agents", json=CREATE, params={"x": "1"})
    record = faults.requests[-1]
    assert (record.method, record.path, record.query, record.status) == ("POST", "/v1/agents", "x=1", 201)
    assert record.headers["authorization"] == "Bearer <redacted>" and record.json() == CREATE
    assert SIMULATED_API_KEY not in repr(faults.requests)


@pytest.mark.anyio
async def test_a_delay_fault_holds_the_answer_past_a_client_timeout(faults: Faults, sim: RunningSimulator) -> None:
    """F-04: no answer within the read timeout → the client's own timeout exception."""
    faults.inject("GET", "/v1/me", Fault.slow(float("inf")))
    async with httpx2.AsyncClient(
        base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}, timeout=0.3
    ) as http:
        with pytest.raises(httpx2.ReadTimeout):
            await http.get("/v1/me")


@pytest.mark.anyio
async def test_cut_after_request_applies_the_post_then_closes_without_answer(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """F-01: the connection closes after the POST was applied: the agent exists, the client sees a cut."""
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    with pytest.raises(httpx2.RemoteProtocolError):
        await client.post("/v1/agents", json=CREATE)
    assert len(world.agents) == 1 and faults.count("POST", "/v1/agents") == 1


@pytest.mark.anyio
async def test_reset_after_request_is_a_tcp_reset_for_the_client(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """F-02: TCP RST after the POST was read → `ReadError` (connection reset), agent created."""
    faults.inject("POST", "/v1/agents", Fault.reset())
    with pytest.raises(httpx2.ReadError):
        await client.post("/v1/agents", json=CREATE)
    assert len(world.agents) == 1


@pytest.mark.anyio
async def test_headers_then_a_cut_mid_body_is_an_incomplete_body(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """F-03: 201 headers then a cut in the body: never a complete body."""
    faults.inject("POST", "/v1/agents", Fault.cut_mid_body())
    with pytest.raises(httpx2.RemoteProtocolError):
        await client.post("/v1/agents", json=CREATE)
    assert len(world.agents) == 1


@pytest.mark.anyio
async def test_a_stream_cut_mid_body_drops_the_connection_mid_event(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """S-01: a stream cut after some bytes ends with a protocol error, leaving a partial event."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=500))
    received = bytearray()
    with pytest.raises(httpx2.RemoteProtocolError):
        async with client.stream("GET", f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}/stream") as response:
            async for chunk in response.aiter_bytes():
                received += chunk
    assert 0 < len(received) <= 500


@pytest.mark.anyio
async def test_drip_sends_one_byte_at_a_time(faults: Faults, client: httpx2.AsyncClient) -> None:
    """F-05: drip one byte every N ms; the answer is complete but arrives byte by byte."""
    faults.inject("GET", "/v1/models", Fault.drip(0.01))
    sizes: list[int] = []
    with anyio.fail_after(30):
        async with client.stream("GET", "/v1/models") as response:
            sizes.extend([len(c) async for c in response.aiter_raw()])
    assert response.status_code == 200 and max(sizes) <= 8


@pytest.mark.anyio
async def test_max_in_flight_counts_concurrent_requests(faults: Faults, sim: RunningSimulator) -> None:
    """The simulator records the most requests it handled at once (benchmarks: never more than 8)."""
    faults.latency = 0.05
    limits = httpx2.Limits(max_connections=8)
    async with httpx2.AsyncClient(
        base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}, limits=limits
    ) as http:
        async with anyio.create_task_group() as group:
            for _ in range(20):
                group.start_soon(http.get, "/v1/me")
    assert sim.max_in_flight == 8 and len(sim.requests) == 20


@pytest.mark.anyio
async def test_probabilistic_faults_are_reproducible_from_the_seed(clock: ManualClock) -> None:
    """A 30% 429 storm (F-22) draws from a seeded generator: same seed, same pattern."""
    patterns: list[list[int]] = []
    for _ in range(2):
        faults = Faults(seed=3)
        faults.inject("GET", "/v1/me", Fault.rate_limited(1), times=None, probability=0.3)
        async with serve(World(clock), faults=faults) as sim:
            async with httpx2.AsyncClient(
                base_url=sim.base_url, headers={"Authorization": f"Bearer {SIMULATED_API_KEY}"}
            ) as http:
                patterns.append([(await http.get("/v1/me")).status_code for _ in range(20)])
    assert patterns[0] == patterns[1] and 429 in patterns[0] and 200 in patterns[0]
