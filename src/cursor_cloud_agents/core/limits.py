"""The limits the user sets on what a model may start: agents running at once, and cents per 24 hours.

(The count of creations per 24 hours is the creation ledger's, checked as the creation takes its place.)
Both checks run before anything is sent and refuse with what was seen and what the user can do:
- slots (`CURSOR_MCP_MAX_ACTIVE_AGENTS`): one read of this key's agents, kept 30 s, counts those
  running; at the limit the answer is `CAPACITY` with the oldest idle agents to archive. Cursor's own
  refusal of too many agents at once gets the same answer;
- spend (`CURSOR_MCP_MAX_SPEND_CENTS`): the charged cents of the agents this machine's servers created
  in the window (the ledger knows them), each agent's usage read at most once a minute. Cost arrives
  late (it is eventually consistent): an agent whose cost is not known yet is counted as unknown and
  said so, never as zero-and-fine.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import anyio

from cursor_cloud_agents.api import (
    AgentSummary,
    ConcurrencyLimitError,
    CursorClient,
    NotFoundError,
    PermissionDeniedError,
    Usage,
)
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.ledger import CreationLedger
from cursor_cloud_agents.core.timing import Clock

SLOTS_SECONDS = 30.0
"""The agents of the key are read once per 30 s for the slot check (a burst of creations reads once)."""
USAGE_SECONDS = 60.0
"""An agent's usage is read at most once a minute for the spend limit."""
SLOT_PAGE = 100
"""The newest agents read for the slot check: running agents are recent, so one page tells."""
IDLE_SUGGESTIONS = 5
"""The oldest idle agents a CAPACITY answer names: enough to free a slot, short enough to read."""
USAGE_READS_AT_ONCE = 4
"""Usage reads in flight for the spend check: half the client's 8, so other calls still get through."""


@dataclass(frozen=True)
class IdleAgent:
    """An idle agent the user may archive to free a slot, as the CAPACITY answer lists it."""

    agent_id: str
    name: str | None
    idle_minutes: int | None

    @classmethod
    def of(cls, agent: AgentSummary, now: float) -> IdleAgent:
        since = epoch(agent.updated_at)
        return cls(agent.id, agent.name, None if since is None else max(0, round((now - since) / 60)))

    def __str__(self) -> str:
        # No name: it is text whoever made the agent chose, and stays in the answer's data, never in its message.
        return f"{self.agent_id} (idle {self.idle_minutes} min)"


@dataclass(frozen=True)
class Slots:
    """How many of the key's agents are running, and the oldest idle ones."""

    active: int
    limit: int
    oldest_idle: list[IdleAgent]


@dataclass(frozen=True)
class Spend:
    """What the agents created in the window were charged, and how many of them have no cost yet."""

    cents: float
    unknown: int


def _charged(usage: Usage | None) -> float | None:
    """The agent's charged cents, None when the API has not said yet."""
    return None if usage is None or usage.cost is None else usage.cost.charged_cents


