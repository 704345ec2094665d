"""The creation ledger: how many agents this machine's servers created in the last 24 hours, against a limit.

A model can loop, and every creation is paid. `CURSOR_MCP_MAX_NEW_AGENTS` bounds the agents created
through this server per rolling 24 hours, across every server process of the machine: two client
windows share one limit. Each creation takes its place in the ledger (a file in the state directory,
under an exclusive lock, flushed) before its POST leaves, so a crash between the two counts it: money is
never under-counted. A creation asked again with the same agent id (the journal's re-send) does not
count twice. Without a usable state directory the ledger counts in memory, for this process only.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
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


class CreationLedger:
    """The creations of the last 24 hours; `take` adds one unless the limit is reached."""

    def __init__(self, directory: Path | None, limit: int) -> None:
        self.limit = limit
        self._path = None if directory is None else directory / FILE_NAME
        self._memory: list[float] = []
        self._warned = False

    def use(self, now: float) -> tuple[int, float | None]:
        """How many creations are in the window, and when the oldest leaves it."""
        times = self._recent(self._read(), now)
        return len(times), (min(times) + WINDOW_SECONDS if times else None)

    def take(self, now: float) -> None:
        """Count one more creation, written before it is sent.

        Raises:
            LimitReached: the window already holds `limit` creations; nothing was written.
        """
        if self._path is not None:
            try:
                self._take_on_disk(self._path, now)
                return
            except OSError as exc:
                self._memory_only(exc)
        self._memory = self._admit(self._recent(self._memory, now), now)

    def _take_on_disk(self, path: Path, now: float) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        with os.fdopen(descriptor, "r+", encoding="utf-8", errors="replace") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes; a crashed holder releases it too
            kept = self._admit(self._recent(_times(handle.read()), now), now)
            handle.seek(0)
            handle.truncate()
            handle.write("".join(json.dumps({"at": moment}) + "\n" for moment in kept))
            handle.flush()
            os.fsync(handle.fileno())

    def _admit(self, times: list[float], now: float) -> list[float]:
        if len(times) >= self.limit:
            raise LimitReached(len(times), self.limit, min(times) + WINDOW_SECONDS if times else None)
        return [*times, now]

    def _read(self) -> list[float]:
        if self._path is None:
            return self._memory
        try:
            with self._path.open(encoding="utf-8", errors="replace") as handle:
                fcntl.flock(handle, fcntl.LOCK_SH)
                return _times(handle.read())
        except FileNotFoundError:
            return []
        except OSError as exc:
            self._memory_only(exc)
            return self._memory

    @staticmethod
    def _recent(times: list[float], now: float) -> list[float]:
        return [moment for moment in times if now - moment < WINDOW_SECONDS]

    def _memory_only(self, exc: OSError) -> None:
        if not self._warned:
            self._warned = True
            logger.warning(
                "creation ledger not usable (%s): counted in memory, for this process only", type(exc).__name__
            )


def _times(text: str) -> list[float]:
    """The creation times a ledger holds; a torn or foreign line is skipped."""
    times: list[float] = []
    for line in text.splitlines():
        try:
            moment = json.loads(line).get("at")
        except (ValueError, AttributeError):
            continue
        if isinstance(moment, int | float) and not isinstance(moment, bool):
            times.append(float(moment))
    return times
