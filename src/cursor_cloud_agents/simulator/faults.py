"""Scriptable faults, the request log and the in-flight counter.

A `Fault` is matched by method and path pattern (`/v1/agents/{id}`, `*` for any segment) and
consumed per count. HTTP-level faults answer instead of the world (status, body, headers) or delay
it; socket-level faults (cut, reset, cut mid-body, drip) run the world first and then break the
real connection, which only `serve()` can do: the HTTP server reads them from the ASGI scope.
Stream faults (a huge event, a `retry:` field, no ids, invalid JSON, CRLF endings) rewrite the
body of the answer as it is sent; they are meant for the run stream route (docs/reliability.md §2.3).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .wire import dumps

SocketMode = Literal["cut", "reset", "cut_mid_body", "drip"]
StreamMode = Literal["huge_event", "retry", "no_ids", "invalid_json", "crlf", "pause"]
SCOPE_KEY = "cursor_sim.socket_fault"


@dataclass(frozen=True)
class Fault:
    """What to do to a matching request. Build one with the class methods."""

    status: int | None = None
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict[str, str])
    delay: float = 0.0
    socket: SocketMode | None = None
    cut_after_bytes: int | None = None
    drip_interval: float = 0.0
    echo_authorization: bool = False
    stream: StreamMode | None = None
    stream_size: int = 0
    """Bytes of the huge event's `data`, milliseconds of the `retry:` field, or of the replay's pause."""

    @classmethod
    def error(cls, status: int, code: str, message: str = "", headers: Mapping[str, str] | None = None) -> Fault:
        """A documented-shape error envelope with any status."""
        body = dumps({"error": {"code": code, "message": message or code}}).encode()
        return cls(status, body, {"content-type": "application/json", **(headers or {})})

    @classmethod
    def rate_limited(cls, retry_after: str | float = 2, code: str = "rate_limit_exceeded") -> Fault:
        """429 with `Retry-After` (seconds, or pass an HTTP date string)."""
        value = retry_after if isinstance(retry_after, str) else f"{retry_after:g}"
        return cls.error(429, code, "Too many requests", {"retry-after": value})

    @classmethod
    def server_error(cls, status: int = 503, code: str = "internal_error") -> Fault:
        """A 5xx error envelope."""
        return cls.error(status, code, "Simulated server error")

    @classmethod
    def raw(cls, status: int, body: bytes | str, content_type: str = "application/json") -> Fault:
        """Any body: HTML error pages, malformed or truncated JSON, a 200 carrying an error envelope."""
        data = body.encode() if isinstance(body, str) else body
        return cls(status, data, {"content-type": content_type})

    @classmethod
    def html(cls, status: int = 502) -> Fault:
        """An HTML error page, as a proxy in front of the API would send."""
        return cls.raw(status, "<html><body><h1>502 Bad Gateway</h1></body></html>", "text/html")

    @classmethod
    def malformed_json(cls, status: int = 200) -> Fault:
        """A body that is not JSON at all."""
        return cls.raw(status, '{"items": [ this is not json')

    @classmethod
    def truncated_json(cls, status: int = 200) -> Fault:
        """Well-started JSON cut short (with a matching Content-Length)."""
        return cls.raw(status, '{"id":"bc_12')

    @classmethod
    def oversized(cls, size_bytes: int, status: int = 200) -> Fault:
        """A valid JSON body of about `size_bytes` bytes."""
        filler = "x" * max(0, size_bytes - 16)
        return cls.raw(status, dumps({"items": [], "pad": filler}))

    @classmethod
    def echo_auth(cls, status: int = 400) -> Fault:
        """An error whose message echoes the request's Authorization header (a leaky upstream)."""
        return cls(status, b"", {"content-type": "application/json"}, echo_authorization=True)

    @classmethod
    def slow(cls, seconds: float) -> Fault:
        """Answer normally after a (real-time) delay; `float('inf')` never answers."""
        return cls(delay=seconds)

    @classmethod
    def cut_after_request(cls) -> Fault:
        """Apply the request to the world, then close the connection without answering."""
        return cls(socket="cut")

    @classmethod
    def reset(cls) -> Fault:
        """Apply the request, then reset the TCP connection (RST)."""
        return cls(socket="reset")

    @classmethod
    def cut_mid_body(cls, after_bytes: int | None = None) -> Fault:
        """Send the headers and part of the body (default: half of it), then close."""
        return cls(socket="cut_mid_body", cut_after_bytes=after_bytes)

    @classmethod
    def drip(cls, interval_ms: float) -> Fault:
        """Send the whole answer one byte every `interval_ms` milliseconds (real time)."""
        return cls(socket="drip", drip_interval=interval_ms / 1000)

    @classmethod
    def huge_event(cls, size_bytes: int = 256 * 1024 * 1024) -> Fault:
        """S-05: after the leading status, one `assistant` event whose `data` is `size_bytes` long.

        The bytes are generated block by block as the client reads them, never held in memory.
        """
        return cls(stream="huge_event", stream_size=size_bytes)

    @classmethod
    def sse_retry(cls, retry_ms: int = 500) -> Fault:
        """S-02: a `retry: <ms>` field in the leading frame (the reconnect delay a client must honour)."""
        return cls(stream="retry", stream_size=retry_ms)

    @classmethod
    def without_event_ids(cls) -> Fault:
        """S-03: every `id:` line removed, so a client has nothing to resume from."""
        return cls(stream="no_ids")

    @classmethod
    def invalid_json_event(cls) -> Fault:
        """S-08: right after the leading status, an `assistant` event whose `data:` is not JSON."""
        return cls(stream="invalid_json")

    @classmethod
    def replay_pause(cls, seconds: float) -> Fault:
        """The replay stops for `seconds` (real time, as a pause in delivery is) halfway through its first
        burst, then goes on: the longest pause measured inside a real replay was 1.3 s (docs/api-contract.md §3.11)."""
        return cls(stream="pause", stream_size=round(seconds * 1000))

    @classmethod
    def crlf_line_endings(cls) -> Fault:
        """S-08: every line of the stream ends with `\\r\\n` instead of `\\n` (legal SSE)."""
        return cls(stream="crlf")


