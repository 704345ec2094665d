"""`CursorClient`: every endpoint of the Cursor Cloud Agents API v1 the tools need, typed.

Each method is a path, its parameters and its answer model; the engine (`_core`) holds the rules
(deadlines, limiter, retries for reads, outcome-unknown for mutations). Ids are checked before any
path is built. The client takes explicit arguments and never reads the environment.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Self, Unpack

import anyio

from cursor_cloud_agents.api import ids, text
from cursor_cloud_agents.api._artifacts import ArtifactFetcher, Resolver, system_resolver
from cursor_cloud_agents.api._core import RequestEngine
from cursor_cloud_agents.api._http import HttpSession, Transport
from cursor_cloud_agents.api._repositories import RepositoriesCache
from cursor_cloud_agents.api._setup import check_base_url, fixed_headers, query
from cursor_cloud_agents.api.deadline import (
    ARTIFACT_CAP_SECONDS,
    CREATE_CAP_SECONDS,
    REPOSITORIES_CACHE_SECONDS,
    REPOSITORIES_CAP_SECONDS,
)
from cursor_cloud_agents.api.errors import ConfigurationMissingError
from cursor_cloud_agents.api.models.account import Me, Model, ModelList, Repository, RepositoryList
from cursor_cloud_agents.api.models.agents import Agent, AgentSummary, CreatedAgent
from cursor_cloud_agents.api.models.artifacts import Artifact, ArtifactDownload, ArtifactList
from cursor_cloud_agents.api.models.common import Page
from cursor_cloud_agents.api.models.conversation import Conversation
from cursor_cloud_agents.api.models.environments import Environment
from cursor_cloud_agents.api.models.misc import IdResponse
from cursor_cloud_agents.api.models.requests import CreateAgentRequest, CreateRunRequest
from cursor_cloud_agents.api.models.runs import CreatedRun, Run
from cursor_cloud_agents.api.models.usage import Usage
from cursor_cloud_agents.api.record import Observer
from cursor_cloud_agents.api.stream import RunStream, open_run_stream
from cursor_cloud_agents.api.walk import BlockConsumer, ReplayConsumer, ReplayLimits, ReplayOutcome, walk_replay
from cursor_cloud_agents.closing import ClosedOnExit
from cursor_cloud_agents.guards.net import loopback_origin

ARTIFACT_TEXT_CAP_BYTES = 5 * 1024 * 1024


# One supervision pass over a 500-agent fleet: five list pages and a read of each latest run, plus margin.
DEFAULT_BURST = 600.0


class CursorClient(ClosedOnExit):
    """A typed async client of the Cursor Cloud Agents API v1, with one long-lived connection pool.

    Use it as `async with CursorClient(...) as client:` or call `aclose()`.

    Args:
        base_url: `https://api.cursor.com`, or `http://127.0.0.1:<port>` for the simulator.
        api_key: The key, sent as `Authorization: Bearer`; None means every call raises
            ConfigurationMissingError before sending anything.
        transport: An httpx2 async transport (MockTransport, the simulator); None for the network.
        artifact_transport: The transport for presigned artifact URLs.
        artifact_host_suffixes: Hosts a presigned URL may point to.
        allow_loopback_artifacts: Accept artifact URLs at the API base's own origin (scheme, host and port) when
            that base is on loopback, as the simulator's is; no other loopback host or port, and nothing more
            for a base that is not on loopback.
        artifact_resolver: An artifact host's addresses (system resolver; injected in tests), each checked.
        requests_per_second: The sustained client-side rate (token bucket refill), 10 by default.
        burst: How many requests may go at once before the rate applies. The default lets one
            supervision pass over a 500-agent fleet run at full speed; a runaway loop is still held
            to `requests_per_second` once the burst is spent.
        clock: Monotonic seconds for the limiter and the repositories cache (injected in tests).
        wall_clock: Unix seconds, for `Retry-After` dates and the stream's connection time.
        sleep: How to wait (injected in tests so nothing really sleeps).
        max_connections: The requests in flight at once (one per connection): 8 by default, whatever the
            number of tool calls waiting (docs/reliability.md F-28). A stream whose replay went quiet and
            that is only listened to may hand its slot on and hold one of `LISTENING_STREAMS` more (F-45).
        team_id: Sent as `x-cursor-team-id` on every request (the official SDK's header for its `teamId`).
        observer: Hears every exchange (recording, `verify`); see `cursor_cloud_agents.api.record`.
        silence_scale: Real seconds per second of a replay walk's silences (`api.walk`): 1; tests against the
            simulator shorten them (its pauses scaled alike) so that no test waits 1.5 s of real time.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        transport: Transport | None = None,
        artifact_transport: Transport | None = None,
        artifact_host_suffixes: Sequence[str] = (".amazonaws.com",),
        allow_loopback_artifacts: bool = False,
        artifact_resolver: Resolver = system_resolver,
        requests_per_second: float = 10.0,
        burst: float = DEFAULT_BURST,
        clock: Callable[[], float] | None = None,
        wall_clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        max_connections: int = 8,
        team_id: str | None = None,
        observer: Observer | None = None,
        silence_scale: float = 1.0,
    ) -> None:
        if not 0 < silence_scale <= 1:
            raise ValueError(f"silence_scale is a share of real time, above 0 and at most 1: not {silence_scale}")
        self._api_key = api_key
        self._base_url = base_url.rstrip("/")
        self._silence_scale = silence_scale
        self._clock = clock or time.monotonic
        self._wall_clock = wall_clock or time.time
        session = HttpSession(
            base_url=check_base_url(base_url),
            headers=fixed_headers(api_key, team_id=team_id),
            transport=transport,
            max_connections=max(1, max_connections),
            observer=observer,
        )
        self._engine = RequestEngine(
            session,
            requests_per_second=requests_per_second,
            burst=burst,
            clock=self._clock,
            wall_clock=self._wall_clock,
            sleep=sleep or anyio.sleep,
            secret=api_key,
        )
        self._artifacts = ArtifactFetcher(
            transport=artifact_transport,
            host_suffixes=tuple(artifact_host_suffixes),
            loopback=loopback_origin(base_url) if allow_loopback_artifacts else None,
            resolver=artifact_resolver,
        )
        self._repositories = RepositoriesCache(clock=self._clock, ttl=REPOSITORIES_CACHE_SECONDS)

    @property
    def base_url(self) -> str:
        """The API's base URL (a simulated session's GitHub stand-in is served beside it)."""
        return self._base_url

    async def __aenter__(self) -> Self:
        return self

    async def aclose(self) -> None:
        """Close both connection pools."""
        await self._engine.session.aclose()
        await self._artifacts.aclose()

    def _need_key(self) -> None:
        if self._api_key is None:
            raise ConfigurationMissingError("no Cursor API key is configured; nothing was sent")

    # --- account -------------------------------------------------------------------------------

    async def me(self) -> Me:
        """The API key's name and owner (`GET /v1/me`)."""
        self._need_key()
        return await self._engine.read("/v1/me", Me)

    async def list_models(self) -> list[Model]:
        """Models usable on create (`GET /v1/models`)."""
        self._need_key()
        return (await self._engine.read("/v1/models", ModelList)).items

    async def list_repositories(self) -> list[Repository]:
        """GitHub repositories of the key (`GET /v1/repositories`), from a 5-minute cache.

        The API allows 1 call per minute and 30 per hour; this client keeps under both and never waits
        for them.

        Raises:
            RateLimitError: code `client_rate_limited` when the local limit refuses, with `retry_after`.
        """
        self._need_key()
        return await self._repositories.get(self._fetch_repositories)

    async def _fetch_repositories(self) -> list[Repository]:
        # One attempt: a retry would break the 1/minute limit.
        listed = await self._engine.read(
            "/v1/repositories", RepositoryList, cap=REPOSITORIES_CAP_SECONDS, max_attempts=1
        )
        return listed.items

    # --- agents --------------------------------------------------------------------------------

    async def list_agents(
        self,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        pr_url: str | None = None,
        include_archived: bool | None = None,
    ) -> Page[AgentSummary]:
        """One page of agents (`GET /v1/agents`); pass `next_cursor` back as `cursor`."""
        self._need_key()
        params = query(limit=limit, cursor=cursor, prUrl=pr_url, includeArchived=include_archived)
        return await self._engine.read("/v1/agents", Page[AgentSummary], params=params)

    async def get_agent(self, agent_id: str) -> Agent:
        """The full agent record (`GET /v1/agents/{id}`)."""
        agent = ids.agent_id(agent_id)
        self._need_key()
        return await self._engine.read(f"/v1/agents/{agent}", Agent)

    async def create_agent(self, body: CreateAgentRequest) -> CreatedAgent:
        """Create an agent and its first run (`POST /v1/agents`), sent exactly once.

        Without `agent_id` (and without `env_vars`, which the API forbids with it), an id is minted
        here, so an unknown outcome can always be resolved by reading that agent.

        Raises:
            MutationOutcomeUnknownError: it may have been created; read `context.ids["agent_id"]`.
            AgentIdConflictError: an agent with this id exists (an earlier attempt succeeded).
        """
        self._need_key()
        if body.agent_id is None and body.env_vars is None:
            body = body.model_copy(update={"agent_id": ids.mint_agent_id()})
        known: dict[str, str] = {}
        if body.agent_id is not None:
            known["agent_id"] = ids.agent_id(body.agent_id)
            body = body.model_copy(update={"agent_id": known["agent_id"]})
        if body.name is not None:
            known["name"] = body.name
        expected = known.get("agent_id")
        return await self._engine.mutate(
            "POST",
            "/v1/agents",
            CreatedAgent,
            ids=known,
            body=body.wire(),
            cap=CREATE_CAP_SECONDS,
            check=lambda created: expected is None or created.agent.id.lower() == expected,
        )

    async def archive_agent(self, agent_id: str) -> str:
        """Archive an agent (idempotent); returns its id."""
        return await self._agent_action(agent_id, "POST", "/archive")

    async def unarchive_agent(self, agent_id: str) -> str:
        """Unarchive an agent (idempotent); returns its id."""
        return await self._agent_action(agent_id, "POST", "/unarchive")

    async def delete_agent(self, agent_id: str) -> str:
        """Delete an agent, irreversibly; returns its id."""
        return await self._agent_action(agent_id, "DELETE", "")

    async def _agent_action(self, agent_id: str, method: str, suffix: str) -> str:
        agent = ids.agent_id(agent_id)
        self._need_key()
        answer = await self._engine.mutate(
            method,
            f"/v1/agents/{agent}{suffix}",
            IdResponse,
            ids={"agent_id": agent},
            check=lambda answered: answered.id.lower() == agent,
        )
        return answer.id.lower()

    # --- runs ----------------------------------------------------------------------------------

    async def create_run(self, agent_id: str, body: CreateRunRequest, *, previous_run_id: str | None = None) -> Run:
        """Start a follow-up run (`POST /v1/agents/{id}/runs`), sent exactly once.

        Args:
            agent_id: The agent.
            body: The follow-up prompt and options.
            previous_run_id: The agent's latest run before this call: if the outcome is unknown, a
                different `latestRunId` on a later read means the follow-up was created.

        Raises:
            MutationOutcomeUnknownError: it may have been created; compare the agent's latest run.
            AgentBusyError: another run is active.
        """
        agent = ids.agent_id(agent_id)
        known = {"agent_id": agent}
        if previous_run_id is not None:
            known["previous_run_id"] = ids.run_id(previous_run_id)
        self._need_key()
        created = await self._engine.mutate(
            "POST",
            f"/v1/agents/{agent}/runs",
            CreatedRun,
            ids=known,
            body=body.wire(),
            check=lambda answer: answer.run.agent_id is None or answer.run.agent_id.lower() == agent,
        )
        return created.run

    async def list_runs(self, agent_id: str, *, limit: int | None = None, cursor: str | None = None) -> Page[Run]:
        """One page of an agent's runs, newest first (`GET /v1/agents/{id}/runs`)."""
        agent = ids.agent_id(agent_id)
        self._need_key()
        return await self._engine.read(f"/v1/agents/{agent}/runs", Page[Run], params=query(limit=limit, cursor=cursor))

    async def get_run(self, agent_id: str, run_id: str) -> Run:
        """One run (`GET /v1/agents/{id}/runs/{runId}`)."""
        agent, run = ids.agent_id(agent_id), ids.run_id(run_id)
        self._need_key()
        return await self._engine.read(f"/v1/agents/{agent}/runs/{run}", Run)

    async def cancel_run(self, agent_id: str, run_id: str) -> str:
        """Ask to cancel the active run (asynchronous: it may still read RUNNING for a moment).

        Raises:
            RunNotCancellableError: the run is terminal or was never active.
            MutationOutcomeUnknownError: the request may have reached the server; read the run.
        """
        agent, run = ids.agent_id(agent_id), ids.run_id(run_id)
        self._need_key()
        answer = await self._engine.mutate(
            "POST",
            f"/v1/agents/{agent}/runs/{run}/cancel",
            IdResponse,
            ids={"agent_id": agent, "run_id": run},
            check=lambda answered: answered.id.lower() == run,
        )
        return answer.id.lower()

    # --- usage, artifacts, environments, conversation ------------------------------------------

    async def get_usage(self, agent_id: str, *, run_id: str | None = None) -> Usage:
        """Tokens and cost of an agent, or of one run (`GET /v1/agents/{id}/usage`)."""
        agent = ids.agent_id(agent_id)
        params = query(runId=None if run_id is None else ids.run_id(run_id))
        self._need_key()
        return await self._engine.read(f"/v1/agents/{agent}/usage", Usage, params=params)

    async def list_artifacts(self, agent_id: str) -> list[Artifact]:
        """Files listed under `artifacts/` (the list is often empty even when files exist)."""
        agent = ids.agent_id(agent_id)
        self._need_key()
        return (await self._engine.read(f"/v1/agents/{agent}/artifacts", ArtifactList)).items

    async def artifact_download(self, agent_id: str, path: str) -> ArtifactDownload:
        """A 15-minute presigned URL for one artifact (`GET .../artifacts/download?path=`).

        Raises:
            ValueError: the path is not a relative file path under `artifacts/` (`text.artifact_path`).
        """
        agent = ids.agent_id(agent_id)
        text.artifact_path(path)
        self._need_key()
        return await self._engine.read(
            f"/v1/agents/{agent}/artifacts/download", ArtifactDownload, params={"path": path}
        )

    async def check_artifact_url(self, url: str) -> str:
        """`url` when the artifact policy (https, an allowed host, no credentials or control characters, only
        public addresses) accepts it: a URL handed on must be one this client would fetch.

        Raises:
            ArtifactURLRefusedError: the URL is refused.
            APIConnectionError: its host could not be resolved.
        """
        return (await self._artifacts.vet(url, timeout=self._engine.total_seconds(ARTIFACT_CAP_SECONDS))).url

    async def download_artifact(self, url: str, *, max_bytes: int = ARTIFACT_TEXT_CAP_BYTES) -> bytes:
        """Fetch a presigned artifact URL without the Cursor key, after checking it against the policy.

        Raises:
            ArtifactURLRefusedError: scheme, host or redirect refused; nothing was fetched.
            ResponseTooLargeError: the file is larger than `max_bytes`.
        """
        total = self._engine.total_seconds(ARTIFACT_CAP_SECONDS)
        return await self._artifacts.fetch(url, max_bytes=max_bytes, timeout=total)

    async def list_environments(self, *, limit: int | None = None, cursor: str | None = None) -> Page[Environment]:
        """One page of environments (`GET /v1/environments`)."""
        self._need_key()
        return await self._engine.read("/v1/environments", Page[Environment], params=query(limit=limit, cursor=cursor))

    async def get_environment(self, environment_id: str) -> Environment:
        """One environment (`GET /v1/environments/{id}`)."""
        env = ids.environment_id(environment_id)
        self._need_key()
        return await self._engine.read(f"/v1/environments/{env}", Environment)

    async def get_conversation(self, agent_id: str) -> Conversation:
        """The legacy v0 conversation of an agent (`GET /v0/agents/{id}/conversation`)."""
        agent = ids.agent_id(agent_id)
        self._need_key()
        return await self._engine.read(f"/v0/agents/{agent}/conversation", Conversation)

    # --- the run stream ------------------------------------------------------------------------

    @asynccontextmanager
    async def stream_run(
        self, agent_id: str, run_id: str, *, last_event_id: str | None = None
    ) -> AsyncGenerator[RunStream]:
        """Open a run's event stream (`GET .../runs/{runId}/stream`); iterate the yielded `RunStream`.

        Without `last_event_id` the stream replays the run from its start, then goes live.

        Raises:
            InvalidLastEventIdError: the resume id is not of this run.
            StreamExpiredError: the run is past its retention (410).
        """
        agent, run = ids.agent_id(agent_id), ids.run_id(run_id)
        self._need_key()
        async with open_run_stream(
            self._engine,
            f"/v1/agents/{agent}/runs/{run}/stream",
            last_event_id=last_event_id,
            wall_clock=self._wall_clock,
        ) as stream:
            yield stream

    async def walk_replay(
        self,
        agent_id: str,
        run_id: str,
        consumer: ReplayConsumer | BlockConsumer,
        **limits: Unpack[ReplayLimits],
    ) -> ReplayOutcome:
        """Walk a run's replay, handing each raw event to `consumer`, and say how the replay ended.

        See `cursor_cloud_agents.api.walk.walk_replay` for the end-of-replay signals and the limits.
        """
        async with self.stream_run(agent_id, run_id) as stream:
            return await walk_replay(stream, consumer, silence_scale=self._silence_scale, **limits)
