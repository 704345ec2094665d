"""The tool call in progress: its time, and what a tool may tell the toolkit while it runs.

A tool asks for it by type (`call: ToolCall`) and the toolkit hands it in; it implements the core's `Call`
(deadline, MCP progress, elicitation, the client's roots) and adds what only a tool answer has: ids for the
log line and the failure, images sent after the JSON.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import anyio
from mcp_types import ImageContent

from cursor_cloud_agents.core.call import Question
from cursor_cloud_agents.core.timing import ASK_RESERVE, CallTime
from cursor_cloud_agents.server.pipeline.declined import declined
from cursor_cloud_agents.server.pipeline.heartbeat import Silence
from cursor_cloud_agents.server.protocol.asking import Consent, NoPeer, Peer

Report = Callable[[float, str], Awaitable[None]]


@dataclass
class ToolCall:
    """The call in progress: its time, and what a tool may tell the toolkit while it runs."""

    tool: str
    report: Report
    time: CallTime
    peer: Peer = field(default_factory=NoPeer)
    ids: dict[str, str] = field(default_factory=dict[str, str])
    steps: int = 0
    attachments: list[ImageContent] = field(default_factory=list[ImageContent])
    silence: Silence = field(default_factory=Silence)
    """When progress was last reported (real time): the heartbeat fills silences (`heartbeat.py`)."""
    waiting_since: float | None = None
    """When this call is one round of a task's wait: the moment the task began (on the state's clock), so
    that the answer says how long the whole wait lasted, not this round."""
    claude_plugin: bool = False
    """Claude Code started this server as its plugin: a `DECLINED` names the plugin's hook matcher."""
    client: str | None = None
    """The client's name (`clientInfo.name`): pages of text are sized for what its model reads (`pages.py`)."""
    _reporting: anyio.Lock = field(default_factory=anyio.Lock)

    def note(self, **ids: str | None) -> None:
        """Record ids known so far: they go into the log line and into any failure of this call."""
        self.ids.update({key: value for key, value in ids.items() if value})

    def attach_image(self, data: bytes, mime_type: str) -> None:
        """Send an image after the JSON text of a successful answer; it is not counted in the result cap."""
        self.attachments.append(ImageContent(data=base64.b64encode(data).decode("ascii"), mime_type=mime_type))

    @property
    def can_ask(self) -> bool:
        """Whether the client declared it can ask its user (MCP elicitation)."""
        return self.peer.can_ask

    async def roots(self) -> list[Path] | None:
        """The client's roots, waiting at most what the deadline leaves (None: it declares none)."""
        return await self.peer.roots(self.time.deadline.remaining(ASK_RESERVE))

    async def progress(self, message: str) -> None:
        """Report one more step of a wait as MCP progress (a no-op when the client asked for none)."""
        async with self._reporting:  # the heartbeat reports too: notifications keep their order
            self.steps += 1
            self.silence.heard()
            await self.report(self.steps, message)

    async def confirm(self, question: Question, unsent: str) -> None:
        """Go on only if the person says yes; else `DECLINED`, saying `unsent` (what was not done) and what the
        client answered (`server/pipeline/declined.py`).

        The question waits at most what the call's deadline leaves (less a reserve to answer)."""
        answer = await self.peer.ask(question, self.time.deadline.remaining(ASK_RESERVE))
        if answer.consent is not Consent.ACCEPTED:
            raise declined(answer, question.act, unsent, claude_plugin=self.claude_plugin)
