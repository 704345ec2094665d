"""The private loop thread (`sdk/_loop.py`): calls, a kept-open context, iteration handed across threads."""

from __future__ import annotations

import threading
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import pytest

from cursor_cloud_agents.sdk._loop import LoopThread


async def _double(value: int) -> int:
    return value * 2


def test_a_call_runs_on_the_loop_thread_and_returns_its_answer() -> None:
    loop = LoopThread()
    try:
        assert loop.call(_double(21)) == 42
    finally:
        loop.stop()
    loop.stop()  # idempotent
    with pytest.raises(RuntimeError, match="closed"):
        loop.call(_double(1))


def test_a_context_is_entered_and_left_in_one_task_of_the_loop() -> None:
    seen: list[str] = []

    @asynccontextmanager
    async def context() -> AsyncGenerator[None]:
        seen.append(f"enter {threading.current_thread().name}")
        yield
        seen.append(f"leave {threading.current_thread().name}")

    loop = LoopThread(name="sdk-test-loop")
    try:
        leave = loop.keep_open(context())
        assert seen == ["enter sdk-test-loop"]
        leave()
    finally:
        loop.stop()
    assert seen == ["enter sdk-test-loop", "leave sdk-test-loop"]


def test_a_failure_opening_the_context_reaches_the_caller() -> None:
    @asynccontextmanager
    async def broken() -> AsyncGenerator[None]:
        raise ValueError("cannot open")
        yield  # pragma: no cover

    loop = LoopThread()
    try:
        with pytest.raises(ValueError, match="cannot open"):
            loop.keep_open(broken())
    finally:
        loop.stop()


def test_iteration_hands_each_item_once_stops_early_and_raises_the_producers_failure() -> None:
    stopped: list[bool] = []

    async def numbers() -> AsyncGenerator[int]:
        try:
            for n in range(100):
                yield n
        finally:
            stopped.append(True)

    async def failing() -> AsyncGenerator[int]:
        yield 1
        raise LookupError("the stream broke")

    loop = LoopThread()
    try:
        taken: list[int] = []
        for n in loop.iterate(numbers):
            taken.append(n)
            if n == 2:
                break
        assert taken == [0, 1, 2] and stopped == [True]
        assert list(loop.iterate(lambda: numbers())) == list(range(100))
        with pytest.raises(LookupError, match="broke"):
            list(loop.iterate(failing))
    finally:
        loop.stop()
