"""`models`: the model ids `run --model` and `run --models A,B,C` take, with their aliases, so that no one guesses.

The list is the API's (`GET /v1/models`), read through the core's own model list (`core.models.models_of`) as
the model check of `run` reads it; one id per line first, so that `models | head -3` gives ids a script can use.
"""

from __future__ import annotations

from rich.text import Text

from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.terminal.clean import agent_text
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.paid import command_state
from cursor_cloud_agents.terminal.term import Term


async def models(term: Term) -> int:
    """List the model ids (their aliases and description beside), or one JSON document."""
    async with term.open_session() as session:
        state = command_state(term, session)
        listed = await model_check.models_of(session.api, state.models)
    if term.json:
        term.emit({"models": [{"id": m.id, "aliases": m.aliases or [], "description": m.description} for m in listed]})
        return OK
    for model in listed:
        line = agent_text(model.id, "bold")
        if model.aliases:
            line.append_text(Text("  also: ", style="dim")).append_text(agent_text(", ".join(model.aliases), "dim"))
        if model.description:
            line.append_text(Text("  ")).append_text(agent_text(model.description, "dim"))
        term.out.print(line, soft_wrap=True)  # whole lines: an id is never cut
    if not listed:
        term.out.print("No model is listed for this key (run without --model uses the account's default).")
    return OK
