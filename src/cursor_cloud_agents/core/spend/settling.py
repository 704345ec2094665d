"""Settling a paid act whose answer was lost, for a face that must answer with its outcome (the SDK).

The MCP server answers `MUTATION_OUTCOME_UNKNOWN` and lets the model ask again; a program's
`agent.send()` must return a run. So the act is asked again here, through the same core path, which
never pays twice: a creation re-sends the id it was written down with (the API refuses a second agent of
one id, and the agent it made is read), and a follow-up reads the agent's latest run before sending
anything (`core.followups`). While Cursor may still be making what the first POST asked for
(`CREATION_IN_FLIGHT`, `FOLLOWUP_IN_FLIGHT`), it waits and asks again; after API_CREATION_SECONDS the
last answer stands, whatever it is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from cursor_cloud_agents.api import MutationOutcomeUnknownError
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, SETTLE_SECONDS, Clock

T = TypeVar("T")

UNSETTLED = frozenset({failures.MUTATION_OUTCOME_UNKNOWN, failures.CREATION_IN_FLIGHT, failures.FOLLOWUP_IN_FLIGHT})
"""The answers that say the act may have been made and is not known yet."""


def unsettled(exc: BaseException) -> bool:
    """Whether `exc` says the paid act may have been made but is not known yet."""
    return isinstance(exc, MutationOutcomeUnknownError) or (isinstance(exc, ToolFailure) and exc.code in UNSETTLED)


async def settled(ask: Callable[[], Awaitable[T]], clock: Clock, *, within: float = API_CREATION_SECONDS) -> T:
    """What `ask()` answers once it is known: asked again every SETTLE_SECONDS while its outcome is unknown or
    still landing, for at most `within` seconds of the clock; then the last answer is raised as it was.

    `ask` must be the core's paid path for one act (`create_within_limits` with the same request,
    `follow_up_within_limits` on a fresh read of the agent): that is what makes asking again safe."""
    started = clock.now()
    while True:
        try:
            return await ask()
        except (MutationOutcomeUnknownError, ToolFailure) as exc:
            if not unsettled(exc) or clock.now() - started + SETTLE_SECONDS > within:
                raise
        await clock.sleep(SETTLE_SECONDS)
