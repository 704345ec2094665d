"""Tools are plain module-level functions, declared beside themselves (`server/pipeline/declaration.py`)."""

from __future__ import annotations

import importlib
from pathlib import Path

from cursor_cloud_agents.server.pipeline.state import ServerState
from cursor_cloud_agents.server.pipeline.toolcall import ToolCall
from cursor_cloud_agents.server.tools import CATALOGUE

TOOLS = Path(__file__).parents[3] / "src" / "cursor_cloud_agents" / "server" / "tools"
TASKS = TOOLS.parent / "protocol" / "tasks.py"


def test_every_tool_is_a_module_level_function_importable_by_its_name() -> None:
    """A test (or a reader) finds each tool by name in its module, as the catalogue lists it."""
    for spec in CATALOGUE.specs:
        module = importlib.import_module(spec.fn.__module__)
        assert getattr(module, spec.name) is spec.fn


def test_what_a_tool_asks_for_by_type_is_handed_in_and_left_out_of_its_schema() -> None:
    """The state and the call are the toolkit's to give: the model never sees them as arguments."""
    wait = next(spec for spec in CATALOGUE.specs if spec.name == "cursor_wait")
    assert wait.arguments.injected() == {"state": ServerState, "call": ToolCall}
    for spec in CATALOGUE.specs:
        properties = spec.arguments.schema().get("properties", {})
        assert "state" not in properties and "call" not in properties


def test_the_waiting_tools_say_so_in_their_declaration_and_tasks_name_no_tool() -> None:
    """Which calls may become tasks is the tools' own fact; the task machinery knows no tool by name."""
    waiting = {spec.name for spec in CATALOGUE.specs if spec.task is not None}
    assert waiting == {"cursor_wait", "cursor_get_run", "cursor_read_run_events"}
    specs = {spec.name: spec for spec in CATALOGUE.specs}
    assert specs["cursor_get_run"].may_become_task({"wait_seconds": 5})
    assert not specs["cursor_get_run"].may_become_task({"wait_seconds": 0})
    assert not specs["cursor_read_run_events"].may_become_task({"tail": 5})
    tasks = TASKS.read_text()
    assert [name for name in specs if name in tasks] == []


def test_no_tool_module_looks_up_the_call_in_progress_or_registers_a_closure() -> None:
    """A tool takes its call as a parameter: no ambient look-up, no `register(kit, state)` closures."""
    for path in TOOLS.glob("*.py"):
        source = path.read_text()
        assert "current_call" not in source and "def register" not in source, path.name
