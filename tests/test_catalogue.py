"""The catalogue every client reads: rules each tool obeys (STYLE.md §2.10 layer 5, tool contract 9)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit
from cursor_cloud_agents.server.instructions import instructions

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


async def wire_tools() -> list[dict[str, Any]]:
    kit = build_toolkit(Settings(), Redactor())
    async with Client(MCPServer("catalogue", tools=kit.build()), mode="legacy") as client:
        listed = await client.list_tools()
    return [tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools]


@pytest.mark.anyio
async def test_every_tool_obeys_the_catalogue_rules() -> None:
    """Catalogue: cursor_ snake-case names, short descriptions, four explicit hints, flat schemas."""
    tools = await wire_tools()
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


def test_the_simulated_mode_is_announced_in_the_instructions() -> None:
    """Issue 2: fixture mode says SIMULATED MODE in the server instructions."""
    assert "SIMULATED MODE" in instructions(Settings(fixture=True))
    assert "SIMULATED MODE" not in instructions(Settings())
    assert "untrusted" in instructions(Settings())
