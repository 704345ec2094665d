"""Contract: network faults on a real socket (docs/reliability.md §2.1, §2.2), client against the simulator.

Mutations are sent once and a lost answer is "outcome unknown" with every id known; reads retry
what issue 3 lets them retry (429, 5xx, failures before sending), within the deadline and budget.
"""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import (
    CreateAgentRequest,
    CreateRunRequest,
    CursorClient,
    MutationOutcomeUnknownError,
    Prompt,
    RateLimitError,
    ReadFailedError,
    RepoSpec,
    ServerError,
    UsageLimitExceededError,
    _core,
    deadline_after,
)
from cursor_cloud_agents.api._retry import RETRY_BUDGET, RETRY_REFILL_PER_READ
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunningSimulator, World

from .conftest import Sleeps

pytestmark = pytest.mark.anyio
HTTP_DATE_IN_2_S = "Tue, 06 Oct 2026 12:00:02 GMT"
CREATE = CreateAgentRequest(prompt=Prompt(text="Add a README"), repos=[RepoSpec(url="https://github.com/acme/web")])
SOCKET_FAULTS = [Fault.cut_after_request(), Fault.reset(), Fault.cut_mid_body()]
SOCKET_IDS = ["cut-after-request-read", "reset", "cut-mid-body"]


@pytest.mark.parametrize("fault", SOCKET_FAULTS, ids=SOCKET_IDS)
async def test_cut_after_request_read_is_outcome_unknown_and_the_agent_exists(
    client: CursorClient, world: World, faults: Faults, fault: Fault
) -> None:
    """docs/reliability.md F-01/F-02/F-03: exactly one POST; MutationOutcomeUnknownError names the agent that exists."""
    faults.inject("POST", "/v1/agents", fault)
    with pytest.raises(MutationOutcomeUnknownError) as caught:
        await client.create_agent(CREATE)
    context = caught.value.context
    assert (context.method, context.path) == ("POST", "/v1/agents")
    assert faults.count("POST", "/v1/agents") == 1 and list(world.agents) == [context.ids["agent_id"]]


