"""The run event stream: opening it (with resume), iterating typed events, and walking a replay.

A connection without `Last-Event-ID` replays the run from its start and then goes live, and the API
sends no end-of-replay marker. `walk_replay` therefore decides the replay is over on one of three
signals only: a `result`/`done` frame (the run is over), the first event whose id time is newer than
the connection (live), or the first `heartbeat` (sent once the queue is drained, 30-36 s after
connecting). A caller that cannot wait for that heartbeat may ask for `quiet_seconds`: the replay of a
running run arrives as one burst, so a silence that long after it ends the walk as `quiet`, which is an
inference, never a proof (`replay_complete` stays false) and never the end of the run. A burst can pause,
though, so a caller that would call the run stuck on that silence also names `listen_seconds` (past the
longest pause inside a replay) and `listen_before_ms`: while the last event is older than that instant,
only a silence of `listen_seconds` ends the walk (`listened`); a newer event goes back to the short one.
The walk keeps nothing itself; its consumer keeps what it needs (the last N events, a running fold), so
memory stays bounded for any replay size.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import aclosing, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol, TypedDict, runtime_checkable

import anyio

from cursor_cloud_agents.api._frames import FrameBatch, block_type, parse_block
from cursor_cloud_agents.api._http import HttpAnswer, OpenStream, SendFailure
from cursor_cloud_agents.api.deadline import (
    STREAM_CONNECT_CAP_SECONDS,
    STREAM_IDLE_SECONDS,
    STREAM_MARGIN_SECONDS,
    current_deadline,
)
from cursor_cloud_agents.api.errors import APIConnectionError, ReadFailedError
from cursor_cloud_agents.api.events import RawEvent, StreamEvent, parse_event
from cursor_cloud_agents.api.ids import parse_event_id

if TYPE_CHECKING:
    from cursor_cloud_agents.api._core import RequestEngine

MAX_EVENT_BYTES = 4 * 1024 * 1024
"""One event larger than this is refused (a tool_call result can be large; a 256 MiB one is not read)."""
_MAX_ERROR_BYTES = 64 * 1024

Evidence = Literal["result", "live", "heartbeat", "silence"]
"""What decided the end of a replay: the run's `result`, a `live` event, the `heartbeat`, or a `silence`."""
_EVIDENCE: dict[str, Evidence] = {
    "result": "result",
    "done": "result",
    "live": "live",
    "heartbeat": "heartbeat",
    "quiet": "silence",
    "listened": "silence",
}
EndSignal = Literal["result", "done", "live", "heartbeat", "closed", "timeout", "byte_limit", "quiet", "listened"]


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


class ReplayConsumer(Protocol):
    """Receives every raw event of a walk; keeps only what it needs (decode lazily with `payload()`)."""

    def __call__(self, event: RawEvent, /) -> None: ...


@runtime_checkable
class BlockConsumer(Protocol):
    """A consumer that takes raw frame blocks in bulk (the fast path) and parses only what it keeps.

    Blocks are complete SSE frames as bytes (LF line ends, no trailing blank line); some may be empty
    or comment-only. `parse_block` turns one into a `RawEvent`.
    """

    def take_blocks(self, blocks: list[bytes], /) -> None: ...


class ReplayLimits(TypedDict, total=False):
    """When a replay walk stops early; `walk_replay` names each with its default, the client forwards them."""

    max_seconds: float | None
    max_bytes: int
    quiet_seconds: float | None
    listen_seconds: float | None
    listen_before_ms: int | None


