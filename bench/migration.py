"""The one-time read of the previous version's files: seconds, added peak memory and what came of it, for an old
`ledger.jsonl` of 40 MB of expired entries (issue 46) and one of live ones at the limit's size.

Each case runs in a fresh process (the store's first read migrates the files); the peak is VmHWM after the read
less VmRSS before it. Medians of `RUNS`.

Run: `.venv/bin/python bench/migration.py`
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

RUNS = 3
DAY = 86400.0
CHILD = r"""
import sys, time
from pathlib import Path
import anyio
from cursor_cloud_agents.core.store import Store, StoreUnusable
from cursor_cloud_agents.core.spend.ledger import use_of

def status(key):
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    return 0.0

before = status("VmRSS:")
now = float(sys.argv[2])
started = time.perf_counter()
try:
    reading = anyio.run(Store(Path(sys.argv[1])).read, now)
    outcome = f"{len(reading.acts)} acts, {use_of(reading, now)[0]} counted"
except StoreUnusable as unusable:
    outcome = "refused: " + unusable.why[:60]
seconds = time.perf_counter() - started
print(f"{seconds} {status('VmHWM:') - before} {outcome}")
"""


def ledger(path: Path, megabytes: int, newest: float) -> None:
    with path.open("w") as file:
        written, index = 0, 0
        while written < megabytes * 1024 * 1024:
            line = json.dumps({"at": newest - index, "agent_id": f"bc-{uuid.UUID(int=index, version=4)}"}) + "\n"
            file.write(line)
            written += len(line)
            index += 1


def measure(case: str, now: float) -> tuple[float, float, str]:
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        if case == "40 MB expired":
            ledger(folder / "ledger.jsonl", 40, now - 2 * DAY)
        else:
            ledger(folder / "ledger.jsonl", 1, now - 60)
        done = subprocess.run([sys.executable, "-c", CHILD, directory, repr(now)], capture_output=True, text=True)
        if done.returncode != 0:
            return float("nan"), float("nan"), done.stderr.strip().splitlines()[-1]
        seconds, mib, outcome = done.stdout.split(" ", 2)
        return float(seconds), float(mib), outcome.strip()


def main() -> None:
    now = time.time()
    for case in ("40 MB expired", "1 MB live"):
        runs = [measure(case, now) for _ in range(RUNS)]
        seconds = statistics.median(run[0] for run in runs)
        mib = statistics.median(run[1] for run in runs)
        print(f"{case:<16} median {seconds:6.2f} s  +{mib:7.1f} MiB peak  ({runs[-1][2]})")


if __name__ == "__main__":
    main()
