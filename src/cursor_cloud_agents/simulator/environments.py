"""Cloud environments of the simulated account (`GET /v1/environments`, `GET /v1/environments/{id}`)."""

from __future__ import annotations

import uuid
from typing import Any

from .errors import not_found
from .wire import iso

_COUNT = 25  # more than one default page, so paging is exercised


def _env(index: int, start: float) -> dict[str, Any]:
    env_id = str(uuid.UUID(int=0x5EED0000 + index, version=4))
    repo = ["web", "api", "infra", "docs", "your-repo"][index % 5]
    org = "your-org" if repo == "your-repo" else "acme"
    created = start - 86400 * (60 - index)
    return {
        "id": env_id,
        "name": f"{repo}-env-{index}",
        "owner": "team" if index % 3 == 0 else "personal",
        "repos": [{"url": f"https://github.com/{org}/{repo}"}],
        "createdAt": iso(created),
        "updatedAt": iso(created + 3600),
    }


def environments(start: float) -> list[dict[str, Any]]:
    """The account's environments, newest first."""
    return [_env(i, start) for i in reversed(range(_COUNT))]


def environment(start: float, env_id: str) -> dict[str, Any]:
    """One environment with its details. Raises 404 for an unknown id."""
    for env in environments(start):
        if env["id"] == env_id.lower():
            repo_file = {"path": ".cursor/environment.json", "repoUrl": env["repos"][0]["url"]}
            details = {"environmentJson": {"install": "npm ci"}, "versionId": f"ver-{env_id[:8]}"}
            return env | details | {"repoFile": repo_file}
    raise not_found("environment_not_found", f"Environment {env_id} not found")


def environment_names(start: float) -> set[str]:
    """Names usable as `env.name` with `env.type: cloud`."""
    return {env["name"] for env in environments(start)}
