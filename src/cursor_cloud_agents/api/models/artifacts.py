"""Artifact wire models: the list and the presigned download URL."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import WireModel


class Artifact(WireModel):
    """A file under `artifacts/` in the agent's workspace."""

    path: str
    size_bytes: int | None = None
    updated_at: str | None = None


class ArtifactList(WireModel):
    """The answer of `GET /v1/agents/{id}/artifacts` (often empty even when files exist)."""

    items: list[Artifact] = []


class ArtifactDownload(WireModel):
    """A 15-minute presigned URL; fetch it without the Cursor Authorization header."""

    url: str
    expires_at: str | None = None