class Limits:
    """The slot and spend checks of one server, with their caches."""

    def __init__(self, settings: Settings, ledger: CreationLedger, clock: Clock) -> None:
        self.max_active = settings.max_active_agents
        self.max_cents = settings.max_spend_cents
        self._ledger = ledger
        self._clock = clock
        self._agents: Cache[str, list[AgentSummary]] = Cache(clock, 1, SLOTS_SECONDS)
        self._usage: Cache[str, Usage | None] = Cache(clock, 256, USAGE_SECONDS)
        self._sending = 0
        """Creations past the slot check and not answered yet: running agents the listing cannot show yet."""

    async def before_create(self, api: CursorClient) -> None:
        """Refuse a creation over either limit (`LIMIT_REACHED`, `CAPACITY`); nothing is sent then. One that
        passes holds its slot until `sent()`, so that creations at once cannot all take the last slot."""
        await self.check_room(api)
        self._sending += 1  # no await between the count and this: the check and the hold are one step

    async def check_room(self, api: CursorClient) -> None:
        """Refuse as `before_create` would now, holding nothing: to say so before the person is asked."""
        await self.before_spending(api)
        self._refuse_without_slot(await self.slots(api))

    def _refuse_without_slot(self, slots: Slots) -> None:
        if slots.active + self._sending >= slots.limit:
            starting = f" and {self._sending} more are being created" if self._sending else ""
            raise self.capacity(slots, f"{slots.active} agents of this key are running{starting}, the limit "
                                f"CURSOR_MCP_MAX_ACTIVE_AGENTS={slots.limit} set by the user")  # fmt: skip

    def sent(self) -> None:
        """A creation that passed `before_create` is answered (or will not be sent): the listing, read afresh
        by the next check, shows its agent if there is one."""
        self._sending -= 1
        self.forget_agents()

    async def before_spending(self, api: CursorClient) -> None:
        """Refuse a paid call (creation or follow-up) once the spend limit is reached."""
        if self.max_cents is None:
            return
        spend = await self.spend(api)
        if spend.cents >= self.max_cents:
            unknown = f" ({spend.unknown} more have no cost yet)" if spend.unknown else ""
            raise ToolFailure(
                failures.LIMIT_REACHED, f"The agents created through this machine's servers in the last 24 hours "
                f"were charged {spend.cents:.0f} cents{unknown}, the limit CURSOR_MCP_MAX_SPEND_CENTS="
                f"{self.max_cents:.0f} set by the user; nothing was sent. Reading agents and results still works; "
                "only the user can raise the limit.",
                spent_cents=round(spend.cents, 2), limit_cents=self.max_cents, agents_without_cost=spend.unknown,
            )  # fmt: skip

    async def refused(self, api: CursorClient, refusal: ConcurrencyLimitError) -> ToolFailure:
        """Cursor's own refusal of one agent too many, as `CAPACITY` with the agents the user may archive."""
        self.forget_agents()
        failure = self.capacity(await self.slots(api), f"Cursor refused a new agent: {refusal.message}")
        failure.context |= {"http_status": refusal.status_code, "upstream_code": refusal.code}
        return failure

    async def use_line(self, api: CursorClient) -> str:
        """Each limit's use in a few words, for the person asked to confirm a creation."""
        created, _ = await self._ledger.use(self._clock.now())
        slots = await self.slots(api)
        line = f"{created} of {self._ledger.limit} new agents in 24 h; {slots.active} of {slots.limit} running"
        if self.max_cents is None:
            return line
        return f"{line}; {(await self.spend(api)).cents:.0f} of {self.max_cents:.0f} cents spent in 24 h"

    def forget_agents(self) -> None:
        """A creation just landed: the next slot check reads again."""
        self._agents.clear()

    async def slots(self, api: CursorClient) -> Slots:
        agents = self._agents.get("")
        if agents is None:
            agents = (await api.list_agents(limit=SLOT_PAGE, include_archived=False)).items
            self._agents.put("", agents)
        now = self._clock.now()
        idle = sorted((a for a in agents if a.status == "IDLE"), key=lambda a: epoch(a.updated_at) or now)
        return Slots(
            active=sum(1 for agent in agents if agent.status == "ACTIVE"), limit=self.max_active,
            oldest_idle=[IdleAgent.of(agent, now) for agent in idle[:IDLE_SUGGESTIONS]],
        )  # fmt: skip

    async def spend(self, api: CursorClient) -> Spend:
        ids = await self._ledger.agents(self._clock.now())
        charged: dict[str, float | None] = {}
        unchecked: list[ToolFailure] = []

        async def read(agent_id: str, gate: anyio.Semaphore) -> None:
            async with gate:
                try:
                    charged[agent_id] = _charged(await self._read_usage(api, agent_id))
                except ToolFailure as failure:  # raised once, plainly, rather than grouped per agent
                    unchecked.append(failure)

        gate = anyio.Semaphore(USAGE_READS_AT_ONCE)
        async with anyio.create_task_group() as group:
            for agent_id in ids:
                group.start_soon(read, agent_id, gate)
        if unchecked:
            raise unchecked[0]
        known = [cents for cents in charged.values() if cents is not None]
        return Spend(sum(known), len(ids) - len(known))

    async def _read_usage(self, api: CursorClient, agent_id: str) -> Usage | None:
        kept = self._usage.get(agent_id)
        if kept is not None:
            return kept
        try:
            usage = await api.get_usage(agent_id)
        except NotFoundError:
            usage = Usage()  # deleted: what it cost can no longer be read, so it stays counted as unknown
        except PermissionDeniedError as refused:  # e.g. 403 feature_unavailable: usage is early access
            raise ToolFailure(
                failures.CONFIGURATION, "CURSOR_MCP_MAX_SPEND_CENTS is set, but Cursor does not report usage "
                f"to this key ({refused.message}), so the spend cannot be checked; nothing was sent. The user "
                "can unset the spend limit (CURSOR_MCP_MAX_NEW_AGENTS still bounds creations).",
                http_status=refused.status_code, upstream_code=refused.code,
            ) from None  # fmt: skip
        self._usage.put(agent_id, usage)  # a cost not known yet is asked again a minute later
        return usage

    def capacity(self, slots: Slots, why: str) -> ToolFailure:
        """The `CAPACITY` answer: why, and the oldest idle agents the user may archive."""
        listed = ", ".join(map(str, slots.oldest_idle))
        archive = f" Oldest idle agents the user may archive (cursor_archive_agent): {listed}." if listed else ""
        return ToolFailure(
            failures.CAPACITY, f"{why}; nothing was sent. Wait for a running agent to end (cursor_wait).{archive}",
            active=slots.active, limit=slots.limit,
            oldest_idle=[asdict(agent) for agent in slots.oldest_idle] or None,
        )  # fmt: skip
