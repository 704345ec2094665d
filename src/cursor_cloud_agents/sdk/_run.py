"""`AsyncRun`: one run of an agent: wait for its end, stream what it does, cancel it, read its conversation."""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass

from cursor_cloud_agents.api import ConversationMessage, CursorClient, ModelSelection, Run, RunNotCancellableError
from cursor_cloud_agents.core import Follower, ToolFailure, failures
from cursor_cloud_agents.core.timing import RUN_POLL_SECONDS
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._errors import translated
from cursor_cloud_agents.sdk._messages import AssistantMessage, Message, MessageReader
from cursor_cloud_agents.sdk._results import RunResult
from cursor_cloud_agents.sdk._status import Status

logger = logging.getLogger("cursor_cloud_agents.sdk")


@dataclass(frozen=True)
class _Streams:
    """What the core's follower needs: the client, and the pause between reconnections on the cursor's clock."""

    api: CursorClient
    sleep: Callable[[float], Awaitable[None]]


class AsyncRun:
    """A run of a cloud agent, as `agent.send()` started it (or `AsyncRun.get` found it).

    `status` is the last one read; `wait()` reads until the run ends."""

    def __init__(self, cursor: AsyncCursor, agent_id: str, run: Run, model: ModelSelection | None = None) -> None:
        self._cursor = cursor
        self.agent_id = agent_id
        self.id = run.id
        self.last = run
        """The run as last read."""
        self.model = model
        """The model this program asked the run with (None: the agent's or the account's default, or not known)."""
        cursor.remember_run(run.id, agent_id)

    def __repr__(self) -> str:
        return f"AsyncRun({self.id}, agent={self.agent_id}, status={self.status})"

    @property
    def run_id(self) -> str:
        """The run's id."""
        return self.id

    @property
    def status(self) -> Status:
        """The status last read: `"running"` (a creating run too), `"finished"`, `"error"`, `"cancelled"`,
        `"expired"`; equal to the API's uppercase word too (`sdk/_status.py`)."""
        return Status(self.last.status)

    @property
    def result(self) -> str:
        """The final text as last read (empty until the run has ended: `await run.text()` waits for it)."""
        return self.last.result or ""

    @property
    def duration_ms(self) -> int | None:
        """How long the run took, once it has ended."""
        return self.last.duration_ms

    @classmethod
    async def get(cls, agent_id: str, run_id: str, *, client: AsyncCursor) -> AsyncRun:
        """A run of an agent, read now."""
        with translated(client.redactor):
            return cls(client, agent_id, await client.api.get_run(agent_id, run_id))

    async def refresh(self) -> Run:
        """Read the run again."""
        with translated(self._cursor.redactor):
            self.last = await self._cursor.api.get_run(self.agent_id, self.id)
        return self.last

    async def wait(self, *, timeout: float | None = None) -> RunResult:
        """The run's result once it has ended, re-read every few seconds on the cursor's clock.

        Raises:
            ToolFailure: TIMEOUT when `timeout` seconds pass first (the run goes on; wait again).
        """
        state = self._cursor.state
        started = state.clock.now()
        if not self.last.is_terminal:
            await self.refresh()  # a run that ended since it was last read is answered without a pause
        while not self.last.is_terminal:
            if timeout is not None and state.clock.now() - started + RUN_POLL_SECONDS > timeout:
                raise ToolFailure(
                    failures.TIMEOUT,
                    f"Run {self.id} is still {self.status} after {timeout:g} s; it goes on: wait again.",
                    agent_id=self.agent_id,
                    run_id=self.id,
                    status=self.status,
                )
            await state.clock.sleep(RUN_POLL_SECONDS)
            await self.refresh()
        return RunResult.of(self.last, self.agent_id, self.model)

    async def stream(self) -> AsyncGenerator[Message]:
        """What the run says and does, as typed messages, from its start to its end.

        A dropped connection is resumed after the last event received (never an event twice), backing off as
        Cursor's SDK does; a resume point Cursor refuses replays from the start, with what was handed on dropped.

        Raises:
            ToolFailure: UPSTREAM when the stream could not be resumed (`wait()` still reads the run's end);
                STREAM_EXPIRED past the stream's retention; NOT_FOUND, AUTHENTICATION.
        """
        reader = MessageReader(self.agent_id, self.id)
        follower = Follower(_Streams(self._cursor.api, self._cursor.state.clock.sleep), self.agent_id, self.id)

        def resumed(reason: str, after: str | None) -> None:
            logger.info("run %s: %s; resuming after %s", self.id, reason, after or "the start")

        with translated(self._cursor.redactor):
            async with aclosing(follower.events(resumed)) as events:
                async for event in events:
                    message = reader.read(event)
                    if message is not None:
                        yield message
            if not follower.ended:
                raise ToolFailure(
                    failures.Code.UPSTREAM,
                    f"The stream of run {self.id} broke and could not be resumed; run.wait() reads its end.",
                    agent_id=self.agent_id,
                    run_id=self.id,
                    last_event_id=follower.last_event_id,
                )

    async def text(self) -> str:
        """The run's final text (its result), waiting for the run's end if it has not ended (as Cursor's SDK does).

        The reply as it is written comes from `iter_text()`."""
        return (await self.wait()).result

    async def iter_text(self) -> AsyncGenerator[str]:
        """The assistant's reply as it is written, piece by piece (the text of each `AssistantMessage`)."""
        async with aclosing(self.stream()) as messages:
            async for message in messages:
                if isinstance(message, AssistantMessage):
                    yield message.text

    async def cancel(self) -> None:
        """Ask Cursor to stop the run. A run that has already ended is left as it is: nothing is sent.

        Cancelling is asynchronous at Cursor: the run may read RUNNING for a moment; `wait()` sees it end."""
        with translated(self._cursor.redactor):
            if (await self.refresh()).is_terminal:
                return
            try:
                await self._cursor.api.cancel_run(self.agent_id, self.id)
            except RunNotCancellableError:
                await self.refresh()  # it ended between the read and the request: nothing to stop

    async def conversation(self) -> list[ConversationMessage]:
        """The agent's conversation so far (Cursor keeps it per agent: every run's prompts and replies)."""
        with translated(self._cursor.redactor):
            return (await self._cursor.api.get_conversation(self.agent_id)).messages
