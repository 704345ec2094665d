"""Reading single key presses (the dashboard's `q`) from a terminal without waiting for Enter.

The terminal is put in cbreak mode only while the block runs and always restored. Keys are read
when the event loop says stdin is readable, so no thread is left blocked on a read at exit.
"""

from __future__ import annotations

import os
import sys
import termios
import tty
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager

import anyio

QUIT_KEYS = frozenset("qQ")


async def _until_quit(fd: int, quit_: anyio.Event) -> None:
    while True:
        await anyio.wait_readable(fd)
        pressed = os.read(fd, 32).decode("utf-8", "replace")
        if not pressed or QUIT_KEYS & set(pressed):
            quit_.set()
            return


@asynccontextmanager
async def quit_key(enabled: bool) -> AsyncGenerator[anyio.Event, None]:
    """An event set when `q` is pressed on stdin (never, when not `enabled`: no terminal to read)."""
    quit_ = anyio.Event()
    if not enabled:
        yield quit_
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_until_quit, fd, quit_)
            yield quit_
            group.cancel_scope.cancel()
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
