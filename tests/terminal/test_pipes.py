"""Issue 46: a reader that went away (`diff | head -1`) ends every command with 141, as SIGPIPE would; ids whole.

Rich's console answered a closed pipe with exit 1, which a script cannot tell from a failure. The spawned
command reads the simulator's large change (3.5 MB of diff) in a world of its own (`CURSOR_MCP_STATE_DIR=memory`);
its output is read one line and the pipe closed, every wait bounded.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from cursor_cloud_agents.api import AgentSummary
from cursor_cloud_agents.terminal.agents import AgentLine, table
from cursor_cloud_agents.terminal.pipes import PipeConsole

LARGE_CHANGE_AGENT = "bc-38c1962e-9148-424f-aac1-c14f30e9c5cc"
"""The `changes` world's agent whose run pushed a change of several megabytes."""


@pytest.mark.parametrize("json_output", [False, True], ids=["text", "json"])
def test_diff_into_a_closed_pipe_exits_141_k_16(tmp_path: Path, json_output: bool) -> None:
    """K-16: `diff AGENT | head -1`: the reader closes after one line; the command exits 141, saying nothing."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "HOME": str(tmp_path), "TMPDIR": str(tmp_path)}
    env |= {"CURSOR_MCP_STATE_DIR": "memory"}
    args = [sys.executable, "-m", "cursor_cloud_agents", "diff", LARGE_CHANGE_AGENT, "--simulated"]
    args += ["--scenario", "changes", *(["--json"] if json_output else [])]
    with subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.read(1 if json_output else 80)
        process.stdout.close()
        try:
            code = process.wait(timeout=60)
        finally:
            process.kill()
        said = process.stderr.read().decode()
    assert first and code == 141, (code, said)
    assert "Traceback" not in said


def test_a_pipe_console_hands_a_closed_pipe_on_k_16() -> None:
    """K-16: our console raises BrokenPipeError (for 141) where rich's own exits 1."""
    with pytest.raises(BrokenPipeError):
        PipeConsole(file=io.StringIO()).on_broken_pipe()


def test_the_agents_table_shows_each_id_whole_on_one_line_at_80_columns_k_17() -> None:
    """K-17: at 80 columns, `agents` prints each agent id whole on one line (what watch, diff, keep take)."""
    agent_id = "bc-ea7e9d49-8c77-4ea6-ab20-83e6ce164dba"
    summary = AgentSummary.model_validate(
        {
            "id": agent_id,
            "name": "Run the nightly benchmark with a long name that wraps",
            "status": "ACTIVE",
            "createdAt": "2026-10-06T12:00:00Z",
            "updatedAt": "2026-10-06T12:00:00Z",
            "url": f"https://cursor.com/agents/{agent_id}",
        }
    )
    console = Console(file=io.StringIO(), width=80, color_system=None, record=True)
    console.print(table([AgentLine(summary)], 1_791_288_000.0))
    assert any(agent_id in line for line in console.export_text().splitlines())
