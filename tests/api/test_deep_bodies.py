"""A body from the API nested past what the JSON parser reads (issue 23, depth as a class on the upstream side).

Python's parser recurses once per level and raises RecursionError, which no caller expected: an answer, an
error body or an event that deep became INTERNAL with a traceback, and its recording was lost.
"""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from cursor_cloud_agents.api import IncompatibleResponseError
from cursor_cloud_agents.api.record import Exchange, StreamExchange
from cursor_cloud_agents.api.record import Recorder as TraceRecorder
from cursor_cloud_agents.redact import Redactor
from tests.api.helpers import Recorder, make_client

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.anyio
async def test_an_answer_nested_past_the_parser_is_an_incompatible_response() -> None:
    """B-16: a 2xx body 100,000 levels deep is not JSON the client can read, never a RecursionError."""
    async with make_client(Recorder(httpx2.Response(200, content=DEEP))) as client:
        with pytest.raises(IncompatibleResponseError):
            await client.me()


@pytest.mark.anyio
async def test_an_error_body_nested_past_the_parser_keeps_the_status_meaning() -> None:
    """B-16: a 404 whose body is that deep keeps its status's meaning (read as a body that is not JSON)."""
    answer = httpx2.Response(404, content=b'{"error": ' + DEEP + b"}")
    async with make_client(Recorder(answer)) as client:
        with pytest.raises(Exception) as caught:
            await client.me()
    assert not isinstance(caught.value, RecursionError)
    assert getattr(caught.value, "status_code", None) == 404


def test_the_recorder_keeps_an_exchange_whose_body_is_nested_past_the_parser(tmp_path: Path) -> None:
    """B-16: the exchange is recorded (its body as text), not lost to an observer failure."""
    recorder = TraceRecorder(tmp_path, mask=Redactor().mask)
    walkable_only_by_the_parser = b"[" * 700 + b"]" * 700  # parsed in C, then too deep for the walk in Python
    for body in (DEEP, walkable_only_by_the_parser):
        recorder.exchange(Exchange("GET", "/v1/me", {}, None, 200, {}, body))
    assert sum(len(path.read_text().splitlines()) for path in tmp_path.glob("trace-*.jsonl")) == 2


def test_the_recorder_keeps_a_stream_whose_frame_is_nested_past_the_walk(tmp_path: Path) -> None:
    """B-16: a stream frame that deep is recorded (its data masked as text that is not JSON), not lost."""
    stream = StreamExchange("/v1/agents/bc-1/runs/run-1/stream", {}, 200, {}, opened=0.0)
    stream.add("interaction_update", "[" * 700 + "]" * 700, "1-0", now=0.5)
    TraceRecorder(tmp_path, mask=Redactor().mask).stream(stream)
    assert sum(len(path.read_text().splitlines()) for path in tmp_path.glob("trace-*.jsonl")) == 1
