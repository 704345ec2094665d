"""`GET /v1/agents/{id}/runs/{runId}/stream`: replay, resume and live events as SSE bytes.

Framing follows docs/api-contract.md §3.11: an id-less `status` frame opens every connection, the replay
follows in large pre-encoded blocks, then live frames as the world clock reaches them, heartbeats
when idle (the first 30-36 s after connecting, on the world clock), and the body ends after `done`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import anyio

from .errors import ApiError, bad_request
from .records import RunRecord
from .timeline import encode_frame
from .wire import parse_event_id
from .world import TERMINAL, World

_BLOCK_FRAMES = 4096  # about 1 MiB of typical frames per write: large writes keep replays fast
HEARTBEAT = encode_frame("heartbeat", {})


@dataclass
class StreamPlan:
    """A validated stream request: which run, and the index of the first frame to send."""

    run: RunRecord
    start: int


def plan_stream(world: World, agent_id: str, run_id: str, last_event_id: str | None) -> StreamPlan:
    """Check the request before any byte is sent (404, 410 `stream_expired`, 400 `invalid_last_event_id`)."""
    _, run = world.run(agent_id, run_id)
    now = world.now()
    if run.status(now) in TERMINAL and now - run.ended_at > world.quirks.stream_retention_seconds:
        raise ApiError(410, "stream_expired", f"The stream of run {run.id} is no longer retained")
    if last_event_id is None:
        return StreamPlan(run, 0)
    key = parse_event_id(last_event_id)
    if key is None:
        raise bad_request(f"Malformed Last-Event-ID {last_event_id!r}", code="invalid_last_event_id")
    if run.timeline.has_id(key):
        return StreamPlan(run, run.timeline.count_through(key))
    if _belongs_elsewhere(world, run, key):
        raise bad_request(f"Last-Event-ID {last_event_id} does not belong to run {run.id}", "invalid_last_event_id")
    # A well-formed id this run never emitted gives no past events (observed 2026-10-06).
    return StreamPlan(run, run.timeline.count_until(now))


def _belongs_elsewhere(world: World, run: RunRecord, key: tuple[int, int]) -> bool:
    for agent in world.agents.values():
        for other in agent.runs:
            if other is not run and other.timeline.has_id(key):
                return True
    return False


async def stream_body(world: World, plan: StreamPlan) -> AsyncIterator[bytes]:
    """The SSE body: leading status, replay, live frames and heartbeats, closed after `done`."""
    run, sent = plan.run, plan.start
    timeline = run.timeline
    connected = world.now()
    yield encode_frame("status", {"runId": run.id, "status": run.status(connected)})
    next_heartbeat = connected + world.quirks.heartbeat_first_seconds
    while True:
        now = world.now()
        visible = timeline.count_until(now)
        while sent < visible:
            stop = min(visible, sent + _BLOCK_FRAMES)
            yield timeline.slice(sent, stop)
            sent = stop
        if run.status(now) in TERMINAL and sent >= len(timeline):
            return
        if now >= next_heartbeat:
            yield HEARTBEAT
            next_heartbeat = now + world.quirks.heartbeat_interval_seconds
            continue
        upcoming = timeline.times[sent] if sent < len(timeline) else next_heartbeat
        await wait_for_change(world, min(upcoming, next_heartbeat))


async def wait_for_change(world: World, deadline: float) -> None:
    """Return when the clock reaches `deadline` (or moves, for a manual clock) or the world changes."""
    changed = world.changed()
    async with anyio.create_task_group() as group:

        async def on_clock() -> None:
            await world.clock.wait(deadline)
            group.cancel_scope.cancel()

        async def on_world() -> None:
            await changed.wait()
            group.cancel_scope.cancel()

        group.start_soon(on_clock)
        group.start_soon(on_world)
