"""Bench: the server's peak memory growth while `cursor_get_changes` reads a diff of tens of megabytes (issue 42).

A hand-made API stand-in (crafted agent JSON over a MockTransport, tests/handmade.py) names a branch of a
`git init --bare` remote holding one file of SIZE MB (100-byte lines: the diff is SIZE MB of `+` lines and
a little more). Our MCP server, in this process, answers the first page (which measures the whole diff) and
a page from the middle; Python's allocations are traced (tracemalloc) from just before each call, and the
process's peak resident size is read too. Prints the peak growth of each call in MiB: the bound is 64 MiB.

Run: `.venv/bin/python bench/changes_memory.py [SIZE_MB]` (60 by default).
"""

from __future__ import annotations

import gc
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp import Client
from mcp_types import TextContent
from tests.handmade import AGENT, HandApi, HandRemote, git, make_hand_remote

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server

MIB = 1024 * 1024


def push_big(root: Path, size_mb: int) -> HandRemote:
    """`big.txt` of `size_mb` MB on `cursor/big`, written by the shell (this process never holds it)."""
    remote = make_hand_remote(root)
    scratch = root / "scratch"
    git(scratch, "switch", "--quiet", "-C", "big", "origin/main", env=remote.env)
    line = "x" * 99
    subprocess.run(
        f"yes {line} | head -c {size_mb * 1_000_000} > big.txt", shell=True, cwd=scratch, check=True, timeout=120
    )
    git(scratch, "add", "big.txt", env=remote.env)
    git(scratch, "commit", "--quiet", "-m", "A big file", env=remote.env)
    git(scratch, "push", "--quiet", "origin", "HEAD:refs/heads/cursor/big", env=remote.env)
    return remote


async def measure(size_mb: int) -> dict[str, Any]:
    """The figures of one run: peak growth (MiB) and seconds of each call, diff size, peak RSS growth."""
    with tempfile.TemporaryDirectory() as place:
        root = Path(place) / "place"
        places = push_big(root, size_mb).places()
        api = HandApi(branch="cursor/big").client()
        settings = Settings(api_key=Secret("key_bench"))

        @asynccontextmanager
        async def borrow() -> AsyncGenerator[CursorClient, None]:
            yield api

        server = build_server(settings, Redactor(settings.secrets()), borrow, git_places=places)
        figures: dict[str, Any] = {"size_mb": size_mb}
        async with api, Client(server, mode="legacy") as client:
            await client.list_tools()
            rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            for name, offset in (("first_page", 0), ("middle_page", size_mb * 500_000)):
                gc.collect()
                tracemalloc.start()
                base = tracemalloc.get_traced_memory()[0]
                started = time.perf_counter()
                result = await client.call_tool("cursor_get_changes", {"agent_id": AGENT, "offset": offset})
                seconds = time.perf_counter() - started
                peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
                block = result.content[0]
                assert isinstance(block, TextContent) and not result.is_error, block
                data = json.loads(block.text)
                figures[name] = {"peak_growth_mib": round((peak - base) / MIB, 1), "seconds": round(seconds, 2)}
                figures["diff_chars"] = data["diff_chars"]
            figures["rss_growth_mib"] = round(
                (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) / 1024, 1
            )
        return figures


def main() -> None:
    size_mb = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    figures = anyio.run(measure, size_mb)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
