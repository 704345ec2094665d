"""Registration snippets for the four clients, printed by `cursor-cloud-agents config CLIENT`.

Each snippet names the server by the absolute path of this command (a client started from a desktop
launcher may not have the shell's PATH), passes the key from the client's own environment (never
written into a file), and starts with writes off: the user turns them on knowingly.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

SERVER_NAME = "cursor"
COMMAND = "cursor-cloud-agents"
PLUGIN = "cursor-cloud-agents"
"""The Claude Code plugin's name, and its marketplace's (`.claude-plugin/`)."""
PLUGIN_ID = f"{PLUGIN}@{PLUGIN}"
PLUGIN_SERVER_NAME = f"plugin:{PLUGIN}:{SERVER_NAME}"
"""What Claude Code names the plugin's server: its hooks match this name, not `cursor`."""
PLUGIN_PERMISSION = f"mcp__plugin_{PLUGIN}_{SERVER_NAME}"
"""The permission rule that allows every tool of the plugin's server (`claude -p` denies them without it)."""
CLAUDE_PRINT_WAIT_ENV = {"MCP_CONNECTION_NONBLOCKING": "0", "MCP_CONNECT_TIMEOUT_MS": "20000"}
"""What makes `claude -p` wait for its MCP servers before the first model request (docs/clients.md)."""
ELICITATION_HOOK = json.dumps(
    {
        "hooks": {
            "Elicitation": [
                {
                    "matcher": f"^({SERVER_NAME}|{PLUGIN_SERVER_NAME})$",
                    "hooks": [
                        {
                            "type": "command",
                            "command": "printf '%s' '"
                            + json.dumps(
                                {
                                    "hookSpecificOutput": {
                                        "hookEventName": "Elicitation",
                                        "action": "accept",
                                        "content": {"confirm": True},
                                    }
                                }
                            ).replace(" ", "")
                            + "'",
                        }
                    ],
                }
            ]
        }
    }
)


@dataclass(frozen=True)
class Snippet:
    """Where a client's configuration goes, what to put there, and how to check it took."""

    where: str
    text: str
    check: str


def command_path() -> str:
    """The absolute path of this command, as a client should start it."""
    found = shutil.which(COMMAND)
    if found:
        return str(Path(found).absolute())
    # Run as `python -m cursor_cloud_agents`, argv[0] is the module's __main__.py, which no client can start;
    # the console script installed beside this interpreter is the same program.
    beside = Path(sys.executable).with_name(COMMAND)
    if beside.is_file():
        return str(beside.absolute())
    return str(Path(sys.argv[0]).absolute())


def _json(data: object) -> str:
    return json.dumps(data, indent=2)


def _toml_string(text: str) -> str:
    """`text` as a TOML basic string. Not json.dumps: it writes a character beyond U+FFFF as a surrogate
    pair, which TOML refuses, so a path with an emoji made the whole config.toml unreadable."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub(r"[\x00-\x1f\x7f]", lambda match: f"\\u{ord(match.group()):04x}", escaped) + '"'


def snippet(client: str, command: str) -> Snippet:
    """The registration of this server for `client` (claude, codex, opencode or cursor)."""
    writes_off = {"CURSOR_MCP_ALLOW_WRITES": "0"}
    if client == "claude":
        server = {"type": "stdio", "command": command, "env": {"CURSOR_API_KEY": "${CURSOR_API_KEY}"} | writes_off}
        text = _json({"mcpServers": {SERVER_NAME: server}})
        return Snippet(".mcp.json in your project (merge into mcpServers)", text, "claude mcp list, then /mcp")
    if client == "codex":
        text = (
            f"[mcp_servers.{SERVER_NAME}]\ncommand = {_toml_string(command)}\n"
            'env_vars = ["CURSOR_API_KEY"]  # Codex passes only the variables listed here\n'
            'env = { CURSOR_MCP_ALLOW_WRITES = "0" }\ntool_timeout_sec = 100\n'
            "# Wait for this server before the first model request (else, on a slow start, the model gets none of\n"
            "# its tools), and give up after 30 s: it answers in 1 to 11 s on a busy machine.\n"
            "required = true\nstartup_timeout_sec = 30\n"
            '# default_tools_approval_mode = "approve"  # lets `codex exec` run the write tools without asking\n'
        )
        return Snippet("~/.codex/config.toml", text, "codex mcp list")
    if client == "opencode":
        server = {
            "type": "local",
            "command": [command],
            "enabled": True,
            "timeout": 100_000,
            "environment": {"CURSOR_API_KEY": "{env:CURSOR_API_KEY}"} | writes_off,
        }
        data = {"$schema": "https://opencode.ai/config.json", "mcp": {SERVER_NAME: server}}
        return Snippet("opencode.json in your project (merge into mcp)", _json(data), "opencode debug config")
    if client == "cursor":
        server = {"command": command, "env": {"CURSOR_API_KEY": "${env:CURSOR_API_KEY}"} | writes_off}
        text = _json({"mcpServers": {SERVER_NAME: server}})
        check = f"cursor-agent mcp enable {SERVER_NAME} && cursor-agent mcp list-tools {SERVER_NAME}"
        return Snippet(".cursor/mcp.json in your project (merge into mcpServers)", text, check)
    raise ValueError(f"unknown client {client!r}: claude, codex, opencode or cursor")


CLIENTS = ("claude", "codex", "opencode", "cursor")
