"""Test helpers for the API client: a recording MockTransport, fake time, example bodies."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import anyio.lowlevel
import httpx2

from cursor_cloud_agents.api import CursorClient

EXAMPLES = Path(__file__).parent / "examples"
BASE = "https://api.cursor.com"
KEY = "key_test_5ecret_value"
AGENT = "bc-00000000-0000-0000-0000-000000000001"
RUN = "run-00000000-0000-0000-0000-000000000001"
RUN2 = "run-00000000-0000-0000-0000-000000000002"

Handler = (
    Callable[[httpx2.Request], httpx2.Response] | Callable[[httpx2.Request], Coroutine[None, None, httpx2.Response]]
)


def example(name: str) -> Any:
    """A JSON example body from tests/api/examples/."""
    return json.loads((EXAMPLES / name).read_text())


class FakeTime:
    """An injected monotonic clock, wall clock and sleep: sleeping only advances the clock."""

    def __init__(self, start: float = 1000.0, wall: float = 1_790_000_000.0) -> None:
        self.now = start
        self.wall_offset = wall - start
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def wall(self) -> float:
        return self.now + self.wall_offset

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


class Recorder:
    """A MockTransport handler that records requests and answers from a queue (or one fixed answer)."""

    def __init__(self, *answers: httpx2.Response | Exception) -> None:
        self.answers = list(answers)
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer

    @property
    def last(self) -> httpx2.Request:
        return self.requests[-1]


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(status, json=body, headers=headers)


def make_client(handler: Handler, *, time: FakeTime | None = None, **kwargs: Any) -> CursorClient:
    fake = time or FakeTime()
    return CursorClient(
        BASE,
        KEY,
        transport=httpx2.MockTransport(handler),
        clock=fake.clock,
        wall_clock=fake.wall,
        sleep=fake.sleep,
        **kwargs,
    )


def assert_key_only_in_authorization(request: httpx2.Request) -> None:
    """The key appears in the Bearer header and nowhere else (URL, other headers, body)."""
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert KEY not in str(request.url)
    others = [value for name, value in request.headers.items() if name.lower() != "authorization"]
    assert all(KEY not in value for value in others)
    assert KEY.encode() not in request.content


class CountingMe:
    """A handler answering `GET /v1/me` that counts the requests in flight at once (`max`): each stays in
    flight for a few scheduler turns, no real time, so that calls started together overlap."""

    def __init__(self) -> None:
        self.now = 0
        self.max = 0

    async def __call__(self, request: httpx2.Request) -> httpx2.Response:
        del request
        self.now += 1
        self.max = max(self.max, self.now)
        for _ in range(10):
            await anyio.lowlevel.checkpoint()
        self.now -= 1
        return json_response(200, example("docs/me.user-key.response.200.json"))
