"""The store of paid acts: one file under the state directory, one lock, one line per change of an act.

Every act that costs money or must outlive the process is written here before it happens: a creation
(the journal's "never paid twice" and the ledger's "never more than allowed" read the same entry), a
follow-up, a task waiting for runs, an ended run the user was shown. Each act has an id; its lines are
appended as it moves (`sent`, then `done` or `failed`), and the last line of an id is its state.

What money depends on fails closed:
- a line that cannot be read (torn by a crash, garbage, mistyped, an impossible date) is counted as a
  creation made now, never skipped (`Act.unreadable`), and said once on stderr;
- a store that cannot be written or read refuses the paid act (`StoreUnusable`): the caller answers
  `CONFIGURATION` naming `CURSOR_MCP_STATE_DIR`; reads of agents go on;
- a path that is not a regular file (a FIFO, a device, a socket, a folder) is refused at once: it is
  opened without blocking and checked by its descriptor before a byte is read (`regularfile`);
- a file over MAX_BYTES refuses the paid acts as one that cannot be read; a line over MAX_LINE_BYTES is
  skipped without being held whole and counted as unreadable; a number out of range (`1e999999`, `NaN`)
  makes its line unreadable;
- a rewrite (compaction, migration) writes a new file aside, flushes it, renames it over the old one
  and flushes the folder: a process killed at any instant leaves the old store or the new, never less.
  The lock is a file of its own (`acts.lock`), so a rename never takes the lock away from a waiter.

File work runs in a worker thread, never on the event loop; an in-process lock orders this process's
changes and `flock` orders the machine's processes. `Store.memory()` keeps the acts in this process only
(simulated mode, and `CURSOR_MCP_STATE_DIR=memory` when the user asks for it).

The previous version kept creations in `creations.jsonl` (the journal) and `ledger.jsonl` (the count):
a state directory holding them is migrated once, on first use, so no count or pending creation is lost.
Either one that cannot be read (not a regular file, a symlink loop, no permission, too large) is not
skipped: it held counts, so the store is unusable (paid acts refused, said on stderr with the file and what
to do) until it is moved aside; the server still starts and answers.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Callable, Generator, Iterable
from contextlib import contextmanager
from pathlib import Path

import anyio

from cursor_cloud_agents.core.acts import Act, Reading, kept, read_lines
from cursor_cloud_agents.core.migration import OLD_JOURNAL, OLD_LEDGER, acts_of_old_files
from cursor_cloud_agents.guards.regularfile import lines_of, open_regular

logger = logging.getLogger("cursor_cloud_agents.store")

FILE_NAME = "acts.jsonl"
LOCK_NAME = "acts.lock"
MIGRATED_SUFFIX = ".migrated"
MAX_BYTES = 64 * 1024 * 1024
"""The largest store (and old file) read: a live store holds a few thousand lines of a few hundred bytes."""
MAX_LINE_BYTES = 1024 * 1024
"""The longest line read; a task's arguments are the largest act, a few kilobytes."""
COMPACT_FACTOR = 4
"""The file is rewritten when it holds this many lines per live act (each act writes two or three)."""


class StoreUnusable(Exception):
    """The store cannot be read or written; `why` says what and where, for a `CONFIGURATION` answer."""

    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why


