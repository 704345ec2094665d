"""Small answers shared by several endpoints."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import WireModel


class IdResponse(WireModel):
    """`{"id": ...}`: the answer of cancel, archive, unarchive and delete."""

    id: str
