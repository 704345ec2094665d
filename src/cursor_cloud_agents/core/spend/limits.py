"""The limits the user sets on what a model may start: agents running at once, and cents per 24 hours.

(The count of creations per 24 hours is the creation ledger's, checked as the creation takes its place.)
Both checks run before anything is sent and refuse with what was seen and what the user can do:
- slots (`CURSOR_MCP_MAX_ACTIVE_AGENTS`): every page of this key's non-archived agents, read once per 30 s,
  plus the creations of this machine's processes that the listing cannot show yet (core/spend/slots.py); at
  the limit the count is confirmed by the agents' latest runs before the answer is `CAPACITY`, with the
  oldest idle agents to archive. Cursor's own refusal of too many agents at once gets the same answer.
  A burst of creations reads the listing once: each creation is in the store before it is sent;
- spend (`CURSOR_MCP_MAX_SPEND_CENTS`): the charged cents of the paid runs this machine's processes sent
  in the window (creations and follow-ups, from the store), each agent's usage read at most once a minute.
  Cost arrives late (it is eventually consistent): a run whose cost is not reported yet counts at its
  estimate, the preview's price (core/spend/spending.py), never as zero-and-fine and never as a credit (a charge
  that is negative, not a number or absent); a set of attempts is checked whole, as its runs one after another.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.advice import Step, advice
from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.spend import ledger
from cursor_cloud_agents.core.spend.slots import Listing, TooManyAgents, confirmed, count, covers, read_listing
from cursor_cloud_agents.core.spend.spending import Spend, paid_runs, tally
from cursor_cloud_agents.core.store import Store, StoreUnusable
from cursor_cloud_agents.core.timing import SLOTS_SECONDS, USAGE_SECONDS, Clock

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
    creating: int = 0
    """Of `active`, the creations of this machine's processes the listing does not show yet."""
    confirm_requests: int = 0
    """The requests that confirmed the count by the agents' latest runs (0: not at the limit, not confirmed)."""

    @property
    def full(self) -> bool:
        return self.active >= self.limit


