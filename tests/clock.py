"""Awaiting a call while the simulator's manual clock moves on, as time would pass around it."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

import anyio

from cursor_cloud_agents.simulator import ManualClock

T = TypeVar("T")

FAST_SILENCES = 0.25
"""The share of real time a replay walk's silences take in tests that listen to quiet replays
(`CursorClient(silence_scale=...)`): the 1.5 s listen past a pause lasts 0.375 s, the 0.3 s quiet 75 ms, and
both are reported and judged in their own seconds, so the rule and its figures read the same."""


async def while_time_passes(clock: ManualClock, work: Awaitable[T], *, step: float = 10.0, turns: int = 20) -> T:
    """What `work` answers, awaited while `clock` advances by `step` each time the other tasks had `turns` turns."""
    done = anyio.Event()
    answers: list[T] = []

    async def advance() -> None:
        while not done.is_set():
            for _ in range(turns):
                await anyio.lowlevel.checkpoint()
            clock.advance(step)

    async with anyio.create_task_group() as group:
        group.start_soon(advance)
        answers.append(await work)
        done.set()
    return answers[0]
