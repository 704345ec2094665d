"""The simulated world: keys, agents, runs and their timelines, driven by an injectable clock.

State is derived lazily from scripted milestones: a run's status, its visible events, its usage
and the agent's artifacts are all functions of `clock.now()`, so advancing a `ManualClock` moves
everything at once with no background task. Mutations (create, follow-up, cancel, archive, delete)
raise `ApiError` with the documented codes. No I/O, no environment access.
"""

from __future__ import annotations

import logging
import random
import subprocess
import uuid
from collections import deque
from collections.abc import Iterable
from dataclasses import replace
from typing import Any, Protocol

import anyio

from .catalog import POOLS
from .changes import CHANGES, Change
from .clock import WorldClock
from .environments import environment_names
from .errors import ApiError, bad_request, conflict, forbidden, integration_not_connected, not_found
from .personas import shaped_by_model
from .quirks import Quirks
from .ratelimit import RepositoryLimiter
from .records import AgentRecord, ApiKey, KeyKind, RunRecord
from .script import RunScript, script_from_prompt
from .timeline import Beat, derives_from, filler_beats, script_beats
from .validation import CreateRequest, Creation, check_pool, parse_create, parse_follow_up
from .wire import normalise_id

SIMULATED_API_KEY = "sim-key-00000000000000000000000000000000"
SERVICE_ACCOUNT_KEY = "sim-service-account-key-000000000000000"
REPOSITORY_SCOPED_KEY = "sim-repo-scoped-key-00000000000000000000"
UNSUPPORTED_KEY = "sim-admin-api-key-000000000000000000000000"
"""A key of another Cursor API: every request answers 403 `key_not_supported`."""
TERMINAL = frozenset({"FINISHED", "ERROR", "CANCELLED", "EXPIRED"})
logger = logging.getLogger("cursor_cloud_agents.simulator")


class Remote(Protocol):
    """Where runs push their branches (`gitremote.StandInRemote`); the world itself does no I/O."""

    def push(self, repo_url: str, branch: str, starting_ref: str, change: Change, message: str) -> None:
        """Commit `change` on `branch` of `repo_url`, from `starting_ref` the first time."""
        ...


