"""The `status` line's cache: one small JSON file in the state directory, shared by every process of the machine.

A status bar runs `cursor-cloud-agents status` again and again (Claude Code on every update of its screen),
so the line is answered from this file while it is younger than REFRESH_SECONDS, by a path that loads
nothing but this module and `config` (`cli/launch.py`): well under 0.3 s. Only when it is older does the
`status` command read Cursor again and write it anew.

- Written atomically: a temporary file in the same folder, flushed, then renamed over the old one, so a
  reader sees the old line or the new one, never half of one.
- Refreshed by one process at a time: the refresher holds an exclusive lock on `status.lock`, and a
  process that waited for the lock reads what the other wrote instead of reading Cursor again.
- Kept per key: it records a fingerprint of the key it was read with (a keyed hash, not the key), and a
  line of another key is never shown.

"Ended unread" counts the runs this machine's `status` saw running and then saw ended (`ended_unread`),
less those a tool answer or a terminal command showed since, which the store of paid acts remembers
(`core/runs/seen.py`). A run that started and ended between two refreshes is missed.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from cursor_cloud_agents.config import ConfigError, Settings
from cursor_cloud_agents.guards.regularfile import json_value, open_regular, read_lines

MAX_BYTES = 64 * 1024
"""The cached line is well under a kilobyte, its unread runs capped at MAX_UNREAD: anything larger is not ours."""
REFRESH_SECONDS = 30.0
"""The line is read from Cursor at most this often. 30 s is the freshness of the running agents the slot check
counts before a creation (`core.timing.SLOTS_SECONDS`), so the line shows what a creation would be judged
on; a run lasts minutes, so a count 30 s old is still right most of the time; and a status bar redrawn on every
message would otherwise list the key's agents many times a minute (a refresh costs one listing plus one usage
read per agent created in the last 24 hours, at most CURSOR_MCP_MAX_NEW_AGENTS)."""
UNREAD_SECONDS = 24 * 3600.0
"""An ended run is counted unread for a day at most."""
MAX_UNREAD = 200
FILE_NAME = "status.json"
LOCK_NAME = "status.lock"
VERSION = 1


def fingerprint(settings: Settings) -> str:
    """Which key a line belongs to: a keyed BLAKE2 hash of it (8 bytes), never the key; `simulated` in that mode."""
    if settings.simulated or settings.api_key is None:
        return "simulated" if settings.simulated else "none"
    digest = hashlib.blake2b(settings.api_key.reveal().encode(), digest_size=8, person=b"cca-status")
    return digest.hexdigest()


@dataclass(frozen=True)
class Snapshot:
    """What the line shows, when it was read, and what `ended_unread` needs next time."""

    at: float
    key: str
    running: int
    ended_unread: int
    charged_cents: float | None
    """Charged to the agents created through this machine in 24 hours; None: Cursor does not report usage."""
    cents_unknown: int
    """Of those agents, how many have no cost yet (it lags the run's end)."""
    new_agents: int
    new_agents_limit: int
    stuck: int = 0
    """Of the running runs, how many are stale (`core.liveness`: no event for 30 minutes, the replay decided)."""
    queued: int = 0
    """Follow-ups queued for busy agents, waiting for their run to end (`core.queue`)."""
    active_runs: dict[str, str] = field(default_factory=dict[str, str])
    """Agent id -> its run seen running at `at`."""
    unread: dict[str, float] = field(default_factory=dict[str, float])
    """Run id -> when it was first seen ended."""

    def line(self) -> str:
        """`cursor: 3 running · 2 ended unread · 180¢ today · 7/25 new`, `· 1 stuck` after the running count
        when a run is."""
        cents = "?" if self.charged_cents is None else f"{'≥' if self.cents_unknown else ''}{self.charged_cents:.0f}"
        stuck = f" · {self.stuck} stuck" if self.stuck else ""
        queued = f" · {self.queued} queued" if self.queued else ""
        return (
            f"cursor: {self.running} running{stuck}{queued} · {self.ended_unread} ended unread · {cents}¢ today"
            f" · {self.new_agents}/{self.new_agents_limit} new"
        )

    def document(self, now: float) -> dict[str, Any]:
        """The line's figures for `--json`."""
        shown = {name: value for name, value in asdict(self).items() if name not in ("key", "active_runs", "unread")}
        return shown | {"age_seconds": round(max(0.0, now - self.at), 1), "line": self.line()}

    def fresh(self, now: float, key: str) -> bool:
        """Whether this line may be shown at `now` for `key` without reading Cursor again."""
        return self.key == key and 0 <= now - self.at < REFRESH_SECONDS


@dataclass(frozen=True)
class Listed:
    """An agent as the refresh listed it: enough to tell which runs ended."""

    agent_id: str
    status: str
    latest_run_id: str | None


def ended_unread(
    previous: Snapshot | None, agents: Iterable[Listed], now: float
) -> tuple[dict[str, str], dict[str, float]]:
    """The runs running now, and the ended runs not shown yet: the seam the store will answer from.

    A run seen running by the previous refresh and now ended (its agent idle, or on a newer run) joins the
    unread ones; one shown by a command left them already (`mark_shown`); none stays past UNREAD_SECONDS."""
    listed = list(agents)
    running = {a.agent_id: a.latest_run_id for a in listed if a.status == "ACTIVE" and a.latest_run_id is not None}
    unread = {run: at for run, at in (previous.unread if previous else {}).items() if now - at < UNREAD_SECONDS}
    still_listed = {agent.agent_id for agent in listed}
    for agent_id, run_id in (previous.active_runs if previous else {}).items():
        if agent_id in still_listed and running.get(agent_id) != run_id:
            unread.setdefault(run_id, now)
    newest = sorted(unread.items(), key=lambda item: item[1])[-MAX_UNREAD:]
    return running, dict(newest)


def read(directory: Path) -> Snapshot | None:
    """The cached line, or None when there is none (or it is torn, foreign, of another version, too large, or
    holds a number out of range): the line is then read from Cursor anew and the file written over."""
    try:
        # A FIFO where the cache belongs is refused at once, not waited on; a huge file is not held whole.
        found = read_lines(directory / FILE_NAME, max_bytes=MAX_BYTES, max_line_bytes=MAX_BYTES)
        fields: Any = json_value("\n".join(found.lines))
    except (OSError, ValueError, RecursionError):
        return None
    return _parsed(cast(dict[str, Any], fields)) if isinstance(fields, dict) else None


def _parsed(fields: dict[str, Any]) -> Snapshot | None:
    """A snapshot from the file's fields, each of its type (anything else: no snapshot, the line is read anew)."""
    numbers = ("at", "running", "ended_unread", "cents_unknown", "new_agents", "new_agents_limit")
    cents, stuck, queued = fields.get("charged_cents"), fields.get("stuck", 0), fields.get("queued", 0)
    active, unread = fields.get("active_runs"), fields.get("unread")
    if (
        fields.get("version") != VERSION
        or not isinstance(fields.get("key"), str)
        or not all(_number(fields.get(name)) for name in numbers)
        or not (cents is None or _number(cents))
        or not _number(stuck)
        or not _number(queued)
        or not isinstance(active, dict)
        or not isinstance(unread, dict)
    ):
        return None
    runs = {str(agent): str(run) for agent, run in cast(dict[Any, Any], active).items()}
    ended = {str(run): float(at) for run, at in cast(dict[Any, Any], unread).items() if _number(at)}
    return Snapshot(
        at=float(fields["at"]),
        key=fields["key"],
        running=int(fields["running"]),
        ended_unread=int(fields["ended_unread"]),
        charged_cents=None if cents is None else float(cents),
        cents_unknown=int(fields["cents_unknown"]),
        new_agents=int(fields["new_agents"]),
        new_agents_limit=int(fields["new_agents_limit"]),
        stuck=int(stuck),
        queued=int(queued),
        active_runs=runs,
        unread=ended,
    )


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def write(directory: Path, snapshot: Snapshot) -> None:
    """Replace the cached line at once (a temporary file renamed over it), readable by its owner only."""
    directory.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"version": VERSION} | asdict(snapshot), separators=(",", ":"))
    descriptor, temporary = tempfile.mkstemp(dir=directory, prefix=".status-", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, directory / FILE_NAME)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextlib.contextmanager
