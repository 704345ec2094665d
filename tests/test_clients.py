"""What `config CLIENT` prints and docs/clients.md shows, from one source (issue 36): each registration as it was
installed and driven with the real client (scripts/clients/, docs/clients.md)."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from cursor_cloud_agents import clients
from cursor_cloud_agents.clients import CLIENTS, COMMAND, snippet

PAGE = (Path(__file__).parent.parent / "docs" / "clients.md").read_text()


def test_codex_waits_for_the_server_before_the_first_model_request_and_says_why() -> None:
    """Issue 36: without `required = true`, `codex exec` sent its first model request before the server answered
    (0 of 3 runs with our tools); with it and a 30 s start-up timeout, 10 of 10 (codex_first_turn.py)."""
    text = snippet("codex", COMMAND).text
    server = tomllib.loads(text)["mcp_servers"][clients.SERVER_NAME]
    assert server["required"] is True and server["startup_timeout_sec"] == 30
    assert "# Wait for this server before the first model request" in text


@pytest.mark.parametrize("client", CLIENTS)
def test_the_clients_page_shows_each_registration_config_prints(client: str) -> None:
    """Issue 36: docs/clients.md's blocks are `config CLIENT`'s text with the bare command (`make readme`)."""
    assert snippet(client, COMMAND).text.rstrip() in PAGE


def test_claude_mcp_add_names_the_server_before_the_variables_and_writes_no_key() -> None:
    """Issue 36: `-e` takes a list, so a name after it would be read as a variable; the key is inherited."""
    words = shlex.split(clients.claude_mcp_add("/opt/my tools/cursor-cloud-agents"))
    assert words[:5] == ["claude", "mcp", "add", "--scope", "user"] and words[5] == clients.SERVER_NAME
    assert words[6:8] == ["-e", "CURSOR_MCP_ALLOW_WRITES=0"] and words[-2:] == [
        "--",
        "/opt/my tools/cursor-cloud-agents",
    ]
    assert "CURSOR_API_KEY" not in " ".join(words) and clients.claude_mcp_add(COMMAND) in PAGE


@pytest.mark.parametrize("permission", [clients.CLAUDE_PERMISSION, clients.PLUGIN_PERMISSION])
def test_claude_print_allows_the_servers_tools_and_waits_for_it(permission: str) -> None:
    """Issue 36: `claude -p` refuses an MCP tool unless allowed; the variables make it connect servers first."""
    line = clients.claude_print(permission)
    assert f"--allowedTools {permission}" in line and "MCP_CONNECTION_NONBLOCKING=0" in line and line in PAGE


@pytest.mark.parametrize(
    ("name", "fits"),
    [("cursor", True), ("plugin:cursor-cloud-agents:cursor", True), ("cursor-ide", False), ("my-cursor", False)],
)
def test_the_hook_matcher_fits_both_installations_and_nothing_else(name: str, fits: bool) -> None:
    """D-92: Claude Code searches a matcher holding `:` or `^` as a regular expression; anchored, it names the
    server installed from `.mcp.json` or `claude mcp add` (`cursor`) and as the plugin, and no other."""
    hook = json.loads(clients.elicitation_hook())["hooks"]["Elicitation"][0]
    assert (re.search(hook["matcher"], name) is not None) is fits
    assert not re.fullmatch(r"[a-zA-Z0-9_|, -]+", hook["matcher"])  # else compared as a list of names
    answer = json.loads(shlex.split(hook["hooks"][0]["command"])[-1])
    assert answer["hookSpecificOutput"] == {
        "hookEventName": "Elicitation",
        "action": "accept",
        "content": {"confirm": True},
    }


def test_config_claude_prints_the_other_ways_as_comments() -> None:
    """Issue 36: `config claude` adds the `claude mcp add` line and the script line under the JSON to paste."""
    printed = snippet("claude", "/abs/cursor-cloud-agents").printed()
    assert printed.startswith("# .mcp.json") and "\n# or, for all your projects" in printed
    assert "# in scripts: MCP_CONNECTION_NONBLOCKING=0" in printed and printed.endswith("\n")
