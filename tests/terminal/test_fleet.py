"""`fleet`: rows ordered by what needs the person, runs ended while watching marked unread, refreshes within budget."""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.api import AgentSummary, Evidence, Run
from cursor_cloud_agents.core.runs.activity import ActivitySummary
from cursor_cloud_agents.core.timing import REPLAY_LISTEN_SECONDS, REPLAY_QUIET_SECONDS
from cursor_cloud_agents.simulator import ManualClock, Quirks, RunScript, ScriptedToolCall, World, build_scenario
from cursor_cloud_agents.terminal.board import LONG_IDLE_SECONDS, Board, BoardRow, attention, ordered
from cursor_cloud_agents.terminal.fleet import draw, fleet
from tests.clock import FAST_SILENCES
from tests.terminal.conftest import RigFactory, recording_console


def replayed(evidence: Evidence | None, silence: float | None = None) -> ActivitySummary:
    """An activity summary whose replay walk ended on `evidence` (a silence `silence` seconds long)."""
    summary = ActivitySummary(
        last_event_at=None,
        last_text=None,
        last_text_clipped=None,
        last_tool=None,
        background_tasks=None,
        unfinished_background_tasks=None,
        summarized=None,
        stream_error=None,
        complete=evidence is not None,
        scanned_events=10,
    )
    return summary.model_copy(update={"evidence": evidence, "silence_seconds": silence})


def row(
    name: str,
    status: str,
    *,
    idle: int | None = None,
    unread: bool = False,
    problem: str | None = None,
    activity: ActivitySummary | None = None,
) -> BoardRow:
    agent = AgentSummary(id=f"bc-{name}", name=name, status="ACTIVE", latest_run_id="run-1")
    found = BoardRow(agent, run=Run(id="run-1", status=status), read_error=problem, ended_while_open=unread)
    found.idle_seconds = idle
    found.activity = activity if activity is not None else replayed("heartbeat")
    return found


def test_rows_needing_attention_come_first_errors_then_stuck_then_finished_unread() -> None:
    """Issue 14: sorted by what needs attention (errors, stuck, finished unread), then the rest."""
    rows = [
        row("busy", "RUNNING", idle=5),
        row("done", "FINISHED", unread=True),
        row("stuck", "RUNNING", idle=int(LONG_IDLE_SECONDS) + 60),
        row("unreadable", "RUNNING", problem="UPSTREAM"),
        row("stuck-longer", "RUNNING", idle=int(LONG_IDLE_SECONDS) * 3),
        row("failed", "ERROR"),
        row("busier", "RUNNING", idle=50),
    ]
    names = [found.agent.name for found in ordered(rows)]
    assert names == ["unreadable", "failed", "stuck-longer", "stuck", "done", "busier", "busy"]
    assert [attention(found)[1] for found in ordered(rows)][:5] == ["error"] * 2 + ["stuck"] * 2 + ["finished, unread"]


def test_a_long_idle_run_is_stuck_only_when_its_replay_was_decided_past_a_pause() -> None:
    """SL-26: the dashboard's "stuck" follows the rule of `stale`: the idle time of a replay that ended on the
    short silence (a pause inside its burst may hide newer events), or was cut, does not make a run stuck;
    a silence past the longest pause, or the heartbeat, does."""
    idle = int(LONG_IDLE_SECONDS) * 3
    verdicts = {
        label: attention(row(label, "RUNNING", idle=idle, activity=activity))[1]
        for label, activity in {
            "short silence": replayed("silence", REPLAY_QUIET_SECONDS),
            "cut": replayed(None),
            "listened": replayed("silence", REPLAY_LISTEN_SECONDS),
            "heartbeat": replayed("heartbeat"),
        }.items()
    }
    assert verdicts == {"short silence": "running", "cut": "running", "listened": "stuck", "heartbeat": "stuck"}


@pytest.mark.anyio
async def test_a_run_ending_while_the_dashboard_is_open_is_shown_finished_unread(rig_factory: RigFactory) -> None:
    """Issue 14: a run that ends between two refreshes stays on the dashboard, marked unread."""
    world = World(ManualClock())
    world.add_agent("Ends soon", script=RunScript(running_seconds=40.0), created_ago=10.0)
    world.add_agent("Long ago", created_ago=7200.0)
    async with rig_factory(world) as rig:
        board = Board(rig.session, interval=10.0)
        await rig.drive(board.refresh())
        first = [(found.agent.name, attention(found)[1]) for found in board.shown()]
        rig.clock.advance(120.0)
        await rig.drive(board.refresh())
        second = [(found.agent.name, attention(found)[1]) for found in board.shown()]
    assert first == [("Ends soon", "running")]
    assert second == [("Ends soon", "finished, unread")]


def test_a_queued_run_is_active_and_shown_as_running() -> None:
    """Regression: a run waiting in Cursor's queue (QUEUED) is active like CREATING and RUNNING."""
    queued = row("waiting", "QUEUED")
    assert queued.active and attention(queued) == (3, "running")


