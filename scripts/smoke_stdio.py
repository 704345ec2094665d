"""CI smoke check: the installed console script answers tools/list over stdio with nothing but JSON-RPC."""

from __future__ import annotations

import sys

import anyio

from cursor_cloud_agents.probe import probe


async def main(command: str) -> None:
    result = await probe([command], {"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    names = [tool["name"] for tool in result.tools]
    assert "cursor_get_account" in names, names
    sys.stdout.write(f"{command}: {len(names)} tools over stdio in {result.seconds_to_tools:.2f} s\n")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
