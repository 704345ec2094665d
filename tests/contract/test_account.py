"""Contract: the account endpoints (`/v1/me`, `/v1/models`, `/v1/repositories`), client against simulator."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import AuthenticationError, BadRequestError, CursorClient, RateLimitError
from cursor_cloud_agents.simulator import SERVICE_ACCOUNT_KEY, ApiError, ManualClock, Quirks, RunningSimulator, World

from .conftest import Sleeps, make_client

pytestmark = pytest.mark.anyio


async def test_me_for_a_user_key_names_the_key_and_its_user(client: CursorClient) -> None:
    """docs/api-contract.md §3.1: a user key answers apiKeyName, userId, createdAt, email and names."""
    me = await client.me()
    assert me.api_key_name == "Simulated API Key" and me.user_id == 42
    assert me.user_email and me.user_first_name and me.user_last_name
    assert me.created_at is not None and me.created_at.endswith("Z")


async def test_me_for_a_service_account_key_omits_the_user_fields(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps
) -> None:
    """docs/api-contract.md §3.1: service-account keys carry only apiKeyName and createdAt."""
    async with make_client(sim, clock, sleeps, SERVICE_ACCOUNT_KEY) as service:
        me = await service.me()
    assert me.api_key_name and me.created_at
    assert (me.user_id, me.user_email, me.user_first_name) == (None, None, None)


async def test_a_bad_key_is_401_unauthorized(sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps) -> None:
    """docs/api-contract.md §1 Auth: an unknown key → 401 `unauthorized` "Invalid User API Key", not retried."""
    async with make_client(sim, clock, sleeps, "not-a-real-key") as stranger:
        with pytest.raises(AuthenticationError) as caught:
            await stranger.me()
    assert (caught.value.status_code, caught.value.code) == (401, "unauthorized")
    assert "Invalid User API Key" in caught.value.message and sim.faults.count("GET", "/v1/me") == 1


async def test_the_client_sends_bearer_and_the_key_never_appears_in_the_url(
    client: CursorClient, sim: RunningSimulator
) -> None:
    """docs/api-contract.md §1 Auth: `Authorization: Bearer <key>`; the key is not in the path or query."""
    await client.me()
    record = sim.requests[-1]
    assert record.headers["authorization"] == "Bearer <redacted>"
    assert "sim-key" not in record.path + record.query


async def test_models_list_documented_models_with_string_parameter_values(client: CursorClient) -> None:
    """docs/api-contract.md §3.2: `items: Model[]` with parameters, variants (isDefault) and aliases; values are
    strings."""
    models = {model.id: model for model in await client.list_models()}
    composer = models["composer-2"]
    assert composer.aliases and "composer" in composer.aliases
    assert composer.parameters and all(isinstance(v.value, str) for v in composer.parameters[0].values)
    assert composer.variants and any(v.is_default for v in composer.variants)
    assert models["default"].parameters is None  # optional fields stay absent


async def test_repositories_list_github_urls(client: CursorClient) -> None:
    """docs/api-contract.md §3.3: `{items: [{url}]}`, no paging."""
    repos = await client.list_repositories()
    assert repos and all(r.url.startswith("https://github.com/") for r in repos)


async def test_repositories_twice_within_a_minute_is_refused_by_the_client_without_sending(
    client: CursorClient, sim: RunningSimulator, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.3 (1/min): within 5 min the cache answers; past it, the client's own gate refuses."""
    first = await client.list_repositories()
    assert await client.list_repositories() == first  # cached: nothing sent
    clock.advance(30)
    assert await client.list_repositories() == first
    assert sim.faults.count("GET", "/v1/repositories") == 1


async def test_repositories_over_one_per_minute_is_429_with_retry_after_and_rate_limit_headers(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps
) -> None:
    """docs/api-contract.md §1 Rate limits: a second call within 60 s → 429 `rate_limit_exceeded`, Retry-After, not
    retried."""
    async with make_client(sim, clock, sleeps) as first, make_client(sim, clock, sleeps) as second:
        await first.list_repositories()
        clock.advance(20)
        with pytest.raises(RateLimitError) as caught:
            await second.list_repositories()  # a second process: its own gate and cache are empty
    assert (caught.value.status_code, caught.value.code, caught.value.retry_after) == (429, "rate_limit_exceeded", 40)
    assert caught.value.request_id == sim.requests[-1].request_id
    assert sim.faults.count("GET", "/v1/repositories") == 2 and sleeps.waits == []


async def test_repositories_over_thirty_per_hour_is_429_even_a_minute_apart(world: World, clock: ManualClock) -> None:
    """docs/api-contract.md §3.3 (30/hour): the 31st call within an hour is refused although a minute passed."""
    limiter = world.repository_limiter
    for _ in range(30):
        limiter.check("k", clock.now())
        clock.advance(61)
    with pytest.raises(ApiError, match="rate_limit_exceeded"):
        limiter.check("k", clock.now())


@pytest.mark.parametrize("quirks", [Quirks(repositories_rate_limited=False)])
async def test_repositories_without_the_rate_limit_answer_every_call(
    sim: RunningSimulator, clock: ManualClock, sleeps: Sleeps
) -> None:
    """The rate-limit switch off: two processes a second apart both get the list."""
    async with make_client(sim, clock, sleeps) as first, make_client(sim, clock, sleeps) as second:
        assert await first.list_repositories() == await second.list_repositories()


async def test_repositories_without_the_github_integration_is_integration_not_connected(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.3: 400 `integration_not_connected` carrying `helpUrl` and `provider`."""
    world.disconnected_providers.add("github")
    with pytest.raises(BadRequestError) as caught:
        await client.list_repositories()
    assert (caught.value.status_code, caught.value.code) == (400, "integration_not_connected")
    assert caught.value.details["provider"] == "github" and caught.value.details["helpUrl"].startswith("https://")
