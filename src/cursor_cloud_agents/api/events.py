"""Run stream events: the raw frame (decoded lazily) and the typed events built from it.

A replay is mostly `interaction_update` frames nobody reads, so a frame stays raw text until a
consumer asks for its payload: walking a 16 MiB replay then costs the SSE split, not a JSON decode
per frame. Unknown event types are kept as `GenericEvent`, never dropped or crashed on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from pydantic import ConfigDict, ValidationError, model_validator

from cursor_cloud_agents.api import _wirejson
from cursor_cloud_agents.api.ids import parse_event_id
from cursor_cloud_agents.api.models.common import WireModel
from cursor_cloud_agents.api.models.runs import RunError, RunGit

_MISSING: Any = object()


class RawEvent:
    """One SSE frame as received: `event`, `data` text and `id` (None on the leading status frame)."""

    __slots__ = ("_payload", "data", "event", "id")

    def __init__(self, event: str, data: str, id: str | None) -> None:
        self.event = event
        self.data = data
        self.id = id
        self._payload: Any = _MISSING

    def __repr__(self) -> str:
        return f"RawEvent(event={self.event!r}, id={self.id!r}, data={len(self.data)} chars)"

    @property
    def time_ms(self) -> int | None:
        """Milliseconds of the `<ms>-<seq>` id, or None when there is no id of that shape."""
        parsed = parse_event_id(self.id)
        return None if parsed is None else parsed[0]

    def payload(self) -> Any:
        """The `data` decoded as JSON (cached).

        Raises:
            ValueError: the data is not JSON.
        """
        if self._payload is _MISSING:
            self._payload = _wirejson.loads(self.data) if self.data else {}
        return self._payload


class _Event(WireModel):
    # Payload keys only by their wire (camelCase) name, so no payload key can set `event_id`.
    model_config = ConfigDict(populate_by_name=False, defer_build=True)

    event: ClassVar[str] = "message"
    event_id: str | None = None
    """The SSE id of the frame (`<ms>-<seq>`), None on frames without one."""

    @property
    def kind(self) -> str:
        """The SSE event name the frame came with (a generic event's own name, not its class's)."""
        return self.event


E = TypeVar("E", bound=_Event)
_TYPED: dict[str, type[_Event]] = {}
"""Every typed event by its SSE name: each registers itself with `_typed`."""


def _typed(name: str) -> Callable[[type[E]], type[E]]:
    def register(cls: type[E]) -> type[E]:
        cls.event = name
        _TYPED[name] = cls
        return cls

    return register


@_typed("status")
class StatusEvent(_Event):
    """`status`: the run's status; the leading frame of every connection has no id."""

    run_id: str | None = None
    status: str | None = None


class _TextDelta(_Event):
    text: str = ""


@_typed("assistant")
class AssistantEvent(_TextDelta):
    """`assistant`: a fragment (delta) of the assistant's text."""


@_typed("thinking")
class ThinkingEvent(_TextDelta):
    """`thinking`: a fragment of the model's thinking."""


class ToolCallTruncated(WireModel):
    """Which parts of a tool call Cursor left out for size."""

    args: bool | None = None
    result: bool | None = None


@_typed("tool_call")
class ToolCallEvent(_Event):
    """`tool_call`: a call `running` then `completed` (same `call_id`); big args/results omitted."""

    call_id: str | None = None
    name: str | None = None
    status: str | None = None
    args: Any = None
    result: Any = None
    truncated: ToolCallTruncated | None = None

    @model_validator(mode="before")
    @classmethod
    def _unwrap_data(cls, value: Any) -> Any:
        # The official SDK tolerates the payload nested under "data"; so do we.
        if not isinstance(value, dict):
            return value
        payload: dict[str, Any] = value  # pyright: ignore[reportUnknownVariableType] -- raw JSON object
        inner = payload.get("data")
        if "callId" not in payload and isinstance(inner, dict):
            unwrapped: dict[str, Any] = {**inner}  # pyright: ignore[reportUnknownArgumentType] -- raw JSON object
            unwrapped["eventId"] = payload.get("eventId")
            return unwrapped
        return payload


@_typed("interaction_update")
class InteractionUpdateEvent(_Event):
    """`interaction_update`: the SDK's richer record, discriminated by `update_type` (wire `type`)."""

    update_type: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _rename_type(cls, value: Any) -> Any:
        if isinstance(value, dict) and "type" in value:
            return {**value, "updateType": value["type"]}  # pyright: ignore[reportUnknownVariableType] -- raw JSON
        return value  # pyright: ignore[reportUnknownVariableType] -- raw JSON


@_typed("heartbeat")
class HeartbeatEvent(_Event):
    """`heartbeat`: keepalive; the first one comes after the replay."""


@_typed("result")
class ResultEvent(_Event):
    """`result`: the run's terminal status and final text."""

    run_id: str | None = None
    status: str | None = None
    text: str | None = None
    duration_ms: int | None = None
    git: RunGit | None = None
    error: RunError | None = None


@_typed("error")
class ErrorEvent(_Event):
    """`error`: a stream error; not proof that the run ended."""

    code: str | None = None
    message: str | None = None


@_typed("done")
class DoneEvent(_Event):
    """`done`: the stream is complete."""


class GenericEvent(_Event):
    """Any other event type, kept with its raw data."""

    name: str
    data: str

    @property
    def kind(self) -> str:
        return self.name


StreamEvent = (
    StatusEvent
    | AssistantEvent
    | ThinkingEvent
    | ToolCallEvent
    | InteractionUpdateEvent
    | HeartbeatEvent
    | ResultEvent
    | ErrorEvent
    | DoneEvent
    | GenericEvent
)
"""Every typed event the stream yields."""


def parse_event(raw: RawEvent) -> StreamEvent | None:
    """Type one raw frame; None when a known type carries a payload that is not a JSON object.

    Unknown types become `GenericEvent` without decoding their data.
    """
    cls = _TYPED.get(raw.event)
    if cls is None:
        return GenericEvent.model_validate({"name": raw.event, "data": raw.data, "eventId": raw.id})
    try:
        payload = raw.payload()
    except ValueError:
        return None
    if not isinstance(payload, dict):
        return None
    try:
        # Our id last: a payload key "eventId" cannot override the frame's id.
        return cls.model_validate({**payload, "eventId": raw.id})  # type: ignore[return-value]  # pyright: ignore[reportReturnType] -- cls is one of the union's members
    except ValidationError:
        return None
