"""The repositories' rate limit (`simulator/ratelimit.py`): 1 a minute and 30 an hour per key, told in headers."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.simulator.errors import ApiError
from cursor_cloud_agents.simulator.ratelimit import RepositoryLimiter


def test_a_second_call_within_the_minute_is_refused_with_when_to_come_back() -> None:
    limiter = RepositoryLimiter()
    limiter.check("key", 1000.0)
    with pytest.raises(ApiError) as refused:
        limiter.check("key", 1015.0)
    assert refused.value.status == 429 and refused.value.headers["Retry-After"] == "45"
    limiter.check("other key", 1015.0)
    limiter.check("key", 1060.0)


def test_the_31st_call_within_the_hour_is_refused_by_the_hourly_limit() -> None:
    limiter = RepositoryLimiter()
    for minute in range(30):
        limiter.check("key", 60.0 * minute)
    with pytest.raises(ApiError) as refused:
        limiter.check("key", 60.0 * 30)
    assert refused.value.headers["X-RateLimit-Limit"] == "30"
