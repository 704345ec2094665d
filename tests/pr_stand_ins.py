"""Hand-written stand-ins of the Cursor API and GitHub's REST API for the PR watch's tests (issue 43).

Not the product's simulator: two small httpx2 handlers over plain dicts, on a clock the test owns, so that a
timeline ("at second 2 a push of S2, whose checks report at second 4") plays out without a wall-clock wait.
The Cursor side knows one agent, its runs and follow-up POSTs (each run ends `run_seconds` after it was made);
the GitHub side serves a PR, its head's check runs and statuses, comments, reviews and permissions, with ETags.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import anyio
import httpx2

from cursor_cloud_agents.api import CursorClient

T0 = 1_800_000_000.0
AGENT = "bc-4343aaaa-0000-4000-8000-000000000043"
FIRST_RUN = "run-4343aaaa-0000-4000-8000-000000000000"
PR_URL = "https://github.com/your-org/your-repo/pull/7"


@dataclass
class FakeClock:
    now_: float = T0

    def now(self) -> float:
        return self.now_

    async def sleep(self, seconds: float) -> None:
        self.now_ += seconds
        await anyio.lowlevel.checkpoint()

    def monotonic(self) -> float:
        return self.now_


def iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def json_answer(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx2.Response:
    return httpx2.Response(
        status, content=json.dumps(body).encode(), headers={"content-type": "application/json"} | (headers or {})
    )


@dataclass
class CursorStandIn:
    """One agent on one PR; follow-ups make runs that end `run_seconds` later."""

    clock: FakeClock
    run_seconds: float = 0.5
    runs: dict[str, tuple[float, str]] = field(default_factory=dict[str, tuple[float, str]])
    """Run id → (made at, status when it does not follow the clock: FINISHED / RUNNING)."""
    posts: list[tuple[float, str]] = field(default_factory=list[tuple[float, str]])
    """Each follow-up POST: when, and its prompt."""
    requests: int = 0
    agents_on_pr: list[str] = field(default_factory=lambda: [AGENT])
    on_current_branch: bool | None = False
    """The agent's `workOnCurrentBranch` (None: left out, as a record that does not prove a follow-up safe)."""
    headers_seen: set[str] = field(default_factory=set[str])
    cancels: list[str] = field(default_factory=list[str])
    """Every Authorization header Cursor received."""

    def __post_init__(self) -> None:
        self.runs.setdefault(FIRST_RUN, (self.clock.now() - 3600, "FINISHED"))
        self.order = [FIRST_RUN]

    def run_json(self, run_id: str) -> dict[str, Any]:
        made, fixed = self.runs[run_id]
        status = (
            fixed if fixed != "CLOCK" else ("FINISHED" if self.clock.now() >= made + self.run_seconds else "RUNNING")
        )
        body: dict[str, Any] = {
            "id": run_id,
            "agentId": AGENT,
            "status": status,
            "createdAt": iso(made),
            "updatedAt": iso(made),
        }
        if run_id == FIRST_RUN:
            body["git"] = {
                "branches": [{"repoUrl": "github.com/your-org/your-repo", "branch": "cursor/fix", "prUrl": PR_URL}]
            }
        return body

    def agent_json(self, agent_id: str = AGENT) -> dict[str, Any]:
        branch = {} if self.on_current_branch is None else {"workOnCurrentBranch": self.on_current_branch}
        return branch | {
            "id": agent_id,
            "name": "Fix the login test",
            "status": "ACTIVE",
            "repos": [{"url": "https://github.com/your-org/your-repo", "prUrl": PR_URL}],
            "createdAt": iso(T0 - 3600),
            "updatedAt": iso(T0 - 3600),
            "latestRunId": self.order[-1] if agent_id == AGENT else FIRST_RUN,
        }

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.requests += 1
        self.headers_seen.add(request.headers.get("authorization", ""))
        path = request.url.path
        if request.method == "GET" and path == "/v1/agents":
            assert request.url.params.get("prUrl") == PR_URL
            return json_answer(
                200, {"items": [self.agent_json(agent) for agent in self.agents_on_pr], "nextCursor": None}
            )
        if request.method == "GET" and path == f"/v1/agents/{AGENT}":
            return json_answer(200, self.agent_json())
        if request.method == "GET" and path.startswith(f"/v1/agents/{AGENT}/runs/"):
            return json_answer(200, self.run_json(path.rsplit("/", 1)[1]))
        if request.method == "POST" and path.startswith(f"/v1/agents/{AGENT}/runs/") and path.endswith("/cancel"):
            run_id = path.split("/")[-2]
            self.cancels.append(run_id)
            self.runs[run_id] = (self.runs[run_id][0], "CANCELLED")
            return json_answer(200, {"id": run_id})
        if request.method == "POST" and path == f"/v1/agents/{AGENT}/runs":
            latest = self.run_json(self.order[-1])
            if latest["status"] not in ("FINISHED", "ERROR", "CANCELLED", "EXPIRED"):
                return json_answer(409, {"error": {"code": "agent_busy", "message": "a run is active"}})
            run_id = f"run-{uuid.uuid4()}"
            self.runs[run_id] = (self.clock.now(), "CLOCK")
            self.order.append(run_id)
            self.posts.append((self.clock.now(), json.loads(request.content)["prompt"]["text"]))
            return json_answer(201, {"run": self.run_json(run_id)})
        return json_answer(404, {"error": {"code": "not_found", "message": path}})

    def client(self) -> CursorClient:
        return CursorClient(
            "https://api.cursor.com",
            "key_stand_in",
            transport=httpx2.MockTransport(self.handle),
            clock=self.clock.monotonic,
            wall_clock=self.clock.now,
            sleep=self.clock.sleep,
        )


