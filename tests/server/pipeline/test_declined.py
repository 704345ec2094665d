"""What a `DECLINED` answer advises (issue 36): Claude Code's `Elicitation` hook matches the name Claude Code
gave the server, which depends on how it was installed, so the advice names the matcher that fits when the
server can know it (Claude Code started it as its plugin) and both names otherwise."""

from __future__ import annotations

from cursor_cloud_agents.clients import HOOK_MATCHER, PLUGIN_SERVER_NAME, SERVER_NAME
from cursor_cloud_agents.server.pipeline.declined import hook_advice


def test_as_the_plugin_the_advice_names_the_plugins_server_name_only() -> None:
    """D-92: started as the Claude Code plugin, the hook must match `plugin:cursor-cloud-agents:cursor`
    (a hook matching `cursor` never runs: measured, scripts/clients/claude_plugin.py)."""
    advice = hook_advice(claude_plugin=True)
    assert f"matcher is {PLUGIN_SERVER_NAME} " in advice and f"{SERVER_NAME} as" not in advice


def test_otherwise_the_advice_names_both_names_and_the_documented_hook_matches_both() -> None:
    """D-92: registered by the user (`.mcp.json`, `claude mcp add`), the server cannot know the name chosen: the
    advice names `config claude`'s `cursor` and the plugin's name; docs/safety.md's matcher fits both exactly."""
    advice = hook_advice(claude_plugin=False)
    assert f"{SERVER_NAME} as `config claude` registers it, {PLUGIN_SERVER_NAME} as the plugin" in advice
    assert HOOK_MATCHER == f"^({SERVER_NAME}|{PLUGIN_SERVER_NAME})$"
