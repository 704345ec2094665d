"""`core/review/check_sandbox.py` (issue 42): the check in bubblewrap where it works, and the answer where it does not.

Whether this machine has a working `bwrap` decides which half of each test speaks (never a skip): with it,
the sandbox's guarantees are proved (the person's repository read-only even by its absolute path, no network,
its own process ids); without it, `auto` runs the check unsandboxed and says so, and `require` refuses. A
PATH without `bwrap` proves the fallback on every machine.
"""

from __future__ import annotations

import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.review.check_sandbox import _works  # pyright: ignore[reportPrivateUsage]
from cursor_cloud_agents.core.review.checks import CheckRules, run_check
from tests.core.review.hostile_repo import Hostile, make_hostile

pytestmark = pytest.mark.anyio
BWRAP = shutil.which("bwrap")
HAS_SANDBOX = BWRAP is not None and _works(BWRAP)
REACH_OUT = r"""
alt=$(cat .git/objects/info/alternates); person=$(dirname "$alt")
echo planted > "$person/hooks/post-checkout" && echo wrote-hook
git --git-dir="$person" config core.pager planted && echo wrote-config
echo 0000 > "$alt/planted" && echo wrote-object
echo planted > "$HOME/../../planted" 2>/dev/null && echo wrote-beside
python3 -c "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 2); print('reached')" "$PORT"
echo status-done
"""


@pytest.fixture
def hostile(tmp_path: Path) -> Hostile:
    return make_hostile(tmp_path)


@pytest.fixture
def listening() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections (the machine's loopback, outside any sandbox)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


async def test_in_the_sandbox_the_persons_repository_and_network_are_out_of_reach_h_60(
    hostile: Hostile, listening: int
) -> None:
    """H-60: agent code that finds the person's `.git` through its alternates and writes a hook, config and an
    object there by absolute path, and connects to a listening loopback port: with bubblewrap, every write
    fails (read-only) and the connection too (a network of its own); without it, `require` refuses the check
    and names what to install, before anything runs."""
    before = hostile.fingerprint()
    env = hostile.env | {"PORT": str(listening)}
    rules = CheckRules(env_names=("PORT",), sandbox="require")
    if HAS_SANDBOX:
        result = await run_check(hostile.git, hostile.commit, REACH_OUT, env=env, timeout=20, rules=rules)
        assert result.sandboxed and "status-done" in result.last_lines
        assert not [word for word in ("wrote-", "reached") if word in result.last_lines]
    else:
        with pytest.raises(ToolFailure, match="bubblewrap") as refused:
            await run_check(hostile.git, hostile.commit, REACH_OUT, env=env, timeout=20, rules=rules)
        assert refused.value.code == "CONFIGURATION"
    assert hostile.fingerprint() == before


async def test_auto_uses_the_sandbox_where_it_works_and_runs_without_it_elsewhere_h_61(hostile: Hostile) -> None:
    """H-61: `auto` answers whether the check was sandboxed: in bubblewrap, its processes see their own ids
    (the command's shell is not far from pid 1); the check passes either way."""
    result = await run_check(hostile.git, hostile.commit, "echo pid=$$", env=hostile.env, timeout=20)
    assert result.passed and result.sandboxed is HAS_SANDBOX
    pid = int(result.last_lines.removeprefix("pid="))
    assert (pid < 10) is HAS_SANDBOX


async def test_without_bwrap_on_path_auto_falls_back_and_require_refuses_h_61(hostile: Hostile, tmp_path: Path) -> None:
    """H-61: on every machine: a PATH with git and sh but no `bwrap`: `auto` runs the check unsandboxed, and
    `require` refuses it with CONFIGURATION naming CURSOR_MCP_CHECK_SANDBOX."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("git", "sh", "env", "cat", "echo"):
        found = shutil.which(name)
        assert found is not None
        (tools / name).symlink_to(found)
    env = hostile.env | {"PATH": str(tools)}
    result = await run_check(hostile.git, hostile.commit, "echo ran", env=env, timeout=20)
    assert result.passed and not result.sandboxed and result.last_lines == "ran"
    with pytest.raises(ToolFailure, match="CURSOR_MCP_CHECK_SANDBOX") as refused:
        await run_check(
            hostile.git, hostile.commit, "echo ran", env=env, timeout=20, rules=CheckRules(sandbox="require")
        )
    assert refused.value.code == "CONFIGURATION"
