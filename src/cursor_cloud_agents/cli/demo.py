"""`cursor-cloud-agents demo`: the tools walked through a real MCP client, over stdio, against the simulator.

The demo starts this package's own server as a subprocess, in simulated mode with writes allowed in
that server's environment only, and prints every call and a short view of its answer. It is a
client of the server, so printing to stdout is its job.
"""

from __future__ import annotations

import json
import shlex
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp_types import CallToolResult

from cursor_cloud_agents.server.pipeline.answers import size
from cursor_cloud_agents.simulator import SIMULATED_API_KEY

VIEW_CHARS = 160
DIFF_LINES = 24
"""Lines of the agent's diff the demo prints."""
CHECK_COMMAND = f"{shlex.quote(sys.executable)} -m unittest discover -s tests -q"


def _server(base_url: str | None, record: Path | None, state_dir: str) -> StdioServerParameters:
    """The server in simulated mode; with `base_url`, a client of that loopback simulator (`simulate`) instead."""
    env = {"CURSOR_MCP_ALLOW_WRITES": "1", "CURSOR_MCP_ALLOW_DELETE": "1", "CURSOR_MCP_LOG_LEVEL": "WARNING"}
    # The person's check command: the seed project's tests, run on the agent's branch (code the agent wrote).
    env["CURSOR_MCP_CHECK_COMMAND"] = CHECK_COMMAND
    if base_url is None:
        env["CURSOR_MCP_FIXTURE"] = "1"
    else:
        # A fresh journal and ledger: the walk counts only its own creations, so two walks answer alike.
        env |= {"CURSOR_API_BASE_URL": base_url, "CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_MCP_STATE_DIR": state_dir}
    if record is not None:
        # Absolute: the server refuses a relative folder (it would follow whatever directory a client starts it in).
        env |= {"CURSOR_MCP_RECORD_DIR": str(record.absolute()), "CURSOR_MCP_RECORD_KEEP_TEXT": "1"}
    return StdioServerParameters(command=sys.executable, args=["-m", "cursor_cloud_agents"], env=env)


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _view(result: CallToolResult) -> str:
    text = json.dumps(result.structured_content, separators=(",", ":"))
    short = text if len(text) <= VIEW_CHARS else text[:VIEW_CHARS] + "…"
    return ("error " if result.is_error else "") + short + f"  ({size(result.structured_content)} bytes)"


class Walk:
    """One demo session: calls tools, prints each call and its answer, remembers the largest result."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.largest = 0
        self.errors = 0

    async def call(self, tool: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        arguments = arguments or {}
        _say(f"→ {tool} {json.dumps(arguments, separators=(',', ':'))}")
        result = await self.client.call_tool(tool, arguments, progress_callback=self._progress)
        self.largest = max(self.largest, size(result.structured_content))  # as the server measures its cap
        self.errors += bool(result.is_error)
        _say(f"  ← {_view(result)}")
        return dict(result.structured_content or {})

    def show_change(self, answer: dict[str, Any]) -> None:
        """Print an agent's change as `cursor_get_changes` answered it: its files, then its diff's first lines."""
        for file in answer.get("files", []):
            counts = "binary" if file.get("binary") else f"+{file.get('additions')} -{file.get('deletions')}"
            _say(f"    {file['status']:>8} {file['path']}  {counts}")
        lines = str(answer.get("diff", "")).splitlines()
        for line in lines[:DIFF_LINES]:
            _say(f"    │ {line}")
        if len(lines) > DIFF_LINES:
            _say(f"    │ … {len(lines) - DIFF_LINES} more lines")

    def show_check(self, answer: dict[str, Any]) -> None:
        """Print the verdict of `cursor_check_changes` and the last line of its output."""
        if "passed" in answer:
            verdict = "passed" if answer["passed"] else "failed"
            last = str(answer.get("last_lines", "")).splitlines()[-1:] or [""]
            _say(f"    check {verdict} (exit {answer.get('exit_code')}, {answer.get('seconds')} s): {last[0]}")

    async def _progress(self, progress: float, total: float | None, message: str | None) -> None:
        del total
        _say(f"    … progress {progress:g}: {message or ''}")


# The simulator reads markers in prompts: `[sim:seconds=N]` sets how long a run works.
FIRST_TASK = "Add a README with setup instructions [sim:seconds=6]"
LONG_TASK = "Also write a CONTRIBUTING guide [sim:seconds=120]"
REDIRECT = "Drop that; add a LICENSE file instead [sim:seconds=120]"


async def story(walk: Walk, agent_id: str | None = None, *, changes: bool = True) -> None:
    """Account, models, create, wait, result, its change and its check, usage, follow-up, replace, cancel,
    archive, delete.

    `agent_id` names the agent to create (a replayed trace answers for the id it recorded); `changes=False`
    leaves out the change and its check (a replayed trace has no git behind it)."""
    await walk.call("cursor_get_account")
    await walk.call("cursor_list_models")
    creation = {"prompt": FIRST_TASK, "repository": REPOSITORY} | ({"agent_id": agent_id} if agent_id else {})
    created = await walk.call("cursor_create_agent", creation)
    agent = {"agent_id": created["agent_id"]}
    await walk.call("cursor_get_run", agent | {"run_id": created["run_id"], "wait_seconds": 30})
    await walk.call("cursor_read_run_events", agent | {"run_id": created["run_id"], "tail": 5})
    if changes:
        walk.show_change(await walk.call("cursor_get_changes", agent))
        walk.show_check(await walk.call("cursor_check_changes", agent))
    await walk.call("cursor_get_usage", agent)
    await walk.call("cursor_create_run", agent | {"prompt": LONG_TASK})
    redirected = await walk.call("cursor_create_run", agent | {"prompt": REDIRECT, "replace_active": True})
    await walk.call("cursor_supervise", {"status": "all", "limit": 5})
    await walk.call("cursor_cancel_run", agent | {"run_id": redirected["run_id"]})
    await walk.call("cursor_archive_agent", agent)
    await walk.call("cursor_delete_agent", agent | {"confirm_agent_id": created["agent_id"]})


REPOSITORY = "https://github.com/your-org/your-repo"


async def _walk(base_url: str | None, record: Path | None, agent_id: str | None) -> int:
    started = time.perf_counter()
    where = "SIMULATED MODE" if base_url is None else f"the simulator at {base_url}"
    _say(f"Starting the MCP server over stdio against {where} (nothing is real or billed).")
    with tempfile.TemporaryDirectory() as state_dir:
        async with Client(_server(base_url, record, state_dir), mode="legacy") as client:
            info = client.server_info
            _say(f"initialize → {info.name if info else '?'} {info.version if info else ''}")
            tools = await client.list_tools()
            _say(f"tools/list → {len(tools.tools)} tools: {', '.join(tool.name for tool in tools.tools)}")
            walk = Walk(client)
            await story(walk, agent_id)
    took = time.perf_counter() - started
    _say(f"Done in {took:.1f} s; largest result {walk.largest} bytes; {walk.errors} errors.")
    return 1 if walk.errors else 0


def run_demo(*, base_url: str | None = None, record: Path | None = None, agent_id: str | None = None) -> int:
    """Run the demo (against `base_url`, a `simulate` server, when given; recording into `record`); the exit code."""
    return anyio.run(_walk, base_url, record, agent_id)
