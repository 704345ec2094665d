"""The store of paid acts fails closed (issue 21): what it cannot read is counted, what it cannot write is
refused, nothing blocks, and a process killed at any instant never loses a counted creation.

F-40: unreadable entries (torn, garbage, mistyped, impossibly dated) count as creations made now.
F-41: a store that cannot be used refuses paid acts; reads of agents go on.
F-42: a path that is not a regular file is refused at once, without blocking.
F-43: rewrites are atomic: a kill at any instant leaves the old store or the new, never less.
F-44: a state directory written by the previous version is read with its counts and pending creations.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.migration import OLD_JOURNAL, OLD_LEDGER
from cursor_cloud_agents.core.spend.journal import unsettled
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.store import FILE_NAME, MIGRATED_SUFFIX, Store, StoreUnusable
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

NOW = 1_800_000_000.0
REQUEST = {"prompt": "Add a README with setup instructions"}


def creation(at: float, print_: str = "f", agent_id: str | None = None) -> Act:
    return Act(Act.new_id(), "create", at, "sent", counted=True, fingerprint=print_, agent_id=agent_id)


async def counted(directory: Path, now: float = NOW) -> int:
    return use_of(await Store(directory).read(now), now)[0]


@pytest.mark.parametrize(
    "line",
    [
        '{"id": "x", "kind": "create", "at": 2e11, "state": "done", "counted": true}',  # beyond year 9999
        '{"id": "x", "kind": "create", "at": NaN, "state": "done", "counted": true}',
        '{"id": "x", "kind": "create", "at": -5, "state": "done", "counted": true}',
        '{"id": "x", "kind": "create", "at": 1e308, "state": "done", "counted": true}',
    ],
    ids=["year-6000-and-more", "nan", "negative", "huge"],
)
async def test_an_impossibly_dated_entry_counts_as_a_creation_made_now_and_the_limit_still_answers(
    tmp_path: Path, line: str, harness_factory: OpenHarness
) -> None:
    """F-40: an entry dated beyond year 9999 made every creation INTERNAL (the date could not be written);
    any impossible date now counts as a creation made now, and the limit answers LIMIT_REACHED plainly."""
    world = World(ManualClock())
    (tmp_path / FILE_NAME).write_text(line + "\n")
    assert await counted(tmp_path, world.clock.now()) == 1
    async with harness_factory(world, state_dir=tmp_path, max_new_agents=1) as h:
        refused = await h.call("cursor_create_agent", REQUEST)
        posts = len(h.requests("POST"))
    assert refused.code == "LIMIT_REACHED" and posts == 0


async def test_an_unwritable_state_directory_refuses_creations_and_says_so_while_reads_go_on(
    tmp_path: Path, harness_factory: OpenHarness
) -> None:
    """F-41: a state directory that can be read but not written left the count at zero in memory and let
    creations out; now each creation is refused CONFIGURATION naming CURSOR_MCP_STATE_DIR, the account says
    the count cannot be read, and reading agents still works. (A folder where the lock file belongs makes
    it unwritable even for root.)"""
    (tmp_path / "acts.lock").mkdir()
    world = World(ManualClock())
    world.add_agent("Existing", created_ago=60)
    async with harness_factory(world, state_dir=tmp_path, max_new_agents=3) as h:
        refused = [await h.call("cursor_create_agent", REQUEST | {"prompt": f"Task {n}"}) for n in range(3)]
        account = await h.call("cursor_get_account")
        listed = await h.call("cursor_list_agents")
        posts = len(h.requests("POST"))
    assert {reply.code for reply in refused} == {"CONFIGURATION"} and posts == 0
    assert all(reply.data["variable"] == "CURSOR_MCP_STATE_DIR" for reply in refused)
    (creations,) = [limit for limit in account.data["limits"] if limit["variable"] == "CURSOR_MCP_MAX_NEW_AGENTS"]
    assert "cannot be read" in creations["note"] and creations.get("used") is None
    assert not listed.is_error and len(listed.data["agents"]) == 1


@pytest.mark.parametrize("kind", ["fifo", "folder"])
async def test_a_store_path_that_is_not_a_regular_file_is_refused_at_once(tmp_path: Path, kind: str) -> None:
    """F-42: a FIFO where the store file belongs blocked the event loop (nothing answered, not even ping);
    it is now opened without blocking and refused by its descriptor's type, as a folder is."""
    path = tmp_path / FILE_NAME
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    with anyio.fail_after(5), pytest.raises(StoreUnusable, match="FIFO|folder|Directory"):
        await Store(tmp_path).read(NOW)
    with anyio.fail_after(5), pytest.raises(StoreUnusable):
        await Store(tmp_path).write(creation(NOW), now=NOW)