@dataclass
class Head:
    sha: str
    checks: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    statuses: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])


def check_run(name: str, conclusion: str | None, output: str = "") -> dict[str, Any]:
    status = "completed" if conclusion else "in_progress"
    return {
        "id": abs(hash((name, conclusion, output))) % 10**9,
        "name": name,
        "status": status,
        "conclusion": conclusion,
        "output": {"title": f"{name} {conclusion or 'running'}", "summary": "", "text": output},
    }


def comment(ident: int, login: str, body: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": ident,
        "user": {"login": login, "type": "Bot" if bot else "User"},
        "body": body,
        "created_at": iso(T0),
    }


@dataclass
class GitHubStandIn:
    """One PR whose state the test changes as time goes on (`script`: what holds from each second)."""

    clock: FakeClock
    head: Head
    writers: frozenset[str] = frozenset({"alice"})
    author: str = "cursor-agent-user"
    comments: list[dict[str, Any]] = field(default_factory=list[dict[str, Any]])
    state: str = "open"
    merged: bool = False
    mergeable: bool | None = True
    script: list[tuple[float, Callable[[GitHubStandIn], object]]] = field(
        default_factory=list[tuple[float, Callable[["GitHubStandIn"], object]]]
    )
    gone: bool = False
    """The PR no longer readable (every path answers 404)."""
    requests: list[str] = field(default_factory=list[str])
    not_modified: int = 0
    token_seen: set[str] = field(default_factory=set[str])

    def merge(self) -> None:
        self.merged, self.state = True, "closed"

    def play(self) -> None:
        while self.script and self.script[0][0] <= self.clock.now() - T0:
            self.script.pop(0)[1](self)

    def body_for(self, path: str) -> Any:
        base = "/repos/your-org/your-repo"
        if path == f"{base}/pulls/7":
            return {
                "number": 7,
                "state": self.state,
                "merged": self.merged,
                "mergeable": self.mergeable,
                "mergeable_state": "dirty" if self.mergeable is False else "clean",
                "head": {"sha": self.head.sha, "ref": "cursor/fix"},
                "user": {"login": self.author, "type": "User"},
                "html_url": PR_URL,
            }
        if path == f"{base}/commits/{self.head.sha}/check-runs":
            return {"total_count": len(self.head.checks), "check_runs": self.head.checks}
        if path.endswith("/check-runs"):
            return {"total_count": 0, "check_runs": []}  # an older commit's checks are never asked for
        if path == f"{base}/commits/{self.head.sha}/status":
            return {"state": "pending", "statuses": self.head.statuses}
        if path == f"{base}/issues/7/comments":
            return self.comments
        if path in (f"{base}/pulls/7/reviews", f"{base}/pulls/7/comments"):
            return []
        if path.startswith(f"{base}/collaborators/") and path.endswith("/permission"):
            login = path.split("/")[-2]
            role = "write" if login in self.writers else "read"
            return {"permission": role, "role_name": role}
        return None

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        self.play()
        self.requests.append(request.url.path)
        self.token_seen.add(request.headers.get("authorization", ""))
        body = None if self.gone else self.body_for(request.url.path)
        if body is None:
            return json_answer(404, {"message": "Not Found"})
        etag = '"' + str(abs(hash(json.dumps(body, sort_keys=True)))) + '"'
        if request.headers.get("if-none-match") == etag:
            self.not_modified += 1
            return httpx2.Response(304, headers={"etag": etag})
        return json_answer(200, body, {"etag": etag, "x-ratelimit-remaining": "4999"})

    def transport(self) -> httpx2.MockTransport:
        return httpx2.MockTransport(self.handle)
