"""`notifications/cancelled` for a creation in flight, over raw JSON-RPC: the call stops, its answer is never
written, the creation stays resolvable (journal `sent`), and asking again re-sends its id: one agent.

`test_journal.py` cancels through the SDK client; here the notification is written by hand and every message
the server writes is read, so an answer for the cancelled id would be seen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

from cursor_cloud_agents.core.store import FILE_NAME
from cursor_cloud_agents.simulator import ManualClock, Quirks, World
from tests.server.protocol.test_tasks import Raw, meta, raw_client

pytestmark = pytest.mark.anyio

CREATE = {"prompt": "Add a README with setup instructions", "repository": "https://github.com/your-org/your-repo"}
CREATE_SECONDS = 14.0


async def write(raw: Raw, body: dict[str, Any]) -> None:
    """Write one message by hand; a request carries the 2026-07-28 `_meta` the connection speaks."""
    if "id" in body:
        body = body | {"params": body.get("params", {}) | {"_meta": meta(tasks=False)}}
    await raw.write.send(SessionMessage(jsonrpc_message_adapter.validate_python(body | {"jsonrpc": "2.0"})))


async def read_until(raw: Raw, request_id: int) -> list[dict[str, Any]]:
    """Every message the server writes, up to the answer to `request_id`."""
    seen: list[dict[str, Any]] = []
    with anyio.fail_after(10):
        while not seen or seen[-1].get("id") != request_id:
            message = await raw.read.receive()
            seen.append(message.message.model_dump(by_alias=True, exclude_none=True, mode="json"))
    return seen


async def test_a_cancelled_creation_is_never_answered_stays_sent_and_asked_again_makes_one_agent(
    tmp_path: Path,
) -> None:
    world = World(ManualClock(), quirks=Quirks(creation_seconds=CREATE_SECONDS))
    async with raw_client(world, allow_writes=True, state_dir=tmp_path) as raw:
        call = {"name": "cursor_create_agent", "arguments": CREATE}
        await write(raw, {"id": 50, "method": "tools/call", "params": call})
        with anyio.fail_after(10):
            while not world.creating:
                await anyio.wait_all_tasks_blocked()
        await write(raw, {"method": "notifications/cancelled", "params": {"requestId": 50, "reason": "Esc"}})
        await anyio.wait_all_tasks_blocked()  # the cancel has landed before Cursor answers the POST
        raw.clock.advance(CREATE_SECONDS)
        await write(raw, {"id": 51, "method": "tools/list"})
        written = await read_until(raw, 51)
        journal = [json.loads(line) for line in (tmp_path / FILE_NAME).read_text().splitlines()]
        again = await raw.call("cursor_create_agent", CREATE, tasks=False)
    posted = [record.json()["agentId"] for record in raw.sim.requests if record.method == "POST"]
    assert [message for message in written if message.get("id") == 50] == []
    assert [entry["state"] for entry in journal] == ["sent"]
    assert again["structuredContent"]["resumed"] is True and again["structuredContent"]["agent_id"] == posted[0]
    assert posted == [posted[0]] * 2 and len(world.agents) == 1
