"""Stream faults: rewriting an SSE answer on its way out (docs/reliability.md §2.3, S-02, S-03, S-05, S-08).

The stream route yields whole frames per body message (the leading status, replay blocks, live
frames, heartbeats), so a fault can rewrite each message on its own without re-framing. Nothing
here buffers the stream: the huge event is produced block by block while the client reads. A pause
splits the first replay block at a frame boundary and waits between its halves.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

import anyio
from starlette.types import Send

from .faults import Fault

_ID_LINE = re.compile(rb"^id: [^\n]*\n", re.MULTILINE)
_BLOCK = 64 * 1024
_INVALID_JSON_FRAME = b'event: assistant\ndata: {"text": "an unterminated string\n\n'


def stream_fault_send(fault: Fault, send: Send) -> Send:
    """Wrap `send` so that the body is rewritten according to `fault.stream`."""
    first = True
    paused = False

    async def rewritten(message: MutableMapping[str, Any]) -> None:
        nonlocal first, paused
        if message["type"] != "http.response.body":
            await send(message)
            return
        body: bytes = message.get("body", b"")
        is_first, first = first and bool(body), first and not body
        if fault.stream == "pause" and body and not is_first and not paused:
            paused = True  # the first block after the leading status: the replay's burst
            body = await _send_half_then_pause(send, body, fault.stream_size / 1000)
        elif fault.stream == "huge_event" and is_first:
            await send({"type": "http.response.body", "body": body, "more_body": True})
            await _send_huge_event(send, fault.stream_size)
            body = b""
        else:
            body = _rewrite(fault, body, is_first=is_first)
        await send({**message, "body": body})

    return rewritten


def _rewrite(fault: Fault, body: bytes, *, is_first: bool) -> bytes:
    if fault.stream == "no_ids":
        return _ID_LINE.sub(b"", body)
    if fault.stream == "crlf":
        # JSON data never holds a raw LF (it is escaped), so every LF is a line end.
        return body.replace(b"\n", b"\r\n")
    if fault.stream == "retry" and is_first:
        return f"retry: {fault.stream_size}\n".encode() + body
    if fault.stream == "invalid_json" and is_first:
        return body + _INVALID_JSON_FRAME
    return body


async def _send_half_then_pause(send: Send, body: bytes, seconds: float) -> bytes:
    """Send the first half of the frames of `body`, wait `seconds`, and hand back the rest to send."""
    frames = body.split(b"\n\n")[:-1]  # each frame ends with a blank line
    half = len(frames) // 2
    head = b"".join(frame + b"\n\n" for frame in frames[:half])
    if head:
        await send({"type": "http.response.body", "body": head, "more_body": True})
    await anyio.sleep(seconds)
    return body[len(head) :]


async def _send_huge_event(send: Send, size: int) -> None:
    """One `assistant` event whose data line is `size` bytes, sent in 64 KiB blocks."""
    await send({"type": "http.response.body", "body": b'event: assistant\ndata: {"text":"', "more_body": True})
    filler = b"A" * _BLOCK
    left = max(0, size - len('{"text":""}'))
    while left > 0:
        block = filler if left >= _BLOCK else filler[:left]
        left -= len(block)
        await send({"type": "http.response.body", "body": block, "more_body": True})
    await send({"type": "http.response.body", "body": b'"}\n\n', "more_body": True})
