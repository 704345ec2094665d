"""Issue 21, spend: a charge that is negative, not a number or absent is unknown, never a credit.

CURSOR_MCP_MAX_SPEND_CENTS adds up what the agents created in the window were charged. A usage answer
whose charge cannot be a charge must neither lower the total below the limit (a negative one) nor make
the check fail or pass on a value it does not hold (a string, `true`, a number past a float's range):
each such agent is counted as unknown, and the answer says how many. Refusals send nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core.timing import USAGE_SECONDS
from cursor_cloud_agents.simulator import Fault, ManualClock, RunScript, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

ENDED_AND_COSTED = 32.0 + 30.0 + USAGE_SECONDS
"""A run ends (2 s creating, 30 s running), its cost arrives 30 s later, and the kept usage read expires."""


def posts(h: Harness) -> int:
    return len([record for record in h.requests("POST") if record.path == "/v1/agents"])


async def create(h: Harness, prompt: str) -> str:
    reply = await h.call("cursor_create_agent", {"prompt": prompt})
    assert not reply.is_error, reply.data
    return reply.data["agent_id"]


def usage_answers(h: Harness, agent_id: str, cost: str) -> None:
    """Every usage read of `agent_id` answers this `cost` object (raw JSON, as Cursor might send it)."""
    body = '{"totalUsage":{"totalTokens":0},"cost":' + cost + ',"runs":[]}'
    h.sim.faults.inject("GET", f"/v1/agents/{agent_id}/usage", Fault.raw(200, body), times=None)


async def test_a_negative_charge_is_unknown_and_never_lowers_the_spend_below_the_limit(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-33: one agent charged 25 cents and one "charged" -100: the total is 25, not -75, and the unknown one is
    held at the estimate (the known average, 25), so at a limit of 45 the next creation answers LIMIT_REACHED,
    saying one agent's cost is unknown; nothing is sent."""
    world = World(ManualClock())
    world.queue_script(RunScript(cost_cents=(0.0, -100.0)))
    world.queue_script(RunScript(cost_cents=(25.0, 25.0)))
    async with harness_factory(world, state_dir=tmp_path, max_spend_cents=45) as h:
        await create(h, "Credited")
        await create(h, "Charged")
        h.clock.advance(ENDED_AND_COSTED)
        refused = await h.call("cursor_create_agent", {"prompt": "One too many"})
        account = await h.call("cursor_get_account")
        sent = posts(h)
    assert refused.code == "LIMIT_REACHED", refused.data
    assert refused.data["spent_cents"] == 25 and refused.data["agents_without_cost"] == 1
    assert "(1 more have no known cost yet)" in refused.data["message"]
    assert account.data["limits"][2]["used"] == 25 and account.data["limits"][2]["unknown"] == 1
    assert sent == 2


async def test_absent_and_non_number_charges_are_unknown_and_the_answer_counts_them(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-34: agents whose usage carries no charge, a charge as a string, as `true`, or past a float's range are
    each unknown: the spend is the one real charge (5 cents), the account says 4 unknown, and a creation under
    the limit of 110 (5 cents, and 4 runs at the known average of 5) is sent (the overflowing number read as a
    number would refuse it, the string "12" would make the spend 17)."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=110) as h:
        odd = [await create(h, f"Task {index}") for index in range(4)]
        known = await create(h, "Known")
        odd_costs = ('{"rawCostCents":3.0}', '{"chargedCents":"12"}', '{"chargedCents":true}', '{"chargedCents":1e400}')
        for agent_id, cost in zip(odd, odd_costs, strict=True):
            usage_answers(h, agent_id, cost)
        usage_answers(h, known, '{"chargedCents":5.0}')
        h.clock.advance(ENDED_AND_COSTED)
        account = await h.call("cursor_get_account")
        created = await h.call("cursor_create_agent", {"prompt": "Under the limit"})
        sent = posts(h)
    spend = account.data["limits"][2]
    assert spend["used"] == 5 and spend["unknown"] == 4, spend
    assert not created.is_error, created.data
    assert sent == 6


async def test_a_cost_that_is_not_an_object_is_unknown_not_a_failed_check(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-35: a usage answer whose `cost` is a bare number cannot be read as a charge: the agent is unknown, and
    the spend check still answers (the usage answer was refused whole before, so every creation failed)."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=30) as h:
        agent_id = await create(h, "Task")
        usage_answers(h, agent_id, "42")
        h.clock.advance(ENDED_AND_COSTED)
        account = await h.call("cursor_get_account")
        created = await h.call("cursor_create_agent", {"prompt": "Next"})
    assert account.data["limits"][2]["used"] == 0 and account.data["limits"][2]["unknown"] == 1
    assert not created.is_error, created.data
