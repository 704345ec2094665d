"""Answers about a group of attempts: the set created, the attempts compared side by side, one kept."""

from __future__ import annotations

from cursor_cloud_agents.core.attempts import SetResult
from cursor_cloud_agents.server.hints import suggest
from cursor_cloud_agents.server.views.agents import WEB_URL
from cursor_cloud_agents.server.views.view import View

COMPARE_WHEN_DONE = (
    suggest("cursor_wait", group_id="<group_id>", until="all")
    + ", then "
    + suggest("cursor_compare", "group_id")
    + "; keep the best with "
    + suggest("cursor_keep", "group_id", "agent_id")
)


class AttemptMade(View):
    """One attempt of a set just created."""

    attempt: int
    model: str | None
    agent_id: str | None
    run_id: str | None
    url: str | None
    resumed: bool | None


class AttemptsView(View):
    """The answer of a set of attempts: the group id and each attempt's ids."""

    group_id: str
    name: str | None
    attempts: list[AttemptMade]
    next: str = COMPARE_WHEN_DONE

    @classmethod
    def of(cls, result: SetResult) -> AttemptsView:
        rows = [
            AttemptMade(
                attempt=outcome.index,
                model=outcome.model,
                agent_id=outcome.agent_id,
                run_id=outcome.run_id,
                url=outcome.url or (WEB_URL + outcome.agent_id if outcome.agent_id else None),
                resumed=outcome.resumed or None,
            )
            for outcome in result.outcomes
        ]
        return cls(group_id=result.group.group_id, name=result.group.name, attempts=rows)
