"""Contract: the run stream (docs/api-contract.md §3.11) and its faults (docs/reliability.md §2.3), client against
simulator."""

from __future__ import annotations

import uuid

import anyio
import pytest

from cursor_cloud_agents.api import (
    AssistantEvent,
    CursorClient,
    DoneEvent,
    HeartbeatEvent,
    InteractionUpdateEvent,
    InvalidLastEventIdError,
    NotFoundError,
    RawEvent,
    ResultEvent,
    StatusEvent,
    StreamError,
    StreamEvent,
    StreamExpiredError,
    TailCollector,
    ThinkingEvent,
    ToolCallEvent,
    parse_event_id,
)
from cursor_cloud_agents.simulator import (
    AgentRecord,
    BackgroundTaskScript,
    Fault,
    Faults,
    ManualClock,
    Quirks,
    RunningSimulator,
    RunScript,
    ScriptedToolCall,
    World,
)

pytestmark = pytest.mark.anyio


async def read_all(client: CursorClient, agent: AgentRecord, *, last_event_id: str | None = None) -> list[StreamEvent]:
    """Every typed event of one connection, until the server closes it (bounded)."""
    with anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[-1].id, last_event_id=last_event_id) as stream:
            return [event async for event in stream]


def ids_of(events: list[StreamEvent]) -> list[str]:
    return [e.event_id for e in events if e.event_id is not None and not isinstance(e, HeartbeatEvent)]


