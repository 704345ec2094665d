"""`agents`: a table of agents with their latest run, repository, branch or PR, age, idle time and web URL.

The listing is the server's own agent scan (`core.scan`, with its local name filter); each
row then needs the agent's record (repositories) and its latest run (status, branches, PR), read
`IN_FLIGHT` at a time: the same concurrency as the server's fleet scan. The API never returns an
agent's model (docs/api-contract.md quirk 8), so the table's caption says so instead of guessing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.table import Table
from rich.text import Text

from cursor_cloud_agents.api import Agent, AgentSummary, CursorClient, CursorError
from cursor_cloud_agents.core import AgentRead, each_in_flight, scan
from cursor_cloud_agents.terminal import render
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK, UsageError, failure_of
from cursor_cloud_agents.terminal.term import Session, Term

MAX_LIMIT = 100
MODEL_UNKNOWN = "not returned by the API"


@dataclass
class AgentLine(AgentRead):
    """One listed agent and what its record and latest run say."""

    record: Agent | None = None

    def branches(self) -> list[str]:
        """`branch` or the PR URL of each branch the latest run shows."""
        git = None if self.run is None else self.run.git
        return [branch.pr_url or branch.branch or "" for branch in (git.branches if git else [])]

    def repos(self) -> list[str]:
        """The agent's repository URLs."""
        return [repo.url for repo in (self.record.repos or [])] if self.record else []

    def idle_seconds(self, now: float) -> float | None:
        """Since the latest run last changed (a RUNNING run's `updatedAt` is frozen: then since its start)."""
        run = self.run
        if run is None:
            return render.since(self.agent.updated_at, now)
        return render.since(run.updated_at or run.created_at, now)

    def document(self, now: float) -> dict[str, Any]:
        """The row for `--json`."""
        run = self.run
        return {
            "agent_id": self.agent.id,
            "name": self.agent.name,
            "agent_status": self.agent.status,
            "run_id": self.agent.latest_run_id,
            "run_status": None if run is None else run.status,
            "repos": self.repos(),
            "branches": self.branches(),
            "url": self.agent.url,
            "age_seconds": _whole(render.since(self.agent.created_at, now)),
            "idle_seconds": _whole(self.idle_seconds(now)),
            "read_error": self.read_error,
        }


def _whole(seconds: float | None) -> int | None:
    return None if seconds is None else max(0, round(seconds))


async def _read(api: CursorClient, row: AgentLine) -> None:
    try:
        row.record = await api.get_agent(row.agent.id)
        run_id = row.agent.latest_run_id
        row.run = None if run_id is None else await api.get_run(row.agent.id, run_id)
    except CursorError as exc:
        row.read_error = failure_of(exc).code


async def read_rows(session: Session, *, limit: int, name: str | None, archived: bool) -> list[AgentLine]:
    """Up to `limit` agents (newest first) whose name holds `name`, each with its record and latest run."""

    def named(agent: AgentSummary) -> bool:
        return name is None or name.lower() in (agent.name or "").lower()

    page = await scan.scan_agents(
        session.api,
        limit=limit,
        cursor=None,
        keep=None if name is None else named,
        mark=scan.fingerprint("terminal-agents", name, archived),
        include_archived=archived,
    )
    rows = [AgentLine(summary) for summary in page.items]
    await each_in_flight(rows, partial(_read, session.api))
    return rows


def table(rows: list[AgentLine], now: float) -> Table:
    """The rows as a table; each agent's id whole on a line under its name (what `watch`, `diff` and `keep` take,
    never cut or folded, even at 80 columns), then its web URL."""
    grid = Table(show_edge=False, pad_edge=False, header_style="bold", caption=f"model: {MODEL_UNKNOWN}")
    grid.add_column("agent", overflow="fold", min_width=render.ID_WIDTH, ratio=3)
    for column in ("run", "repo", "branch / PR"):
        grid.add_column(column, overflow="fold", ratio=1)
    for column in ("age", "idle"):
        grid.add_column(column, no_wrap=True)
    for row in rows:
        name = agent_text(row.agent.name or row.agent.id, "bold")
        name.append("\n").append_text(agent_text(row.agent.id))
        if row.agent.url:
            name.append("\n").append_text(agent_text(row.agent.url, "dim"))
        run_status = render.status(None if row.run is None else row.run.status)
        if row.read_error:
            run_status = Text(f"unreadable ({row.read_error})", style="red")
        grid.add_row(
            name,
            run_status,
            agent_text("\n".join(render.short_repo(url) for url in row.repos()) or render.NONE),
            agent_text("\n".join(row.branches()) or render.NONE),
            Text(render.duration(render.since(row.agent.created_at, now))),
            Text(render.duration(row.idle_seconds(now))),
        )
    return grid


async def agents(term: Term, *, limit: int, name: str | None, archived: bool) -> int:
    """List agents as a table, or as one JSON document."""
    if limit > MAX_LIMIT:
        raise UsageError(f"--limit is at most {MAX_LIMIT}; narrow the list with --name instead")
    async with term.open_session() as session:
        rows = await read_rows(session, limit=limit, name=name, archived=archived)
        now = session.now()
    if term.json:
        term.emit({"agents": [row.document(now) for row in rows]})
    elif rows:
        term.out.print(table(rows, now))
    else:
        term.out.print("No agents." if name is None else f"No agent's name contains {name!r}.", markup=False)
    return OK
