"""What the model is told when a question to the person is not answered yes (MCP elicitation).

A headless client (`claude -p`, `codex exec`) declares elicitation and answers every question itself, at
once, without showing it to anyone (`cancel`, `decline`: docs/clients.md). So a refusal says what the
client answered, never that a user decided: it names the client's action, says that a headless client
answers without showing the question, and gives the two ways the user can allow the act (the setting, or
Claude Code's `Elicitation` hook). The hook must match the name Claude Code gave the server, which depends
on how it was installed: `plugin:cursor-cloud-agents:cursor` for the plugin (known here: Claude Code sets
`CLAUDE_PLUGIN_ROOT` for a plugin's server), else the name in the user's MCP configuration (`cursor` as
`config claude` registers it; not known here, so both are named). An `accept` that is not a yes is described in one
line (what it carried). Nothing was sent in any case.
"""

from __future__ import annotations

from cursor_cloud_agents.clients import PLUGIN_SERVER_NAME, SERVER_NAME
from cursor_cloud_agents.core import ToolFailure, failures, how_to_allow
from cursor_cloud_agents.server.protocol.asking import YES_FIELD, Answer, Consent


def hook_advice(claude_plugin: bool) -> str:
    """Claude Code's way to answer this server's questions, with the matcher for how it was installed."""
    if claude_plugin:
        return (
            f"since Claude Code runs this server as its plugin, add an Elicitation hook in settings.json whose "
            f"matcher is {PLUGIN_SERVER_NAME} (the hook in docs/safety.md matches it)"
        )
    return (
        "in Claude Code, add an Elicitation hook in settings.json whose matcher is this server's name: "
        f"{SERVER_NAME} as `config claude` registers it, {PLUGIN_SERVER_NAME} as the plugin (the hook in "
        "docs/safety.md matches both)"
    )


def declined(answer: Answer, act: str, unsent: str, *, claude_plugin: bool = False) -> ToolFailure:
    """`DECLINED` for an answer that is not a yes to the question about `act`; `unsent` says what was not done;
    `claude_plugin`: Claude Code started this server as its plugin (the hook's matcher differs)."""
    if answer.consent is Consent.DECLINED and answer.action == "accept":
        said = f"The client answered {answer.reason}: only accept with {YES_FIELD} set to true is a yes."
    elif answer.action is not None:
        said = (
            f"The client answered `{answer.action}` to the question for its user. A client run headless "
            "(claude -p, codex exec) answers every question itself without showing it, so no one may have seen it."
        )
    else:
        said = f"The client did not answer the question for its user ({answer.reason})."
    message = (
        f"Not done: {unsent}. {said} To allow it, {how_to_allow(act, hook_advice(claude_plugin))}. Until one of "
        "these changes, asking again gets the same answer."
    )
    return ToolFailure(failures.DECLINED, message, consent=answer.consent.value, client_answer=answer.action)
