"""Issue 12, the limits a user sets on what a model may start: agents running at once and cents per 24 hours.

Every refusal is proven by the simulator's request log: no POST left (nothing paid).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.core.timing import SLOTS_SECONDS, USAGE_SECONDS
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, Quirks, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

RUN_SECONDS = 32.0
"""A simulated run: 2 s creating, 30 s running."""
COST_DELAY_SECONDS = 30.0
CHARGED_CENTS = 23.4


def posts(h: Harness) -> int:
    return len([record for record in h.requests("POST") if record.path == "/v1/agents"])


def usage_reads(h: Harness) -> int:
    return len([record for record in h.requests("GET") if record.path.endswith("/usage")])


def agent_reads(h: Harness) -> int:
    return len([record for record in h.requests("GET") if record.path == "/v1/agents"])


async def create(h: Harness, prompt: str) -> str:
    reply = await h.call("cursor_create_agent", {"prompt": prompt})
    assert not reply.is_error, reply.data
    return reply.data["agent_id"]


async def test_at_the_running_agents_limit_a_creation_answers_capacity_with_idle_agents_to_archive(
    harness_factory: OpenHarness,
) -> None:
    """D-05: CURSOR_MCP_MAX_ACTIVE_AGENTS counts the key's running agents; at the limit nothing is sent, and
    the answer lists the oldest idle agents (id, name, idle time) whose archiving may free a slot."""
    async with harness_factory(max_active_agents=2) as h:
        idle = await create(h, "Old task")
        h.clock.advance(RUN_SECONDS + 600)  # its run ended ten minutes ago: IDLE
        await create(h, "Task one")
        await create(h, "Task two")
        refused = await h.call("cursor_create_agent", {"prompt": "One too many"})
        sent = posts(h)
    assert refused.code == "CAPACITY"
    assert refused.data["active"] == 2 and refused.data["limit"] == 2
    assert refused.data["oldest_idle"][0]["agent_id"] == idle
    assert refused.data["oldest_idle"][0]["idle_minutes"] == 10
    assert "CURSOR_MCP_MAX_ACTIVE_AGENTS=2" in refused.data["message"]
    assert sent == 3


async def test_the_slot_check_adds_one_read_per_creation_and_is_kept_thirty_seconds(
    harness_factory: OpenHarness,
) -> None:
    """Acceptance: the check before a create adds at most one request; repeated refusals read once per 30 s."""
    async with harness_factory(max_active_agents=1) as h:
        await create(h, "Task one")
        after_one = agent_reads(h)
        await h.call("cursor_create_agent", {"prompt": "Refused"})
        await h.call("cursor_create_agent", {"prompt": "Refused again"})
        after_refusals = agent_reads(h)
        h.clock.advance(SLOTS_SECONDS)
        await h.call("cursor_create_agent", {"prompt": "Refused later"})
        later = agent_reads(h)
    assert after_one == 1
    assert after_refusals == 2  # the creation forgot the kept read; the two refusals share the next one
    assert later == 3


async def test_cursors_own_refusal_of_too_many_agents_answers_capacity_with_its_message(
    harness_factory: OpenHarness,
) -> None:
    """The API's concurrency refusal (modelled as 429 concurrent_agents_limit) maps to CAPACITY, its
    message kept, with the idle agents the user may archive."""
    world = World(ManualClock())
    world.plan_active_agents = 1
    async with harness_factory(world) as h:
        await create(h, "Task one")
        refused = await h.call("cursor_create_agent", {"prompt": "Task two"})
    assert refused.code == "CAPACITY"
    assert refused.data["upstream_code"] == "concurrent_agents_limit"
    assert "limit of 1 concurrent Cloud Agents" in refused.data["message"]
    assert len(world.agents) == 1


async def test_spend_counts_late_arriving_cost_and_then_refuses_creations_and_follow_ups(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """CURSOR_MCP_MAX_SPEND_CENTS: cost arrives after the run ends (eventually consistent). Until then the
    agent counts as unknown (said so in the account) and is held at its estimate (K-30: 25 cents while no cost is
    known, under the limit of 30), after it as charged; at the limit creations and follow-ups answer
    LIMIT_REACHED with the spend seen, and reads keep working."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=30) as h:
        first = await create(h, "Task one")
        h.clock.advance(RUN_SECONDS)  # ended; its cost is not reported yet
        account = await h.call("cursor_get_account")
        spend = account.data["limits"][2]
        second = await create(h, "Task two")  # 0 known cents, one run at its estimate of 25: allowed
        h.clock.advance(USAGE_SECONDS)  # the cost arrived meanwhile; the usage read is a minute old
        refused = await h.call("cursor_create_agent", {"prompt": "Task three"})
        follow_up = await h.call("cursor_create_run", {"agent_id": first, "prompt": "More"})
        read = await h.call("cursor_get_agent", {"agent_id": second})
        sent = posts(h)
    assert spend == {"variable": "CURSOR_MCP_MAX_SPEND_CENTS", "limit": 30, "used": 0, "window_hours": 24, "unknown": 1}
    assert refused.code == "LIMIT_REACHED" and refused.data["spent_cents"] == CHARGED_CENTS
    assert "CURSOR_MCP_MAX_SPEND_CENTS=30" in refused.data["message"]
    assert follow_up.code == "LIMIT_REACHED"
    assert not read.is_error
    assert sent == 2


