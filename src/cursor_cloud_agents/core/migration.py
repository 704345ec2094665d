"""The previous version's two state files, read as acts of the store, once, when a state directory is upgraded.

That version wrote each creation twice: `creations.jsonl` (the journal: one line per state of a
fingerprint, `sent`, `done` or `failed`) and `ledger.jsonl` (the count: one line per creation in the last
24 hours, with its agent id once known). Both wrote the same `at` for one creation, so a ledger line and
the journal's line of the same time are one act. What a line cannot tell is counted, never dropped: a
ledger line that cannot be read (garbage, too long, a number out of range, a wrong type, an impossible
date) is a creation made now, as the store reads its own lines.

The files are read through `regularfile` (regular files only, bounded, numbers checked); one that cannot
be read raises `OSError` naming it, for the store to refuse paid acts until it is moved aside. Each act's
id comes from its old line, so a migration tried again (its files could not be set aside) adds nothing twice.

The files are streamed, one line at a time, and only what a rule still reads is kept (`acts.kept`): an old
ledger of 40 MB of entries older than the window was held whole (13.5 s, +376 MiB), all of it copied into the
store, which then exceeded its own size bound and refused every paid act; now it is read with memory bounded
by the live entries (bench/migration.py). Lines that cannot be read are each a creation made now, so beyond
`MAX_UNREADABLE_KEPT` (more than any creation limit allows) more of them change no verdict and are only counted.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from cursor_cloud_agents.core.acts import Act, State, kept, plausible, unreadable_creation
from cursor_cloud_agents.core.timing import KEPT_SECONDS
from cursor_cloud_agents.guards.regularfile import json_value, stream_lines

OLD_JOURNAL = "creations.jsonl"
OLD_LEDGER = "ledger.jsonl"
_STATES = ("sent", "done", "failed")
MAX_UNREADABLE_KEPT = 10_001
"""Unreadable ledger lines kept as creations made now: one more than the highest CURSOR_MCP_MAX_NEW_AGENTS."""


@dataclass(frozen=True)
class Migrated:
    """The acts the old files hold, and how many of their lines could not be read as written."""

    acts: list[Act]
    unreadable: int


def acts_of_old_files(paths: list[Path], now: float, *, max_bytes: int, max_line_bytes: int) -> Migrated:
    """The acts the previous version's files hold that a rule still reads: each creation once, counted when the
    ledger counted it; read one line at a time.

    Raises:
        OSError: one of the files cannot be read (not a regular file, no permission, over `max_bytes`).
    """
    by_name = {path.name: path for path in paths}
    journal, unreadable = _journal(by_name.get(OLD_JOURNAL), now, max_bytes, max_line_bytes)
    acts: list[Act] = []
    ledger = by_name.get(OLD_LEDGER)
    lines = () if ledger is None else stream_lines(ledger, max_bytes=max_bytes, max_line_bytes=max_line_bytes)
    unreadable_kept = 0
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        entry = _object(line) or {}
        at, agent_id = entry.get("at"), entry.get("agent_id")
        if not isinstance(at, int | float) or isinstance(at, bool):
            unreadable += 1
            if unreadable_kept < MAX_UNREADABLE_KEPT:
                unreadable_kept += 1
                acts.append(replace(unreadable_creation(now), id=f"old-ledger-{number}"))
            continue
        if _expired(float(at), now):
            continue  # counts nothing any more, and is never held
        attempt = journal.pop(float(at), None) or {}
        act = _act(f"old-ledger-{number}", float(at), attempt, counted=True, agent_id=_text(agent_id))
        dated = plausible(act, now)
        unreadable += dated is not act
        if kept(dated, now):
            acts.append(dated)
    for at, attempt in journal.items():
        acts.append(plausible(_act(f"old-journal-{attempt['fingerprint']}", at, attempt, counted=False), now))
    return Migrated(acts, unreadable)


def _act(act_id: str, at: float, attempt: dict[str, Any], *, counted: bool, agent_id: str | None = None) -> Act:
    state: State = attempt["state"] if attempt.get("state") in _STATES else "done"
    return Act(
        act_id,
        "create",
        at,
        state,
        counted=counted,
        fingerprint=_text(attempt.get("fingerprint")),
        agent_id=_text(attempt.get("agent_id")) or agent_id,
        name=_text(attempt.get("name")),
    )


def _journal(
    path: Path | None, now: float, max_bytes: int, max_line_bytes: int
) -> tuple[dict[float, dict[str, Any]], int]:
    """The last line of each fingerprint still kept, by the time of its creation, and how many lines could not
    be read."""
    latest: dict[str, dict[str, Any]] = {}
    unreadable = 0
    lines = () if path is None else stream_lines(path, max_bytes=max_bytes, max_line_bytes=max_line_bytes)
    for line in lines:
        if not line.strip():
            continue
        entry = _object(line)
        unreadable += entry is None
        at = None if entry is None else entry.get("at")
        if entry is None or not isinstance(entry.get("fingerprint"), str) or not isinstance(at, int | float):
            continue
        if isinstance(at, bool) or _expired(float(at), now):
            latest.pop(entry["fingerprint"], None)  # a later line of an expired one: nothing to keep
            continue
        latest[entry["fingerprint"]] = entry
    return {float(entry["at"]): entry for entry in latest.values()}, unreadable


def _expired(at: float, now: float) -> bool:
    """Whether a creation of the previous version made at `at` is older than any rule reads (a date that cannot
    be, before 1970 or not a number, is not: it is counted as made now)."""
    return 0 <= at and now - at >= KEPT_SECONDS["create"]


def _object(line: str) -> dict[str, Any] | None:
    try:
        value: object = json_value(line)
    except (ValueError, RecursionError):
        return None
    return cast(dict[str, Any], value) if isinstance(value, dict) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
