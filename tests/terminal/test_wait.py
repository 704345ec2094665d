"""`wait` (issue 24): any and all, the timeout, a deleted agent, exit codes, pipe and terminal, the request rate.

Against the simulator on its manual clock: the command's pauses advance the clock (the rig's session
sleeps by moving it), so runs end in the order of their scripts and no test sleeps.
"""

from __future__ import annotations

from collections import Counter
from functools import partial

import anyio
import pytest

from cursor_cloud_agents.core.runs.watch import Until
from cursor_cloud_agents.core.timing import WAIT_POLL_SECONDS
from cursor_cloud_agents.simulator import ManualClock, RunScript, World
from cursor_cloud_agents.terminal.dispatch import Command, execute
from cursor_cloud_agents.terminal.exits import OK, REFUSED, TIMED_OUT, USAGE
from cursor_cloud_agents.terminal.wait import Target, wait
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

CREATING = 2.0


def staggered(*seconds: float, outcome: str = "FINISHED", result: str = "Done.") -> tuple[World, list[Target]]:
    """A world with one running agent per duration (after CREATING), and the runs to wait on."""
    world = World(ManualClock())
    targets: list[Target] = []
    for length in seconds:
        script = RunScript(running_seconds=length, result=result, outcome=outcome)  # pyright: ignore[reportArgumentType]
        agent = world.add_agent(f"Task of {length:g} s", script=script)
        targets.append(Target(agent.id, agent.runs[-1].id))
    return world, targets


def waiting(
    targets: list[Target], *, until: Until = "any", timeout: float | None = None, active: bool = False
) -> Command:
    return partial(wait, targets=targets, active=active, until=until, timeout=timeout)


async def test_any_exits_0_at_the_first_end_noticed_within_the_cadence(rig_factory: RigFactory) -> None:
    """Issue 24: `wait A B` (any) ends when the first run ends, seen within WAIT_POLL_SECONDS; the report names
    the ended run with its branch and result, and the other as still going."""
    world, targets = staggered(40, 12)
    async with rig_factory(world) as rig:
        started = rig.clock.now()
        code = await execute(rig.term, waiting(targets))
        waited = rig.clock.now() - started
        shown = rig.text()
    assert code == OK and CREATING + 12 <= waited <= CREATING + 12 + WAIT_POLL_SECONDS
    assert f"FINISHED after 14s · {targets[1]}" in shown and "branch github.com/your-org/your-repo cursor/" in shown
    assert "│ Done." in shown and f"RUNNING for 15s · {targets[0]} (still going)" in shown
    assert shown.startswith("wait ended after ") and f"1 of 2 runs ended (FINISHED {targets[1]})" in shown


async def test_the_first_line_says_how_the_wait_ended_which_runs_and_where_to_read_on(
    rig_factory: RigFactory,
) -> None:
    """B-91: a client wakes its model with only `wait`'s exit code and the path of its output (Claude Code), so
    the report's first line carries what the model needs first: how the wait ended, each ended run with its
    status, the runs still going, and where the rest is (ids and statuses only). The exit code agrees (1: a run
    ended in error)."""
    world, targets = staggered(3600, 5, outcome="ERROR")
    async with rig_factory(world) as rig:
        code = await execute(rig.term, waiting(targets))
        first, *rest = rig.text().splitlines()
    assert code == REFUSED and first.startswith("wait ended after ")
    assert f": 1 of 2 runs ended (ERROR {targets[1]}); still going: {targets[0]}. Below, per run: " in first
    assert first.endswith("a whole run: cursor-cloud-agents watch AGENT RUN.")
    assert rest[0].startswith(f"RUNNING for 7s · {targets[0]}") and rest[1].startswith(f"ERROR after 7s · {targets[1]}")


async def test_all_waits_for_the_last_run(rig_factory: RigFactory) -> None:
    """Issue 24: `--all` ends once every run ended."""
    world, targets = staggered(30, 10, 20)
    async with rig_factory(world) as rig:
        started = rig.clock.now()
        code = await execute(rig.term, waiting(targets, until="all"))
        waited = rig.clock.now() - started
    assert code == OK and CREATING + 30 <= waited <= CREATING + 30 + WAIT_POLL_SECONDS
    assert rig.text().count("FINISHED after") == 3 and "3 of 3 runs ended (FINISHED" in rig.text()


