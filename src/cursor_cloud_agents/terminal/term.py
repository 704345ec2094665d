"""What a terminal command works with: its consoles, the API session, the clock, and how to ask the person.

Commands never touch `sys.stdout`, the environment or the wall clock themselves: the dispatcher
builds a `Term` from the real ones, tests build one from a recording console, the simulator on its
manual clock and a scripted answer. Human output goes to `out` (rich); JSON goes through `emit`.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import anyio
from rich.console import Console

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.clean import for_terminal_data


@dataclass(frozen=True)
class Session:
    """An open API client and the clock its world runs on (the simulator's, when simulated)."""

    api: CursorClient
    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep


OpenSession = Callable[[], AbstractAsyncContextManager[Session]]


@dataclass
class Term:
    """One command's surroundings."""

    settings: Settings
    open_session: OpenSession
    out: Console
    """Human output (stdout)."""
    err: Console
    """Notices and errors (stderr)."""
    write: Callable[[str], object]
    """Raw stdout, for JSON."""
    json: bool = False
    interactive: bool = False
    """Whether stdin is a terminal a question can be asked on."""
    ask: Callable[[str], str] = input
    redactor: Redactor = field(default_factory=Redactor)
    come_back: str | None = None
    """What Ctrl-C prints: how to find the work again (set by the command that knows)."""

    def emit(self, document: Any) -> None:
        """One JSON document (or one line of a JSON-lines stream), agent text cleaned, secrets masked."""
        text = json.dumps(for_terminal_data(document), ensure_ascii=False, separators=(",", ":"))
        self.write(self.redactor.mask(text) + "\n")

    def notice(self, text: str, style: str = "dim") -> None:
        """A line for the person on stderr (never in a JSON stream)."""
        self.err.print(self.redactor.mask(text), style=style, markup=False, highlight=False, soft_wrap=True)


def fixed_session(session: Session) -> OpenSession:
    """A session opener that hands out an already open session (tests, benches)."""

    @asynccontextmanager
    async def borrow() -> AsyncGenerator[Session, None]:
        yield session

    return borrow
