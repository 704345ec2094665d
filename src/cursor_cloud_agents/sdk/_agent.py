"""`AsyncAgent`: a cloud agent a program creates, prompts, follows up and reads, through the core's paid path.

`AsyncAgent.create` sends nothing: it checks the options and mints the agent's id (`bc-<uuid>`), so the id
is known before any request and a lost answer can be settled by it. The first `send` creates the agent with
its prompt (`POST /v1/agents`, through `core.paid.create_within_limits`: the creation limit, the agents
running, the spend limit, the store shared with the server); every later `send` is a follow-up
(`POST /v1/agents/{id}/runs`, through `core.followups.follow_up_within_limits`). Either, its answer lost, is
asked again until settled (`core.settling`), never paid twice. Local agents are not here: they run in
Cursor's own runtime on this machine, which Python cannot reach.

The calls take Cursor's SDK's shapes too (`sdk/_shapes.py`): an options mapping positionally or by keyword,
`model` as an id, a mapping or a `ModelSelection`, a message as a string or `{"text": ...}`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict

import anyio

from cursor_cloud_agents.api import (
    Agent,
    AgentSummary,
    Artifact,
    CreateAgentRequest,
    CreatedAgent,
    ModelSelection,
    Prompt,
    Run,
    Usage,
    ids,
)
from cursor_cloud_agents.core import (
    ToolFailure,
    agent_request,
    create_within_limits,
    creation,
    failures,
    follow_up_within_limits,
    run_request,
    settled,
)
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._dual import either
from cursor_cloud_agents.sdk._errors import AgentNotFoundError, refused, translated
from cursor_cloud_agents.sdk._options import CloudAgentOptions, CloudOptions, Placement, placement
from cursor_cloud_agents.sdk._results import AsyncListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._shapes import (
    AgentOptions,
    ModelChoice,
    SendOptions,
    agent_id_of_key,
    agent_options,
    message_text,
    model_wanted,
    send_options,
)

ModelParams = Mapping[str, str]
Options = AgentOptions | Mapping[str, Any] | None
"""A new agent's options as Cursor's SDK passes them: a mapping (snake_case or camelCase keys) or `AgentOptions`."""


class NewAgent(TypedDict, total=False):
    """The keyword options of a new agent, as `AsyncAgent.create` takes them and documents them (its sync twin
    `Agent.create` passes them on as they are)."""

    model: ModelChoice | None
    model_params: ModelParams | None
    name: str | None
    cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None
    agent_id: str | None
    idempotency_key: str | None
    api_key: str | None
    local: object


def _agent_id(chosen: Mapping[str, Any]) -> str:
    given, key = chosen.get("agent_id"), chosen.get("idempotency_key")
    from_key = None if key is None else agent_id_of_key(key)
    if given is not None and from_key is not None and str(given).lower() != from_key:
        raise refused("agent_id and idempotency_key name two agents: pass one of them.")
    if given is not None:
        return ids.agent_id(given)
    return from_key or ids.mint_agent_id()


async def _list_runs_of(
    agent_id: str,
    options: Mapping[str, Any] | None = None,
    *,
    client: AsyncCursor,
    limit: int | None = None,
    cursor: str | None = None,
) -> AsyncListResult[AsyncRun]:
    """One page of the runs of the agent `agent_id` (`AsyncAgent.list_runs` read on the class)."""
    return await _runs_of(client, agent_id, options, limit=limit, cursor=cursor)


class AsyncAgent:
    """A cloud agent. Make one with `create` (nothing sent until the first `send`) or `resume` (an existing one).

    Attributes:
        agent_id: Its id, minted before any request.
        model: The model of the next send: the one given to `create`, replaced by each `send(model=...)`.
    """

    def __init__(
        self,
        cursor: AsyncCursor,
        agent_id: str,
        *,
        name: str | None = None,
        model: ModelSelection | None = None,
        placement: Placement | None = None,
        created: bool = True,
    ) -> None:
        self._cursor = cursor
        self.agent_id = agent_id
        self.name = name
        self.model = model
        self._placement = placement or Placement([], None)
        self._created = created
        self._sending = anyio.Lock()  # one paid act of this agent at a time

    def __repr__(self) -> str:
        return f"AsyncAgent({self.agent_id}{'' if self._created else ', not created yet'})"

    @property
    def client(self) -> AsyncCursor:
        """The connection this agent uses."""
        return self._cursor

    async def __aenter__(self) -> AsyncAgent:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Nothing to release (the connection is the cursor's); kept for code written for Cursor's SDK."""

    # --- making and finding agents --------------------------------------------------------------

    @classmethod
    async def create(
        cls,
        options: Options = None,
        *,
        client: AsyncCursor,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None = None,
        agent_id: str | None = None,
        idempotency_key: str | None = None,
        api_key: str | None = None,
        local: object = None,
    ) -> AsyncAgent:
        """A new cloud agent, checked and given its id; nothing is sent (and nothing paid) until `send`.

        Args:
            options: The same options as one mapping (or `AgentOptions`), as Cursor's SDK takes them; the keywords
                below win over it.
            client: The connection.
            model: A model id or alias, `{"id": ..., "params": [{"id": ..., "value": ...}]}` or a `ModelSelection`
                (checked against `Cursor.models.list()`); None: the account's default.
            model_params: The model's parameters (e.g. `{"effort": "high"}`), checked against its variants.
            name: A name shown in Cursor's dashboard.
            cloud: Repositories and environment (`{"repos": [{"url": ...}], "env": {"type": "cloud"}}`);
                None or no repositories: an agent on an empty VM.
            agent_id: Your own id (`bc-<uuid>`), so that a script run again asks for the same agent (the API
                refuses a second agent of one id); None mints one.
            idempotency_key: Any string standing for the agent: the same key gives the same agent id, so the
                agent is never made twice (instead of `agent_id`).
            api_key: Only the connection's own key (a connection holds one key).
            local: Refused: local agents are not reachable from Python.

        Raises:
            BadRequestError: (VALIDATION) naming what to change; nothing was sent.
        """
        keywords = {
            "model": model,
            "model_params": model_params,
            "name": name,
            "cloud": cloud,
            "agent_id": agent_id,
            "idempotency_key": idempotency_key,
            "api_key": api_key,
            "local": local,
        }
        with translated(client.redactor):
            chosen = agent_options(options, keywords)
            client.check_key(chosen.get("api_key"))
            where = placement(chosen.get("cloud"))
            model_id, params = model_wanted(chosen.get("model"), chosen.get("model_params"))
            selected = await model_check.selection(client.api, client.state.models, model_id, None, params)
            agent_name = creation.agent_name(chosen.get("name"))
            made = cls(client, _agent_id(chosen), name=agent_name, model=selected, placement=where, created=False)
            made.creation(Prompt(text="-"))  # the request's own limits (the name's length...), checked now
            return made

    @classmethod
    async def resume(
        cls,
        agent_id: str,
        options: Options = None,
        *,
        client: AsyncCursor,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        api_key: str | None = None,
    ) -> AsyncAgent:
        """An existing agent, read now, to follow up (`send`) or read. `model` is the model of its next sends
        (None: the agent's own); `name` and `cloud` in `options` are the agent's already and are not changed."""
        with translated(client.redactor, AgentNotFoundError):
            chosen = agent_options(options, {"model": model, "model_params": model_params, "api_key": api_key})
            client.check_key(chosen.get("api_key"))
            agent = await client.api.get_agent(agent_id)
            model_id, params = model_wanted(chosen.get("model"), chosen.get("model_params"))
            selected = await model_check.selection(client.api, client.state.models, model_id, None, params)
        return cls(client, agent.id, name=agent.name, model=selected)

    @classmethod
    async def get(cls, agent_id: str, *, client: AsyncCursor, api_key: str | None = None) -> Agent:
        """An agent's record: status, name, repositories, latest run, URL."""
        with translated(client.redactor, AgentNotFoundError):
            client.check_key(api_key)
            return await client.api.get_agent(agent_id)

    @classmethod
    async def list(
        cls,
        options: Mapping[str, Any] | None = None,
        *,
        client: AsyncCursor,
        limit: int | None = None,
        cursor: str | None = None,
        include_archived: bool | None = None,
        runtime: str | None = None,
        api_key: str | None = None,
    ) -> AsyncListResult[AgentSummary]:
        """One page of the key's agents, newest first; pass `next_cursor` back as `cursor` (or call
        `page.get_next_page()`) for the next. `runtime` may be "cloud" (the only kind here)."""
        with translated(client.redactor):
            given = _listing(options, limit=limit, cursor=cursor, include_archived=include_archived, runtime=runtime)
            client.check_key(api_key if api_key is not None else given.pop("api_key", None))
            page = await client.api.list_agents(
                limit=given.get("limit"), cursor=given.get("cursor"), include_archived=given.get("include_archived")
            )

        async def following(next_cursor: str) -> AsyncListResult[AgentSummary]:
            return await cls.list(given | {"cursor": next_cursor}, client=client)

        return AsyncListResult(page.items, page.next_cursor, following)

    @classmethod
    async def get_run(
        cls,
        run_id: str,
        options: Mapping[str, Any] | None = None,
        *,
        client: AsyncCursor,
        agent_id: str | None = None,
    ) -> AsyncRun:
        """A run, read now. Cursor finds a run under its agent: pass `agent_id=` (or `{"agent_id": ...}`) unless the
        run was started on this machine or this connection, which remember it."""
        with translated(client.redactor):
            owner = await client.agent_of_run(run_id, agent_id or dict(options or {}).get("agent_id"))
        return await AsyncRun.get(owner, run_id, client=client)

    @classmethod
    async def cancel_run(cls, run_id: str, *, client: AsyncCursor, agent_id: str | None = None) -> None:
        """Ask Cursor to stop a run (nothing sent when it has ended); `agent_id=` as for `get_run`."""
        await (await cls.get_run(run_id, client=client, agent_id=agent_id)).cancel()

    @classmethod
    async def prompt(
        cls,
        message: object,
        options: Options = None,
        *,
        client: AsyncCursor,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None = None,
    ) -> RunResult:
        """One shot: create an agent with `message` and wait for its run's result."""
        text = message_text(message)  # refused before the model list is read
        agent = await cls.create(options, client=client, model=model, model_params=model_params, name=name, cloud=cloud)
        run = await agent.send(text)
        return await run.wait()

    @classmethod
    async def archive(cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: AsyncCursor) -> None:
        """Archive an agent (it stays readable; `unarchive` brings it back)."""
        del options  # Cursor's SDK takes options here for local agents; none apply to a cloud agent
        with translated(client.redactor, AgentNotFoundError):
            await client.api.archive_agent(agent_id)

    @classmethod
    async def unarchive(cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: AsyncCursor) -> None:
        """Unarchive an agent."""
        del options
        with translated(client.redactor, AgentNotFoundError):
            await client.api.unarchive_agent(agent_id)

    @classmethod
    async def delete(cls, agent_id: str, options: Mapping[str, Any] | None = None, *, client: AsyncCursor) -> None:
        """Delete an agent, for good."""
        del options
        with translated(client.redactor, AgentNotFoundError):
            await client.api.delete_agent(agent_id)

    # Cursor's SDK names these with the noun; the same calls.
    archive_agent = archive
    unarchive_agent = unarchive
    delete_agent = delete

    # --- prompting ------------------------------------------------------------------------------

    async def send(
        self,
        message: object,
        options: SendOptions | Mapping[str, Any] | None = None,
        *,
        model: ModelChoice | None = None,
        model_params: ModelParams | None = None,
        idempotency_key: str | None = None,
    ) -> AsyncRun:
        """Start a run with `message` (a string, `{"text": ...}` or `UserMessage`): the agent's creation the first
        time, a follow-up after.

        `model` (with `model_params`; or in `options`) changes the model of this run and of the later ones.
        `idempotency_key` is accepted for Cursor's SDK's code: a send is never paid twice without it.

        Raises:
            BadRequestError: (VALIDATION) the message or an option; RateLimitError: LIMIT_REACHED (creations in 24
                hours, or the spend), CAPACITY (agents running); AgentBusyError: a run is still active (wait for it
                or cancel it); nothing was sent. NetworkError (MUTATION_OUTCOME_UNKNOWN) only when its outcome
                stayed unknown for minutes.
        """
        state = self._cursor.state
        with translated(self._cursor.redactor, AgentNotFoundError):
            prompt = Prompt(text=message_text(message))
            keywords = {"model": model, "model_params": model_params, "idempotency_key": idempotency_key}
            chosen = send_options(options, keywords)
            model_id, params = model_wanted(chosen.get("model"), chosen.get("model_params"))
            if model_id is not None or params:
                self.model = await model_check.selection(state.api, state.models, model_id, None, params)
            async with self._sending:
                run = await (self._follow_up(prompt) if self._created else self._create(prompt))
        return AsyncRun(self._cursor, self.agent_id, run, self.model)

    def creation(self, prompt: Prompt) -> CreateAgentRequest:
        """The request that creates this agent with `prompt` (its first run)."""
        return agent_request(  # the one builder: never on the starting branch, the name under its rule
            prompt,
            agent_id=self.agent_id,
            name=self.name,
            model=self.model,
            env=self._placement.env,
            repos=self._placement.repos or (),
        )

    async def _create(self, prompt: Prompt) -> Run:
        state = self._cursor.state
        request = self.creation(prompt)
        made = await settled(lambda: create_within_limits(state, request), state.clock)
        self._created = True
        if isinstance(made, CreatedAgent):
            return made.run
        # An earlier identical creation, its answer lost: its first run is the agent's latest.
        if made.latest_run_id is None:
            made = await state.api.get_agent(self.agent_id)
        if made.latest_run_id is None:
            raise ToolFailure(
                failures.MUTATION_OUTCOME_UNKNOWN,
                f"Agent {self.agent_id} was created but shows no run yet; read it again in a moment.",
                agent_id=self.agent_id,
            )
        return await state.api.get_run(self.agent_id, made.latest_run_id)

    async def _follow_up(self, prompt: Prompt) -> Run:
        state = self._cursor.state
        request = run_request(prompt, self.model)

        async def once() -> Run:
            agent = await state.api.get_agent(self.agent_id)  # read again each time: its latest run settles a lost one
            return (await follow_up_within_limits(state, agent, request)).run

        return await settled(once, state.clock)

    # --- reading --------------------------------------------------------------------------------

    async def reload(self) -> Agent:
        """The agent's record, read now."""
        return await AsyncAgent.get(self.agent_id, client=self._cursor)

    async def _list_runs_of_this(
        self, options: Mapping[str, Any] | None = None, *, limit: int | None = None, cursor: str | None = None
    ) -> AsyncListResult[AsyncRun]:
        return await _runs_of(self._cursor, self.agent_id, options, limit=limit, cursor=cursor)

    list_runs = either(_list_runs_of, _list_runs_of_this)
    """One page of an agent's runs, newest first: `AsyncAgent.list_runs(agent_id, client=...)` as Cursor's SDK
    calls it, or `agent.list_runs()` on an agent (`limit=`, `cursor=`, or `page.get_next_page()`)."""

    async def list_artifacts(self) -> list[Artifact]:
        """The files the agent left under `artifacts/` (Cursor's list is often empty even when files exist:
        `download_artifact` takes a path you know)."""
        with translated(self._cursor.redactor):
            return await self._cursor.api.list_artifacts(self.agent_id)

    async def download_artifact(self, path: str) -> bytes:
        """The bytes of one artifact (`artifacts/...`), fetched from its presigned URL without the key.

        Raises:
            ToolFailure: VALIDATION for a path outside `artifacts/`; ARTIFACT_URL_REFUSED for a URL the artifact
                policy refuses (nothing fetched); NOT_FOUND.
        """
        api = self._cursor.api
        with translated(self._cursor.redactor):
            try:
                link = await api.artifact_download(self.agent_id, path)
            except ValueError as bad:
                raise refused(f"Artifact path {path!r}: {bad}.") from None
            return await api.download_artifact(link.url)

    async def get_usage(self, *, run_id: str | None = None) -> Usage:
        """Tokens and cost of the agent, or of one run."""
        with translated(self._cursor.redactor):
            return await self._cursor.api.get_usage(self.agent_id, run_id=run_id)


