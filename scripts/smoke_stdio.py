"""CI smoke check: the installed console script lists its tools and answers a call over stdio, in simulated
mode, with nothing but JSON-RPC on stdout."""

from __future__ import annotations

import sys

import anyio

from devkit.probe import probe


async def main(command: str) -> None:
    environment = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "CURSOR_MCP_FIXTURE": "1"}
    result = await probe([command], environment, call=("cursor_list_agents", {"limit": 1}))
    names = [tool["name"] for tool in result.tools]
    assert "cursor_get_account" in names, names
    assert result.call_result is not None and not result.call_result.get("isError"), result.call_result
    sys.stdout.write(f"{command}: {len(names)} tools over stdio in {result.seconds_to_tools:.2f} s\n")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
