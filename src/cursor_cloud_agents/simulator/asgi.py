"""ASGI request-body plumbing: read a request's body whole, then hand it back to the app once.

Both the fault middleware (which logs the body before the app runs) and the HTTP server (which
reads the body off the socket before the app runs) give the app a `receive` built by `replay_body`.
"""

from __future__ import annotations

from starlette.types import Message, Receive


async def read_body(receive: Receive) -> bytes:
    """All of a request's body, joined from its `http.request` messages."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def replay_body(body: bytes, then: Receive) -> Receive:
    """A `receive` whose first message is the whole `body`; later calls are answered by `then`."""
    delivered = False

    async def receive() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()

    return receive
