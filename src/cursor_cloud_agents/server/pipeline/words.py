"""The core's next steps in the MCP face's words: a tool and its arguments, for the model (`core/advice.py`).

A failure's message says what happened in neutral terms; its advice names the step. Here each step becomes
the words a model acts on (`cursor_get_run with wait_seconds`, `replace_active=true`, the server's
environment). The terminal (`terminal/words.py`) and the SDK (`sdk/_words.py`) say the same steps their way.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cursor_cloud_agents.core import Advice, Step, ToolFailure, consent

_CREATES = " (or CURSOR_MCP_CONFIRM_CREATES=1)"


def _unasked(advice: Advice) -> str:
    act, unsent = advice.fact("act"), advice.fact("unsent")
    setting = "CURSOR_MCP_ASK" + (_CREATES if act == "create" else "")
    return (
        f"{setting} asks the user before this ({act}), and this client cannot ask (it declared no MCP elicitation): "
        f"{unsent}. The user can take `{act}` out of CURSOR_MCP_ASK{consent.AFTER_REMOVAL.get(act, '')}, or use a "
        "client that can ask."
    )


_AFTER: Mapping[Step, Callable[[Advice], str]] = {
    Step.WAIT_OR_REPLACE: lambda _: (
        " Wait for the run (cursor_get_run with wait_seconds), or follow up with replace_active=true to cancel it "
        "first."
    ),
    Step.WAIT_THEN_ASK_AGAIN: lambda a: (
        f" Wait for run {a.fact('run_id')} to end (cursor_wait with agent_id and run_id), then ask for the changes "
        "again."
    ),
    Step.LIST_MODELS: lambda _: " cursor_list_models lists the ids and aliases.",
    Step.SET_KEY: lambda _: (
        ": run `cursor-cloud-agents login` once in a terminal (it stores the key for every client), or set "
        "CURSOR_API_KEY in the MCP server's environment"
    ),
    Step.GIVE_KEY: lambda _: " Set CURSOR_API_KEY in the MCP server's environment.",
    Step.CHECK_KEY: lambda _: ": check CURSOR_API_KEY in the MCP server's environment, then restart the client.",
    Step.CHECK_ACCOUNT: lambda _: (
        ": use a user API key (CURSOR_API_KEY), check CURSOR_TEAM_ID, or ask a team admin, then restart the client."
    ),
    Step.LIST_IDS: lambda _: "; cursor_list_agents and cursor_list_runs list valid ids.",
    Step.READ_RUN: lambda _: "; read the run with cursor_get_run instead.",
    Step.RESTART_LISTING: lambda _: "; call again without cursor to restart from the first page.",
    Step.FREE_A_SLOT: lambda _: (
        " Archive idle agents (cursor_archive_agent) or wait for a running one to end (cursor_wait)."
    ),
    Step.ARCHIVE_IDLE: lambda _: " The user can archive idle agents (cursor_archive_agent).",
    Step.WAIT_OR_ARCHIVE: lambda a: (
        " Wait for a running agent to end (cursor_wait)."
        + (
            f" Oldest idle agents the user may archive (cursor_archive_agent): {a.fact('idle')}."
            if a.fact("idle")
            else ""
        )
    ),
    Step.READ_BEFORE_RESENDING: lambda _: (
        ": read the agent with cursor_get_agent using the id below (or cursor_list_agents with its name) to find out."
    ),
    Step.READ_AGENT: lambda _: " Read it with cursor_get_agent.",
    Step.READ_AGENTS: lambda _: " Or read each agent_id with cursor_get_agent.",
    Step.READ_AGENT_LATER: lambda a: (
        f" Cursor has taken agent_id {a.fact('agent_id')} and is still creating it: read it with cursor_get_agent "
        "in a minute (asking for the same creation again is safe: it re-sends this id)."
    ),
    Step.FIND_BY_NAME_LATER: lambda a: (
        f" Look for it with cursor_list_agents(name={a.fact('name')!r}); if it is not there after "
        f"{a.fact('until')}, asking again creates it."
    ),
    Step.FIND_BY_NAME: lambda _: ": read them with cursor_list_agents(name=...) before creating again.",
    Step.FOLLOW_UP_LATER: lambda a: (
        f" Read the agent with cursor_get_agent in a minute; if no new run is there after {a.fact('until')}, "
        "asking again sends it."
    ),
    Step.DROP_QUEUED: lambda _: " Drop it first (cursor_supervise drop_queued) or wait until it is sent.",
    Step.UNARCHIVE: lambda _: ": unarchive it first (cursor_archive_agent with unarchive=true).",
}


def for_model(failure: ToolFailure) -> str:
    """The failure's message with its next step in the MCP face's words."""
    advice = failure.advice
    if advice is None:
        return failure.message
    if advice.step is Step.ALLOW_UNASKED:
        return _unasked(advice)  # the whole sentence: the setting comes first in the MCP face's words
    return failure.message + _AFTER[advice.step](advice)
