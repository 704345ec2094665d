"""Issue 21's reproductions of the money promises breaking, each against the simulator, with what came of it.

Each case drives the server's tools in process (the test harness, the simulator on its manual clock),
sets up the state directory or the fault the case names, and prints one line: what the simulator holds
or what the tool answered. Run it on a tree before and after the change to compare:

    .venv/bin/python scripts/repro_money.py
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.tool_harness import Harness, open_harness

from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, RunScript, World

FOLLOW_UP = {"prompt": "Now add tests"}
CREATE = {"prompt": "Add a README"}
Case = Callable[[Path], Awaitable[str]]


def agent_world() -> tuple[World, str]:
    world = World(ManualClock())
    agent = world.add_agent("Add a README", created_ago=3600, script=RunScript(running_seconds=600))
    return world, agent.id


def run_posts(h: Harness) -> int:
    return sum(1 for record in h.requests("POST") if record.path.endswith("/runs"))


def creation_posts(h: Harness) -> int:
    return sum(1 for record in h.requests("POST") if record.path == "/v1/agents")


def answer_cut_once(agent_id: str) -> Faults:
    """The next follow-up POST is carried out by Cursor, then its connection cut: the answer is lost."""
    faults = Faults()
    faults.inject("POST", f"/v1/agents/{agent_id}/runs", Fault.cut_after_request(), times=1)
    return faults


async def follow_up_lost_then_asked_after_it_ended(state: Path) -> str:
    world, agent_id = agent_world()
    async with open_harness(world, faults=answer_cut_once(agent_id), state_dir=state) as h:
        await h.call("cursor_create_run", {"agent_id": agent_id} | FOLLOW_UP)
        h.clock.advance(700)
        again = await h.call("cursor_create_run", {"agent_id": agent_id} | FOLLOW_UP)
        return f"{run_posts(h)} follow-up POSTs, resumed={again.data.get('resumed')}"


async def follow_up_lost_then_replace_active(state: Path) -> str:
    world, agent_id = agent_world()
    async with open_harness(world, faults=answer_cut_once(agent_id), state_dir=state) as h:
        await h.call("cursor_create_run", {"agent_id": agent_id} | FOLLOW_UP)
        again = await h.call("cursor_create_run", {"agent_id": agent_id, "replace_active": True} | FOLLOW_UP)
        cancels = sum(1 for record in h.requests("POST") if record.path.endswith("/cancel"))
        return f"{run_posts(h)} follow-up POSTs, {cancels} cancels, resumed={again.data.get('resumed')}"


async def creations_with_a_state_directory_that_is_a_file(state: Path) -> str:
    blocked = state / "blocked"
    blocked.write_text("a file where the folder belongs")
    async with open_harness(World(ManualClock()), state_dir=blocked, max_new_agents=3) as h:
        codes = [(await h.call("cursor_create_agent", {"prompt": f"Task {n}"})).code for n in range(4)]
        return f"{creation_posts(h)} creations sent of 4 asked at a limit of 3; answers {codes}"


async def a_torn_last_ledger_line(state: Path) -> str:
    world = World(ManualClock())
    now = world.clock.now()
    counted = "".join(json.dumps({"at": now - ago}) + "\n" for ago in (60, 30))
    (state / "ledger.jsonl").write_text(counted + '{"at": ' + str(now - 1)[:6])  # the last line torn by a crash
    async with open_harness(world, state_dir=state, max_new_agents=3) as h:
        reply = await h.call("cursor_create_agent", CREATE)
        return f"at a limit of 3 with 2 counted and 1 torn: {creation_posts(h)} sent ({reply.code or 'created'})"


async def an_entry_dated_beyond_year_9999(state: Path) -> str:
    (state / "ledger.jsonl").write_text(json.dumps({"at": 3e11}) + "\n")
    async with open_harness(World(ManualClock()), state_dir=state, max_new_agents=1) as h:
        reply = await h.call("cursor_create_agent", CREATE)
        return f"answer {reply.code or 'created'}, {creation_posts(h)} sent"


async def a_fifo_where_the_journal_belongs(state: Path) -> str:
    for name in ("creations.jsonl", "acts.jsonl"):
        os.mkfifo(state / name)
    async with open_harness(World(ManualClock()), state_dir=state) as h:
        with anyio.move_on_after(10) as waited:
            reply = await h.call("cursor_create_agent", CREATE)
        if waited.cancelled_caught:
            return "no answer within 10 s (the event loop is blocked)"
        return f"answer {reply.code or 'created'} at once, {creation_posts(h)} sent"


CASES: dict[str, Case] = {
    "follow-up lost, asked again after its run ended": follow_up_lost_then_asked_after_it_ended,
    "follow-up lost, asked again with replace_active": follow_up_lost_then_replace_active,
    "state directory that is a file": creations_with_a_state_directory_that_is_a_file,
    "torn last line in the count": a_torn_last_ledger_line,
    "an entry dated beyond year 9999": an_entry_dated_beyond_year_9999,
    "a FIFO where the journal belongs": a_fifo_where_the_journal_belongs,
}


async def main() -> None:
    for name, case in CASES.items():
        with tempfile.TemporaryDirectory() as folder:
            try:
                outcome = await case(Path(folder))
            except Exception as exc:  # a case that crashes is an outcome too
                outcome = f"crashed: {type(exc).__name__}"
        sys.stdout.write(f"{name}: {outcome}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    anyio.run(main)