class Limits:
    """The slot and spend checks of one server, with their caches."""

    def __init__(self, settings: Settings, store: Store, clock: Clock) -> None:
        self.max_new = settings.max_new_agents
        self.max_active = settings.max_active_agents
        self.max_cents = settings.max_spend_cents
        self._store = store
        self._clock = clock
        self._agents: Cache[str, Listing] = Cache(clock, 1, SLOTS_SECONDS)
        self._usage: Cache[str, Usage | None] = Cache(clock, 256, USAGE_SECONDS)
        self._reading = anyio.Lock()
        """Held while the listing is looked up, read and kept: checks at once read it once (SL-84)."""
        self._spending = anyio.Lock()
        """Held while the usage of the window's agents is read and kept: checks at once read each once."""
        self._checked: Listing | None = None
        """The listing the last slot check counted from, for the same count under the store's lock."""

    async def take(self, act: Act) -> None:
        """Write a new creation, its place taken, unless the creation limit is reached or the slot check made
        before it, counted again under the store's lock, finds no slot left.

        Raises:
            LimitReached: the creation limit; CAPACITY (ToolFailure): the slots; nothing was written then.
            StoreUnusable: the store cannot be used; nothing was written.
        """
        await self.take_all([act])

    async def take_all(self, acts: Sequence[Act]) -> None:
        """`take` for new creations decided together (a set of attempts): every place and slot, or none.

        Raises:
            LimitReached, CAPACITY (ToolFailure), StoreUnusable: as `take`; nothing was written then.
        """
        places = len(acts)

        def room(reading: Reading, now: float) -> None:
            self._room_still_left(reading, now, places)

        await ledger.take_all(self._store, acts, self.max_new, room)

    async def creations(self) -> tuple[int, float | None]:
        """How many creations are in the 24-hour window now, and when the oldest leaves it.

        Raises:
            StoreUnusable: the store cannot be read, so the use is not known.
        """
        now = self._clock.now()
        return ledger.use_of(await self._store.read(now), now)

    async def before_create(self, api: CursorClient, places: int = 1) -> None:
        """Refuse a creation (or `places` creations at once) over either limit (`LIMIT_REACHED`, `CAPACITY`);
        nothing is sent then.

        It runs under the journal's lock, right before the creation is written to the store as sent: the next
        check (of this process or another) counts it from there, so creations at once cannot all take the
        last slot."""
        await self.check_room(api, places)

    async def check_room(self, api: CursorClient, places: int = 1) -> None:
        """Refuse as `before_create` would now: also to say so before the person is asked."""
        await self.before_spending(api, places)
        try:
            slots = await self.slots(api)
        except StoreUnusable as unusable:
            raise failures.store_unusable(unusable.why) from None
        self._refuse_when_full(slots, places)

    def _refuse_when_full(self, slots: Slots, places: int = 1) -> None:
        if slots.active + places <= slots.limit:
            return
        starting = f" ({slots.creating} of them created through this machine, not listed yet)" if slots.creating else ""
        confirmed_by = (
            f", confirmed by their latest runs ({slots.confirm_requests} requests)" if slots.confirm_requests else ""
        )
        asked = f" and {places} more were asked for at once (all or none)" if places > 1 else ""
        raise self.capacity(
            slots,
            f"{slots.active} agents of this key are running{starting}{confirmed_by}{asked}, the limit "
            f"CURSOR_MCP_MAX_ACTIVE_AGENTS={slots.limit} set by the user",
        )

    def _room_still_left(self, reading: Reading, now: float, places: int = 1) -> None:
        """The slot check again, under the store's lock as the creation is written (`take`), on
        the listing it counted from: a creation another process wrote since then takes its slot first."""
        del now
        checked, self._checked = self._checked, None  # one check, one creation
        if checked is not None:
            self._refuse_when_full(self._slots(checked, reading), places)

    async def before_spending(self, api: CursorClient, runs: int = 1) -> None:
        """Refuse a paid call (a creation or follow-up; `runs` of them sent one after another, as a set of
        attempts is) once the spend limit is reached, the runs not reported yet counted at their estimate
        (core/spend/spending.py): a burst is refused at the limit, not after it."""
        if self.max_cents is None:
            return
        spend = await self.spend(api)
        if spend.with_more(runs - 1) >= self.max_cents:
            raise self._spend_reached(spend, runs)

    def _spend_reached(self, spend: Spend, runs: int) -> ToolFailure:
        assert self.max_cents is not None
        unknown = f" ({spend.unknown} more have no known cost yet)" if spend.unknown else ""
        estimated = (
            f", and {spend.unreported} paid runs whose cost Cursor has not reported yet count at their estimate of "
            f"{spend.estimate_cents:.0f} cents each (the price the preview shows; the real cost replaces it when "
            f"it arrives): {spend.counted:.0f} cents counted"
            if spend.unreported
            else ""
        )
        asked = (
            f"; {runs} runs were asked for at once, which would count {spend.with_more(runs):.0f}" if runs > 1 else ""
        )
        return ToolFailure(
            failures.LIMIT_REACHED,
            f"The agents created through this machine's servers in the last 24 hours "
            f"were charged {spend.cents:.0f} cents{unknown}{estimated}{asked}, the limit CURSOR_MCP_MAX_SPEND_CENTS="
            f"{self.max_cents:.0f} set by the user; nothing was sent. Reading agents and results still works; "
            "only the user can raise the limit.",
            spent_cents=round(spend.cents, 2),
            limit_cents=self.max_cents,
            agents_without_cost=spend.unknown,
            counted_cents=round(spend.counted, 2) if spend.unreported else None,
            unreported_runs=spend.unreported or None,
            estimate_cents=round(spend.estimate_cents, 2) if spend.unreported else None,
            asked=runs if runs > 1 else None,
        )

    async def refused(self, api: CursorClient, refusal: ConcurrencyLimitError) -> ToolFailure:
        """Cursor's own refusal of one agent too many, as `CAPACITY` with the agents the user may archive."""
        self.forget_agents()
        failure = self.capacity(await self.slots(api), f"Cursor refused a new agent: {refusal.message}")
        failure.context |= {"http_status": refusal.status_code, "upstream_code": refusal.code}
        return failure

    async def use_line(self, api: CursorClient) -> str:
        """Each limit's use in a few words, for the person asked to confirm a creation."""
        created, _ = await self.creations()
        slots = await self.slots(api)
        line = f"{created} of {self.max_new} new agents in 24 h; {slots.active} of {slots.limit} running"
        if self.max_cents is None:
            return line
        spend = await self.spend(api)
        unknown = f" ({spend.unknown} agents' cost not known)" if spend.unknown else ""
        estimated = (
            f", {spend.counted:.0f} counted with {spend.unreported} runs not reported yet at "
            f"{spend.estimate_cents:.0f} each"
            if spend.unreported
            else ""
        )
        return f"{line}; {spend.cents:.0f} of {self.max_cents:.0f} cents spent in 24 h{unknown}{estimated}"

    def forget_agents(self) -> None:
        """What runs has changed in a way the store does not record (Cursor refused one agent too many): the
        next slot check reads the listing again."""
        self._agents.clear()

    async def slots(self, api: CursorClient) -> Slots:
        """The key's agents running now and the oldest idle ones; at the limit, confirmed by their latest runs.

        Raises:
            StoreUnusable: the store of paid acts cannot be read (the creations in flight are not known).
        """
        # Looked up, read and kept under one lock: checks arriving together would each find the cache empty
        # and each read every page (the check, await, act shape); the ones after the first count from it.
        async with self._reading:
            listing, pages_read = self._agents.get(""), 0
            if listing is None:
                listing, pages_read = await self._listing(api)
            reading = await self._store.read(self._clock.now())
            if count(listing, reading).total >= self.max_active and not covers(listing, reading):
                if not pages_read:  # a kept listing may show agents that ended since, or miss some just created
                    listing, pages_read = await self._listing(api)
                listing = await confirmed(api, listing, reading, pages_read)
                self._agents.put("", listing)  # the next checks within 30 s count from the confirmed runs
        self._checked = listing
        return self._slots(listing, reading)

    async def _listing(self, api: CursorClient) -> tuple[Listing, int]:
        """Every page of the key's non-archived agents, kept 30 s, and how many pages were read."""
        try:
            listing = await read_listing(api, self._clock.now())
        except TooManyAgents:
            raise ToolFailure(
                failures.CAPACITY,
                "The key's non-archived agents could not all be listed (more than 5000, or a "
                "listing that does not end), so the agents running cannot be counted against "
                f"CURSOR_MCP_MAX_ACTIVE_AGENTS={self.max_active}; nothing was sent.",
                advice=advice(Step.ARCHIVE_IDLE),
                limit=self.max_active,
            ) from None
        self._agents.put("", listing)
        return listing, listing.pages

    def _slots(self, listing: Listing, reading: Reading) -> Slots:
        now = self._clock.now()
        running = count(listing, reading)
        counted = {agent.id for agent in running.listed}
        idle = sorted(
            (agent for agent in listing.agents if agent.id not in counted and agent.status != "ARCHIVED"),
            key=lambda agent: epoch(agent.updated_at) or now,
        )
        return Slots(
            active=running.total,
            limit=self.max_active,
            oldest_idle=[IdleAgent.of(agent, now) for agent in idle[:IDLE_SUGGESTIONS]],
            creating=len(running.in_flight),
            confirm_requests=listing.confirm_requests,
        )

    async def spend(self, api: CursorClient) -> Spend:
        async with self._spending:  # as the listing: checks at once would each read every agent's usage
            return await self._spend(api)

    async def _spend(self, api: CursorClient) -> Spend:
        now = self._clock.now()
        paid = paid_runs(await self._store.read(now), now)
        usages: dict[str, Usage | None] = {}
        unchecked: list[ToolFailure] = []

        async def read(agent_id: str, gate: anyio.Semaphore) -> None:
            async with gate:
                try:
                    usages[agent_id] = await self._read_usage(api, agent_id)
                except ToolFailure as failure:  # raised once, plainly, rather than grouped per agent
                    unchecked.append(failure)

        gate = anyio.Semaphore(USAGE_READS_AT_ONCE)
        async with anyio.create_task_group() as group:
            for agent_id in paid.agents():
                group.start_soon(read, agent_id, gate)
        if unchecked:
            raise unchecked[0]
        return tally(paid, usages)

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
                failures.CONFIGURATION,
                "CURSOR_MCP_MAX_SPEND_CENTS is set, but Cursor does not report usage "
                f"to this key ({refused.message}), so the spend cannot be checked; nothing was sent. The user "
                "can unset the spend limit (CURSOR_MCP_MAX_NEW_AGENTS still bounds creations).",
                http_status=refused.status_code,
                upstream_code=refused.code,
            ) from None
        self._usage.put(agent_id, usage)  # a cost not known yet is asked again a minute later
        return usage

    def capacity(self, slots: Slots, why: str) -> ToolFailure:
        """The `CAPACITY` answer: why, and the oldest idle agents the user may archive."""
        listed = ", ".join(map(str, slots.oldest_idle))
        return ToolFailure(
            failures.CAPACITY,
            f"{why}; nothing was sent.",
            advice=advice(Step.WAIT_OR_ARCHIVE, idle=listed or None),
            active=slots.active,
            limit=slots.limit,
            oldest_idle=[asdict(agent) for agent in slots.oldest_idle] or None,
        )
