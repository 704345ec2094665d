"""What the core needs of the call in progress, handed in by the face that serves it.

The MCP toolkit implements `Call` for a tool call (its deadline, MCP progress, elicitation, the client's
roots); the terminal implements it for a command (its own deadline, a progress line, a question at the
prompt, the working directory). The core never looks the call up itself: whatever needs one takes it as
an argument, so a reader sees what a function may do with the person by its signature.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from cursor_cloud_agents.core.timing import CallTime


@dataclass(frozen=True)
class Question:
    """A yes/no question for the person; `key` names it on the wire and must be stable across rounds."""

    key: str
    message: str

    @property
    def act(self) -> str:
        """The act it asks about, as `CURSOR_MCP_ASK` names it (`confirm_delete` asks about `delete`)."""
        return self.key.removeprefix("confirm_")


class Call(Protocol):
    """The call in progress, as far as the core goes."""

    @property
    def time(self) -> CallTime:
        """The call's deadline and clock."""
        ...

    @property
    def can_ask(self) -> bool:
        """Whether the person can be asked during this call."""
        ...

    async def progress(self, message: str) -> None:
        """Report one more step of a long wait."""
        ...

    async def confirm(self, question: Question, unsent: str) -> None:
        """Go on only if the person says yes; else raise `DECLINED`, saying `unsent` (what was not done)."""
        ...

    async def roots(self) -> list[Path] | None:
        """The folders the person shares with this call (None: the face declares none)."""
        ...
