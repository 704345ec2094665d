"""A small typed reader of GitHub's REST API: what the PR watch needs, GETs only, over the one HTTP layer.

It reuses `api._http.HttpSession` (the only module that speaks httpx2: no proxies from the environment, no
redirects, a cap on every body, a total deadline per exchange), with its own base URL (`GITHUB_API_URL`) and
its own token (docs/pr-loop.md §1). What GitHub asks of a well-behaved client is kept here:
- ETags: each answer's `ETag` is kept and sent back as `If-None-Match`; a `304` (which GitHub does not count
  against the rate limit) answers from the copy kept;
- rate limits: a `403` or `429` with `retry-after` or `x-ratelimit-remaining: 0` is `GitHubRateLimited` with
  the seconds to wait (`retry-after`, else until `x-ratelimit-reset`), never retried here: the watch waits;
- 401 (and a 403 that is not a rate limit) is `GitHubAccessRefused`, naming how to give access; 404 is
  `GitHubNotFound` (GitHub answers 404 for a private repository the token cannot see).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, cast

from cursor_cloud_agents.api._http import HttpSession, Transport
from cursor_cloud_agents.api._outcomes import SendFailure
from cursor_cloud_agents.api.errors import ResponseTooLargeError
from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.github.models import Check, Comment, CommentKind, PullRequest, can_write
from cursor_cloud_agents.github.refs import PullRef

REQUEST_SECONDS = 30.0
"""One GET to GitHub, whole."""
MAX_BYTES = 16 * 1024 * 1024
"""The largest answer read: 100 check runs whose outputs hold GitHub's 65,535 characters each fit."""
PER_PAGE = 100
MAX_PAGES = 5
"""At most 500 comments (or check runs) of each kind are read per look: a PR with more is read in part."""
ETAGS_KEPT = 256
FALLBACK_WAIT_SECONDS = 60.0
"""The wait when a rate limit names no time."""


class GitHubError(Exception):
    """GitHub could not be read; the message says why and what to do."""


class GitHubAccessRefused(GitHubError):
    """401, or a 403 that is not a rate limit: the token cannot read this."""


class GitHubNotFound(GitHubError):
    """404: no such PR, or the token cannot see the repository."""


class GitHubRateLimited(GitHubError):
    """GitHub asked us to wait `wait_seconds` before the next request."""

    def __init__(self, message: str, wait_seconds: float) -> None:
        super().__init__(message)
        self.wait_seconds = wait_seconds


class GitHubUnavailable(GitHubError):
    """No answer, or a 5xx: read again later."""


