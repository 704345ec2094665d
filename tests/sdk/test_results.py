"""`ListResult` and `AsyncListResult` (`sdk/_results.py`): a page as both SDKs read one."""

from __future__ import annotations

from cursor_cloud_agents.sdk import Agent, Cursor, ListResult


def test_a_page_reads_as_cursors_and_as_this_sdks_k_57() -> None:
    """K-57: `has_next_page` is true or false as a property (this SDK's programs) and callable (Cursor's); a page
    iterates, indexes and reads on with `get_next_page()` and `auto_paging_iter()`."""
    with Cursor(simulated=True, scenario="fleet") as cursor:
        first = Agent.list(client=cursor, limit=2)
        assert first.has_next_page and first.has_next_page() is True
        assert len(first) == 2 and list(first) == first.items and first[0] == first.items[0]
        second = first.get_next_page()
        assert second.items and second.items[0].id not in {agent.id for agent in first}
        everything = list(Agent.list(client=cursor, limit=2).auto_paging_iter())
        assert len(everything) == len({agent.id for agent in everything}) > 2
    last = ListResult[int]([1])
    assert not last.has_next_page and last.has_next_page() is False and last.get_next_page().items == []
