"""The store's own file read through the one guarded path (issue 34): F-78, F-79, F-80.

The store already refused a FIFO and counted lines it could not read; what it did not bound was the size
of what it read (a 40 MB line was held whole, twice), the range of the numbers inside a line it could parse
(a task's `detail` holding `NaN` was taken, then no rewrite could write it back), and a file changed in
place under a reader that remembered how far it had read.
"""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from cursor_cloud_agents.core import store as store_module
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.store import FILE_NAME, Store, StoreUnusable

pytestmark = pytest.mark.anyio

NOW = 1_800_000_000.0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "1e999999", "-1e999999", "1" + "0" * 40])
async def test_a_number_out_of_range_anywhere_in_a_line_makes_it_unreadable_never_a_store_that_breaks(
    tmp_path: Path, number: str
) -> None:
    """F-78: a task line whose detail holds a number no JSON writer takes back was read as an act; the
    rewrite that repairs the file (here, for the torn line beside it) then raised ValueError on every read.
    Now the line is unreadable, counted as a creation made now, and the store is rewritten and usable."""
    task = '{"id":"t","kind":"task","at":AT,"state":"sent","detail":{"tool":"cursor_wait","x":X}}'
    task = task.replace("AT", str(NOW)).replace("X", number)
    (tmp_path / FILE_NAME).write_text(task + "\n" + '{"id":"torn"\n')
    store = Store(tmp_path)
    reading = await store.read(NOW)
    await store.write(Act("next", "seen", NOW, "done"), now=NOW)
    assert "t" not in reading.acts and sum(act.unreadable for act in reading.acts.values()) == 2
    assert use_of(await Store(tmp_path).read(NOW), NOW)[0] == 2


async def test_a_40_mb_line_without_newline_in_the_store_is_skipped_without_being_held(tmp_path: Path) -> None:
    """F-79: read in chunks, the line past MAX_LINE_BYTES skipped (counted as a creation made now): a few
    megabytes allocated, not the 80 it took (the bytes, then the text)."""
    with (tmp_path / FILE_NAME).open("wb") as file:
        file.write(Act("a", "create", NOW - 60, "done", counted=True).line().encode())
        for _ in range(40):
            file.write(b"y" * 1024 * 1024)
    tracemalloc.start()
    try:
        reading = await Store(tmp_path).read(NOW)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 1024 * 1024, peak
    assert "a" in reading.acts and sum(act.unreadable for act in reading.acts.values()) == 1


async def test_a_store_larger_than_its_bound_is_refused_naming_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """F-79: past MAX_BYTES the store is not read whole: the paid acts are refused (StoreUnusable, the
    `CONFIGURATION` answer) naming the file and its bound."""
    monkeypatch.setattr(store_module, "MAX_BYTES", 4096)
    (tmp_path / FILE_NAME).write_text(Act("a", "create", NOW - 60, "done", counted=True).line() * 100)
    with pytest.raises(StoreUnusable) as refused:
        await Store(tmp_path).read(NOW)
    assert f"{tmp_path / FILE_NAME} cannot be read" in refused.value.why and "over 4096 bytes" in refused.value.why


async def test_a_store_file_changed_in_place_under_a_reader_is_read_again_from_its_start(tmp_path: Path) -> None:
    """F-80: a reader parses only what was appended since its last read of the same inode; a file truncated
    and written again in place (same inode, shorter) was read from past its end: the new acts were never
    seen. A known inode that shrank is now read whole again."""
    path = tmp_path / FILE_NAME
    store = Store(tmp_path)
    await store.write(*(Act(f"old-{n}", "seen", NOW - 60, "done") for n in range(20)), now=NOW)
    assert len((await store.read(NOW)).acts) == 20
    inode = os.stat(path).st_ino
    with path.open("r+") as file:  # in place: the same inode
        file.truncate(0)
        file.write(Act("new", "create", NOW - 10, "done", counted=True).line())
    assert os.stat(path).st_ino == inode
    reading = await store.read(NOW)
    assert set(reading.acts) == {"new"}