class Store:
    """The acts of this machine (a folder) or of this process only (`Store.memory()`)."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._memory: dict[str, Act] = {}
        self._order = anyio.Lock()
        self._thread_order = threading.Lock()
        self._opened = False
        self._said: set[str] = set()
        self._seen: tuple[int, int, Reading] | None = None
        """The file last loaded: its inode, the bytes parsed, and what they held."""

    @classmethod
    def memory(cls) -> Store:
        return cls(None)

    @property
    def on_disk(self) -> bool:
        return self.directory is not None

    @property
    def where(self) -> str:
        return "memory (this process only)" if self.directory is None else str(self.directory / FILE_NAME)

    async def read(self, now: float) -> Reading:
        """Every act as it stands now.

        Raises:
            StoreUnusable: the store cannot be read (nothing may be counted from it).
        """
        if self.directory is None:
            return Reading(dict(self._memory), len(self._memory))
        return await anyio.to_thread.run_sync(self._read_on_disk, now)

    async def change(self, decide: Callable[[Reading], Iterable[Act]], now: float) -> list[Act]:
        """Under the machine-wide lock: read the acts, let `decide` say which to write (it may raise to write
        none), and write them, flushed, before returning them.

        Raises:
            StoreUnusable: the store cannot be read or written; nothing was written.
        """
        async with self._order:
            if self.directory is None:
                written = list(decide(Reading(dict(self._memory), len(self._memory))))
                self._memory.update((act.id, act) for act in written)
                # Memory stays bounded as the file does: what no rule reads any more is dropped.
                self._memory = {key: act for key, act in self._memory.items() if kept(act, now)}
                return written
            return await anyio.to_thread.run_sync(self._change_on_disk, decide, now)

    async def write(self, *acts: Act, now: float) -> None:
        """Write these acts as they stand now (a new act, or an act's next state)."""
        await self.change(lambda _reading: acts, now)

    # The file work below runs in a worker thread.

    def _read_on_disk(self, now: float) -> Reading:
        with self._locked(fcntl.LOCK_SH, now):
            return self._load(now)

    def _change_on_disk(self, decide: Callable[[Reading], Iterable[Act]], now: float) -> list[Act]:
        with self._locked(fcntl.LOCK_EX, now):
            reading = self._load(now)
            written = list(decide(reading))
            if written:
                self._append(written)
            reading.acts.update((act.id, act) for act in written)
            if reading.lines + len(written) > COMPACT_FACTOR * max(len(reading.acts), 16):
                self._rewrite(act for act in reading.acts.values() if kept(act, now))
            return written

    @contextmanager
    def _locked(self, how: int, now: float) -> Generator[None]:
        assert self.directory is not None
        with self._thread_order:
            try:
                self.directory.mkdir(parents=True, exist_ok=True)
                descriptor = open_regular(self.directory / LOCK_NAME, os.O_RDWR | os.O_CREAT)
            except OSError as exc:
                raise self._unusable("cannot be opened", exc) from None
            try:
                fcntl.flock(descriptor, how)  # released when closed; a holder that dies releases it too
                if not self._opened:
                    self._open_once(now)
                yield
            finally:
                os.close(descriptor)

    def _open_once(self, now: float) -> None:
        """On first use: migrate the previous version's files. One that cannot be read leaves the store
        unusable (it held counts), and is tried again at the next use, once it has been moved aside."""
        assert self.directory is not None
        old = [self.directory / name for name in (OLD_JOURNAL, OLD_LEDGER) if _present(self.directory / name)]
        if old:
            self._migrate(old, now)
        self._opened = True

    def _load(self, now: float) -> Reading:
        """The acts on disk. Only what was appended since the last load is parsed: the file is appended to
        under the lock and replaced whole (a new inode) by a rewrite, so a known inode grows, never changes."""
        path = self._path
        try:
            descriptor = open_regular(path, os.O_RDONLY)
        except FileNotFoundError:
            self._seen = None
            return Reading()
        except OSError as exc:
            raise self._unusable("cannot be read", exc) from None
        try:
            status = os.fstat(descriptor)
            # A known inode that shrank was changed in place behind the lock: read whole again, never past its end.
            known = self._seen is not None and self._seen[0] == status.st_ino and self._seen[1] <= status.st_size
            seen = self._seen if known and self._seen is not None else (status.st_ino, 0, Reading())
            found = lines_of(descriptor, path, offset=seen[1], max_bytes=MAX_BYTES, max_line_bytes=MAX_LINE_BYTES)
        except OSError as exc:
            raise self._unusable("cannot be read", exc) from None
        finally:
            os.close(descriptor)
        reading = seen[2].copy()
        read_lines(found.lines, now, into=reading)
        self._seen = (status.st_ino, found.end, reading.copy())
        if reading.repaired:
            self._say_once(
                "unreadable",
                f"the store of paid acts {path} holds {reading.repaired} entries that cannot be read as "
                "written (torn, garbage, mistyped or impossibly dated): each is counted as a creation made now, "
                "so the limits stay closed; the file is rewritten with them counted",
            )
            self._rewrite(act for act in reading.acts.values() if kept(act, now))
            reading.repaired = 0
        return reading

    def _append(self, acts: list[Act]) -> None:
        try:
            descriptor = open_regular(self._path, os.O_RDWR | os.O_APPEND | os.O_CREAT)
        except OSError as exc:
            raise self._unusable("cannot be written", exc) from None
        try:
            # A line torn by a crash must not swallow the next one: it is closed first.
            size = os.fstat(descriptor).st_size
            torn = size > 0 and os.pread(descriptor, 1, size - 1) != b"\n"
            data = ("\n" if torn else "") + "".join(act.line() for act in acts)
            os.write(descriptor, data.encode("ascii"))
            os.fsync(descriptor)
        except OSError as exc:
            raise self._unusable("cannot be written", exc) from None
        finally:
            os.close(descriptor)

    def _rewrite(self, acts: Iterable[Act]) -> None:
        """Replace the file whole: written aside, flushed, renamed over, the folder flushed."""
        assert self.directory is not None
        aside = self.directory / f".{FILE_NAME}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            try:
                os.write(descriptor, "".join(act.line() for act in acts).encode("ascii"))
                os.fsync(descriptor)
            finally:
                os.close(descriptor)
            os.replace(aside, self._path)
            _flush_folder(self.directory)
        except OSError as exc:
            aside.unlink(missing_ok=True)
            # The old file is whole: a rewrite that failed changes nothing, so the store stays usable.
            self._say_once("rewrite", f"the store of paid acts {self._path} could not be rewritten ({_named(exc)})")

    def _migrate(self, old: list[Path], now: float) -> None:
        """Fold the previous version's journal and ledger into this store once, then set them aside."""
        assert self.directory is not None

        reading = self._load(now)
        try:
            migrated = acts_of_old_files(old, now, max_bytes=MAX_BYTES, max_line_bytes=MAX_LINE_BYTES)
        except OSError as exc:
            raise StoreUnusable(_old_unreadable(exc, self._path)) from None
        fresh = [act for act in migrated.acts if act.id not in reading.acts]
        if fresh:
            self._append(fresh)
        try:
            for path in old:
                os.replace(path, path.with_name(path.name + MIGRATED_SUFFIX))
            _flush_folder(self.directory)
        except OSError as exc:  # the acts are written: their ids come from the old lines, so the next try adds none
            raise StoreUnusable(_old_unreadable(exc, self._path)) from None
        unreadable = (
            f"; {migrated.unreadable} lines could not be read (each one of the ledger counts as a creation made now)"
            if migrated.unreadable
            else ""
        )
        self._say_once(
            "migrated",
            f"state from the previous version ({', '.join(p.name for p in old)}) was moved into {self._path}: "
            f"{len(fresh)} acts kept{unreadable}; the old files are kept beside it as *{MIGRATED_SUFFIX}",
        )

    @property
    def _path(self) -> Path:
        assert self.directory is not None
        return self.directory / FILE_NAME

    def _unusable(self, what: str, exc: OSError) -> StoreUnusable:
        return StoreUnusable(f"the store of paid acts {self._path} {what} ({_named(exc)})")

    def _say_once(self, key: str, message: str) -> None:
        if key not in self._said:
            self._said.add(key)
            logger.warning("%s", message)


def _present(path: Path) -> bool:
    """Whether anything stands at `path` (a symlink loop or a dangling link too: it is then refused, not
    mistaken for no file)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    return True


def _old_unreadable(exc: OSError, store: Path) -> str:
    where = exc.filename or "a file of the previous version"
    return (
        f"the previous version's file {where} cannot be migrated into {store} ({_named(exc)}): it holds "
        "creations that count toward the limits; make it a readable regular file again, or move it out of "
        "CURSOR_MCP_STATE_DIR (its creations then no longer count)"
    )


def _flush_folder(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _named(exc: OSError) -> str:
    return f"{type(exc).__name__}: {exc.strerror or exc}" if exc.strerror else type(exc).__name__
