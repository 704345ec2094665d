"""The server's one cache shape (`core/cache.py`): the newest entries, each kept a while, on an injected clock."""

from __future__ import annotations

from cursor_cloud_agents.core.cache import Cache
from cursor_cloud_agents.core.timing import Clock
from cursor_cloud_agents.simulator import ManualClock


def test_an_entry_is_kept_for_its_seconds_and_gone_after() -> None:
    clock = ManualClock()
    cache: Cache[str, int] = Cache(Clock(clock.now), entries=4, seconds=10.0)
    cache.put("a", 1)
    clock.advance(9.9)
    assert cache.get("a") == 1
    clock.advance(0.1)
    assert cache.get("a") is None


def test_the_oldest_entry_is_pushed_out_beyond_the_size_and_clear_forgets_all() -> None:
    clock = ManualClock()
    cache: Cache[str, int] = Cache(Clock(clock.now), entries=2)
    for key, value in (("a", 1), ("b", 2), ("c", 3)):
        cache.put(key, value)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (None, 2, 3)
    cache.clear()
    assert cache.get("c") is None


def test_an_entry_from_the_future_after_a_clock_step_back_is_not_trusted() -> None:
    now = [1000.0]
    cache: Cache[str, int] = Cache(Clock(lambda: now[0]), entries=2, seconds=10.0)
    cache.put("a", 1)
    now[0] = 990.0
    assert cache.get("a") is None