@pytest.mark.anyio
async def test_an_agent_archived_or_deleted_while_the_dashboard_is_open_leaves_it(rig_factory: RigFactory) -> None:
    """Regression: a refresh forgets the agents the list no longer has, so they leave the dashboard and its counts."""
    world = World(ManualClock())
    archived = world.add_agent("Archived later", script=RunScript(running_seconds=3600.0), created_ago=10.0)
    deleted = world.add_agent("Deleted later", script=RunScript(running_seconds=3600.0), created_ago=10.0)
    world.add_agent("Stays", script=RunScript(running_seconds=3600.0), created_ago=10.0)
    async with rig_factory(world) as rig:
        board = Board(rig.session, interval=10.0)
        await rig.drive(board.refresh())
        before = sorted(found.agent.name or "" for found in board.shown())
        world.archive(archived.id)
        world.delete(deleted.id)
        await rig.drive(board.refresh())
        after = [found.agent.name for found in board.shown()]
    assert before == ["Archived later", "Deleted later", "Stays"]
    assert after == ["Stays"] and list(board.rows) == [found.agent.id for found in board.shown()]


@pytest.mark.anyio
async def test_a_run_ending_while_the_dashboard_is_open_gets_its_cost_once_cursor_reports_it(
    rig_factory: RigFactory,
) -> None:
    """Regression: the cost of a run that ended between refreshes is read after its end, until Cursor reports
    it (the cost lags the end), instead of never."""
    world = World(ManualClock())
    world.add_agent("Ends soon", script=RunScript(running_seconds=40.0, cost_cents=(20.0, 23.4)), created_ago=10.0)
    async with rig_factory(world) as rig:
        board = Board(rig.session, interval=10.0)
        await rig.drive(board.refresh())
        running = board.shown()[0].charged_cents
        for _ in range(8):
            rig.clock.advance(10.0)
            await rig.drive(board.refresh())
        (ended,) = board.shown()
    assert running is None and attention(ended)[1] == "finished, unread" and ended.charged_cents == 23.4


@pytest.mark.anyio
async def test_a_refresh_of_the_500_agent_fleet_reads_only_what_can_change(rig_factory: RigFactory) -> None:
    """Issue 14: after the first full read, a refresh reads the list, the active runs and what its budget allows."""
    world = build_scenario("fleet", ManualClock())
    async with rig_factory(world) as rig:
        board = Board(rig.session, interval=10.0)
        await rig.drive(board.refresh())
        before = len(rig.requests())
        rig.clock.advance(10.0)
        await rig.drive(board.refresh())
        second = len(rig.requests()) - before
        console = recording_console()
        console.print(draw(board))
    active = sum(1 for found in board.rows.values() if found.active)
    assert board.listed == 480 and active == 50
    assert second <= board.budget + 5  # five list pages, then the budget
    assert "480 agents · 50 active" in console.export_text()


@pytest.mark.anyio
async def test_fleet_json_is_one_document_of_the_shown_rows(rig_factory: RigFactory) -> None:
    """Issue 14: `--json` gives one parseable document."""
    world = build_scenario("demo", ManualClock())
    async with rig_factory(world, json_output=True) as rig:
        code = await rig.drive(fleet(rig.term, interval=10.0))
        documents = rig.documents()
    assert code == 0 and len(documents) == 1
    statuses = {found["status"] for found in documents[0]["agents"]}
    assert "RUNNING" in statuses and "ERROR" in statuses


@pytest.mark.anyio
async def test_the_dashboard_listens_to_a_quiet_run_past_a_pause_before_calling_it_stuck(
    rig_factory: RigFactory,
) -> None:
    """SL-26: a run whose last event is three hours old and whose stream stays quiet (its heartbeat has not come:
    the clock does not move) is listened to past the longest pause and shown stuck, first; one moving is not."""
    calls = tuple(ScriptedToolCall("read_file", {"path": f"src/module_{index}.py"}) for index in range(20))
    world = World(ManualClock(), quirks=Quirks(heartbeat_first_seconds=30.0))
    stuck = RunScript(running_seconds=36_000.0, events_seconds=60.0, tool_calls=calls, summary=None)
    world.add_agent("Moving", script=RunScript(running_seconds=3600.0, tool_calls=calls * 20), created_ago=600.0)
    world.add_agent("Stuck", script=stuck, created_ago=3 * 3600.0 + 62.0)
    async with rig_factory(world, json_output=True, silence_scale=FAST_SILENCES) as rig:
        board = Board(rig.session, interval=10.0)
        with anyio.fail_after(20):
            await board.refresh(whole=True)
        shown = [(found.agent.name, attention(found)[1]) for found in board.shown()]
        evidence = {found.agent.name: found.document()["silence_seconds"] for found in board.shown()}
    assert shown == [("Stuck", "stuck"), ("Moving", "running")]
    assert evidence == {"Stuck": REPLAY_LISTEN_SECONDS, "Moving": REPLAY_QUIET_SECONDS}
