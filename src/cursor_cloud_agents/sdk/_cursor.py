"""`AsyncCursor`: one connection to Cursor (or to the simulator), with the product's settings, store and limits.

Everything an agent does goes through one of these: the API client, the clock, and the core state the
server and the terminal keep (the store of paid acts shared by every process of the machine, the creation
ledger, the spend and slot limits, the model list). Open it with `async with AsyncCursor() as cursor:`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Self, TypeVar, overload

from cursor_cloud_agents.api import CursorClient, Me, Model, Repository
from cursor_cloud_agents.closing import ClosedOnExit
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import CoreState, store_failures
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.embedded import instant_clock, open_client
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk._dual import either
from cursor_cloud_agents.sdk._errors import ConfigurationError, refused, translated
from cursor_cloud_agents.sdk._settings import Overrides, key_advice, program_environment, sdk_settings

if TYPE_CHECKING:
    from cursor_cloud_agents.core import GitPlaces

T = TypeVar("T")

REMEMBERED_RUNS = 10_000
"""Runs whose agent a connection remembers for `Agent.get_run(run_id)` (a few hundred kilobytes at most)."""


def _needed(client: AsyncCursor | None, call: str) -> AsyncCursor:
    if client is None:
        raise refused(f"{call}(client=...) needs client=: an open AsyncCursor (async with AsyncCursor() as client).")
    return client


async def _me_of(*, client: AsyncCursor | None = None, api_key: str | None = None) -> Me:
    """The API key's name and owner (`AsyncCursor.me` read on the class)."""
    connection = _needed(client, "AsyncCursor.me")
    connection.check_key(api_key)
    return await connection.me()


class AsyncAccountList(Generic[T]):
    """One of the account's lists (`models`, `repositories`): `await cursor.models()` on a connection, or
    `await AsyncCursor.models.list(client=cursor)` as Cursor's SDK calls it."""

    def __init__(
        self, read: Callable[[AsyncCursor], Awaitable[list[T]]], name: str, cursor: AsyncCursor | None
    ) -> None:
        self._read = read
        self._name = name
        self._cursor = cursor

    def __call__(self) -> Awaitable[list[T]]:
        return self.list()

    async def list(self, *, client: AsyncCursor | None = None, api_key: str | None = None) -> list[T]:
        """The list, read through `client` (on a connection: that one)."""
        connection = _needed(client or self._cursor, f"AsyncCursor.{self._name}.list")
        connection.check_key(api_key)
        return await self._read(connection)


class _Catalogue(Generic[T]):
    """The descriptor behind `AsyncCursor.models` and `AsyncCursor.repositories`."""

    def __init__(self, read: Callable[[AsyncCursor], Awaitable[list[T]]], name: str) -> None:
        self._read = read
        self._name = name

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> AsyncAccountList[T]: ...
    @overload
    def __get__(self, instance: AsyncCursor, owner: type[Any]) -> AsyncAccountList[T]: ...
    def __get__(self, instance: AsyncCursor | None, owner: type[Any]) -> AsyncAccountList[T]:
        return AsyncAccountList(self._read, self._name, instance)


