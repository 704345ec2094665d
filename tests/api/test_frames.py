"""The fast frame decoder of replay walks agrees with httpx2's SSE decoder, at every chunk split point."""

from __future__ import annotations

import httpx2
import pytest

from cursor_cloud_agents.api import RawEvent, TailCollector
from cursor_cloud_agents.api._frames import FrameDecoder, FrameTooLargeError, block_type, parse_block
from tests.api.helpers import EXAMPLES

SYNTHETIC = (
    b'event: status\r\ndata: {"status":"RUNNING"}\r\n\r\n'
    b'id: 1-0\revent: assistant\rdata: {"text":"caf\xc3\xa9"}\r\r'
    b": keepalive comment\n\n"
    b'id: 1-1\nevent: tool_call\ndata: {"a":1}\ndata: {"b":2}\n\n\n\n'
    b"data: no event name\n\n"
    b"id: bad\0id\nevent: thinking\ndata: x\n\n"
    b"event:nospace\ndata:tight\n\n"
    b"id: 1-2\nevent: done\ndata: {}\n\n"
)
STREAMS = {
    "synthetic": SYNTHETIC,
    **{
        name: (EXAMPLES / name).read_bytes()
        for name in ("docs/stream-run.example.sse", "observed/stream-background-shell.2026-10-06.sse")
    },
}


def _httpx2_events(data: bytes) -> list[tuple[str, str, str | None]]:
    """httpx2's own decoder (the reference), through a real Response and EventSource."""
    response = httpx2.Response(
        200,
        headers={"content-type": "text/event-stream"},
        content=data,
        request=httpx2.Request("GET", "https://api.cursor.com/stream"),
    )
    source = httpx2.EventSource(response)
    return [(sse.event, sse.data, sse.id or None) for sse in source]


def _ours(data: bytes, split: int) -> list[tuple[str, str, str | None]]:
    decoder = FrameDecoder(1 << 20)
    events: list[RawEvent] = [*decoder.feed(data[:split]), *decoder.feed(data[split:]), *decoder.flush()]
    return [(event.event, event.data, event.id) for event in events]


@pytest.mark.parametrize("name", list(STREAMS))
def test_fast_decoder_matches_httpx2_at_every_split_point(name: str) -> None:
    """docs/reliability.md S-08 and the walk's speed: same events as httpx2's decoder, whatever the chunking."""
    data = STREAMS[name]
    reference = _httpx2_events(data)
    assert reference
    for split in range(len(data) + 1):
        assert _ours(data, split) == reference, f"split at byte {split}"


def test_fast_decoder_matches_with_one_byte_chunks() -> None:
    """The worst chunking: one byte at a time (CRLF split across chunks included)."""
    decoder = FrameDecoder(1 << 20)
    events: list[RawEvent] = []
    for index in range(len(SYNTHETIC)):
        events.extend(decoder.feed(SYNTHETIC[index : index + 1]))
    assert [(e.event, e.data, e.id) for e in events] == _httpx2_events(SYNTHETIC)


def test_a_leading_bom_is_dropped_even_when_split() -> None:
    """docs/reliability.md S-08: a BOM at stream start (WHATWG: stripped)."""
    data = b"\xef\xbb\xbfevent: done\ndata: {}\n\n"
    for split in range(len(data)):
        decoder = FrameDecoder(1024)
        events = [*decoder.feed(data[:split]), *decoder.feed(data[split:])]
        assert [(e.event, e.data) for e in events] == [("done", "{}")]


def test_fast_decoder_refuses_an_oversized_frame_pending_or_complete() -> None:
    """docs/reliability.md S-05/S-06: a frame past the cap is refused, whether it arrives whole or in pieces."""
    with pytest.raises(FrameTooLargeError):
        FrameDecoder(100).feed(b"data: " + b"a" * 200 + b"\n\n")
    decoder = FrameDecoder(100)
    with pytest.raises(FrameTooLargeError):
        for _ in range(10):
            decoder.feed(b"data: " + b"a" * 20 + b"\n")


def test_block_batches_find_signals_and_live_ids() -> None:
    """The walker's C-speed searches: first end signal, first id newer than a moment, last id."""
    decoder = FrameDecoder(1 << 20)
    data = (
        b"event: status\ndata: {}\n\n"
        b"id: 100-0\nevent: assistant\ndata: {}\n\n"
        b"id: 200-0\nevent: assistant\ndata: {}\n\n"
        b": comment\n\n"
        b"event: heartbeat\ndata: {}\n\n"
        b"id: 300-0\nevent: done\ndata: {}\n\n"
    )
    batch = decoder.feed_blocks(data)
    assert batch is not None
    assert batch.signal() == (4, "heartbeat")
    assert batch.first_id_after(150, end=len(batch.blocks)) == 2
    assert batch.first_id_after(150, end=2) is None
    assert batch.first_id_after(300, end=len(batch.blocks)) is None
    assert batch.last_id(end=len(batch.blocks)) == "300-0"
    assert batch.last_id(end=2) == "100-0"
    assert batch.last_id(end=1) is None
    assert batch.count(end=len(batch.blocks)) == 5
    assert block_type(batch.blocks[1]) == "assistant"
    parsed = parse_block(batch.blocks[0], "99-0")
    assert parsed is not None and parsed.id == "99-0" and parsed.event == "status"


def test_tail_collector_fast_path_equals_per_event_path() -> None:
    """TailCollector keeps the same last N events whether fed blocks or events."""
    decoder = FrameDecoder(1 << 20)
    data = b"".join(b'id: %d-0\nevent: assistant\ndata: {"text":"%d"}\n\n' % (i, i) for i in range(100))
    batch = decoder.feed_blocks(data + b": c\n\n")
    assert batch is not None
    fast, slow = TailCollector(5), TailCollector(5)
    fast.take_blocks(batch.blocks)
    for event in FrameDecoder(1 << 20).feed(data):
        slow(event)
    assert [(e.event, e.data, e.id) for e in fast.events] == [(e.event, e.data, e.id) for e in slow.events]
    typed = TailCollector(2, types=frozenset({"assistant"}))
    typed.take_blocks(batch.blocks)
    assert [e.id for e in typed.events] == ["98-0", "99-0"]
