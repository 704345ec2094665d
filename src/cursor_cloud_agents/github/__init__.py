"""Reading GitHub for the PR watch (docs/pr-loop.md): a pull request named by a person, the token, and a typed
reader of the REST API over the project's one HTTP layer. Knows nothing of Cursor, MCP or the core.

Each name loads on first use (PEP 562), as the other fronts do: the parser checks a PR reference with
`pull_ref` at every start, and must not load the HTTP stack for it."""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from cursor_cloud_agents.github.access import NO_ACCESS, GitHubAccessMissing, github_token
    from cursor_cloud_agents.github.models import Author, Check, Comment, PullRequest
    from cursor_cloud_agents.github.reader import (
        GitHubAccessRefused,
        GitHubError,
        GitHubNotFound,
        GitHubRateLimited,
        GitHubReader,
        GitHubUnavailable,
    )
    from cursor_cloud_agents.github.refs import PullRef, pull_ref

__all__ = [
    "NO_ACCESS",
    "Author",
    "Check",
    "Comment",
    "GitHubAccessMissing",
    "GitHubAccessRefused",
    "GitHubError",
    "GitHubNotFound",
    "GitHubRateLimited",
    "GitHubReader",
    "GitHubUnavailable",
    "PullRef",
    "PullRequest",
    "github_token",
    "pull_ref",
]

_HOMES: dict[str, str] = {
    **dict.fromkeys(["NO_ACCESS", "GitHubAccessMissing", "github_token"], "cursor_cloud_agents.github.access"),
    **dict.fromkeys(["Author", "Check", "Comment", "PullRequest"], "cursor_cloud_agents.github.models"),
    **dict.fromkeys(
        [
            "GitHubAccessRefused",
            "GitHubError",
            "GitHubNotFound",
            "GitHubRateLimited",
            "GitHubReader",
            "GitHubUnavailable",
        ],
        "cursor_cloud_agents.github.reader",
    ),
    **dict.fromkeys(["PullRef", "pull_ref"], "cursor_cloud_agents.github.refs"),
}


def __getattr__(name: str) -> _typing.Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(home), name)
    globals()[name] = value
    return value
