"""The creation journal: a paid creation whose answer is lost before it reaches the model is never paid twice.

RELIABILITY F-12/F-14: the client cancels the call (or the process dies) after the POST left; the
model never learns the minted id. An identical creation asked again is resolved by reading first.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.server.journal import FILE_NAME, WINDOW_SECONDS, Attempt, CreationJournal, fingerprint
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.tools.conftest import Harness, OpenHarness

pytestmark = pytest.mark.anyio

REQUEST = {"prompt": "Add a README with setup instructions", "repository": "https://github.com/your-org/your-repo"}
SECRET_VALUE = "journal_secret_value_0123456789"


async def lose_the_answer(h: Harness, arguments: dict[str, Any], *, applied: bool = True) -> None:
    """Start a creation, wait until the simulator has it (applied to the world, or only received), then cancel."""
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(h.call, "cursor_create_agent", arguments)
            while not (h.world.agents if applied else h.requests("POST")):
                await anyio.wait_all_tasks_blocked()  # no sleep: resume whenever every task waits on I/O
            group.cancel_scope.cancel()


def slow_answers(fault: Fault) -> Faults:
    faults = Faults()
    faults.inject("POST", "/v1/agents", fault, times=1)
    return faults


async def test_a_creation_cancelled_after_it_reached_cursor_is_returned_not_paid_again(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14: the call is cancelled mid-answer; the same creation asked again returns that agent, one POST."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.drip(200)), state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST)
        again = await h.call("cursor_create_agent", REQUEST)
        posts = len(h.requests("POST"))
    assert not again.is_error and again.data["resumed"] is True
    assert again.data["agent_id"] == next(iter(world.agents))
    assert posts == 1 and len(world.agents) == 1


async def test_a_creation_lost_with_its_process_is_resolved_on_the_next_start(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-12: the journal is on disk; a new server process reads it before creating again."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.drip(200)), state_dir=tmp_path) as first:
        await lose_the_answer(first, REQUEST)
    async with harness_factory(world, state_dir=tmp_path) as second:
        again = await second.call("cursor_create_agent", REQUEST)
        posts = len(second.requests("POST"))
    assert again.data["resumed"] is True and posts == 0 and len(world.agents) == 1


async def test_a_creation_that_never_reached_cursor_is_sent_when_asked_again(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14: the earlier attempt provably did nothing (its agent is unknown), so this one is sent."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.slow(float("inf"))), state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST, applied=False)
        again = await h.call("cursor_create_agent", REQUEST)
    assert not again.is_error and "resumed" not in again.data
    assert list(world.agents) == [again.data["agent_id"]]


async def test_a_creation_with_env_vars_is_found_again_by_its_name(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """The API forbids agentId with envVars: the lost creation is resolved by its name, created around then."""
    world = World(ManualClock())
    arguments = REQUEST | {"name": "nightly build", "env_vars": {"DB_PASSWORD": SECRET_VALUE}}
    async with harness_factory(world, faults=slow_answers(Fault.drip(200)), state_dir=tmp_path) as h:
        await lose_the_answer(h, arguments)
        again = await h.call("cursor_create_agent", arguments)
    assert again.data["resumed"] is True and again.data["name"] == "nightly build"
    assert len(world.agents) == 1


async def test_a_settled_creation_is_not_resumed_and_may_be_asked_again(harness_factory: OpenHarness) -> None:
    """A creation whose answer arrived is done: an identical one later is a new, deliberate agent."""
    async with harness_factory() as h:
        first = await h.call("cursor_create_agent", REQUEST)
        second = await h.call("cursor_create_agent", REQUEST)
    assert first.data["agent_id"] != second.data["agent_id"]
    assert "resumed" not in second.data


def test_the_journal_holds_no_prompt_nor_secret_and_only_its_owner_can_read_it(tmp_path: Path) -> None:
    """RELIABILITY §2.5: files the server writes carry no secret; the journal file is private (0600)."""
    body = {"prompt": {"text": "deploy with hunter2"}, "envVars": {"DB_PASSWORD": SECRET_VALUE}, "agentId": "bc-x"}
    journal = CreationJournal(tmp_path)
    journal.write(Attempt(1000.0, fingerprint(body), "bc-x", "deploy", "sent"))
    path = tmp_path / FILE_NAME
    text = path.read_text()
    assert SECRET_VALUE not in text and "hunter2" not in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_fingerprint_ignores_the_minted_id_and_env_var_values_but_not_the_prompt() -> None:
    """Two attempts of one creation differ only by their minted ids; a secret's value never enters the digest."""
    body = {"prompt": {"text": "a"}, "envVars": {"K": "v1"}, "agentId": "bc-1"}
    assert fingerprint(body) == fingerprint(body | {"agentId": "bc-2", "envVars": {"K": "v2"}})
    assert fingerprint(body) != fingerprint(body | {"prompt": {"text": "b"}})


def test_a_torn_last_line_is_skipped_and_old_entries_are_dropped(tmp_path: Path) -> None:
    """After a crash mid-write, the lines before still count; the file never grows without bound."""
    lines = [Attempt(0.0, "old", "bc-o", None, "sent"), Attempt(WINDOW_SECONDS + 10, "new", "bc-n", None, "sent")]
    text = "".join(json.dumps(attempt.__dict__) + "\n" for attempt in lines) + '{"at": 1, "finger'
    (tmp_path / FILE_NAME).write_text(text)
    journal = CreationJournal(tmp_path)
    assert journal.unsettled("new", WINDOW_SECONDS + 20) is not None
    assert journal.unsettled("old", 5.0) is None
    assert "bc-o" not in (tmp_path / FILE_NAME).read_text()
