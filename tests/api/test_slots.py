"""Who holds a connection (docs/reliability.md F-28, F-45): requests at most 8 at once, and streams that only
listen on a few listener slots of their own, so that a quiet stream never holds up the next request."""

from __future__ import annotations

from contextlib import AsyncExitStack

import anyio
import pytest

from cursor_cloud_agents.api import LISTENING_STREAMS
from cursor_cloud_agents.api._http import HttpSession
from cursor_cloud_agents.api._outcomes import SendFailure
from cursor_cloud_agents.api._slots import ConnectionSlots, SlotWaitTimeout
from tests.api.helpers import CountingMe, make_client

pytestmark = pytest.mark.anyio


async def test_a_stream_that_listens_gives_its_request_slot_to_the_next_request_at_once() -> None:
    """F-45: eight streams hold the eight request slots; once they listen, a ninth exchange takes a slot
    without waiting, with all of its deadline left."""
    slots = ConnectionSlots(8)
    async with AsyncExitStack() as held:
        streams = [await held.enter_async_context(slots.request_slot(5.0)) for _ in range(8)]
        assert slots.requests.value == 0
        assert all(stream.to_listening() for stream in streams)
        async with slots.request_slot(5.0) as ninth:
            assert ninth.seconds_left == 5.0
        assert slots.requests.value == 8 and slots.listeners.value == LISTENING_STREAMS - 8
    assert slots.requests.value == 8 and slots.listeners.value == LISTENING_STREAMS


async def test_with_every_listener_slot_taken_a_quiet_stream_keeps_its_request_slot() -> None:
    """F-45: the listener slots are bounded; past them a stream listens on its request slot (slower, never
    refused), and trading twice changes nothing."""
    slots = ConnectionSlots(2, listeners=1)
    async with slots.request_slot(1.0) as first, slots.request_slot(1.0) as second:
        assert first.to_listening()
        assert not first.to_listening()
        assert not second.to_listening()
        assert (first.listening, second.listening) == (True, False)
        assert slots.requests.value == 1 and slots.listeners.value == 0
    assert slots.requests.value == 2 and slots.listeners.value == 1


async def test_waiting_past_the_deadline_for_a_request_slot_sends_nothing() -> None:
    """F-28: every request slot busy until the deadline: SlotWaitTimeout, and the session says nothing was
    sent (as a pool timeout), so a mutation is never reported as of unknown outcome for it."""
    slots = ConnectionSlots(1)
    async with slots.request_slot(1.0):
        with pytest.raises(SlotWaitTimeout):
            async with slots.request_slot(0.01):
                raise AssertionError("the only slot is held")
    assert slots.requests.value == 1

    session = HttpSession(base_url="http://127.0.0.1:9", headers={}, transport=None, max_connections=1)
    async with session._slots.request_slot(1.0):  # pyright: ignore[reportPrivateUsage] -- hold the only slot
        with pytest.raises(SendFailure) as failed:
            await session.request("POST", "/v1/agents", json={}, timeout=0.01, max_bytes=1024)
    assert failed.value.maybe_sent is False and failed.value.timed_out is True
    await session.aclose()


async def test_the_pool_has_a_connection_for_every_slot_holder() -> None:
    """F-45: requests and listeners together never wait for a connection of the pool."""
    assert ConnectionSlots(8).pool_size == 8 + LISTENING_STREAMS


async def test_the_request_bound_is_the_clients_whatever_the_transport() -> None:
    """F-28: the bound holds on an injected transport too (httpx2's pool limits apply to its own transport
    only): 20 calls at once through a mock with 3 request slots, never more than 3 in flight."""
    in_flight = CountingMe()
    async with make_client(in_flight, requests_per_second=1000.0, max_connections=3) as client:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                for _ in range(20):
                    group.start_soon(client.me)
    assert in_flight.max == 3


async def test_no_time_left_takes_no_slot_and_sends_nothing() -> None:
    """F-28: a deadline already spent is refused before a slot is taken, as not sent."""
    slots = ConnectionSlots(1)
    with pytest.raises(SlotWaitTimeout):
        async with slots.request_slot(0.0):
            raise AssertionError("no slot is given without time to use it")
    assert slots.requests.value == 1
