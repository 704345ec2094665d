"""The run stream: SSE decoding at every split point, typed events, bounded events, resume, and the replay walk."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

import anyio
import httpx2
import pytest

from cursor_cloud_agents.api import (
    AssistantEvent,
    CursorClient,
    GenericEvent,
    IncompatibleResponseError,
    InvalidLastEventIdError,
    RawEvent,
    ReplayOutcome,
    ResultEvent,
    StatusEvent,
    StreamError,
    StreamEvent,
    StreamExpiredError,
    TailCollector,
    ToolCallEvent,
    parse_event_id,
)
from cursor_cloud_agents.api.walk import ReplayLimits
from tests.api.helpers import AGENT, EXAMPLES, RUN, FakeTime, Recorder, json_response, make_client

EXAMPLE_STREAMS = [
    "docs/stream-run.example.sse",
    "observed/stream-background-shell.2026-10-06.sse",
    "observed/stream-tool-fields-omitted.2026-10-09.sse",
]
SSE_HEADERS = {"content-type": "text/event-stream", "x-cursor-stream-retention-seconds": "86400"}
WALL = 1_790_000_000.0  # FakeTime's wall clock at start: connection time 1790000000000 ms


async def _chunks(parts: Sequence[bytes], *, then_hang: bool = False) -> AsyncIterator[bytes]:
    for part in parts:
        yield part
    if then_hang:
        await anyio.sleep_forever()


def sse_response(parts: Sequence[bytes], **kwargs: Any) -> Callable[[httpx2.Request], httpx2.Response]:
    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=SSE_HEADERS, content=_chunks(parts, **kwargs))

    return handler


async def _typed(client: CursorClient) -> list[StreamEvent]:
    async with client.stream_run(AGENT, RUN) as stream:
        return [event async for event in stream]


def _frame(event: str, data: str, event_id: str | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {event}\ndata: {data}\n\n".encode()


# --- decoding -----------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("name", EXAMPLE_STREAMS)
async def test_example_streams_decode_the_same_at_every_chunk_split_point(name: str) -> None:
    """docs/architecture.md §6.4: the SSE decoder at every split point of the example streams gives the same events."""
    data = (EXAMPLES / name).read_bytes()
    state: dict[str, int] = {"split": 0}

    def handler(request: httpx2.Request) -> httpx2.Response:
        split = state["split"]
        return httpx2.Response(200, headers=SSE_HEADERS, content=_chunks([data[:split], data[split:]]))

    async with make_client(handler, requests_per_second=1e9) as client:
        whole = await _typed(client)
        assert whole and all(not isinstance(event, GenericEvent) for event in whole)
        for split in range(1, len(data)):
            state["split"] = split
            assert await _typed(client) == whole, f"split at byte {split}"


@pytest.mark.anyio
async def test_docs_example_stream_gives_typed_events() -> None:
    """docs/api-contract.md §3.11: leading status without id; tool_call running/completed; result and done share an
    id."""
    data = (EXAMPLES / "docs/stream-run.example.sse").read_bytes()
    async with make_client(sse_response([data])) as client:
        events = await _typed(client)
    assert [event.event for event in events] == ["status", "assistant", "tool_call", "tool_call", "result", "done"]
    status, assistant, running, completed, result, done = events
    assert isinstance(status, StatusEvent) and status.event_id is None and status.status == "RUNNING"
    assert isinstance(assistant, AssistantEvent) and assistant.text == "I'll update the README now."
    assert isinstance(running, ToolCallEvent) and running.status == "running" and running.args == {"path": "README.md"}
    assert isinstance(completed, ToolCallEvent) and completed.call_id == "call-1" and completed.result is not None
    assert isinstance(result, ResultEvent) and result.duration_ms == 12357 and result.git is not None
    assert result.event_id == done.event_id == "1713033010000-0"


@pytest.mark.anyio
async def test_truncated_tool_fields_are_flagged_not_invented() -> None:
    """docs/api-contract.md quirk 14: oversized args/result omitted with `truncated` flags."""
    data = (EXAMPLES / "observed/stream-tool-fields-omitted.2026-10-09.sse").read_bytes()
    async with make_client(sse_response([data])) as client:
        events = await _typed(client)
    calls = [event for event in events if isinstance(event, ToolCallEvent)]
    assert calls[1].truncated is not None and calls[1].truncated.result is True and calls[1].result is None
    assert calls[2].truncated is not None and calls[2].truncated.args is True and calls[2].args is None


@pytest.mark.anyio
async def test_line_endings_unknown_types_and_bad_json_are_handled() -> None:
    """docs/reliability.md S-08: CRLF and CR endings, unknown event types kept, invalid JSON skipped and counted."""
    body = (
        b'event: status\r\ndata: {"status":"RUNNING"}\r\n\r\n'
        b'id: 1-0\revent: assistant\rdata: {"text":"caf\xc3\xa9"}\r\r'
        b'id: 1-1\nevent: brand_new\ndata: {"x":1}\n\n'
        b"id: 1-2\nevent: assistant\ndata: {not json\n\n"
        b": a comment\n\n"
        b"id: 1-3\nevent: done\ndata: {}\n\n"
    )
    async with make_client(sse_response([body[:40], body[40:41], body[41:]])) as client:
        async with client.stream_run(AGENT, RUN) as stream:
            events = [event async for event in stream]
            skipped = stream.skipped
    assert [event.event for event in events] == ["status", "assistant", "message", "done"]
    assert isinstance(events[1], AssistantEvent) and events[1].text == "café"
    assert isinstance(events[2], GenericEvent) and events[2].name == "brand_new" and events[2].data == '{"x":1}'
    assert skipped == 1


def test_event_ids_parse_to_milliseconds_and_sequence() -> None:
    """docs/api-contract.md §3.11: ids look like Redis stream ids `<ms>-<seq>`."""
    assert parse_event_id("1713033005000-0") == (1713033005000, 0)
    assert parse_event_id("1791251293024-12") == (1791251293024, 12)
    for bad in (None, "", "abc", "1-", "-1", "1-2-3", "12 -3"):
        assert parse_event_id(bad) is None
    assert RawEvent("assistant", "{}", "1713033005000-3").time_ms == 1713033005000


@pytest.mark.anyio
async def test_a_256_mib_event_is_refused_with_bounded_memory() -> None:
    """docs/reliability.md S-05: one 256 MiB event, generated lazily, is refused; memory growth stays small."""
    mib = b"a" * (1024 * 1024)
    sent = {"bytes": 0}

    async def flood() -> AsyncIterator[bytes]:
        yield b"event: assistant\ndata: "
        for _ in range(256):
            sent["bytes"] += len(mib)
            yield mib

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=SSE_HEADERS, content=flood())

    async with make_client(handler) as client:
        gc.collect()
        tracemalloc.start()
        try:
            with pytest.raises(StreamError, match="byte limit"):
                await _typed(client)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert peak < 16 * 1024 * 1024
    assert sent["bytes"] < 16 * 1024 * 1024  # reading stopped early, not after 256 MiB


@pytest.mark.anyio
async def test_a_stream_cut_mid_way_reports_where_to_resume() -> None:
    """docs/reliability.md S-01: a cut after event 1-1 raises StreamError with last_event_id 1-1."""

    async def cut() -> AsyncIterator[bytes]:
        yield _frame("assistant", '{"text":"a"}', "1-0") + _frame("assistant", '{"text":"b"}', "1-1")
        yield b"id: 1-2\nevent: assist"
        raise httpx2.ReadError("reset")

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=SSE_HEADERS, content=cut())

    seen: list[StreamEvent] = []
    async with make_client(handler) as client:
        with pytest.raises(StreamError) as caught:
            async with client.stream_run(AGENT, RUN) as stream:
                async for event in stream:
                    seen.append(event)  # noqa: PERF401 -- keep the events received before the cut
    assert len(seen) == 2
    assert caught.value.last_event_id == "1-1"


# --- opening and resuming ----------------------------------------------------------------------


@pytest.mark.anyio
async def test_resume_sends_last_event_id_and_reads_retention() -> None:
    """docs/api-contract.md §3.11: resume with `Last-Event-ID`; `X-Cursor-Stream-Retention-Seconds` exposed."""
    seen: list[httpx2.Request] = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(200, headers=SSE_HEADERS, content=_chunks([_frame("done", "{}", "5-0")]))

    async with make_client(handler) as client:
        async with client.stream_run(AGENT, RUN, last_event_id="1713033005000-0") as stream:
            assert stream.retention_seconds == 86400
            events = [event async for event in stream]
            assert stream.last_event_id == "5-0"
    request = seen[0]
    assert request.url.path == f"/v1/agents/{AGENT}/runs/{RUN}/stream"
    assert request.headers["last-event-id"] == "1713033005000-0"
    assert request.headers["accept"] == "text/event-stream"
    assert len(events) == 1


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("status", "code", "cls"),
    [(400, "invalid_last_event_id", InvalidLastEventIdError), (410, "stream_expired", StreamExpiredError)],
)
async def test_stream_refusals_are_typed(status: int, code: str, cls: type[Exception]) -> None:
    """docs/api-contract.md §3.11 / docs/reliability.md S-04: 400 invalid_last_event_id and 410 stream_expired, one
    request."""
    recorder = Recorder(json_response(status, {"error": {"code": code, "message": "m"}}))
    async with make_client(recorder) as client:
        with pytest.raises(cls):
            async with client.stream_run(AGENT, RUN, last_event_id="1-0"):
                pass
    assert len(recorder.requests) == 1


@pytest.mark.anyio
async def test_a_non_sse_answer_is_incompatible() -> None:
    """F-26: a 200 that is not text/event-stream is refused."""
    async with make_client(Recorder(json_response(200, {"ok": True}))) as client:
        with pytest.raises(IncompatibleResponseError):
            await _typed(client)


@pytest.mark.anyio
@pytest.mark.parametrize("bad", ["1-0\r\nX-Evil: 1", "", "x" * 500])
async def test_a_resume_id_that_could_split_a_header_is_refused(bad: str) -> None:
    """Defence in depth: the resume id goes into a header."""
    recorder = Recorder(json_response(200, {}))
    async with make_client(recorder) as client:
        with pytest.raises(ValueError):
            async with client.stream_run(AGENT, RUN, last_event_id=bad):
                pass
    assert recorder.requests == []


# --- the replay walker --------------------------------------------------------------------------


def _old(seq: int) -> str:
    return f"1789999000000-{seq}"


def _replay(n: int) -> list[bytes]:
    frames = [_frame("status", '{"runId":"r","status":"RUNNING"}')]
    frames += [_frame("interaction_update", '{"type":"text-delta","text":"x"}', _old(i)) for i in range(n)]
    return frames


async def _walk(handler: Callable[[httpx2.Request], httpx2.Response], **kwargs: Any) -> tuple[Any, TailCollector]:
    tail = TailCollector(3)
    async with make_client(handler, time=FakeTime(wall=WALL)) as client:
        outcome = await client.walk_replay(AGENT, RUN, tail, **kwargs)
    return outcome, tail


@pytest.mark.anyio
async def test_walk_ends_on_result() -> None:
    """docs/api-contract.md quirk 4: a finished run's replay ends with result (then done)."""
    frames = [*_replay(100), _frame("result", '{"status":"FINISHED"}', _old(100)), _frame("done", "{}", _old(100))]
    outcome, tail = await _walk(sse_response(frames))
    assert outcome.ended_by == "result"
    assert outcome.events == 102
    assert outcome.last_event_id == _old(100)  # the result frame's id
    assert outcome.bytes > 0 and outcome.replay_complete
    assert [event.event for event in tail.events][-1] == "result"


