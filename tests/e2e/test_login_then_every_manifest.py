"""Issue 44's acceptance, end to end: in a fresh HOME with no `CURSOR_API_KEY`, `login` with the key on stdin,
then the server started exactly as each manifest says answers `cursor_get_account` with that key (against a
simulator on loopback); `logout`, and the next start says how to log in.

The commands are the console script of this checkout's environment, found on PATH as a client finds it; the
environment is what a client passes: PATH, HOME and the loopback API (no key, no other setting)."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from cursor_cloud_agents.cli.plugins import MANIFESTS, rendered
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, World, serve
from tests.tool_harness import reply_of

BIN = Path(sys.executable).parent


def launches() -> dict[str, tuple[str, list[str], dict[str, str]]]:
    """How each manifest says to start the server: its command, arguments and environment."""
    files = {path: json.loads(text) for path, text in rendered().items()}
    shared = files["mcp.json"]["mcpServers"]["cursor"]
    found: dict[str, Any] = {
        "mcp.json": shared,
        ".claude-plugin/plugin.json": files[".claude-plugin/plugin.json"]["mcpServers"]["cursor"],
        "gemini-extension.json": files["gemini-extension.json"]["mcpServers"]["cursor"],
    }
    for path in (".codex-plugin/plugin.json", ".cursor-plugin/plugin.json"):
        assert files[path]["mcpServers"] == "./mcp.json"
        found[path] = shared
    opencode = files["opencode.json"]["mcp"]["cursor"]
    found["opencode.json"] = {"command": opencode["command"][0], "args": opencode["command"][1:]}
    [package] = files["server.json"]["packages"]
    found["server.json"] = {"command": package["identifier"]}  # uvx runs the package's console script
    assert set(found) | {"plugin.json", ".claude-plugin/marketplace.json"} == set(MANIFESTS)
    return {path: (e["command"], e.get("args", []), e.get("env", {})) for path, e in found.items()}


def client_env(home: Path, base_url: str) -> dict[str, str]:
    return {
        "PATH": f"{BIN}{os.pathsep}{os.defpath}",
        "HOME": str(home),
        "CURSOR_API_BASE_URL": base_url,
        "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring",  # a headless machine: no keychain
    }


async def get_account(command: str, args: list[str], env: dict[str, str]) -> Any:
    server = StdioServerParameters(command=command, args=args, env=env)
    with anyio.fail_after(40):
        async with Client(server, mode="legacy") as client:
            return reply_of(await client.call_tool("cursor_get_account", {}))


@pytest.mark.anyio
async def test_login_then_each_manifests_server_uses_the_stored_key_and_logout_says_how_to_log_in_i_07(
    tmp_path: Path,
) -> None:
    """I-07: one key typed once serves every client's install; after logout the server names `login`.
    Every manifest starts the same entry (one command, no argument, no variable), so one start proves them
    all; the test fails if any manifest starts the server otherwise. About 7 s: four processes (login, two
    servers, logout), each loading the package, as a client starts them."""
    entries = launches()
    assert len(set(map(repr, entries.values()))) == 1, entries
    command, args, extra = next(iter(entries.values()))
    async with serve(World(ManualClock())) as sim:
        env = client_env(tmp_path, sim.base_url) | extra
        done = await anyio.run_process(
            [command, "login", "--stdin"], input=f"{SIMULATED_API_KEY}\n".encode(), env=env, check=False
        )
        assert done.returncode == 0, done.stderr
        assert b"Simulated API Key" in done.stdout and SIMULATED_API_KEY.encode() not in done.stdout + done.stderr
        key_file = tmp_path / ".config" / "cursor-cloud-agents" / "api-key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700

        account = await get_account(command, args, env)
        assert not account.is_error, account
        assert account.data["key"]["name"] == "Simulated API Key"
        assert [request.path for request in sim.faults.requests][-2:] == ["/v1/me", "/v1/agents"]

        done = await anyio.run_process([command, "logout"], env=env, check=False)
        assert done.returncode == 0 and not key_file.exists()
        refused = await get_account(command, args, env)
    assert refused.is_error and refused.data["code"] == "CONFIGURATION_MISSING"
    assert "cursor-cloud-agents login" in refused.data["message"]
