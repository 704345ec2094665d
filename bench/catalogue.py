"""The context a model must read before its first call: instructions plus every tool's name,
description and compact input schema (JSON), in UTF-8 bytes. Issues 5 and 46 cap the sum at 14,000 bytes
(the reference spends about 26,000 on the same kind of catalogue). Prints the total and each tool, largest
first. The same measure as tests/test_catalogue.py.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.server.protocol.instructions import instructions
from devkit.catalogue import list_tools

BUDGET = 14_000


def tool_bytes(tool: dict[str, Any]) -> int:
    schema = json.dumps(tool["inputSchema"], separators=(",", ":"))
    return len((tool["name"] + tool.get("description", "") + schema).encode())


async def main() -> None:
    settings = Settings()
    tools = await list_tools(settings)
    sizes = sorted(((tool_bytes(tool), tool["name"]) for tool in tools), reverse=True)
    head = len(instructions(settings).encode())
    total = head + sum(size for size, _ in sizes)
    out = sys.stdout
    out.write(f"catalogue: {total} bytes for {len(tools)} tools + instructions (budget {BUDGET})\n")
    out.write(f"  {'instructions':<28} {head:>6}\n")
    for size, name in sizes:
        out.write(f"  {name:<28} {size:>6}\n")


if __name__ == "__main__":
    anyio.run(main)
