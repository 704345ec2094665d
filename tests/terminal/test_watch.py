"""`watch`: a whole run rendered once, resumed after a cut without duplicates, agent escapes stripped, JSON lines."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import GenericEvent
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, ScriptedToolCall, World
from cursor_cloud_agents.terminal.exits import OK, REFUSED
from cursor_cloud_agents.terminal.runview import event_document
from cursor_cloud_agents.terminal.watch import watch
from tests.terminal.conftest import RigFactory

pytestmark = pytest.mark.anyio

TEXT = "I will read the code first. Then I change the parser! Does it pass? It does."
SENTENCES = ["I will read the code first.", "Then I change the parser!", "Does it pass?", "It does."]
TOOLS = (
    ScriptedToolCall("read_file", {"path": "src/parser.py"}, {"success": {"content": "x"}}),
    ScriptedToolCall("run_terminal_cmd", {"command": "pytest -q"}, {"error": {"message": "1 failed"}}),
)
SCRIPT = RunScript(text=TEXT, tool_calls=TOOLS, running_seconds=60.0, result="Fixed the parser; tests pass.")


def one_agent(script: RunScript, created_ago: float) -> tuple[World, str, str]:
    world = World(ManualClock())
    agent = world.add_agent("Fix the parser", script=script, created_ago=created_ago, auto_create_pr=True)
    return world, agent.id, agent.runs[-1].id


async def test_watching_a_whole_run_shows_text_tool_calls_summary_and_result_once(rig_factory: RigFactory) -> None:
    """Issue 14: the text as sentences, one line per tool call with its outcome, thinking in one line, the
    summary, then the result, branch and PR; each sentence exactly once."""
    world, agent_id, _ = one_agent(SCRIPT, created_ago=10.0)
    async with rig_factory(world) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=None))
        shown = rig.text()
    assert code == OK
    for sentence in [*SENTENCES, "Fixed the parser; tests pass."]:
        assert shown.count(sentence) == 1 + (sentence.startswith("Fixed"))  # the result: streamed, then the end
    assert "✓ read_file src/parser.py" in shown and "✗ run_terminal_cmd pytest -q" in shown
    assert "thinking: Let me read the repository" in shown
    assert "Summary: Read the repository and made the requested change." in shown
    assert shown.index("● RUNNING") < shown.index(SENTENCES[0]) < shown.index("result") < shown.index("PR ")
    assert "FINISHED after 1m" in shown and "https://github.com/your-org/your-repo/pull/" in shown


async def test_a_slow_live_run_still_reads_as_whole_sentences(rig_factory: RigFactory) -> None:
    """Issue 14: live fragments minutes apart, with heartbeats between them, never cut a sentence."""
    world, agent_id, _ = one_agent(RunScript(text=TEXT, running_seconds=900.0), created_ago=5.0)
    async with rig_factory(world) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=None), step=7.0)
        lines = rig.text().splitlines()
    assert code == OK
    assert all(sentence in lines for sentence in SENTENCES)
    assert "thinking: Let me read the repository before changing anything." in lines


async def test_a_stream_cut_mid_run_resumes_without_duplicates(rig_factory: RigFactory) -> None:
    """Issue 14: after a dropped connection `watch` says so, resumes with Last-Event-ID and prints no frame twice."""
    world, agent_id, run_id = one_agent(SCRIPT, created_ago=30.0)
    faults = Faults()
    faults.inject("GET", "/v1/agents/*/runs/*/stream", Fault.cut_mid_body(after_bytes=900), times=2)
    async with rig_factory(world, faults=faults) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=run_id), step=2.0)
        shown, notices = rig.text(), rig.errors()
        streams = [r for r in rig.requests("GET") if r.path.endswith("/stream")]
    assert code == OK
    assert notices.count("resuming after event") == 2
    assert len(streams) == 3 and streams[0].headers.get("last-event-id") is None
    assert all(r.headers.get("last-event-id") for r in streams[1:])
    for sentence in SENTENCES:
        assert shown.count(sentence) == 1
    assert shown.count("✓ read_file") == 1 and shown.count("Summary:") == 1


async def test_escape_sequences_in_the_agent_text_never_reach_the_terminal(rig_factory: RigFactory) -> None:
    """Issue 14: ANSI and OSC sequences in what an agent writes arrive stripped; markup shows as written."""
    hostile = "Done.\x1b[2J\x1b]0;owned\x07 See [red]this[/red].\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\"
    script = RunScript(
        text=hostile, tool_calls=(ScriptedToolCall("\x1b[1Aedit", {"path": "\x9b2Ja.py"}),), result=hostile
    )
    world, agent_id, _ = one_agent(script, created_ago=3600.0)
    async with rig_factory(world) as rig:
        await rig.drive(watch(rig.term, agent_id=agent_id, run_id=None))
        shown = rig.text()
    assert "\x1b" not in shown and "\x9b" not in shown and "owned" not in shown and "evil" not in shown
    assert "See [red]this[/red]." in shown and "✓ edit a.py" in shown


async def test_watch_json_is_one_parseable_line_per_event_ending_with_the_run(rig_factory: RigFactory) -> None:
    """Issue 14: `--json` gives JSON lines for a stream: events, then the run's last read."""
    world, agent_id, run_id = one_agent(SCRIPT, created_ago=3600.0)
    async with rig_factory(world, json_output=True) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=run_id))
        lines = rig.documents()
    assert code == OK and rig.text() == ""
    types = [line["type"] for line in lines]
    assert types[0] == "status" and types[-1] == "end" and lines[-1]["run"]["status"] == "FINISHED"
    assert {"assistant", "thinking", "tool_call", "summary", "usage", "result"} <= set(types)
    assert "heartbeat" not in types and "interaction_update" not in types


async def test_watch_json_on_a_terminal_draws_nothing_between_its_lines(rig_factory: RigFactory) -> None:
    """Regression: with `--json` stdout carries JSON lines only, even on a terminal: no live status line."""
    world, agent_id, run_id = one_agent(SCRIPT, created_ago=3600.0)
    async with rig_factory(world, json_output=True, terminal=True) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=run_id))
        screen = rig.screen()
    assert code == OK and screen == "" and rig.documents()[-1]["type"] == "end"


async def test_a_run_that_ended_in_error_exits_1(rig_factory: RigFactory) -> None:
    """Exit codes: a run that did not finish is a failure a script can see (1)."""
    world, agent_id, _ = one_agent(RunScript(outcome="ERROR"), created_ago=3600.0)
    async with rig_factory(world) as rig:
        code = await rig.drive(watch(rig.term, agent_id=agent_id, run_id=None))
    assert code == REFUSED and "ERROR" in rig.text()


def test_an_event_of_a_type_nobody_knows_yet_keeps_its_own_name_in_watch_json() -> None:
    """S-08 (unknown event types are kept): `watch --json` names such an event by its SSE name, not "message"."""
    frame = {"name": "brand_new", "data": '{"x":1}', "eventId": "1700000000000-0"}
    document = event_document(GenericEvent.model_validate(frame))
    assert document == {"type": "brand_new", "id": "1700000000000-0", "name": "brand_new", "data": '{"x":1}'}
