"""A cloud agent's options as a program writes them, checked by the core's creation rules before anything is sent.

The shapes follow Cursor's SDK (`cloud={"repos": [{"url": ..., "starting_ref": ...}], "env": {"type": ...}}`,
dataclasses or plain mappings); the checks are the server's (`core.creation`): https repository URLs on a
forge host, a branch name or full SHA as starting ref, the documented combinations of environment and
repositories, at most 20 repositories.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, cast

from cursor_cloud_agents.api import EnvSpec, RepoSpec
from cursor_cloud_agents.core import creation
from cursor_cloud_agents.sdk._errors import refused


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
class CloudAgentOptions:
    """A cloud agent's options with the names and order of Cursor's SDK (`env`, `repos`, ...). `env` and `repos`
    are used; `work_on_current_branch` may only be False; the others are refused when set (see `_ABSENT`)."""

    env: CloudEnvironment | Mapping[str, Any] | None = None
    repos: Sequence[CloudRepository | Mapping[str, Any]] | None = None
    work_on_current_branch: bool | None = None
    auto_create_pr: bool | None = None
    open_as_cursor_github_app: bool | None = None
    skip_reviewer_request: bool | None = None
    env_vars: Mapping[str, str] | None = None
    metadata: Mapping[str, str] | None = None


_ALIASES = {
    "startingRef": "starting_ref",
    "prUrl": "pr_url",
    "workOnCurrentBranch": "work_on_current_branch",
    "autoCreatePr": "auto_create_pr",
    "autoCreatePR": "auto_create_pr",
    "openAsCursorGithubApp": "open_as_cursor_github_app",
    "skipReviewerRequest": "skip_reviewer_request",
    "envVars": "env_vars",
}
"""Cursor's SDK takes these camelCase spellings too."""

_ABSENT = {
    "work_on_current_branch": "work_on_current_branch=True is not available: a follow-up would push onto the "
    "starting branch; the agent works on a branch of its own (leave it out or False).",
    "auto_create_pr": "auto_create_pr is not available in this version: open the pull request from the agent's "
    "branch (run.wait().branches).",
    "open_as_cursor_github_app": "open_as_cursor_github_app is not available in this version: leave it out.",
    "skip_reviewer_request": "skip_reviewer_request is not available in this version: leave it out.",
    "env_vars": "env_vars is not available: the API forbids a chosen agent id with them, so a lost answer could "
    "not be settled by id and the agent might be paid twice. Put settings in the repository or the environment.",
    "metadata": "metadata is not available in this version: name the agent (name=...) instead.",
    "pr_url": "pr_url is not available in this version: give the branch as starting_ref.",
}
"""Options of Cursor's SDK this one has not: refused when set (an empty or False value asks for nothing)."""


@dataclass(frozen=True)
class Placement:
    """The checked request parts: repositories and environment."""

    repos: list[RepoSpec]
    env: EnvSpec | None


def _mapping(value: object, what: str, keys: set[str]) -> dict[str, Any]:
    if is_dataclass(value) and not isinstance(value, type):
        value = {item.name: getattr(value, item.name) for item in fields(value)}
    if not isinstance(value, Mapping):
        raise refused(f"{what} must be a mapping or a dataclass of this SDK.")
    given = {_ALIASES.get(str(key), str(key)): item for key, item in cast(Mapping[object, Any], value).items()}
    for key in sorted(set(given) & set(_ABSENT)):
        if given.pop(key):
            raise refused(_ABSENT[key])
    unknown = sorted(set(given) - keys)
    if unknown:
        raise refused(f"{what} has unknown keys {unknown}; known: {sorted(keys)}.")
    return given


def _repository(value: CloudRepository | Mapping[str, Any]) -> creation.RepoInput:
    if isinstance(value, CloudRepository):
        return creation.RepoInput(url=value.url, starting_ref=value.starting_ref)
    given = _mapping(value, "a repository", {"url", "starting_ref"})
    url, ref = given.get("url"), given.get("starting_ref")
    if not isinstance(url, str) or not (ref is None or isinstance(ref, str)):
        raise refused("a repository is {'url': str, 'starting_ref': str | None}.")
    return creation.RepoInput(url=url, starting_ref=ref)


def _environment(value: CloudEnvironment | Mapping[str, Any] | None) -> CloudEnvironment | None:
    if value is None or isinstance(value, CloudEnvironment):
        return value
    given = _mapping(value, "env", {"type", "name"})
    kind, name = given.get("type", "cloud"), given.get("name")
    if not isinstance(kind, str) or not (name is None or isinstance(name, str)):
        raise refused("env is {'type': 'cloud' | 'pool' | 'machine', 'name': str | None}.")
    return CloudEnvironment(kind, name)


def placement(cloud: CloudOptions | CloudAgentOptions | Mapping[str, Any] | None) -> Placement:
    """The repositories and environment of `cloud`, checked; BadRequestError (VALIDATION) names what to change.

    None (or no repositories) is an agent without a repository, on an empty VM."""
    if cloud is None:
        return Placement([], None)
    if not isinstance(cloud, CloudOptions):
        given = _mapping(cloud, "cloud", {"repos", "env"})
        repos_given = given.get("repos") or ()
        if isinstance(repos_given, str | bytes) or not isinstance(repos_given, Sequence):
            raise refused("cloud['repos'] must be a list of repositories.")
        cloud = CloudOptions(repos=cast(Sequence[Any], repos_given), env=given.get("env"))
    env = _environment(cloud.env)
    if env is not None and env.type not in ("cloud", "pool", "machine"):
        raise refused(f"env type {env.type!r} is not one of cloud, pool, machine.")
    repos = creation.repos(None, None, [_repository(repo) for repo in cloud.repos] or None)
    spec = None if env is None else creation.environment(env.type, env.name, len(repos))
    return Placement(repos, spec)
