"""Listening for a run's end on its stream: told the moment its `result` (or `done`) frame arrives.

A stream opened without `Last-Event-ID` replays the run before it goes live. The replay is skipped at
C speed (frames found, none parsed) while the stream holds a request slot; once it has been quiet for
`quiet_seconds`, the stream only listens, so it trades its request slot for a listener's (`_slots`,
docs/reliability.md F-43) and waits there for the end, asking nothing more of the API. With every listener
slot taken it gives up (`no_listener`) rather than keep a request slot for minutes: its caller reads instead.
"""

from __future__ import annotations

from contextlib import aclosing
from typing import TYPE_CHECKING, Literal

import anyio

if TYPE_CHECKING:  # handed in open: a waiter loads this module before it has a client or a stream
    from cursor_cloud_agents.api.stream import RunStream

Heard = Literal["ended", "closed", "no_listener"]
"""`ended`: a `result`/`done` frame came; `closed`: the server closed the stream (after `done` as a rule,
so the run is read); `no_listener`: no listener slot was free, the stream was given up."""


async def listen_for_end(stream: RunStream, *, quiet_seconds: float) -> Heard:
    """Read `stream` until the run ends, moving it to a listener slot once its replay went quiet.

    The silence is timed beside the reading, never by cutting a read short: a cancelled read would end the
    stream's generator.

    Raises:
        StreamError: the connection broke (`stream.last_event_id` says where to resume).
    """
    heard: list[Heard] = ["closed"]
    last_batch_at = [anyio.current_time()]
    broke: Exception | None = None
    async with anyio.create_task_group() as group:

        async def listen_once_quiet() -> None:
            while not stream.listening:
                await anyio.sleep_until(last_batch_at[0] + quiet_seconds)
                if anyio.current_time() - last_batch_at[0] >= quiet_seconds and not stream.to_listening():
                    heard[0] = "no_listener"
                    group.cancel_scope.cancel()

        group.start_soon(listen_once_quiet)
        try:
            async with aclosing(stream.raw_batches()) as batches:
                async for batch in batches:
                    last_batch_at[0] = anyio.current_time()
                    if batch.ends_run():
                        heard[0] = "ended"
                        break
        except Exception as exc:  # raised below, outside the group, so that callers see it unwrapped
            broke = exc
        group.cancel_scope.cancel()
    if broke is not None:
        raise broke
    return heard[0]
