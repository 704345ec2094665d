"""The synchronous classes: `Cursor`, `Agent` and `Run`, each over its async twin on a private loop thread.

Each sync method runs the async one on the `Cursor`'s own loop (`_loop.LoopThread`) and blocks for it, so
they behave the same inside and outside a running event loop. A `Cursor` is closed by `close()`, by leaving
its `with` block, or at the latest when the program exits. `Agent` and `Run` calls without `client=` use a
default `Cursor` built from the environment on first use (`close_default_client()` closes it).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields, is_dataclass
from types import TracebackType
from typing import Any, Generic, Self, TypeVar, Unpack, cast, overload

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
from cursor_cloud_agents.sdk._agent import AsyncAgent, ModelParams, NewAgent, Options
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._dual import either
from cursor_cloud_agents.sdk._loop import LoopThread
from cursor_cloud_agents.sdk._messages import Message
from cursor_cloud_agents.sdk._options import CloudAgentOptions, CloudOptions
from cursor_cloud_agents.sdk._results import AsyncListResult, ListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._shapes import ModelChoice, SendOptions
from cursor_cloud_agents.sdk._status import Status
from cursor_cloud_agents.sdk._twins import takes_arguments_of

T = TypeVar("T")
A = TypeVar("A")


def _me_of(*, client: Cursor | None = None, api_key: str | None = None) -> Me:
    """The API key's name and owner (`Cursor.me` read on the class: the default connection, or `client=`)."""
    connection = connection_for(client, api_key)
    return connection.loop.call(_me_async(connection.aio, api_key))


async def _me_async(connection: AsyncCursor, api_key: str | None) -> Me:
    connection.check_key(api_key)
    return await connection.me()


class AccountList(Generic[T]):
    """One of the account's lists (`models`, `repositories`): `cursor.models()` on a connection, or
    `Cursor.models.list()` as Cursor's SDK calls it (the default connection, or `client=`)."""

    def __init__(self, read: Callable[[Cursor], list[T]], cursor: Cursor | None) -> None:
        self._read = read
        self._cursor = cursor

    def __call__(self) -> list[T]:
        return self.list()

    def list(self, *, client: Cursor | None = None, api_key: str | None = None) -> list[T]:
        """The list, read through `client` (on a connection: that one; else the default connection)."""
        connection = client or self._cursor or connection_for(None, api_key)
        connection.aio.check_key(api_key)
        return self._read(connection)


class _Catalogue(Generic[T]):
    """The descriptor behind `Cursor.models` and `Cursor.repositories`."""

    def __init__(self, read: Callable[[Cursor], list[T]]) -> None:
        self._read = read

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> AccountList[T]: ...
    @overload
    def __get__(self, instance: Cursor, owner: type[Any]) -> AccountList[T]: ...
    def __get__(self, instance: Cursor | None, owner: type[Any]) -> AccountList[T]:
        return AccountList(self._read, instance)


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

    def _me(self) -> Me:
        return self.loop.call(self.aio.me())

    me = either(_me_of, _me)
    """The API key's name and owner: `cursor.me()`, or `Cursor.me()` as Cursor's SDK calls it (the default
    connection, or `client=`)."""

    def _models(self) -> list[Model]:
        return self.loop.call(self.aio.models.list())

    def _repositories(self) -> list[Repository]:
        return self.loop.call(self.aio.repositories.list())

    models = _Catalogue[Model](_models)
    """The models an agent may use: `cursor.models()`, or `Cursor.models.list()` as Cursor's SDK calls it."""
    repositories = _Catalogue[Repository](_repositories)
    """The GitHub repositories of the key: `cursor.repositories()`, or `Cursor.repositories.list()`."""


def _close(leave: Any, loop: LoopThread) -> None:
    try:
        if loop.running:
            leave()
    finally:
        loop.stop()


_defaults: dict[str | None, Cursor] = {}
_default_lock = threading.Lock()


def default_client(api_key: str | None = None) -> Cursor:
    """The `Cursor` of calls made without `client=`: built from the environment on first use, then kept; one per
    `api_key` a call passes (Cursor's SDK takes the key per call)."""
    with _default_lock:
        made = _defaults.get(api_key)
        if made is None or not made._closer.alive:  # pyright: ignore[reportPrivateUsage] -- same module
            made = _defaults[api_key] = Cursor(api_key=api_key)
        return made


def connection_for(client: Cursor | None, api_key: object = None) -> Cursor:
    """`client`, or the default connection (of `api_key` when a call passes one)."""
    if client is not None:
        return client
    return default_client(api_key if isinstance(api_key, str) else None)