async def test_a_dripping_create_is_outcome_unknown_at_the_total_deadline(
    client: CursorClient, world: World, faults: Faults, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/reliability.md F-05: one byte at a time cannot hold a create past its deadline; 1 POST, unknown."""
    monkeypatch.setattr(_core, "MIN_MUTATION_SECONDS", 0.2)  # the 5 s floor, shrunk so the test takes 0.5 s
    faults.inject("POST", "/v1/agents", Fault.drip(20))
    with deadline_after(0.5), pytest.raises(MutationOutcomeUnknownError) as caught:
        await client.create_agent(CREATE)
    assert faults.count("POST", "/v1/agents") == 1 and list(world.agents) == [caught.value.context.ids["agent_id"]]


async def test_a_server_error_on_create_is_outcome_unknown_and_never_retried(
    client: CursorClient, faults: Faults, sim: RunningSimulator
) -> None:
    """docs/reliability.md F-10: 500/502 on create → unknown, with the status and the request id; 1 POST."""
    faults.inject("POST", "/v1/agents", Fault.server_error(502, "upstream_error"), times=None)
    with pytest.raises(MutationOutcomeUnknownError) as caught:
        await client.create_agent(CREATE)
    context = caught.value.context
    assert context.status_code == 502 and context.request_id == sim.requests[-1].request_id
    assert faults.count("POST", "/v1/agents") == 1 and "agent_id" in context.ids


async def test_a_rate_limited_create_is_not_retried(client: CursorClient, faults: Faults, sleeps: Sleeps) -> None:
    """docs/api-contract.md §1 Latency: never auto-retry a POST, even on 429 with Retry-After."""
    faults.inject("POST", "/v1/agents", Fault.rate_limited(2), times=None)
    with pytest.raises(RateLimitError) as caught:
        await client.create_agent(CREATE)
    assert caught.value.retry_after == 2 and faults.count("POST", "/v1/agents") == 1 and sleeps.waits == []


async def test_usage_limit_exceeded_on_create_is_not_retried(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md F-08: 429 `usage_limit_exceeded` → no retry, no wait; 1 POST."""
    faults.inject("POST", "/v1/agents", Fault.rate_limited(2, code="usage_limit_exceeded"), times=None)
    with pytest.raises(UsageLimitExceededError):
        await client.create_agent(CREATE)
    assert faults.count("POST", "/v1/agents") == 1


@pytest.mark.parametrize("fault", SOCKET_FAULTS, ids=SOCKET_IDS)
async def test_a_cut_follow_up_is_outcome_unknown_with_the_agent_and_previous_run(
    client: CursorClient, world: World, faults: Faults, fault: Fault
) -> None:
    """docs/reliability.md F-01 on POST /runs: 1 POST; the error carries the agent and the previous latest run."""
    agent = world.add_agent(created_ago=3600)
    previous = agent.runs[0].id
    faults.inject("POST", "/v1/agents/{id}/runs", fault)
    with pytest.raises(MutationOutcomeUnknownError) as caught:
        await client.create_run(agent.id, CreateRunRequest(prompt=Prompt(text="more")), previous_run_id=previous)
    assert caught.value.context.ids == {"agent_id": agent.id, "previous_run_id": previous}
    assert faults.count("POST", "/v1/agents/*/runs") == 1 and len(agent.runs) == 2


async def test_a_cut_delete_is_outcome_unknown_and_the_agent_is_gone(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md F-23: a DELETE cut after it was applied → unknown; reading shows it is gone."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("DELETE", "/v1/agents/{id}", Fault.cut_after_request())
    with pytest.raises(MutationOutcomeUnknownError) as caught:
        await client.delete_agent(agent.id)
    assert caught.value.context.ids == {"agent_id": agent.id} and world.agents == {}
    assert faults.count("DELETE", "/v1/agents/*") == 1


async def test_a_read_answered_503_twice_then_200_succeeds_after_two_backoffs(
    client: CursorClient, world: World, faults: Faults, sleeps: Sleeps
) -> None:
    """docs/reliability.md F-20: 503, 503, 200 → success; capped exponential backoff with jitter (base 0.5 s)."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("GET", "/v1/agents/{id}", Fault.server_error(503), times=2)
    assert (await client.get_agent(agent.id)).id == agent.id
    assert faults.count("GET", "/v1/agents/*") == 3 and len(sleeps.waits) == 2
    assert 0 <= sleeps.waits[0] <= 0.5 and 0 <= sleeps.waits[1] <= 0.5


async def test_a_read_rate_limited_with_retry_after_waits_that_long_then_succeeds(
    client: CursorClient, faults: Faults, sleeps: Sleeps
) -> None:
    """docs/reliability.md F-21: 429 `Retry-After: 2` on a GET → wait 2 s (injected), retry, success."""
    faults.inject("GET", "/v1/me", Fault.rate_limited(2))
    await client.me()
    assert sleeps.waits == [2.0] and faults.count("GET", "/v1/me") == 2


async def test_a_read_rate_limited_past_the_deadline_is_returned_not_slept(
    client: CursorClient, faults: Faults, sleeps: Sleeps
) -> None:
    """docs/reliability.md F-21: `Retry-After: 600` does not fit a 60 s call → RateLimitError(retry_after=600) at
    once."""
    faults.inject("GET", "/v1/me", Fault.rate_limited(600))
    with deadline_after(60), pytest.raises(RateLimitError) as caught:
        await client.me()
    assert caught.value.retry_after == 600 and sleeps.waits == [] and faults.count("GET", "/v1/me") == 1


async def test_a_retry_after_http_date_is_honoured(
    client: CursorClient, faults: Faults, sleeps: Sleeps, clock: ManualClock
) -> None:
    """docs/api-contract.md §1 Rate limits, RFC 9110 §10.2.3: `Retry-After` as an HTTP date, read on the wall clock."""
    faults.inject("GET", "/v1/me", Fault.rate_limited("Tue, 06 Oct 2026 12:00:05 GMT"))
    clock.set(1791288000.0)  # 2026-10-06T12:00:00Z
    await client.me()
    assert sleeps.waits == [5.0]


async def test_a_429_storm_is_not_amplified_by_retries(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md F-22: every GET 429 → retries stay within the budget (RETRY_BUDGET plus 10% of first
    attempts)."""
    faults.inject("GET", "/v1/me", Fault.rate_limited(1), times=None)
    for _ in range(10):
        with pytest.raises(RateLimitError):
            await client.me()
    assert faults.count("GET", "/v1/me") - 10 <= RETRY_BUDGET + RETRY_REFILL_PER_READ * 10


async def test_a_short_storm_of_transient_errors_is_absorbed_within_each_deadline(
    client: CursorClient, faults: Faults, sleeps: Sleeps, clock: ManualClock
) -> None:
    """docs/reliability.md F-22 (issue 13): three reads in a row each meet 503, 429 `Retry-After: 1` and 503
    `Retry-After` as an HTTP date; every read succeeds inside its 55 s deadline, waiting what was said."""
    clock.set(1791288000.0)  # 2026-10-06T12:00:00Z
    for _ in range(3):
        faults.inject("GET", "/v1/me", Fault.server_error(503))
        faults.inject("GET", "/v1/me", Fault.rate_limited(1))
        faults.inject("GET", "/v1/me", Fault.error(503, "unavailable", headers={"retry-after": HTTP_DATE_IN_2_S}))
        with deadline_after(55):
            assert (await client.me()).api_key_name
    assert faults.count("GET", "/v1/me") == 12
    assert sleeps.waits.count(1.0) == 3 and sleeps.waits.count(2.0) == 3
    assert sum(sleeps.waits) < 55


async def test_a_server_error_storm_gives_up_after_four_attempts(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md F-20: attempts ≤ 4 for one read."""
    faults.inject("GET", "/v1/me", Fault.server_error(500), times=None)
    with pytest.raises(ServerError):
        await client.me()
    assert faults.count("GET", "/v1/me") <= 4


@pytest.mark.parametrize("fault", SOCKET_FAULTS, ids=SOCKET_IDS)
async def test_a_read_broken_after_sending_is_asked_again_and_succeeds(
    client: CursorClient, world: World, faults: Faults, fault: Fault
) -> None:
    """Issue 13 (issue 3 said no retry): a GET is safe to repeat; after a reset, a cut or a body cut mid-way
    it is sent again and answers (2 GETs)."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("GET", "/v1/agents/{id}", fault)
    assert (await client.get_agent(agent.id)).id == agent.id
    assert faults.count("GET", "/v1/agents/*") == 2


async def test_a_dripping_read_completes_within_its_deadline(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md F-05 on a read: one byte every half millisecond still arrives whole inside the deadline."""
    faults.inject("GET", "/v1/me", Fault.drip(0.5))
    with deadline_after(5):
        me = await client.me()
    assert me.api_key_name == "Simulated API Key"


async def test_a_dripping_read_past_its_deadline_fails_at_the_deadline(client: CursorClient, faults: Faults) -> None:
    """docs/reliability.md §1.12: the read timeout is per chunk, so only a total deadline stops a drip."""
    faults.inject("GET", "/v1/me", Fault.drip(50))
    with deadline_after(0.3), pytest.raises(ReadFailedError):
        await client.me()
    assert faults.count("GET", "/v1/me") == 1


NAIVE_RETRY_FAULTS = [
    Fault.cut_after_request(),
    Fault.reset(),
    Fault.cut_mid_body(),
    Fault.server_error(503),
    Fault.rate_limited(1),
]


@pytest.mark.parametrize("fault", NAIVE_RETRY_FAULTS, ids=[*SOCKET_IDS, "503", "429-retry-after-1"])
async def test_a_create_cut_five_times_in_a_row_reaches_the_server_once(
    client: CursorClient, faults: Faults, fault: Fault
) -> None:
    """docs/reliability.md F-15 (naive-retry regression guard): with five faults queued and the retry budget full,
    the project's retry policy still sends the paid create once; the error says not to resend."""
    faults.inject("POST", "/v1/agents", fault, times=5)  # a fresh client: its retry budget is full
    with pytest.raises((MutationOutcomeUnknownError, RateLimitError)):
        await client.create_agent(CREATE)
    assert faults.count("POST", "/v1/agents") == 1
