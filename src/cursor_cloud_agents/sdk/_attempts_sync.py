"""`Attempts`: the synchronous twin of `AsyncAttempts` (best of N: one task on several models, compared, one kept)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from cursor_cloud_agents.sdk._attempts import AsyncAttempts
from cursor_cloud_agents.sdk._options import CloudAgentOptions, CloudOptions
from cursor_cloud_agents.sdk._results import RunResult
from cursor_cloud_agents.sdk._shapes import ModelChoice
from cursor_cloud_agents.sdk._sync import Cursor, Run, connection_for

if TYPE_CHECKING:
    from cursor_cloud_agents.core import Comparison, Kept


class Attempts:
    """A group of attempts at one task, one agent per model (see `AsyncAttempts`).

    group = Attempts.start("Fix the flaky test", ["composer-2", "gpt-5"], client=cursor)
    group.wait()
    for row in group.compare().rows:
        print(row.attempt, row.model, row.status, row.cost_cents, row.change)
    group.keep(1)  # the first attempt kept, the others archived
    """

    def __init__(self, cursor: Cursor, attempts: AsyncAttempts) -> None:
        self._cursor = cursor
        self.aio = attempts
        """The async twin (on the cursor's loop)."""

    def __repr__(self) -> str:
        return f"Attempts({self.group_id}, {len(self.runs)} runs)"

    @property
    def group_id(self) -> str:
        """The group's id (`grp-<uuid>`)."""
        return self.aio.group_id

    @property
    def runs(self) -> list[Run]:
        """The first run of each attempt, in the order of the models asked (empty when found again by id)."""
        return [Run(self._cursor, run) for run in self.aio.runs]

    @property
    def agent_ids(self) -> list[str]:
        """The agents of the attempts made, in order."""
        return self.aio.agent_ids

    @classmethod
    def start(
        cls,
        message: object,
        models: Sequence[ModelChoice],
        *,
        client: Cursor | None = None,
        name: str | None = None,
        cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None = None,
    ) -> Attempts:
        """Start one agent per model on `message`, all or none (the arguments: `AsyncAttempts.start`)."""
        cursor = connection_for(client)
        started = AsyncAttempts.start(message, models, client=cursor.aio, name=name, cloud=cloud)
        return cls(cursor, cursor.loop.call(started))

    @classmethod
    def get(cls, group_id: str, *, client: Cursor | None = None) -> Attempts:
        """A group this machine started, found by its id."""
        cursor = connection_for(client)
        return cls(cursor, cursor.loop.call(AsyncAttempts.get(group_id, client=cursor.aio)))

    def wait(self, *, timeout: float | None = None) -> list[RunResult]:
        """Every attempt's result once it has ended, in order."""
        return self._cursor.loop.call(self.aio.wait(timeout=timeout))

    def compare(self) -> Comparison:
        """The attempts side by side (reads only)."""
        return self._cursor.loop.call(self.aio.compare())

    def keep(self, attempt: str | int) -> Kept:
        """Keep one attempt (its agent id, or its number from 1) and archive the others (reversible)."""
        return self._cursor.loop.call(self.aio.keep(attempt))
