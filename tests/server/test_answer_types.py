"""Every field of the loop's answers keeps one JSON type from call to call (issue 46, K-64).

A model that read `cost_cents` as a number in one answer and a sentence in the next must guess which it
has; a value not known yet is null (left out of the answer), with its reason in a field beside it. The loop
is driven through the simulator on its own models, in each state a model meets it (created, running, ended
before its cost is reported, ended with its cost, checked, one attempt kept), and every field path of every
answer of one tool is held to a single type.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, cast

import pytest

from tests.core.attempts.test_attempts import TASK
from tests.core.attempts.test_compare import git_world
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

MODELS = ["composer-2", "gpt-5.2", "claude-4.6-sonnet-thinking"]


def json_type(value: Any) -> str | None:
    """The JSON type of a value; None for null (a field not known yet is null or left out)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(value)]


def field_types(value: Any, path: str = "", found: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """Every field path of an answer (list items as `[]`) with the JSON types seen there."""
    found = defaultdict(set) if found is None else found
    kind = json_type(value)
    if kind is not None and path:
        found[path].add(kind)
    if isinstance(value, dict):
        for key, item in cast(dict[str, Any], value).items():
            field_types(item, f"{path}.{key}" if path else key, found)
    elif isinstance(value, list):
        for item in cast(list[Any], value):
            field_types(item, f"{path}[]", found)
    return found


class Answers:
    """The answers of each tool, gathered across the loop."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self.seen: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))

    async def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        reply = await self.harness.call(tool, arguments)
        assert not reply.is_error, (tool, reply.data)
        field_types(reply.data, found=self.seen[tool])
        return reply.data

    def mixed(self) -> dict[str, dict[str, set[str]]]:
        return {
            tool: {path: kinds for path, kinds in paths.items() if len(kinds) > 1}
            for tool, paths in self.seen.items()
            if any(len(kinds) > 1 for kinds in paths.values())
        }


async def test_no_field_of_the_loops_answers_changes_type_between_calls_k_64(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """Issue 46 acceptance (K-64): create attempts, wait, read, compare (running, ended without and with its
    cost), get and check the changes, keep, compare again: each tool's fields have one type throughout.

    Over 1 s (3 to 8 s): about 150 calls through the MCP client, four branches fetched by git and four check
    commands run, which is the loop being proved."""
    world, options = git_world(tmp_path)
    command = f"{sys.executable} -m unittest discover -s tests"
    async with harness_factory(world, server_options=options, check_command=command) as h:
        loop = Answers(h)
        created = await loop.call("cursor_create_agent", TASK | {"attempts": [{"model_id": m} for m in MODELS]})
        group = {"group_id": created["group_id"]}
        ids = [(row["agent_id"], row["run_id"]) for row in created["attempts"]]
        single = await loop.call("cursor_create_agent", {"prompt": "Add a farewell", "repository": TASK["repository"]})
        ids.append((single["agent_id"], single["run_id"]))
        for seconds in (1, 20, 40, 60, 3600):  # creating, running, ended, cost reported, long after
            await loop.call("cursor_compare", group)
            await loop.call("cursor_wait", {"runs": [{"agent_id": a} for a, _ in ids], "wait_seconds": 0})
            for agent_id, run_id in ids:
                await loop.call("cursor_get_run", {"agent_id": agent_id, "run_id": run_id})
                await loop.call("cursor_get_agent", {"agent_id": agent_id})
                await loop.call("cursor_get_usage", {"agent_id": agent_id})
            await loop.call("cursor_supervise", {"status": "all", "usage": True, "activity": True})
            await loop.call("cursor_wait", group | {"wait_seconds": 0})
            await loop.call("cursor_list_agents", {})
            await loop.call("cursor_list_runs", {"agent_id": ids[-1][0]})
            await loop.call("cursor_read_conversation", {"agent_id": ids[-1][0]})
            h.clock.advance(seconds)
        for agent_id, run_id in ids:
            await loop.call("cursor_read_run_events", {"agent_id": agent_id, "run_id": run_id, "tail": 5})
            await loop.call("cursor_get_changes", {"agent_id": agent_id})
            await loop.call("cursor_check_changes", {"agent_id": agent_id})
        await loop.call("cursor_compare", group)
        await loop.call("cursor_keep", group | {"agent_id": ids[0][0]})
        await loop.call("cursor_compare", group)
        followed = await loop.call("cursor_create_run", {"agent_id": ids[0][0], "prompt": "Now add a test"})
        await loop.call("cursor_get_run", {"agent_id": ids[0][0], "run_id": followed["run_id"], "wait_seconds": 50})
    assert len(loop.seen) >= 15
    assert loop.mixed() == {}


def test_the_type_walk_sees_a_field_that_changes_type_k_64() -> None:
    """The check itself: a number in one answer and a sentence in the next is caught; null is not a type."""
    seen = field_types({"rows": [{"cost_cents": 12.5, "note": None}]})
    field_types({"rows": [{"cost_cents": "not reported yet"}]}, found=seen)
    assert seen["rows[].cost_cents"] == {"number", "string"} and "rows[].note" not in seen
