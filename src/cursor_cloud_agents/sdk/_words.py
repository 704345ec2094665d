"""The core's next steps in the SDK's words: a method or an argument, for the program (`core/advice.py`).

The MCP face names tools (`server/pipeline/words.py`), the terminal commands (`terminal/words.py`); here the
same steps name the SDK's own calls (`run.wait()`, `Agent.get(...)`, `Cursor(api_key=...)`). This is the one SDK
module that words a failure's next step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cursor_cloud_agents.core import Advice, Step, ToolFailure

_AFTER: Mapping[Step, Callable[[Advice], str]] = {
    Step.WAIT_OR_REPLACE: lambda _: " Wait for the run (`run.wait()`), or cancel it (`run.cancel()`) and send again.",
    Step.WAIT_THEN_ASK_AGAIN: lambda a: (
        f" Wait for run {a.fact('run_id')} to end (`run.wait()`), then ask for the changes again."
    ),
    Step.LIST_MODELS: lambda _: " `cursor.models()` lists the ids and aliases.",
    Step.SET_KEY: lambda _: ": pass `api_key=` to `Cursor(...)`, or set CURSOR_API_KEY in the program's environment",
    Step.GIVE_KEY: lambda _: " Pass `api_key=` to `Cursor(...)`, or set CURSOR_API_KEY in the program's environment.",
    Step.CHECK_KEY: lambda _: ": check the key passed as `api_key=` (or CURSOR_API_KEY).",
    Step.CHECK_ACCOUNT: lambda _: (
        ": use a user API key (`api_key=`), check `team_id=` (or CURSOR_TEAM_ID), or ask a team admin."
    ),
    Step.LIST_IDS: lambda _: "; `Agent.list()` and `agent.list_runs()` list valid ids.",
    Step.READ_RUN: lambda _: "; read the run with `run.wait()` instead.",
    Step.RESTART_LISTING: lambda _: "; call again without `cursor=` to restart from the first page.",
    Step.FREE_A_SLOT: lambda _: " Archive idle agents (`Agent.archive(id)`) or wait for a running one (`run.wait()`).",
    Step.ARCHIVE_IDLE: lambda _: " Archive idle agents (`Agent.archive(agent_id)`).",
    Step.WAIT_OR_ARCHIVE: lambda a: (
        " Wait for a running agent to end (`run.wait()`)."
        + (f" Oldest idle agents you may archive (`Agent.archive(...)`): {a.fact('idle')}." if a.fact("idle") else "")
    ),
    Step.READ_BEFORE_RESENDING: lambda _: (
        ": read the agent with `Agent.get(agent_id)` using the id in this error's context to find out."
    ),
    Step.READ_AGENT: lambda a: f" Read it with `Agent.get({a.fact('agent_id')!r})`.",
    Step.READ_AGENTS: lambda _: " Or read each agent with `Agent.get(agent_id)`.",
    Step.READ_AGENT_LATER: lambda a: (
        f" Cursor is still creating agent {a.fact('agent_id')}: read it with `Agent.get(...)` in a minute (sending "
        "the same creation again is safe: it re-sends this id)."
    ),
    Step.FIND_BY_NAME_LATER: lambda a: (
        f" Look for it by name ({a.fact('name')!r}) in `Agent.list()`; if it is not there after {a.fact('until')}, "
        "sending again creates it."
    ),
    Step.FIND_BY_NAME: lambda _: ": read them with `Agent.list()` before creating again.",
    Step.FOLLOW_UP_LATER: lambda a: (
        f" Read the agent with `Agent.get(...)` in a minute; if no new run is there after {a.fact('until')}, "
        "sending again sends it."
    ),
    Step.DROP_QUEUED: lambda _: " Wait until it is sent, right after the agent's run ends.",
    Step.UNARCHIVE: lambda a: f": unarchive it first (`Agent.unarchive({a.fact('agent_id')!r})`).",
    Step.ALLOW_UNASKED: lambda _: " A program's call is its own consent: the SDK never asks.",
}


def for_program(failure: ToolFailure) -> str:
    """The failure's message with its next step in the SDK's words."""
    advice = failure.advice
    return failure.message if advice is None else failure.message + _AFTER[advice.step](advice)
