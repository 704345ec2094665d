"""Walking a replay: every event of a run's stream handed to a consumer until the replay is over.

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
Once such a stream has been quiet for `quiet_seconds`, the rest of that silence is spent on a listener slot:
its request slot goes to the next replay or read (`_slots`, docs/reliability.md F-45).
Silences are the one wait of a walk that no injected clock takes away (frames come in real time), so the walk
measures them on a clock that can run fast: with `silence_scale` below 1 (tests against the simulator, whose
pauses are scaled alike) each silence lasts that share of its seconds, and is reported in its own seconds.
The walk keeps nothing itself; its consumer keeps what it needs (the last N events, a running fold), so
memory stays bounded for any replay size.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import Literal, Protocol, TypedDict, runtime_checkable

import anyio

from cursor_cloud_agents.api._frames import FrameBatch, block_type, parse_block
from cursor_cloud_agents.api.deadline import STREAM_MARGIN_SECONDS, current_deadline
from cursor_cloud_agents.api.events import RawEvent, StreamEvent, parse_event
from cursor_cloud_agents.api.ids import parse_event_id
from cursor_cloud_agents.api.stream import RunStream

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

    def __init__(
        self, stream: RunStream, consumer: ReplayConsumer | BlockConsumer, max_bytes: int, silence_scale: float
    ) -> None:
        self.stream = stream
        self.max_bytes = max_bytes
        self.silence_scale = silence_scale
        self.events = 0
        self.last_id: str | None = None
        self.last_time: int | None = None
        self.ended_by: EndSignal = "timeout"
        self.silence: float | None = None
        """The real seconds of the silence that ended the walk (reported divided by `silence_scale`)."""
        self.last_batch_at: float | None = None
        """When the last batch came (anyio's clock): where the current silence started."""
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
            silence_seconds=None if self.silence is None else self.silence / self.silence_scale,
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
        if self.listens_to(walk):
            return self.listen or 0.0, "listened"
        return self.quiet, "quiet"

    @property
    def may_listen(self) -> bool:
        """Whether some walk could be listened to past the short silence."""
        return self.quiet is not None and self.before_ms is not None and (self.listen or 0.0) > self.quiet

    def listens_to(self, walk: _Walk) -> bool:
        """Whether the walk's last event is old enough that only the long silence ends it."""
        return self.may_listen and walk.last_time is not None and walk.last_time < (self.before_ms or 0)


async def walk_replay(
    stream: RunStream,
    consumer: ReplayConsumer | BlockConsumer,
    *,
    max_seconds: float | None = None,
    max_bytes: int = 32 * 1024 * 1024,
    quiet_seconds: float | None = None,
    listen_seconds: float | None = None,
    listen_before_ms: int | None = None,
    silence_scale: float = 1.0,
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
        silence_scale: Real seconds per second of `quiet_seconds` and `listen_seconds` (1; tests: less).

    Raises:
        StreamError: the connection broke mid-replay (`last_event_id` says where).
    """
    walk = _Walk(stream, consumer, max_bytes, silence_scale)
    quiet, listen = _scaled(quiet_seconds, silence_scale), _scaled(listen_seconds, silence_scale)
    silences = _Silences(quiet, listen, listen_before_ms)
    with anyio.move_on_after(_walk_seconds(max_seconds)):
        if silences.may_listen:
            walk.ended_by = await _walk_and_listen(stream, walk, silences)
        else:
            walk.ended_by = await _walk_batches(stream, walk, silences)
        return walk.outcome()
    walk.ended_by = "timeout"  # a listen the deadline cut short proves nothing: the walk was cut
    return walk.outcome()


def _scaled(seconds: float | None, scale: float) -> float | None:
    return None if seconds is None else seconds * scale


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
            walk.last_batch_at = anyio.current_time()
            signal = walk.batch(batch)
            if signal is not None:
                return signal


async def _walk_and_listen(stream: RunStream, walk: _Walk, silences: _Silences) -> EndSignal:
    """`_walk_batches`, the stream moved to a listener slot once its replay has been quiet on an old event
    for the short silence: the rest of the long one is spent listening, not holding a request slot."""
    outcome: EndSignal | Exception = "timeout"
    async with anyio.create_task_group() as group:
        group.start_soon(_listen_once_quiet, stream, walk, silences)
        try:
            outcome = await _walk_batches(stream, walk, silences)
        except Exception as exc:  # raised below, outside the group, so that callers see it unwrapped
            outcome = exc
        group.cancel_scope.cancel()
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


_LISTENER_RETRY_SECONDS = 0.05
"""How soon a quiet stream asks again for a listener slot when all were taken."""


async def _listen_once_quiet(stream: RunStream, walk: _Walk, silences: _Silences) -> None:
    """Trade the stream's request slot for a listener's once the replay has been quiet on an old event for the
    short silence; runs beside the walk until it ends."""
    quiet = silences.quiet or 0.0
    while True:
        since = walk.last_batch_at
        if since is None or not silences.listens_to(walk):
            # Not started, or a recent event (the short silence ends the walk): look again later, never in a
            # busy loop, even with no quiet asked for.
            await anyio.sleep(max(quiet, _LISTENER_RETRY_SECONDS))
            continue
        await anyio.sleep_until(since + quiet)
        if walk.last_batch_at != since:
            continue  # a batch came: the silence starts again
        if stream.to_listening():
            return
        await anyio.sleep(_LISTENER_RETRY_SECONDS)