class GitHubReader:
    """GETs of GitHub's REST API with one token, one long-lived HTTP session and an ETag cache."""

    def __init__(
        self,
        base_url: str,
        token: Secret,
        *,
        transport: Transport | None = None,
        now: Callable[[], float],
    ) -> None:
        self._http = HttpSession(
            base_url=base_url,
            headers={
                "Authorization": f"Bearer {token.reveal()}",
                "Accept": "application/vnd.github+json",
                "X-GitHub-Api-Version": "2022-11-28",
                "User-Agent": "cursor-cloud-agents",
                "Accept-Encoding": "identity",
            },
            transport=transport,
            max_connections=4,
        )
        self._now = now
        self._etags: OrderedDict[str, tuple[str, Any]] = OrderedDict()
        self.remaining: int | None = None
        """GitHub's `x-ratelimit-remaining` after the last answer."""

    async def aclose(self) -> None:
        await self._http.aclose()

    async def get(self, path: str, params: Mapping[str, str] | None = None) -> Any:
        """The JSON of `GET path`, from the ETag copy when GitHub answers 304.

        Raises:
            GitHubError: one of its kinds (access, not found, rate limited, unavailable).
        """
        key = path + "?" + "&".join(f"{name}={value}" for name, value in sorted((params or {}).items()))
        kept = self._etags.get(key)
        headers = {"If-None-Match": kept[0]} if kept is not None else None
        try:
            answer = await self._http.request(
                "GET", path, params=params, timeout=REQUEST_SECONDS, max_bytes=MAX_BYTES, headers=headers
            )
        except SendFailure as failed:
            raise GitHubUnavailable(f"GitHub did not answer ({failed})") from None
        except ResponseTooLargeError:
            raise GitHubUnavailable(f"GitHub's answer to {path} was over {MAX_BYTES} bytes") from None
        remaining = answer.headers.get("x-ratelimit-remaining", "")
        self.remaining = int(remaining) if remaining.isdigit() else self.remaining
        if answer.status == 304 and kept is not None:
            self._etags.move_to_end(key)
            return kept[1]
        self._refuse(answer.status, answer.headers, path)
        try:
            value = json.loads(answer.body)
        except ValueError:
            raise GitHubUnavailable(f"GitHub's answer to {path} was not JSON") from None
        etag = answer.headers.get("etag")
        if etag:
            self._etags[key] = (etag, value)
            self._etags.move_to_end(key)
            while len(self._etags) > ETAGS_KEPT:
                self._etags.popitem(last=False)
        return value

    def _refuse(self, status: int, headers: Mapping[str, str], path: str) -> None:
        if 200 <= status < 300:
            return
        wait = _rate_wait(status, headers, self._now())
        if wait is not None:
            raise GitHubRateLimited(f"GitHub's rate limit: waiting {wait:.0f} s before reading again", wait)
        if status in (401, 403):
            raise GitHubAccessRefused(
                f"GitHub refused the token ({status}) for {path}: give GH_TOKEN (or GITHUB_TOKEN) a token that can "
                "read this repository's pull requests and checks, or run `gh auth login`"
            )
        if status == 404:
            raise GitHubNotFound(f"GitHub has no {path}, or the token cannot see that repository")
        raise GitHubUnavailable(f"GitHub answered {status} for {path}")

    async def _pages(self, path: str, field: str | None = None) -> list[Any]:
        items: list[Any] = []
        for page in range(1, MAX_PAGES + 1):
            body = await self.get(path, {"per_page": str(PER_PAGE), "page": str(page)})
            found = cast(dict[str, Any], body).get(field, []) if field and isinstance(body, dict) else body
            batch = cast(list[Any], found) if isinstance(found, list) else []
            items.extend(batch)
            if len(batch) < PER_PAGE:
                break
        return items

    async def pull(self, ref: PullRef) -> PullRequest:
        return PullRequest.of(await self.get(_repo(ref) + f"/pulls/{ref.number}"))

    async def checks(self, ref: PullRef, sha: str) -> list[Check]:
        """The check runs (the latest of each name) and commit statuses (the latest of each context) of `sha`."""
        runs = await self._pages(_repo(ref) + f"/commits/{sha}/check-runs", "check_runs")
        combined = await self.get(_repo(ref) + f"/commits/{sha}/status")
        statuses: object = cast(dict[str, Any], combined).get("statuses") if isinstance(combined, dict) else None
        found = [Check.of_run(run) for run in runs]
        found += [
            Check.of_status(status) for status in (cast(list[Any], statuses) if isinstance(statuses, list) else [])
        ]
        return found

    async def comments(self, ref: PullRef) -> list[Comment]:
        """The PR's comments, reviews (with a body) and comments on its diff, in GitHub's order per kind."""
        kinds: tuple[tuple[CommentKind, str], ...] = (
            ("issue", f"/issues/{ref.number}/comments"),
            ("review", f"/pulls/{ref.number}/reviews"),
            ("review_comment", f"/pulls/{ref.number}/comments"),
        )
        found: list[Comment] = []
        for kind, path in kinds:
            for item in await self._pages(_repo(ref) + path):
                comment = Comment.of(kind, item)
                if comment is not None and (comment.body.strip() or kind != "review"):
                    found.append(comment)
        return found

    async def can_write(self, ref: PullRef, login: str) -> bool:
        """Whether `login` has write access (or above) to the PR's repository; False when GitHub says 404."""
        try:
            return can_write(await self.get(_repo(ref) + f"/collaborators/{login}/permission"))
        except GitHubNotFound:
            return False


def _repo(ref: PullRef) -> str:
    return f"/repos/{ref.owner}/{ref.repo}"


def _rate_wait(status: int, headers: Mapping[str, str], now: float) -> float | None:
    """The seconds GitHub asks to wait, when this answer is a rate limit (primary or secondary)."""
    if status not in (403, 429):
        return None
    after = headers.get("retry-after", "").strip()
    if after.isdigit():
        return float(after)
    if headers.get("x-ratelimit-remaining") == "0":
        reset = headers.get("x-ratelimit-reset", "").strip()
        return max(1.0, float(reset) - now) if reset.isdigit() else FALLBACK_WAIT_SECONDS
    return FALLBACK_WAIT_SECONDS if status == 429 else None