@pytest.mark.anyio
async def test_walk_ends_on_the_first_event_newer_than_the_connection() -> None:
    """docs/api-contract.md quirk 4: an event whose id time is after the connection is live: the replay is over."""
    live = _frame("assistant", '{"text":"now"}', "1790000000500-0")
    outcome, tail = await _walk(sse_response([*_replay(10), live], then_hang=True))
    assert outcome.ended_by == "live"
    assert outcome.last_event_time_ms == 1790000000500
    assert outcome.connected_at_ms == 1790000000000
    assert tail.events[-1].id == "1790000000500-0"


@pytest.mark.anyio
async def test_walk_ends_on_the_first_heartbeat() -> None:
    """docs/api-contract.md quirk 4: the first heartbeat comes after the replay."""
    outcome, _ = await _walk(sse_response([*_replay(10), _frame("heartbeat", "{}")], then_hang=True))
    assert outcome.ended_by == "heartbeat"
    assert outcome.events == 12


@pytest.mark.anyio
async def test_walk_never_decides_on_a_silence() -> None:
    """docs/api-contract.md quirk 4: a pause inside a replay is not its end; only a signal is."""
    silence = anyio.Event()
    outcomes: list[Any] = []

    async def chunks() -> AsyncIterator[bytes]:
        for part in _replay(3):
            yield part
        await silence.wait()  # the server says nothing for as long as the test likes
        yield _frame("done", "{}", _old(9))

    def handler(request: httpx2.Request) -> httpx2.Response:
        del request
        return httpx2.Response(200, headers=SSE_HEADERS, content=chunks())

    async def walk() -> None:
        outcomes.append((await _walk(handler))[0])

    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(walk)
            await anyio.wait_all_tasks_blocked()  # the replay is read and the stream is silent
            assert outcomes == [], "the walk ended on a silence"
            silence.set()
    assert outcomes[0].ended_by == "done"


