"""Scanning the agent list with a local filter, with a cursor that resumes exactly after the last row.

The API filters agents by PR only; a name or status filter is ours, applied page by page. A caller
asks for `limit` rows: the scan may stop in the middle of an API page, so our cursor records the
API cursor of that page, its page size, and how many of its items were already handed out; the
next call fetches the same page again and skips them. The cursor also carries a fingerprint of the
filter, so that it is not replayed with another one.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from cursor_cloud_agents.api import AgentSummary, CursorClient
from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.failures import ToolFailure

MAX_PAGES = 5
FILTERED_PAGE_SIZE = 100


@dataclass(frozen=True)
class Position:
    """Where a scan resumes: the API page (its cursor and size) and how many of its items are done."""

    api_cursor: str | None
    page_size: int
    skip: int
    fingerprint: str


@dataclass(frozen=True)
class ScanPage:
    """One answer of a scan: the matching agents, where to resume, and how many agents were read."""

    items: list[AgentSummary]
    next_cursor: str | None
    scanned: int
    pages: int


def fingerprint(*parts: object) -> str:
    """A short digest of the filter a cursor belongs to."""
    return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:12]


def encode(position: Position) -> str:
    """The opaque cursor handed to the model."""
    raw = json.dumps([position.api_cursor, position.page_size, position.skip, position.fingerprint])
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str, expected_fingerprint: str) -> Position:
    """The position of a cursor made by `encode` for the same filter; VALIDATION otherwise."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        api_cursor, page_size, skip, mark = json.loads(raw)
        position = Position(api_cursor, int(page_size), int(skip), str(mark))
    except (ValueError, TypeError):
        raise ToolFailure(
            failures.VALIDATION, "cursor is not one this tool returned; pass next_cursor unchanged"
        ) from None
    if position.fingerprint != expected_fingerprint:
        raise ToolFailure(failures.VALIDATION, "cursor belongs to another filter; pass the same filters with it")
    return position


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
) -> ScanPage:
    """Up to `limit` agents that `keep` accepts (all when None), reading at most `max_pages` API pages."""
    size = limit if keep is None else FILTERED_PAGE_SIZE
    position = decode(cursor, mark) if cursor else Position(None, size, 0, mark)
    items: list[AgentSummary] = []
    scanned = pages = 0
    while pages < max_pages:
        page = await api.list_agents(
            limit=position.page_size, cursor=position.api_cursor, pr_url=pr_url, include_archived=include_archived
        )
        pages += 1
        for index in range(position.skip, len(page.items)):
            scanned += 1
            agent = page.items[index]
            if keep is None or keep(agent):
                items.append(agent)
            if len(items) == limit and index + 1 < len(page.items):
                resume = Position(position.api_cursor, position.page_size, index + 1, mark)
                return ScanPage(items, encode(resume), scanned, pages)
        if page.next_cursor is None:
            return ScanPage(items, None, scanned, pages)
        position = Position(page.next_cursor, position.page_size, 0, mark)
        if len(items) == limit:
            break
    return ScanPage(items, encode(position), scanned, pages)
