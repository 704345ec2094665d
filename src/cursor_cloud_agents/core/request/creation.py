"""Checks of a new agent's repositories, environment and variables, before anything is sent.

Pure functions: they return the request parts or raise a `VALIDATION` failure that says what to
change. The documented combinations (docs/api-contract.md §3.6): a named cloud environment brings its own
repositories; a machine and the default pool take one repository; at most 20 repositories. A
repository is an `https://HOST/OWNER/REPO` URL on a forge host (github.com, gitlab.com, bitbucket.org,
dev.azure.com, or a GitHub Enterprise or self-hosted GitLab host name), without credentials, query or
control characters. A starting ref is a branch name or a full commit SHA (the API accepted SHAs on
2026-10-19). Variable names follow the POSIX rule. Variables
for the agent come from `env_vars` or, by name, from the server's own `CURSOR_MCP_FORWARD_ENV`
values; with either, the API forbids a client-chosen agent id, so `name` is required to find the
agent again after an unknown outcome. Error messages name variables, never their values.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field

from cursor_cloud_agents.api import EnvSpec, RepoSpec, text
from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.request import texts

MAX_REPOS = 20
MAX_REPO_URL_CHARS = 2048
MAX_ENV_VARS = 50
MAX_ENV_VALUE_BYTES = 4096
_HOST = re.compile(r"(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}")
_POSIX_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FULL_SHA = re.compile(r"[0-9a-fA-F]{40}|[0-9a-fA-F]{64}")
# git check-ref-format, in short: no control or special characters, no "..", no leading "-" or "/".
_BAD_REF = re.compile(r"[\x00-\x20\x7f~^:?*\[\\]|\.\.|@\{|^[-/]|/$|\.lock$|\.$|//")


class RepoInput(BaseModel):
    # No docstring: pydantic would publish it in the input schema, costing catalogue bytes.

    model_config = ConfigDict(extra="forbid", strict=True)

    url: str = Field(min_length=1)
    starting_ref: str | None = None


@dataclass(frozen=True)
class Variables:
    """The variables to send, and whether any were given (then `agentId` is forbidden)."""

    values: dict[str, str]

    @property
    def given(self) -> bool:
        return bool(self.values)


def _refuse(message: str) -> ToolFailure:
    return ToolFailure(failures.VALIDATION, message + " Nothing was sent.")


def _hidden(value: str) -> bool:
    """Whether `value` holds a control, invisible format (bidi, zero-width) or separator character, a lone
    surrogate (`api.text`), or U+FFFD (a character lost on the way, `core.texts`): it would hide what it says
    where it is shown, split a line where it is logged, or name something else than was meant."""
    return text.unsafe_character(value) is not None or texts.LOST in value


def _one_line(value: str, field: str, max_chars: int) -> str:
    """`value` under the one-line rule of `core.texts`; VALIDATION naming the field and the rule."""
    try:
        return texts.one_line(value, field, max_chars)
    except ValueError as exc:
        raise _refuse(f"{field} must be one line without control characters: {exc}.") from None


def starting_ref(ref: str) -> str:
    """A branch name as given, or a full SHA in lowercase; VALIDATION for something git would refuse."""
    if _FULL_SHA.fullmatch(ref):
        return ref.lower()
    if not ref or len(ref) > 255 or _BAD_REF.search(ref) or _hidden(ref):
        raise _refuse(f"starting_ref {ref!r} is not a branch name or a full commit SHA.")
    return ref


_SSH_FORM = re.compile(
    r"^(?:ssh://)?git@(?P<host>[A-Za-z0-9.-]+)[:/](?P<path>[A-Za-z0-9._-]+/[A-Za-z0-9._/-]+?)(?:\.git)?/?$"
)


def https_form(url: str) -> str:
    """`url` as the API takes it: an ssh spelling of a repository (`git@github.com:OWNER/REPO.git`,
    `ssh://git@github.com/OWNER/REPO`, what `git remote -v` often shows) as `https://github.com/OWNER/REPO`; any
    other text as it is (`repository_url` then judges it)."""
    ssh = _SSH_FORM.match(url.strip())
    if ssh is None or any(part in (".", "..") for part in ssh["path"].split("/")):
        return url
    return f"https://{ssh['host']}/{ssh['path']}"


def repository_url(url: str) -> str:
    """`url` when it is an https URL of a repository on a forge host; VALIDATION otherwise (nothing sent)."""
    parts = urlsplit(url) if len(url) <= MAX_REPO_URL_CHARS and not _hidden(url) else None
    path = [] if parts is None else [part for part in parts.path.split("/") if part]
    if (
        parts is None
        or parts.scheme != "https"
        or parts.username
        or parts.password
        or parts.query
        or parts.fragment
        or not _HOST.fullmatch(parts.hostname or "")
        or len(path) < 2
    ):
        raise _refuse(
            "A repository is an https URL such as https://github.com/OWNER/REPO (a forge host, no credentials, "
            f"query or control characters, at most {MAX_REPO_URL_CHARS} characters)."
        )
    return url


def agent_name(name: str | None) -> str | None:
    """The agent's name as given, unless it breaks the one-line rule (it is shown, logged and matched later)."""
    return None if name is None else _one_line(name, "name", texts.NAME_MAX_CHARS)