async def test_a_finished_run_replays_from_its_start_and_the_stream_closes_after_done(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.11 Replay: no Last-Event-ID → the whole run from its start; result then done; closed."""
    agent = world.add_agent(created_ago=3600)
    events = await read_all(client, agent)
    assert isinstance(events[0], StatusEvent) and isinstance(events[1], StatusEvent)
    assert events[1].status == "RUNNING"
    assert isinstance(events[-2], ResultEvent) and isinstance(events[-1], DoneEvent)
    assert events[-2].status == "FINISHED" and events[-2].text and events[-2].duration_ms


async def test_the_leading_status_frame_has_no_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md quirk 5: the leading `status` frame has no `id` and carries the current status."""
    agent = world.add_agent(created_ago=3600)
    first = (await read_all(client, agent))[0]
    assert isinstance(first, StatusEvent) and first.event_id is None and first.status == "FINISHED"


async def test_event_ids_are_ms_seq_and_strictly_increasing_except_result_and_done_sharing_one(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.11 Event ids: `<ms>-<seq>`, increasing; `result` and `done` share an id."""
    agent = world.add_agent(created_ago=3600)
    events = await read_all(client, agent)
    keys = [k for k in map(parse_event_id, ids_of(events)) if k is not None]
    assert len(keys) == len(ids_of(events))
    assert keys[:-1] == sorted(set(keys[:-1])) and keys[-1] == keys[-2]
    assert events[-2].event_id == events[-1].event_id


async def test_assistant_text_arrives_as_word_fragments_with_thinking_and_interaction_updates(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.11 Event types: `assistant` deltas, `thinking` deltas, `interaction_update` by `type`."""
    agent = world.add_agent(created_ago=3600)
    events = await read_all(client, agent)
    texts = [e.text for e in events if isinstance(e, AssistantEvent)]
    assert len(texts) > 3 and "".join(texts).endswith(agent.runs[0].script.result)
    assert any(isinstance(e, ThinkingEvent) for e in events)
    kinds = {e.update_type for e in events if isinstance(e, InteractionUpdateEvent)}
    assert {"text-delta", "thinking-delta", "turn-ended"} <= kinds


async def test_a_tool_call_is_sent_running_then_completed_with_one_call_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11 `tool_call`: `running` then `completed`, same `callId`; result on completion."""
    agent = world.add_agent(created_ago=3600)
    calls = [e for e in await read_all(client, agent) if isinstance(e, ToolCallEvent)]
    assert [(c.status, c.call_id, c.name) for c in calls] == [
        ("running", "call-1", "read_file"),
        ("completed", "call-1", "read_file"),
    ]
    assert calls[0].result is None and calls[1].result is not None and calls[1].args == {"path": "README.md"}


async def test_an_oversized_tool_result_is_omitted_and_flagged_truncated(client: CursorClient, world: World) -> None:
    """docs/api-contract.md quirk 14: big `result` omitted, `truncated: {result: true}` (observed 2026-10-09)."""
    big = ScriptedToolCall("run_terminal_cmd", {"command": "yes | head -c 8000000"}, truncated_result=True)
    agent = world.add_agent(script=RunScript(tool_calls=(big,)), created_ago=3600)
    completed = [e for e in await read_all(client, agent) if isinstance(e, ToolCallEvent) and e.status == "completed"]
    assert completed[0].result is None and completed[0].truncated is not None and completed[0].truncated.result


async def test_a_background_shell_is_run_terminal_cmd_with_is_background_then_await_polls(
    client: CursorClient, world: World
) -> None:
    """docs/api-contract.md §3.11 tool shapes, quirk 18: `run_terminal_cmd` isBackground, then `await` stillRunning
    polls."""
    agent = world.add_agent(script=RunScript(background=BackgroundTaskScript(polls=2)), created_ago=3600)
    calls = [e for e in await read_all(client, agent) if isinstance(e, ToolCallEvent) and e.status == "completed"]
    shell = next(c for c in calls if c.name == "run_terminal_cmd")
    assert shell.args["isBackground"] is True and shell.result["isBackground"] is True
    polls = [c.result["success"] for c in calls if c.name == "await"]
    assert len(polls) == 2 and all("stillRunning" in p for p in polls)


async def test_the_stream_names_its_retention_in_seconds(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11: `X-Cursor-Stream-Retention-Seconds` (86400 for the claimed 24 h)."""
    agent = world.add_agent(created_ago=3600)
    with anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            assert stream.retention_seconds == 86400


async def test_resume_with_last_event_id_replays_only_later_events(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11 Resume: a new leading `status`, then exactly the events after that id."""
    agent = world.add_agent(created_ago=3600)
    full = await read_all(client, agent)
    middle = ids_of(full)[10]
    resumed = await read_all(client, agent, last_event_id=middle)
    assert isinstance(resumed[0], StatusEvent) and resumed[0].event_id is None
    assert ids_of(resumed) == ids_of(full)[11:]


async def test_a_made_up_well_formed_last_event_id_gives_no_past_events(client: CursorClient, world: World) -> None:
    """docs/api-contract.md quirk 4: a made-up (well-formed) id returns no past events (checked 2026-10-06)."""
    agent = world.add_agent(created_ago=3600)
    resumed = await read_all(client, agent, last_event_id="1700000000000-7")
    assert [type(e) for e in resumed] == [StatusEvent]


async def test_a_last_event_id_of_another_run_is_invalid_last_event_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11: an id that does not belong to the run → 400 `invalid_last_event_id`."""
    other = world.add_agent("other", created_ago=7200)
    agent = world.add_agent(created_ago=3600)
    foreign = ids_of(await read_all(client, other))[3]
    with pytest.raises(InvalidLastEventIdError) as caught:
        await read_all(client, agent, last_event_id=foreign)
    assert (caught.value.status_code, caught.value.code) == (400, "invalid_last_event_id")
    assert caught.value.request_id is not None


async def test_a_malformed_last_event_id_is_invalid_last_event_id(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §6 (item 5): a malformed id → 400 `invalid_last_event_id` (inferred)."""
    agent = world.add_agent(created_ago=3600)
    with pytest.raises(InvalidLastEventIdError):
        await read_all(client, agent, last_event_id="not-an-id")


async def test_stream_of_an_expired_run_is_stream_expired(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11, quirk 17: a run that ended longer ago than the retention → 410 `stream_expired`."""
    agent = world.add_agent(created_ago=2 * 86400)
    with pytest.raises(StreamExpiredError) as caught:
        await read_all(client, agent)
    assert (caught.value.status_code, caught.value.code) == (410, "stream_expired")


@pytest.mark.parametrize("quirks", [Quirks(stream_retention_seconds=600)])
async def test_a_shorter_retention_expires_streams_sooner_and_is_announced(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §7 (retention value unknown): the header follows the setting, and 410 after it."""
    fresh = world.add_agent("fresh", created_ago=300)
    old = world.add_agent("old", created_ago=3600)
    with anyio.fail_after(5):
        async with client.stream_run(fresh.id, fresh.runs[0].id) as stream:
            assert stream.retention_seconds == 600
    with pytest.raises(StreamExpiredError):
        await read_all(client, old)


async def test_stream_of_an_unknown_run_is_run_not_found(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11 errors: 404 for an unknown run."""
    agent = world.add_agent()
    with pytest.raises(NotFoundError) as caught, anyio.fail_after(5):
        async with client.stream_run(agent.id, f"run-{uuid.uuid4()}"):
            pass
    assert caught.value.code == "run_not_found"


async def test_a_live_stream_progresses_as_the_clock_advances_until_done(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.11: a running run's stream stays open and delivers events as they happen, then closes."""
    agent = world.add_agent(script=RunScript(running_seconds=60))
    run = agent.runs[0]
    received: list[StreamEvent] = []

    async def advance_when_caught_up(seen: anyio.Event) -> None:
        while run.status(clock.now()) not in ("FINISHED",):
            await seen.wait()
            clock.advance(5)

    with anyio.fail_after(5):
        async with client.stream_run(agent.id, run.id) as stream, anyio.create_task_group() as group:
            caught_up = anyio.Event()
            group.start_soon(advance_when_caught_up, caught_up)
            async for event in stream:
                received.append(event)
                if len(ids_of(received)) >= run.timeline.count_until(clock.now()):
                    caught_up.set()
                    caught_up = anyio.Event()
                    group.start_soon(advance_when_caught_up, caught_up)
            group.cancel_scope.cancel()
    statuses = [e.status for e in received if isinstance(e, StatusEvent)]
    assert statuses == ["CREATING", "RUNNING", "FINISHED"] and isinstance(received[-1], DoneEvent)
    assert len(ids_of(received)) == len(run.timeline)


async def test_the_first_heartbeat_comes_30_to_36_seconds_after_connecting_when_idle(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.11 `heartbeat`, quirk 4: first one 30-36 s after connecting, after the replay."""
    agent = world.add_agent(script=RunScript(running_seconds=7200, interaction_updates=False))
    clock.advance(100)  # RUNNING, a few events replayed; the next one is minutes away
    with anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            connected = clock.now()
            replayed = agent.runs[0].timeline.count_until(connected)
            events: list[StreamEvent] = []
            async for event in stream:
                events.append(event)
                if isinstance(event, HeartbeatEvent):
                    break
                if len(ids_of(events)) == replayed:
                    clock.advance(world.quirks.heartbeat_first_seconds)  # the next run event is minutes away
    assert 30 <= clock.now() - connected <= 36 and len(ids_of(events)) == replayed


async def test_walking_a_finished_replay_ends_on_result(client: CursorClient, world: World) -> None:
    """docs/api-contract.md §3.11 No end-of-replay marker: `result`/`done` says the run is over."""
    agent = world.add_agent(created_ago=3600)
    tail = TailCollector(3)
    with anyio.fail_after(5):
        outcome = await client.walk_replay(agent.id, agent.runs[0].id, tail)
    assert outcome.ended_by in ("result", "done") and outcome.replay_complete
    # The leading status is scanned too; the walk stops at `result`, before `done`.
    assert outcome.retention_seconds == 86400 and outcome.events == len(agent.runs[0].timeline)


class AdvanceWhenCaughtUp:
    """A replay consumer that moves the world's clock once it has seen the whole replay."""

    def __init__(self, clock: ManualClock, replayed: int, seconds: float) -> None:
        self.clock, self.replayed, self.seconds = clock, replayed, seconds
        self.seen = 0

    def __call__(self, event: RawEvent, /) -> None:
        self.seen += 1 if event.event else 0
        if self.seen == self.replayed + 1:  # the leading status, then the replay
            self.clock.advance(self.seconds)


async def test_walking_a_running_replay_ends_on_the_first_heartbeat(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.11 No end-of-replay marker: for a live run, the first heartbeat ends the replay."""
    agent = world.add_agent(script=RunScript(running_seconds=7200, interaction_updates=False))
    clock.advance(100)
    run = agent.runs[0]
    consumer = AdvanceWhenCaughtUp(clock, run.timeline.count_until(clock.now()), world.quirks.heartbeat_first_seconds)
    with anyio.fail_after(5):
        outcome = await client.walk_replay(agent.id, run.id, consumer)
    assert outcome.ended_by == "heartbeat" and outcome.replay_complete


async def test_walking_a_running_replay_ends_on_the_first_event_newer_than_the_connection(
    client: CursorClient, world: World, clock: ManualClock
) -> None:
    """docs/api-contract.md §3.11 No end-of-replay marker: an event whose id time is after the connection is live."""
    agent = world.add_agent(script=RunScript(running_seconds=600, interaction_updates=False))
    clock.advance(100)
    run = agent.runs[0]
    replayed = run.timeline.count_until(clock.now())
    wait = run.timeline.times[replayed] - clock.now()
    assert wait < world.quirks.heartbeat_first_seconds  # the next event comes before any heartbeat
    with anyio.fail_after(5):
        outcome = await client.walk_replay(agent.id, run.id, AdvanceWhenCaughtUp(clock, replayed, wait))
    assert outcome.ended_by == "live" and outcome.events == replayed + 2


async def test_a_stream_cut_mid_body_resumes_from_the_last_id_without_duplicates_or_gaps(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md S-01: a cut mid-stream → StreamError with `last_event_id`; resuming from it completes the
    run."""
    agent = world.add_agent(created_ago=3600)
    full = ids_of(await read_all(client, agent))
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=3000))
    got: list[StreamEvent] = []
    with pytest.raises(StreamError) as caught, anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            async for event in stream:
                got.append(event)  # noqa: PERF401 -- the events before the cut must survive the exception
    assert got and caught.value.last_event_id == ids_of(got)[-1]
    rest = await read_all(client, agent, last_event_id=caught.value.last_event_id)
    assert ids_of(got) + ids_of(rest) == full


async def test_a_single_huge_event_is_refused_with_bounded_memory(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md S-05: one 256 MiB event → StreamError naming the size cap; the client stops reading early."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.huge_event())
    read = 0
    with pytest.raises(StreamError, match="refused"), anyio.fail_after(10):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            try:
                async for _ in stream:
                    pass
            finally:
                read = stream.bytes_read
    assert read < 16 * 1024 * 1024  # stopped near the 4 MiB event cap, far from 256 MiB


async def test_crlf_line_endings_give_the_same_events(client: CursorClient, world: World, faults: Faults) -> None:
    """docs/reliability.md S-08: `\\r\\n` line endings are legal SSE and decode to the same events."""
    agent = world.add_agent(created_ago=3600)
    plain = await read_all(client, agent)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.crlf_line_endings())
    assert await read_all(client, agent) == plain


async def test_invalid_json_in_a_data_line_is_skipped_and_counted(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md S-08: a bad event is skipped and counted; the stream continues."""
    agent = world.add_agent(created_ago=3600)
    plain = await read_all(client, agent)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.invalid_json_event())
    with anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            events = [event async for event in stream]
            assert stream.skipped == 1
    assert events == plain


async def test_a_stream_without_ids_leaves_nothing_to_resume_from(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md S-03: without ids the client has no resume cursor (no silent replay from the start)."""
    agent = world.add_agent(created_ago=3600)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.without_event_ids())
    with anyio.fail_after(5):
        async with client.stream_run(agent.id, agent.runs[0].id) as stream:
            events = [event async for event in stream]
            assert stream.last_event_id is None
    assert ids_of(events) == [] and isinstance(events[-1], DoneEvent)


async def test_a_retry_field_is_tolerated_and_the_events_are_unchanged(
    client: CursorClient, world: World, faults: Faults
) -> None:
    """docs/reliability.md S-02: a `retry:` field in the stream does not disturb decoding."""
    agent = world.add_agent(created_ago=3600)
    plain = await read_all(client, agent)
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.sse_retry(500))
    assert await read_all(client, agent) == plain


async def test_fifty_concurrent_replays_each_arrive_whole_in_order_without_duplicates(
    client: CursorClient, world: World, sim: RunningSimulator
) -> None:
    """docs/reliability.md L-02 (scaled for the suite: 50 streams of about 200 KB of 1 KiB-scale events at once): every
    stream keeps its order with no duplicate, and at most 8 requests are ever in flight at the simulator."""
    script = RunScript(replay_bytes=200_000, running_seconds=600)
    agents = [world.add_agent(f"stream {index}", script=script, created_ago=3600) for index in range(50)]
    seen: dict[str, list[str]] = {}

    async def walk(agent_id: str, run_id: str) -> None:
        ids = seen.setdefault(run_id, [])
        outcome = await client.walk_replay(agent_id, run_id, lambda event: ids.append(event.id or ""))
        assert outcome.ended_by in ("result", "done")

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            for agent in agents:
                group.start_soon(walk, agent.id, agent.runs[-1].id)
    assert len(seen) == 50
    for ids in seen.values():
        numbered = [event_id for event_id in ids if event_id]
        assert len(numbered) > 100
        distinct = numbered[:-1] if numbered[-1] == numbered[-2] else numbered  # `done` shares the result's id
        assert len(set(distinct)) == len(distinct)
        keys = [tuple(int(part) for part in event_id.split("-")) for event_id in numbered]
        assert keys == sorted(keys)
    assert sim.max_in_flight <= 8
