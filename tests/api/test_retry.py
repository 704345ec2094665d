"""Retries for reads, deadlines, the rate limiter and the repositories limit, on injected time (no sleeps)."""

from __future__ import annotations

from datetime import UTC, datetime
from email.utils import format_datetime

import anyio
import httpx2
import pytest

from cursor_cloud_agents.api import (
    APIConnectionError,
    DeadlineTooShortError,
    RateLimitError,
    ReadFailedError,
    ServerError,
    UsageLimitExceededError,
    deadline_after,
)
from cursor_cloud_agents.api._limits import SlidingWindowGate, TokenBucket
from cursor_cloud_agents.api._retry import (
    RETRY_BUDGET,
    RETRY_REFILL_PER_READ,
    RetryBudget,
    backoff_seconds,
    parse_retry_after,
)
from cursor_cloud_agents.api.client import DEFAULT_BURST
from tests.api.helpers import FakeTime, Recorder, example, json_response, make_client

ME = example("docs/me.user-key.response.200.json")
REPOS = example("docs/repositories.response.200.json")


def _status(code: int, headers: dict[str, str] | None = None) -> httpx2.Response:
    return json_response(code, {"error": {"code": "x", "message": "m"}}, headers)


# --- pure policy --------------------------------------------------------------------------------


def test_retry_after_reads_seconds_and_http_dates() -> None:
    """RFC 9110 §10.2.3 (docs/reliability.md F-07): delay-seconds or HTTP date; a past date is 0."""
    now = 1_790_000_000.0
    assert parse_retry_after("2", now=now) == 2.0
    assert parse_retry_after(" 1.5 ", now=now) == 1.5
    assert parse_retry_after("Thu, 01 Jan 2026 00:00:00 GMT", now=now) == 0.0
    future = 1_790_000_030
    from email.utils import formatdate

    assert parse_retry_after(formatdate(future, usegmt=True), now=now) == pytest.approx(30.0)
    for bad in (None, "", "soon", "-3", "nan", "inf"):
        assert parse_retry_after(bad, now=now) is None


def test_backoff_is_capped_exponential_with_full_jitter() -> None:
    """docs/reliability.md F-20: base 0.5 s, cap 8 s, full jitter."""
    assert [backoff_seconds(n, rand=lambda: 1.0) for n in (1, 2, 3, 4, 5, 6, 10)] == [0.5, 1, 2, 4, 8, 8, 8]
    assert backoff_seconds(3, rand=lambda: 0.0) == 0.0


def test_retry_budget_allows_a_tenth_of_first_attempts() -> None:
    """docs/reliability.md §1.9 / F-22: a retry quota, so a 429 storm is not amplified."""
    budget = RetryBudget()
    spent = 0
    for _ in range(1000):
        budget.record_attempt()
        if budget.try_spend():
            spent += 1
    assert RETRY_REFILL_PER_READ == 0.1
    assert spent <= RETRY_BUDGET + 100


def test_token_bucket_spaces_requests_at_the_rate() -> None:
    """The client-side limiter: 10 requests/s by default, bursts up to the rate."""
    bucket = TokenBucket(rate=10.0, now=0.0)
    waits = [bucket.reserve(0.0) for _ in range(15)]
    assert waits[:10] == [0.0] * 10
    assert waits[10] == pytest.approx(0.1) and waits[14] == pytest.approx(0.5)


def test_repositories_gate_enforces_one_per_minute_and_thirty_per_hour() -> None:
    """docs/api-contract.md §3.3: 1 request/user/minute and 30/user/hour."""
    gate = SlidingWindowGate(limits=((1, 60.0), (30, 3600.0)))
    now = 0.0
    for _ in range(30):
        assert gate.retry_after(now) == 0.0
        gate.record(now)
        assert gate.retry_after(now + 1) >= 59.0
        now += 61.0
    # 30 calls in the last hour: the next one waits for the first to leave the window.
    assert gate.retry_after(now) == pytest.approx(3600.0 - now)
    assert gate.retry_after(3600.0) == 0.0


# --- reads through the client ------------------------------------------------------------------