class AsyncCursor(ClosedOnExit):
    """A connection to Cursor Cloud Agents for a program, with the product's guarantees.

    Settings come from the product's variables (`CURSOR_API_KEY`, `CURSOR_API_BASE_URL`,
    `CURSOR_MCP_MAX_NEW_AGENTS`, `CURSOR_MCP_MAX_SPEND_CENTS`, `CURSOR_MCP_MAX_ACTIVE_AGENTS`,
    `CURSOR_MCP_STATE_DIR`, `CURSOR_TEAM_ID`), each overridden by the argument of the same meaning.
    The store of paid acts is the one the MCP server and the terminal use, so a script and a server on one
    machine count their creations and spend together.

    Args:
        api_key: The key (else `CURSOR_API_KEY`).
        base_url: The API (else `CURSOR_API_BASE_URL`, else https://api.cursor.com).
        simulated: Run against an in-process simulator instead: no key, no network, no bill; simulated time
            jumps to whatever is waited for, so a run ends as soon as the program waits for it. The store stays
            in memory (simulated agents never count against real ones).
        scenario: The simulated world to start from (`empty`, `demo`, `fleet`, `failing`, ...).
        state_dir: Where the store of paid acts lives (else `CURSOR_MCP_STATE_DIR`); `"memory"` for this
            process only.
        max_new_agents, max_spend_cents, max_active_agents: The user's limits (else their variables).
        team_id: Sent as `x-cursor-team-id` (else `CURSOR_TEAM_ID`).
        settings: Complete settings instead of the environment (the arguments above still apply over them
            only when `settings` is None).
        clock: Wall-clock time and pauses (tests); simulated, the simulator's own.

    Raises:
        ConfigError: a setting cannot be used; the message names the variable.
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        base_url: str | None = None,
        simulated: bool = False,
        scenario: str = "empty",
        state_dir: Path | str | None = None,
        max_new_agents: int | None = None,
        max_spend_cents: float | None = None,
        max_active_agents: int | None = None,
        team_id: str | None = None,
        settings: Settings | None = None,
        clock: Clock | None = None,
    ) -> None:
        overrides = Overrides(api_key, base_url, state_dir, max_new_agents, max_spend_cents, max_active_agents, team_id)
        self.settings = settings if settings is not None else sdk_settings(overrides, simulated=simulated)
        self.simulated = self.settings.simulated
        self.scenario = scenario
        self.redactor = Redactor(self.settings.secrets())
        self._clock = clock
        self._state: CoreState | None = None
        self._exits: AsyncExitStack | None = None
        self._runs: dict[str, str] = {}

    def __repr__(self) -> str:
        where = "simulated" if self.simulated else self.settings.base_url
        return f"AsyncCursor({where}, {'open' if self._state is not None else 'closed'})"

    async def __aenter__(self) -> Self:
        if self._exits is not None:
            raise RuntimeError("this AsyncCursor is already open")
        if not self.simulated and self.settings.key_problem is not None:
            raise ConfigurationError(key_advice(self.settings.key_problem), code="CONFIGURATION_MISSING")
        async with AsyncExitStack() as exits:
            clock = self._clock
            if self.simulated:
                instant = instant_clock()  # the simulator is imported only here: a real program never pays for it

                async def jump(seconds: float) -> None:
                    await instant.wait(instant.now() + seconds)

                clock = Clock(now=instant.now, sleep=jump)
                client = await exits.enter_async_context(
                    open_client(self.settings, redactor=self.redactor, scenario=self.scenario, clock=instant)
                )
            else:
                client = await exits.enter_async_context(open_client(self.settings, redactor=self.redactor))
            # Git reads an attempt's change from the agent's branch (real API only: simulated runs push nowhere).
            places = None if self.simulated else self._git_places()
            self._state = CoreState(self.settings, self.redactor, clock or Clock(), client=client, git_places=places)
            self._exits = exits.pop_all()
        return self

    def _git_places(self) -> GitPlaces:
        from cursor_cloud_agents.core import GitPlaces, cache_dir_for  # git's rules: loaded by a real connection only

        cache = cache_dir_for(self.settings.state_dir)
        return GitPlaces(program_environment(), cache, working_dir=Path.cwd())

    async def aclose(self) -> None:
        """Close the connection (and the simulator); agents and runs go on at Cursor."""
        exits, self._exits, self._state = self._exits, None, None
        if exits is not None:
            await exits.aclose()

    @property
    def state(self) -> CoreState:
        """The core state of this connection (store, limits, clock, client)."""
        if self._state is None:
            raise RuntimeError("open the connection first: `async with AsyncCursor() as cursor:`")
        return self._state

    @property
    def api(self) -> CursorClient:
        """The typed API client underneath."""
        return self.state.api

    def check_key(self, api_key: object) -> None:
        """Refuse an `api_key` argument other than this connection's own (a connection holds one key; Cursor's SDK
        takes the key per call)."""
        if api_key is None:
            return
        held = self.settings.api_key
        if not isinstance(api_key, str) or held is None or api_key.strip() != held.reveal():
            raise refused(
                "api_key differs from the key of client=: a connection holds one key. Pass the key to the "
                "connection (Cursor(api_key=...)), or leave client= out to use one made for this key."
            )

    def remember_run(self, run_id: str, agent_id: str) -> None:
        """Note whose run `run_id` is (Cursor finds a run under its agent; `Agent.get_run(run_id)` asks here)."""
        self._runs[run_id.lower()] = agent_id
        if len(self._runs) > REMEMBERED_RUNS:  # a long program's oldest runs are read with agent_id= instead
            del self._runs[next(iter(self._runs))]

    async def agent_of_run(self, run_id: str, agent_id: object = None) -> str:
        """The agent of `run_id`: `agent_id` when given, else the one this connection or this machine's store of
        paid acts remembers.

        Raises:
            BadRequestError: neither knows it; the message says to pass agent_id=.
        """
        if agent_id is not None:
            if not isinstance(agent_id, str):
                raise refused("agent_id is the run's agent id, a string (bc-...).")
            return agent_id
        known = self._runs.get(run_id.lower())
        if known is None:
            with store_failures():
                reading = await self.state.store.read(self.state.clock.now())
            known = next((act.agent_id for act in reading.acts.values() if act.run_id == run_id and act.agent_id), None)
        if known is None:
            raise refused(
                f"Run {run_id} was not started on this machine, so its agent is not known here: Cursor finds a run "
                "under its agent. Pass agent_id=... (agent.list_runs() lists an agent's runs)."
            )
        return known

    async def _me(self) -> Me:
        with translated(self.redactor):
            return await self.api.me()

    me = either(_me_of, _me)
    """The API key's name and owner: `await cursor.me()`, or `await AsyncCursor.me(client=cursor)` as Cursor's SDK
    calls it."""

    async def _models(self) -> list[Model]:
        with translated(self.redactor):
            return await model_check.models_of(self.api, self.state.models)

    async def _repositories(self) -> list[Repository]:
        with translated(self.redactor):
            return await self.api.list_repositories()

    models = _Catalogue[Model](_models, "models")
    """The models an agent may use (read at most every ten minutes, as the server does): `await cursor.models()`,
    or `await AsyncCursor.models.list(client=cursor)` as Cursor's SDK calls it."""
    repositories = _Catalogue[Repository](_repositories, "repositories")
    """The GitHub repositories of the key (Cursor allows one listing a minute: a cached one within five)."""