def repos(repository: str | None, ref: str | None, repositories: Sequence[RepoInput] | None) -> list[RepoSpec]:
    """The repositories of the request: none, `repository` (+ `starting_ref`), or `repositories`."""
    if repository is not None and repositories is not None:
        raise _refuse("Pass repository or repositories, not both.")
    if ref is not None and repository is None:
        raise _refuse("starting_ref goes with repository; in repositories, give each entry its own starting_ref.")
    if repository is not None and not repository.strip():
        raise _refuse("repository is blank: pass a repository URL, or omit it for an agent without one.")
    # Judged before they are held in a model, which cannot hold a lone surrogate (the terminal's argv can carry
    # one): each refusal names its rule, as below.
    if repository is not None and _hidden(repository):
        repository_url(repository)
    if ref is not None:
        starting_ref(ref)
    given = [RepoInput(url=repository, starting_ref=ref)] if repository is not None else list(repositories or [])
    if len(given) > MAX_REPOS:
        raise _refuse(f"At most {MAX_REPOS} repositories.")
    urls = [https_form(item.url.strip()) for item in given]
    if any(not url for url in urls) or len(set(urls)) != len(urls):
        raise _refuse("Each repository needs a URL, listed once.")
    urls = [repository_url(url) for url in urls]
    return [
        RepoSpec(url=url, starting_ref=None if item.starting_ref is None else starting_ref(item.starting_ref))
        for url, item in zip(urls, given, strict=True)
    ]


def environment(env_type: str | None, env_name: str | None, repo_count: int) -> EnvSpec | None:
    """The `env` of the request, with the documented combinations checked."""
    if env_type is None:
        if env_name is not None:
            raise _refuse("env_name needs env_type (cloud for an environment, pool for a pool).")
        return None
    if env_name is not None:
        _one_line(env_name, "env_name", texts.ENV_NAME_MAX_CHARS)
    if env_type == "cloud" and env_name is not None and repo_count:
        raise _refuse("A named cloud environment brings its own repositories: omit the repositories or env_name.")
    if repo_count > 1 and (env_type == "machine" or (env_type == "pool" and env_name is None)):
        raise _refuse(
            "A machine or the default pool takes one repository; for several, name an any-repo pool in env_name."
        )
    if env_type == "cloud" and env_name is None:
        return EnvSpec(type="cloud")
    return EnvSpec.model_validate({"type": env_type, "name": env_name})


def variables(
    env_vars: Mapping[str, str] | None, forward_env: Sequence[str] | None, forwardable: Mapping[str, Secret]
) -> Variables:
    """The agent's variables: `env_vars` as given, `forward_env` names resolved from the server's settings."""
    values = dict(env_vars or {})
    for name in forward_env or []:
        if name not in forwardable:
            allowed = ", ".join(sorted(forwardable)) or "none (CURSOR_MCP_FORWARD_ENV is empty)"
            raise _refuse(f"forward_env name {name!r} is not forwardable; allowed: {allowed}.")
        if name in values:
            raise _refuse(f"{name} is both in env_vars and in forward_env; pass it once.")
        values[name] = forwardable[name].reveal()
    if len(values) > MAX_ENV_VARS:
        raise _refuse(f"At most {MAX_ENV_VARS} variables.")
    for name, value in values.items():
        if not _POSIX_NAME.fullmatch(name) or name.upper().startswith("CURSOR_") or len(name) > 255:
            raise _refuse(
                "A variable name is letters, digits and underscores, not starting with a digit, at most 255 "
                "characters, without the reserved CURSOR_ prefix; one given is not."
            )  # the name is not quoted: it may carry control characters
        if any(char == "\x00" or "\ud800" <= char <= "\udfff" for char in value):
            # Not quoted (a value may be a secret): a NUL cannot be in an environment, a lone surrogate in UTF-8.
            raise _refuse(f"The value of {name} holds a NUL or a lone surrogate; send whole characters.")
        if len(value.encode("utf-8", "surrogatepass")) > MAX_ENV_VALUE_BYTES:
            raise _refuse(f"The value of {name} is over {MAX_ENV_VALUE_BYTES} bytes.")
    return Variables(values)


def identity(agent_id: str | None, name: str | None, env: Variables) -> None:
    """With variables the API forbids `agentId`: `name` is required instead, to find the agent again."""
    if not env.given:
        return
    if agent_id is not None:
        raise _refuse("The API forbids agent_id together with env_vars or forward_env; pass a unique name instead.")
    if name is None or not name.strip():
        raise _refuse(
            "With env_vars or forward_env, pass a unique name: it is how cursor_list_agents(name=...) finds the "
            "agent if the answer is lost."
        )
