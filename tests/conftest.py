"""Shared fixtures: every async test runs on asyncio through anyio's pytest plugin, and the tool harness
(`tests/tool_harness.py`: a real MCP client session over the server against the simulator) is at hand everywhere."""

import gc
import os
from collections.abc import Generator

import pytest

from tests.tool_harness import harness, harness_factory

__all__ = ["harness", "harness_factory"]

# No test reads or writes this machine's keychain (`keystore`): keyring's backend that has none, for this
# process and every server or command the suite spawns with its environment. The tests of the keychain path
# hand keystore a backend of their own.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (every test module, its imports, the items) lives until the end: frozen out of the
    collector's sight, so that each automatic collection during a test walks only what tests make since."""
    gc.freeze()


@pytest.hookimpl(wrapper=True, optionalhook=True)  # optional: `-p no:xdist` runs the suite in one process
def pytest_xdist_auto_num_workers(config: pytest.Config) -> Generator[None, int, int]:
    """`-n auto` runs one worker more than xdist counts cores for: about a quarter of a worker's time is spent
    waiting (on the servers and commands it spawns, and on the few cases that must listen to real time), and
    the extra worker fills it. Measured on 2 cores, same session, alternated: 2 workers 51.8 s, 3 workers 46.6 s
    (medians of 3); a fourth gained 2 s more, within the noise, for more contention on the timed cases.
    xdist's own count stays the base (the CPUs this process may use), and a count the person set in
    PYTEST_XDIST_AUTO_NUM_WORKERS is theirs, unchanged."""
    del config  # xdist's own implementation reads it
    cores = yield
    return cores if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS") else cores + 1
