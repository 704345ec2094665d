"""Issue 21, slots: CURSOR_MCP_MAX_ACTIVE_AGENTS counts every running agent of the key, and only those.

Every page of the key's non-archived agents, the creations of other processes on the machine that the
store holds as in flight (a real subprocess writes them), and, at the limit only, each counted agent's
latest run, so that an API listing idle agents ACTIVE cannot refuse a creation. Each refusal is proven by
the simulator's request log: no POST left.
"""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.api import CursorClient, ids
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.spend.limits import Limits
from cursor_cloud_agents.core.spend.slots import SLOT_PAGE
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, Clock
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, Quirks, RunScript, World, serve
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

LONG = RunScript(running_seconds=86_400)
"""A run that lasts the whole test."""
ENDED_AGO = 3600.0
"""Seeded agents whose runs ended an hour ago."""

CREATING_PROCESS = """
import sys
from pathlib import Path

import anyio

from cursor_cloud_agents.core.spend.ledger import take
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.store import Store

folder, agent_id, at = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])


async def main() -> None:
    # What a server process writes right before its POST leaves: the creation, sent and counted.
    act = Act(Act.new_id(), "create", at, "sent", counted=True, fingerprint="other", agent_id=agent_id)
    await take(Store(folder), act, 25)


anyio.run(main)
"""


async def another_process_creates(folder: Path, agent_id: str, at: float) -> None:
    """A real process writes a creation in flight to the machine's store, as another server does before its POST."""
    with anyio.fail_after(30):
        await anyio.run_process([sys.executable, "-c", CREATING_PROCESS, str(folder), agent_id, str(at)])


def posts(h: Harness) -> int:
    return len([record for record in h.requests("POST") if record.path == "/v1/agents"])


def run_reads(h: Harness) -> int:
    return len([record for record in h.requests("GET") if "/runs/" in record.path])


def listing_reads(h: Harness) -> int:
    return len([record for record in h.requests("GET") if record.path == "/v1/agents"])


async def test_running_agents_older_than_the_newest_hundred_are_counted(harness_factory: OpenHarness) -> None:
    """SL-10: two agents still running sit behind 118 newer idle ones (the listing's second page): at
    CURSOR_MCP_MAX_ACTIVE_AGENTS=2 the creation answers CAPACITY and nothing is sent."""
    world = World(ManualClock())
    for index in range(2):
        world.add_agent(f"Long task {index}", script=LONG, created_ago=2 * ENDED_AGO)
    for index in range(SLOT_PAGE + 18):
        world.add_agent(f"Old task {index}", created_ago=ENDED_AGO)
    async with harness_factory(world, max_active_agents=2) as h:
        refused = await h.call("cursor_create_agent", {"prompt": "One too many"})
        account = await h.call("cursor_get_account")
        sent = posts(h)
    assert refused.code == "CAPACITY", refused.data
    assert refused.data["active"] == 2 and "CURSOR_MCP_MAX_ACTIVE_AGENTS=2" in refused.data["message"]
    assert account.data["limits"][1] == {"variable": "CURSOR_MCP_MAX_ACTIVE_AGENTS", "limit": 2, "used": 2}
    assert sent == 0


async def test_another_processs_creation_in_flight_takes_a_slot(harness_factory: OpenHarness, tmp_path: Path) -> None:
    """SL-11: another process on the machine has written its creation to the store and its POST has not been
    answered (Cursor lists no such agent yet): it takes the one slot, so this creation answers CAPACITY, sends
    nothing, and says the agent is being created through this machine."""
    async with harness_factory(state_dir=tmp_path, max_active_agents=1) as h:
        await another_process_creates(tmp_path, ids.mint_agent_id(), h.clock.now())
        refused = await h.call("cursor_create_agent", {"prompt": "Task two"})
        sent = posts(h)
    assert refused.code == "CAPACITY", refused.data
    assert refused.data["active"] == 1
    assert "1 of them created through this machine, not listed yet" in refused.data["message"]
    assert sent == 0