@pytest.mark.anyio
async def test_get_retries_503_twice_then_succeeds() -> None:
    """docs/reliability.md F-20: GET 503, 503, 200 succeeds with capped backoff; attempts ≤ 4."""
    time = FakeTime()
    recorder = Recorder(_status(503), _status(503), json_response(200, ME))
    async with make_client(recorder, time=time) as client:
        me = await client.me()
    assert me.api_key_name == "Production API Key"
    assert len(recorder.requests) == 3
    assert all(0 <= wait <= 8 for wait in time.sleeps)


@pytest.mark.anyio
async def test_get_gives_up_after_four_attempts() -> None:
    """docs/reliability.md F-20: at most 4 attempts; the last error is raised with its status."""
    recorder = Recorder(_status(500))
    async with make_client(recorder) as client:
        with pytest.raises(ServerError):
            await client.me()
    assert len(recorder.requests) == 4


@pytest.mark.anyio
async def test_429_retry_after_is_honoured_when_it_fits_the_deadline() -> None:
    """docs/reliability.md F-21: waits ≥ Retry-After (2 s) then succeeds."""
    time = FakeTime()
    recorder = Recorder(_status(429, {"retry-after": "2"}), json_response(200, ME))
    async with make_client(recorder, time=time) as client:
        with deadline_after(30):
            await client.me()
    assert len(recorder.requests) == 2
    assert 2.0 in time.sleeps


@pytest.mark.anyio
@pytest.mark.parametrize("status", [429, 503])
async def test_retry_after_as_an_http_date_is_honoured_on_a_429_and_a_5xx(status: int) -> None:
    """Issue 13: a Retry-After given as an HTTP date was ignored (retried at once); 5xx answers say it too."""
    time = FakeTime()
    when = format_datetime(datetime.fromtimestamp(time.wall() + 3, UTC), usegmt=True)
    recorder = Recorder(_status(status, {"retry-after": when}), json_response(200, ME))
    async with make_client(recorder, time=time) as client:
        with deadline_after(30):
            await client.me()
    assert len(recorder.requests) == 2
    assert time.sleeps and 2.0 <= time.sleeps[0] <= 3.0


@pytest.mark.anyio
async def test_three_transient_errors_in_a_row_are_absorbed() -> None:
    """Issue 13: the retry budget absorbs a few transient errors in a row (the third 503 failed at once)."""
    recorder = Recorder(_status(503), _status(503, {"retry-after": "1"}), _status(503), json_response(200, ME))
    async with make_client(recorder) as client:
        with deadline_after(30):
            await client.me()
    assert len(recorder.requests) == 4


@pytest.mark.anyio
async def test_three_reads_in_a_row_each_needing_every_retry_all_succeed() -> None:
    """docs/reliability.md F-22 (issue 13): the retry budget (RETRY_BUDGET) holds a short storm: three reads that
    each meet three transient errors in a row all succeed (with a budget of 3, the fourth error failed)."""
    transient = [_status(503), _status(429, {"retry-after": "1"}), _status(503)]
    recorder = Recorder(*(transient + [json_response(200, ME)]) * 3)
    async with make_client(recorder) as client:
        for _ in range(3):
            with deadline_after(55):
                await client.me()
    assert len(recorder.requests) == 12


@pytest.mark.anyio
async def test_429_retry_after_past_the_deadline_raises_with_retry_after() -> None:
    """docs/reliability.md F-21: Retry-After 600 → RateLimitError(retry_after=600), no sleep past the deadline."""
    time = FakeTime()
    recorder = Recorder(_status(429, {"retry-after": "600"}))
    async with make_client(recorder, time=time) as client:
        with deadline_after(55), pytest.raises(RateLimitError) as caught:
            await client.me()
    assert caught.value.retry_after == 600.0
    assert len(recorder.requests) == 1
    assert time.sleeps == []


