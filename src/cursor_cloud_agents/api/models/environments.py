"""Environment wire models."""

from __future__ import annotations

from typing import Any

from cursor_cloud_agents.api.models.common import WireModel


class EnvironmentRepo(WireModel):
    """A repository attached to an environment."""

    url: str


class Environment(WireModel):
    """A cloud environment; its `name` goes into `env.name` on create."""

    id: str
    name: str | None = None
    owner: str | None = None
    """`personal` or `team` (open string)."""
    repos: list[EnvironmentRepo] | None = None
    created_at: str | None = None
    updated_at: str | None = None
    environment_json: Any = None
    """The environment definition (shape undocumented: kept as sent)."""
    version_id: str | None = None
    repo_file: Any = None
    """Where the definition lives in the repository (shape undocumented: kept as sent)."""
