"""The API's times: ISO-8601 UTC strings on the wire (`2026-12-01T09:37:13.080Z`), epoch seconds in code."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal


def epoch(iso_time: str | None) -> float | None:
    """Epoch seconds of a time as the API writes it; None when absent or unreadable."""
    if not iso_time:
        return None
    try:
        return datetime.fromisoformat(iso_time.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def iso(seconds: float, timespec: Literal["seconds", "milliseconds"] = "seconds") -> str:
    """Epoch seconds as the API writes a time (UTC, `Z`)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec=timespec).replace("+00:00", "Z")