async def test_a_fifo_in_the_state_directory_never_stops_the_server_answering(
    tmp_path: Path, harness_factory: OpenHarness
) -> None:
    """F-42: with a FIFO as the store, a creation is refused CONFIGURATION at once and the server answers
    every other call (the call is bounded: it would hang forever before)."""
    os.mkfifo(tmp_path / FILE_NAME)
    async with harness_factory(World(ManualClock()), state_dir=tmp_path) as h:
        with anyio.fail_after(10):
            refused = await h.call("cursor_create_agent", REQUEST)
            models = await h.call("cursor_list_models")
    assert refused.code == "CONFIGURATION" and not models.is_error


async def test_a_line_torn_by_a_crash_does_not_swallow_the_next_entry(tmp_path: Path) -> None:
    """F-40: an append after a torn line starts a line of its own, so the new creation is read as written."""
    store = Store(tmp_path)
    await store.write(creation(NOW, "first"), now=NOW)
    with (tmp_path / FILE_NAME).open("a") as handle:
        handle.write('{"id": "torn", "kind": "cre')
    await Store(tmp_path).write(creation(NOW + 1, "second"), now=NOW + 1)
    reading = await Store(tmp_path).read(NOW + 2)
    prints = {act.fingerprint for act in reading.of("create")}
    assert {"first", "second"} <= prints and await counted(tmp_path, NOW + 2) == 3


KILLER = textwrap.dedent(
    """
    import sys, anyio
    from pathlib import Path
    from cursor_cloud_agents.core.spend.ledger import LimitReached, take
    from cursor_cloud_agents.core.acts import Act
    from cursor_cloud_agents.core.store import Store

    async def main():
        store = Store(Path(sys.argv[1]))
        for n in range(int(sys.argv[2])):
            act = Act(Act.new_id(), "create", 1_800_000_000.0 + n, "sent", counted=True, fingerprint=str(n))
            await take(store, act, 10_000)
            print(n, flush=True)  # written and flushed: this creation must be counted from now on

    anyio.run(main)
    """
)


def test_a_process_killed_at_random_points_during_200_creations_never_loses_a_counted_one(tmp_path: Path) -> None:
    """F-43: a loop of kills (SIGKILL at a different instant each time, during appends and rewrites) over 200
    creations: every creation the process said was written is still counted afterwards, never fewer."""
    script = tmp_path / "killer.py"
    script.write_text(KILLER)
    state = tmp_path / "state"
    acknowledged = 0
    for round_ in range(12):
        process = subprocess.Popen(
            [sys.executable, str(script), str(state), "200"], stdout=subprocess.PIPE, text=True, env=os.environ.copy()
        )
        assert process.stdout is not None
        for _ in range(3 + round_ * 7):  # a little further each round
            if not process.stdout.readline():
                break
            acknowledged += 1
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        process.stdout.close()
        counted_now = anyio.run(counted, state, 1_800_000_000.0 + 199)
        assert counted_now >= acknowledged
    (state / FILE_NAME).read_text()  # still one readable file


async def fingerprint_of_a_creation(harness_factory: OpenHarness, probe: Path) -> str:
    """The fingerprint the server gives REQUEST: a creation whose answer is lost stays in the store, sent."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request(), times=1)
    async with harness_factory(World(ManualClock()), faults=faults, state_dir=probe) as h:
        await h.call("cursor_create_agent", REQUEST)
    (act,) = (await Store(probe).read(NOW)).of("create")
    assert act.fingerprint is not None
    return act.fingerprint


async def test_a_state_directory_of_the_previous_version_keeps_its_counts_and_pending_creations(
    tmp_path: Path, harness_factory: OpenHarness
) -> None:
    """F-44: creations.jsonl and ledger.jsonl written by the previous version are migrated once: the count
    of the last 24 hours is kept, and a creation still `sent` there is re-sent with its id (one agent)."""
    world = World(ManualClock())
    now = world.clock.now()
    agent_id = "bc-00000000-0000-4000-8000-00000000abcd"
    print_ = await fingerprint_of_a_creation(harness_factory, tmp_path / "probe")
    journal = [
        {"at": now - 30, "fingerprint": print_, "agent_id": agent_id, "name": None, "state": "sent"},
        {"at": now - 7200, "fingerprint": "other", "agent_id": "bc-x", "name": None, "state": "done"},
    ]
    ledger = [{"at": now - 7200, "agent_id": "bc-x"}, {"at": now - 30, "agent_id": agent_id}, {"at": now - 90000}]
    (tmp_path / OLD_JOURNAL).write_text("".join(json.dumps(line) + "\n" for line in journal))
    (tmp_path / OLD_LEDGER).write_text("".join(json.dumps(line) + "\n" for line in ledger))
    assert await counted(tmp_path, now) == 2
    assert unsettled(await Store(tmp_path).read(now), "create", print_, now) is not None
    assert (tmp_path / (OLD_JOURNAL + MIGRATED_SUFFIX)).exists() and not (tmp_path / OLD_LEDGER).exists()
    async with harness_factory(world, state_dir=tmp_path) as h:
        again = await h.call("cursor_create_agent", REQUEST)
        posted = [record.json().get("agentId") for record in h.requests("POST")]
    assert again.data["agent_id"] == agent_id and posted == [agent_id]