OLD_MARK_MS = 1789999500000
"""An instant between the replay's old events (`_old`, 1789999000000) and the connection (1790000000000)."""


def _paused(after_pause: bytes, pause: anyio.Event) -> Callable[[httpx2.Request], httpx2.Response]:
    """A replay of old events that pauses until `pause` is set, sends `after_pause`, then stays silent."""

    async def chunks() -> AsyncIterator[bytes]:
        for part in _replay(3):
            yield part
        await pause.wait()
        yield after_pause
        await anyio.sleep_forever()

    def handler(request: httpx2.Request) -> httpx2.Response:
        del request
        return httpx2.Response(200, headers=SSE_HEADERS, content=chunks())

    return handler


@pytest.mark.anyio
async def test_a_quiet_replay_on_an_old_event_is_listened_to_past_a_pause_and_its_newer_events_are_seen() -> None:
    """SL-20: a replay can pause inside its burst (up to 1.3 s measured). A walk whose last event is older than
    `listen_before_ms` does not end on the short quiet: the events after the pause arrive, and the walk then ends
    on the quiet after them (the newer last event is no candidate)."""
    pause, ended = anyio.Event(), anyio.Event()
    newer = _frame("assistant", '{"text":"still here"}', "1789999900000-0")
    outcomes: list[Any] = []

    async def walk() -> None:
        limits = {"quiet_seconds": 0.01, "listen_seconds": 30.0, "listen_before_ms": OLD_MARK_MS}
        outcomes.append((await _walk(_paused(newer, pause), **limits))[0])
        ended.set()

    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(walk)
            with anyio.move_on_after(0.3):  # thirty times the short quiet: a walk ending on it would be over
                await ended.wait()
            assert outcomes == [], "the walk ended on the short quiet of a stale candidate"
            pause.set()
    (outcome,) = outcomes
    assert outcome.ended_by == "quiet" and outcome.evidence == "silence" and outcome.silence_seconds == 0.01
    assert outcome.last_event_id == "1789999900000-0"


