"""The world's records (API keys, agents, runs, artifacts) and their wire forms.

Optional fields are omitted, never null. The model chosen for an agent is kept here but never
serialised (docs/api-contract.md quirk 8).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from .quirks import Quirks
from .script import RunScript
from .timeline import Timeline
from .wire import iso

ACTIVE_RUN_STATES = frozenset({"QUEUED", "CREATING", "RUNNING"})
KeyKind = Literal["user", "service_account", "repository_scoped", "unsupported"]
"""`unsupported`: a key of another Cursor API (e.g. an admin key) that this API answers 403 `key_not_supported`."""


@dataclass
class ApiKey:
    """An API key the world accepts: a user key, a service-account key, or a repository-scoped one."""

    key: str
    name: str
    kind: KeyKind = "user"
    created_at: float = 0.0
    user_id: int = 42
    email: str = "developer@example.com"
    first_name: str = "Alex"
    last_name: str = "Rivera"

    def me(self) -> dict[str, Any]:
        """`GET /v1/me`: service-account keys carry only `apiKeyName` and `createdAt`."""
        out: dict[str, Any] = {"apiKeyName": self.name}
        if self.kind == "service_account":
            return out | {"createdAt": iso(self.created_at)}
        out |= {"userId": self.user_id, "createdAt": iso(self.created_at), "userEmail": self.email}
        return out | {"userFirstName": self.first_name, "userLastName": self.last_name}


@dataclass
class ArtifactRecord:
    """A file in the agent's workspace under `artifacts/`."""

    path: str
    size_bytes: int
    written_at: float
    listed: bool = True
    content: bytes | None = None

    def wire(self) -> dict[str, Any]:
        """The list item shape."""
        return {"path": self.path, "sizeBytes": self.size_bytes, "updatedAt": iso(self.written_at)}

    def body(self) -> bytes:
        """The bytes a download serves: the scripted content, else the path and a newline repeated to the size."""
        if self.content is not None:
            return self.content
        pattern = f"{self.path}\n".encode()
        return (pattern * (self.size_bytes // len(pattern) + 1))[: self.size_bytes]


@dataclass
class RunRecord:
    """One run: its scripted milestones and its stream timeline."""

    id: str
    agent_id: str
    prompt: str
    created_at: float
    running_at: float
    ended_at: float
    outcome: str
    script: RunScript
    usage_uuid: str
    model: dict[str, Any] | None = None
    timeline: Timeline = field(default_factory=Timeline)
    queued_until: float = 0.0
    """Before this moment the run reads QUEUED (`Quirks.queued_seconds`)."""

    def status(self, now: float) -> str:
        """The status at `now`, derived from the milestones."""
        if now < self.queued_until:
            return "QUEUED"
        if now < self.running_at:
            return "CREATING"
        return "RUNNING" if now < self.ended_at else self.outcome

    def is_active(self, now: float) -> bool:
        """QUEUED, CREATING or RUNNING ("active" for `agent_busy`)."""
        return self.status(now) in ACTIVE_RUN_STATES

    def result_text(self) -> str | None:
        """The final reply, present only on FINISHED runs (ERROR carries none by default)."""
        return self.script.result if self.outcome == "FINISHED" else None

    def wire(self, now: float, quirks: Quirks, git: dict[str, Any] | None) -> dict[str, Any]:
        """The Run object as `GET …/runs/{runId}` answers it at `now`."""
        status = self.status(now)
        out: dict[str, Any] = {"id": self.id, "agentId": self.agent_id, "status": status}
        out |= {"createdAt": iso(self.created_at), "updatedAt": iso(self._updated_at(status, quirks))}
        if status not in ACTIVE_RUN_STATES:
            out |= self._terminal_fields(quirks)
        if git is not None:
            out["git"] = git
        return out

    def _updated_at(self, status: str, quirks: Quirks) -> float:
        if status in ("QUEUED", "CREATING") or (status == "RUNNING" and quirks.running_updated_at_frozen):
            return self.created_at
        return self.running_at if status == "RUNNING" else self.ended_at

    def _terminal_fields(self, quirks: Quirks) -> dict[str, Any]:
        out: dict[str, Any] = {"durationMs": self.duration_ms()}
        text = self.result_text()
        if text is not None:
            out["result"] = text
        if self.outcome == "ERROR" and not quirks.error_runs_without_cause:
            out["result"] = "The agent stopped because of an internal error."
            out["error"] = {"message": "The agent stopped because of an internal error.", "code": "internal_error"}
        return out

    def duration_ms(self) -> int:
        """Milliseconds from creation to the end."""
        return int(round((self.ended_at - self.created_at) * 1000))


@dataclass
class AgentRecord:
    """One agent: its configuration, its runs (oldest first) and its workspace."""

    id: str
    name: str
    env: dict[str, Any]
    repos: list[dict[str, Any]]
    created_at: float
    work_on_current_branch: bool = False
    auto_create_pr: bool = False
    extra: dict[str, Any] = field(default_factory=dict[str, Any])
    runs: list[RunRecord] = field(default_factory=list[RunRecord])
    archived_at: float | None = None
    unarchived_at: float | None = None
    model: dict[str, Any] | None = None
    branches: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    pr_number: int = 1
    artifacts: dict[str, ArtifactRecord] = field(default_factory=dict[str, ArtifactRecord])

    def latest(self) -> RunRecord | None:
        """The latest run (the agent's `latestRunId`)."""
        return self.runs[-1] if self.runs else None

    def status(self, now: float, quirks: Quirks | None = None) -> str:
        """ARCHIVED, ACTIVE while a run is active, IDLE otherwise (ACTIVE still, with
        `Quirks.ended_agents_listed_active`, once it has run)."""
        if self.archived_at is not None:
            return "ARCHIVED"
        latest = self.latest()
        if latest is not None and quirks is not None and quirks.ended_agents_listed_active:
            return "ACTIVE"
        return "ACTIVE" if latest is not None and latest.is_active(now) else "IDLE"

    def updated_at(self, now: float) -> float:
        """The last change visible at `now`: creation, a run's start or end, (un)archiving."""
        moments = [self.created_at, self.archived_at or 0.0, self.unarchived_at or 0.0]
        for run in self.runs[-1:]:
            moments += [m for m in (run.created_at, run.running_at, run.ended_at) if m <= now]
        return max(moments)

    def git(self, now: float) -> dict[str, Any] | None:
        """Per-agent git state, the same on every run; visible once the first run has started."""
        if not self.branches or not self.runs or self.runs[0].running_at > now:
            return None
        finished = any(r.outcome == "FINISHED" and r.ended_at <= now for r in self.runs)
        branches = [
            {k: v for k, v in b.items() if k != "prUrl" or (finished and self.auto_create_pr)} for b in self.branches
        ]
        return {"branches": branches}

    def summary(self, now: float, quirks: Quirks | None = None) -> dict[str, Any]:
        """The list item shape (`GET /v1/agents`)."""
        status = self.status(now, quirks)
        out: dict[str, Any] = {"id": self.id, "name": self.name, "status": status, "env": self.env}
        out |= {"url": f"https://cursor.com/agents/{self.id}", "createdAt": iso(self.created_at)}
        out["updatedAt"] = iso(self.updated_at(now))
        latest = self.latest()
        if latest is not None:
            out["latestRunId"] = latest.id
        return out

    def wire(self, now: float, quirks: Quirks | None = None) -> dict[str, Any]:
        """The full Agent object (`GET /v1/agents/{id}`, create response)."""
        out = self.summary(now, quirks)
        extra = {"repos": self.repos, "workOnCurrentBranch": self.work_on_current_branch}
        extra |= {"autoCreatePR": self.auto_create_pr} | self.extra
        keys = list(out)
        keys[keys.index("url") : keys.index("url")] = list(extra)
        merged = out | extra
        return {k: merged[k] for k in keys}
