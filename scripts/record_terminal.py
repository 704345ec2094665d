"""Record the terminal commands against the simulator with rich's own export, into `docs/terminal.md`.

`make recording` runs it: `agents`, then `watch` of the demo world's running agent, drawn by the
commands themselves on a recording console (`Console(record=True)`), at 200 times real speed. The text
export replaces the block between that page's `recording` markers (an SVG of it weighs about 40 times
more; the text reads the same in a terminal and on GitHub).

Then the work brought home (issue 30), between the `changes-recording` markers: a real `git clone` of the
simulator's stand-in remote as `simulate` prints it, `diff`, `checkout --check` and `apply` of a finished
agent of the demo world, run in that clone. The temporary folder it is made in is shown as `~/src`.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import anyio
from rich.console import Console

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.embedded import simulator_folder, stand_in_remote_folder
from cursor_cloud_agents.simulator import StandInRemote
from cursor_cloud_agents.terminal.agents import agents
from cursor_cloud_agents.terminal.changes import apply_command, diff_command
from cursor_cloud_agents.terminal.checkout import Where, checkout
from cursor_cloud_agents.terminal.simulated import simulated_session
from cursor_cloud_agents.terminal.term import Term, fixed_session
from cursor_cloud_agents.terminal.watch import watch

PAGE = Path(__file__).resolve().parent.parent / "docs" / "terminal.md"
BLOCK = re.compile(r"(<!-- recording:start -->\n).*?(<!-- recording:end -->)", re.DOTALL)
CHANGES_BLOCK = re.compile(r"(<!-- changes-recording:start -->\n).*?(<!-- changes-recording:end -->)", re.DOTALL)
BROUGHT_HOME = "Add a README with setup instructions"
CHECK = "python3 -m unittest discover -s tests"
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


async def record_changes(place: Path) -> str:
    console = Console(record=True, file=io.StringIO(), width=WIDTH, color_system=None)
    remote = StandInRemote(stand_in_remote_folder(simulator_folder()))
    remote.ensure("github.com/your-org/your-repo")
    # Git and the check command need only a PATH (this Python's folder first) and a HOME without settings.
    env = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.defpath}", "HOME": str(place)}
    clone = place / "your-repo"
    async with simulated_session("demo", SPEED) as session:
        term = Term(Settings(simulated=True), fixed_session(session), console, console, console.file.write)
        listed = await session.api.list_agents()
        agent = next(agent for agent in listed.items if agent.name == BROUGHT_HOME).id
        console.print("$ cursor-cloud-agents simulate   # in another terminal; among what it prints:", markup=False)
        console.print(f"clone it: {remote.clone_command()}", markup=False)
        console.print(f"\n$ {remote.clone_command()} && cd your-repo", markup=False)
        clone_args = remote.clone_command().split()[1:]
        subprocess.run(["git", *clone_args, str(clone)], cwd=place, env=env, check=True, capture_output=True)
        console.print(f"\n$ cursor-cloud-agents diff {agent} --simulated", markup=False)
        await diff_command(term, agent_id=agent, run_id=None, paths=[], cwd=clone, env=env)
        console.print(f"\n$ cursor-cloud-agents checkout {agent} --simulated --check '{CHECK}'", markup=False)
        await checkout(term, agent_id=agent, where=Where(None, False, None), cwd=clone, env=env, check=CHECK)
        console.print(f"\n$ cursor-cloud-agents apply {agent} --simulated --yes", markup=False)
        await apply_command(term, agent_id=agent, mode="fast-forward", remote=None, cwd=clone, env=env, confirmed=True)
    return console.export_text().replace(str(place), "~/src")


def _replace(page: str, pattern: re.Pattern[str], text: str, name: str) -> str:
    block = "```text\n" + "\n".join(line.rstrip() for line in text.splitlines()) + "\n```\n"
    if not pattern.search(page):
        raise SystemExit(f"{PAGE.name} has no <!-- {name}:start --> / <!-- {name}:end --> markers")
    return pattern.sub(lambda found: found.group(1) + block + found.group(2), page)


def main() -> None:
    text = anyio.run(record)
    with tempfile.TemporaryDirectory() as place:
        changes = anyio.run(record_changes, Path(place))
    page = _replace(PAGE.read_text(), BLOCK, text, "recording")
    PAGE.write_text(_replace(page, CHANGES_BLOCK, changes, "changes-recording"))


if __name__ == "__main__":
    main()
