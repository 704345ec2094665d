"""Issue 46, the limits count what is not reported yet (core/spend/spending.py): a burst is refused at the limit.

Cursor reports a run's cost minutes after it ends; until then each paid run of this machine counts at its
estimate, the price the preview shows (the known average, else 25 cents). Every refusal is proven by the
simulator's request log: no POST left.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.api import Usage
from cursor_cloud_agents.core.acts import Act, Reading
from cursor_cloud_agents.core.spend.spending import UNREPORTED_RUN_CENTS, paid_runs, tally
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

EIGHT = ["gpt-5.2"] * 8


def posts(h: Harness) -> int:
    return len([record for record in h.requests("POST") if record.path.endswith("/agents")])


async def test_creations_one_after_another_are_refused_once_their_estimates_reach_the_limit_k_30(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """K-30 (issue 46 acceptance): spend limit 100 cents, no cost reported yet: four creations go out (each held
    at 25 cents), the fifth answers LIMIT_REACHED saying why, and no POST leaves for it, not after 25."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=100) as h:
        replies = [await h.call("cursor_create_agent", {"prompt": f"Task {index}"}) for index in range(6)]
        sent = posts(h)
    assert [reply.is_error for reply in replies] == [False] * 4 + [True] * 2
    refused = replies[4]
    assert refused.code == "LIMIT_REACHED", refused.data
    assert refused.data["unreported_runs"] == 4 and refused.data["estimate_cents"] == UNREPORTED_RUN_CENTS
    assert "not reported yet" in refused.data["message"] and "estimate" in refused.data["message"]
    assert sent == 4


async def test_eight_attempts_are_checked_whole_before_the_first_post_k_31(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """K-31: `--models` with eight (cursor_create_agent with eight attempts) under a spend limit of 100 with
    nothing spent: eight runs at 25 cents would pass it, so the whole set is refused before any POST."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=100) as h:
        eight = await h.call("cursor_create_agent", {"prompt": "Try all", "attempts": [{"model_id": m} for m in EIGHT]})
        none_sent = posts(h)
        two = await h.call("cursor_create_agent", {"prompt": "Try", "attempts": [{"model_id": m} for m in EIGHT[:2]]})
        sent = posts(h)
    assert eight.code == "LIMIT_REACHED" and eight.data["asked"] == 8, eight.data
    assert none_sent == 0
    assert not two.is_error, two.data
    assert sent == 2


def test_a_follow_up_not_reported_yet_counts_at_the_estimate_and_its_cost_replaces_it_k_32() -> None:
    """K-32: an agent created in the window charged 30 cents, then followed up: its new run is not in the usage yet,
    so it counts at the estimate (30, the known average); once listed with 12 cents, it counts 12. A follow-up of an
    agent created before the window counts its own run only."""
    now = 100_000.0
    reading = Reading()
    for act in (
        Act("c", "create", now - 10, "done", counted=True, agent_id="bc-new", run_id="run-1"),
        Act("f", "followup", now - 5, "done", agent_id="bc-new", run_id="run-2"),
        Act("g", "followup", now - 5, "done", agent_id="bc-old", run_id="run-9"),
        Act("x", "followup", now - 5, "failed", agent_id="bc-old"),
    ):
        reading.acts[act.id] = act
    paid = paid_runs(reading, now)
    earlier = Usage.model_validate(
        {"cost": {"chargedCents": 30.0}, "runs": [{"id": "run-1", "cost": {"chargedCents": 30.0}}]}
    )
    later = Usage.model_validate(
        {
            "cost": {"chargedCents": 42.0},
            "runs": [{"id": "run-1", "cost": {"chargedCents": 30.0}}, {"id": "run-2", "cost": {"chargedCents": 12.0}}],
        }
    )
    old = Usage.model_validate(
        {"cost": {"chargedCents": 500.0}, "runs": [{"id": "run-9", "cost": {"chargedCents": 7.0}}]}
    )
    before = tally(paid, {"bc-new": earlier, "bc-old": old})
    after = tally(paid, {"bc-new": later, "bc-old": old})
    assert (before.cents, before.unreported, before.counted) == (37.0, 1, 67.0)
    assert (after.cents, after.unreported, after.counted) == (49.0, 0, 49.0)


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("cents", "unreported", "runs", "refused"),
    [
        (75.0, 0, 1, False),  # 75 counted: one more may go (the limit is reached by sending, then refuses)
        (100.0, 0, 1, True),  # at the limit exactly: refused
        (50.0, 1, 1, False),  # 50 + one unreported at 25 = 75
        (50.0, 2, 1, True),  # 50 + two unreported at 25 = 100: refused
        (25.0, 0, 4, True),  # a set of 4: 25 + 3 more at 25 = 100 before its last: refused whole
        (25.0, 0, 3, False),  # a set of 3: 25 + 2 more at 25 = 75
    ],
)
async def test_the_spend_limit_refuses_at_the_limit_counting_estimates_and_a_set_whole_k_30(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cents: float, unreported: int, runs: int, refused: bool
) -> None:
    """K-30 at its edges (limit 100 cents, estimate 25): a call is refused once what is counted (reported charges,
    each unreported run at its estimate, and the runs of the same set sent before it) reaches the limit, not
    one run after; under it, it goes."""
    from cursor_cloud_agents.config import Settings
    from cursor_cloud_agents.core.failures import ToolFailure
    from cursor_cloud_agents.core.spend.limits import Limits
    from cursor_cloud_agents.core.spend.spending import Spend
    from cursor_cloud_agents.core.store import Store
    from cursor_cloud_agents.core.timing import Clock

    limits = Limits(Settings(max_spend_cents=100), Store(tmp_path), Clock())

    async def spend(_api: object) -> Spend:
        return Spend(cents=cents, unknown=unreported, unreported=unreported, estimate_cents=25.0)

    monkeypatch.setattr(limits, "spend", spend)
    if refused:
        with pytest.raises(ToolFailure) as failure:
            await limits.before_spending(None, runs)  # pyright: ignore[reportArgumentType]  # the API is not read
        assert failure.value.code == "LIMIT_REACHED"
    else:
        await limits.before_spending(None, runs)  # pyright: ignore[reportArgumentType]