def close_default_client() -> None:
    """Close the default connections, if any were made (the next call without `client=` makes a new one)."""
    with _default_lock:
        made = list(_defaults.values())
        _defaults.clear()
    for connection in made:
        connection.close()


def _key_of(options: object, api_key: str | None) -> str | None:
    """The `api_key` a call passes, as a keyword or in its options (a mapping or a dataclass)."""
    if api_key is not None or options is None:
        return api_key
    given: dict[str, object]
    if is_dataclass(options) and not isinstance(options, type):
        given = {item.name: getattr(options, item.name) for item in fields(options)}
    elif isinstance(options, Mapping):
        given = {str(key): value for key, value in cast(Mapping[object, object], options).items()}
    else:
        return None
    key = given.get("api_key", given.get("apiKey"))
    return key if isinstance(key, str) else None


def _sync_page(connection: Cursor, page: AsyncListResult[A], each: Callable[[A], T]) -> ListResult[T]:
    """An async page as a sync one: its items made sync, its next page read on the connection's loop."""
    following = page.following

    def next_page(cursor: str) -> ListResult[T]:
        assert following is not None
        return _sync_page(connection, connection.loop.call(_awaited(following(cursor))), each)

    return ListResult([each(item) for item in page.items], page.next_cursor, None if following is None else next_page)


async def _awaited(value: Any) -> Any:
    return await value


class Run:
    """A run of a cloud agent (sync): `wait()`, `text()`, `stream()`, `iter_text()`, `cancel()`, `conversation()`."""

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
    def status(self) -> Status:
        """The status last read (`"running"`, `"finished"`...; equal to the API's uppercase word too)."""
        return self.aio.status

    @property
    def result(self) -> str:
        """The final text as last read (empty until the run has ended: `run.text()` waits for it)."""
        return self.aio.result

    @property
    def duration_ms(self) -> int | None:
        """How long the run took, once it has ended."""
        return self.aio.duration_ms

    @classmethod
    def get(cls, agent_id: str, run_id: str, *, client: Cursor | None = None) -> Run:
        """A run of an agent, read now."""
        cursor = connection_for(client)
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

    def messages(self) -> Iterator[Message]:
        """The same as `stream()` (Cursor's SDK has both names)."""
        return self.stream()

    def text(self) -> str:
        """The run's final text (its result), waiting for its end if it has not ended."""
        return self._cursor.loop.call(self.aio.text())

    def iter_text(self) -> Iterator[str]:
        """The assistant's reply as it is written, piece by piece."""
        return self._cursor.loop.iterate(self.aio.iter_text)

    def cancel(self) -> None:
        """Ask Cursor to stop the run; a run that has ended is left as it is (nothing sent)."""
        self._cursor.loop.call(self.aio.cancel())

    def conversation(self) -> list[ConversationMessage]:
        """The agent's conversation so far."""
        return self._cursor.loop.call(self.aio.conversation())


