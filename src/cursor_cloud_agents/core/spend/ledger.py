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

from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import CREATION_WINDOW_SECONDS

WINDOW_SECONDS = CREATION_WINDOW_SECONDS


class LimitReached(Exception):
    """No creation may be sent now: `count` creations in the window, the oldest leaving it at `frees_at`."""

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


def agents_of(reading: Reading, now: float) -> list[str]:
    """The ids of the agents created in the window (those known: a creation with variables learns its id only
    from the answer)."""
    return [act.agent_id for act in counted(reading, now) if act.agent_id is not None]


Rule = Callable[[Reading, float], None]
"""A further check a new creation passes under the store's lock, on the acts as they are then; raises to refuse."""


def admit(reading: Reading, act: Act, limit: int, *rules: Rule) -> list[Act]:
    """`act`, to be written, if the window has room for it and every rule lets it (for `Store.change`).

    Raises:
        LimitReached: the window already holds `limit` creations; nothing is written.
    """
    return admit_all(reading, [act], limit, *rules)


def admit_all(reading: Reading, acts: Sequence[Act], limit: int, *rules: Rule) -> list[Act]:
    """`acts` (new creations decided together: a set of attempts), to be written if the window has room for all
    of them and every rule lets them; else none (for `Store.change`).

    Raises:
        LimitReached: the window has fewer than `len(acts)` places left; nothing is written.
    """
    at = acts[0].at
    held = counted(reading, at)
    if len(held) + len(acts) > limit:
        frees_at = min(a.at for a in held) + WINDOW_SECONDS if held else None
        raise LimitReached(len(held), limit, frees_at, asked=len(acts))
    for rule in rules:
        rule(reading, at)
    return list(acts)


async def take(store: Store, act: Act, limit: int, *rules: Rule) -> None:
    """Write `act` (a new creation, counted) unless the window is full or a rule refuses it.

    Raises:
        LimitReached: nothing was written.
        StoreUnusable: the store cannot be used; nothing was written.
    """
    await take_all(store, [act], limit, *rules)


async def take_all(store: Store, acts: Sequence[Act], limit: int, *rules: Rule) -> None:
    """Write `acts` (new creations decided together, counted) in one change, all or none.

    Raises:
        LimitReached: nothing was written.
        StoreUnusable: the store cannot be used; nothing was written.
    """
    await store.change(lambda reading: admit_all(reading, acts, limit, *rules), acts[0].at)
