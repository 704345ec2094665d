"""Issue 46, practice never counts: every count and charge is kept per API origin (core/spend/origins.py).

Practice against `simulate` (a loopback origin) fills its own creation limit, journal and follow-up queue;
the real API's (any origin off loopback, and every entry written before origins were kept apart) is untouched.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cursor_cloud_agents.api import CreateAgentRequest, Prompt, ids
from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core import ToolFailure, create_within_limits
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.origins import ORIGINS_FOLDER, acts_directory, practice_origin
from cursor_cloud_agents.core.store import FILE_NAME, Store
from cursor_cloud_agents.simulator import ManualClock, World, serve
from tests.core.rig import process

pytestmark = pytest.mark.anyio

LIMIT = 3


def request(prompt: str) -> CreateAgentRequest:
    return CreateAgentRequest(prompt=Prompt(text=prompt), agent_id=ids.mint_agent_id())


async def test_practice_up_to_the_limit_leaves_a_real_creation_free_k_20(tmp_path: Path) -> None:
    """K-20: creations against `simulate` (its loopback origin) up to CURSOR_MCP_MAX_NEW_AGENTS, the next one
    refused there; then a creation against the real API's origin (a stand-in served on loopback, the client's
    base URL the default) with the same state directory and limit goes through: exactly one POST reaches it."""
    clock = ManualClock()
    async with serve(World(clock)) as practice, serve(World(clock)) as real:
        async with process(practice, clock, tmp_path, max_new_agents=LIMIT, base_url=practice.base_url) as state:
            for index in range(LIMIT):
                await create_within_limits(state, request(f"Practice {index}"))
            with pytest.raises(ToolFailure) as full:
                await create_within_limits(state, request("One practice too many"))
        assert full.value.code == "LIMIT_REACHED"
        async with process(real, clock, tmp_path, max_new_agents=LIMIT) as state:
            await create_within_limits(state, request("Real work"))
        posts = [record for record in real.requests if record.method == "POST" and record.path == "/v1/agents"]
    assert len(posts) == 1
    practice_folder = tmp_path / ORIGINS_FOLDER / str(practice_origin(practice.base_url))
    assert (practice_folder / FILE_NAME).is_file() and (tmp_path / FILE_NAME).is_file()


async def test_entries_without_an_origin_belong_to_the_real_api_k_21(tmp_path: Path) -> None:
    """K-21: a store written before origins were kept apart (its entries carry no origin, at the state
    directory's root) keeps counting for the real API, and for it only: practice starts afresh."""
    clock = ManualClock()
    now = clock.now()
    old = [Act(f"old-{index}", "create", now - 60, "done", counted=True) for index in range(LIMIT)]
    await Store(tmp_path).write(*old, now=now)
    async with serve(World(clock)) as sim:
        async with process(sim, clock, tmp_path, max_new_agents=LIMIT) as state:
            with pytest.raises(ToolFailure) as full:
                await create_within_limits(state, request("Real, over the limit"))
        async with process(sim, clock, tmp_path, max_new_agents=LIMIT, base_url=sim.base_url) as state:
            await create_within_limits(state, request("Practice"))
    assert full.value.code == "LIMIT_REACHED"


@pytest.mark.parametrize(
    ("base_url", "simulated", "where"),
    [
        ("https://api.cursor.com", False, "."),
        ("https://cursor-proxy.example.com", False, "."),
        ("http://127.0.0.1:8123", False, f"{ORIGINS_FOLDER}/http-127.0.0.1-8123"),
        ("http://localhost:8123", True, f"{ORIGINS_FOLDER}/http-localhost-8123"),
        ("http://[::1]:9", False, f"{ORIGINS_FOLDER}/http-__1-9"),
        ("https://api.cursor.com", True, None),
    ],
)
def test_each_origin_has_its_store_and_every_real_one_shares_the_root_k_22(
    tmp_path: Path, base_url: str, simulated: bool, where: str | None
) -> None:
    """K-22: every origin off loopback is the real API (a proxy cannot be told from it): the root; each loopback
    origin its own folder; a world served inside the process (simulated, not on loopback) memory only."""
    found = acts_directory(Settings(state_dir=tmp_path, base_url=base_url, simulated=simulated))
    assert found == (None if where is None else tmp_path / where if where != "." else tmp_path)