def _pattern(path: str) -> re.Pattern[str]:
    parts = [
        ("[^/]+" if p == "*" or (p.startswith("{") and p.endswith("}")) else re.escape(p)) for p in path.split("/")
    ]
    return re.compile("^" + "/".join(parts) + "$")


@dataclass
class FaultRule:
    """A fault bound to a route and a count (`times=None`: every match), optionally at random."""

    method: str
    path: str
    fault: Fault
    times: int | None = 1
    probability: float = 1.0
    hits: int = 0
    regex: re.Pattern[str] = field(init=False)

    def __post_init__(self) -> None:
        self.regex = _pattern(self.path)

    def matches(self, method: str, path: str) -> bool:
        """Route match and count left."""
        exhausted = self.times is not None and self.hits >= self.times
        return not exhausted and self.method in ("*", method) and bool(self.regex.match(path))


@dataclass
class RequestRecord:
    """One request as the simulator saw it (the Authorization value is never kept)."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: bytes
    at: float
    status: int | None = None
    fault: Fault | None = None
    request_id: str = ""
    """The `x-request-id` the answer carried (errors name it)."""

    def json(self) -> Any:
        """The body decoded as JSON (tests)."""
        return json.loads(self.body) if self.body else None


class Faults:
    """The fault plan of one simulator, its request log and the concurrency it saw."""

    def __init__(self, *, seed: int = 0, latency: float = 0.0) -> None:
        self.rules: list[FaultRule] = []
        self.latency = latency
        """Added (real-time) latency for every request."""
        self.requests: list[RequestRecord] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._rng = random.Random(seed)

    def inject(
        self, method: str, path: str, fault: Fault, *, times: int | None = 1, probability: float = 1.0
    ) -> FaultRule:
        """Apply `fault` to the next `times` requests matching `method` and `path` (a pattern)."""
        rule = FaultRule(method.upper(), path, fault, times, probability)
        self.rules.append(rule)
        return rule

    def take(self, method: str, path: str) -> Fault | None:
        """Consume the first matching rule, if any (probabilistic rules draw from a seeded RNG)."""
        for rule in self.rules:
            if rule.matches(method, path) and (rule.probability >= 1.0 or self._rng.random() < rule.probability):
                rule.hits += 1
                return rule.fault
        return None

    def clear(self) -> None:
        """Drop every rule (the log stays)."""
        self.rules.clear()

    def count(self, method: str, path: str) -> int:
        """How many logged requests match `method` and the path pattern."""
        regex = _pattern(path)
        return sum(1 for r in self.requests if r.method == method.upper() and regex.match(r.path))
