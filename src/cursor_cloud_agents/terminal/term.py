"""What a terminal command works with: its consoles, the API session, the clock, and how to ask the person.

Commands never touch `sys.stdout`, the environment or the wall clock themselves: the dispatcher
builds a `Term` from the real ones, tests build one from a recording console, the simulator on its
manual clock and a scripted answer. Human output goes to `out` (rich); JSON goes through `emit`. Every
output is masked with the one redactor: the consoles write through `MaskedStream` (rich writes each
print and each redraw whole), `emit` masks its line, `notice` its text before it is laid out.
"""

from __future__ import annotations

import io
import json
import time
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, cast

import anyio
from rich.console import Console

from cursor_cloud_agents.api import CursorClient
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.terminal.ask import ask_on_terminal
from cursor_cloud_agents.terminal.clean import agent_text, for_terminal_data


@dataclass(frozen=True)
class Session:
    """An open API client and the clock its world runs on (the simulator's, when simulated)."""

    api: CursorClient
    now: Callable[[], float] = time.time
    sleep: Callable[[float], Awaitable[None]] = anyio.sleep
    git_config: tuple[tuple[str, str], ...] = ()
    """Git settings for this session's git only (simulated: the stand-in remote's)."""
    git_cache: Path | None = None
    """Where this session caches repositories (None: under CURSOR_MCP_STATE_DIR)."""
    github_url: str | None = None
    """GitHub's stand-in beside a simulated API (None: `GITHUB_API_URL`)."""
    base_url: str | None = None
    """The API origin this session's paid acts are counted under, when not the settings' (the lasting simulated
    world's own, `lasting.py`: its counts are never the real API's, core/spend/origins.py)."""

    def settings_for(self, settings: Settings) -> Settings:
        """`settings` as this session's acts are counted under (its own origin, when it has one)."""
        return settings if self.base_url is None else replace(settings, base_url=self.base_url)


OpenSession = Callable[[], AbstractAsyncContextManager[Session]]


class MaskedStream(io.TextIOBase):
    """A text stream that masks secrets in whatever is written to it, before it reaches `stream`."""

    def __init__(self, stream: IO[str], mask: Callable[[str], str]) -> None:
        super().__init__()
        self.stream = stream
        self.mask = mask

    def writable(self) -> bool:
        return True

    def write(self, s: str, /) -> int:
        return self.stream.write(self.mask(s))

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # pyright: ignore[reportIncompatibleVariableOverride]  # rich picks its glyphs by it
        return str(getattr(self.stream, "encoding", None) or "utf-8")


def say(console: Console, mask: Callable[[str], str], text: str, style: str) -> None:
    """One line of API or failure text for the person: masked, cleaned of escapes, never parsed as markup."""
    console.print(agent_text(mask(text), style), highlight=False, soft_wrap=True)


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
    ask: Callable[[str], str] = ask_on_terminal
    redactor: Redactor = field(default_factory=Redactor)
    come_back: str | None = None
    """What Ctrl-C prints: how to find the work again (set by the command that knows)."""

    def __post_init__(self) -> None:
        for console in (self.out, self.err):
            if not isinstance(console.file, MaskedStream):
                # `IO[str]` is what rich's setter declares; it uses write, flush, isatty, fileno and encoding.
                console.file = cast(IO[str], MaskedStream(console.file, self.redactor.mask))

    def emit(self, document: Any) -> None:
        """One JSON document (or one line of a JSON-lines stream), agent text cleaned, secrets masked."""
        text = json.dumps(for_terminal_data(document), ensure_ascii=False, separators=(",", ":"))
        self.write(self.redactor.mask(text) + "\n")

    def notice(self, text: str, style: str = "dim") -> None:
        """A line for the person on stderr (never in a JSON stream)."""
        say(self.err, self.redactor.mask, text, style)


def fixed_session(session: Session) -> OpenSession:
    """A session opener that hands out an already open session (tests, benches)."""

    @asynccontextmanager
    async def borrow() -> AsyncGenerator[Session, None]:
        yield session

    return borrow