async def _runs_of(
    client: AsyncCursor, agent_id: str, options: Mapping[str, Any] | None, *, limit: int | None, cursor: str | None
) -> AsyncListResult[AsyncRun]:
    with translated(client.redactor, AgentNotFoundError):
        given = _listing(options, limit=limit, cursor=cursor)
        page = await client.api.list_runs(agent_id, limit=given.get("limit"), cursor=given.get("cursor"))

    async def following(next_cursor: str) -> AsyncListResult[AsyncRun]:
        return await _runs_of(client, agent_id, given, limit=None, cursor=next_cursor)

    return AsyncListResult([AsyncRun(client, agent_id, run) for run in page.items], page.next_cursor, following)


_LISTING_KEYS = {"limit", "cursor", "include_archived", "runtime", "api_key"}


def _listing(options: Mapping[str, Any] | None, **keywords: Any) -> dict[str, Any]:
    """A listing's options: the mapping (snake_case or camelCase, as Cursor's SDK takes them) with the keywords
    over it; only cloud agents are listed here."""
    given = {
        ("include_archived" if key == "includeArchived" else "api_key" if key == "apiKey" else key): value
        for key, value in dict(options or {}).items()
    }
    given |= {key: value for key, value in keywords.items() if value is not None}
    unknown = sorted(set(given) - _LISTING_KEYS)
    if unknown:
        raise refused(f"the listing has unknown options {unknown}; known: {sorted(_LISTING_KEYS)}.")
    runtime = given.pop("runtime", None)
    if runtime not in (None, "cloud", "RUNTIME_CLOUD", "auto", "RUNTIME_AUTO"):
        raise refused(
            f"runtime={runtime!r}: only cloud agents are listed by this SDK (local agents are Cursor's "
            "runtime's); leave runtime out or pass 'cloud'."
        )
    return {key: value for key, value in given.items() if value is not None}