async def test_a_creation_in_flight_that_never_lands_frees_its_slot_after_the_apis_creation_time(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """SL-12: a creation another process left as sent (it died before the answer) and whose agent never
    appeared holds its slot while Cursor may still be creating it, and no longer once that time has passed."""
    async with harness_factory(state_dir=tmp_path, max_active_agents=1) as h:
        await another_process_creates(tmp_path, ids.mint_agent_id(), h.clock.now())
        refused = await h.call("cursor_create_agent", {"prompt": "Too early"})
        h.clock.advance(API_CREATION_SECONDS + 1)
        created = await h.call("cursor_create_agent", {"prompt": "Later"})
        sent = posts(h)
    assert refused.code == "CAPACITY"
    assert not created.is_error, created.data
    assert sent == 1


async def test_a_creation_another_process_writes_after_the_check_takes_the_last_slot_first(tmp_path: Path) -> None:
    """SL-13: the slot check is made again under the store's lock as the creation is written: another process
    that wrote its creation between this one's check and its write took the last slot, so this one is refused
    and nothing of it is written (its POST would never leave)."""
    clock = ManualClock()
    world = World(clock)
    settings = Settings(api_key=Secret(SIMULATED_API_KEY), max_active_agents=1)
    store = Store(tmp_path)
    limits = Limits(settings, store, Clock(now=clock.now))
    async with serve(world) as sim, CursorClient(sim.base_url, SIMULATED_API_KEY, clock=clock.now) as api:
        await limits.before_create(api)  # room for one
        await another_process_creates(tmp_path, ids.mint_agent_id(), clock.now())
        mine = Act(Act.new_id(), "create", clock.now(), "sent", counted=True, agent_id=ids.mint_agent_id())
        with pytest.raises(ToolFailure) as refused:
            await limits.take(mine)
        written = await store.read(clock.now())
    assert refused.value.code == "CAPACITY"
    assert mine.id not in written.acts and len(list(written.of("create"))) == 1


async def test_agents_listed_active_whose_runs_ended_do_not_fill_the_slots(harness_factory: OpenHarness) -> None:
    """SL-14: an API that lists idle agents ACTIVE (their latest runs ended long ago) makes the count reach the
    limit; the latest runs, read then, show none running, so the creation is sent."""
    world = World(ManualClock(), quirks=Quirks(ended_agents_listed_active=True))
    for index in range(3):
        world.add_agent(f"Ended task {index}", created_ago=ENDED_AGO)
    async with harness_factory(world, max_active_agents=2) as h:
        created = await h.call("cursor_create_agent", {"prompt": "Task"})
        sent = posts(h)
    assert not created.is_error, created.data
    assert sent == 1


async def test_at_the_limit_running_agents_confirmed_by_their_runs_refuse_and_say_the_cost(
    harness_factory: OpenHarness,
) -> None:
    """SL-15: with idle agents listed ACTIVE beside two that really run, the confirmation counts the two: at
    CURSOR_MCP_MAX_ACTIVE_AGENTS=2 the answer is CAPACITY, naming the requests the confirmation took, and the
    idle agents are the ones offered to archive. Nothing is sent."""
    world = World(ManualClock(), quirks=Quirks(ended_agents_listed_active=True))
    ended = world.add_agent("Ended task", created_ago=ENDED_AGO)
    for index in range(2):
        world.add_agent(f"Long task {index}", script=LONG)
    async with harness_factory(world, max_active_agents=2) as h:
        refused = await h.call("cursor_create_agent", {"prompt": "One too many"})
        sent = posts(h)
    assert refused.code == "CAPACITY", refused.data
    assert refused.data["active"] == 2
    # The confirmation's requests: the listing's one page and the three latest runs.
    assert "confirmed by their latest runs (4 requests)" in refused.data["message"]
    assert [idle["agent_id"] for idle in refused.data["oldest_idle"]] == [ended.id]
    assert sent == 0


async def test_the_confirmation_reads_runs_only_at_the_limit_and_once_per_full_limit(
    harness_factory: OpenHarness,
) -> None:
    """SL-16: below the limit no run is read and a burst of creations reads the listing once (each new one is
    in the store); at a full limit the runs are read once, and the refusals that follow within 30 s read
    nothing more."""
    async with harness_factory(max_active_agents=3) as h:
        for index in range(3):
            created = await h.call("cursor_create_agent", {"prompt": f"Task {index} [sim:seconds=600]"})
            assert not created.is_error, created.data
        below = (run_reads(h), listing_reads(h))
        first = await h.call("cursor_create_agent", {"prompt": "Refused"})
        at_limit = (run_reads(h), listing_reads(h))
        again = await h.call("cursor_create_agent", {"prompt": "Refused again"})
        after = (run_reads(h), listing_reads(h))
        sent = posts(h)
    assert below == (0, 1)
    assert first.code == again.code == "CAPACITY"
    assert at_limit == (3, 2)  # the listing read afresh, and the latest run of each of the three
    assert after == at_limit
    assert sent == 3
