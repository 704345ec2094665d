"""What to do after a failure, in neutral terms: each face says it in its own words.

A failure of the core says what happened (`ToolFailure.message`: no tool, command or method named) and,
when there is something to do next, which step (`Advice`) with the facts that step needs (ids, a name, a
time). The faces render the step: the MCP server names a tool and its arguments for the model
(`server/views/words.py`), the terminal a command for the person (`terminal/words.py`), the SDK a method
or an argument for the program (`sdk/_words.py`). So the terminal never tells a person to call
`cursor_get_run`, and the SDK never says the key belongs in "the MCP server's environment".
`tests/test_words.py` feeds every code through every face and looks for another face's words.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Step(StrEnum):
    """A next step, named by what it achieves; every face renders each."""

    WAIT_OR_REPLACE = "wait_or_replace"
    """A run is active (`run_id`): wait for it, or cancel it and send again."""
    WAIT_THEN_ASK_AGAIN = "wait_then_ask_again"
    """The agent's change is not pushed while its run (`run_id`) works: wait for it, then ask for the change again."""
    LIST_MODELS = "list_models"
    """An unknown model: list the ids and aliases."""
    SET_KEY = "set_key"
    """The API key is missing or unusable (`problem`): give a real one where this face reads it."""
    GIVE_KEY = "give_key"
    """No API key reached the client: give one where this face reads it."""
    CHECK_KEY = "check_key"
    """Cursor refused the API key: check it where this face reads it."""
    CHECK_ACCOUNT = "check_account"
    """The key or team setting cannot do this: a user key, the team id, or a team admin."""
    LIST_IDS = "list_ids"
    """No such agent or run: list the valid ids."""
    READ_RUN = "read_run"
    """The stream is past its retention: read the run itself."""
    RESTART_LISTING = "restart_listing"
    """A list cursor expired: list again from the first page."""
    FREE_A_SLOT = "free_a_slot"
    """Too many agents at once: archive idle ones, or wait for a running one to end."""
    ARCHIVE_IDLE = "archive_idle"
    """The agents running cannot be counted: the user can archive idle agents."""
    WAIT_OR_ARCHIVE = "wait_or_archive"
    """The user's limit of agents running is reached: wait for one to end, or archive the oldest idle (`idle`)."""
    READ_BEFORE_RESENDING = "read_before_resending"
    """A write may or may not have happened: read the agent (by id, or by `name`) before sending again."""
    READ_AGENT = "read_agent"
    """The agent (`agent_id`) exists: read it."""
    READ_AGENTS = "read_agents"
    """A set of attempts was not all made: read each of its agents (their ids are in the failure)."""
    READ_AGENT_LATER = "read_agent_later"
    """Cursor is still creating `agent_id`: read it in a minute (asking again re-sends the same id)."""
    FIND_BY_NAME_LATER = "find_by_name_later"
    """An agent without an id may still be landing: look for `name`; after `until`, asking again creates it."""
    FIND_BY_NAME = "find_by_name"
    """Several agents bear `name`: read them before creating again."""
    FOLLOW_UP_LATER = "follow_up_later"
    """A follow-up may still be landing: read the agent in a minute; after `until`, asking again sends it."""
    DROP_QUEUED = "drop_queued"
    """A follow-up (`queue_id`) already waits for this agent: drop it, or wait until it is sent."""
    UNARCHIVE = "unarchive"
    """The agent is archived: unarchive it first."""
    ALLOW_UNASKED = "allow_unasked"
    """The act (`act`) needs the person's yes and nobody can be asked here; `unsent` says what was not done."""


@dataclass(frozen=True)
class Advice:
    """The step to take next, with the facts a face needs to say it (ids, a name, a time, an act)."""

    step: Step
    facts: Mapping[str, str] = field(default_factory=dict[str, str])

    def fact(self, key: str) -> str:
        """One fact, empty when the failure did not know it."""
        return self.facts.get(key, "")


def advice(step: Step, **facts: str | None) -> Advice:
    """`step` with the facts known (None ones left out)."""
    return Advice(step, {key: value for key, value in facts.items() if value is not None})
