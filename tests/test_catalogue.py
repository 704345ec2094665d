"""The catalogue every client reads: rules each tool obeys (docs/architecture.md §6.4 layer 5, tool contract 9)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.server.protocol.instructions import instructions
from devkit.catalogue import list_tools

NAME = re.compile(r"^cursor_[a-z]+(_[a-z]+)*$")
MAX_DESCRIPTION = 400
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
COMPOSITION = ("anyOf", "oneOf", "allOf", "not")


def catalogue_problems(tool: dict[str, Any]) -> list[str]:
    """Every catalogue rule that one `tools/list` entry (wire form) breaks."""
    problems: list[str] = []
    name = tool.get("name", "")
    if not NAME.match(name):
        problems.append(f"{name}: not a cursor_ snake-case name")
    if not 0 < len(tool.get("description", "")) <= MAX_DESCRIPTION:
        problems.append(f"{name}: description missing or over {MAX_DESCRIPTION} characters")
    annotations: dict[str, Any] = tool.get("annotations") or {}
    problems += [f"{name}: {hint} not explicit" for hint in HINTS if not isinstance(annotations.get(hint), bool)]
    schema = tool.get("inputSchema", {})
    if schema.get("type") != "object" or any(key in schema for key in COMPOSITION):
        problems.append(f"{name}: input schema is not a flat object")
    if "$ref" in json.dumps(schema) or "$defs" in schema:
        problems.append(f"{name}: input schema uses references")
    return problems


SNAPSHOT = Path(__file__).parent / "snapshots" / "tools_list.json"
CATALOGUE_BUDGET = 14_000
"""Issue 5's budget, held again by issue 46 with every tool (it had grown to 15,652 bytes): the tools of later
issues paid for themselves by dropping what no model needs (K-60)."""


def catalogue_bytes(tools: list[dict[str, Any]]) -> int:
    """What a model reads before its first call, in UTF-8 bytes (issue 46): the instructions, plus each tool's
    name, description and input schema as compact JSON."""
    parts = (
        tool["name"] + tool.get("description", "") + json.dumps(tool["inputSchema"], separators=(",", ":"))
        for tool in tools
    )
    return len(instructions(Settings()).encode()) + sum(len(part.encode()) for part in parts)


@pytest.mark.anyio
async def test_tools_list_matches_the_committed_snapshot() -> None:
    """Issue 5: a change of the catalogue is deliberate; run `make snapshot` and commit it."""
    assert await list_tools() == json.loads(SNAPSHOT.read_text()), "tools/list changed: run `make snapshot`"


@pytest.mark.anyio
async def test_the_catalogue_a_model_reads_stays_under_its_byte_budget_k_60() -> None:
    """Issues 5 and 46 (K-60): instructions + names + descriptions + schemas at most 14,000 bytes (the peer:
    26,434), as listed and as built from the code."""
    assert catalogue_bytes(await list_tools()) <= CATALOGUE_BUDGET
    assert catalogue_bytes(await list_tools(cached=False)) <= CATALOGUE_BUDGET


def test_the_catalogue_measure_counts_bytes_not_characters_k_60() -> None:
    """A description with a non-ASCII character costs its UTF-8 bytes; the wrapping JSON keys are not counted."""
    tool = {"name": "cursor_x", "description": "é", "inputSchema": {"type": "object"}}
    assert catalogue_bytes([tool]) - catalogue_bytes([]) == len("cursor_x") + 2 + len('{"type":"object"}')


@pytest.mark.anyio
async def test_every_tool_obeys_the_catalogue_rules() -> None:
    """Catalogue: cursor_ snake-case names, short descriptions, four explicit hints, flat schemas."""
    tools = await list_tools()
    assert tools
    assert [problem for tool in tools for problem in catalogue_problems(tool)] == []


@pytest.mark.parametrize(
    "broken",
    [
        {"name": "getAgent"},
        {"description": "x" * (MAX_DESCRIPTION + 1)},
        {"annotations": {"readOnlyHint": True}},
        {"inputSchema": {"anyOf": [{"type": "object"}, {"type": "null"}]}},
        {"inputSchema": {"type": "object", "properties": {"r": {"$ref": "#/$defs/R"}}}},
    ],
    ids=["name", "description", "hints", "composition", "reference"],
)
def test_the_catalogue_check_catches_a_broken_tool(broken: dict[str, Any]) -> None:
    """The check itself: each rule, broken on purpose, is reported."""
    good: dict[str, Any] = {
        "name": "cursor_get_thing",
        "description": "Get a thing.",
        "annotations": dict.fromkeys(HINTS, False),
        "inputSchema": {"type": "object", "properties": {}},
    }
    assert catalogue_problems(good) == []
    assert catalogue_problems(good | broken)


@pytest.mark.anyio
async def test_no_destructive_tool_takes_more_than_one_agent() -> None:
    """D-04: bulk destruction is impossible: every destructive or write tool names one agent, no list, no wildcard."""
    tools = await list_tools()
    for tool in tools:
        if tool["annotations"]["readOnlyHint"]:
            continue
        properties = tool["inputSchema"]["properties"]
        assert not any(prop.get("type") == "array" and "agent" in name for name, prop in properties.items()), tool[
            "name"
        ]
        if "agent_id" in properties:
            assert properties["agent_id"]["type"] == "string", tool["name"]