async def test_a_timeout_exits_124_and_says_how_to_wait_again(rig_factory: RigFactory) -> None:
    """Issue 24: nothing ended within `--timeout`: exit 124 (as timeout(1)), every run still going, and the
    command that waits on them again."""
    world, targets = staggered(3600, 3600)
    async with rig_factory(world) as rig:
        started = rig.clock.now()
        code = await execute(rig.term, waiting(targets, timeout=30))
        waited = rig.clock.now() - started
    assert code == TIMED_OUT and 30 - WAIT_POLL_SECONDS <= waited <= 30
    first = rig.text().splitlines()[0]
    assert first.startswith("wait timed out after ") and "0 of 2 runs ended; still going" in first
    assert f"wait again with: cursor-cloud-agents wait {targets[0]} {targets[1]}" in first


@pytest.mark.parametrize("outcome", ["ERROR", "CANCELLED", "EXPIRED"])
async def test_a_run_that_ended_otherwise_than_finished_exits_1(rig_factory: RigFactory, outcome: str) -> None:
    """Issue 24: exit 1 when a reported run ended in error, was cancelled or expired."""
    world, targets = staggered(5, outcome=outcome)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, waiting(targets))
    assert code == REFUSED and f"{outcome} after" in rig.text()


async def test_an_agent_deleted_during_the_wait_is_reported_and_exits_1(rig_factory: RigFactory) -> None:
    """Issue 24: an agent that disappears while waited on is reported NOT_FOUND; `--all` ends with the other
    run instead of waiting on the deleted one forever; exit 1."""
    world, targets = staggered(30, 3600)
    clock = world.clock
    assert isinstance(clock, ManualClock)
    started = clock.now()
    seen: list[tuple[int, str]] = []

    async def delete_later() -> None:
        await clock.wait(started + 10)
        world.delete(targets[1].agent_id)

    async with rig_factory(world) as rig, anyio.create_task_group() as group:
        group.start_soon(delete_later)
        with anyio.fail_after(10):
            seen.append((await execute(rig.term, waiting(targets, until="all")), rig.text()))
    [(code, shown)] = seen
    assert code == REFUSED and clock.now() - started <= CREATING + 30 + WAIT_POLL_SECONDS
    assert f"NOT_FOUND · {targets[1]}" in shown and "FINISHED after 32s" in shown
    assert f"(FINISHED {targets[0]}); not read: NOT_FOUND {targets[1]}." in shown.splitlines()[0]


async def test_an_agent_alone_means_its_latest_run(rig_factory: RigFactory) -> None:
    """Issue 24: `wait AGENT` waits on the agent's latest run."""
    world, targets = staggered(5)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, waiting([Target(targets[0].agent_id)]))
    assert code == OK and f"FINISHED after 7s · {targets[0]}" in rig.text()


async def test_active_waits_on_every_running_agent_and_none_running_is_said(rig_factory: RigFactory) -> None:
    """Issue 24: `--active` waits on the latest run of each running agent; with none running it says so, exit 0."""
    world, targets = staggered(20, 8)
    world.add_agent("Ended long ago", created_ago=3600)
    async with rig_factory(world) as rig:
        code = await execute(rig.term, waiting([], active=True, until="all"))
        shown = rig.text()
        again = await execute(rig.term, waiting([], active=True))
    assert code == OK and again == OK and "2 of 2 runs ended" in shown
    assert all(str(target) in shown for target in targets) and "No agent is running." in rig.text()


@pytest.mark.parametrize(
    ("targets", "active", "named"),
    [([], False, "at least one"), ([Target("bc-00000000-0000-4000-8000-000000000000")], True, "not both")],
)
async def test_usage_errors_exit_2_before_any_request(
    rig_factory: RigFactory, targets: list[Target], active: bool, named: str
) -> None:
    """Issue 24: nothing to wait on, or runs and --active together: exit 2, nothing read."""
    async with rig_factory() as rig:
        code = await execute(rig.term, waiting(targets, active=active))
        sent = rig.requests()
    assert code == USAGE and sent == [] and named in rig.errors()


async def test_more_runs_than_cursor_wait_takes_are_refused_before_any_request(rig_factory: RigFactory) -> None:
    """Issue 24: at most 20 runs, the bound of cursor_wait (its request budget); more exits 2, nothing read."""
    _, targets = staggered(5)
    async with rig_factory() as rig:
        code = await execute(rig.term, waiting(targets * 21))
        sent = rig.requests()
    assert code == USAGE and sent == [] and "at most 20 runs" in rig.errors()


async def test_under_a_pipe_nothing_but_the_report_is_written(rig_factory: RigFactory) -> None:
    """Issue 24: stdout not a terminal: no progress line and no control codes, only the report at the end."""
    world, targets = staggered(20)
    async with rig_factory(world) as rig:
        await execute(rig.term, waiting(targets))
        screen = rig.screen()
    assert "waiting for" not in screen and "\x1b" not in screen and "\r" not in screen
    assert screen.startswith("wait ended after 22s: 1 of 1 runs ended") and "\nFINISHED after 22s" in screen


