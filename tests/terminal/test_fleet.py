"""`fleet`: rows ordered by what needs the person, runs ended while watching marked unread, refreshes within budget."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import AgentSummary, Run
from cursor_cloud_agents.simulator import ManualClock, RunScript, World, build_scenario
from cursor_cloud_agents.terminal.board import LONG_IDLE_SECONDS, Board, FleetRow, attention, ordered
from cursor_cloud_agents.terminal.fleet import draw, fleet
from tests.terminal.conftest import RigFactory, recording_console


def row(
    name: str, status: str, *, idle: int | None = None, unread: bool = False, problem: str | None = None
) -> FleetRow:
    agent = AgentSummary(id=f"bc-{name}", name=name, status="ACTIVE", latest_run_id="run-1")
    found = FleetRow(agent, run=Run(id="run-1", status=status), read_error=problem, ended_while_open=unread)
    found.idle_seconds = idle
    return found


def test_rows_needing_attention_come_first_errors_then_long_idle_then_finished_unread() -> None:
    """Issue 14: sorted by what needs attention (errors, long idle, finished unread), then the rest."""
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
    assert [attention(found)[1] for found in ordered(rows)][:5] == ["error"] * 2 + ["long idle"] * 2 + [
        "finished, unread"
    ]


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