@pytest.mark.anyio
async def test_usage_limit_is_never_retried() -> None:
    """docs/reliability.md F-08: 429 usage_limit_exceeded: no retry, no wait."""
    recorder = Recorder(
        json_response(429, {"error": {"code": "usage_limit_exceeded", "message": "m"}}, {"retry-after": "1"})
    )
    async with make_client(recorder) as client:
        with pytest.raises(UsageLimitExceededError):
            await client.me()
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_4xx_reads_are_not_retried() -> None:
    """Only 429 and 5xx are transient (docs/reliability.md §1.10)."""
    recorder = Recorder(json_response(404, {"error": {"code": "agent_not_found", "message": "m"}}))
    async with make_client(recorder) as client:
        with pytest.raises(Exception, match="agent_not_found"):
            await client.me()
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_connect_failure_before_sending_is_retried_for_reads() -> None:
    """docs/reliability.md §1.12: a ConnectError means nothing was sent, so a read may try again."""
    request = httpx2.Request("GET", "https://api.cursor.com/v1/me")
    recorder = Recorder(httpx2.ConnectError("refused", request=request), json_response(200, ME))
    async with make_client(recorder) as client:
        await client.me()
    assert len(recorder.requests) == 2


@pytest.mark.anyio
async def test_connect_failures_exhausted_raise_connection_error() -> None:
    """Nothing reached the server: APIConnectionError (safe to retry later)."""
    request = httpx2.Request("GET", "https://api.cursor.com/v1/me")
    recorder = Recorder(httpx2.ConnectError("refused", request=request))
    async with make_client(recorder) as client:
        with pytest.raises(APIConnectionError):
            await client.me()
    assert len(recorder.requests) == 4


@pytest.mark.anyio
async def test_a_read_cut_after_sending_is_asked_again() -> None:
    """Issue 13 (changing issue 3's rule on purpose): a GET changes nothing, so an exchange broken after
    sending is repeated, within the deadline and the retry budget."""
    request = httpx2.Request("GET", "https://api.cursor.com/v1/me")
    recorder = Recorder(httpx2.RemoteProtocolError("cut", request=request), json_response(200, ME))
    async with make_client(recorder) as client:
        me = await client.me()
    assert me.api_key_name and len(recorder.requests) == 2


@pytest.mark.anyio
async def test_a_read_that_keeps_breaking_after_sending_ends_read_failed() -> None:
    """The repeats are bounded (MAX_ATTEMPTS): a read that always breaks ends ReadFailedError."""
    request = httpx2.Request("GET", "https://api.cursor.com/v1/me")
    recorder = Recorder(*[httpx2.RemoteProtocolError("cut", request=request)] * 6)
    async with make_client(recorder) as client:
        with pytest.raises(ReadFailedError):
            await client.me()
    assert 2 <= len(recorder.requests) <= 4


@pytest.mark.anyio
async def test_retry_waits_stop_when_the_deadline_is_near() -> None:
    """docs/architecture.md §6.3 deadlines: a tool never outlives its budget inside a retry loop."""
    recorder = Recorder(_status(503))
    async with make_client(recorder) as client:
        with deadline_after(0.4), pytest.raises(ServerError):
            await client.me()
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_a_read_with_no_time_left_sends_nothing() -> None:
    """Deadline passed: nothing is sent."""
    recorder = Recorder(json_response(200, ME))
    async with make_client(recorder) as client:
        with deadline_after(0.0), pytest.raises(DeadlineTooShortError):
            await client.me()
    assert recorder.requests == []


@pytest.mark.anyio
async def test_each_request_timeout_is_the_time_left() -> None:
    """docs/architecture.md tool contract 3: every request's timeout = min(cap, time left)."""
    seen: list[float] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        timeouts = request.extensions["timeout"]
        seen.append(timeouts["read"])
        return json_response(200, ME)

    async with make_client(handler) as client:
        with deadline_after(7):
            await client.me()
        await client.me()
    assert 6.0 < seen[0] <= 7.0
    assert seen[1] == 30.0


