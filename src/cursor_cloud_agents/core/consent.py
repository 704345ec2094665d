"""The questions put to the person before something irreversible or paid, and when they are asked.

A delete, a cancel (direct, or to make room for a new prompt), and (when the user asked for it) every
paid creation are put to the person through the call the face hands in (`core/call.py`). Each question names its
object plainly: the agent's name is cleaned and clipped, since it is text a model or an agent chose,
and the person must be able to trust what the question says. A question's words must not change
between the rounds of a 2026-07-28 client, so nothing in them depends on the moment (ages are whole
hours).
"""

from __future__ import annotations

from cursor_cloud_agents.api import Agent, Run
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.call import Call, Question
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.untrusted import clean

NAME_CHARS = 60
PROMPT_CHARS = 120


def _short(text: str | None, chars: int) -> str:
    flat = " ".join(clean(text or "").split())
    return flat if len(flat) <= chars else flat[: chars - 1] + "…"


def _named(agent: Agent) -> str:
    return f"'{_short(agent.name, NAME_CHARS)}' ({agent.id})" if agent.name else agent.id


def _age(iso_time: str | None, now: float) -> str:
    created = epoch(iso_time)
    if created is None:
        return "of unknown age"
    hours = max(0, int((now - created) // 3600))
    return f"created {hours} h ago" if hours < 48 else f"created {hours // 24} days ago"


def deletion(agent: Agent, now: float) -> Question:
    """Delete this agent for good?"""
    prs = [repo.pr_url for repo in agent.repos or () if repo.pr_url]
    pr = f"it has a pull request: {', '.join(prs)}" if prs else "it has no pull request"
    return Question(
        "confirm_delete",
        f"Delete the Cursor agent {_named(agent)} permanently? It is {agent.status}, {_age(agent.created_at, now)}; "
        f"{pr}. Its conversation and results cannot be recovered (archiving is the reversible choice).",
    )


def replacement(agent: Agent, run: Run) -> Question:
    """Cancel the running run to send a new prompt?"""
    return Question(
        "confirm_replace",
        f"Cancel the running run {run.id} of the Cursor agent {_named(agent)}, so that a new prompt can be sent? "
        "The work of that run stops where it is.",
    )


def cancellation(agent: Agent, run: Run) -> Question:
    """Cancel the running run?"""
    return Question(
        "confirm_cancel",
        f"Cancel the {run.status} run {run.id} of the Cursor agent {_named(agent)}? The work of that run stops "
        "where it is and cannot be resumed (commits it pushed stay).",
    )


def creation(prompt: str, repositories: list[str], model: str | None, use: str) -> Question:
    """Start a paid agent?"""
    first_line = next((line for line in prompt.splitlines() if line.strip()), "")
    where = ", ".join(repositories) if repositories else "no repository"
    return Question(
        "confirm_create",
        f"Start a paid Cursor Cloud Agent? Prompt: \u201c{_short(first_line, PROMPT_CHARS)}\u201d. "
        f"On: {_short(where, 200)}. Model: {model or 'your default'}. Limits: {use}.",
    )


async def ask_if_possible(call: Call, question: Question, unsent: str) -> None:
    """Ask when the client can ask its user; a client that cannot keeps the rules it had (nothing asked)."""
    if call.can_ask:
        await call.confirm(question, unsent)


async def ask_required(call: Call, question: Question, unsent: str, variable: str) -> None:
    """Ask, and refuse when the client cannot ask: the user's setting demands a yes."""
    if not call.can_ask:
        raise ToolFailure(
            failures.DECLINED, f"{variable}=1 asks the user before this, and this client cannot ask (it declared "
            f"no MCP elicitation): {unsent}. The user can unset {variable} or use a client that can ask.",
        )  # fmt: skip
    await call.confirm(question, unsent)
