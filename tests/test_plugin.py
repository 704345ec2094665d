"""The Claude Code plugin (issue 24): `.claude-plugin/plugin.json` registers the server, `marketplace.json` lists it.

The files are checked against the project (name, version, the console script, only the key and the writes
switch passed on), and by the real `claude plugin validate` when Claude Code is installed in
`.tools/claude-code` (`scripts/claude_code.sh`, which `.ci/run` runs first). Without it the validation is
skipped with the reason printed (`-ra`), never silently.
"""

from __future__ import annotations

import json
import os
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents import __version__, clients

ROOT = Path(__file__).parent.parent
PLUGIN = ROOT / ".claude-plugin" / "plugin.json"
MARKETPLACE = ROOT / ".claude-plugin" / "marketplace.json"
CLAUDE = ROOT / ".tools" / "claude-code" / "node_modules" / ".bin" / "claude"


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def test_the_plugin_registers_this_server_under_its_console_script_and_version() -> None:
    """Issue 24: the plugin's server is the `cursor-cloud-agents` command at the project's version. Issue 44: it
    passes no variable at all: a plugin's server inherits Claude Code's environment (an exported key, the writes
    switch), and without a key it uses the one `login` stored; a `${CURSOR_API_KEY}` left unset is gone."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    plugin = load(PLUGIN)
    server = plugin["mcpServers"]["cursor"]
    assert plugin["name"] == project["name"] and plugin["version"] == __version__
    assert server == {"command": "cursor-cloud-agents"} and server["command"] in project["scripts"]


def test_the_marketplace_lists_the_plugin_of_this_repository() -> None:
    """Issue 24: `claude plugin marketplace add OWNER/REPO` then `claude plugin install cursor-cloud-agents`."""
    marketplace = load(MARKETPLACE)
    assert [(entry["name"], entry["source"]) for entry in marketplace["plugins"]] == [(load(PLUGIN)["name"], "./")]


@pytest.mark.parametrize("target", [ROOT, PLUGIN], ids=["marketplace", "plugin"])
def test_claude_plugin_validate_passes(target: Path, tmp_path: Path) -> None:
    """Issue 24: the real `claude plugin validate` (Claude Code 2.1.332) accepts the marketplace and the plugin;
    issue 44: with the skill in `skills/`."""
    if not CLAUDE.exists():
        pytest.skip("Claude Code is not in .tools/claude-code: run scripts/claude_code.sh (npm) to validate the plugin")
    env = {"PATH": os.defpath, "HOME": str(tmp_path), "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_TELEMETRY": "1"}
    done = subprocess.run(
        [str(CLAUDE), "plugin", "validate", "--json", str(target)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    report = json.loads(done.stdout)
    assert done.returncode == 0 and report["success"] is True, done.stdout + done.stderr
    assert report["manifest"]["errors"] == [] and [s["name"] for s in report["provides"]["mcpServers"]] == ["cursor"]
    assert report["provides"]["skills"] == ["cursor-cloud-agents:delegate-to-cursor"]  # issue 44: the skill


def test_the_names_the_readme_gives_the_plugin_are_those_claude_code_derives_from_its_files() -> None:
    """Issue 36: Claude Code names a plugin's server `plugin:PLUGIN:SERVER` and its tools
    `mcp__plugin_PLUGIN_SERVER__TOOL`; the hook matcher, the permission rule and the DECLINED advice use them."""
    plugin, marketplace = load(PLUGIN), load(MARKETPLACE)
    assert (
        plugin["name"] == marketplace["name"] == clients.PLUGIN
        and clients.PLUGIN_ID == f"{plugin['name']}@{marketplace['name']}"
    )
    [server] = plugin["mcpServers"]
    assert clients.PLUGIN_SERVER_NAME == f"plugin:{plugin['name']}:{server}"
    assert clients.PLUGIN_PERMISSION == f"mcp__plugin_{plugin['name']}_{server}"
