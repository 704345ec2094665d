"""The creation limit (issue 12, first part): CURSOR_MCP_MAX_NEW_AGENTS agents per rolling 24 hours, shared by
every server process of the machine, counted before the POST leaves, and nothing sent at the limit."""

from __future__ import annotations

import multiprocessing
from dataclasses import replace
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.core.spend.ledger import WINDOW_SECONDS, LimitReached, agents_of, take, use_of
from cursor_cloud_agents.core.store import FILE_NAME, Store
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.core.racing import creation, take_many
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

REQUEST = {"prompt": "Add a README with setup instructions"}


async def use(directory: Path, now: float, limit: int = 25) -> int:
    """The creations counted now by a fresh reader of the state directory (another process would see this)."""
    del limit  # the count does not depend on the limit
    return use_of(await Store(directory).read(now), now)[0]


def test_two_processes_racing_share_one_limit(tmp_path: Path) -> None:
    """Two server processes on one state directory: no more creations than the limit in total."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        taken = pool.starmap(take_many, [(str(tmp_path), 7, 10, 1000.0)] * 2)
    assert sum(taken) == 7
    assert anyio.run(use, tmp_path, 1000.0) == 7


async def test_creations_leave_the_window_after_24_hours(tmp_path: Path) -> None:
    """The window is rolling: the oldest creation frees its place 24 hours after it was counted."""
    store = Store(tmp_path)
    await take(store, creation(0.0), 2)
    await take(store, creation(10.0), 2)
    with pytest.raises(LimitReached) as full:
        await take(store, creation(20.0), 2)
    assert (full.value.count, full.value.frees_at) == (2, WINDOW_SECONDS)
    await take(store, creation(WINDOW_SECONDS + 1), 2)
    assert use_of(await store.read(WINDOW_SECONDS + 1), WINDOW_SECONDS + 1)[0] == 2


async def test_a_torn_ledger_line_counts_as_a_creation_made_now(tmp_path: Path) -> None:
    """F-40: a crash mid-write leaves a torn line: the lines before it still count, and so does the torn one
    (as a creation made when it was found), since what the store cannot read must not open the limit."""
    store = Store(tmp_path)
    await store.write(creation(5.0), now=5.0)
    with (tmp_path / FILE_NAME).open("a") as handle:
        handle.write('{"at": 6')
    assert await use(tmp_path, 10.0) == 2


async def test_at_the_limit_a_creation_answers_limit_reached_and_sends_nothing(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """D-05 (issue 12): LIMIT_REACHED names the variable, the count and when the oldest leaves the window."""
    async with harness_factory(state_dir=tmp_path, max_new_agents=2) as h:
        first = await h.call("cursor_create_agent", REQUEST)
        second = await h.call("cursor_create_agent", REQUEST | {"prompt": "Another task"})
        third = await h.call("cursor_create_agent", REQUEST | {"prompt": "A third task"})
        posts = len(h.requests("POST"))
    assert not first.is_error and not second.is_error
    assert (
        third.code == "LIMIT_REACHED"
        and third.data["count"] == 2
        and "CURSOR_MCP_MAX_NEW_AGENTS" in third.data["message"]
    )
    assert "frees_at" in third.data and posts == 2


async def test_a_limit_of_zero_means_no_new_agents(harness_factory: OpenHarness, tmp_path: Path) -> None:
    """Issue 12: `0` means no new agents; nothing is sent."""
    async with harness_factory(state_dir=tmp_path, max_new_agents=0) as h:
        reply = await h.call("cursor_create_agent", REQUEST)
        posts = len(h.requests("POST"))
    assert reply.code == "LIMIT_REACHED" and posts == 0


async def test_a_creation_whose_answer_was_lost_still_counts(harness_factory: OpenHarness, tmp_path: Path) -> None:
    """Issue 12: counted before the POST leaves, so a lost answer (or a crash right after) never under-counts;
    the same creation asked again with the same id does not count twice."""
    world = World(ManualClock())
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    async with harness_factory(world, faults=faults, state_dir=tmp_path) as h:
        lost = await h.call("cursor_create_agent", REQUEST)
        again = await h.call("cursor_create_agent", REQUEST)
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN" and again.data["resumed"] is True
    assert await use(tmp_path, world.clock.now()) == 1


def _take_then_die(directory: str) -> None:
    import os

    anyio.run(take, Store(Path(directory)), creation(1000.0, "bc-00000000-0000-4000-8000-000000000001"), 5)
    os._exit(1)  # the process dies between the ledger write and the POST


def test_a_crash_between_the_ledger_write_and_the_post_counts_the_creation(tmp_path: Path) -> None:
    """Money is never under-counted: the place is on disk (flushed) before anything is sent."""
    process = multiprocessing.get_context("spawn").Process(target=_take_then_die, args=(str(tmp_path),))
    process.start()
    process.join(timeout=30)
    assert process.exitcode == 1
    assert anyio.run(use, tmp_path, 1000.0) == 1


async def test_the_ledger_names_the_agents_created_in_the_window_for_the_spend_limit(tmp_path: Path) -> None:
    """A creation with an id is named when it takes its place; one with variables (no id allowed) once the
    answer tells it (its act settled with the id); creations older than 24 hours leave."""
    store = Store(tmp_path)
    await take(store, creation(0.0, "bc-old"), 5)
    await take(store, creation(WINDOW_SECONDS, "bc-first"), 5)
    unnamed = creation(WINDOW_SECONDS + 1)
    await take(store, unnamed, 5)
    await store.write(replace(unnamed, state="done", agent_id="bc-second"), now=WINDOW_SECONDS + 1)
    reading = await Store(tmp_path).read(WINDOW_SECONDS + 2)
    assert agents_of(reading, WINDOW_SECONDS + 2) == ["bc-first", "bc-second"]
