"""Issue 22, fit OpenCode: answers stay well under its 51,200 bytes, and a long one reads whole from a file.

OpenCode saves an answer over `tool_output.max_bytes` to a file its model reads cut at 2,000 characters per
line; compact JSON is one line. The text content is laid out in lines of at most 2,000 characters between
JSON tokens (`server/pipeline/lines.py`): the same object when parsed, one byte per line more.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from cursor_cloud_agents.server.pipeline.lines import LINE_CHARS, text_lines
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

OPENCODE_MAX_BYTES = 51_200


def long_lines(text: str) -> list[str]:
    """The lines over LINE_CHARS that are not one JSON string alone (with its separators)."""
    found: list[str] = []
    for line in text.splitlines():
        if len(line) <= LINE_CHARS:
            continue
        bare = line.strip(",:[]{}")
        if not (bare.startswith('"') and isinstance(json.loads(bare), str)):
            found.append(line[:80])
    return found


def test_a_long_answer_is_broken_into_lines_that_parse_to_the_same_object() -> None:
    """D-32: every line at most 2,000 characters but a single long string; json.loads gives the same object; the
    cost is one byte per line."""
    data: dict[str, Any] = {
        "agents": [{"id": f"bc-{index}", "name": "é" * 40, "status": "FINISHED"} for index in range(400)],
        "result": "word " * 2_000,
        "next_cursor": "c" * 80,
    }
    compact = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text_lines(data)
    assert json.loads(text) == data and long_lines(text) == []
    assert max(len(line) for line in text.splitlines()) == len(json.dumps(data["result"]))
    assert len(text) - len(compact) == text.count("\n") < len(compact) // 1_000


def test_a_short_answer_stays_one_compact_line() -> None:
    data = {"agent_id": "bc-1", "status": "RUNNING"}
    assert text_lines(data) == '{"agent_id":"bc-1","status":"RUNNING"}'


async def test_a_long_list_answer_reads_whole_line_by_line(harness_factory: OpenHarness) -> None:
    """D-32, end to end: 100 agents with long names under a cap raised to 200,000 bytes (over OpenCode's file
    threshold): no line of the text over 2,000 characters, and the text is the structuredContent (the harness
    checks it)."""
    world = World(ManualClock())
    for index in range(100):
        world.add_agent(f"Task {index:03d} " + "with a long descriptive name " * 6, created_ago=60.0 + index)
    async with harness_factory(world, max_result_bytes=200_000) as h:
        result = await h.mcp.call_tool("cursor_list_agents", {"limit": 100})
    text = getattr(result.content[0], "text", "")
    assert len(text) > 20_000 and long_lines(text) == []
    assert json.loads(text) == result.structured_content and len(text.splitlines()) > 10


async def test_the_largest_answers_stay_well_under_opencodes_file_threshold_by_default(
    harness_factory: OpenHarness,
) -> None:
    """D-33: at the default cap (38,000 bytes) the fullest answer (20 runs' long results) stays under 38,000 bytes
    of text, line breaks included: under the Cursor CLI's 40,000 and OpenCode's 51,200."""
    world = World(ManualClock())
    refs: list[dict[str, str]] = []
    for index in range(20):
        agent = world.add_agent(f"Task {index}", script=RunScript(running_seconds=5, result="x " * 100_000))
        refs.append({"agent_id": agent.id, "run_id": agent.runs[-1].id})
    async with harness_factory(world) as h:
        reply = await h.call("cursor_wait", {"runs": refs, "until": "all"})
    assert not reply.is_error and 30_000 < reply.size <= 38_000 < OPENCODE_MAX_BYTES
