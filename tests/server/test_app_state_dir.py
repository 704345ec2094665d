"""The server's start-up reads the store whatever the state directory holds (issue 34): F-77, F-78.

Through the server as a client meets it (the MCP client over memory streams, against the simulator): the
client's `initialize` is answered, what could not be read is said on stderr, and a paid act is refused with
`CONFIGURATION` naming the file (or, for a value out of range, counted as a creation made now).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.core.migration import OLD_JOURNAL, OLD_LEDGER
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio

BOUND_SECONDS = 2.0
"""The issue's bound for `initialize`, here for the start-up of the simulator, the server, its store read and
one call: 0.04-0.6 s measured with the shared 2-core machine at a load of 11. The fault it catches holds the
start-up for ever (an `open()` of a FIFO in a worker thread, which only pytest's timeout ends)."""
CASES = [(name, kind) for name in (OLD_JOURNAL, OLD_LEDGER) for kind in ("fifo", "folder", "1e999999")]


@pytest.mark.parametrize(("name", "kind"), CASES)
async def test_the_server_starts_and_answers_whatever_the_old_state_files_hold(
    tmp_path: Path, name: str, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    """F-77, F-78: a FIFO or a folder at an old name: the client is initialized, stderr names the file and
    what to do, and a creation is refused with CONFIGURATION (nothing sent); `1e999999` in a line: the line
    counts as a creation made now and creations go on."""
    if kind == "fifo":
        os.mkfifo(tmp_path / name)
    elif kind == "folder":
        (tmp_path / name).mkdir()
    else:
        (tmp_path / name).write_text('{"at": 1e999999, "fingerprint": "f", "state": "sent"}\n')
    caplog.set_level(logging.WARNING)
    with anyio.fail_after(BOUND_SECONDS):
        async with open_harness(state_dir=tmp_path) as h:
            reply = await h.call("cursor_create_agent", {"prompt": "Fix the failing test"})
            posted = h.requests("POST")
    if kind == "1e999999":
        assert not reply.is_error and len(posted) == 1
        assert "1 lines could not be read" in caplog.text
    else:
        assert reply.code == "CONFIGURATION" and posted == []
        assert f"{tmp_path / name} cannot be migrated" in caplog.text
        assert f"{tmp_path / name} cannot be migrated" in reply.data["message"]
