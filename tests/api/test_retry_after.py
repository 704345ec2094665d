"""`Retry-After` in every form RFC 9110 lets a server send, on a 429 and a 5xx, honoured on the first retry
(issue 23); on injected time, nothing sleeps."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx2
import pytest

from cursor_cloud_agents.api import RateLimitError, ServerError, deadline_after
from cursor_cloud_agents.api._retry import RETRY_AFTER_CEILING_SECONDS, parse_retry_after
from tests.api.helpers import FakeTime, Recorder, example, json_response, make_client

ME = example("docs/me.user-key.response.200.json")
NOW = datetime(2026, 10, 6, 12, 0, 0, tzinfo=UTC).timestamp()
# The same instant, 5 s after NOW, in the three forms of RFC 9110 §5.6.7, and with the zone "-0000".
IN_5_S = {
    "IMF-fixdate": "Tue, 06 Oct 2026 12:00:05 GMT",
    "RFC 850": "Tuesday, 06-Oct-26 12:00:05 GMT",
    "asctime": "Tue Oct  6 12:00:05 2026",
    "zone -0000": "Tue, 06 Oct 2026 12:00:05 -0000",
}


def _refusal(status: int, retry_after: str) -> httpx2.Response:
    return json_response(status, {"error": {"code": "x", "message": "m"}}, {"retry-after": retry_after})


@pytest.mark.parametrize("form", list(IN_5_S))
def test_every_http_date_form_is_read_as_utc(form: str) -> None:
    """F-07 (issue 23): recipients read all three HTTP-date forms (RFC 9110 §5.6.7); asctime has no zone and
    was read as "no header", so the retry went out at once."""
    assert parse_retry_after(IN_5_S[form], now=NOW) == 5.0


def test_delay_seconds_are_ascii_digits_and_a_huge_one_is_a_far_future() -> None:
    """F-21 (issue 23): 400 digits overflowed to infinity and were read as "no header" (a retry at once after
    the backoff); they are now the longest wait. `float()` spellings that are not delay-seconds are unreadable."""
    assert parse_retry_after("9" * 400, now=NOW) == RETRY_AFTER_CEILING_SECONDS
    assert parse_retry_after("120", now=NOW) == 120.0
    for not_seconds in ("1_0", "1e3", "\u0663", "+5", "0x10", "Infinity"):
        assert parse_retry_after(not_seconds, now=NOW) is None, not_seconds


def test_a_far_future_date_is_bounded_like_seconds() -> None:
    """F-21 (issue 23): a date in year 9999 is a finite wait (at most the ceiling), never a crash or "no header"."""
    assert parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", now=NOW) == RETRY_AFTER_CEILING_SECONDS
    assert parse_retry_after("Fri, 31 Dec 9999 23:59:59 -2359", now=NOW) == RETRY_AFTER_CEILING_SECONDS


@pytest.mark.anyio
@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("form", list(IN_5_S))
async def test_the_first_retry_waits_for_the_date_in_every_form(status: int, form: str) -> None:
    """F-07, F-21 (issue 23): on a 429 and a 5xx the first retry goes out only once the date has come."""
    time = FakeTime(wall=NOW)
    recorder = Recorder(_refusal(status, IN_5_S[form]), json_response(200, ME))
    async with make_client(recorder, time=time) as client:
        with deadline_after(30):
            await client.me()
    assert len(recorder.requests) == 2
    assert time.sleeps[:1] == [5.0]


@pytest.mark.anyio
@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("far", ["Fri, 31 Dec 9999 23:59:59 GMT", "9" * 400])
async def test_a_far_future_retry_after_is_answered_at_once_not_slept(status: int, far: str) -> None:
    """F-21 (issue 23): a wait past the call's deadline, as a date or as 400 digits, ends the read at once with
    what the server said, as seconds already did; before, the digits were retried after a backoff, and a 5xx
    kept no `retry_after` to say."""
    time = FakeTime(wall=NOW)
    recorder = Recorder(_refusal(status, far), json_response(200, ME))
    async with make_client(recorder, time=time) as client:
        with deadline_after(30), pytest.raises(RateLimitError if status == 429 else ServerError) as caught:
            await client.me()
    assert len(recorder.requests) == 1 and time.sleeps == []
    assert getattr(caught.value, "retry_after", None) == RETRY_AFTER_CEILING_SECONDS
