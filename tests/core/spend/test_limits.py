"""The slot check's listing read once for checks at once (issue 34's audit of check, await, act): SL-84.

The listing of the key's agents is kept 30 s (SL-16: a burst of creations reads it once). The cache was
looked up, then the listing read (awaits), then kept: checks that arrive together (a creation asked about
while others are confirmed, `cursor_get_account`, the terminal's `run`) each found it missing and each read
every page. They now read it under one lock: the first reads, the others count from what it kept.
"""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.limits import Limits
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.simulator import SIMULATED_API_KEY
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio


async def test_slot_checks_at_once_read_the_listing_once() -> None:
    """SL-84 (issue 34): ten checks at once read the listing's page once (before: ten times)."""
    async with open_harness() as h:
        for index in range(3):
            h.world.add_agent(f"Task {index}")
        settings = Settings(api_key=Secret(SIMULATED_API_KEY), max_active_agents=50)
        limits = Limits(settings, Store.memory(), Clock(h.clock.now))
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                for _ in range(10):
                    group.start_soon(limits.check_room, h.api)
        reads = [record for record in h.requests("GET") if record.path == "/v1/agents"]
    assert len(reads) == 1


async def test_spend_checks_at_once_read_each_agents_usage_once() -> None:
    """SL-84 (issue 34): the usage of each agent created in the window is kept a minute; ten spend checks at
    once read it once per agent (before: once per agent per check, up to all the client's slots)."""
    async with open_harness() as h:
        agents = [h.world.add_agent(f"Task {index}") for index in range(3)]
        store = Store.memory()
        now = h.clock.now()
        await store.write(
            *(Act(Act.new_id(), "create", now - 60, "done", counted=True, agent_id=a.id) for a in agents), now=now
        )
        settings = Settings(api_key=Secret(SIMULATED_API_KEY), max_spend_cents=1_000_000)
        limits = Limits(settings, store, Clock(h.clock.now))
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                for _ in range(10):
                    group.start_soon(limits.before_spending, h.api)
        reads = [record for record in h.requests("GET") if record.path.endswith("/usage")]
    assert len(reads) == 3
