"""A creation is one agent and one place in the user's limits, even when calls run at once or
Cursor refuses it.

Issue 9's promise (one agent per creation) and issue 12's limits, under concurrency (F-28's calls at once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.core.spend.ledger import agents_of, use_of
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, Quirks, World
from tests.tool_harness import Harness, OpenHarness, Reply

pytestmark = pytest.mark.anyio

REQUEST = {"prompt": "Add a README with setup instructions"}


async def at_once(h: Harness, calls: list[dict[str, Any]]) -> list[Reply]:
    """Every creation called at the same moment (as a model's parallel tool calls arrive), their answers."""
    replies: list[Reply] = []

    async def one(arguments: dict[str, Any]) -> None:
        replies.append(await h.call("cursor_create_agent", arguments))

    with anyio.fail_after(20):
        async with anyio.create_task_group() as group:
            for arguments in calls:
                group.start_soon(one, arguments)
    return replies


async def test_two_identical_creations_called_at_once_make_one_agent(harness_factory: OpenHarness) -> None:
    """The second finds the first written as sent and re-sends its id, whatever the moment it looks: Cursor
    refuses a second agent with that id, so one agent is paid for, as when the second comes a moment later."""
    world = World(ManualClock())
    async with harness_factory(world) as h:
        replies = await at_once(h, [REQUEST, REQUEST])
        ids = {record.json().get("agentId") for record in h.requests("POST")}
    assert len(world.agents) == 1 and len(ids) == 1
    assert all(not reply.is_error or reply.code == "CREATION_IN_FLIGHT" for reply in replies), replies


async def test_creations_called_at_once_cannot_all_take_the_last_running_slot(harness_factory: OpenHarness) -> None:
    """CURSOR_MCP_MAX_ACTIVE_AGENTS=1 and three creations at once: one is sent, two answer CAPACITY."""
    async with harness_factory(max_active_agents=1) as h:
        calls = [{"prompt": f"Task {number} [sim:seconds=600]"} for number in range(3)]
        replies = await at_once(h, calls)
        posts = len(h.requests("POST"))
    assert posts == 1
    assert sorted(str(reply.code) for reply in replies) == ["CAPACITY", "CAPACITY", "None"]


async def test_a_creation_refused_by_cursor_gives_its_place_in_the_creation_limit_back(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """A 4xx made no agent: a model retrying a refused creation must not use up CURSOR_MCP_MAX_NEW_AGENTS
    (here 2) and leave the user unable to create for 24 hours."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.error(403, "repository_access_denied", "No access."), times=3)
    async with harness_factory(World(ManualClock()), faults=faults, state_dir=tmp_path, max_new_agents=2) as h:
        refused = [await h.call("cursor_create_agent", REQUEST) for _ in range(3)]
        created = await h.call("cursor_create_agent", REQUEST)
        used, _ = use_of(await Store(tmp_path).read(h.clock.now()), h.clock.now())
    assert [reply.code for reply in refused] == ["PERMISSION_DENIED"] * 3
    assert not created.is_error, created.data
    assert used == 1


async def test_a_creation_with_an_agent_id_that_exists_takes_no_place_in_the_creation_limit(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """CONFLICT: Cursor created nothing, so the ledger holds the one agent, once."""
    async with harness_factory(state_dir=tmp_path) as h:
        first = await h.call("cursor_create_agent", REQUEST)
        again = await h.call("cursor_create_agent", {"prompt": "Other work", "agent_id": first.data["agent_id"]})
        used, _ = use_of(await Store(tmp_path).read(h.clock.now()), h.clock.now())
    assert again.code == "CONFLICT" and used == 1


async def test_an_agent_with_variables_found_by_its_name_counts_towards_the_spend_limit(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """With env_vars the id comes only in the answer; when that answer was lost and the agent is found by its
    name, the ledger learns its id, or what it costs would never count against CURSOR_MCP_MAX_SPEND_CENTS."""
    world = World(ManualClock(), quirks=Quirks(creation_seconds=14.0))
    request = REQUEST | {"name": "nightly build", "env_vars": {"DB_PASSWORD": "value_0123456789"}}
    async with harness_factory(world, state_dir=tmp_path) as h:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(h.call, "cursor_create_agent", request)
                while not world.creating and not world.agents:
                    await anyio.wait_all_tasks_blocked()
                group.cancel_scope.cancel()  # the answer never reaches the model
        h.clock.advance(14.0)
        found = await h.call("cursor_create_agent", request)
        known = agents_of(await Store(tmp_path).read(h.clock.now()), h.clock.now())
    assert found.data["resumed"] is True
    assert known == [found.data["agent_id"]]
