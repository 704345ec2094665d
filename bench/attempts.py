"""Bench and acceptance check of issue 31: several attempts at one task, through the real server over stdio.

The server runs as it ships, in simulated mode (`CURSOR_MCP_FIXTURE=1`, writes allowed, its store in memory),
spawned by an MCP client over stdio. Three attempts in one `cursor_create_agent` call, `cursor_wait` on the
group until all have ended (simulated runs take about 30 s of real time), `cursor_compare`, `cursor_keep`;
then a second server with `CURSOR_MCP_MAX_NEW_AGENTS=2`, where the same three attempts are refused whole.
It prints each answer's size and time, the rows, and what was refused.

Run: `.venv/bin/python bench/attempts.py`
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import TextContent

MODELS = ["composer-2", "gpt-5.2", "claude-4.6-opus"]
TASK: dict[str, Any] = {
    "prompt": "Make the parser twice as fast",
    "repository": "https://github.com/your-org/your-repo",
    "starting_ref": "main",
    "name": "parser speed",
    "attempts": [{"model_id": model} for model in MODELS],
}


def _server(**extra: str) -> StdioServerParameters:
    env = {"PATH": os.environ.get("PATH", ""), "HOME": os.environ.get("HOME", "/tmp")}
    env |= {"CURSOR_MCP_FIXTURE": "1", "CURSOR_MCP_ALLOW_WRITES": "1"} | extra
    return StdioServerParameters(command=sys.executable, args=["-m", "cursor_cloud_agents"], env=env)


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    started = time.perf_counter()
    result = await client.call_tool(tool, arguments)
    block = result.content[0]
    assert isinstance(block, TextContent)
    took = time.perf_counter() - started
    print(f"{tool}: {len(block.text.encode()):,} bytes in {took:.2f} s{' (error)' if result.is_error else ''}")
    return json.loads(block.text), bool(result.is_error)


async def main() -> None:
    async with Client(_server(), mode="legacy") as client:
        created, failed = await _call(client, "cursor_create_agent", TASK)
        assert not failed, created
        group = created["group_id"]
        print(f"  group {group}: " + ", ".join(f"{row['model']} {row['agent_id']}" for row in created["attempts"]))
        waited, _ = await _call(client, "cursor_wait", {"group_id": group, "until": "all", "wait_seconds": 50})
        print(f"  ended {len(waited['ended'])}, timed_out {waited.get('timed_out', False)}")
        compared, _ = await _call(client, "cursor_compare", {"group_id": group})
        for row in compared["attempts"]:
            print(
                f"  {row['attempt']}. {row['model']:<16} {row['status']:<9} {row.get('duration_seconds')} s "
                f"{row.get('cost_cents')} cents  change {row['change']}"
            )
        first = created["attempts"][0]["agent_id"]
        kept, _ = await _call(client, "cursor_keep", {"group_id": group, "agent_id": first})
        print(f"  kept {kept['kept']}, archived {kept['archived']}")
        listed, _ = await _call(client, "cursor_list_agents", {"name": "parser speed"})
        print(f"  unarchived attempts listed: {len(listed['agents'])}")
    async with Client(_server(CURSOR_MCP_MAX_NEW_AGENTS="2"), mode="legacy") as client:
        refused, failed = await _call(client, "cursor_create_agent", TASK)
        print(f"  MAX_NEW_AGENTS=2: {refused['code']}: {refused['message'][:120]}")
        listed, _ = await _call(client, "cursor_list_agents", {"name": "parser speed"})
        print(f"  agents named after the set: {len(listed['agents'])}")


if __name__ == "__main__":
    anyio.run(main)
