"""The agent scan: a local filter over API pages, with a cursor that resumes exactly after the last row."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import AgentSummary
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.runs.scan import fingerprint, scan_agents
from cursor_cloud_agents.simulator import ManualClock, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio


def seeded_world(count: int) -> World:
    world = World(ManualClock())
    for index in range(count):
        world.add_agent(f"task {index}", name=f"{'alpha' if index % 3 == 0 else 'beta'} {index:03d}")
    return world


def has_alpha(agent: AgentSummary) -> bool:
    return "alpha" in (agent.name or "").lower()


async def test_paging_with_a_filter_returns_every_match_once_in_api_order(harness_factory: OpenHarness) -> None:
    """Reference: `next_cursor` resumes right after the last match, even inside an API page."""
    async with harness_factory(seeded_world(250)) as h:
        everything = await scan_agents(h.api, limit=100, cursor=None, keep=None, mark="all", max_pages=10)
        while everything.next_cursor:
            more = await scan_agents(h.api, limit=100, cursor=everything.next_cursor, keep=None, mark="all")
            everything.items.extend(more.items)
            everything = type(everything)(everything.items, more.next_cursor, 0, 0)
        expected = [agent.id for agent in everything.items if has_alpha(agent)]
        seen: list[str] = []
        cursor: str | None = None
        mark = fingerprint("alpha")
        for _ in range(50):
            page = await scan_agents(h.api, limit=7, cursor=cursor, keep=has_alpha, mark=mark)
            assert len(page.items) <= 7
            seen += [agent.id for agent in page.items]
            cursor = page.next_cursor
            if cursor is None:
                break
    assert len(everything.items) == 250
    assert seen == expected


async def test_a_scan_reads_at_most_five_pages_and_says_where_to_resume(harness_factory: OpenHarness) -> None:
    """Reference: the name filter walks up to five pages of one hundred agents and reports `scanned`."""
    async with harness_factory(seeded_world(600)) as h:
        page = await scan_agents(h.api, limit=50, cursor=None, keep=lambda _agent: False, mark="none")
    assert (page.pages, page.scanned, page.items) == (5, 500, [])
    assert page.next_cursor is not None


async def test_a_cursor_replayed_with_another_filter_is_refused(harness_factory: OpenHarness) -> None:
    """Ours: a cursor carries its filter's fingerprint; another filter cannot misuse it."""
    async with harness_factory(seeded_world(30)) as h:
        page = await scan_agents(h.api, limit=5, cursor=None, keep=has_alpha, mark=fingerprint("alpha"))
        assert page.next_cursor is not None
        with pytest.raises(ToolFailure, match="another filter"):
            await scan_agents(h.api, limit=5, cursor=page.next_cursor, keep=None, mark=fingerprint("beta"))
        with pytest.raises(ToolFailure, match="not one this tool returned"):
            await scan_agents(h.api, limit=5, cursor="garbage!", keep=None, mark="x")
