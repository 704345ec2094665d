"""The previous version's files are read through the one guarded path (issue 34): F-77, F-78, F-79.

Before, the one-time migration read `creations.jsonl` and `ledger.jsonl` with `read_bytes()`: a FIFO there
held the first read of the store (and the server's start-up) for ever, a folder or a device raised out of
the store, `{"at": 1e999999}` was an act no line could write (`ValueError: Out of range float values`), and a
40 MB line without a newline was held whole, twice. Each read here runs in a thread of its own, so that the
old hang fails the test in 2 s instead of holding it.
"""

from __future__ import annotations

import logging
import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.core.migration import OLD_JOURNAL, OLD_LEDGER
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.store import FILE_NAME, MIGRATED_SUFFIX, Store, StoreUnusable

NOW = 1_800_000_000.0
BUDGET_SECONDS = 2.0
"""The issue's bound for answering `initialize`; the store's read at start-up takes milliseconds of it."""


def within(seconds: float, work: Callable[[], object]) -> object:
    """What `work()` returns (or the exception it raises), run in a daemon thread; AssertionError past `seconds`."""
    found: list[object] = []

    def run() -> None:
        try:
            found.append(work())
        except Exception as exc:  # handed back to the test
            found.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert found, f"still reading after {seconds} s"
    return found[0]


def first_read(directory: Path) -> object:
    """The store's first read (as the server's start-up makes it), in its own event loop."""
    return within(BUDGET_SECONDS, lambda: anyio.run(Store(directory).read, NOW))


def count(directory: Path) -> int:
    return use_of(anyio.run(Store(directory).read, NOW), NOW)[0]


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_folder(path: Path) -> None:
    path.mkdir()


def make_device(path: Path) -> None:
    path.symlink_to("/dev/zero")  # read whole, it never ends


def make_loop(path: Path) -> None:
    path.symlink_to(path.name)


UNREADABLE = {"fifo": make_fifo, "folder": make_folder, "device": make_device, "symlink-loop": make_loop}


@pytest.mark.parametrize("name", [OLD_JOURNAL, OLD_LEDGER])
@pytest.mark.parametrize("kind", list(UNREADABLE))
def test_an_old_file_that_cannot_be_read_refuses_paid_acts_at_once_naming_it_and_what_to_do(
    tmp_path: Path, name: str, kind: str
) -> None:
    """F-77: a FIFO, a folder, a device or a symlink loop at an old name: the first read answers within 2 s
    with StoreUnusable naming the file and what to do (it held counts: never skipped), nothing is moved."""
    UNREADABLE[kind](tmp_path / name)
    found = first_read(tmp_path)
    assert isinstance(found, StoreUnusable), found
    assert f"{tmp_path / name} cannot be migrated" in found.why and "move it out of CURSOR_MCP_STATE_DIR" in found.why
    assert os.path.lexists(tmp_path / name) and not (tmp_path / FILE_NAME).exists()


def test_an_old_file_moved_aside_lets_the_store_migrate_the_other_and_work(tmp_path: Path) -> None:
    """F-77: what to do works: once the FIFO is moved aside, the next read migrates the ledger beside it."""
    os.mkfifo(tmp_path / OLD_JOURNAL)
    (tmp_path / OLD_LEDGER).write_text(f'{{"at": {NOW - 60}}}\n')
    store = Store(tmp_path)
    assert isinstance(within(BUDGET_SECONDS, lambda: anyio.run(store.read, NOW)), StoreUnusable)
    (tmp_path / OLD_JOURNAL).rename(tmp_path / "aside")
    assert len(anyio.run(store.read, NOW).acts) == 1 and count(tmp_path) == 1


@pytest.mark.parametrize(
    "line",
    [
        '{"at": 1e999999}',
        '{"at": -1e999999}',
        '{"at": NaN}',
        '{"at": Infinity}',
        '{"at": 1' + "0" * 300 + "}",
        '{"at": "1800000000"}',
        '{"at": true}',
        "[1800000000]",
        '{"at": 1800000000, "agent_id": 7}',
    ],
    ids=["1e999999", "-1e999999", "nan", "infinity", "300-digits", "string", "bool", "array", "agent-id-number"],
)
def test_a_ledger_line_out_of_range_or_mistyped_counts_as_a_creation_made_now(
    tmp_path: Path, line: str, caplog: pytest.LogCaptureFixture
) -> None:
    """F-78: a number out of range, a wrong type: the line counts as a creation made now (the limit stays
    closed), the store stays usable and writable, and stderr says a line could not be read."""
    (tmp_path / OLD_LEDGER).write_text(line + "\n")
    caplog.set_level(logging.WARNING)
    found = first_read(tmp_path)
    assert not isinstance(found, Exception), found
    assert count(tmp_path) == 1 and (tmp_path / (OLD_LEDGER + MIGRATED_SUFFIX)).exists()
    assert all(act.at <= NOW for act in anyio.run(Store(tmp_path).read, NOW).acts.values())
    if line != '{"at": 1800000000, "agent_id": 7}':
        assert "1 lines could not be read" in caplog.text


