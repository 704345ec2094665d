"""Recordings replayed through the one guarded path (issue 34): F-82.

`simulate --replay DIR` read each `trace-*.jsonl` with `read_text()`: a FIFO named like a trace file held it
for ever, a folder raised IsADirectoryError, and a line of any size was held whole. Each load runs in a
thread of its own here, so that the old hang fails in 2 s instead of holding the test.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from cursor_cloud_agents.simulator import replay
from cursor_cloud_agents.simulator.replay import TraceError, load_trace


def loaded_within_2s(directory: Path) -> object:
    """What `load_trace` returns or raises, or AssertionError when it still reads after 2 s."""
    found: list[object] = []

    def run() -> None:
        try:
            found.append(load_trace(directory))
        except Exception as exc:  # handed back to the test
            found.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(2)
    assert found, "still reading after 2 s"
    return found[0]


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_trace_file_that_is_not_a_regular_file_is_refused_at_once_naming_it(tmp_path: Path, kind: str) -> None:
    """F-82: a TraceError naming the file and what to replay instead, within 2 s."""
    path = tmp_path / "trace-0001.jsonl"
    os.mkfifo(path) if kind == "fifo" else path.mkdir()
    found = loaded_within_2s(tmp_path)
    assert isinstance(found, TraceError) and str(path) in str(found) and "--record" in str(found)


def test_a_trace_line_past_its_bound_is_refused_without_being_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F-82: a line longer than MAX_TRACE_LINE_BYTES is refused by its number, not parsed whole."""
    monkeypatch.setattr(replay, "MAX_TRACE_LINE_BYTES", 1024)
    (tmp_path / "trace-0001.jsonl").write_text("x" * 4096 + "\n")
    found = loaded_within_2s(tmp_path)
    assert isinstance(found, TraceError) and "line 1 is over 1024 bytes" in str(found)
