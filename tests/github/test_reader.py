"""The GitHub reader: ETags, rate limits, errors that say how to give access, and PR references
(docs/pr-loop.md §1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx2
import pytest

from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.github import (
    GitHubAccessRefused,
    GitHubNotFound,
    GitHubRateLimited,
    GitHubReader,
    PullRef,
    pull_ref,
)

pytestmark = pytest.mark.anyio

REF = PullRef("o", "r", 7)
PULL = {"number": 7, "state": "open", "merged": False, "mergeable": None, "head": {"sha": "a" * 40}, "user": {}}


Handler = Callable[[httpx2.Request], httpx2.Response]


def always(response: httpx2.Response) -> Handler:
    return lambda _request: response


def reader(handler: Handler) -> GitHubReader:
    return GitHubReader(
        "https://api.github.com", Secret("ghp_x"), transport=httpx2.MockTransport(handler), now=lambda: 1000.0
    )


def answer(status: int, body: Any = None, **headers: str) -> httpx2.Response:
    return httpx2.Response(status, content=b"" if body is None else json.dumps(body).encode(), headers=headers)


async def test_an_etag_is_sent_back_and_a_304_answers_from_the_copy_kept_g_15() -> None:
    seen: list[str | None] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        seen.append(request.headers.get("if-none-match"))
        return answer(304) if request.headers.get("if-none-match") == '"v1"' else answer(200, PULL, etag='"v1"')

    github = reader(handle)
    first, second = await github.pull(REF), await github.pull(REF)
    assert seen == [None, '"v1"'] and first == second and first.head_sha == "a" * 40 and first.mergeable is None


async def test_a_rate_limit_names_the_wait_github_asks_for_g_15() -> None:
    reset = reader(always(answer(403, {}, **{"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1600"})))
    with pytest.raises(GitHubRateLimited) as primary:
        await reset.pull(REF)
    after = reader(always(answer(429, {}, **{"retry-after": "42"})))
    with pytest.raises(GitHubRateLimited) as secondary:
        await after.pull(REF)
    assert primary.value.wait_seconds == 600 and secondary.value.wait_seconds == 42


async def test_a_refused_token_and_an_unseen_repository_say_how_to_give_access_g_15() -> None:
    with pytest.raises(GitHubAccessRefused, match="GH_TOKEN.*gh auth login"):
        await reader(always(answer(401, {"message": "Bad credentials"}))).pull(REF)
    with pytest.raises(GitHubNotFound, match="cannot see"):
        await reader(always(answer(404, {"message": "Not Found"}))).pull(REF)


async def test_the_token_goes_as_a_bearer_header_and_checks_are_read_for_the_commit_asked_g_16() -> None:
    asked: list[tuple[str, str]] = []

    def handle(request: httpx2.Request) -> httpx2.Response:
        asked.append((request.url.path, request.headers["authorization"]))
        if request.url.path.endswith("/check-runs"):
            return answer(200, {"check_runs": [{"name": "test", "status": "completed", "conclusion": "timed_out"}]})
        return answer(200, {"statuses": [{"context": "ci/lint", "state": "error", "description": "boom"}]})

    checks = await reader(handle).checks(REF, "b" * 40)
    assert [(check.name, check.state) for check in checks] == [("test", "failure"), ("ci/lint", "failure")]
    assert {path for path, _ in asked} == {
        f"/repos/o/r/commits/{'b' * 40}/check-runs",
        f"/repos/o/r/commits/{'b' * 40}/status",
    }
    assert {token for _, token in asked} == {"Bearer ghp_x"}


async def test_write_access_is_read_from_the_collaborator_permission_and_404_is_none() -> None:
    def handle(request: httpx2.Request) -> httpx2.Response:
        login = request.url.path.split("/")[-2]
        roles = {
            "alice": {"permission": "write", "role_name": "maintain"},
            "bob": {"permission": "read", "role_name": "triage"},
        }
        return answer(200, roles[login]) if login in roles else answer(404, {})

    github = reader(handle)
    assert [await github.can_write(REF, login) for login in ("alice", "bob", "eve")] == [True, False, False]


def test_a_pr_is_named_by_its_url_or_owner_repo_number_and_nothing_else_passes() -> None:
    assert pull_ref("https://github.com/o/r/pull/7") == PullRef("o", "r", 7)
    assert pull_ref("o/r#7") == PullRef("o", "r", 7) and PullRef("o", "r", 7).url == "https://github.com/o/r/pull/7"
    for bad in ("o/r#0", "../r#7", "o/..#7", "https://evil.example/o/r/pull/7", "o/r/#7", "o r#7", "bc-123"):
        assert pull_ref(bad) is None, bad
