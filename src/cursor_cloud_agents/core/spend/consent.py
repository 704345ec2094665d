"""The questions put to the person before something irreversible or paid, and when they are asked.

Which acts are put to the person, through the call the face hands in (`core/call.py`), is the user's
setting `CURSOR_MCP_ASK`: a delete by default (it is permanent); a cancel, a `replace_active` cancel and
each paid creation when the user lists them (`none`: nothing, for unattended use). A headless client
(`claude -p`, `codex exec`) declares elicitation yet answers every question itself, at once, without
showing it: so a refusal says what the client answered and how the user can allow the act, never that a
person decided (docs/clients.md; the MCP face words it, `server/pipeline/declined.py`). Each question names its
object plainly: the agent's name is cleaned and clipped, since it is text a model or an agent chose,
and the person must be able to trust what the question says. A question's words must not change
between the rounds of a 2026-07-28 client, so nothing in them depends on the moment (ages are whole
hours).
"""

from __future__ import annotations

from cursor_cloud_agents.api import Agent, Run
from cursor_cloud_agents.api.times import epoch
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.advice import Step, advice
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


def attempts(prompt: str, repositories: list[str], models: list[str], use: str) -> Question:
    """Start several paid agents on one task, one per model? (One question for the whole set.)"""
    first_line = next((line for line in prompt.splitlines() if line.strip()), "")
    where = ", ".join(repositories) if repositories else "no repository"
    return Question(
        "confirm_create",
        f"Start {len(models)} paid Cursor Cloud Agents on the same task, to compare their results? "
        f"Prompt: \u201c{_short(first_line, PROMPT_CHARS)}\u201d. On: {_short(where, 200)}. "
        f"Models: {_short(', '.join(models), 300)}. Limits: {use}.",
    )


def follow_up(agent: Agent, prompt: str, use: str) -> Question:
    """Send a paid follow-up run?"""
    first_line = next((line for line in prompt.splitlines() if line.strip()), "")
    return Question(
        "confirm_followup",
        f"Send a paid follow-up run to the Cursor agent {_named(agent)}? "
        f"Prompt: \u201c{_short(first_line, PROMPT_CHARS)}\u201d. Limits: {use}.",
    )


PAID_ACTS = frozenset({"create", "followup"})
"""The paid acts a face may put to the person: a creation (one agent or a set) and a follow-up run."""

AFTER_REMOVAL = {
    "delete": " (a delete then needs confirm_agent_id equal to agent_id)",
    "create": " (and CURSOR_MCP_CONFIRM_CREATES unset)",
}


def how_to_allow(act: str, client_way: str) -> str:
    """The two ways the user can let `act` go on when its question is not answered yes: the setting, or
    `client_way`, how the face knows the client can be made to answer (Claude Code's hook)."""
    return (
        f"the user can take `{act}` out of CURSOR_MCP_ASK in this server's environment"
        f"{AFTER_REMOVAL.get(act, '')}, or, {client_way}"
    )


def will_ask(call: Call, act: str, acts: frozenset[str]) -> bool:
    """Whether `act` will be put to the person: the user's CURSOR_MCP_ASK (`acts`) lists it and the call can ask."""
    return act in acts and call.can_ask


async def ask_before(call: Call, question: Question, unsent: str, acts: frozenset[str]) -> None:
    """Go on only on the person's yes, when the user's CURSOR_MCP_ASK (`acts`) lists the question's act.

    A call that cannot ask (a client that declared no MCP elicitation): a delete keeps the `confirm_agent_id` rule
    (the toolkit's gate checked it), and any other act listed is refused, since the user demanded a yes for it."""
    act = question.act
    if act not in acts:
        return
    if not call.can_ask:
        if act == "delete":
            return
        raise cannot_ask(act, unsent)
    await call.confirm(question, unsent)


def cannot_ask(act: str, unsent: str) -> ToolFailure:
    """DECLINED: the user's settings want a yes for `act`, and nobody can be asked (each face says how to allow it)."""
    return ToolFailure(
        failures.DECLINED,
        f"This needs the user's yes ({act}), and nobody can be asked here: {unsent}.",
        advice=advice(Step.ALLOW_UNASKED, act=act, unsent=unsent),
        consent="unanswered",
    )


def refuse_unanswerable(call: Call | None, act: str, unsent: str, acts: frozenset[str]) -> None:
    """DECLINED before any request when `act` needs the person's yes and this call cannot ask: a refusal that
    costs nothing, not even a read."""
    if act in acts and act != "delete" and (call is None or not call.can_ask):
        raise cannot_ask(act, unsent)
