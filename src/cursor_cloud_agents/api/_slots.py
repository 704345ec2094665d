"""Who may hold a connection: requests, at most `requests` at once, and quiet streams only listened to.

The API is asked for work by at most `requests` exchanges at once (docs/reliability.md F-28): a request,
and a stream while its replay is being read, each hold a request slot for as long as they hold their
connection. A stream whose replay went quiet and which is only being listened to (to tell a stuck run from
a replay that paused, docs/api-contract.md §3.11) asks nothing more of the API. It may trade its request
slot for one of `listeners` slots, so that the next replay starts at once instead of waiting for the
silence to end (docs/reliability.md F-43). The pool holds `requests + listeners` connections, so no slot
holder ever waits for a connection.

A semaphore, not a capacity limiter: a slot is released by whoever closes the exchange, which need not be
the task that took it.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio

LISTENING_STREAMS = 32
"""Streams that may be listened to beyond the request slots. Enough for a 100-row fleet of stuck runs: the
listens overlap by about (the replays read per second) x (the listen left after the quiet), 20-odd at
8 requests at once; the surplus keeps its request slot and listens there (slower, never refused)."""


class SlotWaitTimeout(Exception):
    """No request slot came free before the deadline: nothing was sent."""


class StreamSlot:
    """The slot an open stream holds: a request slot until `to_listening()` trades it for a listener's."""

    def __init__(self, slots: ConnectionSlots, seconds_left: float) -> None:
        self._slots = slots
        self.seconds_left = seconds_left
        """What the deadline left once the slot was taken."""
        self.listening = False

    def to_listening(self) -> bool:
        """Give the request slot back, holding a listener slot instead; False (nothing changes) when all the
        listener slots are taken or the stream already listens."""
        if self.listening:
            return False
        try:
            self._slots.listeners.acquire_nowait()
        except anyio.WouldBlock:
            return False
        self.listening = True
        self._slots.requests.release()
        return True

    def release(self) -> None:
        (self._slots.listeners if self.listening else self._slots.requests).release()


class ConnectionSlots:
    """The request and listener slots of one connection pool."""

    def __init__(self, requests: int, listeners: int = LISTENING_STREAMS) -> None:
        self.requests = anyio.Semaphore(requests)
        self.listeners = anyio.Semaphore(listeners)
        self.pool_size = requests + listeners
        """Connections the pool may open: every slot holder has one."""

    @asynccontextmanager
    async def request_slot(self, timeout: float) -> AsyncGenerator[StreamSlot]:
        """Hold a request slot for the block, waiting at most `timeout` seconds for one; the slot says how
        much of `timeout` is left.

        Raises:
            SlotWaitTimeout: none came free in time.
        """
        slot = StreamSlot(self, await self._take(timeout))
        try:
            yield slot
        finally:
            slot.release()

    async def _take(self, timeout: float) -> float:
        """Take a request slot within `timeout`; what is left of it then (all of it when one was free)."""
        if timeout <= 0:
            raise SlotWaitTimeout  # no time to send anything in: nothing is sent
        try:
            self.requests.acquire_nowait()
        except anyio.WouldBlock:
            pass
        else:
            return timeout
        started = anyio.current_time()
        with anyio.move_on_after(timeout) as waiting:
            await self.requests.acquire()
        if waiting.cancelled_caught:
            raise SlotWaitTimeout
        left = timeout - (anyio.current_time() - started)
        if left <= 0:
            self.requests.release()
            raise SlotWaitTimeout
        return left
