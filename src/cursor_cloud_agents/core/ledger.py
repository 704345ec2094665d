"""Never more than allowed: how many agents this machine's servers created in the last 24 hours, against a limit.

A model can loop, and every creation is paid. `CURSOR_MCP_MAX_NEW_AGENTS` bounds the agents created
through this machine per rolling 24 hours, across every server process and command: two client windows
share one limit. A creation takes its place (`Act.counted`) in the same store entry that the journal
reads, written under the store's lock and flushed before its POST leaves, so a crash between the two
counts it: money is never under-counted. A creation asked again with the same agent id (the journal's
re-send) does not count twice, and one Cursor refused (a 4xx: no agent was made) gives its place back,
so that a model retrying a refused creation does not use up the user's day. Each entry keeps the agent's
id once known, so that the spend limit can add up what the agents created in the window cost. What the
store cannot read is counted (`core/store.py`), and a store that cannot be used refuses the creation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cursor_cloud_agents.core.store import Act, Reading, Store
from cursor_cloud_agents.core.timing import CREATION_WINDOW_SECONDS

WINDOW_SECONDS = CREATION_WINDOW_SECONDS


class LimitReached(Exception):
    """No creation may be sent now: `count` creations in the window (`asked` more would pass `limit`), the oldest
    leaving it at `frees_at`."""

    def __init__(self, count: int, limit: int, frees_at: float | None, asked: int = 1) -> None:
        super().__init__(f"{count} of {limit} creations in the last 24 hours, {asked} more asked")
        self.count = count
        self.limit = limit
        self.frees_at = frees_at
        self.asked = asked
        """How many creations were asked at once (a set of attempts takes all its places or none)."""


def counted(reading: Reading, now: float) -> list[Act]:
    """The creations that hold a place in the window now."""
    return [act for act in reading.of("create") if act.counted and now - act.at < WINDOW_SECONDS]


def use_of(reading: Reading, now: float) -> tuple[int, float | None]:
    """How many creations are in the window, and when the oldest leaves it."""
    times = [act.at for act in counted(reading, now)]
    return len(times), (min(times) + WINDOW_SECONDS if times else None)


class CreationLedger:
    """The ledger's view of the store: the creations of the last 24 hours against `limit`."""

    def __init__(self, store: Store, limit: int) -> None:
        self.store = store
        self.limit = limit
        self.rules: list[Callable[[Reading, float, int], None]] = []
        """Further checks new creations pass under the same lock, on the acts as they are then, with how many
        places they take (the slot limit: a creation another process wrote since its check counts); each raises
        to refuse."""

    async def use(self, now: float) -> tuple[int, float | None]:
        """How many creations are in the window, and when the oldest leaves it.

        Raises:
            StoreUnusable: the store cannot be read, so the use is not known.
        """
        return use_of(await self.store.read(now), now)

    async def agents(self, now: float) -> list[str]:
        """The ids of the agents created in the window (those known: a creation with variables learns its id
        only from the answer)."""
        return [act.agent_id for act in counted(await self.store.read(now), now) if act.agent_id is not None]

    def admit(self, reading: Reading, acts: Sequence[Act], now: float) -> list[Act]:
        """`acts` (new creations), to be written, if the window has room for all of them (for `Store.change`,
        under its lock): a set of attempts takes its places together or not at all.

        Raises:
            LimitReached: the window has fewer than `len(acts)` places left; nothing is written.
        """
        held = counted(reading, now)
        if len(held) + len(acts) > self.limit:
            frees_at = min(a.at for a in held) + WINDOW_SECONDS if held else None
            raise LimitReached(len(held), self.limit, frees_at, asked=len(acts))
        for rule in self.rules:
            rule(reading, now, len(acts))
        return list(acts)

    async def take(self, *acts: Act) -> None:
        """Write `acts` (new creations, counted, decided at the same time) unless the limit has no room for all.

        Raises:
            LimitReached: nothing was written.
            StoreUnusable: the store cannot be used; nothing was written.
        """
        at = acts[0].at
        await self.store.change(lambda reading: self.admit(reading, acts, at), at)
