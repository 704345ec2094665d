"""Identifier checks, parsing and minting: agent ids, run ids and stream event ids.

Ids go into URL paths, so they are checked against their exact shape before any URL is built
(defence in depth: the MCP layer validates first). The API accepts uppercase hex and answers in
lowercase, so a valid id is returned lowercased.
"""

from __future__ import annotations

import re
import uuid

_UUID = r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
_AGENT_ID = re.compile(rf"bc-{_UUID}", re.IGNORECASE)
_RUN_ID = re.compile(rf"run-{_UUID}", re.IGNORECASE)
_BARE_UUID = re.compile(_UUID, re.IGNORECASE)
_EVENT_ID = re.compile(r"([0-9]{1,15})-([0-9]{1,9})")


def mint_agent_id() -> str:
    """A new client-chosen agent id (`bc-<uuid4>`): the key that finds a creation again (the one place ids are
    minted)."""
    return f"bc-{uuid.uuid4()}"


def agent_id(value: str) -> str:
    """Check an agent id (`bc-<uuid>`) and return it lowercased.

    Raises:
        ValueError: the value is not an agent id.
    """
    return _check(_AGENT_ID, value, "agent id (bc-<uuid>)")


def run_id(value: str) -> str:
    """Check a run id (`run-<uuid>`) and return it lowercased.

    Raises:
        ValueError: the value is not a run id.
    """
    return _check(_RUN_ID, value, "run id (run-<uuid>)")


def environment_id(value: str) -> str:
    """Check an environment id (a bare UUID) and return it lowercased.

    Raises:
        ValueError: the value is not a UUID.
    """
    return _check(_BARE_UUID, value, "environment id (uuid)")


def _check(pattern: re.Pattern[str], value: str, what: str) -> str:
    # fullmatch, not match: a trailing "/../x" or "?q" must never reach a path.
    if not isinstance(value, str) or pattern.fullmatch(value) is None:  # pyright: ignore[reportUnnecessaryIsInstance] -- callers may be untyped
        raise ValueError(f"not a valid {what}")
    return value.lower()


def parse_event_id(value: str | None) -> tuple[int, int] | None:
    """Split a stream event id `<ms>-<seq>` into (milliseconds, sequence), or None for another shape.

    Ids look like Redis stream ids; they order events and are the stream's only liveness clock.
    """
    if not value:
        return None
    match = _EVENT_ID.fullmatch(value)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))
