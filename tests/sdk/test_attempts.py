"""Best of N in a program (`sdk/_attempts.py`, `sdk/_attempts_sync.py`): through the core's one paid act for a set."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.sdk import AsyncAttempts, Attempts, BadRequestError, Code, Cursor, RateLimitError
from tests.sdk.rig import sdk_rig


def test_a_set_of_attempts_is_started_compared_and_one_kept_k_56() -> None:
    """K-56: `Attempts.start` starts one agent per model (a group), `compare()` reads them side by side, `keep(2)`
    keeps the second and archives the others (reversible); the group is found again by its id."""
    with Cursor(simulated=True) as cursor:
        models = [model.id for model in cursor.models()][:3]
        group = Attempts.start("Add a mul function", models, client=cursor, name="mul")
        assert group.group_id.startswith("grp-") and len(group.runs) == 3
        assert [result.status for result in group.wait()] == ["finished"] * 3
        rows = Attempts.get(group.group_id, client=cursor).compare().rows
        assert [(row.attempt, row.agent_id) for row in rows] == list(enumerate(group.agent_ids, start=1))
        kept = group.keep(2)
        assert kept.kept == group.agent_ids[1] and sorted(kept.archived) == sorted(group.agent_ids[::2])
        assert group.keep(group.agent_ids[1]).already_archived == kept.archived
        with pytest.raises(BadRequestError, match="Attempt 9 is not an attempt"):
            group.keep(9)


@pytest.mark.anyio
async def test_a_set_that_does_not_fit_the_limits_or_names_an_unknown_model_sends_nothing_k_56() -> None:
    """K-56: all or none: a set larger than the creations left, or with one unknown model, is refused before any
    POST (`RateLimitError` LIMIT_REACHED, `BadRequestError` naming the attempt)."""
    async with sdk_rig(CURSOR_MCP_MAX_NEW_AGENTS="2") as rig:
        models = [model.id for model in await rig.cursor.models()][:3]
        with pytest.raises(RateLimitError) as full:
            await AsyncAttempts.start("Add mul", models, client=rig.cursor)
        assert full.value.code == Code.LIMIT_REACHED
        with pytest.raises(
            BadRequestError, match=r"attempt 2 \(models, counted from 1\): Unknown model 'no-such-model'"
        ):
            await AsyncAttempts.start("Add mul", [models[0], "no-such-model"], client=rig.cursor)
        with pytest.raises(BadRequestError, match="models takes 2 to 8 models"):
            await AsyncAttempts.start("Add mul", [models[0]], client=rig.cursor)
        assert rig.posts("/v1/agents") == 0