def locked(directory: Path) -> Generator[None]:
    """Hold the refresh lock (waiting for another process's refresh to end); released on exit or crash."""
    directory.mkdir(parents=True, exist_ok=True)
    descriptor = open_regular(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)


def mark_shown(directory: Path | None, run_ids: Iterable[str]) -> None:
    """The person (or their coding agent) was shown these ended runs: they are no longer unread."""
    shown = set(run_ids)
    if directory is None or not shown:
        return
    with contextlib.suppress(OSError), locked(directory):
        snapshot = read(directory)
        if snapshot is not None and shown & snapshot.unread.keys():
            unread = {run: at for run, at in snapshot.unread.items() if run not in shown}
            write(directory, replace(snapshot, unread=unread, ended_unread=len(unread)))


def answer_if_fresh(env: Mapping[str, str], as_json: bool, now: float, write_out: Callable[[str], object]) -> bool:
    """Print the cached line when it is fresh for this key (True); False when `status` must read Cursor."""
    try:
        settings = Settings.from_env(env)
    except ConfigError:  # the full command says what to change
        return False
    if settings.simulated or settings.state_dir is None or settings.key_problem is not None:
        return False
    snapshot = read(settings.state_dir)
    if snapshot is None or not snapshot.fresh(now, fingerprint(settings)):
        return False
    text = json.dumps(snapshot.document(now), ensure_ascii=False, separators=(",", ":")) if as_json else snapshot.line()
    write_out(text + "\n")
    return True
