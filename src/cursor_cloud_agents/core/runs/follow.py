"""Following a run's event stream to its end, resuming after a dropped connection, never handing an event twice.

The client opens the stream (`CursorClient.stream_run`); this module keeps it going, for every face that
follows a run (the terminal's `watch`, the SDK's `run.stream()`). After a cut, a
server error or a close before the run's `result`, it reconnects with `Last-Event-ID` set to the id just
before the last one handed on (frames can share an id and the API sends only those after the given one),
backing off as the official SDK does (1, 2, 4, 8, 16, 30 s: docs/api-contract.md §3.11), or longer when a
429 or a 5xx said when to come back (`Retry-After`), and says so through `on_resume`. A resume id the API
refuses (`invalid_last_event_id`) restarts the replay from the start. Either way an event already handed
on, known by its id and type, is dropped, so a consumer sees every event exactly once: ids are
`<ms>-<seq>` and increase, but `done` shares the `result` frame's id, and an `interaction_update` may
share its id with the simplified frame that repeats it. Frames without an id (the status frame that opens
each connection, heartbeats) are handed on each time.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from typing import Protocol

from cursor_cloud_agents.api import (
    APIConnectionError,
    CursorClient,
    DoneEvent,
    InvalidLastEventIdError,
    RateLimitError,
    ReadFailedError,
    ResultEvent,
    ServerError,
    StreamError,
    StreamEvent,
    UsageLimitExceededError,
    parse_event_id,
)
from cursor_cloud_agents.core.timing import WATCH_RECONNECT_SECONDS as RETRY_SECONDS

_BROKEN = (StreamError, ReadFailedError, APIConnectionError, ServerError, RateLimitError)
"""What a reconnection may cure: a cut, a failed read, no connection, a 5xx (`stream_unavailable` included), a
429 other than exhausted usage."""

OnEvent = Callable[[StreamEvent], None]
OnResume = Callable[[str, str | None], None]
"""Hears why the stream is resumed and the event id it resumes after."""


class Reconnecting(Protocol):
    """What following needs of a face: its API client, and how to pause on its clock between reconnections."""

    @property
    def api(self) -> CursorClient: ...

    @property
    def sleep(self) -> Callable[[float], Awaitable[None]]: ...


class Follower:
    """The position in one run's stream: the last event handed on, and whether the run's end came."""

    def __init__(self, session: Reconnecting, agent_id: str, run_id: str) -> None:
        self.session = session
        self.agent_id = agent_id
        self.run_id = run_id
        self.last_event_id: str | None = None
        self._last_key: tuple[int, int] | None = None
        self._kinds_at_last: set[str] = set()
        self._id_before_last: str | None = None
        self.ended = False
        """A `result` or `done` frame arrived: only they prove the run is over."""
        self.handed = 0
        """Events handed on so far."""

    def _fresh(self, event: StreamEvent) -> bool:
        """Whether `event` was not handed on before (and note it as handed on)."""
        key = parse_event_id(event.event_id)
        if key is None:
            return True
        last = self._last_key
        if last is not None and (key < last or (key == last and event.kind in self._kinds_at_last)):
            return False
        if key != self._last_key:
            self._last_key, self._kinds_at_last = key, set()
            self._id_before_last = self.last_event_id
        self._kinds_at_last.add(event.kind)
        self.last_event_id = event.event_id
        return True

    def _resume_id(self) -> str | None:
        """Where to reconnect: before the last id handed on, whose other frames may not have arrived yet (an
        `interaction_update` and its simplified frame can share an id, docs/api-contract.md §3.11, and the API sends
        only the frames after the given id); its frames sent again are dropped by `_fresh`."""
        return self._id_before_last or self.last_event_id

    async def _connection(self) -> AsyncGenerator[StreamEvent]:
        """One connection, from the last event handed on, until the stream closes or the run's end arrives."""
        async with self.session.api.stream_run(self.agent_id, self.run_id, last_event_id=self._resume_id()) as stream:
            async for event in stream:
                if not self._fresh(event):
                    continue
                self.handed += 1
                yield event
                if isinstance(event, DoneEvent):
                    self.ended = True
                    return
                self.ended |= isinstance(event, ResultEvent)

    async def follow(self, on_event: OnEvent, on_resume: OnResume) -> bool:
        """Hand every event on, once, until the run's end; False when the stream could not be resumed.

        Raises:
            CursorError: the stream was refused for good (not found, expired, authentication).
        """
        async with aclosing(self.events(on_resume)) as events:
            async for event in events:
                on_event(event)
        return self.ended

    async def events(self, on_resume: OnResume) -> AsyncGenerator[StreamEvent]:
        """Every event, once, until the run's end; it stops early (`ended` False) when the stream could not be
        resumed.

        Raises:
            CursorError: the stream was refused for good (not found, expired, authentication).
        """
        failed = 0
        while True:
            handed = self.handed
            said: float | None = None
            """The wait a 429 or a 5xx asked for (`Retry-After`), if it did."""
            try:
                async for event in self._connection():
                    yield event
                if self.ended:
                    return
                reason = "the stream closed before the run's end"
            except InvalidLastEventIdError:
                self.last_event_id = self._id_before_last = None  # the replay starts over; events handed on are dropped
                reason = "the resume point was refused, replaying from the start"
            except UsageLimitExceededError:
                raise  # waiting does not bring usage back
            except _BROKEN as exc:
                said = exc.retry_after if isinstance(exc, RateLimitError | ServerError) else None
                reason = f"the connection broke ({type(exc).__name__})"
            if self.handed > handed:
                failed = 0  # the connection moved on: the back-off starts again
            if failed >= len(RETRY_SECONDS):
                return
            pause = max(RETRY_SECONDS[failed], said or 0.0)
            asked = "" if pause == RETRY_SECONDS[failed] else f"; Cursor asked to wait {pause:.0f} s"
            on_resume(reason + asked, self._resume_id())
            await self.session.sleep(pause)
            failed += 1
