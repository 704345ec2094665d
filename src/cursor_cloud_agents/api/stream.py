"""The run event stream: opening it (with resume) and iterating its typed events; walking a whole replay
is `walk`'s.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from cursor_cloud_agents.api._frames import FrameBatch
from cursor_cloud_agents.api._http import HttpAnswer, OpenStream, SendFailure
from cursor_cloud_agents.api.deadline import STREAM_CONNECT_CAP_SECONDS, STREAM_IDLE_SECONDS
from cursor_cloud_agents.api.errors import APIConnectionError, ReadFailedError
from cursor_cloud_agents.api.events import RawEvent, StreamEvent, parse_event

if TYPE_CHECKING:
    from cursor_cloud_agents.api._core import RequestEngine

MAX_EVENT_BYTES = 4 * 1024 * 1024
"""One event larger than this is refused (a tool_call result can be large; a 256 MiB one is not read)."""
_MAX_ERROR_BYTES = 64 * 1024


class RunStream:
    """An open run stream. Iterate it for typed events, or `raw_events()` for lazy frames."""

    def __init__(self, stream: OpenStream, *, connected_at_ms: int) -> None:
        self._stream = stream
        self.connected_at_ms = connected_at_ms
        """Wall-clock milliseconds when we connected: events with a newer id time are live."""
        retention = stream.headers.get("x-cursor-stream-retention-seconds", "")
        self.retention_seconds: int | None = int(retention) if retention.isdigit() else None
        """`X-Cursor-Stream-Retention-Seconds`, when sent."""
        self.request_id = stream.request_id
        self.skipped = 0
        """Frames of a known type whose payload was unusable (skipped by the typed iteration)."""

    @property
    def last_event_id(self) -> str | None:
        """The last event id received: where to resume with `last_event_id=`."""
        return self._stream.last_event_id

    @property
    def bytes_read(self) -> int:
        """Bytes received on this connection."""
        return self._stream.bytes_read

    @property
    def listening(self) -> bool:
        """Whether the stream is only being listened to, on a listener slot (`to_listening`)."""
        return self._stream.listening

    def to_listening(self) -> bool:
        """Give the stream's request slot to the next request, holding one of the few listener slots instead:
        for a stream whose replay went quiet and that is only listened to now (docs/reliability.md F-43).
        False, and the stream keeps its request slot, when every listener slot is taken."""
        return self._stream.to_listening()

    def raw_events(self) -> AsyncIterator[RawEvent]:
        """The frames as received (httpx2's SSE decoder), JSON not decoded."""
        return self._stream.events()

    def raw_batches(self) -> AsyncGenerator[FrameBatch]:
        """The frames as raw blocks per received chunk (the fast decoder): for whole-replay walks."""
        return self._stream.frame_batches()

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        async for raw in self._stream.events():
            event = parse_event(raw)
            if event is None:
                self.skipped += 1
                continue
            yield event


def _check_resume_id(last_event_id: str | None) -> None:
    # It goes into a header: refuse anything that could split it.
    if last_event_id is not None and (
        not last_event_id or len(last_event_id) > 200 or any(ch in last_event_id for ch in "\r\n\0")
    ):
        raise ValueError("last_event_id must be a short single-line event id")


@asynccontextmanager
async def open_run_stream(
    engine: RequestEngine, path: str, *, last_event_id: str | None, wall_clock: Callable[[], float]
) -> AsyncGenerator[RunStream]:
    """Open the stream at `path`, mapping a refusal (400 invalid_last_event_id, 410...) to its error."""
    _check_resume_id(last_event_id)
    headers = {"Accept": "text/event-stream", "Cache-Control": "no-store", "x-cursor-streaming": "true"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    await engine.throttle()
    connected_at_ms = int(wall_clock() * 1000)
    try:
        async with engine.session.event_stream(
            path,
            headers=headers,
            connect_timeout=engine.total_seconds(STREAM_CONNECT_CAP_SECONDS),
            idle_timeout=STREAM_IDLE_SECONDS,
            max_event_size=MAX_EVENT_BYTES,
            max_error_bytes=_MAX_ERROR_BYTES,
        ) as opened:
            if opened.status != 200:
                opened_body = await opened.error_body()
                raise engine.status_error(_answer_of(opened, opened_body))
            yield RunStream(opened, connected_at_ms=connected_at_ms)
    except SendFailure as failure:
        if failure.maybe_sent:
            raise ReadFailedError(f"GET {path}: {failure}") from None
        raise APIConnectionError(f"GET {path}: {failure}") from None


def _answer_of(opened: OpenStream, body: bytes) -> HttpAnswer:
    return HttpAnswer(status=opened.status, headers=opened.headers, body=body, request_id=opened.request_id)
