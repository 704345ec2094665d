"""The status line's cache read through the one guarded path (issue 34): F-81.

`status` answers a status bar from this file on every redraw. It is refused at once when it is not a
regular file (F-42); what was not checked is a number out of range inside it (`1e999999` read as infinity,
then `int(inf)`: OverflowError out of `status`) and its size (a file of tens of megabytes held whole).
"""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents import statuscache

GOOD: dict[str, Any] = {
    "version": statuscache.VERSION,
    "key": "fingerprint",
    "at": 1_800_000_000.0,
    "running": 1,
    "ended_unread": 0,
    "charged_cents": None,
    "cents_unknown": 0,
    "new_agents": 0,
    "new_agents_limit": 25,
    "stuck": 0,
    "active_runs": {},
    "unread": {},
}


def test_a_well_formed_cache_still_reads() -> None:
    """F-81, its other side: a line this version wrote reads back (the rules below cannot pass by
    reading nothing)."""
    assert statuscache._parsed(GOOD) is not None  # pyright: ignore[reportPrivateUsage]  # the parser alone


@pytest.mark.parametrize("number", ["1e999999", "-1e999999", "NaN", "Infinity", "1" + "0" * 30])
@pytest.mark.parametrize("field", ["running", "at", "charged_cents", "stuck"])
def test_a_cached_number_out_of_range_reads_as_no_cache_never_an_error(tmp_path: Path, field: str, number: str) -> None:
    """F-81: the line is read from Cursor anew instead of `status` failing with OverflowError or ValueError."""
    text = json.dumps(GOOD | {field: 0}).replace(f'"{field}": 0', f'"{field}": {number}')
    (tmp_path / statuscache.FILE_NAME).write_text(text)
    assert statuscache.read(tmp_path) is None


def test_a_cache_file_of_40_mb_reads_as_no_cache_without_being_held(tmp_path: Path) -> None:
    """F-81: past its bound (the line is under a kilobyte) the file is no cache; it is not read whole."""
    with (tmp_path / statuscache.FILE_NAME).open("wb") as file:
        for _ in range(40):
            file.write(b" " * 1024 * 1024)
        file.write(json.dumps(GOOD).encode())
    tracemalloc.start()
    try:
        found = statuscache.read(tmp_path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert found is None and peak < 4 * 1024 * 1024, peak
