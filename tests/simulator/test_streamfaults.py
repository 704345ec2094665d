"""Stream faults (docs/reliability.md §2.3): the bytes each `Fault` puts on the run stream route."""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

import anyio
import httpx2
import pytest

from cursor_cloud_agents.simulator import Fault, Faults, World
from cursor_cloud_agents.simulator.streamfaults import stream_fault_send

from .conftest import parse_sse

STREAM = "/v1/agents/*/runs/*/stream"


def _url(world: World) -> str:
    agent = world.add_agent(created_ago=3600)
    return f"/v1/agents/{agent.id}/runs/{agent.runs[0].id}/stream"


async def _text(client: httpx2.AsyncClient, url: str) -> str:
    with anyio.fail_after(10):
        return (await client.get(url)).text


@pytest.mark.anyio
async def test_a_huge_event_is_one_data_line_of_the_asked_size_after_the_leading_status(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """S-05: one `assistant` event whose frame holds exactly `size` bytes of JSON, then the normal stream."""
    url = _url(world)
    faults.inject("GET", STREAM, Fault.huge_event(3 * 1024 * 1024 + 7))
    frames = parse_sse(await _text(client, url))
    assert frames[0]["event"] == "status" and frames[1]["event"] == "assistant" and "id" not in frames[1]
    assert len(frames[1]["data"]) == 3 * 1024 * 1024 + 7 and frames[1]["data"].startswith('{"text":"AAA')
    assert frames[-1]["event"] == "done"


@pytest.mark.anyio
async def test_a_256_mib_event_is_generated_lazily_and_stops_when_the_client_leaves(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """S-05: the default 256 MiB event streams in 64 KiB blocks; reading 8 MiB and leaving ends it."""
    url = _url(world)
    faults.inject("GET", STREAM, Fault.huge_event())
    received = 0
    with anyio.fail_after(10):
        async with client.stream("GET", url) as response:
            async for chunk in response.aiter_bytes():
                received += len(chunk)
                if received > 8 * 1024 * 1024:
                    break
    assert received > 8 * 1024 * 1024 and (await client.get("/v1/me")).status_code == 200


@pytest.mark.anyio
async def test_a_retry_field_opens_the_stream(world: World, faults: Faults, client: httpx2.AsyncClient) -> None:
    """S-02: `retry: <ms>` is the first line of the stream."""
    url = _url(world)
    faults.inject("GET", STREAM, Fault.sse_retry(500))
    assert (await _text(client, url)).startswith("retry: 500\nevent: status\n")


@pytest.mark.anyio
async def test_a_stream_without_ids_has_no_id_line(world: World, faults: Faults, client: httpx2.AsyncClient) -> None:
    """S-03: every `id:` line is gone; the frames are otherwise intact."""
    url = _url(world)
    plain = parse_sse(await _text(client, url))
    faults.inject("GET", STREAM, Fault.without_event_ids())
    frames = parse_sse(await _text(client, url))
    assert [{k: v for k, v in f.items() if k != "id"} for f in plain] == frames


@pytest.mark.anyio
async def test_an_invalid_json_event_follows_the_leading_status(
    world: World, faults: Faults, client: httpx2.AsyncClient
) -> None:
    """S-08: one `assistant` frame whose data is not JSON, right after the leading status."""
    url = _url(world)
    faults.inject("GET", STREAM, Fault.invalid_json_event())
    frames = parse_sse(await _text(client, url))
    assert frames[1] == {"event": "assistant", "data": '{"text": "an unterminated string'}


@pytest.mark.anyio
async def test_crlf_line_endings_replace_every_lf(world: World, faults: Faults, client: httpx2.AsyncClient) -> None:
    """S-08: `\\r\\n` line endings: the same stream with every LF preceded by CR."""
    url = _url(world)
    plain = await _text(client, url)
    faults.inject("GET", STREAM, Fault.crlf_line_endings())
    crlf = await _text(client, url)
    assert crlf == plain.replace("\n", "\r\n") and "\n\n" not in crlf


@pytest.mark.anyio
async def test_a_replay_pause_splits_the_first_burst_at_a_frame_boundary_and_sends_every_byte() -> None:
    """Issue 25: `Fault.replay_pause` sends the leading status, then half the frames of the replay's first block,
    waits, then the rest; later blocks (live frames, heartbeats) pass unchanged, and no byte is lost."""
    status, frames = (
        b"event: status\ndata: {}\n\n",
        [f"id: {n}-0\nevent: assistant\ndata: {{}}\n\n".encode() for n in range(5)],
    )
    sent: list[dict[str, Any]] = []

    async def record(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    send = stream_fault_send(Fault.replay_pause(0.0), record)
    for body in (status, b"".join(frames), frames[0]):
        await send({"type": "http.response.body", "body": body, "more_body": True})
    bodies = [message["body"] for message in sent]
    assert bodies == [status, frames[0] + frames[1], b"".join(frames[2:]), frames[0]]
