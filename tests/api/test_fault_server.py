"""Real sockets: a paid create against a misbehaving server is sent once and reported as outcome unknown."""

from __future__ import annotations

import socket

import anyio
import pytest

from cursor_cloud_agents.api import (
    APIConnectionError,
    CreateAgentRequest,
    CursorClient,
    MutationOutcomeUnknownError,
    Prompt,
    _core,
    deadline_after,
)
from tests.api.faultserver import Mode, fault_server
from tests.api.helpers import AGENT, KEY


def _body() -> CreateAgentRequest:
    return CreateAgentRequest(prompt=Prompt(text="Add a README"), agent_id=AGENT)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("mode", "case"),
    [("close", "F-01"), ("reset", "F-02"), ("cut_mid_body", "F-03")],
)
async def test_create_against_a_faulty_socket_is_sent_once_and_outcome_unknown(mode: Mode, case: str) -> None:
    """docs/reliability.md F-01 (close after request), F-02 (RST), F-03 (headers then cut mid-body): exactly 1 POST."""
    async with fault_server(mode) as server:
        async with CursorClient(f"http://127.0.0.1:{server.port}", KEY) as client:
            with deadline_after(20), pytest.raises(MutationOutcomeUnknownError) as caught:
                await client.create_agent(_body())
        assert server.count("POST") == 1, case
    assert caught.value.context.ids["agent_id"] == AGENT
    assert AGENT in caught.value.message
    assert KEY not in caught.value.message


@pytest.mark.anyio
async def test_a_dripping_server_cannot_hold_a_create_past_the_total_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/reliability.md F-05: drip one byte every 50 ms; the total deadline fires; outcome unknown; 1 POST."""
    monkeypatch.setattr(_core, "MIN_MUTATION_SECONDS", 0.2)  # the 5 s floor, shrunk so the test takes 0.6 s
    async with fault_server("drip", drip_interval=0.05) as server:
        async with CursorClient(f"http://127.0.0.1:{server.port}", KEY) as client:
            # As the toolkit does: the deadline the api layer reads, inside a hard scope with some grace. The
            # drip would take minutes: only the client's total deadline can end it with an outcome-unknown
            # error (the hard scope would raise TimeoutError instead).
            with pytest.raises(MutationOutcomeUnknownError) as caught, anyio.fail_after(3), deadline_after(0.6):
                await client.create_agent(_body())
        assert server.count("POST") == 1
    assert caught.value.context.ids["agent_id"] == AGENT


@pytest.mark.anyio
async def test_a_silent_server_times_out_as_outcome_unknown(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/reliability.md F-04: no answer at all; unknown within the deadline; 1 POST."""
    monkeypatch.setattr(_core, "MIN_MUTATION_SECONDS", 0.2)  # the 5 s floor, shrunk so the test takes 0.5 s
    async with fault_server("hang") as server:
        async with CursorClient(f"http://127.0.0.1:{server.port}", KEY) as client:
            with pytest.raises(MutationOutcomeUnknownError), anyio.fail_after(3), deadline_after(0.5):
                await client.create_agent(_body())
        assert server.count("POST") == 1


@pytest.mark.anyio
async def test_connect_refused_is_nothing_happened() -> None:
    """docs/reliability.md F-06 (first half): a refused connection never sent the POST."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()  # nothing listens on this port now
    async with CursorClient(f"http://127.0.0.1:{port}", KEY) as client:
        with deadline_after(20), pytest.raises(APIConnectionError):
            await client.create_agent(_body())


@pytest.mark.anyio
async def test_reads_survive_on_a_real_socket() -> None:
    """The real transport path (no MockTransport) reads a JSON answer."""
    async with fault_server("ok") as server:
        async with CursorClient(f"http://127.0.0.1:{server.port}", KEY) as client:
            me = await client.me()
    assert me.api_key_name == "k"
