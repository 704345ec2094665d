"""Serving a recorded trace again: `simulate --replay DIR`, and `serving.serve_replay` for tests.

A trace is the folder of JSON-lines files that the client's recorder writes (`api/record.py`, format
version 1); this module reads that format on its own, since the simulator never imports the client.
Each request is matched by method, path and query against the recorded exchanges with that key, in
the recorded order; once a key's answers are used up, its last answer is served again (a client that
polls once more than it did while recording reads the same final state). Streams are served frame by
frame at their recorded offsets (divided by `speed`; no pauses when `speed` is None), ids as recorded,
then closed. A request never recorded answers 404 `not_recorded`. Any key is accepted: a trace holds
none, and what it masked stays masked.
"""

from __future__ import annotations

import json
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from cursor_cloud_agents.guards.regularfile import TOO_LONG, read_lines

from .timeline import encode_frame
from .wire import dumps

TRACE_VERSION = 1
MAX_TRACE_FILE_BYTES = 256 * 1024 * 1024
"""The recorder rotates its files at 16 MiB (one exchange may pass it): far larger is not a trace of ours."""
MAX_TRACE_LINE_BYTES = 64 * 1024 * 1024
_Key = tuple[str, str, tuple[tuple[str, str], ...]]


class TraceError(ValueError):
    """A trace folder that cannot be replayed; the message names the file and line."""


@dataclass(frozen=True)
class RecordedAnswer:
    """One recorded answer: status, the headers that were kept, the body, and a stream's frames."""

    status: int
    headers: dict[str, str]
    body: bytes
    frames: tuple[tuple[float, bytes], ...] | None
    """(offset in seconds after opening, encoded SSE frame) for a stream; None for a plain answer."""


def _key(method: str, path: str, query: Iterable[tuple[str, str]]) -> _Key:
    return method.upper(), path, tuple(sorted(query))


def _body(recorded: dict[str, Any]) -> bytes:
    if "json" in recorded:
        return dumps(recorded["json"]).encode()
    return str(recorded.get("text", "")).encode()


def _frame(recorded: dict[str, Any]) -> tuple[float, bytes]:
    data = dumps(recorded["json"]) if "json" in recorded else str(recorded.get("text", ""))
    return float(recorded.get("t", 0.0)), encode_frame(str(recorded["event"]), data, recorded.get("id"))


def _answer(record: dict[str, Any]) -> RecordedAnswer:
    frames = None
    if record.get("kind") == "stream" and record["status"] == 200:
        frames = tuple(_frame(cast(dict[str, Any], frame)) for frame in record.get("frames", []))
    headers = {str(k): str(v) for k, v in cast(dict[str, Any], record.get("headers", {})).items()}
    return RecordedAnswer(int(record["status"]), headers, _body(record.get("body", {})), frames)


class Trace:
    """Recorded answers by request key, served in order (the last one again once they are used up)."""

    def __init__(self, records: Iterable[dict[str, Any]]) -> None:
        self._answers: dict[_Key, deque[RecordedAnswer]] = defaultdict(deque)
        self.count = 0
        for record in records:
            query = cast(dict[str, str], record.get("query", {})).items()
            self._answers[_key(record["method"], record["path"], query)].append(_answer(record))
            self.count += 1

    def answer(self, method: str, path: str, query: Iterable[tuple[str, str]]) -> RecordedAnswer | None:
        """The next recorded answer for this request, or None when it was never recorded."""
        queue = self._answers.get(_key(method, path, query))
        if not queue:
            return None
        return queue.popleft() if len(queue) > 1 else queue[0]


def load_trace(directory: Path) -> Trace:
    """The trace recorded in `directory`.

    Raises:
        TraceError: no trace file, or a line that is not a version-1 record.
    """
    files = sorted(directory.glob("trace-*.jsonl"))
    if not files:
        raise TraceError(f"{directory} holds no trace-*.jsonl file: record one with --record DIR")
    return Trace(record for path in files for record in _read_records(path))


def _read_records(path: Path) -> Iterable[dict[str, Any]]:
    try:
        # A FIFO or a folder named like a trace file is refused at once; a file or a line too large is not held.
        lines = read_lines(path, max_bytes=MAX_TRACE_FILE_BYTES, max_line_bytes=MAX_TRACE_LINE_BYTES).lines
    except OSError as exc:
        raise TraceError(
            f"{path} cannot be read ({exc.strerror or type(exc).__name__}): "
            "replay a folder of trace files recorded with --record"
        ) from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if line == TOO_LONG:
            raise TraceError(f"{path.name} line {number} is over {MAX_TRACE_LINE_BYTES} bytes")
        try:
            record = json.loads(line)
        except ValueError:
            raise TraceError(f"{path.name} line {number} is not JSON") from None
        if not isinstance(record, dict) or cast(dict[str, Any], record).get("v") != TRACE_VERSION:
            raise TraceError(f"{path.name} line {number} is not a version-{TRACE_VERSION} trace record")
        yield cast(dict[str, Any], record)


async def _frames(
    frames: tuple[tuple[float, bytes], ...], speed: float | None, sleep: Callable[[float], Awaitable[None]]
) -> AsyncIterator[bytes]:
    sent_at = 0.0
    for offset, frame in frames:
        if speed is not None and offset > sent_at:
            await sleep((offset - sent_at) / speed)
            sent_at = offset
        yield frame


def build_replay_app(
    trace: Trace, *, speed: float | None = 1.0, sleep: Callable[[float], Awaitable[None]] = anyio.sleep
) -> Starlette:
    """The trace as an ASGI app: every path, every method."""

    async def endpoint(request: Request) -> Response:
        found = trace.answer(request.method, request.url.path, request.query_params.multi_items())
        if found is None:
            body = {
                "error": {"code": "not_recorded", "message": f"{request.method} {request.url.path} is not in the trace"}
            }
            return Response(dumps(body).encode(), 404, media_type="application/json")
        headers = {k: v for k, v in found.headers.items() if k != "content-type"}
        media_type = found.headers.get("content-type", "application/json")
        if found.frames is not None:
            return StreamingResponse(_frames(found.frames, speed, sleep), found.status, headers, media_type=media_type)
        return Response(found.body, found.status, headers, media_type=media_type)

    methods = ["GET", "POST", "DELETE", "PUT", "PATCH"]
    return Starlette(routes=[Route("/{path:path}", endpoint, methods=methods)])
