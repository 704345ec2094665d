"""Scanning the agent list with a local filter, with a cursor that resumes exactly after the last row.

The API filters agents by PR only; a name or status filter is ours, applied page by page: a plain
test per agent (`scan_agents`), or a choice that reads more about a page's agents in batches (the
fleet reads each candidate's latest run), both through the one `scan_rows`. A caller asks for
`limit` rows: the scan may stop in the middle of an API page, so our cursor records the API cursor
of that page, its page size, and how many of its items were already handed out; the next call
fetches the same page again and skips them. The cursor also carries a fingerprint of the filter,
so that it is not replayed with another one.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Generic, TypeVar

from cursor_cloud_agents.api import AgentSummary, CursorClient, Page, text
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import ToolFailure

MAX_PAGES = 5
FILTERED_PAGE_SIZE = 100

T = TypeVar("T")


@dataclass(frozen=True)
class Position:
    """Where a scan resumes: the API page (its cursor and size) and how many of its items are done."""

    api_cursor: str | None
    page_size: int
    skip: int
    fingerprint: str


@dataclass(frozen=True)
class ScanPage(Generic[T]):
    """One answer of a scan: the rows kept, where to resume, and how many agents were read."""

    items: list[T]
    next_cursor: str | None
    scanned: int
    pages: int
    after: list[str] = field(default_factory=list[str])
    """For each item, the cursor resuming right after it: where a page cut short by the cap goes on."""

    def cut(self, count: int) -> str | None:
        """The cursor after the first `count` items, at least one (`next_cursor` when none is left out)."""
        return self.next_cursor if count >= len(self.items) else self.after[count - 1]


Fetch = Callable[[Position], Awaitable[Page[AgentSummary]]]
"""Reads the API page a position names."""
Choose = Callable[[Sequence[AgentSummary], int], Awaitable[list[tuple[int, T]]]]
"""Given the agents of a page not yet handed out and how many rows are still wanted, the rows kept (at most
that many, in order), each with the index of its agent: the scan resumes right after the last one."""


def fingerprint(*parts: object) -> str:
    """A short digest of the filter a cursor belongs to."""
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:12]


def encode(position: Position) -> str:
    """The opaque cursor handed to the model."""
    raw = json.dumps([position.api_cursor, position.page_size, position.skip, position.fingerprint])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str, expected_fingerprint: str) -> Position:
    """The position of a cursor made by `encode` for the same filter; VALIDATION otherwise."""
    refused = ToolFailure(failures.VALIDATION, "cursor is not one this tool returned; pass next_cursor unchanged")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        api_cursor, page_size, skip, mark = json.loads(raw)
        position = Position(api_cursor, int(page_size), int(skip), str(mark))
    except (ValueError, TypeError, OverflowError, RecursionError):  # JSON reads Infinity, and nests deep
        raise refused from None
    # An edited cursor must not reach the API (a page size it refuses, a control character in the API's cursor)
    # or repeat rows (a negative skip).
    if not isinstance(api_cursor, str | None) or not 1 <= position.page_size <= FILTERED_PAGE_SIZE or position.skip < 0:
        raise refused
    if api_cursor is not None and not text.is_token(api_cursor):
        raise refused
    if position.fingerprint != expected_fingerprint:
        raise ToolFailure(failures.VALIDATION, "cursor belongs to another filter; pass the same filters with it")
    return position


def listing(api: CursorClient, *, pr_url: str | None = None, include_archived: bool | None = None) -> Fetch:
    """The API page at a position, with the API's own filters."""

    async def fetch(position: Position) -> Page[AgentSummary]:
        return await api.list_agents(
            limit=position.page_size, cursor=position.api_cursor, pr_url=pr_url, include_archived=include_archived
        )

    return fetch


def keeping(keep: Callable[[AgentSummary], bool] | None) -> Choose[AgentSummary]:
    """A choice by a plain per-agent test (every agent when None)."""

    async def choose(agents: Sequence[AgentSummary], wanted: int) -> list[tuple[int, AgentSummary]]:
        kept = ((index, agent) for index, agent in enumerate(agents) if keep is None or keep(agent))
        return list(islice(kept, wanted))

    return choose


async def scan_rows(
    fetch: Fetch,
    choose: Choose[T],
    *,
    limit: int,
    cursor: str | None,
    mark: str,
    filtered: bool,
    max_pages: int = MAX_PAGES,
) -> ScanPage[T]:
    """Up to `limit` rows that `choose` makes of the agents, reading at most `max_pages` API pages (of
    `FILTERED_PAGE_SIZE` when `filtered`, since most agents may be passed over, else of `limit`)."""
    position = decode(cursor, mark) if cursor else Position(None, FILTERED_PAGE_SIZE if filtered else limit, 0, mark)
    rows: list[T] = []
    after: list[str] = []
    scanned = pages = 0
    while pages < max_pages:
        page = await fetch(position)
        pages += 1
        fresh = page.items[position.skip :]
        chosen = await choose(fresh, limit - len(rows))
        rows += [row for _, row in chosen]
        after += [encode(replace(position, skip=position.skip + index + 1)) for index, _ in chosen]
        done = chosen[-1][0] + 1 if len(rows) == limit else len(fresh)
        scanned += done
        if done < len(fresh):  # full inside this page: resume right after the last row
            return ScanPage(rows, encode(replace(position, skip=position.skip + done)), scanned, pages, after)
        if page.next_cursor is None:
            return ScanPage(rows, None, scanned, pages, after)
        position = Position(page.next_cursor, position.page_size, 0, mark)
        if len(rows) == limit:
            break
    return ScanPage(rows, encode(position), scanned, pages, after)


async def scan_agents(
    api: CursorClient,
    *,
    limit: int,
    cursor: str | None,
    keep: Callable[[AgentSummary], bool] | None,
    mark: str,
    pr_url: str | None = None,
    include_archived: bool | None = None,
    max_pages: int = MAX_PAGES,
) -> ScanPage[AgentSummary]:
    """Up to `limit` agents that `keep` accepts (all when None), reading at most `max_pages` API pages."""
    fetch = listing(api, pr_url=pr_url, include_archived=include_archived)
    return await scan_rows(
        fetch, keeping(keep), limit=limit, cursor=cursor, mark=mark, filtered=keep is not None, max_pages=max_pages
    )
