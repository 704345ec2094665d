"""The sandbox a check runs in where the machine has one: bubblewrap (`bwrap`), on Linux.

Inside it the command sees the whole file system read-only (the person's home and repository included: they
can be read, not written), its own throwaway folder writable, no network at all (a network namespace of its
own, with only its own loopback), its own process ids (`--unshare-pid`: when the sandbox's first process ends,
the kernel ends every other) and no controlling terminal (`--new-session`); `--die-with-parent` ends it with
its supervisor. Measured here (docs/reliability.md §2.25): about 5 ms per check.

`CURSOR_MCP_CHECK_SANDBOX` chooses: `auto` (the default) uses it when `bwrap` is on PATH and works (tried once
per process), `off` never, `require` refuses to run a check without it.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping
from functools import cache

import anyio

from cursor_cloud_agents.core.failures import Code, ToolFailure
from cursor_cloud_agents.core.review.check_place import CheckFolder

PROBE_SECONDS = 5.0
"""How long trying bubblewrap once may take (a working one answers in about 10 ms)."""


def confinement(program: str, place: CheckFolder) -> list[str]:
    """The `bwrap` arguments that put a command in the sandbox, before the command itself."""
    root = str(place.root)
    return [
        program,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/dev/shm",
        "--bind", root, root,
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--die-with-parent",
        "--new-session",
        "--chdir", str(place.tree),
        "--",
    ]  # fmt: skip


async def sandbox_for(mode: str, env: Mapping[str, str], place: CheckFolder) -> list[str]:
    """The arguments that put the check in the sandbox, or [] when it runs without one (`off`, or `auto` with no
    working bubblewrap).

    Raises:
        ToolFailure: `require`, and no working bubblewrap.
    """
    if mode == "off":
        return []
    program = shutil.which("bwrap", path=env.get("PATH"))
    works = program is not None and await anyio.to_thread.run_sync(_works, program)
    if program is not None and works:
        return confinement(program, place)
    if mode == "require":
        why = "is not on PATH" if program is None else "does not work here (no user namespaces?)"
        raise ToolFailure(
            Code.CONFIGURATION,
            f"CURSOR_MCP_CHECK_SANDBOX=require, and bubblewrap (bwrap) {why}: install bubblewrap, or set "
            "CURSOR_MCP_CHECK_SANDBOX=auto to run checks without a sandbox where there is none",
        )
    return []


@cache
def _works(program: str) -> bool:
    """Whether `program` can make the sandbox on this machine (tried once per process and program)."""
    probe = [program, "--ro-bind", "/", "/", "--unshare-net", "--unshare-pid", "--die-with-parent", "--", "/bin/true"]
    try:
        return subprocess.run(probe, capture_output=True, timeout=PROBE_SECONDS, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False
