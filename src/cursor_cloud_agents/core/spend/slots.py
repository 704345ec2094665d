"""Counting the key's agents that run now, for `CURSOR_MCP_MAX_ACTIVE_AGENTS` (the check is in core/spend/limits.py).

What runs is read from three places, each covering what the others cannot see:
- the listing: every page of the key's non-archived agents, not just the newest (a follow-up makes an
  old agent run again); an agent counts unless it is listed `IDLE`;
- the store of paid acts: the creations of every process on this machine that the listing cannot show
  yet (decided less than the API's creation time before the listing was read, and not among its agents),
  so that another process's creation in flight, or one answered after the listing was read, counts;
- at the limit only, the latest run of each agent counted (`CREATING`, `QUEUED`, `RUNNING`), read with the
  listing afresh: an API that lists an agent `ACTIVE` once its run has ended (docs/api-contract.md §2a:
  ACTIVE also means waiting on background work) cannot refuse a creation the user's limit allows. What
  cannot be read stays counted (a read that fails, an agent without a run yet, a creation still in flight).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cached_property

from cursor_cloud_agents.api import ACTIVE_RUN_STATUSES, AgentSummary, CursorClient, CursorError, NotFoundError
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.runs.watch import each_in_flight
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, NAME_MATCH_SLACK_SECONDS

SLOT_PAGE = 100
"""Agents per page of the slot listing: the API's largest page."""
MAX_SLOT_PAGES = 50
"""Pages read at most (5 000 agents): past that the running ones cannot all be counted, and a creation is
refused rather than let through uncounted."""
NOT_RUNNING = frozenset({"IDLE", "ARCHIVED"})
"""Agent statuses that say no run is going; any other (ACTIVE, or a status newer than this code) counts."""


class TooManyAgents(Exception):
    """The listing did not end within `MAX_SLOT_PAGES` pages, or handed back a cursor it had handed before."""


@dataclass(frozen=True)
class Listing:
    """The key's non-archived agents, every page, as read at `at`."""

    agents: list[AgentSummary]
    at: float
    pages: int
    running: dict[str, bool] | None = None
    """Once confirmed at the limit: for each agent that counted, whether its latest run has not ended."""
    confirm_requests: int = 0
    """The requests the confirmation took (its listing's pages and the reads of runs and agents)."""

    @cached_property
    def ids(self) -> frozenset[str]:
        return frozenset(_key(agent.id) for agent in self.agents)

    def holds(self, act: Act) -> bool:
        """Whether this listing shows the agent of a creation (by id, or for one without an id, by name)."""
        if act.agent_id is not None:
            return _key(act.agent_id) in self.ids
        return any(
            agent.name == act.name and (epoch(agent.created_at) or 0.0) >= act.at - NAME_MATCH_SLACK_SECONDS
            for agent in self.agents
        )

    def runs(self, agent_id: str | None) -> bool:
        """Whether an agent counted still counts: True unless the confirmation saw its latest run ended."""
        return self.running is None or agent_id is None or self.running.get(_key(agent_id), True)


@dataclass(frozen=True)
class Count:
    """The agents counted as running: those listed, and the creations the listing cannot show yet."""

    listed: list[AgentSummary]
    in_flight: list[Act]

    @property
    def total(self) -> int:
        return len(self.listed) + len(self.in_flight)


async def read_listing(api: CursorClient, now: float) -> Listing:
    """Every page of the key's non-archived agents (an agent on two pages, counted once).

    Raises:
        TooManyAgents: the listing has no end that can be read.
    """
    agents: dict[str, AgentSummary] = {}
    cursor: str | None = None
    handed: set[str] = set()
    for pages in range(1, MAX_SLOT_PAGES + 1):
        page = await api.list_agents(limit=SLOT_PAGE, cursor=cursor, include_archived=False)
        for agent in page.items:
            agents.setdefault(_key(agent.id), agent)
        cursor = page.next_cursor
        if cursor is None:
            return Listing(list(agents.values()), now, pages)
        if cursor in handed:  # a listing that loops would be read forever
            break
        handed.add(cursor)
    raise TooManyAgents


def in_flight(reading: Reading, listing: Listing) -> Iterator[Act]:
    """The creations of this machine's processes that may run and that the listing cannot show: counted (sent
    or answered, not refused), decided less than the API's creation time before it was read, not among its
    agents. A line of the store that could not be read has no agent to look for: it holds a place in the
    creation count, not a slot (the listing shows any agent it made)."""
    for act in reading.of("create"):
        recent = act.at > listing.at - API_CREATION_SECONDS
        if act.counted and act.state != "failed" and not act.unreadable and recent and not listing.holds(act):
            yield act


def count(listing: Listing, reading: Reading) -> Count:
    """The agents running as far as the listing, the store and any confirmation tell."""
    listed = [agent for agent in listing.agents if agent.status not in NOT_RUNNING and listing.runs(agent.id)]
    flying = [act for act in in_flight(reading, listing) if listing.runs(act.agent_id)]
    return Count(listed, flying)


def covers(listing: Listing, reading: Reading) -> bool:
    """Whether a confirmation already tells all it can: the listing was confirmed, and no creation it counts as
    in flight was decided after it was read (a fresh listing might show that one ended). So the refusals at a
    full limit confirm once, not at every call."""
    return listing.running is not None and all(act.at < listing.at for act in in_flight(reading, listing))


async def confirmed(api: CursorClient, listing: Listing, reading: Reading, pages_read: int) -> Listing:
    """`listing` with the latest run of each agent it counts read (8 at a time): whether each still runs.

    A creation the listing does not show yet is read by its id only once answered (a 404 then means it was
    deleted); one still in flight is not read, since Cursor may be creating it, and stays counted."""
    running: dict[str, bool] = {}
    requests = pages_read

    async def latest_run_active(agent_id: str, run_id: str | None) -> bool:
        nonlocal requests
        if run_id is None:
            return True  # no run yet: one is about to start
        requests += 1
        try:
            run = await api.get_run(agent_id, run_id)
        except CursorError:
            return True  # cannot be confirmed: stays counted
        return run.status in ACTIVE_RUN_STATUSES

    async def listed(agent: AgentSummary) -> None:
        running[_key(agent.id)] = await latest_run_active(agent.id, agent.latest_run_id)

    async def answered(agent_id: str) -> None:
        nonlocal requests
        requests += 1
        try:
            agent = await api.get_agent(agent_id)
        except NotFoundError:
            running[_key(agent_id)] = False  # answered, then deleted
            return
        except CursorError:
            return  # cannot be confirmed: stays counted
        running[_key(agent_id)] = agent.status != "ARCHIVED" and await latest_run_active(agent.id, agent.latest_run_id)

    counted = count(listing, reading)
    await each_in_flight(counted.listed, listed)
    await each_in_flight([act.agent_id for act in counted.in_flight if act.agent_id and act.state == "done"], answered)
    return replace(listing, running=running, confirm_requests=requests)


def _key(agent_id: str) -> str:
    # The API takes ids in any hex case and answers in lowercase (docs/api-contract.md quirk 15).
    return agent_id.lower()
