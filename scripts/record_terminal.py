"""Record the terminal commands against the simulator with rich's own export, into the README.

`make recording` runs it: `agents`, then `watch` of the demo world's running agent, drawn by the
commands themselves on a recording console (`Console(record=True)`), at 200 times real speed. The text
export replaces the block between the README's `recording` markers (an SVG of it weighs about 40 times
more; the text reads the same in a terminal and on GitHub).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import anyio
from rich.console import Console

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.terminal.agents import agents
from cursor_cloud_agents.terminal.simulated import simulated_session
from cursor_cloud_agents.terminal.term import Term, fixed_session
from cursor_cloud_agents.terminal.watch import watch

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(<!-- recording:start -->\n).*?(<!-- recording:end -->)", re.DOTALL)
WIDTH = 150
SPEED = 200.0
WATCHED = "Fix the flaky login test"


async def record() -> str:
    console = Console(record=True, file=io.StringIO(), width=WIDTH, color_system=None)
    async with simulated_session("demo", SPEED) as session:
        term = Term(Settings(simulated=True), fixed_session(session), console, console, console.file.write)
        console.print("$ cursor-cloud-agents agents --simulated --limit 3", markup=False)
        await agents(term, limit=3, name=None, archived=False)
        listed = await session.api.list_agents()
        running = next(agent for agent in listed.items if agent.name == WATCHED)
        console.print(f"\n$ cursor-cloud-agents watch {running.id} --simulated --speed {SPEED:g}", markup=False)
        await watch(term, agent_id=running.id, run_id=None)
    return console.export_text()


def main() -> None:
    text = anyio.run(record)
    block = "```text\n" + "\n".join(line.rstrip() for line in text.splitlines()) + "\n```\n"
    readme = README.read_text()
    if not BLOCK.search(readme):
        raise SystemExit("README.md has no <!-- recording:start --> / <!-- recording:end --> markers")
    README.write_text(BLOCK.sub(lambda found: found.group(1) + block + found.group(2), readme))


if __name__ == "__main__":
    main()
