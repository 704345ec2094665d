"""The previous version's two state files, read as acts of the store, once, when a state directory is upgraded.

That version wrote each creation twice: `creations.jsonl` (the journal: one line per state of a
fingerprint, `sent`, `done` or `failed`) and `ledger.jsonl` (the count: one line per creation in the last
24 hours, with its agent id once known). Both wrote the same `at` for one creation, so a ledger line and
the journal's line of the same time are one act. What a line cannot tell is counted, never dropped: a
ledger line that cannot be read is a creation made now, as the store reads its own lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

from cursor_cloud_agents.core.acts import Act, State, read_lines

OLD_JOURNAL = "creations.jsonl"
OLD_LEDGER = "ledger.jsonl"
_STATES = ("sent", "done", "failed")


def acts_of_old_files(paths: list[Path], now: float) -> list[Act]:
    """The acts the previous version's files hold: each creation once, counted when the ledger counted it."""
    journal = _journal(_lines(paths, OLD_JOURNAL))
    acts: list[Act] = []
    for line in _lines(paths, OLD_LEDGER):
        entry = _object(line)
        at, agent_id = (entry or {}).get("at"), (entry or {}).get("agent_id")
        if not isinstance(at, int | float) or isinstance(at, bool):
            acts.extend(read_lines(["not an act"], now).acts.values())  # unreadable: counted as made now
            continue
        attempt = journal.pop(float(at), None) or {}
        acts.append(_act(float(at), attempt, counted=True, agent_id=agent_id if isinstance(agent_id, str) else None))
    acts.extend(_act(at, attempt, counted=False, agent_id=None) for at, attempt in journal.items())
    return acts


def _act(at: float, attempt: dict[str, Any], *, counted: bool, agent_id: str | None) -> Act:
    state: State = attempt["state"] if attempt.get("state") in _STATES else "done"
    return Act(
        Act.new_id(),
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
        if entry is not None and isinstance(entry.get("fingerprint"), str) and isinstance(entry.get("at"), int | float):
            latest[entry["fingerprint"]] = entry
    return {float(entry["at"]): entry for entry in latest.values()}


def _lines(paths: list[Path], name: str) -> list[str]:
    found = [path for path in paths if path.name == name]
    return found[0].read_bytes().decode("utf-8", "replace").splitlines() if found else []


def _object(line: str) -> dict[str, Any] | None:
    try:
        value: object = json.loads(line)
    except ValueError:
        return None
    return cast(dict[str, Any], value) if isinstance(value, dict) else None


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None
