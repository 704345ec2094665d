"""Reading GitHub for the PR watch (docs/pr-loop.md): a pull request named by a person, the token, and a typed
reader of the REST API over the project's one HTTP layer. Knows nothing of Cursor, MCP or the core.

Each name loads on first use (PEP 562), as the other fronts do: the parser checks a PR reference with
`pull_ref` at every start, and must not load the HTTP stack for it."""

import typing as _typing

from cursor_cloud_agents import Front as _Front

# The typed imports below are the front's exports, each name written once: pyright reads them, `Front` reads
# them at run time (`__all__` and where each name loads from), so they are used though nothing here uses them.
# ruff: noqa: F401
# pyright: reportUnusedImport=false
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

_front = _Front(__name__, __file__, globals())
"""The names above, each loaded from its module when first asked for; `__all__` is derived from them."""


def __getattr__(name: str) -> _typing.Any:
    """A name of the front, imported from its module when first asked for (PEP 562)."""
    return _front.load(name)
