"""The package every client installs, rendered from one source (issue 44): `make plugins` writes these files
at the repository root, and a test fails while a committed file differs from this rendering by one byte.

One server entry (`SERVER`) runs everywhere: the installed `cursor-cloud-agents` command, with no argument and
no variable. No file holds a key, or even a placeholder for one: the server finds the key itself
(`CURSOR_API_KEY` when the client passes it, else what `cursor-cloud-agents login` stored: `keystore.py`),
and writes stay off unless the person sets `CURSOR_MCP_ALLOW_WRITES=1` where the client starts. The skill
(`skills/delegate-to-cursor/SKILL.md`) is written by hand; each manifest points at it.

| File | Read by |
|---|---|
| `plugin.json`, `mcp.json`, `skills/` | the Agent Plugins layout (Cursor loads it unchanged) |
| `.codex-plugin/plugin.json` | Codex (`codex plugin marketplace add`, then install) |
| `.cursor-plugin/plugin.json` | Cursor's plugin loader |
| `.claude-plugin/plugin.json`, `marketplace.json` | Claude Code (`claude plugin marketplace add`, then install) |
| `gemini-extension.json` | Gemini CLI (`gemini extensions install`) |
| `opencode.json` | OpenCode (its `mcp` entry, merged into the person's config) |
| `server.json` | the MCP registry (the PyPI package, run over stdio) |
"""

from __future__ import annotations

import json
from typing import Any

from cursor_cloud_agents import __version__
from cursor_cloud_agents.clients import COMMAND, PLUGIN, SERVER_NAME

AUTHOR = {"name": "cursor-cloud-agents contributors"}
DESCRIPTION = (
    "Delegate work to Cursor Cloud Agents: start paid agents on cloud VMs, follow them, read their results, usage "
    "and files, compare attempts, check and keep one, follow up, supervise a fleet."
)
SHORT = "Delegate coding work to Cursor Cloud Agents, compare, check and keep the result."
"""The MCP registry's description: 100 characters at most."""
KEYWORDS = ["cursor", "cloud agents", "mcp", "delegation"]
REGISTRY_NAME = f"io.github.{PLUGIN}/{PLUGIN}"
"""The server's name in the MCP registry: the namespace is the publisher's GitHub account, proved at publishing,
and the PyPI README names it (`mcp-name:`)."""
SKILLS = "./skills/"
MCP_FILE = "./mcp.json"
SERVER: dict[str, Any] = {"command": COMMAND}
"""How every client starts the server: the installed command, nothing else (no key, no placeholder)."""
NETWORK = {"hosts": ["api.cursor.com", "*.amazonaws.com"]}
"""Where the server connects (the API, and artifact downloads): Claude Code's plugin field."""


def _common() -> dict[str, Any]:
    return {
        "name": PLUGIN,
        "version": __version__,
        "description": DESCRIPTION,
        "author": AUTHOR,
        "license": "MIT",
        "keywords": KEYWORDS,
    }


def agent_plugin() -> dict[str, Any]:
    """`plugin.json` of the Agent Plugins layout: metadata only, the components found by their folders."""
    return {"$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json", **_common()}


def mcp_json() -> dict[str, Any]:
    """`mcp.json`: the one server, shared by the Agent Plugins layout, Codex and Cursor. The Agent Plugins format
    requires its `$schema` and each server's `type`: Codex 0.171.0 skipped the file without them ("failed to parse
    plugin MCP config: missing field `$schema`", drive i)."""
    return {
        "$schema": "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
        "mcpServers": {SERVER_NAME: {"type": "stdio", **SERVER}},
    }


def codex_plugin() -> dict[str, Any]:
    return {
        **_common(),
        "skills": SKILLS,
        "mcpServers": MCP_FILE,
        "interface": {
            "displayName": "Cursor Cloud Agents",
            "shortDescription": SHORT,
            "developerName": AUTHOR["name"],
            "category": "Coding",
            "capabilities": ["Read", "Write"],
        },
    }


def cursor_plugin() -> dict[str, Any]:
    return {**_common(), "skills": SKILLS, "mcpServers": MCP_FILE}


def claude_plugin() -> dict[str, Any]:
    """Claude Code's manifest: the server inline (as validated since issue 24), the skill from `skills/`."""
    return {**_common(), "mcpServers": {SERVER_NAME: SERVER}, "network": NETWORK}


def claude_marketplace() -> dict[str, Any]:
    return {
        "name": PLUGIN,
        "description": "Cursor Cloud Agents for Claude Code: the cursor-cloud-agents MCP server and its skill.",
        "owner": AUTHOR,
        "plugins": [{"name": PLUGIN, "source": "./", "description": SHORT}],
    }


def gemini_extension() -> dict[str, Any]:
    return {"name": PLUGIN, "version": __version__, "description": DESCRIPTION, "mcpServers": {SERVER_NAME: SERVER}}


def opencode_config() -> dict[str, Any]:
    """OpenCode's entry: a local server; 100 s per call, over the 55 s our calls last (its default is 60 s)."""
    server = {"type": "local", "command": [COMMAND], "enabled": True, "timeout": 100_000}
    return {"$schema": "https://opencode.ai/config.json", "mcp": {SERVER_NAME: server}}


def registry_server() -> dict[str, Any]:
    """The MCP registry's `server.json`: the PyPI package over stdio; the key optional (`login` stores one)."""
    key = {
        "name": "CURSOR_API_KEY",
        "description": "Your Cursor API key; not needed after `cursor-cloud-agents login`.",
        "isRequired": False,
        "isSecret": True,
    }
    writes = {
        "name": "CURSOR_MCP_ALLOW_WRITES",
        "description": "1 lets the server create and steer paid agents; read-only by default.",
        "isRequired": False,
        "default": "0",
        "choices": ["0", "1"],
    }
    package = {
        "registryType": "pypi",
        "identifier": PLUGIN,
        "version": __version__,
        "runtimeHint": "uvx",
        "transport": {"type": "stdio"},
        "environmentVariables": [key, writes],
    }
    return {
        "$schema": "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        "name": REGISTRY_NAME,
        "title": "Cursor Cloud Agents",
        "description": SHORT,
        "version": __version__,
        "packages": [package],
    }


MANIFESTS = {
    "plugin.json": agent_plugin,
    "mcp.json": mcp_json,
    ".codex-plugin/plugin.json": codex_plugin,
    ".cursor-plugin/plugin.json": cursor_plugin,
    ".claude-plugin/plugin.json": claude_plugin,
    ".claude-plugin/marketplace.json": claude_marketplace,
    "gemini-extension.json": gemini_extension,
    "opencode.json": opencode_config,
    "server.json": registry_server,
}
"""Every generated file, by its path from the repository root."""


def rendered() -> dict[str, str]:
    """Each generated file's exact text."""
    return {path: json.dumps(make(), indent=2, ensure_ascii=False) + "\n" for path, make in MANIFESTS.items()}