@dataclass(frozen=True, slots=True)
class ReplayOutcome:
    """How a replay walk ended, and what it scanned."""

    ended_by: EndSignal
    """`result`/`done`/`live`/`heartbeat`: the replay is over; `closed`: the server closed first;
    `timeout`/`byte_limit`: the walk stopped early and the replay may go on; `quiet`: nothing came for
    `quiet_seconds` after the replay's burst, so the replay is taken as over (inferred, not proved);
    `listened`: the same after a silence of `listen_seconds`, the last event being older than `listen_before_ms`."""
    silence_seconds: float | None
    """With `quiet` or `listened`: how long the silence that ended the walk lasted."""
    events: int
    """Events scanned."""
    bytes: int
    """Bytes received."""
    last_event_id: str | None
    last_event_time_ms: int | None
    connected_at_ms: int
    retention_seconds: int | None

    @property
    def replay_complete(self) -> bool:
        """True when one of the end-of-replay signals was seen (or the stream was closed)."""
        return self.ended_by not in ("timeout", "byte_limit", "quiet", "listened")

    @property
    def evidence(self) -> Evidence | None:
        """What decided the replay's end (`silence_seconds` says how long a silence was); None when nothing
        did: the walk was cut (`timeout`, `byte_limit`) or the server closed the stream first."""
        return _EVIDENCE.get(self.ended_by)


class TailCollector:
    """A consumer keeping the last `n` events (optionally only of some types), parsed only when read."""

    def __init__(self, n: int, *, types: frozenset[str] | None = None) -> None:
        self._n = n
        # Slack for empty or comment-only blocks, dropped when the tail is read.
        self._blocks: deque[bytes | RawEvent] = deque(maxlen=n + 16)
        self._types = types

    def __call__(self, event: RawEvent, /) -> None:
        if self._types is None or event.event in self._types:
            self._blocks.append(event)

    def take_blocks(self, blocks: list[bytes], /) -> None:
        """Keep the last blocks of a batch (C-speed when there is no type filter)."""
        if self._types is None:
            self._blocks.extend(blocks[-self._blocks.maxlen :] if self._blocks.maxlen else blocks)
        else:
            self._blocks.extend(block for block in blocks if block_type(block) in self._types)

    @property
    def events(self) -> list[RawEvent]:
        """The kept events, oldest first."""
        parsed = [item if isinstance(item, RawEvent) else parse_block(item) for item in self._blocks]
        return [event for event in parsed if event is not None][-self._n :]

    def typed(self) -> list[StreamEvent]:
        """The kept events, typed (unusable ones left out)."""
        return [event for event in map(parse_event, self.events) if event is not None]


class _Walk:
    """The running state of one walk: counts, the last id, and the end decision."""

    def __init__(self, stream: RunStream, consumer: ReplayConsumer | BlockConsumer, max_bytes: int) -> None:
        self.stream = stream
        self.max_bytes = max_bytes
        self.events = 0
        self.last_id: str | None = None
        self.last_time: int | None = None
        self.ended_by: EndSignal = "timeout"
        self.silence: float | None = None
        self._take = consumer.take_blocks if isinstance(consumer, BlockConsumer) else _per_event(consumer, self)

    def batch(self, batch: FrameBatch) -> EndSignal | None:
        """Hand one batch to the consumer, up to and including an end signal; the signal if one came."""
        end, signal = len(batch.blocks), None
        found = batch.signal()
        if found is not None:
            end, signal = found[0] + 1, found[1]
        live = batch.first_id_after(self.stream.connected_at_ms, end=end)
        if live is not None and live + 1 < end:
            end, signal = live + 1, "live"
        elif live is not None and signal is None:
            signal = "live"
        blocks = batch.blocks if end >= len(batch.blocks) else batch.blocks[:end]
        self._take(blocks)
        self.events += batch.count(end=end)
        self._note_last_id(batch.last_id(end=end))
        if signal is not None:
            return signal  # type: ignore[return-value]  # pyright: ignore[reportReturnType] -- one of EndSignal
        return "byte_limit" if self.stream.bytes_read >= self.max_bytes else None

    def _note_last_id(self, event_id: str | None) -> None:
        if event_id is None:
            return
        self.last_id = event_id
        moment = parse_event_id(event_id)
        if moment is not None:
            self.last_time = moment[0]

    def outcome(self) -> ReplayOutcome:
        return ReplayOutcome(
            ended_by=self.ended_by,
            silence_seconds=self.silence,
            events=self.events,
            bytes=self.stream.bytes_read,
            last_event_id=self.last_id,
            last_event_time_ms=self.last_time,
            connected_at_ms=self.stream.connected_at_ms,
            retention_seconds=self.stream.retention_seconds,
        )


