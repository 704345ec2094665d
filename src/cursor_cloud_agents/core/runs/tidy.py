"""Tidying the fleet: agents whose PR merged or closed, or whose last run ended long ago, archived after their
work is saved (docs/pr-loop.md §5).

Stale agent records fill the plan's concurrent slots. A tidy lists the key's agents (archived ones left out),
leaves every agent with a run going untouched, and picks those whose PR is merged or closed (when GitHub can be
read) or whose latest run ended more than `idle_seconds` ago. Each picked agent's latest run (its result),
usage and conversation are written under the state directory (`tidied/<agent id>/`, files 0600) before it is
archived; an agent whose saving fails is not archived. Nothing is deleted, no branch removed: archiving is
reversible in Cursor's web app.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from cursor_cloud_agents.api import Agent, CursorClient, CursorError, Run
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core.pr.resolve import pr_of
from cursor_cloud_agents.github import GitHubError, GitHubReader

LISTED_PAGES = 5
"""At most 500 agents are looked at in one tidy (100 a page)."""
SAVED_FOLDER = "tidied"


@dataclass(frozen=True)
class Tidy:
    """An agent a tidy archives, and why."""

    agent_id: str
    name: str | None
    status: str
    reason: str
    """`PR merged`, `PR closed`, or `idle N days`."""


@dataclass(frozen=True)
class TidyPlan:
    picked: list[Tidy]
    running: list[str]
    """Agents with a run going: untouched."""
    unread: list[str]
    """Agents (or their PRs) that could not be read: left alone."""


async def _listed(api: CursorClient) -> list[str]:
    ids: list[str] = []
    cursor: str | None = None
    for _ in range(LISTED_PAGES):
        page = await api.list_agents(limit=100, cursor=cursor, include_archived=False)
        ids += [agent.id for agent in page.items if agent.status != "ARCHIVED"]
        cursor = page.next_cursor
        if not cursor:
            break
    return ids


async def _pr_state(github: GitHubReader | None, agent: Agent, run: Run | None) -> str | None:
    prs = [branch.pr_url for branch in (run.git.branches if run and run.git else []) if branch.pr_url]
    ref = pr_of(agent, prs)
    if github is None or ref is None:
        return None
    pull = await github.pull(ref)
    return "merged" if pull.merged else "closed" if pull.state == "closed" else None


async def plan_tidy(api: CursorClient, github: GitHubReader | None, now: float, idle_seconds: float) -> TidyPlan:
    """What a tidy would archive now, and what it leaves alone."""
    picked: list[Tidy] = []
    running: list[str] = []
    unread: list[str] = []
    for agent_id in await _listed(api):
        try:
            agent = await api.get_agent(agent_id)
            run = await api.get_run(agent.id, agent.latest_run_id) if agent.latest_run_id else None
            if run is not None and not run.is_terminal:
                running.append(agent.id)
                continue
            pr = await _pr_state(github, agent, run)
        except (CursorError, GitHubError):
            unread.append(agent_id)
            continue
        ended = epoch(run.updated_at if run is not None else agent.created_at) or now
        if pr is not None:
            picked.append(Tidy(agent.id, agent.name, agent.status, f"PR {pr}"))
        elif now - ended > idle_seconds:
            picked.append(Tidy(agent.id, agent.name, agent.status, f"idle {int((now - ended) // 86_400)} days"))
    return TidyPlan(picked, running, unread)


def _wire(model: BaseModel) -> Any:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


def _write(path: Path, document: Any) -> None:
    text = json.dumps(document, ensure_ascii=False, indent=1)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())


async def save_agent(api: CursorClient, agent_id: str, state_dir: Path) -> Path:
    """Write the agent, its latest run (its result), its usage and its conversation under the state directory.

    Raises:
        CursorError: one of them could not be read (nothing is archived then).
        OSError: the folder could not be written.
    """
    agent = await api.get_agent(agent_id)
    run = await api.get_run(agent.id, agent.latest_run_id) if agent.latest_run_id else None
    usage = await api.get_usage(agent.id)
    conversation = await api.get_conversation(agent.id)
    folder = state_dir / SAVED_FOLDER / agent.id
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    _write(folder / "agent.json", _wire(agent))
    _write(folder / "result.json", _wire(run) if run is not None else {})
    _write(folder / "usage.json", _wire(usage))
    _write(folder / "conversation.json", _wire(conversation))
    return folder


async def archive_saved(api: CursorClient, item: Tidy, state_dir: Path) -> Path:
    """Save the agent's work, then archive it (never archived when saving failed)."""
    folder = await save_agent(api, item.agent_id, state_dir)
    await api.archive_agent(item.agent_id)
    return folder
