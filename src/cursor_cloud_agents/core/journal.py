"""A journal of paid creations, kept on disk, so that an answer lost on the way back is never paid twice.

The agent id is minted before the POST and every answer carries it, even `MUTATION_OUTCOME_UNKNOWN`.
But an answer can be lost before it reaches the model at all: the client cancels the call, or the
server process dies, while the POST is on its way. The model then knows no id, and a retry would mint
a new one and pay again. So each creation is written (and flushed) before it is sent, with its state
`sent`, and settled `done` or `failed` when the answer comes. An identical creation (same
fingerprint) asked again while an earlier one is still `sent` reuses the earlier agent id (the API's
idempotency key), or, with `env_vars` where the API allows no id, is first resolved by reading.

The journal holds no prompt and no secret: a digest of the request (the agent id left out, and
`env_vars` reduced to their names), the minted id, the name, a time and a state. Entries older than
the window are dropped. Without a state directory it lives in memory only, and so it does when the
directory cannot be used (unreadable, corrupt, read-only, a file): the server starts all the same and
says once what it could not use.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, cast

import anyio

logger = logging.getLogger("cursor_cloud_agents.journal")

WINDOW_SECONDS = 600.0
"""How long an unsettled creation is remembered: a retry comes within minutes, not hours."""
FILE_NAME = "creations.jsonl"


@dataclass(frozen=True)
class Attempt:
    """One creation as the journal knows it."""

    at: float
    fingerprint: str
    agent_id: str | None
    name: str | None
    state: str  # "sent", "done" or "failed"


def fingerprint(body: dict[str, Any]) -> str:
    """A digest of a creation request: what makes two requests the same creation."""
    same = {key: value for key, value in body.items() if key != "agentId"}
    if isinstance(same.get("envVars"), dict):
        same["envVars"] = sorted(same["envVars"])  # names only: values are secrets and never hashed
    prompt: dict[str, Any] = same.get("prompt") or {}
    images: list[Any] = prompt.get("images") or []
    if images:
        same["prompt"] = prompt | {"images": [_image_digest(image) for image in images]}
    return hashlib.sha256(json.dumps(same, sort_keys=True, default=str).encode()).hexdigest()


def _image_digest(image: dict[str, Any]) -> dict[str, Any]:
    # Up to 5 images of 15 MiB each: hashed once each, rather than copied through a JSON dump of them all.
    data = image.get("data")
    return image | {"data": hashlib.sha256(data.encode()).hexdigest()} if isinstance(data, str) else image


_FIELD_TYPES: dict[str, type | tuple[type, ...]] = {
    "at": (int, float),
    "fingerprint": str,
    "agent_id": (str, type(None)),
    "name": (str, type(None)),
    "state": str,
}


def _attempt_of(line: str) -> Attempt | None:
    """The attempt a journal line records, or None for a line that is not one (torn, foreign, mistyped)."""
    try:
        data: object = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(cast(dict[str, object], data)) != set(_FIELD_TYPES):
        return None
    fields = cast(dict[str, object], data)
    if not all(isinstance(fields[key], kind) for key, kind in _FIELD_TYPES.items()):
        return None
    attempt = Attempt(**cast(dict[str, Any], fields))
    return attempt if attempt.state in ("sent", "done", "failed") else None


class CreationJournal:
    """Append-only lines of attempts; the latest line of a fingerprint is its state."""

    def __init__(self, directory: Path | None) -> None:
        self._path = None if directory is None else directory / FILE_NAME
        self._latest: dict[str, Attempt] = {}
        self._warned = False
        self.deciding = anyio.Lock()
        """Held by a creation from its look for an earlier identical one until it is written as sent, so
        that two identical calls at once are one creation (the second re-sends the first's id), not two."""
        self._load()

    def unsettled(self, print_: str, now: float) -> Attempt | None:
        """The earlier attempt of this creation whose answer never came, if it is recent."""
        attempt = self._latest.get(print_)
        if attempt is None or attempt.state != "sent" or now - attempt.at > WINDOW_SECONDS:
            return None
        return attempt

    def pending(self, agent_id: str, now: float) -> Attempt | None:
        """The recent creation of `agent_id` that was sent and never settled, if there is one."""
        for attempt in self._latest.values():
            if attempt.agent_id == agent_id and attempt.state == "sent" and now - attempt.at <= WINDOW_SECONDS:
                return attempt
        return None

    def write(self, attempt: Attempt) -> None:
        """Record an attempt (flushed to disk before this returns, when there is a disk)."""
        self._latest[attempt.fingerprint] = attempt
        if self._path is None:
            return
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            descriptor = os.open(self._path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(descriptor, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(asdict(attempt)) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            # The creation still goes out: the journal guards against a lost answer, it must not block work.
            self._memory_only("not written", exc)

    def _memory_only(self, what: str, exc: Exception) -> None:
        """Say once that the file cannot be used; the journal goes on in memory."""
        if not self._warned:
            self._warned = True
            logger.warning("creation journal %s (%s): kept in memory only", what, type(exc).__name__)

    def _load(self) -> None:
        if self._path is None:
            return
        try:
            if not self._path.is_file():
                return
            lines = self._path.read_bytes().decode("utf-8", "replace").splitlines()
        except OSError as exc:
            self._memory_only("not read", exc)
            return
        for line in lines:
            attempt = _attempt_of(line)
            if attempt is not None:  # a torn or foreign line is skipped: the others still count
                self._latest[attempt.fingerprint] = attempt
        try:
            self._compact(max((a.at for a in self._latest.values()), default=0.0))
        except OSError as exc:
            self._memory_only("not compacted", exc)

    def _compact(self, newest: float) -> None:
        """Keep only recent fingerprints, so the file never grows without bound."""
        kept = {key: a for key, a in self._latest.items() if newest - a.at <= WINDOW_SECONDS}
        if len(kept) == len(self._latest) or self._path is None:
            return
        self._latest = kept
        temporary = self._path.with_suffix(".tmp")
        temporary.write_text("".join(json.dumps(asdict(a)) + "\n" for a in kept.values()), encoding="utf-8")
        temporary.chmod(0o600)
        temporary.replace(self._path)
