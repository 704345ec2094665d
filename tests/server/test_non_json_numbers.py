"""`NaN` and `Infinity` in an API answer (Python's parser accepts them; JSON has no such numbers) read as absent.

docs/api-contract.md: costs are eventually consistent and may be missing; a missing cost counts as unknown. A `NaN` kept
as a number would pass every comparison with the spend limit, and our answer's text would no longer be JSON.
"""

from __future__ import annotations

import json

import pytest

from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

USAGE = '{"totalUsage":{"totalTokens":10},"cost":{"rawCostCents":Infinity,"chargedCents":NaN},"runs":[]}'


def strict(text: str) -> object:
    def refuse(constant: str) -> object:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


async def test_a_cost_of_nan_reads_as_unknown_and_the_answer_stays_json(harness_factory: OpenHarness) -> None:
    world = World(ManualClock())
    agent = world.add_agent("Costly", created_ago=3600.0)
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/usage", Fault.raw(200, USAGE))
    async with harness_factory(world, faults=faults) as h:
        reply = await h.call("cursor_get_usage", {"agent_id": agent.id})
    assert not reply.is_error, reply.data
    assert strict(json.dumps(reply.data)) == reply.data
    assert "charged_cents" not in reply.data["total"] and "raw_cents" not in reply.data["total"]
