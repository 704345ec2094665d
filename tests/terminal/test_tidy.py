"""`tidy`: agents whose PR merged, or idle for days, archived after their work is saved; running agents
untouched; nothing archived on a dry run (docs/pr-loop.md §5)."""

from __future__ import annotations

import io
import json
from functools import partial
from pathlib import Path
from typing import Any

import httpx2
import pytest
from rich.console import Console

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.github import GitHubReader
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK, USAGE
from cursor_cloud_agents.terminal.term import Session, Term, fixed_session
from cursor_cloud_agents.terminal.tidy import tidy
from tests.pr_stand_ins import PR_URL, T0, FakeClock, GitHubStandIn, Head, iso, json_answer

pytestmark = pytest.mark.anyio

MERGED = "bc-7777aaaa-0000-4000-8000-000000000001"
IDLE = "bc-7777aaaa-0000-4000-8000-000000000002"
RUNNING = "bc-7777aaaa-0000-4000-8000-000000000003"
RECENT = "bc-7777aaaa-0000-4000-8000-000000000004"
ENDED_AGO = {MERGED: 3600.0, IDLE: 10 * 86_400.0, RUNNING: 0.0, RECENT: 86_400.0}


class Fleet:
    """Four agents: one whose PR merged, one idle ten days, one running, one that ended yesterday."""

    def __init__(self) -> None:
        self.archived: list[str] = []

    def agent(self, agent_id: str) -> dict[str, Any]:
        repos = [{"url": "https://github.com/your-org/your-repo", "prUrl": PR_URL}] if agent_id == MERGED else []
        status = "ACTIVE" if agent_id in (MERGED, RUNNING) else "IDLE"
        return {
            "id": agent_id,
            "status": status,
            "name": f"agent {agent_id[-1]}",
            "repos": repos,
            "latestRunId": "run-" + agent_id[3:],
            "createdAt": iso(T0 - 30 * 86_400),
        }

    def run(self, agent_id: str) -> dict[str, Any]:
        status = "RUNNING" if agent_id == RUNNING else "FINISHED"
        return {
            "id": "run-" + agent_id[3:],
            "agentId": agent_id,
            "status": status,
            "result": f"done {agent_id}",
            "createdAt": iso(T0 - 30 * 86_400),
            "updatedAt": iso(T0 - ENDED_AGO[agent_id]),
        }

    def handle(self, request: httpx2.Request) -> httpx2.Response:
        parts = request.url.path.strip("/").split("/")
        if parts == ["v1", "agents"]:
            return json_answer(200, {"items": [self.agent(agent) for agent in ENDED_AGO]})
        agent_id = parts[2]
        if request.method == "POST" and parts[-1] == "archive":
            self.archived.append(agent_id)
            return json_answer(200, {"id": agent_id})
        if parts[-1] == "usage":
            return json_answer(200, {"totalUsage": {"totalTokens": 10}, "runs": []})
        if parts[-1] == "conversation":
            return json_answer(200, {"id": agent_id, "messages": [{"type": "user_message", "text": "fix it"}]})
        if len(parts) == 5:
            return json_answer(200, self.run(agent_id))
        return json_answer(200, self.agent(agent_id))


def term_for(clock: FakeClock, fleet: Fleet, state_dir: Path, written: list[str]) -> Term:
    settings = Settings.from_env(
        {"CURSOR_API_KEY": "key_x", "CURSOR_MCP_STATE_DIR": str(state_dir), "GH_TOKEN": "ghp_x"}
    )
    api = CursorClient(
        "https://api.cursor.com",
        "key_x",
        transport=httpx2.MockTransport(fleet.handle),
        clock=clock.monotonic,
        wall_clock=clock.now,
        sleep=clock.sleep,
    )
    return Term(
        settings=settings,
        open_session=fixed_session(Session(api, now=clock.now, sleep=clock.sleep)),
        out=Console(file=io.StringIO(), record=True, width=200),
        err=Console(file=io.StringIO(), record=True),
        write=written.append,
        json=True,
        redactor=Redactor(),
    )


def github_of(clock: FakeClock) -> Any:
    github = GitHubStandIn(clock, Head("1" * 40), merged=True, state="closed")

    def open_github(url: str, token: Secret, now: Any) -> GitHubReader:
        return GitHubReader(url, token, transport=github.transport(), now=now)

    return open_github


async def test_tidy_archives_the_merged_and_the_idle_after_saving_their_work_and_leaves_the_running_g_18(
    tmp_path: Path,
) -> None:
    clock, fleet, written = FakeClock(), Fleet(), list[str]()
    term = term_for(clock, fleet, tmp_path, written)
    command = partial(tidy, dry_run=False, confirmed=True, idle_days=7, env={}, github=github_of(clock))
    assert await execute(term, command) == OK
    answer = json.loads(written[-1])
    assert sorted(fleet.archived) == sorted([MERGED, IDLE]) and answer["slots_freed"] == 1
    assert {item["agent_id"]: item["reason"] for item in answer["picked"]} == {
        MERGED: "PR merged",
        IDLE: "idle 10 days",
    }
    assert answer["running"] == [RUNNING]
    saved = tmp_path / "tidied" / IDLE
    assert json.loads((saved / "result.json").read_text())["result"] == f"done {IDLE}"
    assert json.loads((saved / "conversation.json").read_text())["messages"][0]["text"] == "fix it"
    assert (saved / "usage.json").stat().st_mode & 0o777 == 0o600


async def test_a_dry_run_archives_nothing_and_a_missing_state_dir_refuses_before_any_request_g_18(
    tmp_path: Path,
) -> None:
    clock, fleet, written = FakeClock(), Fleet(), list[str]()
    term = term_for(clock, fleet, tmp_path, written)
    dry = partial(tidy, dry_run=True, confirmed=False, idle_days=7, env={}, github=github_of(clock))
    assert await execute(term, dry) == OK and fleet.archived == [] and len(json.loads(written[-1])["picked"]) == 2
    memory = term_for(clock, fleet, tmp_path, written)
    memory.settings = Settings.from_env({"CURSOR_API_KEY": "key_x", "CURSOR_MCP_STATE_DIR": "memory"})
    real = partial(tidy, dry_run=False, confirmed=True, idle_days=7, env={}, github=github_of(clock))
    assert await execute(memory, real) == USAGE and fleet.archived == []
