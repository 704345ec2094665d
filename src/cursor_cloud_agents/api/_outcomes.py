"""What one HTTP exchange gave: an answer read under a cap, or a failure that says whether it may have
been sent (classified in `_http`, which alone speaks httpx2)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

_REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-cursor-request-id")


class SendFailure(Exception):
    """The exchange failed without an HTTP answer; `maybe_sent` says whether the server may have acted."""

    def __init__(self, message: str, *, maybe_sent: bool, timed_out: bool) -> None:
        super().__init__(message)
        self.maybe_sent = maybe_sent
        self.timed_out = timed_out


def no_slot() -> SendFailure:
    """Every connection stayed busy until the deadline: nothing was sent (as httpx2's PoolTimeout)."""
    return SendFailure("no connection came free before the deadline", maybe_sent=False, timed_out=True)


@dataclass(frozen=True, slots=True)
class HttpAnswer:
    """A complete HTTP answer with its body read under a cap."""

    status: int
    headers: Mapping[str, str]
    """Header names lowercased."""
    body: bytes
    request_id: str | None


def request_id_of(headers: Mapping[str, str]) -> str | None:
    """The request id from the first header of `x-request-id`, `request-id`, `x-cursor-request-id`."""
    for name in _REQUEST_ID_HEADERS:
        value = headers.get(name)
        if value:
            return value[:200]
    return None
