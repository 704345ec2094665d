"""What `verify` saw on the wire: every exchange of its client, kept in memory (an `Observer`).

The typed client parses answers into models; some facts are about what the models drop (headers,
the raw error envelope, `nextCursor: null`), so verify reads them here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cursor_cloud_agents.api.record import Exchange, StreamExchange


@dataclass
class Observed:
    """Every exchange of one client, in order."""

    exchanges: list[Exchange] = field(default_factory=list[Exchange])
    streams: list[StreamExchange] = field(default_factory=list[StreamExchange])

    def exchange(self, exchange: Exchange) -> None:
        """Keep an answered request."""
        self.exchanges.append(exchange)

    def stream(self, exchange: StreamExchange) -> None:
        """Keep a closed stream."""
        self.streams.append(exchange)

    def last(self, path: str) -> Exchange | None:
        """The last exchange on `path`."""
        return next((ex for ex in reversed(self.exchanges) if ex.path == path), None)

    def with_status(self, status: int) -> list[Exchange]:
        """Every exchange answered `status`."""
        return [ex for ex in self.exchanges if ex.status == status]


def body_json(exchange: Exchange | None) -> Any:
    """The answer body as JSON, or None."""
    if exchange is None:
        return None
    try:
        return json.loads(exchange.body)
    except (ValueError, UnicodeDecodeError):
        return None
