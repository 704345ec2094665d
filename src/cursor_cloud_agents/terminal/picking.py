"""`keep GROUP ATTEMPT`: an attempt named as the person sees it in `compare`: its number (the `#` column), its
agent id, or an unambiguous prefix of the id (with or without `bc-`), so that no one has to copy a whole id."""

from __future__ import annotations

from collections.abc import Sequence

from cursor_cloud_agents.api import ids
from cursor_cloud_agents.terminal.exits import UsageError

MIN_PREFIX = 4
"""The shortest id prefix taken: shorter ones match by accident."""


def attempt_agent(given: str, attempts: Sequence[tuple[int, str | None]]) -> str:
    """The agent id of the attempt `given` names among `attempts` (number, agent id); a UsageError that lists what
    it could be when it names none or several."""
    text = given.strip().lower()
    made = [(number, agent_id) for number, agent_id in attempts if agent_id]
    if text.isdigit():
        found = [agent_id for number, agent_id in made if number == int(text)]
        if found:
            return found[0]
        raise UsageError(
            f"no attempt number {text} was made in this group; `compare GROUP` numbers them ({_listed(made)})"
        )
    try:
        return ids.agent_id(given)  # a whole id: `keep` says if it is not of the group
    except ValueError:
        pass
    prefix = text if text.startswith("bc-") else f"bc-{text}"
    if len(prefix) - len("bc-") < MIN_PREFIX:
        raise UsageError(
            f"{given!r} is too short to name an attempt: give its number or {MIN_PREFIX}+ characters of its id"
        )
    found = [agent_id for _, agent_id in made if agent_id.lower().startswith(prefix)]
    if len(found) == 1:
        return found[0]
    what = "names several attempts" if found else "names no attempt of this group"
    raise UsageError(f"{given!r} {what}: give its number or more of its id ({_listed(made)})")


def _listed(made: list[tuple[int, str]]) -> str:
    return ", ".join(f"{number}: {agent_id}" for number, agent_id in made) or "none was made"
