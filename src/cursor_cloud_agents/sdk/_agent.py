"""`AsyncAgent`: a cloud agent a program creates, prompts, follows up and reads, through the core's paid path.

`AsyncAgent.create` sends nothing: it checks the options and mints the agent's id (`bc-<uuid>`), so the id
is known before any request and a lost answer can be settled by it. The first `send` creates the agent with
its prompt (`POST /v1/agents`, through `core.paid.create_within_limits`: the creation limit, the agents
running, the spend limit, the store shared with the server); every later `send` is a follow-up
(`POST /v1/agents/{id}/runs`, through `core.followups.follow_up_within_limits`). Either, its answer lost, is
asked again until settled (`core.settling`), never paid twice. Local agents are not here: they run in
Cursor's own runtime on this machine, which Python cannot reach.
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
    follow_up_request,
    follow_up_within_limits,
    prompt_of,
    settled,
)
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._errors import translated
from cursor_cloud_agents.sdk._options import CloudOptions, Placement, placement
from cursor_cloud_agents.sdk._results import ListResult, RunResult
from cursor_cloud_agents.sdk._run import AsyncRun

ModelParams = Mapping[str, str]


def _refuse(message: str) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, message + " Nothing was sent.")


def _prompt(message: str) -> Prompt:
    """The prompt, under the rules for text sent upstream that every face applies (`core/request/builder.py`)."""
    if not isinstance(message, str) or not message.strip():  # pyright: ignore[reportUnnecessaryIsInstance] -- a program may pass anything
        raise _refuse("The message is empty: say what the agent should do.")
    return prompt_of(message)


def _no_local(local: object) -> None:
    if local is not None:
        raise _refuse(
            "Local agents run in Cursor's own runtime on this machine, which this SDK cannot reach: "
            "pass cloud=... (or nothing) for a cloud agent."
        )


class NewAgent(TypedDict, total=False):
    """The options of a new agent, as `AsyncAgent.create` takes them and documents them (its sync twin
    `Agent.create` passes them on as they are)."""

    model: str | None
    model_params: ModelParams | None
    name: str | None
    cloud: CloudOptions | Mapping[str, Any] | None
    agent_id: str | None
    local: object


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
        *,
        client: AsyncCursor,
        model: str | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | Mapping[str, Any] | None = None,
        agent_id: str | None = None,
        local: object = None,
    ) -> AsyncAgent:
        """A new cloud agent, checked and given its id; nothing is sent (and nothing paid) until `send`.

        Args:
            client: The connection.
            model: A model id or alias (checked against `Cursor.models()`); None: the account's default.
            model_params: The model's parameters (e.g. `{"effort": "high"}`), checked against its variants.
            name: A name shown in Cursor's dashboard.
            cloud: Repositories and environment (`{"repos": [{"url": ...}], "env": {"type": "cloud"}}`);
                None or no repositories: an agent on an empty VM.
            agent_id: Your own id (`bc-<uuid>`), so that a script run again asks for the same agent (the API
                refuses a second agent of one id); None mints one.
            local: Refused: local agents are not reachable from Python.

        Raises:
            ToolFailure: VALIDATION naming what to change.
        """
        _no_local(local)
        with translated(client.redactor):
            where = placement(cloud)
            chosen = await model_check.selection(client.api, client.state.models, model, None, model_params)
            minted = ids.mint_agent_id() if agent_id is None else ids.agent_id(agent_id)
            agent = cls(client, minted, name=creation.agent_name(name), model=chosen, placement=where, created=False)
            agent.creation(Prompt(text="-"))  # the request's own limits (the name's length...), checked now
            return agent

    @classmethod
    async def resume(cls, agent_id: str, *, client: AsyncCursor, model: str | None = None) -> AsyncAgent:
        """An existing agent, read now, to follow up (`send`) or read."""
        with translated(client.redactor):
            agent = await client.api.get_agent(agent_id)
            chosen = await model_check.selection(client.api, client.state.models, model, None, None)
        return cls(client, agent.id, name=agent.name, model=chosen)

    @classmethod
    async def get(cls, agent_id: str, *, client: AsyncCursor) -> Agent:
        """An agent's record: status, name, repositories, latest run, URL."""
        with translated(client.redactor):
            return await client.api.get_agent(agent_id)

    @classmethod
    async def list(
        cls,
        *,
        client: AsyncCursor,
        limit: int | None = None,
        cursor: str | None = None,
        include_archived: bool | None = None,
    ) -> ListResult[AgentSummary]:
        """One page of the key's agents, newest first; pass `next_cursor` back as `cursor` for the next."""
        with translated(client.redactor):
            page = await client.api.list_agents(limit=limit, cursor=cursor, include_archived=include_archived)
        return ListResult(page.items, page.next_cursor)

    @classmethod
    async def prompt(
        cls,
        message: str,
        *,
        client: AsyncCursor,
        model: str | None = None,
        model_params: ModelParams | None = None,
        name: str | None = None,
        cloud: CloudOptions | Mapping[str, Any] | None = None,
    ) -> RunResult:
        """One shot: create an agent with `message` and wait for its run's result."""
        agent = await cls.create(client=client, model=model, model_params=model_params, name=name, cloud=cloud)
        run = await agent.send(message)
        return await run.wait()

    @classmethod
    async def archive(cls, agent_id: str, *, client: AsyncCursor) -> None:
        """Archive an agent (it stays readable; `unarchive` brings it back)."""
        with translated(client.redactor):
            await client.api.archive_agent(agent_id)

    @classmethod
    async def unarchive(cls, agent_id: str, *, client: AsyncCursor) -> None:
        """Unarchive an agent."""
        with translated(client.redactor):
            await client.api.unarchive_agent(agent_id)

    @classmethod
    async def delete(cls, agent_id: str, *, client: AsyncCursor) -> None:
        """Delete an agent, for good."""
        with translated(client.redactor):
            await client.api.delete_agent(agent_id)

    # Cursor's SDK names these with the noun; the same calls.
    archive_agent = archive
    unarchive_agent = unarchive
    delete_agent = delete

    # --- prompting ------------------------------------------------------------------------------

    async def send(
        self, message: str, *, model: str | None = None, model_params: ModelParams | None = None
    ) -> AsyncRun:
        """Start a run with `message`: the agent's creation the first time, a follow-up after.

        `model` (with `model_params`) changes the model of this run and of the later ones.

        Raises:
            ToolFailure: VALIDATION; LIMIT_REACHED (creations in 24 hours, or the spend), CAPACITY (agents running),
                AGENT_BUSY (a run is still active: wait for it or cancel it), CONTINUATION_REFUSED; nothing was
                sent. MUTATION_OUTCOME_UNKNOWN only when its outcome stayed unknown for minutes.
        """
        prompt = _prompt(message)
        state = self._cursor.state
        with translated(self._cursor.redactor):
            if model is not None or model_params:
                self.model = await model_check.selection(state.api, state.models, model, None, model_params)
            async with self._sending:
                run = await (self._follow_up(prompt) if self._created else self._create(prompt))
        return AsyncRun(self._cursor, self.agent_id, run)

    def creation(self, prompt: Prompt) -> CreateAgentRequest:
        """The request that creates this agent with `prompt` (its first run), built as every face builds one."""
        return agent_request(
            prompt,
            agent_id=self.agent_id,
            name=self.name,
            model=self.model,
            env=self._placement.env,
            repos=self._placement.repos,
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
        request = follow_up_request(prompt.text, model=self.model)

        async def once() -> Run:
            agent = await state.api.get_agent(self.agent_id)  # read again each time: its latest run settles a lost one
            return (await follow_up_within_limits(state, agent, request)).run

        return await settled(once, state.clock)

    # --- reading --------------------------------------------------------------------------------

    async def reload(self) -> Agent:
        """The agent's record, read now."""
        return await AsyncAgent.get(self.agent_id, client=self._cursor)

    async def list_runs(self, *, limit: int | None = None, cursor: str | None = None) -> ListResult[AsyncRun]:
        """One page of the agent's runs, newest first."""
        with translated(self._cursor.redactor):
            page = await self._cursor.api.list_runs(self.agent_id, limit=limit, cursor=cursor)
        return ListResult([AsyncRun(self._cursor, self.agent_id, run) for run in page.items], page.next_cursor)

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
                raise _refuse(f"Artifact path {path!r}: {bad}.") from None
            return await api.download_artifact(link.url)

    async def get_usage(self, *, run_id: str | None = None) -> Usage:
        """Tokens and cost of the agent, or of one run."""
        with translated(self._cursor.redactor):
            return await self._cursor.api.get_usage(self.agent_id, run_id=run_id)
