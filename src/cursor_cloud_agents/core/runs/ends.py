"""Ends heard on the runs' streams: a wait told within a second of a run's `result`, reading as the fallback.

Each run waited for has its stream listened to (`api.listen_for_end` on `CursorClient.stream_run`): its replay is
stream moves to one of the client's listener slots (it asks nothing more of the API), and its `result` frame
wakes the wait, which reads that run at once. The stream never decides an end: the read does, and a run the
API does not show ended yet is read again shortly (`HEARD_REREAD_SECONDS`). A stream that breaks is resumed
from its last event id, `STREAM_RESUMES` times at most; one that cannot be listened to (no listener slot
free, refused, broken too often) is given up, and its run is read on the wait's cadence as before
(docs/reliability.md S-63, S-64).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio

from cursor_cloud_agents.api import CursorError, StreamError, listen_for_end
from cursor_cloud_agents.core.timing import REPLAY_QUIET_SECONDS, STREAM_RESUMES

if TYPE_CHECKING:  # the client is handed in: `core.watch` (bound by the core's front) loads without it
    from cursor_cloud_agents.api import CursorClient


class EndEars:
    """The streams of some runs, listened to for their ends; `heard` holds the runs to read now."""

    def __init__(self, api: CursorClient, *, quiet_seconds: float = REPLAY_QUIET_SECONDS) -> None:
        self.api = api
        self.quiet_seconds = quiet_seconds
        self.heard: set[str] = set()
        """Runs whose stream told an end (or closed, or was refused) since the wait last took them."""
        self.listening: set[str] = set()
        """Runs whose stream is open."""
        self.given_up: set[str] = set()
        """Runs only read from now on: their stream broke too often or found no listener slot."""
        self._news = anyio.Event()

    async def follow(self, agent_id: str, run_id: str) -> None:
        """Listen to one run's stream until it tells its end (then `heard`) or is given up."""
        resume_from: str | None = None
        for _attempt in range(STREAM_RESUMES + 1):
            self.listening.add(run_id)
            try:
                async with self.api.stream_run(agent_id, run_id, last_event_id=resume_from) as stream:
                    heard = await listen_for_end(stream, quiet_seconds=self.quiet_seconds)
            except StreamError as broke:
                resume_from = broke.last_event_id or resume_from
                continue
            except CursorError:
                return self._tell(run_id)  # refused (expired, gone...): the read says what became of it
            finally:
                self.listening.discard(run_id)
            if heard == "ended":
                return self._tell(run_id)
            if heard == "no_listener":
                break
            # "closed" without a result: a break like any other, resumed where it stopped
        self.given_up.add(run_id)
        return None

    def take(self) -> set[str]:
        """The runs heard since the last call (to read now)."""
        heard, self.heard = self.heard, set()
        return heard

    async def pause(self, pause: Callable[[float], Awaitable[None]], seconds: float) -> None:
        """`pause(seconds)`, cut short when a stream tells an end."""
        if self.heard:
            return
        if self._news.is_set():
            self._news = anyio.Event()
        news = self._news
        async with anyio.create_task_group() as group:

            async def sleep() -> None:
                await pause(seconds)
                group.cancel_scope.cancel()

            async def hear() -> None:
                await news.wait()
                group.cancel_scope.cancel()

            group.start_soon(sleep)
            group.start_soon(hear)

    def _tell(self, run_id: str) -> None:
        self.heard.add(run_id)
        self._news.set()
