"""A FIFO in the recording folder never holds a call (issue 21): the recording stops, the call answers.

F-42: opening a FIFO for writing blocked until a reader came, so every call that recorded hung.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from cursor_cloud_agents.api.record import Exchange, Recorder


def test_a_fifo_where_a_trace_file_belongs_stops_the_recording_at_once(tmp_path: Path) -> None:
    """F-42: the write returns at once (checked from a thread with a bound), the recording stops, no file."""
    recorder = Recorder(tmp_path, mask=lambda text: text, wall_clock=lambda: 0.0)
    os.mkfifo(tmp_path / f"{recorder._prefix}-0001.jsonl")  # pyright: ignore[reportPrivateUsage]  # the name it will use
    exchange = Exchange("GET", "/v1/me", {}, None, 200, {}, b"{}")
    done = threading.Event()

    def write() -> None:
        recorder.exchange(exchange)
        done.set()

    threading.Thread(target=write, daemon=True).start()
    assert done.wait(5), "the recorder blocked on a FIFO"
    recorder.exchange(exchange)  # stopped: nothing more is tried
