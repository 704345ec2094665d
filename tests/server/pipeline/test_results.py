"""The call lifecycle's answers (tool contract 4 to 6): what leaves the toolkit is always writable JSON
under the result cap.

A progress message is written by the SDK's stdio writer, which cannot encode a lone surrogate: the failure
ended the whole server. An answer that is not JSON escaped the toolkit's guard as a bare JSON-RPC error
carrying the exception's text. A failure whose context Cursor filled (an upstream code of any length) was
answered whole, past the cap every answer keeps.
"""

from __future__ import annotations

import json
from typing import Any, cast

import anyio
import pytest
from mcp import Client
from mcp.server.stdio import stdio_server
from mcp_types import CallToolResult

from cursor_cloud_agents.api import errors as api_errors
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import serve_toolkit
from cursor_cloud_agents.server.pipeline.answers import size
from cursor_cloud_agents.server.pipeline.declaration import Access
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.pipeline.toolkit import Toolkit

pytestmark = pytest.mark.anyio

KEY = "key_canary_0123456789abcdefghijklmnopqrstuv"
AGENT = "bc-00000000-0000-4000-8000-000000000001"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "review", "version": "1"}},
}


def make_kit() -> Toolkit:
    settings = Settings(api_key=Secret(KEY), allow_writes=True)
    kit = Toolkit(ServerState(settings, Redactor(settings.secrets())), hard_stop_grace=0.0)

    @kit.tool(title="Odd progress")
    async def cursor_odd_progress(call: ToolCall) -> dict[str, Any]:
        """Report a status holding a lone surrogate, as a decoded JSON escape from Cursor can."""
        await call.progress("run RUNNING\ud800, waited 5 of 50 s")
        return {"done": True}

    @kit.tool(title="Not JSON", access=Access.WRITE)
    async def cursor_not_json(call: ToolCall) -> dict[str, Any]:
        """Act, then answer a value JSON cannot carry (a bug)."""
        call.note(agent_id=AGENT)
        return {"tags": {"a", "b"}}

    @kit.tool(title="Long upstream code")
    async def cursor_long_code() -> dict[str, Any]:
        """Fail as Cursor does, with an error code of 100 KB."""
        raise api_errors.BadRequestError("HTTP 400", status_code=400, code="x" * 100_000, request_id="req-1")

    return kit


async def call(kit: Toolkit, tool: str) -> CallToolResult:
    async with Client(serve_toolkit(kit, name="test", cached=False), mode="legacy") as client:
        return await client.call_tool(tool, {})


class Lines:
    """Request lines for the SDK's stdio transport, sent by the test."""

    def __init__(self) -> None:
        self.send, self.receive = anyio.create_memory_object_stream[str](10)

    def __aiter__(self) -> Any:
        return self.receive


class Written:
    """What the SDK's stdio transport writes, with a signal once the answer to `awaited` is out."""

    def __init__(self, awaited: int) -> None:
        self.lines: list[dict[str, Any]] = []
        self.awaited = awaited
        self.answered = anyio.Event()

    async def write(self, text: str) -> None:
        message: dict[str, Any] = json.loads(text)
        self.lines.append(message)
        if message.get("id") == self.awaited:
            self.answered.set()

    async def flush(self) -> None:
        return None


async def test_a_progress_message_holding_a_lone_surrogate_is_written_and_the_server_goes_on() -> None:
    """Over the SDK's stdio transport: before, writing the progress notification raised and ended the server."""
    server = serve_toolkit(make_kit(), name="test", cached=False)
    lines, written = Lines(), Written(awaited=3)
    call = {"name": "cursor_odd_progress", "arguments": {}, "_meta": {"progressToken": "p"}}
    with anyio.fail_after(10):
        async with (
            lines.send,
            lines.receive,
            stdio_server(stdin=cast(Any, lines), stdout=cast(Any, written)) as (read, write),
        ):
            async with anyio.create_task_group() as group:
                group.start_soon(server.run, read, write, server.create_initialization_options())
                for message in (
                    INITIALIZE,
                    {"jsonrpc": "2.0", "method": "notifications/initialized"},
                    {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call},
                    {"jsonrpc": "2.0", "id": 3, "method": "ping"},
                ):
                    await lines.send.send(json.dumps(message))
                await written.answered.wait()
                await lines.send.aclose()  # the client closes stdin: the server ends
    progress = [line["params"]["message"] for line in written.lines if line.get("method") == "notifications/progress"]
    answered = {line["id"]: line for line in written.lines if "id" in line}
    assert progress == ["run RUNNING, waited 5 of 50 s"]
    assert answered[2]["result"]["structuredContent"] == {"done": True} and "result" in answered[3]


async def test_an_answer_that_is_not_json_is_an_internal_error_with_the_ids_known_and_no_resend() -> None:
    """Tool contract 4: a bug becomes INTERNAL; a write that ran says it may have taken effect and names the agent
    (before, the call answered a JSON-RPC error `Object of type set is not JSON serializable`, no ids)."""
    result = await call(make_kit(), "cursor_not_json")
    data: dict[str, Any] = result.structured_content or {}
    assert result.is_error and data["code"] == "INTERNAL" and data["agent_id"] == AGENT
    assert "do NOT send it again" in data["message"] and "serializable" not in data["message"]


async def test_a_failure_with_an_upstream_code_of_100_kb_is_answered_under_the_cap() -> None:
    """Tool contract 6: every result stays under CURSOR_MCP_MAX_RESULT_BYTES; the field too large is left out and
    named, the rest kept (before: a 100 KB error answer)."""
    kit = make_kit()
    result = await call(kit, "cursor_long_code")
    data: dict[str, Any] = result.structured_content or {}
    assert result.is_error and data["code"] == "VALIDATION"
    assert size(data) <= kit.state.answers.max_bytes
    assert data["omitted"] == ["upstream_code"] and data["http_status"] == 400 and data["request_id"] == "req-1"
    assert json.loads(result.content[0].text) == data  # type: ignore[union-attr]
