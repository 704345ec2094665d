"""The synchronous classes: `Cursor`, `Agent` and `Run`, each over its async twin on a private loop thread.

Each sync method runs the async one on the `Cursor`'s own loop (`_loop.LoopThread`) and blocks for it, so
they behave the same inside and outside a running event loop. A `Cursor` is closed by `close()`, by leaving
its `with` block, or at the latest when the program exits. `Agent` and `Run` calls without `client=` use a
default `Cursor` built from the environment on first use (`close_default_client()` closes it).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Iterator, Mapping
from types import TracebackType
from typing import Any, Self, Unpack

from cursor_cloud_agents.api import Agent as AgentRecord
from cursor_cloud_agents.api import (
    AgentSummary,
    Artifact,
    ConversationMessage,
    Me,
    Model,
    ModelSelection,
    Repository,
    Usage,
)
from cursor_cloud_agents.api import Run as RunRecord
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.sdk._agent import AsyncAgent, ModelParams, NewAgent
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._loop import LoopThread
from cursor_cloud_agents.sdk._messages import Message
from cursor_cloud_agents.sdk._options import CloudOptions
from cursor_cloud_agents.sdk._results import ListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._twins import takes_arguments_of


class Cursor:
    """A synchronous connection to Cursor Cloud Agents: the same arguments and settings as `AsyncCursor`.

    `Cursor(simulated=True)` runs against an in-process simulator (no key, no network, no bill). Use it as
    `with Cursor() as cursor:`, or call `close()`.
    """

    @takes_arguments_of(AsyncCursor.__init__)
    def __init__(self, *arguments: Any, **keywords: Any) -> None:
        self.aio = AsyncCursor(*arguments, **keywords)
        """The async twin this connection runs (on its own loop: use it there only)."""
        self.loop = LoopThread()
        try:
            leave = self.loop.keep_open(self.aio)
        except BaseException:
            self.loop.stop()
            raise
        self._closer = weakref.finalize(self, _close, leave, self.loop)

    def __repr__(self) -> str:
        where = "simulated" if self.aio.simulated else self.aio.settings.base_url
        return f"Cursor({where}, {'open' if self._closer.alive else 'closed'})"

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection and its loop thread (idempotent); agents and runs go on at Cursor."""
        self._closer()

    @property
    def settings(self) -> Settings:
        """The settings in force."""
        return self.aio.settings

    def me(self) -> Me:
        """The API key's name and owner."""
        return self.loop.call(self.aio.me())

    def models(self) -> list[Model]:
        """The models an agent may use."""
        return self.loop.call(self.aio.models())

    def repositories(self) -> list[Repository]:
        """The GitHub repositories of the key (one listing a minute at Cursor: cached for five)."""
        return self.loop.call(self.aio.repositories())


def _close(leave: Any, loop: LoopThread) -> None:
    try:
        if loop.running:
            leave()
    finally:
        loop.stop()


_default: Cursor | None = None
_default_lock = threading.Lock()


def default_client() -> Cursor:
    """The `Cursor` of calls made without `client=`: built from the environment on first use, then kept."""
    global _default
    with _default_lock:
        if _default is None or not _default._closer.alive:  # pyright: ignore[reportPrivateUsage] -- same module
            _default = Cursor()
        return _default


def close_default_client() -> None:
    """Close the default `Cursor`, if one was made (the next call without `client=` makes a new one)."""
    global _default
    with _default_lock:
        if _default is not None:
            _default.close()
            _default = None


class Run:
    """A run of a cloud agent (sync): `wait()`, `stream()`, `text()`, `cancel()`, `conversation()`."""

    def __init__(self, cursor: Cursor, run: AsyncRun) -> None:
        self._cursor = cursor
        self.aio = run
        """The async twin (on the cursor's loop)."""

    def __repr__(self) -> str:
        return f"Run({self.id}, agent={self.agent_id}, status={self.status})"

    @property
    def id(self) -> str:
        """The run's id."""
        return self.aio.id

    run_id = id

    @property
    def agent_id(self) -> str:
        """Its agent's id."""
        return self.aio.agent_id

    @property
    def status(self) -> str:
        """The status last read."""
        return self.aio.status

    @classmethod
    def get(cls, agent_id: str, run_id: str, *, client: Cursor | None = None) -> Run:
        """A run of an agent, read now."""
        cursor = client or default_client()
        return cls(cursor, cursor.loop.call(AsyncRun.get(agent_id, run_id, client=cursor.aio)))

    def refresh(self) -> RunRecord:
        """Read the run again."""
        return self._cursor.loop.call(self.aio.refresh())

    def wait(self, *, timeout: float | None = None) -> RunResult:
        """The run's result once it has ended (TIMEOUT after `timeout` seconds; the run goes on)."""
        return self._cursor.loop.call(self.aio.wait(timeout=timeout))

    def stream(self) -> Iterator[Message]:
        """What the run says and does, as typed messages, from its start to its end (resumed after a drop)."""
        return self._cursor.loop.iterate(self.aio.stream)

    def text(self) -> str:
        """The assistant's whole reply, as streamed."""
        return self._cursor.loop.call(self.aio.text())

    def cancel(self) -> None:
        """Ask Cursor to stop the run; a run that has ended is left as it is (nothing sent)."""
        self._cursor.loop.call(self.aio.cancel())

    def conversation(self) -> list[ConversationMessage]:
        """The agent's conversation so far."""
        return self._cursor.loop.call(self.aio.conversation())


