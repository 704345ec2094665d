"""The simulator's manual clock (`simulator/clock.py`): time moves only when a test moves it, never backwards."""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.simulator import ManualClock

pytestmark = pytest.mark.anyio


def test_time_moves_only_forward_and_set_never_goes_back() -> None:
    clock = ManualClock(start=100.0)
    clock.advance(5.0)
    clock.set(50.0)
    assert clock.now() == 105.0
    with pytest.raises(ValueError, match="backwards"):
        clock.advance(-1.0)


async def test_a_waiter_wakes_when_the_clock_moves_and_not_before() -> None:
    clock = ManualClock(start=0.0)
    woke: list[float] = []

    async def waiter() -> None:
        await clock.wait(10.0)
        woke.append(clock.now())

    async with anyio.create_task_group() as group:
        group.start_soon(waiter)
        await anyio.wait_all_tasks_blocked()
        assert woke == []
        clock.advance(10.0)
    assert woke == [10.0]
    await clock.wait(5.0)  # a deadline already past returns at once