async def test_an_agents_usage_is_read_at_most_once_a_minute_for_the_spend_limit(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """The spend check reads each created agent's usage at most once a minute, cost known or not."""
    async with harness_factory(state_dir=tmp_path, max_spend_cents=10_000) as h:
        for prompt in ("One", "Two", "Three", "Four"):
            await create(h, prompt)
        within_a_minute = usage_reads(h)
        h.clock.advance(USAGE_SECONDS)
        await create(h, "Five")
        a_minute_later = usage_reads(h)
    assert within_a_minute == 3  # agents one, two and three, each once
    assert a_minute_later == 3 + 4


async def test_the_account_reports_each_limit_with_its_use_and_window(harness_factory: OpenHarness) -> None:
    """cursor_get_account: creations in the window, agents running, spend (said not set when no spend limit is set)."""
    async with harness_factory(max_new_agents=5, max_active_agents=3) as h:
        await create(h, "Task one")
        account = await h.call("cursor_get_account")
    new_agents, running, spend = account.data["limits"]
    assert new_agents["variable"] == "CURSOR_MCP_MAX_NEW_AGENTS" and new_agents["used"] == 1
    assert new_agents["limit"] == 5 and new_agents["window_hours"] == 24 and new_agents["frees_at"]
    assert running == {"variable": "CURSOR_MCP_MAX_ACTIVE_AGENTS", "limit": 3, "used": 1}
    assert spend == {"variable": "CURSOR_MCP_MAX_SPEND_CENTS", "note": "not set: no spend limit"}


async def test_at_the_limit_a_lost_creation_asked_again_is_still_found_not_refused(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """The limits hold before a new agent only: a creation whose answer was lost (and whose agent now takes
    the last slot) asked again re-sends its id and answers `resumed`, so the agent is found, never paid
    for again later."""
    world = World(ManualClock())
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    async with harness_factory(world, faults=faults, state_dir=tmp_path, max_active_agents=1) as h:
        lost = await h.call("cursor_create_agent", {"prompt": "Task one"})
        again = await h.call("cursor_create_agent", {"prompt": "Task one"})
        other = await h.call("cursor_create_agent", {"prompt": "Task two"})
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN"
    assert again.data.get("resumed") is True and again.data["agent_id"] == lost.data["agent_id"]
    assert other.code == "CAPACITY"
    assert len(world.agents) == 1


async def test_with_a_spend_limit_and_no_usage_reporting_creations_are_refused_naming_the_variable(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """A spend limit that cannot be checked (usage is early access: 403 feature_unavailable) never lets money
    through unchecked: CONFIGURATION names the variable, and nothing is sent."""
    world = World(ManualClock(), quirks=Quirks(usage_endpoint_available=False))
    async with harness_factory(world, state_dir=tmp_path, max_spend_cents=100) as h:
        await create(h, "Task one")  # no agent in the window yet: nothing to read
        refused = await h.call("cursor_create_agent", {"prompt": "Task two"})
        account = await h.call("cursor_get_account")
        sent = posts(h)
    assert refused.code == "CONFIGURATION" and "CURSOR_MCP_MAX_SPEND_CENTS" in refused.data["message"]
    assert sent == 1
    assert account.data["limits"][2]["note"].startswith("cannot be checked")
