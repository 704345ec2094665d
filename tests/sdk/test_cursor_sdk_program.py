"""A program written for Cursor's `cursor-sdk` 1.1.0 runs against this SDK with only its import line changed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.sdk.mockapi import ASSISTANT_PIECES, KEY, RESULT_TEXT, mock_api

PROGRAM = Path(__file__).with_name("cursor_sdk_program.py")
THEIRS = "from cursor_sdk import ("
OURS = "from cursor_cloud_agents.sdk import ("


def ported(text: str) -> str:
    """The program with its import line changed, and nothing else (the test fails if that is not so)."""
    lines = text.splitlines(keepends=True)
    changed = [line.replace(THEIRS, OURS) if line.startswith(THEIRS) else line for line in lines]
    assert sum(a != b for a, b in zip(lines, changed, strict=True)) == 1
    return "".join(changed)


def test_a_cursor_sdk_program_runs_with_only_its_import_line_changed_k_40(tmp_path: Path) -> None:
    """K-40: the program (options mapping, `model` as a mapping and a `ModelSelection`, `{"text": ...}`, lowercase
    statuses, `run.text()`, the stream's content blocks, `run.iter_text()`, `Cursor.models.list()`,
    `Cursor.me(api_key=...)`, the error classes) runs in a process of its own against a hand-made API on loopback
    and does each step as Cursor's SDK documents it.

    About 2 s: a fresh interpreter imports the SDK, as a program run from the shell does (the point of the test:
    nothing of this test's process, no fixture, no injected clock, reaches the program)."""
    program = tmp_path / "program.py"
    program.write_text(ported(PROGRAM.read_text()))
    with mock_api() as api:
        environment = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(tmp_path),
            "CURSOR_API_KEY": KEY,
            "CURSOR_API_BASE_URL": api.base_url,
            "PYTHONPATH": os.pathsep.join(sys.path),
        }
        done = subprocess.run(  # our own interpreter, on the file this test wrote
            [sys.executable, str(program)], env=environment, capture_output=True, text=True, timeout=60, check=False
        )
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[0] == "models: composer-2, gpt-5"
    assert said[1].startswith("busy: A run of this agent is still active.") and "run.cancel()" in said[1]
    assert said[2:] == [
        f"finished: {RESULT_TEXT}",
        f"text: {RESULT_TEXT}",
        f"streamed: {''.join(ASSISTANT_PIECES)} | {''.join(ASSISTANT_PIECES)}",
        "follow-up: finished",
        f"prompt: finished {RESULT_TEXT}",
        "not found: AgentNotFoundError",
        "refused: AuthenticationError True",
    ]
    assert api.count("POST /v1/agents") == 2 and api.count("POST /v1/agents/*") == 2  # one busy refusal, one sent
    assert "cursor_" not in done.stdout and "MCP" not in done.stdout
