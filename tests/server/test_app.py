"""The server's start-up (issue 35): `initialize` and `tools/list` answered with the SDK and little more loaded;
what a call needs (the toolkit, its tools, the store's read, the API client, the simulator) loads at the first
call, which then answers as before.

Each case runs in a fresh interpreter, since this one has loaded everything already (about 1.5 s each: the
interpreter, the SDK, then what the first call loads).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PROBE = """
import json, sys
import anyio
from mcp import Client
from cursor_cloud_agents.cli.main import open_client
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_server

HEAVY = %r
settings = Settings.from_env(json.loads(sys.argv[1]))
server = build_server(settings, Redactor(settings.secrets()), lambda: open_client(settings))

def loaded():
    return sorted(name for name in HEAVY if name in sys.modules)

async def main():
    async with Client(server, mode="legacy") as client:
        tools = await client.list_tools()
        at_list = loaded()
        answer = await client.call_tool("cursor_list_models", {})
        print(json.dumps({"tools": len(tools.tools), "at_list": at_list, "after_call": loaded(),
                          "call_error": bool(answer.is_error)}))

anyio.run(main)
"""

SNAPSHOT = Path(__file__).parents[1] / "snapshots" / "tools_list.json"
HEAVY = [
    "cursor_cloud_agents.api.client",
    "cursor_cloud_agents.api.models.runs",
    "cursor_cloud_agents.core.state",
    "cursor_cloud_agents.server.pipeline.toolkit",
    "cursor_cloud_agents.server.tools",
    "cursor_cloud_agents.server.views",
    "cursor_cloud_agents.simulator",
    "rich",
]
"""What start-up used to load before its first answer and no longer does."""


def first_answers(tmp_path: Path, **env: str) -> dict[str, Any]:
    environment = {"HOME": str(tmp_path), "CURSOR_MCP_STATE_DIR": str(tmp_path / "state")} | env
    code = PROBE % (HEAVY,)
    ran = subprocess.run(
        [sys.executable, "-c", code, json.dumps(environment)], capture_output=True, text=True, timeout=60, check=False
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    return json.loads(ran.stdout.splitlines()[-1])


@pytest.mark.parametrize("mode", ["simulated", "real"])
def test_initialize_and_tools_list_load_no_tool_client_store_or_simulator_until_the_first_call(
    tmp_path: Path, mode: str
) -> None:
    """P-87: the listing comes from the precomputed one; the first call loads the toolkit and the client (in
    simulated mode the embedded simulator) and is answered (simulated: the models; real, with no key: the
    configuration error every call gives without one)."""
    env = {"CURSOR_MCP_FIXTURE": "1"} if mode == "simulated" else {}
    seen = first_answers(tmp_path, **env)
    assert seen["tools"] == len(json.loads(SNAPSHOT.read_text(encoding="utf-8")))
    assert seen["at_list"] == []
    after = set[str](seen["after_call"])
    assert {"cursor_cloud_agents.api.client", "cursor_cloud_agents.server.pipeline.toolkit"} <= after
    assert ("cursor_cloud_agents.simulator" in after) is (mode == "simulated")
    assert seen["call_error"] is (mode == "real")
