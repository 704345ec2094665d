"""Small wire-format helpers shared by the simulator: timestamps, ids and compact JSON."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any, cast

_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
AGENT_ID_RE = re.compile(rf"^bc-{_UUID}$")
RUN_ID_RE = re.compile(rf"^run-{_UUID}$")
EVENT_ID_RE = re.compile(r"^(\d{1,16})-(\d{1,9})$")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def iso(ts: float) -> str:
    """ISO-8601 UTC with milliseconds, the documented timestamp form: `2026-04-13T18:30:00.000Z`."""
    moment = datetime.fromtimestamp(round(ts, 3), tz=UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def dumps(value: Any) -> str:
    """Compact JSON, as the API answers (no spaces, UTF-8 kept)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if text.isascii():
        return text
    # A lone surrogate (a request's JSON escape can carry one into a name or a prompt) has no UTF-8
    # form: it goes out as its JSON escape, as JavaScript's JSON.stringify writes it, instead of
    # failing the answer after the world has already changed.
    return _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def normalise_id(raw: str) -> str:
    """Ids are accepted in uppercase hex and answered in lowercase (docs/api-contract.md §1, quirk 15)."""
    return raw.lower()


def parse_event_id(raw: str) -> tuple[int, int] | None:
    """`<ms>-<seq>` as an orderable pair, or None when malformed."""
    match = EVENT_ID_RE.match(raw.strip())
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2))


def format_event_id(key: tuple[int, int]) -> str:
    """The wire form of an event id."""
    return f"{key[0]}-{key[1]}"


def as_object(value: Any) -> dict[str, Any] | None:
    """A decoded JSON object as a typed dict, or None when it is something else."""
    return cast(dict[str, Any], value) if isinstance(value, dict) else None


def as_array(value: Any) -> list[Any] | None:
    """A decoded JSON array as a typed list, or None when it is something else."""
    return cast(list[Any], value) if isinstance(value, list) else None
