"""`CURSOR_MCP_FIXTURE=1 cursor-cloud-agents verify`: a rehearsal against the embedded simulator says so, and passes."""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.cli.main import open_client
from cursor_cloud_agents.verify.command import Io, Options, run_verify

pytestmark = pytest.mark.anyio


async def verify_simulated() -> tuple[int, str]:
    printed: list[str] = []
    io = Io(write=printed.append, ask=lambda _: "no")
    with anyio.fail_after(30):
        code = await run_verify({"CURSOR_MCP_FIXTURE": "1"}, Options(), open_client, io)
    return code, "".join(printed)


async def test_verify_in_simulated_mode_names_the_simulator_not_the_real_api() -> None:
    """Its heading said `at https://api.cursor.com`: a report of the simulator read as a check of Cursor."""
    _, printed = await verify_simulated()
    heading = printed.splitlines()[0]
    assert "api.cursor.com" not in heading and "simulator" in heading


async def test_verify_in_simulated_mode_sees_the_wrong_key_refused_and_exits_0() -> None:
    """The wrong key was swapped for the simulator's own, so `401 with a wrong key` read DIFFERS (exit 1)."""
    code, printed = await verify_simulated()
    assert "OK      401 with a wrong key" in printed
    assert code == 0, printed