@pytest.mark.anyio
async def test_a_429_storm_stays_under_the_limiter_and_the_retry_budget() -> None:
    """docs/reliability.md F-22: 30% of requests answer 429 Retry-After 1; rate ≤ limit; retries ≤ 10% + initial."""
    time = FakeTime()
    stamps: list[float] = []
    counter = {"n": 0}

    def handler(request: httpx2.Request) -> httpx2.Response:
        stamps.append(time.now)
        counter["n"] += 1
        if counter["n"] % 10 in (1, 4, 7):
            return _status(429, {"retry-after": "1"})
        return json_response(200, ME)

    first_attempts = 600
    failures = 0
    async with make_client(handler, time=time, requests_per_second=5.0, burst=5) as client:
        for _ in range(first_attempts):
            try:
                await client.me()
            except RateLimitError:
                failures += 1
    retries = len(stamps) - first_attempts
    assert retries <= RETRY_REFILL_PER_READ * first_attempts + RETRY_BUDGET
    duration = stamps[-1] - stamps[0]
    assert len(stamps) <= 5.0 * duration + 5  # the bucket's burst is 5
    # Any one-second window holds at most the rate plus the burst.
    assert max(sum(1 for s in stamps if start <= s < start + 1.0) for start in stamps) <= 10
    assert failures > 0  # the budget ran dry instead of amplifying the storm


@pytest.mark.anyio
async def test_limiter_refuses_instead_of_waiting_past_the_deadline() -> None:
    """Never hang: a limiter wait longer than the time left raises RateLimitError with retry_after."""
    time = FakeTime()
    recorder = Recorder(json_response(200, ME))
    async with make_client(recorder, time=time, requests_per_second=0.1, burst=1) as client:
        await client.me()
        with deadline_after(3), pytest.raises(RateLimitError) as caught:
            await client.me()
    assert caught.value.code == "client_rate_limited"
    assert caught.value.retry_after == pytest.approx(10.0)
    assert len(recorder.requests) == 1


# --- repositories -------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_repositories_are_cached_for_five_minutes() -> None:
    """docs/api-contract.md §3.3: 1/min and 30/h; served from a 5-minute cache."""
    time = FakeTime()
    recorder = Recorder(json_response(200, REPOS))
    async with make_client(recorder, time=time) as client:
        first = await client.list_repositories()
        time.now += 299
        second = await client.list_repositories()
        time.now += 2
        await client.list_repositories()
    assert first == second
    assert len(recorder.requests) == 2


@pytest.mark.anyio
async def test_repositories_limiter_refuses_with_retry_after_and_never_hangs() -> None:
    """docs/api-contract.md §3.3: when the local limit refuses, RateLimitError with retry_after, nothing sent."""
    time = FakeTime()
    recorder = Recorder(_status(500), json_response(200, REPOS))
    async with make_client(recorder, time=time) as client:
        with pytest.raises(ServerError):
            await client.list_repositories()
        time.now += 10
        with pytest.raises(RateLimitError) as caught:
            await client.list_repositories()
    assert caught.value.retry_after == pytest.approx(50.0)
    assert len(recorder.requests) == 1  # and the 500 was not retried: a retry would break 1/minute


@pytest.mark.anyio
async def test_concurrent_repository_calls_share_one_request() -> None:
    """The second caller waits for the first and gets the cache, rather than a local 429."""
    recorder = Recorder(json_response(200, REPOS))
    results: list[int] = []
    async with make_client(recorder) as client:

        async def call() -> None:
            results.append(len(await client.list_repositories()))

        async with anyio.create_task_group() as group:
            group.start_soon(call)
            group.start_soon(call)
    assert results == [1, 1]
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_a_fleet_pass_goes_at_full_speed_then_the_sustained_rate_applies() -> None:
    """Issues 3 and 6: 10 requests/s sustained, with a burst that covers one pass over a 500-agent fleet."""
    time = FakeTime()
    calls = 0

    def handler(request: httpx2.Request) -> httpx2.Response:
        del request
        nonlocal calls
        calls += 1
        return httpx2.Response(200, json={"items": []})

    async with make_client(handler, time=time) as client:
        for _ in range(int(DEFAULT_BURST)):
            await client.list_agents()
        assert sum(time.sleeps) == 0.0
        for _ in range(10):
            await client.list_agents()
    assert calls == int(DEFAULT_BURST) + 10
    assert 0.9 <= sum(time.sleeps) <= 1.1
