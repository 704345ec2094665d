"""`AsyncCursor`: one connection to Cursor (or to the simulator), with the product's settings, store and limits.

Everything an agent does goes through one of these: the API client, the clock, and the core state the
server and the terminal keep (the store of paid acts shared by every process of the machine, the creation
ledger, the spend and slot limits, the model list). Open it with `async with AsyncCursor() as cursor:`.
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Self

from cursor_cloud_agents.api import CursorClient, Me, Model, Repository
from cursor_cloud_agents.closing import ClosedOnExit
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import Advice, Code, CoreState, Step, ToolFailure
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.embedded import instant_clock, open_client
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.sdk._errors import masked, translated
from cursor_cloud_agents.sdk._settings import Overrides, sdk_settings


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

    def __repr__(self) -> str:
        where = "simulated" if self.simulated else self.settings.base_url
        return f"AsyncCursor({where}, {'open' if self._state is not None else 'closed'})"

    async def __aenter__(self) -> Self:
        if self._exits is not None:
            raise RuntimeError("this AsyncCursor is already open")
        if not self.simulated and self.settings.key_problem is not None:  # said as it is, with where to give it
            problem = ToolFailure(Code.CONFIGURATION_MISSING, self.settings.key_problem, advice=Advice(Step.SET_KEY))
            raise masked(problem, self.redactor)
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
            self._state = CoreState(self.settings, self.redactor, clock or Clock(), client=client)
            self._exits = exits.pop_all()
        return self

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

    async def me(self) -> Me:
        """The API key's name and owner."""
        with translated(self.redactor):
            return await self.api.me()

    async def models(self) -> list[Model]:
        """The models an agent may use (read at most every ten minutes, as the server does)."""
        with translated(self.redactor):
            return await model_check.models_of(self.api, self.state.models)

    async def repositories(self) -> list[Repository]:
        """The GitHub repositories of the key (Cursor allows one listing a minute: a cached one within five)."""
        with translated(self.redactor):
            return await self.api.list_repositories()