@pytest.mark.anyio
async def test_a_replay_silent_past_the_listen_ends_listened_with_the_silence_it_saw() -> None:
    """SL-21: an old last event and nothing after it for `listen_seconds`: `listened`, the evidence a silence of
    that length; still an inference (`replay_complete` false), never the end of the run."""
    with anyio.fail_after(10):
        limits = {"quiet_seconds": 0.01, "listen_seconds": 0.2, "listen_before_ms": OLD_MARK_MS}
        outcome, _ = await _walk(sse_response(_replay(3), then_hang=True), **limits)
    assert outcome.ended_by == "listened" and outcome.evidence == "silence" and outcome.silence_seconds == 0.2
    assert not outcome.replay_complete and outcome.last_event_id == _old(2)


@pytest.mark.anyio
async def test_a_walk_whose_silences_run_fast_listens_that_share_of_real_time_and_reports_its_own_seconds() -> None:
    """Issue 35: `silence_scale` (tests against the simulator) shortens the quiet and the listen in real time
    alike; the outcome names the silence in its own seconds, so the rule built on it judges the same."""
    handler = sse_response(_replay(3), then_hang=True)
    limits: ReplayLimits = {"quiet_seconds": 0.5, "listen_seconds": 2.0, "listen_before_ms": OLD_MARK_MS}
    with anyio.fail_after(1.5):  # the listen's 2 s would not fit
        started = anyio.current_time()
        async with make_client(handler, time=FakeTime(wall=WALL), silence_scale=0.1) as client:
            outcome = await client.walk_replay(AGENT, RUN, TailCollector(3), **limits)
        took = anyio.current_time() - started
    assert outcome.ended_by == "listened" and outcome.silence_seconds == pytest.approx(2.0)
    assert 0.2 <= took < 1.5


