"""The creation ledger: how many agents this machine's servers created in the last 24 hours, against a limit.

A model can loop, and every creation is paid. `CURSOR_MCP_MAX_NEW_AGENTS` bounds the agents created
through this server per rolling 24 hours, across every server process of the machine: two client
windows share one limit. Each creation takes its place in the ledger (a file in the state directory,
under an exclusive lock, flushed) before its POST leaves, so a crash between the two counts it: money is
never under-counted. A creation asked again with the same agent id (the journal's re-send) does not
count twice, and one Cursor refused (a 4xx: no agent was made) gives its place back, so that a model
retrying a refused creation does not use up the user's day. Each entry keeps the agent's id once known,
so that the spend limit can add up what the agents created in the window cost. Without a usable state
directory the ledger counts in memory, for this process only.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

logger = logging.getLogger("cursor_cloud_agents.ledger")

WINDOW_SECONDS = 24 * 3600.0
FILE_NAME = "ledger.jsonl"


class LimitReached(Exception):
    """No creation may be sent now: `count` creations in the window, the oldest leaving it at `frees_at`."""

    def __init__(self, count: int, limit: int, frees_at: float | None) -> None:
        super().__init__(f"{count} of {limit} creations in the last 24 hours")
        self.count = count
        self.limit = limit
        self.frees_at = frees_at


@dataclass(frozen=True)
class Entry:
    """One creation: when it took its place, and the agent's id once known."""

    at: float
    agent_id: str | None = None

    def line(self) -> str:
        return json.dumps({"at": self.at} | ({} if self.agent_id is None else {"agent_id": self.agent_id})) + "\n"


Change = Callable[[list["Entry"]], list["Entry"]]


class CreationLedger:
    """The creations of the last 24 hours; `take` adds one unless the limit is reached."""

    def __init__(self, directory: Path | None, limit: int) -> None:
        self.limit = limit
        self._path = None if directory is None else directory / FILE_NAME
        self._memory: list[Entry] = []
        self._warned = False

    def use(self, now: float) -> tuple[int, float | None]:
        """How many creations are in the window, and when the oldest leaves it."""
        times = [entry.at for entry in self._recent(self._read(), now)]
        return len(times), (min(times) + WINDOW_SECONDS if times else None)

    def agents(self, now: float) -> list[str]:
        """The ids of the agents created in the window (those known: a creation with variables learns its id
        only from the answer)."""
        return [entry.agent_id for entry in self._recent(self._read(), now) if entry.agent_id is not None]

    def take(self, now: float, agent_id: str | None = None) -> None:
        """Count one more creation, written before it is sent.

        Raises:
            LimitReached: the window already holds `limit` creations; nothing was written.
        """
        self._change(lambda entries: self._admit(self._recent(entries, now), Entry(now, agent_id)))

    def release(self, at: float, agent_id: str | None) -> None:
        """Give back the place a creation took at `at`: Cursor refused it (or it never left), so no agent was made.

        Only a definite refusal releases; a lost answer keeps its place (money is never under-counted)."""

        def without(entries: list[Entry]) -> list[Entry]:
            kept = list(entries)
            if Entry(at, agent_id) in kept:
                kept.remove(Entry(at, agent_id))  # one place: another creation of the same instant keeps its own
            return kept

        self._change(without)

    def identify(self, at: float, agent_id: str) -> None:
        """Name the agent of the creation counted at `at` (one that was sent without an id)."""
        self._change(lambda entries: [
            replace(entry, agent_id=agent_id) if entry.at == at and entry.agent_id is None else entry
            for entry in entries
        ])  # fmt: skip

    def _change(self, change: Change) -> None:
        if self._path is not None:
            try:
                self._change_on_disk(self._path, change)
                return
            except OSError as exc:
                self._memory_only(exc)
        self._memory = change(self._memory)

    @staticmethod
    def _change_on_disk(path: Path, change: Change) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, "r+", encoding="utf-8", errors="replace") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes; a crashed holder releases it too
            kept = change(_entries(handle.read()))
            handle.seek(0)
            handle.truncate()
            handle.write("".join(entry.line() for entry in kept))
            handle.flush()
            os.fsync(handle.fileno())

    def _admit(self, entries: list[Entry], entry: Entry) -> list[Entry]:
        if len(entries) >= self.limit:
            raise LimitReached(
                len(entries), self.limit, min(e.at for e in entries) + WINDOW_SECONDS if entries else None
            )
        return [*entries, entry]

    def _read(self) -> list[Entry]:
        if self._path is None:
            return self._memory
        try:
            with self._path.open(encoding="utf-8", errors="replace") as handle:
                fcntl.flock(handle, fcntl.LOCK_SH)
                return _entries(handle.read())
        except FileNotFoundError:
            return []
        except OSError as exc:
            self._memory_only(exc)
            return self._memory

    @staticmethod
    def _recent(entries: list[Entry], now: float) -> list[Entry]:
        return [entry for entry in entries if now - entry.at < WINDOW_SECONDS]

    def _memory_only(self, exc: OSError) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(
                "creation ledger not usable (%s): counted in memory, for this process only", type(exc).__name__
            )


def _entries(text: str) -> list[Entry]:
    """The creations a ledger holds; a torn or foreign line is skipped."""
    entries: list[Entry] = []
    for line in text.splitlines():
        try:
            fields = json.loads(line)
            moment, agent_id = fields.get("at"), fields.get("agent_id")
        except (ValueError, AttributeError):
            continue
        if isinstance(moment, int | float) and not isinstance(moment, bool):
            entries.append(Entry(float(moment), agent_id if isinstance(agent_id, str) else None))
    return entries
