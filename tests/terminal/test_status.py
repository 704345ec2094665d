"""`status` (issue 24): the line cold and warm, its cache per key, "ended unread", and the cache shared by two
processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents import statuscache
from cursor_cloud_agents.config import Secret, Settings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.simulator import (
    SIMULATED_API_KEY,
    Fault,
    Faults,
    ManualClock,
    Quirks,
    RunScript,
    ScriptedToolCall,
    World,
    serve,
)
from cursor_cloud_agents.statuscache import REFRESH_SECONDS, Snapshot
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import OK
from cursor_cloud_agents.terminal.status import status
from cursor_cloud_agents.terminal.wait import Target, wait
from tests.clock import FAST_SILENCES
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio


def fleet() -> World:
    """Two running agents, one idle, one archived."""
    world = World(ManualClock())
    for name in ("Running one", "Running two"):
        world.add_agent(name, script=RunScript(running_seconds=3600))
    world.add_agent("Idle", created_ago=7200)
    world.add_agent("Archived", created_ago=7200, archived=True)
    return world


async def test_a_cold_status_reads_cursor_once_and_writes_the_cache(rig_factory: RigFactory, tmp_path: Path) -> None:
    """Issue 24: with no cache, one listing of the key's agents (running = ACTIVE), the ledger's creations and
    their charged cents, as one line; the cache is written beside the ledger, readable by its owner only."""
    world = fleet()
    store = Store(tmp_path)
    for agent_id in list(world.agents)[:3]:
        made = Act(Act.new_id(), "create", world.clock.now() - 60, "done", counted=True, agent_id=agent_id)
        await store.write(made, now=world.clock.now())
    async with rig_factory(world, state_dir=tmp_path) as rig:
        code = await execute(rig.term, status)
        listings = [record for record in rig.requests("GET") if record.path == "/v1/agents"]
    assert code == OK and len(listings) == 1
    assert rig.text() == "cursor: 2 running · 0 ended unread · ≥23¢ today · 3/25 new\n"
    assert (tmp_path / "status.json").stat().st_mode & 0o777 == 0o600


async def test_a_warm_status_makes_no_request_until_the_cache_is_older_than_its_refresh(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """Issue 24: within REFRESH_SECONDS the line comes from the cache (no request); after, it is read again."""
    async with rig_factory(fleet(), state_dir=tmp_path) as rig:
        await execute(rig.term, status)
        first = len(rig.requests())
        rig.clock.advance(REFRESH_SECONDS - 1)
        await execute(rig.term, status)
        warm = len(rig.requests())
        rig.clock.advance(2)
        await execute(rig.term, status)
        again = len(rig.requests())
    assert warm == first and again > warm and rig.text().count("cursor: 2 running") == 3


async def test_the_cache_of_another_key_is_never_shown(rig_factory: RigFactory, tmp_path: Path) -> None:
    """Issue 24: the cache holds a fingerprint of the key it was read with (never the key): another key reads
    its own line."""
    other = Settings(api_key=Secret("key_" + "o" * 60), state_dir=tmp_path)
    statuscache.write(tmp_path, Snapshot(ManualClock().now(), statuscache.fingerprint(other), 9, 9, 1.0, 0, 9, 25))
    async with rig_factory(fleet(), state_dir=tmp_path) as rig:
        await execute(rig.term, status)
        read_again = bool(rig.requests())
    assert read_again and "2 running" in rig.text()
    assert "o" * 20 not in (tmp_path / "status.json").read_text() and SIMULATED_API_KEY not in rig.text()


@pytest.mark.parametrize("content", ["", "{", "[]", '{"version": 1, "at": "x"}', '{"version": 99}'])
async def test_a_torn_or_foreign_cache_is_read_anew(rig_factory: RigFactory, tmp_path: Path, content: str) -> None:
    """Issue 24: a cache that is not ours (torn, another version, wrong types) is ignored and rewritten."""
    (tmp_path / "status.json").write_text(content)
    async with rig_factory(fleet(), state_dir=tmp_path) as rig:
        code = await execute(rig.term, status)
    assert code == OK and "2 running" in rig.text() and statuscache.read(tmp_path) is not None


async def test_a_run_seen_running_then_ended_is_unread_until_wait_reports_it(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """Issue 24: "ended unread" counts the runs status saw running and then ended; a `wait` report showing the
    run takes it off."""
    world = World(ManualClock())
    agent = world.add_agent("Short", script=RunScript(running_seconds=20))
    async with rig_factory(world, state_dir=tmp_path, json_output=True) as rig:
        await execute(rig.term, status)
        rig.clock.advance(60)
        await execute(rig.term, status)
        await execute(rig.term, partial(wait, targets=[Target(agent.id)], active=False, until="any", timeout=None))
        rig.clock.advance(60)
        await execute(rig.term, status)
        before, ended, _, after = rig.documents()
    assert (before["running"], before["ended_unread"]) == (1, 0)
    assert (ended["running"], ended["ended_unread"]) == (0, 1) and after["ended_unread"] == 0


async def test_a_status_that_waited_for_the_refresh_lock_shows_the_line_written_meanwhile_l_12(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """L-12: a second `status` arriving while the first refreshes waits for its lock, then shows the line the
    first wrote: Cursor is listed once, however many status bars refresh at the same moment."""
    faults = Faults()
    faults.inject("GET", "/v1/agents", Fault.slow(0.5), times=1)  # the first refresh is still reading
    async with rig_factory(fleet(), state_dir=tmp_path, faults=faults) as rig:
        with anyio.fail_after(10):
            async with anyio.create_task_group() as group:
                group.start_soon(execute, rig.term, status)
                while not rig.requests("GET"):
                    await anyio.lowlevel.checkpoint()
                group.start_soon(execute, rig.term, status)
        listings = [record for record in rig.requests("GET") if record.path == "/v1/agents"]
    assert len(listings) == 1 and rig.text().count("cursor: 2 running") == 2


def test_a_write_interrupted_halfway_leaves_the_old_line_and_no_temporary_file(tmp_path: Path) -> None:
    """Issue 24: the cache is replaced atomically (a temporary file renamed over it): a write that fails before
    the rename leaves the previous line whole."""
    old = Snapshot(1.0, "k", 1, 0, 0.0, 0, 0, 25)
    statuscache.write(tmp_path, old)
    real_fsync = os.fsync

    def failing(descriptor: int) -> None:
        raise OSError("disk full")

    os.fsync = failing
    try:
        with pytest.raises(OSError):
            statuscache.write(tmp_path, Snapshot(2.0, "k", 5, 0, 0.0, 0, 0, 25))
    finally:
        os.fsync = real_fsync
    assert statuscache.read(tmp_path) == old and sorted(p.name for p in tmp_path.iterdir()) == ["status.json"]


def status_process(base_url: str, state_dir: Path) -> tuple[list[str], dict[str, str]]:
    env = {
        "PATH": os.defpath,
        "HOME": str(state_dir),
        "CURSOR_API_BASE_URL": base_url,
        "CURSOR_API_KEY": SIMULATED_API_KEY,
        "CURSOR_MCP_STATE_DIR": str(state_dir),
    }
    probe = (
        "import sys; from cursor_cloud_agents.cli.launch import main; code = main(['status', '--json']); "
        "sys.stderr.write('loaded: %s\\n' % sorted(m for m in ('cursor_cloud_agents.api', 'rich', 'pydantic') "
        "if m in sys.modules)); raise SystemExit(code)"
    )
    return [sys.executable, "-c", probe], env


async def test_two_processes_share_one_refresh_and_a_warm_one_loads_neither_client_nor_rich_l_11(
    tmp_path: Path,
) -> None:
    """L-11: two `status` processes started together on a cold cache read Cursor once (one waits for the other's
    lock, then reads its line); a third, warm, answers from the cache without loading the API client, pydantic
    or rich (what makes it fast), and sends nothing."""
    async with serve(fleet()) as sim:
        command, env = status_process(sim.base_url, tmp_path)
        done: list[subprocess.CompletedProcess[bytes]] = []

        async def one() -> None:
            done.append(await anyio.run_process(command, env=env, check=False))

        with anyio.fail_after(60):
            async with anyio.create_task_group() as group:
                group.start_soon(one)
                group.start_soon(one)
            listings = [record for record in sim.requests if record.path == "/v1/agents"]
            sent_before = len(sim.requests)
            warm = await anyio.run_process(command, env=env, check=False)
            sent_after = len(sim.requests)
    lines = [json.loads(process.stdout)["line"] for process in [*done, warm]]
    assert all(process.returncode == 0 for process in [*done, warm]), [p.stderr for p in done]
    assert len(listings) == 1 and len(set(lines)) == 1 and lines[0].startswith("cursor: 2 running")
    assert sent_after == sent_before and b"loaded: []" in warm.stderr


async def test_the_line_counts_the_stuck_runs_by_the_rule_of_cursor_supervise(
    rig_factory: RigFactory, tmp_path: Path
) -> None:
    """Issue 25 (SL-29): two runs whose last event is three hours old and whose streams stay quiet are `stuck` on
    the line (listened to past a pause, as `cursor_supervise` judges them); a run that moved within the
    threshold is not; an agent younger than the threshold cannot be stale, so its run is not even read. The
    count is in `--json` too and survives the cache."""
    calls = tuple(ScriptedToolCall("read_file", {"path": f"src/module_{index}.py"}) for index in range(20))
    stuck = RunScript(running_seconds=36000, events_seconds=60.0, tool_calls=calls, summary=None)
    moving = RunScript(running_seconds=3600 * 6, tool_calls=calls * 20, thinking=None, summary=None)
    world = World(ManualClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    for index in range(2):
        world.add_agent(f"stuck {index}", script=stuck, created_ago=3 * 3600 + 62)
    world.add_agent("moving", script=moving, created_ago=3 * 3600)
    young = world.add_agent("young", script=RunScript(running_seconds=3600), created_ago=60)
    async with rig_factory(world, state_dir=tmp_path, silence_scale=FAST_SILENCES) as rig:
        assert await execute(rig.term, status) == OK
        young_reads = [record for record in rig.requests("GET") if young.id in record.path]
    assert rig.text().startswith("cursor: 4 running · 2 stuck · 0 ended unread")
    assert young_reads == []
    cached = statuscache.read(tmp_path)
    assert cached is not None and cached.stuck == 2 and cached.document(cached.at)["stuck"] == 2
