"""The attempts of a group side by side, and one of them kept.

Compare reads each attempt's agent, its latest run and its usage (8 at a time) and, once the run ended with a
branch, the size of its change (files, lines added and removed) from git where the person has it
(core/review/changes.py; unknown when this process has no git places, or git cannot read the branch, and said why).
Each row is bounded (the first lines of the result, cleaned: it is agent text), so eight rows fit well under
the result cap whatever the results hold. A check command's verdict is not read here yet: the check runs in
a throwaway clone (`core/review/checks.py`), only when the person asks, and is its own act; the rows say so.

Keep archives every other attempt (reversible: unarchive), each archive settled by reading the agent when
its answer is lost, and says what was archived, what already was, and what could not be.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cursor_cloud_agents.api import (
    Agent,
    CursorClient,
    CursorError,
    MutationOutcomeUnknownError,
    NotFoundError,
    Run,
)
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.attempts.groups import Attempt, Group
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.review.changes import ChangeSize, GitPlaces, read_change, target_of
from cursor_cloud_agents.core.runs.watch import each_in_flight
from cursor_cloud_agents.core.untrusted import clean

RESULT_LINES = 3
RESULT_CHARS = 300
"""The start of each attempt's result: enough to tell attempts apart, bounded so any N fits under the cap."""


@dataclass
class AttemptRow:
    """One attempt as compare shows it."""

    attempt: int
    model: str | None
    agent_id: str | None
    status: str
    """The latest run's status; `NOT_MADE` (refused, or never sent), `CREATING` (Cursor has not shown it yet),
    `DELETED`, `UNREADABLE` (a read failed: `note` says why)."""
    running: bool = False
    run_id: str | None = None
    duration_seconds: int | None = None
    cost_cents: float | None = None
    change: ChangeSize | None = None
    change_note: str | None = None
    """Why the change size is unknown (not pushed yet, no git, no access...)."""
    commit: str | None = None
    """The commit whose change was measured (a check verdict belongs to one commit)."""
    archived: bool = False
    result_head: str | None = None
    note: str | None = None


@dataclass
class Comparison:
    group: Group
    rows: list[AttemptRow] = field(default_factory=list[AttemptRow])

    @property
    def running(self) -> list[str]:
        return [row.agent_id for row in self.rows if row.running and row.agent_id]

    @property
    def kept(self) -> str | None:
        """The attempt kept: the one readable attempt left unarchived while the others are (what `keep` leaves)."""
        made = [row for row in self.rows if row.agent_id and row.status not in ("NOT_MADE", "DELETED", "UNREADABLE")]
        left = [row.agent_id for row in made if not row.archived]
        return left[0] if len(left) == 1 and len(made) > 1 else None


async def compare_attempts(
    api: CursorClient, group: Group, now: float, places: GitPlaces | None, roots: Sequence[Path] = ()
) -> Comparison:
    """Every attempt of `group` read side by side (reads only: nothing is sent that changes anything)."""
    rows: dict[int, AttemptRow] = {}
    read: dict[int, tuple[Agent, Run]] = {}

    async def one(attempt: Attempt) -> None:
        rows[attempt.index] = await _row(api, attempt, now, read)

    await each_in_flight(group.attempts, one)
    # Git reads one change at a time: the attempts share a repository, whose cache is made once; git is heavy.
    for index, (agent, run) in sorted(read.items(), key=lambda item: item[0]):
        rows[index].change, rows[index].commit, rows[index].change_note = await _change(agent, run, places, roots)
    return Comparison(group, [rows[index] for index in sorted(rows)])


async def _row(api: CursorClient, attempt: Attempt, now: float, read: dict[int, tuple[Agent, Run]]) -> AttemptRow:
    row = AttemptRow(attempt.index, attempt.model, attempt.agent_id, "NOT_MADE")
    row.change_note = "unknown: no run to read"
    if attempt.agent_id is None or attempt.state == "failed":
        row.note = "Cursor refused this attempt; asking for the same set again creates it."
        return row
    try:
        agent = await api.get_agent(attempt.agent_id)
    except NotFoundError:
        row.status = "CREATING" if attempt.state == "sent" else "DELETED"
        return row
    except CursorError as exc:
        row.status, row.note = "UNREADABLE", failures.from_api_error(exc).message
        return row
    row.archived = agent.status == "ARCHIVED"
    run_id = agent.latest_run_id or attempt.run_id
    if run_id is None:
        row.status, row.running = "CREATING", True
        return row
    try:
        run = await api.get_run(agent.id, run_id)
    except CursorError as exc:
        row.status, row.note, row.run_id = "UNREADABLE", failures.from_api_error(exc).message, run_id
        return row
    row.status, row.running, row.run_id = run.status, not run.is_terminal, run.id
    row.duration_seconds = _duration(run, now)
    row.result_head = _head(run.result)
    row.cost_cents = await _cost(api, agent.id)
    read[attempt.index] = (agent, run)
    return row


