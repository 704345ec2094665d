"""The SDK's front (`sdk/__init__.py`): light to import, one name per thing it offers."""

from __future__ import annotations

import subprocess
import sys

import cursor_cloud_agents.sdk as sdk

HEAVY = ("mcp", "starlette", "uvicorn", "rich")


def test_importing_the_sdk_loads_neither_mcp_nor_starlette_uvicorn_or_rich() -> None:
    """Acceptance: `python -c "import cursor_cloud_agents.sdk, sys; assert 'mcp' not in sys.modules"`, and the
    same for Starlette, uvicorn and rich, in a fresh interpreter (about 1 s: the interpreter's start and the
    package's import, which only a new process shows untouched by the other tests' imports)."""
    check = (
        "import cursor_cloud_agents.sdk, sys\n"
        f"loaded = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, done.stderr


def test_the_front_offers_cursors_names_and_their_async_twins() -> None:
    for name in ("Agent", "Run", "Cursor", "AsyncAgent", "AsyncRun", "AsyncCursor", "RunResult", "ToolFailure"):
        assert name in sdk.__all__ and hasattr(sdk, name)
    assert len(set(sdk.__all__)) == len(sdk.__all__)
