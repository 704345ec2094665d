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
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

from cursor_cloud_agents.core.acts import Act, State, plausible, unreadable_creation
from cursor_cloud_agents.guards.regularfile import json_value, read_lines

OLD_JOURNAL = "creations.jsonl"
OLD_LEDGER = "ledger.jsonl"
_STATES = ("sent", "done", "failed")


@dataclass(frozen=True)
class Migrated:
    """The acts the old files hold, and how many of their lines could not be read as written."""

    acts: list[Act]
    unreadable: int


def acts_of_old_files(paths: list[Path], now: float, *, max_bytes: int, max_line_bytes: int) -> Migrated:
    """The acts the previous version's files hold: each creation once, counted when the ledger counted it.

    Raises:
        OSError: one of the files cannot be read (not a regular file, no permission, over `max_bytes`).
    """
    read = {path.name: read_lines(path, max_bytes=max_bytes, max_line_bytes=max_line_bytes).lines for path in paths}
    journal_lines = [line for line in read.get(OLD_JOURNAL, []) if line.strip()]
    journal = _journal(journal_lines)
    acts: list[Act] = []
    unreadable = sum(_object(line) is None for line in journal_lines)
    for number, line in enumerate(read.get(OLD_LEDGER, [])):
        if not line.strip():
            continue
        entry = _object(line) or {}
        at, agent_id = entry.get("at"), entry.get("agent_id")
        if not isinstance(at, int | float) or isinstance(at, bool):
            unreadable += 1
            acts.append(replace(unreadable_creation(now), id=f"old-ledger-{number}"))
            continue
        attempt = journal.pop(float(at), None) or {}
        act = _act(f"old-ledger-{number}", float(at), attempt, counted=True, agent_id=_text(agent_id))
        acts.append(plausible(act, now))
        unreadable += acts[-1] is not act
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


def _journal(lines: list[str]) -> dict[float, dict[str, Any]]:
    """The last line of each fingerprint, by the time of its creation."""
    latest: dict[str, dict[str, Any]] = {}
    for line in lines:
        entry = _object(line)
        at = None if entry is None else entry.get("at")
        if entry is not None and isinstance(entry.get("fingerprint"), str) and isinstance(at, int | float):
            latest[entry["fingerprint"]] = entry
    return {float(entry["at"]): entry for entry in latest.values()}


def _object(line: str) -> dict[str, Any] | None:
    try:
        value: object = json_value(line)
    except (ValueError, RecursionError):
        return None
    return cast(dict[str, Any], value) if isinstance(value, dict) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