async def test_on_a_terminal_one_progress_line_is_drawn_and_cleared_before_the_report(rig_factory: RigFactory) -> None:
    """Issue 24: stdout a terminal: one progress line (counts, time, how to stop) redrawn in place, gone once the
    report is printed."""
    world, targets = staggered(20)
    async with rig_factory(world, terminal=True) as rig:
        code = await execute(rig.term, waiting(targets))
        screen = rig.screen()
        text = rig.text()
    assert code == OK and "waiting for any of 1 runs: 0 ended" in screen and "Ctrl-C stops waiting" in screen
    assert "waiting for" not in text.rsplit("runs\n", 1)[-1] and "FINISHED after 22s" in text


async def test_json_is_one_document_with_each_run(rig_factory: RigFactory) -> None:
    """Issue 24: `--json` writes one document: how the wait ended and each run (status, seconds, branches, the
    result's head and its length, and the command that reads the rest when it was cut)."""
    world, targets = staggered(6, 3600, result="line one\nline two\n" + "x" * 1000)
    async with rig_factory(world, json_output=True) as rig:
        code = await execute(rig.term, waiting(targets))
        documents = rig.documents()
    assert code == OK and len(documents) == 1 and rig.text() == ""
    report = documents[0]
    assert report["met"] is True and report["timed_out"] is False and report["until"] == "any"
    ended, going = report["runs"]
    assert ended["status"] == "FINISHED" and ended["seconds"] == 8 and ended["result_chars"] == 1018
    assert ended["result_head"].startswith("line one\nline two\nxxx") and ended["result_head"].endswith("…")
    assert ended["read_rest"] == f"cursor-cloud-agents watch {targets[0].agent_id} {targets[0].run_id}"
    assert ended["branches"][0]["branch"].startswith("cursor/") and going == {
        "agent_id": targets[1].agent_id,
        "run_id": targets[1].run_id,
        "status": "RUNNING",
        "ended": False,
        "seconds": 10,
    }


async def test_the_result_head_is_a_few_lines_and_says_how_to_read_the_rest(rig_factory: RigFactory) -> None:
    """Issue 24: a long result shows its first lines, then how many characters are left and the command."""
    result = "\n".join(f"Paragraph {index}: done." for index in range(40))
    world, targets = staggered(5, result=result)
    async with rig_factory(world) as rig:
        await execute(rig.term, waiting(targets))
        shown = rig.text()
    assert "│ Paragraph 3: done." in shown and "Paragraph 4: done." not in shown
    assert f"more characters: cursor-cloud-agents watch {targets[0].agent_id} {targets[0].run_id}" in shown


async def test_escape_sequences_in_a_result_never_reach_the_report_p_20(rig_factory: RigFactory) -> None:
    """P-20: agent text in the report (result lines) is stripped of terminal escape sequences and markup is
    shown literally, on stdout as in JSON."""
    hostile = "Done \x1b]0;owned\x07\x1b[2J[bold red]fake[/] \x1b[31mred"
    world, targets = staggered(5, result=hostile)
    async with rig_factory(world) as rig:
        await execute(rig.term, waiting(targets))
        screen = rig.screen()
    assert "\x1b" not in screen and "\x07" not in screen and "Done [bold red]fake[/] red" in screen


async def test_twenty_runs_are_read_at_cursor_waits_cadence_within_the_clients_rate_l_10(
    rig_factory: RigFactory,
) -> None:
    """L-10: 20 runs waited on for 60 s: each round reads every run once, rounds WAIT_POLL_SECONDS apart, so
    the requests stay under the client's 10 per second, as cursor_wait's; each run's stream is opened once
    beside them."""
    world, targets = staggered(*([3600] * 20))
    async with rig_factory(world) as rig:
        started = rig.clock.now()
        code = await execute(rig.term, waiting(targets, timeout=60))
        gets = [record for record in rig.requests("GET") if "/runs/" in record.path]
    reads = [record for record in gets if not record.path.endswith("/stream")]
    assert code == TIMED_OUT
    assert len(gets) - len(reads) == 20, "each run's stream is opened once, to hear its end (issue 32)"
    assert len(gets) / 60 <= 10
    rounds = Counter(round((record.at - started) / WAIT_POLL_SECONDS) for record in reads)
    assert len(reads) <= 20 * (1 + 60 / WAIT_POLL_SECONDS) and max(rounds.values()) <= 20
    assert len(reads) / 60 <= 10
    per_run = Counter(record.path for record in reads)
    assert len(per_run) == 20 and max(per_run.values()) - min(per_run.values()) <= 1
