"""The typed messages of `run.stream()`: what the agent says, thinks and does, its summaries and its status.

Built from the run's stream events (docs/api-contract.md §3.11) as Cursor's SDK names them: `assistant`,
`thinking`, `tool_call`, `summary`, `status`. The text is the agent's own, handed on as data: a program
that shows it to a model must not let it act as instructions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from cursor_cloud_agents.api import (
    AssistantEvent,
    InteractionUpdateEvent,
    ResultEvent,
    StatusEvent,
    StreamEvent,
    ThinkingEvent,
    ToolCallEvent,
)
from cursor_cloud_agents.sdk._status import Status


@dataclass(frozen=True)
class TextBlock:
    """A block of text in a message's content, as Cursor's SDK shapes it (`message.message.content`)."""

    text: str
    type: Literal["text"] = "text"


@dataclass(frozen=True)
class AssistantContent:
    """What an assistant message says, as Cursor's SDK shapes it: its role and its content blocks."""

    content: tuple[TextBlock, ...]
    role: Literal["assistant"] = "assistant"


@dataclass(frozen=True)
class AssistantMessage:
    """A piece of the assistant's reply (the stream sends it a few words at a time).

    `text` is the piece; `message.content` holds it as one text block, the shape Cursor's SDK gives it."""

    agent_id: str
    run_id: str
    text: str
    type: Literal["assistant"] = "assistant"

    @property
    def message(self) -> AssistantContent:
        """The piece as Cursor's SDK shapes it: `message.content[0].text`."""
        return AssistantContent((TextBlock(self.text),))


@dataclass(frozen=True)
class ThinkingMessage:
    """A piece of the model's reasoning."""

    agent_id: str
    run_id: str
    text: str
    type: Literal["thinking"] = "thinking"


@dataclass(frozen=True)
class ToolCallMessage:
    """A tool call: `running` when it starts, then `completed` (or `error`) with the same `call_id`.

    `truncated` is True when Cursor left the arguments or the result out for size."""

    agent_id: str
    run_id: str
    call_id: str
    name: str
    status: str
    args: Any = None
    result: Any = None
    truncated: bool = False
    type: Literal["tool_call"] = "tool_call"


@dataclass(frozen=True)
class SummaryMessage:
    """The agent summarising its conversation as its context fills: `running`, then `completed` with the text."""

    agent_id: str
    run_id: str
    status: Literal["running", "completed"]
    text: str = ""
    type: Literal["summary"] = "summary"


@dataclass(frozen=True)
class StatusMessage:
    """The run's status as it changes: `"running"`, then `"finished"`, `"error"`, `"cancelled"`... (a `Status`:
    equal to the API's uppercase word too)."""

    agent_id: str
    run_id: str
    status: str
    """A `Status` when this SDK made the message: the lowercase word, equal to the API's word too."""
    type: Literal["status"] = "status"


Message = AssistantMessage | ThinkingMessage | ToolCallMessage | SummaryMessage | StatusMessage
"""Every message `run.stream()` yields; tell them apart by `type` or by class."""


class MessageReader:
    """Turns one run's events into messages: a status said once until it changes (each reconnection opens with
    a status frame), a summary's text handed on when the summary completes."""

    def __init__(self, agent_id: str, run_id: str) -> None:
        self.agent_id = agent_id
        self.run_id = run_id
        self.status: Status | None = None
        self._summary = ""

    def read(self, event: StreamEvent) -> Message | None:
        """The message `event` carries, or None (heartbeats, the richer twins of simplified frames, the end)."""
        ids = (self.agent_id, self.run_id)
        if isinstance(event, AssistantEvent):
            return AssistantMessage(*ids, event.text) if event.text else None
        if isinstance(event, ThinkingEvent):
            return ThinkingMessage(*ids, event.text) if event.text else None
        if isinstance(event, ToolCallEvent):
            cut = event.truncated is not None and bool(event.truncated.args or event.truncated.result)
            return ToolCallMessage(
                *ids, event.call_id or "", event.name or "", event.status or "", event.args, event.result, cut
            )
        if isinstance(event, StatusEvent | ResultEvent):
            return self._status(event.status)
        if isinstance(event, InteractionUpdateEvent):
            return self._summary_of(event)
        return None

    def _status(self, status: str | None) -> StatusMessage | None:
        if status is None or (self.status is not None and str(Status(status)) == str(self.status)):
            return None  # said once as Cursor's SDK says it: CREATING then RUNNING is one "running"
        self.status = Status(status)
        return StatusMessage(self.agent_id, self.run_id, self.status)

    def _summary_of(self, event: InteractionUpdateEvent) -> SummaryMessage | None:
        kind = event.update_type
        if kind == "summary-started":
            self._summary = ""
            return SummaryMessage(self.agent_id, self.run_id, "running")
        if kind == "summary":
            text = (event.model_extra or {}).get("summary")
            self._summary = text if isinstance(text, str) else ""
            return None
        if kind == "summary-completed":
            return SummaryMessage(self.agent_id, self.run_id, "completed", self._summary)
        return None
