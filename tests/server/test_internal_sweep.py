"""The sweep of hostile values (issue 13): every tool, every parameter, values a hostile client sends; the
answer is never INTERNAL (kept for bugs), and the server keeps answering.

Required parameters carry valid sample values, so each hostile value is judged on its own. The values
come from each parameter's advertised JSON type, so a new parameter is swept without a change here.
"""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from devkit.catalogue import list_tools
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

HOSTILE_STRINGS = ["", " ", "x" * 200_000, "a\r\nb\x00c", "caf\ud83d", "\u202eevil", "../../etc/passwd", "bc-1"]
HOSTILE_BY_TYPE: dict[str, list[Any]] = {
    "string": HOSTILE_STRINGS,
    "integer": [-1, 0, 10**15, True, 1.5, "7"],
    "boolean": [None, 0, "true"],
    "array": [[], ["x"] * 500, [{"x": 1}], "x"],
    "object": [{}, {"\x00": "\r\n"}, {"k" * 300: "v" * 5000}, []],
}
JUNK = [None, {"deep": [[[[{"x": "y"}]]]]}]


def sample(name: str, agent_id: str, run_id: str) -> Any:
    """A valid value for a required parameter, by its name."""
    samples: dict[str, Any] = {
        "agent_id": agent_id,
        "run_id": run_id,
        "confirm_agent_id": agent_id,
        "prompt": "Fix the test",
        "path": "artifacts/report.md",
        "runs": [{"agent_id": agent_id, "run_id": run_id}],
    }
    return samples.get(name, "x")


async def test_no_hostile_value_of_any_parameter_answers_internal(harness_factory: OpenHarness) -> None:
    """B-09 (issue 13, schema-driven): INTERNAL is kept for bugs; validation and our own code never answer it."""
    tools = await list_tools()
    world = World(ManualClock())
    agent = world.add_agent("Add a README", script=RunScript(running_seconds=20), created_ago=3600)
    internal: list[str] = []
    tried = 0
    async with harness_factory(world, allow_delete=True, max_new_agents=10_000) as h:
        for tool in tools:
            schema = tool["inputSchema"]
            required = {name: sample(name, agent.id, agent.runs[-1].id) for name in schema.get("required", [])}
            for name, prop in schema["properties"].items():
                for value in HOSTILE_BY_TYPE.get(prop.get("type", ""), []) + JUNK:
                    tried += 1
                    reply = await h.call(tool["name"], required | {name: value})
                    if reply.code == "INTERNAL":
                        internal.append(f"{tool['name']}({name}={str(value)[:40]!r})")
        alive = await h.call("cursor_get_agent", {"agent_id": agent.id})
    assert tried > 400
    assert internal == []
    assert not alive.is_error
