"""A cloud agent's options as a program writes them, checked by the core's creation rules before anything is sent.

The shapes follow Cursor's SDK (`cloud={"repos": [{"url": ..., "starting_ref": ...}], "env": {"type": ...}}`,
dataclasses or plain mappings); the checks are the server's (`core.creation`): https repository URLs on a
forge host, a branch name or full SHA as starting ref, the documented combinations of environment and
repositories, at most 20 repositories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from cursor_cloud_agents.api import EnvSpec, RepoSpec
from cursor_cloud_agents.core import ToolFailure, creation, failures


@dataclass(frozen=True)
class CloudRepository:
    """A repository the agent clones: an https URL, and the branch or full SHA to start from."""

    url: str
    starting_ref: str | None = None


@dataclass(frozen=True)
class CloudEnvironment:
    """Where the agent runs: `cloud` (with `name`, a named environment that brings its repositories), `pool`
    or `machine` (with `name`)."""

    type: str = "cloud"
    name: str | None = None


@dataclass(frozen=True)
class CloudOptions:
    """A cloud agent's repositories (none: an agent on an empty VM) and environment."""

    repos: Sequence[CloudRepository | Mapping[str, Any]] = field(default_factory=tuple[CloudRepository, ...])
    env: CloudEnvironment | Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Placement:
    """The checked request parts: repositories and environment."""

    repos: list[RepoSpec]
    env: EnvSpec | None


def _refuse(message: str) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, message + " Nothing was sent.")


def _mapping(value: object, what: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise _refuse(f"{what} must be a mapping or a dataclass of this SDK.")
    given = {str(key): item for key, item in cast(Mapping[object, Any], value).items()}
    unknown = sorted(set(given) - keys)
    if unknown:
        raise _refuse(f"{what} has unknown keys {unknown}; known: {sorted(keys)}.")
    return given


def _repository(value: CloudRepository | Mapping[str, Any]) -> creation.RepoInput:
    if isinstance(value, CloudRepository):
        return creation.RepoInput(url=value.url, starting_ref=value.starting_ref)
    given = _mapping(value, "a repository", {"url", "starting_ref"})
    url, ref = given.get("url"), given.get("starting_ref")
    if not isinstance(url, str) or not (ref is None or isinstance(ref, str)):
        raise _refuse("a repository is {'url': str, 'starting_ref': str | None}.")
    return creation.RepoInput(url=url, starting_ref=ref)


def _environment(value: CloudEnvironment | Mapping[str, Any] | None) -> CloudEnvironment | None:
    if value is None or isinstance(value, CloudEnvironment):
        return value
    given = _mapping(value, "env", {"type", "name"})
    kind, name = given.get("type", "cloud"), given.get("name")
    if not isinstance(kind, str) or not (name is None or isinstance(name, str)):
        raise _refuse("env is {'type': 'cloud' | 'pool' | 'machine', 'name': str | None}.")
    return CloudEnvironment(kind, name)


def placement(cloud: CloudOptions | Mapping[str, Any] | None) -> Placement:
    """The repositories and environment of `cloud`, checked; VALIDATION names what to change.

    None (or no repositories) is an agent without a repository, on an empty VM."""
    if cloud is None:
        return Placement([], None)
    if not isinstance(cloud, CloudOptions):
        given = _mapping(cloud, "cloud", {"repos", "env"})
        repos_given = given.get("repos") or ()
        if isinstance(repos_given, str | bytes) or not isinstance(repos_given, Sequence):
            raise _refuse("cloud['repos'] must be a list of repositories.")
        cloud = CloudOptions(repos=cast(Sequence[Any], repos_given), env=given.get("env"))
    env = _environment(cloud.env)
    if env is not None and env.type not in ("cloud", "pool", "machine"):
        raise _refuse(f"env type {env.type!r} is not one of cloud, pool, machine.")
    repos = creation.repos(None, None, [_repository(repo) for repo in cloud.repos] or None)
    spec = None if env is None else creation.environment(env.type, env.name, len(repos))
    return Placement(repos, spec)
