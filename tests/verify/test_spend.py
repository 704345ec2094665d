"""Issue 21: `verify --spend` creates its agent like any creation: it takes its place in the store of paid
acts (CURSOR_MCP_MAX_NEW_AGENTS), is held to the spend and running-agents limits, and says so before asking.

A refusal by a limit comes before the question and sends nothing (the simulator's request log).
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from cursor_cloud_agents.api import ids
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.ledger import take, use_of
from cursor_cloud_agents.core.spend.origins import acts_directory
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.simulator import SIMULATED_API_KEY, ManualClock, RunningSimulator
from cursor_cloud_agents.verify.command import Io, Options, run_verify
from tests.verify.test_command import opener, pump_world, simulator

pytestmark = pytest.mark.anyio

QUESTION = "Create it?"


async def spend(
    sim: RunningSimulator, clock: ManualClock, state: Path, answer: str = "yes", **limits: str
) -> tuple[int, list[str]]:
    """`verify --spend` with the store in `state` and these limits; what it printed and asked, in order."""
    said: list[str] = []
    done = anyio.Event()

    async def advance(seconds: float) -> None:
        clock.advance(seconds)
        await anyio.lowlevel.checkpoint()

    def ask(question: str) -> str:
        said.append(question)
        return answer

    env = {"CURSOR_API_KEY": SIMULATED_API_KEY, "CURSOR_API_BASE_URL": sim.base_url, "CURSOR_MCP_STATE_DIR": str(state)}
    io = Io(write=said.append, ask=ask, now=clock.now, sleep=advance, wall=clock.now)
    codes: list[int] = []
    async with anyio.create_task_group() as group:
        group.start_soon(pump_world, clock, done)
        codes.append(await run_verify(env | limits, Options(spend=True), opener(sim, clock), io))
        done.set()
    return codes[0], said


def posts(sim: RunningSimulator) -> int:
    return sim.faults.count("POST", "/v1/agents")


def store_of(state: Path, sim: RunningSimulator) -> Store:
    """The store of paid acts of the simulator's origin (a loopback one: its own, core/spend/origins.py)."""
    return Store(acts_directory(Settings(state_dir=state, base_url=sim.base_url)))


async def a_creation_made_earlier(state: Path, sim: RunningSimulator, now: float, agent_id: str | None = None) -> None:
    """Another creation of this machine today, as the store of the simulator's origin holds it."""
    act = Act(Act.new_id(), "create", now - 3600, "done", counted=True, agent_id=agent_id or ids.mint_agent_id())
    await take(store_of(state, sim), act, 25)


async def test_verify_spend_takes_its_place_in_the_creation_limit(tmp_path: Path) -> None:
    """F-36: after `verify --spend` the store of paid acts counts its agent among the day's creations (it was
    created outside every limit), and its lifecycle still runs to the delete."""
    async with simulator() as (sim, clock):
        code, said = await spend(sim, clock, tmp_path)
        used, _ = use_of(await store_of(tmp_path, sim).read(clock.now()), clock.now())
    printed = "".join(said)
    assert code == 0, printed
    assert used == 1
    assert "OK      POST /v1/agents" in printed and "OK      delete" in printed


async def test_verify_spend_at_the_creation_limit_is_refused_before_asking_and_sends_nothing(tmp_path: Path) -> None:
    """F-37: CURSOR_MCP_MAX_NEW_AGENTS=1 is used up by a creation made earlier today: --spend is SKIPPED with
    the limit's answer, the person is not asked, and no POST leaves."""
    async with simulator() as (sim, clock):
        await a_creation_made_earlier(tmp_path, sim, clock.now())
        _, said = await spend(sim, clock, tmp_path, CURSOR_MCP_MAX_NEW_AGENTS="1")
        sent = posts(sim)
    printed = "".join(said)
    assert "SKIPPED --spend: 1 agents were created through this machine's servers" in printed, printed
    assert "CURSOR_MCP_MAX_NEW_AGENTS=1" in printed
    assert not any(line.startswith(QUESTION) for line in said)
    assert sent == 0


async def test_verify_spend_at_the_spend_limit_is_refused_before_asking_and_sends_nothing(tmp_path: Path) -> None:
    """F-38: an agent created earlier today was charged 23.4 cents, over CURSOR_MCP_MAX_SPEND_CENTS=20:
    --spend is SKIPPED with the spend seen, the person is not asked, and no POST leaves."""
    async with simulator() as (sim, clock):
        charged = sim.world.add_agent("Charged earlier", created_ago=3600)
        await a_creation_made_earlier(tmp_path, sim, clock.now(), charged.id)
        _, said = await spend(sim, clock, tmp_path, CURSOR_MCP_MAX_SPEND_CENTS="20")
        sent = posts(sim)
    printed = "".join(said)
    refusal = "SKIPPED --spend: The agents created through this machine's servers in the last 24 hours were charged 23"
    assert refusal in printed, printed
    assert not any(line.startswith(QUESTION) for line in said)
    assert sent == 0


async def test_verify_spend_says_what_it_takes_of_each_limit_before_asking(tmp_path: Path) -> None:
    """F-39: before the question, the warning and the core's question say each limit's use (N-01: the question and
    its limits line are the core's, as for every face)."""
    async with simulator() as (sim, clock):
        await a_creation_made_earlier(tmp_path, sim, clock.now())
        _, said = await spend(sim, clock, tmp_path, answer="no", CURSOR_MCP_MAX_SPEND_CENTS="500")
        sent = posts(sim)
    asked = next(index for index, line in enumerate(said) if line.startswith(QUESTION))
    before = "".join(said[:asked])
    assert "Start a paid Cursor Cloud Agent?" in before, before
    assert "1 of 25 new agents in 24 h;" in before and " of 8 running;" in before
    assert " of 500 cents spent in 24 h" in before
    assert sent == 0


async def test_verify_spend_writes_its_busy_follow_up_in_the_store_of_paid_acts(tmp_path: Path) -> None:
    """F-46: the follow-up `--spend` sends while its run is busy goes the way of every follow-up: written in the
    store before it is sent, and settled `failed` on `409 agent_busy`. Had the run ended meanwhile, the run it
    made would be a recorded paid act (it was sent straight to the API, outside the store)."""
    async with simulator() as (sim, clock):
        code, said = await spend(sim, clock, tmp_path)
        reading = await store_of(tmp_path, sim).read(clock.now())
    printed = "".join(said)
    assert code == 0 and "OK      follow-up while busy" in printed, printed
    follow_ups = list(reading.of("followup"))
    assert [act.state for act in follow_ups] == ["failed"]
    assert sim.faults.count("POST", f"/v1/agents/{follow_ups[0].agent_id}/runs") == 1
