"""The documented rate limit of `GET /v1/repositories`: 1 per minute and 30 per hour per key."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .errors import ApiError


@dataclass
class RepositoryLimiter:
    """`GET /v1/repositories`: 1 request per key per minute and 30 per hour."""

    calls: dict[str, list[float]] = field(default_factory=dict[str, list[float]])

    def check(self, key: str, now: float) -> None:
        """Record a call or raise 429 with `Retry-After` and `X-RateLimit-*` headers."""
        recent = [t for t in self.calls.get(key, []) if now - t < 3600]
        self.calls[key] = recent
        if recent and now - recent[-1] < 60:
            self._refuse(1, recent[-1] + 60, now)
        if len(recent) >= 30:
            self._refuse(30, recent[0] + 3600, now)
        recent.append(now)

    @staticmethod
    def _refuse(limit: int, reset: float, now: float) -> None:
        headers = {
            "Retry-After": str(max(1, math.ceil(reset - now))),
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": str(math.ceil(reset)),
        }
        raise ApiError(429, "rate_limit_exceeded", "Too many requests to /v1/repositories", headers=headers)
