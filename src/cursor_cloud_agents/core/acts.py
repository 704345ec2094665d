"""The acts of the store of paid acts, as lines: one `Act` per change, and a `Reading` of them all.

Each act has an id; its lines are appended as it moves (`sent`, then `done` or `failed`), and the last
line of an id is its state. A line that cannot be read (torn by a crash, garbage, mistyped, an impossible
date) is counted as a creation made now, never skipped (`Act.unreadable`): money is never under-counted.
The rules over a reading (the journal's "never paid twice", the ledger's "never more than allowed") are
plain functions of a `Reading` (`core/spend/journal.py`, `core/spend/ledger.py`); the file and its lock are the store's.
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Literal, cast

from cursor_cloud_agents.core.timing import FUTURE_SLACK_SECONDS, GROUP_KEPT_SECONDS, KEPT_SECONDS
from cursor_cloud_agents.guards.regularfile import json_value

Kind = Literal["create", "followup", "task", "seen", "queued", "watch"]
State = Literal["queued", "sent", "done", "failed"]
KINDS: frozenset[str] = frozenset(("create", "followup", "task", "seen", "queued", "watch"))
STATES: frozenset[str] = frozenset(("queued", "sent", "done", "failed"))


@dataclass(frozen=True)
class Act:
    """One paid or lasting act, as its last line says it is now."""

    id: str
    kind: Kind
    at: float
    """When the act was decided (a creation's place in the 24-hour window starts here)."""
    state: State
    counted: bool = False
    """Whether it takes a place in the 24-hour creation count (a creation Cursor refused gives it back)."""
    fingerprint: str | None = None
    agent_id: str | None = None
    name: str | None = None
    run_id: str | None = None
    before_run_id: str | None = None
    """A follow-up's agent's latest run before it was sent: a newer one is the run that POST made."""
    detail: dict[str, Any] | None = None
    """What else the act needs to be resumed (a task's tool, arguments and last status)."""
    unreadable: bool = False
    """A line that could not be read, counted as a creation made when it was first found."""

    @staticmethod
    def new_id() -> str:
        return uuid.uuid4().hex

    def line(self) -> str:
        # Defaults left out (a flag that is False, a field that is None), by identity: `at` may be 0.0.
        data = {key: value for key, value in asdict(self).items() if value is not None and value is not False}
        return json.dumps(data, ensure_ascii=True, allow_nan=False, separators=(",", ":")) + "\n"


_FIELDS = {item.name for item in fields(Act)}
_OPTIONAL_TEXT = ("fingerprint", "agent_id", "name", "run_id", "before_run_id")


def _parsed(text: str) -> Act | None:
    """The act a line records, or None when the line is not one this version wrote."""
    try:
        data: object = json_value(text)  # a number out of range could not be written back: unreadable
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    values = cast(dict[str, Any], data)
    at = values.get("at")
    well_typed = (
        set(values) <= _FIELDS
        and isinstance(values.get("id"), str)
        and values.get("kind") in KINDS
        and values.get("state") in STATES
        and isinstance(at, int | float)
        and not isinstance(at, bool)
        and all(isinstance(values.get(key), str | None) for key in _OPTIONAL_TEXT)
        and isinstance(values.get("counted", False), bool)
        and isinstance(values.get("unreadable", False), bool)
        and isinstance(values.get("detail"), dict | None)
    )
    return Act(**values) if well_typed else None


def plausible(act: Act, now: float) -> Act:
    """An act dated where no act can be (not a number, before 1970, ahead of the clock) is counted as made now."""
    if math.isfinite(act.at) and 0 <= act.at <= now + FUTURE_SLACK_SECONDS:
        return act
    return replace(act, at=now, counted=act.counted or act.kind == "create", unreadable=True)


@dataclass
class Reading:
    """The acts of a store as read once: the last state of each id, and what could not be read."""

    acts: dict[str, Act] = field(default_factory=dict[str, Act])
    lines: int = 0
    repaired: int = 0
    """Lines read as something else than they say (unreadable, or impossibly dated): counted as made now."""

    def of(self, kind: Kind) -> Iterator[Act]:
        return (act for act in self.acts.values() if act.kind == kind)

    def copy(self) -> Reading:
        return Reading(dict(self.acts), self.lines, self.repaired)


def read_lines(lines: Iterable[str], now: float, into: Reading | None = None) -> Reading:
    """The acts that `lines` record (added to `into`), the unreadable ones counted as creations made `now`."""
    reading = Reading() if into is None else into
    for text in lines:
        if not text.strip():
            continue
        reading.lines += 1
        act = _parsed(text)
        dated = None if act is None else plausible(act, now)
        if dated is None or dated is not act:
            reading.repaired += 1
        if dated is None:
            dated = unreadable_creation(now)
        reading.acts[dated.id] = dated
    return reading


def unreadable_creation(now: float) -> Act:
    """What a line that cannot be read stands for: a creation made now, counted (the limits fail closed)."""
    return Act(f"unreadable-{Act.new_id()}", "create", now, "done", counted=True, unreadable=True)


def kept(act: Act, now: float) -> bool:
    """Whether a rewrite keeps `act`: each kind is remembered as long as a rule reads it (`KEPT_SECONDS`); the
    creations of a set of attempts are its group's record (core/attempts/groups.py), kept longer."""
    grouped = act.kind == "create" and act.detail is not None and "group" in act.detail
    return now - act.at < (GROUP_KEPT_SECONDS if grouped else KEPT_SECONDS[act.kind])
