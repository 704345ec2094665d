"""The legacy v0 conversation (`GET /v0/agents/{id}/conversation`), still answered for v1 agents."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import WireModel


class ConversationMessage(WireModel):
    """One message: `user_message` or `assistant_message` (open string)."""

    id: str | None = None
    type: str
    text: str | None = None


class Conversation(WireModel):
    """The whole conversation of an agent."""

    id: str | None = None
    messages: list[ConversationMessage] = []
