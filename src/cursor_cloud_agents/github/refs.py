"""A pull request named by a person: `https://github.com/o/r/pull/7` or `o/r#7`, checked before any request.

The owner and repository go into a GitHub API path, so they are held to GitHub's own name rules (no `/`, no
`..`, no space): a typed name can never reach another endpoint. The PR's canonical URL is what Cursor's
`prUrl` filter and an agent's `prUrl` field carry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OWNER = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})"
_REPO = r"[A-Za-z0-9._-]{1,100}"
_URL = re.compile(rf"^https://(?:www\.)?github\.com/({_OWNER})/({_REPO})/pull/([0-9]{{1,9}})/?(?:[?#].*)?$")
_SHORT = re.compile(rf"^({_OWNER})/({_REPO})#([0-9]{{1,9}})$")


@dataclass(frozen=True)
class PullRef:
    """One pull request: its repository's owner and name, and its number."""

    owner: str
    repo: str
    number: int

    @property
    def url(self) -> str:
        """The PR's page, as Cursor records it (`prUrl`)."""
        return f"https://github.com/{self.owner}/{self.repo}/pull/{self.number}"

    @property
    def short(self) -> str:
        return f"{self.owner}/{self.repo}#{self.number}"


def pull_ref(text: str) -> PullRef | None:
    """The PR that `text` names (a PR URL or `owner/repo#N`), or None when it names none."""
    value = text.strip()
    found = _URL.match(value) or _SHORT.match(value)
    if found is None:
        return None
    owner, repo, number = found.groups()
    if repo in (".", "..") or int(number) == 0:
        return None
    return PullRef(owner, repo.removesuffix(".git"), int(number))
