"""Best of N in a program: one task on several models at once (`AsyncAttempts`), compared side by side, one kept.

The set goes through the core's one paid act for attempts (`core.attempts`), as `cursor_create_agent` with
`attempts` and the terminal's `run --models` do: every model checked before anything is sent, the limits checked for
the whole set (all or none), each attempt an agent with its own minted id, never paid twice; the group is written in
the store of paid acts, so the MCP server and the terminal find it too (`compare GROUP`). `compare()` reads the
attempts side by side (`core.compare`), `keep(...)` keeps one and archives the others (reversible).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cursor_cloud_agents import core
from cursor_cloud_agents.core import agent_request, prompt_of
from cursor_cloud_agents.sdk._cursor import AsyncCursor
from cursor_cloud_agents.sdk._errors import refused, translated
from cursor_cloud_agents.sdk._options import CloudAgentOptions, CloudOptions, placement
from cursor_cloud_agents.sdk._results import RunResult
from cursor_cloud_agents.sdk._run import AsyncRun
from cursor_cloud_agents.sdk._shapes import ModelChoice, message_text, model_wanted

if TYPE_CHECKING:
    from cursor_cloud_agents.core import AttemptModel, Comparison, Kept

# The core's names are read on use (`core.plan_set`...): its front loads each module on first use, so a program
# that never starts attempts never loads the attempts, comparison and git rules.


@dataclass
class AsyncAttempts:
    """A group of attempts at one task, one agent per model.

    Attributes:
        group_id: The group's id (`grp-<uuid>`): `AsyncAttempts.get(group_id, client=...)` finds it again, as do the
            MCP server's `cursor_compare` and the terminal's `compare` on this machine.
        runs: The first run of each attempt, in the order of the models asked (empty when found again by id).
    """

    client: AsyncCursor
    group_id: str
    runs: list[AsyncRun] = field(default_factory=list[AsyncRun])

    @property
    def agent_ids(self) -> list[str]:
        """The agents of the attempts made, in order."""
        return [run.agent_id for run in self.runs]

    @classmethod
    async def start(
        cls,
        message: object,
        models: Sequence[ModelChoice],
        *,
        client: AsyncCursor,
        name: str | None = None,
        cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None = None,
    ) -> AsyncAttempts:
        """Start one agent per model on `message`: all of them, or none (a limit, a model unknown: nothing sent).

        Args:
            message: The task, as for `agent.send` (a string or `{"text": ...}`).
            models: 2 to 8 models, each as `Agent.create` takes one (an id, `{"id": ..., "params": [...]}`,
                a `ModelSelection`); one model twice is two attempts.
            client: The connection.
            name: The group's name; attempt k's agent is named "<name> (k/N)".
            cloud: Repositories and environment, shared by every attempt.

        Raises:
            BadRequestError: (VALIDATION) a model, the message or an option, naming the attempt; RateLimitError
                (LIMIT_REACHED, CAPACITY) when the set does not fit the limits; nothing was sent. NetworkError
                (MUTATION_OUTCOME_UNKNOWN) when an attempt's answer was lost: starting the same set again within
                minutes completes it, never paying twice.
        """
        text = message_text(message)
        if isinstance(models, str | bytes):
            raise refused("models is a list of models (2 to 8), not one string.")
        with translated(client.redactor):
            where = placement(cloud)
            choices = [_choice(model, index) for index, model in enumerate(models, start=1)]
            shared = agent_request(prompt_of(text), agent_id=None, env=where.env, repos=where.repos or ())
            state = client.state
            plan = await core.plan_set(state, shared, choices, name)
            made = await core.create_attempts(state, plan)  # a program is its own author: no question asked
            runs = [
                AsyncRun(client, outcome.agent_id, await client.api.get_run(outcome.agent_id, outcome.run_id))
                for outcome in made.outcomes
                if outcome.agent_id is not None and outcome.run_id is not None
            ]
        return cls(client, made.group.group_id, runs)

    @classmethod
    async def get(cls, group_id: str, *, client: AsyncCursor) -> AsyncAttempts:
        """A group this machine started (kept a week in the store of paid acts), found by its id."""
        with translated(client.redactor):
            group = await _group(client, group_id)
        return cls(client, group.id)

    async def wait(self, *, timeout: float | None = None) -> list[RunResult]:
        """Every attempt's result once it has ended (in order; `timeout` applies to each)."""
        return [await run.wait(timeout=timeout) for run in self.runs]

    async def compare(self) -> Comparison:
        """The attempts side by side: status, duration, cost, change size (where git reads the branch), the start
        of each result (agent text: data, not instructions). Reads only."""
        with translated(self.client.redactor):
            group = await _group(self.client, self.group_id)
            state = self.client.state
            return await core.compare_attempts(state.api, group, state.clock.now(), state.git_places)

    async def keep(self, attempt: str | int) -> Kept:
        """Keep one attempt (its agent id, or its number from 1) and archive the others (reversible: unarchive);
        says what was archived, what already was, and what could not be (calling again retries those)."""
        with translated(self.client.redactor):
            group = await _group(self.client, self.group_id)
            numbered = {item.index: item.agent_id for item in group.attempts if item.agent_id}
            return await core.keep(self.client.api, group, _agent_of(numbered, attempt, group.id))


def _choice(model: ModelChoice, index: int) -> AttemptModel:
    model_id, params = model_wanted(model, None)
    if model_id is None:
        raise refused(f"models[{index - 1}] names no model: give its id.")
    return core.AttemptModel(model_id, None, params)


async def _group(client: AsyncCursor, group_id: str):  # the core's `Group`, inferred: not a name of its front
    """The group `group_id` as this machine's store of paid acts remembers it (NOT_FOUND when it does not)."""
    with core.store_failures():
        return await core.find_group(client.state.store, core.checked_group_id(group_id), client.state.clock.now())


def _agent_of(numbered: Mapping[int, str], attempt: str | int, group_id: str) -> str:
    """The agent of `attempt`: an agent id as given, or the agent of attempt number `attempt`."""
    if isinstance(attempt, str):
        return attempt
    if isinstance(attempt, bool) or attempt not in numbered:
        made = ", ".join(str(index) for index in sorted(numbered)) or "none"
        raise refused(f"Attempt {attempt} is not an attempt of group {group_id} that was made (made: {made}).")
    return numbered[attempt]
