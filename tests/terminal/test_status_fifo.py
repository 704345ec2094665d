"""The status line's cache never blocks on a FIFO (issue 21's class, in its neighbour): F-42.

The store of paid acts and the recording folder refuse a FIFO where their file belongs; the `status`
cache and its lock, read by a status bar on every redraw, now do too (`regularfile.open_regular`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from cursor_cloud_agents import statuscache


def returns_at_once(work: Callable[[], object]) -> bool:
    """Whether `work()` returns (or raises) within 5 s, run in a thread so that a hang cannot hold the test."""
    done = threading.Event()

    def run() -> None:
        try:
            work()
        except OSError:
            pass
        done.set()

    threading.Thread(target=run, daemon=True).start()
    return done.wait(5)


def test_a_fifo_where_the_status_cache_belongs_reads_as_no_cache_at_once(tmp_path: Path) -> None:
    """F-42: `read` on a FIFO blocked the status line until a writer came; it is now no cache, at once."""
    os.mkfifo(tmp_path / statuscache.FILE_NAME)
    found: list[object] = []
    assert returns_at_once(lambda: found.append(statuscache.read(tmp_path)))
    assert found == [None]


def test_a_fifo_where_the_status_lock_belongs_is_refused_at_once(tmp_path: Path) -> None:
    """F-42: the refresh lock on a FIFO raises at once instead of waiting."""
    os.mkfifo(tmp_path / statuscache.LOCK_NAME)

    def take() -> None:
        with statuscache.locked(tmp_path):
            pass

    with pytest.raises(OSError):
        take()
    assert returns_at_once(take)
