"""The core's next steps in the terminal's words: a command for the person (`core/advice.py`).

The MCP face names tools (`server/pipeline/words.py`); here the same steps name `cursor-cloud-agents`
commands and options, and where the key is read (the shell's environment).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from cursor_cloud_agents.core import Advice, Step, ToolFailure

ME = "cursor-cloud-agents"


def _agent(advice: Advice) -> str:
    return advice.fact("agent_id") or "AGENT"


_AFTER: Mapping[Step, Callable[[Advice], str]] = {
    Step.WAIT_OR_REPLACE: lambda _: (
        f" Wait for the run (`{ME} wait AGENT`), or cancel it (`{ME} cancel AGENT`) and send again; "
        "`followup --queue` sends it once the run ends."
    ),
    Step.WAIT_THEN_ASK_AGAIN: lambda a: (
        f" Wait for run {a.fact('run_id')} to end (`{ME} wait {_agent(a)}:{a.fact('run_id')}`), then run the command "
        "again."
    ),
    Step.LIST_MODELS: lambda _: (
        " Pass a model id or alias the account lists (`cursor-cloud-agents models` shows them), or leave --model "
        "out for the account's default."
    ),
    Step.SET_KEY: lambda _: (
        ": run `cursor-cloud-agents login` (it stores the key), or export CURSOR_API_KEY=... in this shell"
    ),
    Step.GIVE_KEY: lambda _: " Set CURSOR_API_KEY in this shell's environment (or try the command with --simulated).",
    Step.CHECK_KEY: lambda _: ": check CURSOR_API_KEY in this shell's environment.",
    Step.CHECK_ACCOUNT: lambda _: ": use a user API key (CURSOR_API_KEY), check CURSOR_TEAM_ID, or ask a team admin.",
    Step.LIST_IDS: lambda _: f"; `{ME} agents --all` lists the agents and their latest runs.",
    Step.READ_RUN: lambda a: f"; read the run's result with `{ME} wait {_agent(a)}` instead.",
    Step.RESTART_LISTING: lambda _: "; run the command again to start from the first page.",
    Step.FREE_A_SLOT: lambda _: f" Archive idle agents (`{ME} archive AGENT`) or wait for a running one (`{ME} wait`).",
    Step.ARCHIVE_IDLE: lambda _: f" Archive idle agents (`{ME} archive AGENT`).",
    Step.WAIT_OR_ARCHIVE: lambda a: (
        f" Wait for a running agent to end (`{ME} wait`)."
        + (f" Oldest idle agents you may archive (`{ME} archive AGENT`): {a.fact('idle')}." if a.fact("idle") else "")
    ),
    Step.READ_BEFORE_RESENDING: lambda _: (
        f": look for the agent with `{ME} agents --name NAME` (or `{ME} watch AGENT` with the id below) to find out."
    ),
    Step.READ_AGENT: lambda a: f" Follow it with `{ME} watch {_agent(a)}`.",
    Step.READ_AGENTS: lambda _: f" Or follow each agent with `{ME} watch AGENT`.",
    Step.READ_AGENT_LATER: lambda a: (
        f" Cursor is still creating agent {_agent(a)}: follow it with `{ME} watch {_agent(a)}` in a minute (running "
        "the same command again is safe: it re-sends this id)."
    ),
    Step.FIND_BY_NAME_LATER: lambda a: (
        f" Look for it with `{ME} agents --name {a.fact('name')!r}`; if it is not there after {a.fact('until')}, "
        "running the command again creates it."
    ),
    Step.FIND_BY_NAME: lambda _: f": read them with `{ME} agents --name NAME` before creating again.",
    Step.FOLLOW_UP_LATER: lambda a: (
        f" Follow the agent with `{ME} watch {_agent(a)}` in a minute; if no new run is there after "
        f"{a.fact('until')}, running the command again sends it."
    ),
    Step.DROP_QUEUED: lambda a: (
        f" Drop it first (`cursor-cloud-agents followup {a.fact('agent_id') or 'AGENT'} --drop`) or wait until it is "
        "sent, right after the agent's run ends."
    ),
    Step.UNARCHIVE: lambda _: ": unarchive it first (in Cursor's web app).",
    Step.ALLOW_UNASKED: lambda _: " There is no terminal to confirm on: pass --yes to confirm it.",
}


def for_person(failure: ToolFailure) -> str:
    """The failure's message with its next step in the terminal's words."""
    advice = failure.advice
    return failure.message if advice is None else failure.message + _AFTER[advice.step](advice)


def key_problem(problem: str) -> str:
    """A missing or unusable key, said at the terminal."""
    return problem + _AFTER[Step.SET_KEY](Advice(Step.SET_KEY))