@pytest.mark.parametrize("scale", [0.0, -1.0, 1.5])
def test_a_silence_scale_outside_a_share_of_real_time_is_refused(scale: float) -> None:
    """Issue 35: the scale only ever shortens silences (0 < scale <= 1), never stretches or removes them."""
    with pytest.raises(ValueError, match="silence_scale"):
        make_client(sse_response(_replay(3)), silence_scale=scale)


@pytest.mark.anyio
async def test_a_quiet_replay_on_a_recent_event_ends_on_the_short_quiet_without_listening() -> None:
    """Issue 11's quiet window is kept for every run that cannot be stale: its last event is newer than the mark."""
    with anyio.fail_after(5):
        limits = {"quiet_seconds": 0.01, "listen_seconds": 30.0, "listen_before_ms": 1789998000000}
        outcome, _ = await _walk(sse_response(_replay(3), then_hang=True), **limits)
    assert outcome.ended_by == "quiet" and outcome.silence_seconds == 0.01


@pytest.mark.anyio
async def test_a_walk_whose_time_ends_mid_listen_says_timeout_and_has_no_evidence() -> None:
    """SL-22: a listen cut by the walk's time (the call's budget) proves nothing: `timeout`, no evidence, no
    silence, so the run is `incomplete` and never stale."""
    with anyio.fail_after(5):
        limits = {"quiet_seconds": 0.01, "listen_seconds": 30.0, "listen_before_ms": OLD_MARK_MS}
        outcome, _ = await _walk(sse_response(_replay(3), then_hang=True), max_seconds=0.2, **limits)
    assert outcome.ended_by == "timeout" and outcome.evidence is None and outcome.silence_seconds is None


@pytest.mark.parametrize(
    ("ended_by", "evidence"),
    [
        ("result", "result"),
        ("done", "result"),
        ("live", "live"),
        ("heartbeat", "heartbeat"),
        ("quiet", "silence"),
        ("listened", "silence"),
        ("closed", None),
        ("timeout", None),
        ("byte_limit", None),
    ],
)
def test_the_evidence_of_a_walk_names_what_decided_the_end_of_the_replay(ended_by: Any, evidence: Any) -> None:
    """Issue 25: a row says which evidence decided; a closed stream or a cut walk decided nothing."""
    outcome = ReplayOutcome(ended_by, None, 0, 0, None, None, 0, None)
    assert outcome.evidence == evidence


@pytest.mark.anyio
async def test_walk_that_runs_out_of_time_says_so() -> None:
    """A silence is reported as `timeout` (replay maybe not over), never as the end of the replay."""
    outcome, tail = await _walk(sse_response(_replay(5), then_hang=True), max_seconds=0.3)
    assert outcome.ended_by == "timeout"
    assert not outcome.replay_complete
    assert len(tail.events) == 3


@pytest.mark.anyio
async def test_a_stream_of_only_heartbeat_comments_ends_at_its_time_bound_and_is_closed() -> None:
    """docs/reliability.md S-07: after the status, only `:` comments keep the connection busy (so no read timeout
    fires); the walk still ends at its time bound, says `timeout` (replay not complete) and closes the stream."""
    closed = anyio.Event()

    async def comments() -> AsyncIterator[bytes]:
        try:
            yield _replay(0)[0]
            for _ in range(500):
                yield b": keep-alive\n\n"
                await anyio.lowlevel.checkpoint()
            await anyio.Event().wait()  # then silence, for as long as anyone listens
        finally:
            closed.set()

    def handler(request: httpx2.Request) -> httpx2.Response:
        del request
        return httpx2.Response(200, headers=SSE_HEADERS, content=comments())

    with anyio.fail_after(10):
        outcome, _ = await _walk(handler, max_seconds=0.3)
        await closed.wait()
    assert outcome.ended_by == "timeout" and not outcome.replay_complete
    assert outcome.events == 1 and outcome.bytes > 500 * len(b": keep-alive\n\n")


@pytest.mark.anyio
async def test_walk_of_a_stream_closed_without_a_signal_says_closed() -> None:
    """The server closed before any end signal."""
    outcome, _ = await _walk(sse_response(_replay(5)))
    assert outcome.ended_by == "closed"


@pytest.mark.anyio
async def test_walk_stops_at_its_byte_limit() -> None:
    """The walk is bounded in bytes too."""
    outcome, _ = await _walk(sse_response(_replay(2000)), max_bytes=10_000)
    assert outcome.ended_by == "byte_limit"
    assert 10_000 <= outcome.bytes < 200_000


