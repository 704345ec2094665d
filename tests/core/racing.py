"""What a racing process runs for `test_ledger.py`: its own module, so that a process started with `spawn`
imports the store and the ledger only (importing the test module would load the harness, the server and the
simulator: about a second of start-up a process)."""

from __future__ import annotations

from pathlib import Path

import anyio

from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.ledger import LimitReached, take
from cursor_cloud_agents.core.store import Store


def creation(at: float, agent_id: str | None = None) -> Act:
    """A new creation as `create_once` writes it: sent, its place taken."""
    return Act(Act.new_id(), "create", at, "sent", counted=True, agent_id=agent_id)


def take_many(directory: str, limit: int, tries: int, now: float) -> int:
    """Try `tries` creations at `now` against the store in `directory`; how many took a place."""

    async def take_all() -> int:
        store = Store(Path(directory))
        taken = 0
        for _ in range(tries):
            try:
                await take(store, creation(now), limit)
                taken += 1
            except LimitReached:
                pass
        return taken

    return anyio.run(take_all)
