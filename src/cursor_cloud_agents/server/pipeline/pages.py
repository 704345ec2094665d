"""How much of a long text one answer carries, for the client that will read it (issue 46, K-67..K-69).

Every answer stays under `CURSOR_MCP_MAX_RESULT_BYTES` (38,000 by default), which Claude Code, OpenCode and
the Cursor CLI hand their model whole. Codex does not: driven with 0.171, a 38 KB diff page reached its model
cut to about 12 KB in the middle, its JSON broken while `next_offset` survived, so a model paging on skipped
two thirds of every page (docs/clients.md). So a page of text (a diff, a run's result, an artifact) is sized
for the client that asked: a default per client, known from the `clientInfo` it gave at `initialize`, and a
`max_bytes` a model can pass to ask for smaller (or, within the cap, larger) pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, cast

from pydantic import Field

from cursor_cloud_agents.server.pipeline.answers import Answers

MIN_PAGE_BYTES = 4_000
"""The smallest answer a page may be asked to fit (the least `CURSOR_MCP_MAX_RESULT_BYTES` allows too)."""
MAX_PAGE_BYTES = 38_000
"""The default result cap: a larger `max_bytes` than the server's cap is brought down to it."""
PAGE_BYTES_BY_CLIENT: Mapping[str, int] = {"codex-mcp-client": 10_000}
"""The page default per client name (`clientInfo.name`), where the server's cap is more than its model reads
whole: Codex kept about 12,000 bytes of a 38,000-byte answer (0.171, driven), so 10,000 leaves it a margin.
Claude Code (`claude-code`: 25,000 tokens), OpenCode (`opencode`: 51,200 bytes) and the Cursor CLI (40,000
bytes) read the whole capped answer, and a client not named here gets the cap."""

PageBytes = Annotated[
    int | None,
    Field(ge=MIN_PAGE_BYTES, description=f"Answer size, {MIN_PAGE_BYTES}+ bytes; default fits your client."),
]


def client_name(client_info: Any, meta: Mapping[str, Any] | None) -> str | None:
    """The client's name from `initialize`'s `clientInfo`, or from a 2026-07-28 request's `_meta` (which
    carries it per request); None when it gave none."""
    name: object = getattr(client_info, "name", None)
    if not isinstance(name, str):
        info: object = (meta or {}).get("io.modelcontextprotocol/clientInfo")
        name = cast(Mapping[str, object], info).get("name") if isinstance(info, Mapping) else None
    return name[:100] if isinstance(name, str) and name else None


def page_bytes(client: str | None, asked: int | None = None) -> int | None:
    """The bytes one page's answer may take: what the model asked, else its client's default (None: the cap)."""
    return asked if asked is not None else PAGE_BYTES_BY_CLIENT.get(client or "")


def paged(answers: Answers, client: str | None, asked: int | None = None) -> Answers:
    """`answers` fitting a page for this client (never over the server's own cap)."""
    wanted = page_bytes(client, asked)
    return answers if wanted is None else answers.capped(wanted)