class Agent:
    """A cloud agent (sync). `Agent.create` sends nothing; the first `send` creates it, later ones follow up.

    Local agents are not available: they run in Cursor's own runtime, which Python cannot reach."""

    def __init__(self, cursor: Cursor, agent: AsyncAgent) -> None:
        self._cursor = cursor
        self.aio = agent
        """The async twin (on the cursor's loop)."""

    def __repr__(self) -> str:
        return f"Agent({self.agent_id})"

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release (the connection is the cursor's); kept for code written for Cursor's SDK."""

    @property
    def agent_id(self) -> str:
        """The agent's id, minted before any request."""
        return self.aio.agent_id

    @property
    def model(self) -> ModelSelection | None:
        """The model of the next send."""
        return self.aio.model

    @classmethod
    def create(cls, *, client: Cursor | None = None, **options: Unpack[NewAgent]) -> Agent:
        """A new cloud agent, checked and given its id; nothing is sent until `send` (the options and what they
        mean: `AsyncAgent.create`)."""
        cursor = client or default_client()
        made = AsyncAgent.create(client=cursor.aio, **options)
        return cls(cursor, cursor.loop.call(made))

    @classmethod
    def resume(cls, agent_id: str, *, client: Cursor | None = None, model: str | None = None) -> Agent:
        """An existing agent, read now, to follow up or read."""
        cursor = client or default_client()
        return cls(cursor, cursor.loop.call(AsyncAgent.resume(agent_id, client=cursor.aio, model=model)))

    @classmethod
    def get(cls, agent_id: str, *, client: Cursor | None = None) -> AgentRecord:
        """An agent's record."""
        cursor = client or default_client()
        return cursor.loop.call(AsyncAgent.get(agent_id, client=cursor.aio))

    @classmethod
    def list(
        cls,
        *,
        client: Cursor | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        include_archived: bool | None = None,
    ) -> ListResult[AgentSummary]:
        """One page of the key's agents, newest first."""
        connection = client or default_client()
        listing = AsyncAgent.list(client=connection.aio, limit=limit, cursor=cursor, include_archived=include_archived)
        return connection.loop.call(listing)

    @classmethod
    def prompt(
        cls,
        message: str,
        *,
        client: Cursor | None = None,
        model: str | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | Mapping[str, Any] | None = None,
    ) -> RunResult:
        """One shot: create an agent with `message` and wait for its run's result."""
        cursor = client or default_client()
        one_shot = AsyncAgent.prompt(
            message, client=cursor.aio, model=model, model_params=model_params, name=name, cloud=cloud
        )
        return cursor.loop.call(one_shot)

    @classmethod
    def archive(cls, agent_id: str, *, client: Cursor | None = None) -> None:
        """Archive an agent."""
        cursor = client or default_client()
        cursor.loop.call(AsyncAgent.archive(agent_id, client=cursor.aio))

    @classmethod
    def unarchive(cls, agent_id: str, *, client: Cursor | None = None) -> None:
        """Unarchive an agent."""
        cursor = client or default_client()
        cursor.loop.call(AsyncAgent.unarchive(agent_id, client=cursor.aio))

    @classmethod
    def delete(cls, agent_id: str, *, client: Cursor | None = None) -> None:
        """Delete an agent, for good."""
        cursor = client or default_client()
        cursor.loop.call(AsyncAgent.delete(agent_id, client=cursor.aio))

    archive_agent = archive
    unarchive_agent = unarchive
    delete_agent = delete

    def send(self, message: str, *, model: str | None = None, model_params: ModelParams | None = None) -> Run:
        """Start a run: the agent's creation the first time, a follow-up after (see `AsyncAgent.send`)."""
        started = self._cursor.loop.call(self.aio.send(message, model=model, model_params=model_params))
        return Run(self._cursor, started)

    def reload(self) -> AgentRecord:
        """The agent's record, read now."""
        return self._cursor.loop.call(self.aio.reload())

    def list_runs(self, *, limit: int | None = None, cursor: str | None = None) -> ListResult[Run]:
        """One page of the agent's runs, newest first."""
        page = self._cursor.loop.call(self.aio.list_runs(limit=limit, cursor=cursor))
        return ListResult([Run(self._cursor, run) for run in page.items], page.next_cursor)

    def list_artifacts(self) -> list[Artifact]:
        """The files the agent left under `artifacts/`."""
        return self._cursor.loop.call(self.aio.list_artifacts())

    def download_artifact(self, path: str) -> bytes:
        """The bytes of one artifact."""
        return self._cursor.loop.call(self.aio.download_artifact(path))

    def get_usage(self, *, run_id: str | None = None) -> Usage:
        """Tokens and cost of the agent, or of one run."""
        return self._cursor.loop.call(self.aio.get_usage(run_id=run_id))