def test_a_journal_line_out_of_range_is_said_and_never_breaks_the_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """F-78: a journal line holding 1e999999 (not a count: it only resumes a pending creation) is said and
    dropped; the store is written and read again after it."""
    (tmp_path / OLD_JOURNAL).write_text('{"at": 1e999999, "fingerprint": "f", "state": "sent"}\n')
    caplog.set_level(logging.WARNING)
    found = first_read(tmp_path)
    assert not isinstance(found, Exception), found
    assert count(tmp_path) == 0 and "1 lines could not be read" in caplog.text


def test_a_40_mb_ledger_line_without_newline_is_skipped_without_being_held(tmp_path: Path) -> None:
    """F-79: a 40 MB line with no newline: read in chunks, skipped past the line bound, counted as a creation
    made now; the read allocates a few megabytes, not the 80 (bytes, then text) it took."""
    with (tmp_path / OLD_LEDGER).open("wb") as file:
        file.write(f'{{"at": {NOW - 60}}}\n'.encode())
        for _ in range(40):
            file.write(b"x" * 1024 * 1024)
    tracemalloc.start()
    try:
        found = first_read(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not isinstance(found, Exception), found
    assert peak < 8 * 1024 * 1024, peak
    assert count(tmp_path) == 2


def test_a_migration_tried_again_after_its_files_could_not_be_set_aside_counts_nothing_twice(tmp_path: Path) -> None:
    """F-77: the acts are appended, then the old files renamed; when the rename fails (a folder holds the
    *.migrated name), the store is unusable and says so, and the next try, once it is cleared, adds nothing:
    each act's id comes from its old line."""
    (tmp_path / OLD_LEDGER).write_text(f'{{"at": {NOW - 60}}}\n{{"at": {NOW - 120}}}\n')
    (tmp_path / (OLD_LEDGER + MIGRATED_SUFFIX)).mkdir()
    (tmp_path / (OLD_LEDGER + MIGRATED_SUFFIX) / "x").write_text("")
    found = first_read(tmp_path)
    assert isinstance(found, StoreUnusable) and "cannot be migrated" in found.why
    (tmp_path / (OLD_LEDGER + MIGRATED_SUFFIX) / "x").unlink()
    (tmp_path / (OLD_LEDGER + MIGRATED_SUFFIX)).rmdir()
    assert count(tmp_path) == 2


def old_ledger(path: Path, lines: int, newest: float) -> None:
    with path.open("w") as file:
        for index in range(lines):
            file.write(f'{{"at": {newest - index}, "agent_id": "bc-00000000-0000-4000-8000-{index:012d}"}}\n')


def test_an_old_ledger_of_expired_entries_is_streamed_in_bounded_memory_and_leaves_the_store_usable_k_33(
    tmp_path: Path,
) -> None:
    """K-33: an old ledger of 4 MB of entries older than the window (the issue's was 40 MB) was held whole, copied
    into the store entire, and refused every paid act once the store passed its size bound; now it is read one
    line at a time, nothing expired is kept, and the peak stays far under the file's size."""
    old_ledger(tmp_path / OLD_LEDGER, 60_000, NOW - 2 * 86400)
    size = (tmp_path / OLD_LEDGER).stat().st_size
    tracemalloc.start()
    try:
        found = within(30, lambda: anyio.run(Store(tmp_path).read, NOW))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not isinstance(found, Exception), found
    assert size > 4 * 1024 * 1024 and peak < size / 4, (size, peak)
    assert count(tmp_path) == 0


def test_unreadable_old_lines_past_any_limit_are_counted_not_held_k_34(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """K-34: each unreadable ledger line is a creation made now; past one more than the highest creation limit
    they change no verdict, so they are counted in the message and not held (a file of garbage stays bounded)."""
    monkeypatch.setattr("cursor_cloud_agents.core.migration.MAX_UNREADABLE_KEPT", 3)
    (tmp_path / OLD_LEDGER).write_text("garbage\n" * 10 + f'{{"at": {NOW - 60}}}\n')
    with caplog.at_level(logging.WARNING):
        assert count(tmp_path) == 4
    assert "10 lines could not be read" in caplog.text
