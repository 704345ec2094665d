"""The private event loop the synchronous classes run on: one daemon thread per `Cursor`.

A sync call hands its coroutine to that loop and blocks until it is done, so the sync classes work the same
whether the calling thread runs an event loop of its own (a notebook, an async framework) or none. Interrupted
(Ctrl-C), the coroutine is cancelled at once: a paid act cut after its POST left stays unsettled in the store,
and asking again settles it. The connection is entered and left in one task of the loop (`keep_open`), as
anyio's task groups (the simulator's) require.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import AsyncGenerator, Callable, Coroutine, Iterator
from contextlib import AbstractAsyncContextManager, aclosing, suppress
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream

T = TypeVar("T")


@dataclass(frozen=True)
class _Item(Generic[T]):
    value: T


@dataclass(frozen=True)
class _Failed:
    error: Exception


class LoopThread:
    """An asyncio event loop on a daemon thread of its own, and the way to run coroutines on it from any thread."""

    def __init__(self, name: str = "cursor-cloud-agents-sdk") -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=name, daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        """Whether the loop still runs (until `stop`)."""
        return not self._loop.is_closed()

    def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run `work` on the loop and return what it returns (or raise what it raises).

        Raises:
            RuntimeError: called from the loop's own thread (it would wait on itself), or after `stop`.
        """
        if threading.current_thread() is self._thread:
            work.close()
            raise RuntimeError("a synchronous SDK call from inside the SDK's own loop: use the Async classes there")
        if not self.running:
            work.close()
            raise RuntimeError("this Cursor is closed")
        future = asyncio.run_coroutine_threadsafe(work, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()  # interrupted (Ctrl-C): nothing more is sent
            raise

    def keep_open(self, context: AbstractAsyncContextManager[object]) -> Callable[[], None]:
        """Enter `context` in a task of the loop and keep it entered; the function returned leaves it (same task)."""
        entered: concurrent.futures.Future[asyncio.Event] = concurrent.futures.Future()

        async def keep() -> None:
            leave = asyncio.Event()
            try:
                async with context:
                    entered.set_result(leave)
                    await leave.wait()
            except BaseException as exc:
                if entered.done():
                    raise
                entered.set_exception(exc)

        kept = asyncio.run_coroutine_threadsafe(keep(), self._loop)
        leave = entered.result()

        def close() -> None:
            self._loop.call_soon_threadsafe(leave.set)
            kept.result()

        return close

    def iterate(self, items: Callable[[], AsyncGenerator[T]]) -> Iterator[T]:
        """The items of the async generator `items()` makes, produced in one task of the loop and handed over one
        at a time (the producer waits for each to be taken); leaving the iteration early stops it."""
        receive, task = self.call(_start(items))
        try:
            while (got := self.call(_next_of(receive))) is not None:
                if isinstance(got, _Failed):
                    raise got.error
                yield got.value
        finally:
            if self.running:
                self.call(_stop(task, receive))
            else:
                receive.close()  # left after the loop stopped (at exit): its tasks were cancelled then

    def stop(self) -> None:
        """Stop the loop and its thread (idempotent), cancelling what still runs on it (a stream left open)."""
        if not self.running:
            return
        self.call(_finish())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()


Handed = MemoryObjectReceiveStream[_Item[T] | _Failed]


async def _start(items: Callable[[], AsyncGenerator[T]]) -> tuple[Handed[T], asyncio.Task[None]]:
    """A task producing `items()` into a stream of no buffer, and that stream's receiving end."""
    send, receive = anyio.create_memory_object_stream[_Item[T] | _Failed](0)

    async def produce() -> None:
        async with send:
            try:
                async with aclosing(items()) as produced:
                    async for item in produced:
                        await send.send(_Item(item))
            except Exception as exc:  # handed to the consuming thread, raised there
                await send.send(_Failed(exc))

    return receive, asyncio.ensure_future(produce())


async def _next_of(receive: Handed[T]) -> _Item[T] | _Failed | None:
    try:
        return await anext(receive)
    except StopAsyncIteration:
        return None


async def _stop(task: asyncio.Task[None], receive: Handed[T]) -> None:
    task.cancel()
    with suppress(asyncio.CancelledError):
        await task
    receive.close()


async def _finish() -> None:
    """Cancel every other task of the loop and close its async generators, before the loop stops."""
    current = asyncio.current_task()
    rest = [task for task in asyncio.all_tasks() if task is not current]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)
    await asyncio.get_running_loop().shutdown_asyncgens()
