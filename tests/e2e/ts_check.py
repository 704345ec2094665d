"""The TypeScript SDK client check (`scripts/ts_client_check.mjs`), started in the background once collection
ends, so that its real-time part (a 6 s call kept alive by progress, as OpenCode makes it) overlaps the rest of
the suite instead of being one test's 10 s set-up.

One process of a run starts it: the one that takes the lock in the run's shared folder (under pytest-xdist the
workers share the parent of their base temporary folders; alone, a folder of its own). The check writes its
outcome there before releasing the lock; a test that needs it takes the lock, blocking until then (bounded by
the suite's per-test timeout), and reads it. `@modelcontextprotocol/sdk` is installed with npm in a scratch
folder outside the repo (once, then reused).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

SDK = "@modelcontextprotocol/sdk@1.32.2"
SCRIPT = Path(__file__).parents[2] / "scripts" / "ts_client_check.mjs"
SCRATCH = Path(tempfile.gettempdir()) / "cursor-cloud-agents-ts-sdk-1.32.2"
LOCK = "ts-check.lock"
OUTCOME = "ts-check.json"
CHECK_SECONDS = 120.0
"""The node script's bound (it takes about 10 s: the server's start, two reads, the 6 s wait)."""


@dataclass
class Background:
    """The check this process started, if it took the lock."""

    folder: Path
    thread: threading.Thread | None = None
    process: list[subprocess.Popen[str]] = field(default_factory=list[subprocess.Popen[str]])


KEY = pytest.StashKey[Background]()


def missing_tools() -> str | None:
    """Why the check cannot run here, or None."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return "node and npm are not on PATH: the TypeScript SDK client check needs them (Node 20 or newer)"
    return None


def sdk_folder() -> Path:
    """The scratch folder holding the SDK, installed on first use (into a fresh folder, renamed into place)."""
    if (SCRATCH / "node_modules" / "@modelcontextprotocol" / "sdk").is_dir():
        return SCRATCH
    fresh = Path(tempfile.mkdtemp(prefix="ts-sdk-", dir=SCRATCH.parent))
    npm = ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(fresh), SDK]
    installed = subprocess.run(npm, capture_output=True, text=True, timeout=300, check=False)
    if installed.returncode != 0:
        raise RuntimeError(f"npm install {SDK} failed:\n{installed.stderr[-2000:]}")
    try:
        fresh.rename(SCRATCH)
    except OSError:  # another run installed it meanwhile
        shutil.rmtree(fresh, ignore_errors=True)
    return SCRATCH


def shared_folder(config: pytest.Config) -> Path:
    """The folder every process of this run sees: the parent of an xdist worker's base temporary folder."""
    basetemp = getattr(config.option, "basetemp", None)
    if hasattr(config, "workerinput") and basetemp:
        return Path(basetemp).parent
    return Path(tempfile.mkdtemp(prefix="ts-check-"))


def start(config: pytest.Config) -> None:
    """Start the check unless another process of the run did (or already wrote its outcome)."""
    background = Background(shared_folder(config))
    config.stash[KEY] = background
    if missing_tools() is not None:
        return
    lock = os.open(background.folder / LOCK, os.O_CREAT | os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(lock)  # another worker holds it: its check is running
        return
    if (background.folder / OUTCOME).exists():
        os.close(lock)
        return
    background.thread = threading.Thread(target=_check, args=(background, lock), daemon=True)
    background.thread.start()


def _check(background: Background, lock: int) -> None:
    """Run the script against the server in simulated mode; write what it said, then release the lock."""
    try:
        outcome = _run(background)
    except Exception as error:  # every failure is the test's to report, with its words
        outcome = {"error": f"{type(error).__name__}: {error}"}
    try:
        fresh = background.folder / f"{OUTCOME}.{os.getpid()}"
        fresh.write_text(json.dumps(outcome), encoding="utf-8")
        fresh.replace(background.folder / OUTCOME)
    finally:
        os.close(lock)


def _run(background: Background) -> dict[str, Any]:
    folder = sdk_folder()
    script = folder / SCRIPT.name
    shutil.copyfile(SCRIPT, script)
    home = background.folder / "ts-check-home"
    home.mkdir(exist_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home)}
    command = ["node", str(script), sys.executable, "-m", "cursor_cloud_agents"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    background.process.append(process)
    try:
        stdout, stderr = process.communicate(timeout=CHECK_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    return {"returncode": process.returncode, "stdout": stdout, "stderr": stderr[-3000:]}


def stop(config: pytest.Config) -> None:
    """At the end of the session: a check still running (the session ended early) is ended, not left behind."""
    background = config.stash.get(KEY, None)
    if background is None or background.thread is None:
        return
    for process in background.process:
        if process.poll() is None:
            process.kill()
    background.thread.join(timeout=10)


def outcome(config: pytest.Config) -> dict[str, Any]:
    """What the script printed, once the check is done (started now if nothing started it)."""
    reason = missing_tools()
    if reason is not None:
        pytest.skip(reason)
    background = config.stash.get(KEY, None)
    if background is None:
        start(config)
        background = config.stash[KEY]
    lock = os.open(background.folder / LOCK, os.O_CREAT | os.O_RDWR)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)  # held by the check until its outcome is written
        written = background.folder / OUTCOME
        if not written.exists():  # the starter failed to take the lock in time: run it here
            fcntl.flock(lock, fcntl.LOCK_UN)
            os.close(lock)
            lock = -1
            start(config)
            return outcome(config)
        found = json.loads(written.read_text(encoding="utf-8"))
    finally:
        if lock >= 0:
            os.close(lock)
    assert "error" not in found, found["error"]
    assert found["returncode"] == 0, found["stderr"]
    return json.loads(found["stdout"])
