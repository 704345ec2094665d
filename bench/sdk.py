"""The SDK face's costs: importing it, and a whole simulated program (open, create, send, wait, stream, close).

Prints, for N runs each (median, min, max), in fresh interpreters: `import cursor_cloud_agents.sdk`; a
script that runs `Agent.prompt` against `Cursor(simulated=True)` and exits; and the same with the async
classes. Run: `.venv/bin/python bench/sdk.py [--runs N]`. Timings are noisy on a shared machine: say its load.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

RUNS = 5
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}

SCRIPTS = {
    "import cursor_cloud_agents.sdk": "import cursor_cloud_agents.sdk",
    "sync one-shot, simulated": (
        "from cursor_cloud_agents.sdk import Agent, Cursor\n"
        "with Cursor(simulated=True) as cursor:\n"
        "    assert Agent.prompt('Work', client=cursor).finished\n"
    ),
    "async create+send+stream+wait, simulated": (
        "import asyncio\n"
        "from cursor_cloud_agents.sdk import AsyncAgent, AsyncCursor\n"
        "async def main():\n"
        "    async with AsyncCursor(simulated=True) as cursor:\n"
        "        run = await (await AsyncAgent.create(client=cursor)).send('Work')\n"
        "        assert [m async for m in run.stream()]\n"
        "        assert (await run.wait()).finished\n"
        "asyncio.run(main())\n"
    ),
}


def seconds(code: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=ENV, check=True, timeout=120)
    return time.perf_counter() - started


def main() -> None:
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else RUNS
    print(f"load average {os.getloadavg()[0]:.1f}, {runs} runs each (fresh interpreter, exit included)")
    for name, code in SCRIPTS.items():
        times = [seconds(code) for _ in range(runs)]
        print(f"{name:45} median {statistics.median(times):.3f} s  min {min(times):.3f}  max {max(times):.3f}")


if __name__ == "__main__":
    main()