def _duration(run: Run, now: float) -> int | None:
    if run.duration_ms is not None:
        return round(run.duration_ms / 1000)
    started = epoch(run.created_at)
    if started is None:
        return None
    ended = epoch(run.updated_at) if run.is_terminal else now
    return None if ended is None else max(0, round(ended - started))


def _head(result: str | None) -> str | None:
    """The first lines of a result, cleaned (agent text) and bounded."""
    if not result:
        return None
    lines = [line.strip() for line in clean(result[: RESULT_CHARS * 4]).splitlines() if line.strip()]
    head = "\n".join(lines[:RESULT_LINES])
    return head if len(head) <= RESULT_CHARS else head[: RESULT_CHARS - 1] + "…"


async def _cost(api: CursorClient, agent_id: str) -> float | None:
    """The agent's charged cents so far; None when Cursor does not say (yet, or to this key)."""
    try:
        usage = await api.get_usage(agent_id)
    except CursorError:
        return None
    cents = None if usage.cost is None else usage.cost.charged_cents
    return None if cents is None or cents < 0 else round(cents, 2)


async def _change(
    agent: Agent, run: Run, places: GitPlaces | None, roots: Sequence[Path]
) -> tuple[ChangeSize | None, str | None, str | None]:
    """The change's size and commit, or why they are unknown."""
    if places is None:
        return None, None, "unknown: this process has no git to read branches with"
    if not run.is_terminal:
        return None, None, "not pushed yet: the run is still going"
    try:
        change = await read_change(places, target_of(agent, run), roots)
    except ToolFailure as failure:
        return None, None, f"unknown: {failure.message.split('. ')[0]}"
    return change.size, change.head, None


@dataclass
class Kept:
    """What keeping one attempt did to the others."""

    kept: str
    archived: list[str] = field(default_factory=list[str])
    already_archived: list[str] = field(default_factory=list[str])
    gone: list[str] = field(default_factory=list[str])
    """Attempts Cursor does not know (deleted, or never made)."""
    failed: list[tuple[str, str]] = field(default_factory=list[tuple[str, str]])
    """(agent id, why) of archives that did not happen: asking again retries them."""


async def keep(api: CursorClient, group: Group, agent_id: str) -> Kept:
    """Keep `agent_id`, archive the other attempts of `group` (reversible with unarchive).

    Raises:
        ToolFailure: VALIDATION when `agent_id` is not an attempt of the group; nothing was archived.
    """
    others = [other for other in group.agent_ids if other.lower() != agent_id.lower()]
    if len(others) == len(group.agent_ids):
        listed = ", ".join(group.agent_ids) or "none"
        raise ToolFailure(
            failures.VALIDATION,
            f"{agent_id} is not an attempt of group {group.id} (its attempts: {listed}); nothing was archived.",
            group_id=group.id,
        )
    kept = Kept(agent_id)

    async def archive(other: str) -> None:
        await _archive(api, other, kept)

    await each_in_flight(others, archive)
    for names in (kept.archived, kept.already_archived, kept.gone):
        names.sort(key=others.index)
    return kept


async def _archive(api: CursorClient, agent_id: str, kept: Kept) -> None:
    try:
        agent = await api.get_agent(agent_id)
    except NotFoundError:
        kept.gone.append(agent_id)
        return
    except CursorError as exc:
        kept.failed.append((agent_id, failures.from_api_error(exc).message))
        return
    if agent.status == "ARCHIVED":
        kept.already_archived.append(agent_id)
        return
    try:
        await api.archive_agent(agent_id)
    except MutationOutcomeUnknownError:
        if await _archived(api, agent_id):  # archiving twice is harmless: the lost answer is settled by a read
            kept.archived.append(agent_id)
        else:
            kept.failed.append((agent_id, "the archive's answer was lost and the agent is not archived"))
        return
    except CursorError as exc:
        kept.failed.append((agent_id, failures.from_api_error(exc).message))
        return
    kept.archived.append(agent_id)


async def _archived(api: CursorClient, agent_id: str) -> bool:
    try:
        return (await api.get_agent(agent_id)).status == "ARCHIVED"
    except CursorError:
        return False