@pytest.mark.anyio
async def test_tail_collector_keeps_the_last_events_and_types_them_lazily() -> None:
    """The consumer keeps only what it asks for; JSON is decoded only for kept events."""
    frames = [*_replay(50), _frame("assistant", '{"text":"last"}', _old(60)), _frame("done", "{}", _old(61))]
    outcome, tail = await _walk(sse_response(frames))
    assert outcome.ended_by == "done"
    typed = tail.typed()
    assert [event.event for event in typed] == ["interaction_update", "assistant", "done"]
    assert isinstance(typed[1], AssistantEvent) and typed[1].text == "last"


@pytest.mark.anyio
async def test_walk_outcome_is_the_same_at_every_split_point_for_both_consumer_kinds() -> None:
    """The fast block path and the per-event path agree on signal, counts, last id and tail, however chunked."""
    frames = [*_replay(4), _frame("heartbeat", "{}"), _frame("assistant", '{"text":"after"}', _old(50))]
    data = b"".join(frames)
    state = {"split": 0}

    def handler(request: httpx2.Request) -> httpx2.Response:
        split = state["split"]
        return httpx2.Response(200, headers=SSE_HEADERS, content=_chunks([data[:split], data[split:]], then_hang=True))

    async with make_client(handler, time=FakeTime(wall=WALL), requests_per_second=1e9) as client:
        for split in range(1, len(data)):
            state["split"] = split
            tail = TailCollector(3)
            seen: list[RawEvent] = []
            fast = await client.walk_replay(AGENT, RUN, tail)
            slow = await client.walk_replay(AGENT, RUN, seen.append)
            assert (fast.ended_by, fast.events, fast.last_event_id) == ("heartbeat", 6, _old(3)), split
            assert (slow.ended_by, slow.events, slow.last_event_id) == ("heartbeat", 6, _old(3)), split
            assert (
                [e.event for e in tail.events]
                == [e.event for e in seen[-3:]]
                == [
                    "interaction_update",
                    "interaction_update",
                    "heartbeat",
                ]
            )


def _stream_or_me(stream: Callable[[httpx2.Request], httpx2.Response]) -> Callable[[httpx2.Request], httpx2.Response]:
    """The run's stream from `stream`, `GET /v1/me` answered at once."""

    def handler(request: httpx2.Request) -> httpx2.Response:
        if request.url.path == "/v1/me":
            return json_response(200, {"apiKeyName": "k", "createdAt": "2026-10-01T00:00:00Z"})
        return stream(request)

    return handler


@pytest.mark.anyio
async def test_a_stream_listened_to_past_the_short_quiet_leaves_its_request_slot_to_other_requests() -> None:
    """F-45: with a single request slot, a walk whose replay went quiet on an old event is listened to on a
    listener slot: a request made meanwhile is answered before the listen ends, and the walk still ends
    `listened`."""
    limits: ReplayLimits = {"quiet_seconds": 0.01, "listen_seconds": 0.5, "listen_before_ms": OLD_MARK_MS}
    handler = _stream_or_me(sse_response(_replay(3), then_hang=True))
    order: list[str] = []
    async with make_client(handler, time=FakeTime(wall=WALL), max_connections=1) as client:

        async def walk() -> None:
            outcome = await client.walk_replay(AGENT, RUN, TailCollector(3), **limits)
            order.append(outcome.ended_by)

        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(walk)
                await client.me()  # waits for the slot only until the short quiet has passed
                order.append("me")
    assert order == ["me", "listened"]


@pytest.mark.anyio
async def test_a_walk_cut_mid_listen_gives_its_slot_back() -> None:
    """F-45: a listen the walk's time cuts short (SL-22) gives its slot back: with a single request slot, three
    walks cut mid-listen one after the other each get a slot, and so does a request after them."""
    limits: ReplayLimits = {
        "quiet_seconds": 0.01,
        "listen_seconds": 30.0,
        "listen_before_ms": OLD_MARK_MS,
        "max_seconds": 0.1,
    }
    handler = _stream_or_me(sse_response(_replay(3), then_hang=True))
    async with make_client(handler, time=FakeTime(wall=WALL), max_connections=1) as client:
        with anyio.fail_after(10):
            for _ in range(3):
                outcome = await client.walk_replay(AGENT, RUN, TailCollector(3), **limits)
                assert outcome.ended_by == "timeout"
            assert (await client.me()).api_key_name == "k"
