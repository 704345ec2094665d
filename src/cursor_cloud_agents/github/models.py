"""What the watch reads of GitHub, as plain values: a PR, its head's checks, its comments, a login's permission.

Every field comes from GitHub's REST answers (docs/pr-loop.md §1 lists them). Bodies are read defensively: a
field of the wrong type is taken as absent, never as a crash, and free text (names, bodies, outputs) stays
raw here: it is the core's to clean, since only the core knows where it goes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, cast

CheckState = Literal["pending", "success", "failure"]

FAILING_CONCLUSIONS = frozenset({"failure", "timed_out", "cancelled", "action_required", "startup_failure"})
"""A completed check run with one of these conclusions failed; `success`, `neutral`, `skipped`, `stale` did not."""
FAILING_STATUSES = frozenset({"failure", "error"})
"""A commit status in one of these states failed."""


def _dict(value: object) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class Author:
    login: str
    bot: bool

    @staticmethod
    def of(user: object) -> Author:
        data = _dict(user)
        login = _text(data.get("login"))
        return Author(login, data.get("type") == "Bot" or login.lower().endswith("[bot]") or not login)


@dataclass(frozen=True)
class PullRequest:
    number: int
    state: str
    """`open` or `closed`."""
    merged: bool
    mergeable: bool | None
    """None while GitHub is still computing it."""
    mergeable_state: str
    head_sha: str
    head_ref: str
    author: Author
    url: str

    @staticmethod
    def of(body: object) -> PullRequest:
        data = _dict(body)
        head = _dict(data.get("head"))
        mergeable = data.get("mergeable")
        number = data.get("number")
        return PullRequest(
            number=number if isinstance(number, int) else 0,
            state=_text(data.get("state")),
            merged=data.get("merged") is True or bool(data.get("merged_at")),
            mergeable=mergeable if isinstance(mergeable, bool) else None,
            mergeable_state=_text(data.get("mergeable_state")),
            head_sha=_text(head.get("sha")),
            head_ref=_text(head.get("ref")),
            author=Author.of(data.get("user")),
            url=_text(data.get("html_url")),
        )

    @property
    def conflicted(self) -> bool:
        return self.mergeable is False or self.mergeable_state == "dirty"


@dataclass(frozen=True)
class Check:
    """One check on a commit: a check run or a commit status, as one shape."""

    name: str
    state: CheckState
    output: str
    """What it said: a run's title, summary and text; a status's description (raw, untrusted)."""
    url: str = ""

    @staticmethod
    def of_run(body: object) -> Check:
        data = _dict(body)
        output = _dict(data.get("output"))
        said = "\n".join(part for part in (_text(output.get(key)) for key in ("title", "summary", "text")) if part)
        if data.get("status") != "completed":
            state: CheckState = "pending"
        else:
            state = "failure" if data.get("conclusion") in FAILING_CONCLUSIONS else "success"
        return Check(_text(data.get("name")), state, said, _text(data.get("html_url")))

    @staticmethod
    def of_status(body: object) -> Check:
        data = _dict(body)
        raw = data.get("state")
        state: CheckState = "failure" if raw in FAILING_STATUSES else "success" if raw == "success" else "pending"
        return Check(_text(data.get("context")), state, _text(data.get("description")), _text(data.get("target_url")))


CommentKind = Literal["issue", "review", "review_comment"]


@dataclass(frozen=True)
class Comment:
    """A comment on the PR, a review with a body, or a comment on a line of its diff."""

    key: str
    """Unique across kinds: `issue:ID`, `review:ID`, `review_comment:ID`."""
    kind: CommentKind
    author: Author
    body: str
    at: str
    path: str = ""

    @staticmethod
    def of(kind: CommentKind, body: object) -> Comment | None:
        data = _dict(body)
        ident = data.get("id")
        if not isinstance(ident, int):
            return None
        at = _text(data.get("submitted_at") if kind == "review" else data.get("created_at"))
        return Comment(
            f"{kind}:{ident}", kind, Author.of(data.get("user")), _text(data.get("body")), at, _text(data.get("path"))
        )


WRITE_ROLES = frozenset({"admin", "maintain", "write"})
"""A collaborator's `role_name` (or `permission`) that can push: a reviewer the watch trusts."""


def can_write(body: object) -> bool:
    """Whether a `collaborators/{login}/permission` answer gives write access or above."""
    data = _dict(body)
    return data.get("role_name") in WRITE_ROLES or data.get("permission") in ("admin", "write")
