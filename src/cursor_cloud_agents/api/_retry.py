"""Pure retry policy: which answers a read may retry, how long to wait, and how many retries we can afford.

No I/O and no clock of its own: callers pass the time, so every rule is tested without sleeping.
Only reads (GET) ever reach this module; a mutation is never retried.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import UTC
from email.utils import parsedate_to_datetime

from cursor_cloud_agents.api.deadline import BACKOFF_BASE_SECONDS, BACKOFF_CAP_SECONDS

MAX_ATTEMPTS = 4
"""Attempts of one read, the first included (docs/reliability.md F-20)."""
RETRY_BUDGET = 10.0
"""Retries a client holds in hand, and the most it ever holds (docs/reliability.md F-22: a burst of failures
must not turn into a burst of retries).

Sized so that a few transient errors in a row are absorbed: three reads that each need all three of
their retries still succeed. With 3, the third 503 of a short storm failed at once. A long storm is
still not amplified: once these are spent, retries come back only at `RETRY_REFILL_PER_READ`.
"""
RETRY_REFILL_PER_READ = 0.1
"""The fraction of a retry each first attempt earns back: retries stay within 10% of reads (F-22)."""
RETRY_AFTER_CEILING_SECONDS = 86_400.0
"""A longer `Retry-After` is read as a day: no call waits that long anyway, and the number stays finite
(an answer carrying `inf` would not be JSON)."""
_DELAY_SECONDS = re.compile(r"[0-9]+(?:\.[0-9]+)?")
"""RFC 9110's delay-seconds is ASCII digits; a fraction is read too. Not `float()`: it takes "1_0", "1e3",
"inf" and other scripts' digits."""


def parse_retry_after(value: str | None, *, now: float) -> float | None:
    """Seconds to wait from a `Retry-After` value: delay-seconds or an HTTP date (RFC 9110 §10.2.3).

    The date may be in any of the three forms RFC 9110 §5.6.7 has recipients read (IMF-fixdate, RFC 850,
    asctime); one without a zone is UTC, as HTTP dates always are.

    Args:
        value: The header value, or None.
        now: Current wall-clock time (Unix seconds), to turn a date into a delay.

    Returns:
        Seconds, at most `RETRY_AFTER_CEILING_SECONDS` (a date in the past gives 0), or None when absent or
        unreadable.
    """
    if value is None:
        return None
    text = value.strip()
    if _DELAY_SECONDS.fullmatch(text):
        return min(float(text), RETRY_AFTER_CEILING_SECONDS)  # a thousand digits are a far future, not "no header"
    return _seconds_until_date(text, now)


def _seconds_until_date(text: str, now: float) -> float | None:
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)  # asctime has no zone, and "-0000" parses without one
    try:
        seconds = when.timestamp() - now
    except (OverflowError, OSError):  # past what the platform's time can hold
        return None
    return min(max(0.0, seconds), RETRY_AFTER_CEILING_SECONDS)


def backoff_seconds(attempt: int, *, rand: Callable[[], float] = random.random) -> float:
    """Capped exponential backoff with full jitter for retry number `attempt` (1 for the first retry)."""
    ceiling = min(BACKOFF_CAP_SECONDS, BACKOFF_BASE_SECONDS * 2 ** max(0, attempt - 1))
    return ceiling * rand()


class RetryBudget:
    """A token bucket of retries (AWS "retry quota"): each first attempt earns `ratio` of a retry.

    In a storm of 429s the retries stay at most `ratio` of the first attempts (plus the initial
    `capacity`), so the client never multiplies the load it is being told to shed.
    """

    def __init__(self, *, ratio: float = RETRY_REFILL_PER_READ, capacity: float = RETRY_BUDGET) -> None:
        self._ratio = ratio
        self._capacity = capacity
        self._tokens = capacity

    @property
    def tokens(self) -> float:
        """Retries currently affordable (may be fractional)."""
        return self._tokens

    def record_attempt(self) -> None:
        """A first attempt was made: earn a fraction of a retry."""
        self._tokens = min(self._capacity, self._tokens + self._ratio)

    def try_spend(self) -> bool:
        """Take one retry if the budget allows it."""
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True