def _list_runs_of(
    agent_id: str,
    options: Mapping[str, Any] | None = None,
    *,
    client: Cursor | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> ListResult[Run]:
    """One page of the runs of the agent `agent_id` (`Agent.list_runs` read on the class)."""
    connection = connection_for(client)
    listing = AsyncAgent.list_runs(agent_id, options, client=connection.aio, limit=limit, cursor=cursor)
    return _sync_page(connection, connection.loop.call(listing), lambda run: Run(connection, run))


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
    def client(self) -> Cursor:
        """The connection this agent uses."""
        return self._cursor

    @property
    def model(self) -> ModelSelection | None:
        """The model of the next send."""
        return self.aio.model

    @classmethod
    def create(cls, options: Options = None, *, client: Cursor | None = None, **keywords: Unpack[NewAgent]) -> Agent:
        """A new cloud agent, checked and given its id; nothing is sent until `send` (the options, as one mapping
        and as keywords, and what they mean: `AsyncAgent.create`)."""
        cursor = connection_for(client, _key_of(options, keywords.get("api_key")))
        made = AsyncAgent.create(options, client=cursor.aio, **keywords)
        return cls(cursor, cursor.loop.call(made))

    @classmethod
    def resume(
        cls,
        agent_id: str,
        options: Options = None,
        *,
        client: Cursor | None = None,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        api_key: str | None = None,
    ) -> Agent:
        """An existing agent, read now, to follow up or read."""
        cursor = connection_for(client, _key_of(options, api_key))
        resumed = AsyncAgent.resume(
            agent_id, options, client=cursor.aio, model=model, model_params=model_params, api_key=api_key
        )
        return cls(cursor, cursor.loop.call(resumed))

    @classmethod
    def get(cls, agent_id: str, *, client: Cursor | None = None, api_key: str | None = None) -> AgentRecord:
        """An agent's record."""
        cursor = connection_for(client, api_key)
        return cursor.loop.call(AsyncAgent.get(agent_id, client=cursor.aio, api_key=api_key))

    @classmethod
    def list(
        cls,
        options: Mapping[str, Any] | None = None,
        *,
        client: Cursor | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        include_archived: bool | None = None,
        runtime: str | None = None,
        api_key: str | None = None,
    ) -> ListResult[AgentSummary]:
        """One page of the key's agents, newest first (`page.get_next_page()`, `page.auto_paging_iter()`)."""
        connection = connection_for(client, _key_of(options, api_key))
        listing = AsyncAgent.list(
            options,
            client=connection.aio,
            limit=limit,
            cursor=cursor,
            include_archived=include_archived,
            runtime=runtime,
            api_key=api_key,
        )
        return _sync_page(connection, connection.loop.call(listing), lambda item: item)

    @classmethod
    def get_run(
        cls,
        run_id: str,
        options: Mapping[str, Any] | None = None,
        *,
        client: Cursor | None = None,
        agent_id: str | None = None,
    ) -> Run:
        """A run, read now (`agent_id=` unless it was started on this machine: see `AsyncAgent.get_run`)."""
        cursor = connection_for(client)
        found = AsyncAgent.get_run(run_id, options, client=cursor.aio, agent_id=agent_id)
        return Run(cursor, cursor.loop.call(found))

    @classmethod
    def cancel_run(cls, run_id: str, *, client: Cursor | None = None, agent_id: str | None = None) -> None:
        """Ask Cursor to stop a run (nothing sent when it has ended)."""
        cursor = connection_for(client)
        cursor.loop.call(AsyncAgent.cancel_run(run_id, client=cursor.aio, agent_id=agent_id))

    @classmethod
    def prompt(
        cls,
        message: object,
        options: Options = None,
        *,
        client: Cursor | None = None,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None = None,
    ) -> RunResult:
        """One shot: create an agent with `message` and wait for its run's result."""
        cursor = connection_for(client, _key_of(options, None))
        one_shot = AsyncAgent.prompt(
            message, options, client=cursor.aio, model=model, model_params=model_params, name=name, cloud=cloud
        )
        return cursor.loop.call(one_shot)

    @classmethod
    def archive(cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: Cursor | None = None) -> None:
        """Archive an agent."""
        cursor = connection_for(client)
        cursor.loop.call(AsyncAgent.archive(agent_id, options, client=cursor.aio))

    @classmethod
    def unarchive(
        cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: Cursor | None = None
    ) -> None:
        """Unarchive an agent."""
        cursor = connection_for(client)
        cursor.loop.call(AsyncAgent.unarchive(agent_id, options, client=cursor.aio))

    @classmethod
    def delete(cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: Cursor | None = None) -> None:
        """Delete an agent, for good."""
        cursor = connection_for(client)
        cursor.loop.call(AsyncAgent.delete(agent_id, options, client=cursor.aio))

    archive_agent = archive
    unarchive_agent = unarchive
    delete_agent = delete

    def send(
        self,
        message: object,
        options: SendOptions | Mapping[str, Any] | None = None,
        *,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        idempotency_key: str | None = None,
    ) -> Run:
        """Start a run: the agent's creation the first time, a follow-up after (see `AsyncAgent.send`)."""
        sending = self.aio.send(
            message, options, model=model, model_params=model_params, idempotency_key=idempotency_key
        )
        return Run(self._cursor, self._cursor.loop.call(sending))

    def reload(self) -> AgentRecord:
        """The agent's record, read now."""
        return self._cursor.loop.call(self.aio.reload())

    def _list_runs_of_this(
        self, options: Mapping[str, Any] | None = None, *, limit: int | None = None, cursor: str | None = None
    ) -> ListResult[Run]:
        page = self._cursor.loop.call(self.aio.list_runs(options, limit=limit, cursor=cursor))
        return _sync_page(self._cursor, page, lambda run: Run(self._cursor, run))

    list_runs = either(_list_runs_of, _list_runs_of_this)
    """One page of an agent's runs, newest first: `Agent.list_runs(agent_id)` as Cursor's SDK calls it, or
    `agent.list_runs()` on an agent."""

    def list_artifacts(self) -> list[Artifact]:
        """The files the agent left under `artifacts/`."""
        return self._cursor.loop.call(self.aio.list_artifacts())

    def download_artifact(self, path: str) -> bytes:
        """The bytes of one artifact."""
        return self._cursor.loop.call(self.aio.download_artifact(path))

    def get_usage(self, *, run_id: str | None = None) -> Usage:
        """Tokens and cost of the agent, or of one run."""
        return self._cursor.loop.call(self.aio.get_usage(run_id=run_id))
