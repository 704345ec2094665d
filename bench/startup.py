"""Start-up: spawn to `tools/list` over stdio and the server's import, beside the floor (the MCP SDK's import).

The floor is the whole process `python -c "import mcp"` (its exit included): every server built on the SDK pays
it, so issue 35 holds spawn to `tools/list` within 1.05x of it. Printed, per round and over all rounds
(median, min, max of each):

- the floor, `python -c "import mcp"`;
- `python -c "import cursor_cloud_agents.server.app"` (and the peer's `import cursor_cloud_mcp.server`);
- our server spawned until it answered `tools/list`, then in simulated mode (`CURSOR_MCP_FIXTURE=1`);
- with `--peer`, the peer server (cursor-cloud-mcp 0.6.0 from PyPI) the same way, in its simulated mode.

Everything runs interleaved, one of each in turn, so that a change of load weighs on all alike. The peer needs
Python 3.12 and stays out of the project, in a throwaway environment:

    .tools/bin/uv venv /tmp/peer --python 3.12
    VIRTUAL_ENV=/tmp/peer .tools/bin/uv pip install cursor-cloud-mcp==0.6.0
    PYTHONPATH=scripts .venv/bin/python bench/startup.py --runs 10 --rounds 3 --peer /tmp/peer

`make bench` runs it with 5 runs in one round and no peer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from devkit.probe import probe

RUNS = 5
"""Runs of each line per round by default (`make bench`; issue 35 measures with `--runs 10 --rounds 3`)."""
ENV = {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
SIMULATED = {"CURSOR_MCP_FIXTURE": "1"}
BUDGET = 1.05
"""Issue 35: spawn to tools/list at most this many times the floor."""


@dataclass
class Figures:
    """Seconds measured for each line, in the order they were taken."""

    samples: dict[str, list[float]] = field(default_factory=dict[str, list[float]])

    def add(self, label: str, seconds: float) -> None:
        self.samples.setdefault(label, []).append(seconds)

    def median(self, label: str) -> float:
        return statistics.median(self.samples[label])


async def whole_process(command: Sequence[str]) -> float:
    """Seconds from spawn to exit of `command` (which must succeed)."""
    started = time.perf_counter()
    async with await anyio.open_process(list(command), env=ENV) as process:
        status = await process.wait()
    if status != 0:
        raise SystemExit(f"{' '.join(command)} exited {status}")
    return time.perf_counter() - started


async def to_tools_list(command: Sequence[str], extra_env: dict[str, str]) -> float:
    """Seconds from spawn to the `tools/list` answer."""
    result = await probe(list(command), ENV | extra_env, timeout=120.0)
    return result.seconds_to_tools


async def server_seconds(extra_env: dict[str, str]) -> float:
    """Our server, spawn to the `tools/list` answer (bench/terminal.py compares its commands with it)."""
    return await to_tools_list([sys.executable, "-m", "cursor_cloud_agents"], extra_env)


FLOOR = 'python -c "import mcp" (the floor)'
OURS_IMPORT = 'python -c "import cursor_cloud_agents.server.app"'
PEER_IMPORT = 'python -c "import cursor_cloud_mcp.server" (peer)'
OURS = "spawn -> tools/list"
OURS_SIMULATED = "spawn -> tools/list, CURSOR_MCP_FIXTURE=1"
PEER = "peer spawn -> tools/list, CURSOR_MCP_FIXTURE=1"


async def one_round(runs: int, peer: Path | None) -> Figures:
    """`runs` of every line, interleaved."""
    figures = Figures()
    python = sys.executable
    for _ in range(runs):
        figures.add(FLOOR, await whole_process([python, "-c", "import mcp"]))
        figures.add(OURS_IMPORT, await whole_process([python, "-c", "import cursor_cloud_agents.server.app"]))
        figures.add(OURS, await server_seconds({}))
        figures.add(OURS_SIMULATED, await server_seconds(SIMULATED))
        if peer is not None:
            peer_python = str(peer / "bin" / "python")
            figures.add(PEER_IMPORT, await whole_process([peer_python, "-c", "import cursor_cloud_mcp.server"]))
            figures.add(PEER, await to_tools_list([peer_python, "-m", "cursor_cloud_mcp"], SIMULATED))
    return figures


def line(label: str, samples: list[float]) -> str:
    median, low, high = statistics.median(samples), min(samples), max(samples)
    return f"  {label:<52} median {median:.3f} s  (min {low:.3f}, max {high:.3f}, n={len(samples)})"


def report(title: str, figures: Figures) -> list[str]:
    lines = [title, *(line(label, samples) for label, samples in figures.samples.items())]
    floor = figures.median(FLOOR)
    ours = figures.median(OURS)
    verdict = "within" if ours <= BUDGET * floor else "OVER"
    lines.append(f"  ours / floor: {ours / floor:.3f}x ({verdict} the {BUDGET}x budget)")
    lines.append(f"  simulated / floor: {figures.median(OURS_SIMULATED) / floor:.3f}x")
    lines.append(f"  import: ours / floor {figures.median(OURS_IMPORT) / floor:.3f}x")
    if PEER in figures.samples:
        peer = figures.median(PEER)
        simulated = figures.median(OURS_SIMULATED)
        lines.append(f"  ours / peer: {ours / peer:.3f}x; ours simulated / peer: {simulated / peer:.3f}x")
        lines.append(f"  import: ours / peer {figures.median(OURS_IMPORT) / figures.median(PEER_IMPORT):.3f}x")
    return lines


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each line per round (issue 35: 10)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds, each with its own medians (issue 35: 3)")
    parser.add_argument("--peer", type=Path, help="the peer's virtual environment (cursor-cloud-mcp 0.6.0)")
    options = parser.parse_args()
    total = Figures()
    out = sys.stdout
    for number in range(1, options.rounds + 1):
        figures = await one_round(options.runs, options.peer)
        for label, samples in figures.samples.items():
            total.samples.setdefault(label, []).extend(samples)
        out.write("\n".join(report(f"round {number} of {options.rounds}", figures)) + "\n")
        out.flush()
    if options.rounds > 1:
        out.write("\n".join(report("all rounds", total)) + "\n")


if __name__ == "__main__":
    anyio.run(main)