class World:
    """In-memory state of the simulated Cursor account, reproducible from `seed`."""

    def __init__(self, clock: WorldClock, *, seed: int = 0, quirks: Quirks | None = None) -> None:
        self.clock = clock
        self.quirks = quirks or Quirks()
        self.default_script = RunScript()
        self.usage_exhausted = False
        self.plan_active_agents: int | None = None
        """The plan's limit of agents running at once (Pro: 8); None: no limit. Undocumented, modelled as a
        429 `concurrent_agents_limit` whose message names the limit."""
        self.disconnected_providers: set[str] = set()
        """SCM providers (`github`, `gitlab`...) whose integration is not connected: create and
        `/v1/repositories` answer 400 `integration_not_connected` for them."""
        self._agents: dict[str, AgentRecord] = {}
        self._landing: dict[str, Creation] = {}
        """Creations received but not done yet (`Quirks.creation_seconds`), by their agent id."""
        self.keys: dict[str, ApiKey] = {}
        self._rng = random.Random(seed)
        self._queued: deque[RunScript] = deque()
        self._deleted: set[str] = set()
        self._changed: anyio.Event | None = None
        self.origin = clock.now()
        self.repository_limiter = RepositoryLimiter()
        self.downloads: dict[str, tuple[str, str, float]] = {}
        """Download token -> (agent id, artifact path, expiry)."""
        created = clock.now() - 86400 * 30
        self.add_api_key(SIMULATED_API_KEY, "Simulated API Key", created_at=created)
        self.add_api_key(SERVICE_ACCOUNT_KEY, "Simulated Service Account", "service_account", created_at=created)
        self.add_api_key(REPOSITORY_SCOPED_KEY, "Simulated Repository Key", "repository_scoped", created_at=created)
        self.add_api_key(UNSUPPORTED_KEY, "Simulated Admin API Key", "unsupported", created_at=created)
        self.teams: dict[str, bool] = {}
        """Team ids the keys belong to, each with whether the key's user is a team admin. A request naming
        another team (`x-cursor-team-id`) answers 404 `team_not_found`; a mutation in a team where the user
        is no admin answers 403 `team_admin_required` (codes seen since the contract; statuses inferred)."""
        self.cursors: dict[str, float] = {}
        """Paging cursors handed out, with when (`Quirks.cursor_ttl_seconds`)."""
        self.remote: Remote | None = None
        """Where a FINISHED run's change is pushed once its end has come (None: nowhere, no git at all)."""
        self._pushed: set[str] = set()
        """Runs whose change was pushed."""

    # -- keys, ids, notifications -------------------------------------------------------------

    def now(self) -> float:
        """The world's current time."""
        return self.clock.now()

    def add_api_key(self, key: str, name: str, kind: KeyKind = "user", *, created_at: float | None = None) -> ApiKey:
        """Accept another key (user, service-account or repository-scoped)."""
        record = ApiKey(key, name, kind, self.now() if created_at is None else created_at)
        self.keys[key] = record
        return record

    def new_uuid(self) -> str:
        """A version-4 UUID from the seeded generator (reproducible ids)."""
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def _agent_id(self, chosen: str | None) -> str:
        """`chosen` (a client-minted id), or a new `bc-<uuid>` from the seeded generator."""
        return chosen or f"bc-{self.new_uuid()}"

    def changed(self) -> anyio.Event:
        """An event set at the next mutation (streams wait on it besides the clock)."""
        if self._changed is None:
            self._changed = anyio.Event()
        return self._changed

    def notify(self) -> None:
        """Wake every stream waiting for a change."""
        event, self._changed = self._changed, None
        if event is not None:
            event.set()

    def check_key(self, key: ApiKey, team_id: str | None, *, mutation: bool) -> None:
        """Refuse a key this API does not take, and a team the key cannot act in."""
        if key.kind == "unsupported":
            raise forbidden("key_not_supported", "This API key cannot be used with the Cloud Agents API")
        if team_id is None:
            return
        if team_id not in self.teams:
            raise not_found("team_not_found", f"Team {team_id} not found for this key")
        if mutation and not self.teams[team_id]:
            raise forbidden("team_admin_required", "This action needs a team admin")

    def issue_cursor(self, cursor: str | None) -> str | None:
        """Remember when a paging cursor was handed out."""
        if cursor is not None:
            self.cursors[cursor] = self.now()
        return cursor

    def check_cursor(self, cursor: str | None) -> None:
        """400 `cursor_expired` for a cursor handed out longer ago than `Quirks.cursor_ttl_seconds`."""
        ttl = self.quirks.cursor_ttl_seconds
        issued = None if cursor is None else self.cursors.get(cursor)
        if ttl is not None and issued is not None and self.now() - issued > ttl:
            raise bad_request("The cursor has expired; list again from the first page", code="cursor_expired")

    # -- scripts ------------------------------------------------------------------------------

    def queue_script(self, script: RunScript) -> None:
        """Use `script` for the next created run (create or follow-up), before the default."""
        self._queued.append(script)

    def _next_script(self, prompt: str, model: dict[str, Any] | None = None) -> RunScript:
        # A queued script is exactly what a test asked for; the default one is played as the model would.
        base = self._queued.popleft() if self._queued else shaped_by_model(self.default_script, model)
        return script_from_prompt(prompt, base)

    # -- lookups ------------------------------------------------------------------------------

    def agent(self, agent_id: str) -> AgentRecord:
        """An agent by id (any hex case). Raises 404 `agent_not_found`."""
        agent = self.agents.get(normalise_id(agent_id))
        if agent is None:
            raise not_found("agent_not_found", f"Agent {agent_id} not found")
        self.push_ended([agent])
        return agent

    def run(self, agent_id: str, run_id: str) -> tuple[AgentRecord, RunRecord]:
        """A run of an agent. Raises 404 `agent_not_found` or `run_not_found`."""
        agent = self.agent(agent_id)
        wanted = normalise_id(run_id)
        for run in agent.runs:
            if run.id == wanted:
                return agent, run
        raise not_found("run_not_found", f"Run {run_id} not found")

    # -- mutations ----------------------------------------------------------------------------

    @property
    def agents(self) -> dict[str, AgentRecord]:
        """Every agent that exists now, by id (creations whose time has come land first)."""
        for creation in [c for c in self._landing.values() if c.ready_at <= self.now()]:
            self._land(creation)
        return self._agents

    def push_ended(self, agents: Iterable[AgentRecord] | None = None) -> None:
        """Push the change of every run of `agents` (all by default) that ended FINISHED by now and was not
        pushed yet. Lazy: reading an agent pushes its runs (`agent()`), so a world of hundreds costs nothing
        until someone looks at one."""
        remote = self.remote
        if remote is None:
            return
        now = self.now()
        for agent in list(self._agents.values()) if agents is None else agents:
            for run in agent.runs:
                ended = run.outcome == "FINISHED" and run.ended_at <= now and run.script.change is not None
                if ended and run.id not in self._pushed and agent.branches:
                    self._pushed.add(run.id)
                    self._push(remote, agent, run)

    def _push(self, remote: Remote, agent: AgentRecord, run: RunRecord) -> None:
        change = CHANGES[run.script.change or "small"]
        message = run.prompt.strip().splitlines()[0][:200] if run.prompt.strip() else "Change"
        for repo, branch in zip(agent.repos, agent.branches, strict=False):
            try:
                remote.push(repo["url"], branch["branch"], repo.get("startingRef", "main"), change, message)
            except (OSError, RuntimeError, ValueError, subprocess.SubprocessError) as exc:
                logger.warning("the simulator could not push %s: %s", branch["branch"], exc)  # the API goes on

    def _land(self, creation: Creation) -> None:
        del self._landing[creation.agent_id]
        request, at = creation.request, creation.ready_at
        agent = self._new_agent(request, creation.agent_id, at)
        self.start_run(agent, request.prompt, self._next_script(request.prompt, agent.model), at)

    @property
    def creating(self) -> list[str]:
        """Ids of the agents Cursor is still creating (their POST has not been answered yet)."""
        return [agent_id for agent_id, c in self._landing.items() if c.ready_at > self.now()]

    def create_agent(self, body: Any, key: ApiKey) -> Creation:
        """`POST /v1/agents`: validate, take the agent id, and schedule the agent and its first run (CREATING).

        The agent exists `Quirks.creation_seconds` later (at once by default): `landed()` returns it then.
        """
        request = parse_create(body, accept_sha=self.quirks.accept_full_sha_starting_ref)
        check_pool(request.env, request.repos, POOLS)
        self._check_environment(request.env)
        self._check_integrations(request.repos)
        self._check_account(request, key)
        taken = (self.agents, self._deleted, self._landing)
        if request.agent_id is not None and any(request.agent_id in ids for ids in taken):
            raise conflict("agent_id_conflict", f"Agent {request.agent_id} already exists")
        creation = Creation(self._agent_id(request.agent_id), request, self.now() + self.quirks.creation_seconds)
        self._landing[creation.agent_id] = creation
        return creation

    def landed(self, creation: Creation) -> tuple[AgentRecord, RunRecord]:
        """The agent of a creation whose time has come, and its first run."""
        agent = self.agents[creation.agent_id]
        return agent, agent.runs[0]

    def _check_environment(self, env: dict[str, Any] | None) -> None:
        # A named cloud env must be one of `GET /v1/environments` (its name goes in `env.name`, docs/api-contract.md
        # §3.17).
        if env is None or env["type"] != "cloud" or "name" not in env:
            return
        if env["name"] not in environment_names(self.origin):
            raise bad_request(f"Unknown environment: {env['name']}")

    def _check_integrations(self, repos: list[dict[str, Any]]) -> None:
        for repo in repos:
            provider = provider_of(repo["url"])
            if provider in self.disconnected_providers:
                raise integration_not_connected(provider)

    def check_repositories_integration(self) -> None:
        """`GET /v1/repositories` lists GitHub only: it needs the GitHub integration."""
        if "github" in self.disconnected_providers:
            raise integration_not_connected("github")

    def _check_account(self, request: CreateRequest, key: ApiKey) -> None:
        if not request.repos and request.env is None:
            if key.kind == "repository_scoped":
                raise forbidden("role_forbidden", "A repository-scoped key cannot start an agent without a repository")
            if not self.quirks.no_repo_agents_enabled:
                raise forbidden("feature_unavailable", "Agents without a repository are not enabled for this account")
        self._check_usage()
        self._check_plan_concurrency()

    def _check_plan_concurrency(self) -> None:
        limit = self.plan_active_agents
        if limit is None:
            return
        running = sum(1 for agent in self.agents.values() if agent.status(self.now()) == "ACTIVE") + len(self.creating)
        if running >= limit:
            message = f"You have reached the limit of {limit} concurrent Cloud Agents for your plan"
            raise ApiError(429, "concurrent_agents_limit", message)

    def _check_usage(self) -> None:
        if not self.usage_exhausted:
            return
        code = "rate_limit_exceeded" if self.quirks.exhausted_usage_as_rate_limit else "usage_limit_exceeded"
        message = "You've used all included Cloud Agent usage: Enable on-demand usage to continue using Cloud Agents"
        raise ApiError(429, code, message)

    def _new_agent(self, request: CreateRequest, agent_id: str, at: float) -> AgentRecord:
        name = request.name or _name_from_prompt(request.prompt)
        env = request.env or {"type": "cloud"}
        agent = AgentRecord(
            agent_id, name, env, request.repos, at, request.work_on_current_branch, request.auto_create_pr
        )
        agent.extra = request.extra
        agent.model = request.model
        agent.branches = [self._branch(agent, repo) for repo in request.repos]
        self._agents[agent_id] = agent
        self.notify()
        return agent

    def _branch(self, agent: AgentRecord, repo: dict[str, Any]) -> dict[str, Any]:
        slug = "-".join(agent.name.lower().split()[:3]) or "task"
        slug = "".join(c for c in slug if c.isalnum() or c == "-")
        branch = repo.get("startingRef", "main") if agent.work_on_current_branch else f"cursor/{slug}-{agent.id[3:7]}"
        repo_url = repo["url"].split("://", 1)[-1].removesuffix(".git")
        agent.pr_number = 100 + self._rng.randrange(900)
        return {"repoUrl": repo_url, "branch": branch, "prUrl": f"https://{repo_url}/pull/{agent.pr_number}"}

    def follow_up(self, agent_id: str, body: Any) -> RunRecord:
        """`POST /v1/agents/{id}/runs`: refuse while archived or busy; a given model sticks."""
        agent = self.agent(agent_id)
        text, model = parse_follow_up(body)
        if agent.archived_at is not None:
            raise conflict("agent_archived", f"Agent {agent.id} is archived; unarchive it first")
        latest = agent.latest()
        if latest is not None and latest.is_active(self.now()):
            raise conflict("agent_busy", f"Agent {agent.id} already has an active run ({latest.id})")
        self._check_usage()
        if model is not None:
            agent.model = model  # kept for later runs, never returned (quirk 8)
        return self.start_run(agent, text, self._next_script(text, agent.model), self.now())

    def start_run(self, agent: AgentRecord, prompt: str, script: RunScript, at: float) -> RunRecord:
        """Create a run at `at` following `script`, and encode its stream timeline."""
        running_at = at + script.creating_seconds
        ended_at = running_at + script.running_seconds
        run_id = f"run-{self.new_uuid()}"
        run = RunRecord(run_id, agent.id, prompt, at, running_at, ended_at, script.outcome, script, self.new_uuid())
        run.model = agent.model
        run.queued_until = at + min(self.quirks.queued_seconds, script.creating_seconds)
        agent.runs.append(run)
        self._encode(agent, run)
        self.notify()
        return run

    def _encode(self, agent: AgentRecord, run: RunRecord) -> None:
        timeline = run.timeline
        timeline.add(run.running_at, "status", {"runId": run.id, "status": "RUNNING"})
        beats = script_beats(run.script, run.result_text())
        if run.script.replay_bytes > 0:
            cut = max(1, len(beats) // 3)
            beats[cut:cut] = list(filler_beats(run.script.replay_bytes))
        span = run.ended_at - run.running_at
        if run.script.events_seconds is not None:
            span = min(span, run.script.events_seconds)
        step = span / (len(beats) + 1)
        share = self.quirks.simplified_frames_share_ids
        previous: Beat | None = None
        for index, (event, data) in enumerate(beats, start=1):
            shared = share and derives_from(previous, event)
            timeline.add(run.running_at + index * step, event, data, share_previous_id=shared)
            previous = (event, data)
        self._end_frames(agent, run)

    def _end_frames(self, agent: AgentRecord, run: RunRecord) -> None:
        status = {"runId": run.id, "status": run.outcome}
        run.timeline.add(run.ended_at, "status", status)
        result: dict[str, Any] = dict(status)
        if (text := run.result_text()) is not None:
            result["text"] = text
        result["durationMs"] = run.duration_ms()
        if (git := agent.git(run.ended_at)) is not None:
            result["git"] = git
        run.timeline.add(run.ended_at, "result", result)
        run.timeline.add(run.ended_at, "done", {}, share_previous_id=True)

    def cancel(self, agent_id: str, run_id: str) -> RunRecord:
        """Cancel an active run; it turns CANCELLED `cancel_delay_seconds` later (asynchronous)."""
        agent, run = self.run(agent_id, run_id)
        now = self.now()
        if not run.is_active(now):
            raise conflict("run_not_cancellable", f"Run {run.id} is {run.status(now)} and cannot be cancelled")
        effective = now + self.quirks.cancel_delay_seconds
        if effective < run.ended_at:  # else the run ends on its own first: the race the docs warn about
            run.ended_at, run.outcome = effective, "CANCELLED"
            run.running_at = min(run.running_at, effective)
            run.script = replace(run.script, artifacts=())
            run.timeline.truncate_after(effective)
            self._end_frames(agent, run)
            self.notify()
        return run

    def archive(self, agent_id: str) -> AgentRecord:
        """Archive (idempotent)."""
        agent = self.agent(agent_id)
        if agent.archived_at is None:
            agent.archived_at = self.now()
            self.notify()
        return agent

    def unarchive(self, agent_id: str) -> AgentRecord:
        """Unarchive (idempotent); the agent accepts runs again."""
        agent = self.agent(agent_id)
        if agent.archived_at is not None:
            agent.archived_at, agent.unarchived_at = None, self.now()
            self.notify()
        return agent

    def delete(self, agent_id: str) -> str:
        """Delete for good; later reads answer 404 `agent_not_found`."""
        agent = self.agent(agent_id)
        del self.agents[agent.id]
        self._deleted.add(agent.id)
        self.notify()
        return agent.id

    # -- seeding for tests and scenarios ------------------------------------------------------

    def add_agent(
        self,
        prompt: str = "Add a README with setup instructions",
        *,
        script: RunScript | None = None,
        scripts: Iterable[RunScript] = (),
        created_ago: float = 0.0,
        name: str | None = None,
        repos: list[str] | None = None,
        archived: bool = False,
        auto_create_pr: bool = False,
        agent_id: str | None = None,
    ) -> AgentRecord:
        """Seed an agent whose runs started `created_ago` seconds ago and follow each other.

        The agent's state now follows from its scripts: e.g. `created_ago=3600` with the default
        30 s script gives an IDLE agent with a FINISHED run.
        """
        at = self.now() - created_ago
        urls = ["https://github.com/your-org/your-repo"] if repos is None else repos
        request = CreateRequest(
            prompt,
            None,
            name,
            None,
            [{"url": u, "startingRef": "main"} for u in urls],
            agent_id,
            False,
            auto_create_pr,
            {},
        )
        agent = self._new_agent(request, self._agent_id(agent_id), at)
        for each in [script or self.default_script, *scripts]:
            run = self.start_run(agent, prompt, each, at)
            at = run.ended_at + 60.0
        if archived:
            agent.archived_at = min(self.now(), at)
        return agent


_PROVIDERS = {"github.com": "github", "gitlab.com": "gitlab", "bitbucket.org": "bitbucket", "dev.azure.com": "azure"}


def provider_of(url: str) -> str:
    """The SCM provider of a repository URL (`github`, `gitlab`, ...), or its host when unknown."""
    host = url.split("://", 1)[-1].split("/", 1)[0].lower()
    return _PROVIDERS.get(host, host)


def _name_from_prompt(prompt: str) -> str:
    """Names are auto-derived from the prompt when not given (first line, at most 100 chars)."""
    first = prompt.strip().splitlines()[0] if prompt.strip() else "Untitled agent"
    return first[:100]