def _per_event(consumer: ReplayConsumer, walk: _Walk) -> Callable[[list[bytes]], None]:
    """Adapt a per-event consumer: parse each block, carrying the last id onto frames without one."""

    def take(blocks: list[bytes]) -> None:
        carried = walk.last_id
        for block in blocks:
            event = parse_block(block, carried)
            if event is not None:
                carried = event.id
                consumer(event)

    return take


def _walk_seconds(max_seconds: float | None) -> float:
    # Stop a little before the call's deadline, so the walk reports "timeout" instead of being cut.
    wanted = float("inf") if max_seconds is None else max_seconds
    deadline = current_deadline()
    return wanted if deadline is None else deadline.cap(wanted, STREAM_MARGIN_SECONDS)


@dataclass(frozen=True, slots=True)
class _Silences:
    """Which silence ends a walk: `quiet` seconds, or `listen` seconds while the last event is older than
    `before_ms`; none (infinite) before the first frame, or when no quiet was asked for."""

    quiet: float | None
    listen: float | None
    before_ms: int | None

    def allowed(self, walk: _Walk, started: bool) -> tuple[float, EndSignal]:
        if not started or self.quiet is None:
            return float("inf"), "quiet"
        old = self.before_ms is not None and walk.last_time is not None and walk.last_time < self.before_ms
        if old and self.listen is not None and self.listen > self.quiet:
            return self.listen, "listened"
        return self.quiet, "quiet"


async def walk_replay(
    stream: RunStream,
    consumer: ReplayConsumer | BlockConsumer,
    *,
    max_seconds: float | None = None,
    max_bytes: int = 32 * 1024 * 1024,
    quiet_seconds: float | None = None,
    listen_seconds: float | None = None,
    listen_before_ms: int | None = None,
) -> ReplayOutcome:
    """Hand every event of the replay to `consumer` until the replay is over.

    Args:
        stream: A stream opened without `last_event_id` (a full replay).
        consumer: Called with each raw event, the last one (the signal) included.
        max_seconds: Stop early (`timeout`) after this long; the call's deadline also applies.
        max_bytes: Stop early (`byte_limit`) after this many bytes.
        quiet_seconds: Take a silence this long, once frames have come, as the end of the replay (`quiet`).
        listen_seconds: While the last event is older than `listen_before_ms` (epoch milliseconds), only a
            silence this long ends the replay (`listened`), instead of `quiet_seconds`.
        listen_before_ms: See `listen_seconds`.

    Raises:
        StreamError: the connection broke mid-replay (`last_event_id` says where).
    """
    walk = _Walk(stream, consumer, max_bytes)
    silences = _Silences(quiet_seconds, listen_seconds, listen_before_ms)
    with anyio.move_on_after(_walk_seconds(max_seconds)):
        walk.ended_by = await _walk_batches(stream, walk, silences)
        return walk.outcome()
    walk.ended_by = "timeout"  # a listen the deadline cut short proves nothing: the walk was cut
    return walk.outcome()


async def _walk_batches(stream: RunStream, walk: _Walk, silences: _Silences) -> EndSignal:
    async with aclosing(stream.raw_batches()) as batches:
        started = False
        while True:
            wait, ending = silences.allowed(walk, started)
            batch = None
            with anyio.move_on_after(wait) as scope:
                batch = await anext(batches, None)
            if scope.cancelled_caught:
                walk.silence = wait
                return ending
            if batch is None:
                return "closed"
            started = True
            signal = walk.batch(batch)
            if signal is not None:
                return signal
