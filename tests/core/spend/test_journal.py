"""The creation journal: a paid creation whose answer is lost before it reaches the model is never paid twice.

docs/reliability.md F-12/F-14: the client cancels the call (or the process dies) after the POST left; the
model never learns the minted id. An identical creation asked again is resolved by reading first.
"""

from __future__ import annotations

import os
import random
import stat
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from cursor_cloud_agents.api.times import iso
from cursor_cloud_agents.core.acts import Act
from cursor_cloud_agents.core.spend.journal import WINDOW_SECONDS, fingerprint, unsettled
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.store import FILE_NAME, Store, StoreUnusable
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, KEPT_SECONDS
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, Quirks, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

REQUEST = {"prompt": "Add a README with setup instructions", "repository": "https://github.com/your-org/your-repo"}
SECRET_VALUE = "journal_secret_value_0123456789"


CREATE_SECONDS = 14.0
"""How long Cursor takes to answer the creations of these tests (the issue's reproduction: 14 s)."""


def slow_world() -> World:
    """A world where a creation lands CREATE_SECONDS after its POST arrived (docs/api-contract.md quirk 16)."""
    return World(ManualClock(), quirks=Quirks(creation_seconds=CREATE_SECONDS))


async def lose_the_answer(h: Harness, arguments: dict[str, Any], *, applied: bool = True) -> None:
    """Start a creation, wait until the simulator has it (taken by the world, or only received), then cancel
    the call: its answer never reaches the model, as after a client's cancel or the call's deadline."""
    with anyio.fail_after(10):
        async with anyio.create_task_group() as group:
            group.start_soon(h.call, "cursor_create_agent", arguments)
            while not ((h.world.creating or h.world.agents) if applied else h.requests("POST")):
                await anyio.wait_all_tasks_blocked()  # no sleep: resume whenever every task waits on I/O
            group.cancel_scope.cancel()


def slow_answers(fault: Fault) -> Faults:
    faults = Faults()
    faults.inject("POST", "/v1/agents", fault, times=1)
    return faults


def sent(at: float, print_: str, agent_id: str | None, name: str | None = None) -> Act:
    """A creation written as sent and counted, as `create_once` writes it before its POST."""
    return Act(Act.new_id(), "create", at, "sent", counted=True, fingerprint=print_, agent_id=agent_id, name=name)


def posted_ids(h: Harness) -> list[str | None]:
    """The agentId of every creation POST the simulator received, oldest first."""
    return [record.json().get("agentId") for record in h.requests("POST")]


async def test_a_creation_asked_again_while_the_first_is_in_flight_resends_its_id_and_creates_one_agent(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14 (issue 9): the same creation asked again while Cursor is still creating the first re-sends the same
    agentId (409: CREATION_IN_FLIGHT); once it landed, again: resumed. One agent, every POST with one id."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST)
        during = await h.call("cursor_create_agent", REQUEST)
        h.clock.advance(CREATE_SECONDS)
        after = await h.call("cursor_create_agent", REQUEST)
        ids = posted_ids(h)
    assert during.code == "CREATION_IN_FLIGHT" and during.data["agent_id"] == ids[0]
    assert after.data["resumed"] is True and after.data["agent_id"] == ids[0]
    assert len(world.agents) == 1 and ids == [ids[0]] * 3


@pytest.mark.parametrize("refusal", [Fault.rate_limited(), Fault.error(429, "concurrent_agents_limit", "Too many")])
async def test_a_resend_refused_by_cursor_stays_unresolved_and_the_next_ask_finds_the_first_agent(
    harness_factory: OpenHarness, tmp_path: Path, refusal: Fault
) -> None:
    """F-09/F-14: a refusal of the re-send (429 before the id conflict) says nothing of the first send, which
    may have made the agent: the creation stays `sent`, so asking once more re-sends the same id and finds
    that agent, never a second one."""
    world = World(ManualClock())
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault.cut_after_request(), times=1)
    async with harness_factory(world, faults=faults, state_dir=tmp_path) as h:
        lost = await h.call("cursor_create_agent", REQUEST)
        faults.inject("POST", "/v1/agents", refusal, times=1)
        refused = await h.call("cursor_create_agent", REQUEST)
        again = await h.call("cursor_create_agent", REQUEST)
        ids = posted_ids(h)
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN" and refused.is_error
    assert again.data.get("resumed") is True and again.data["agent_id"] == lost.data["agent_id"]
    assert len(world.agents) == 1 and ids == [ids[0]] * 3


async def test_reading_an_agent_still_being_created_says_so_instead_of_not_found(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """Issue 9: cursor_get_agent on an id the journal holds as sent and unresolved answers
    creation_pending with when it was sent, so the model does not conclude it was never created."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as h:
        sent_at = h.clock.now()
        await lose_the_answer(h, REQUEST)
        (agent_id,) = posted_ids(h)
        pending = await h.call("cursor_get_agent", {"agent_id": agent_id})
        unknown = await h.call("cursor_get_agent", {"agent_id": "bc-00000000-0000-4000-8000-0000000000ff"})
        h.clock.advance(CREATE_SECONDS)
        landed = await h.call("cursor_get_agent", {"agent_id": agent_id})
    assert not pending.is_error and pending.data["creation_pending"] is True
    assert pending.data["sent_at"] == iso(sent_at)
    assert unknown.code == "NOT_FOUND"
    assert landed.data["id"] == agent_id and "creation_pending" not in landed.data


async def test_a_creation_asked_again_after_the_first_completed_is_resumed(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14: the first POST completed at Cursor after its call ended; asking again re-sends its id (409) and
    answers that agent as resumed."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST)
        h.clock.advance(CREATE_SECONDS)
        again = await h.call("cursor_create_agent", REQUEST)
        ids = posted_ids(h)
    assert again.data["resumed"] is True and again.data["agent_id"] == ids[0]
    assert len(world.agents) == 1 and ids == [ids[0]] * 2


async def test_a_creation_lost_with_its_process_is_asked_again_with_its_id_after_a_restart(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-12/F-13: the process ends (stdin closed, SIGTERM or kill -9: the journal line was flushed before the
    POST left) and a new one starts on the same state directory: it re-sends the same id, so the POST still
    in flight and the new one make one agent."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as first:
        await lose_the_answer(first, REQUEST)
        (agent_id,) = posted_ids(first)
    async with harness_factory(world, state_dir=tmp_path) as second:
        during = await second.call("cursor_create_agent", REQUEST)
        second.clock.advance(CREATE_SECONDS)
        after = await second.call("cursor_create_agent", REQUEST)
        ids = posted_ids(second)
    assert during.code == "CREATION_IN_FLIGHT" and after.data["resumed"] is True
    assert after.data["agent_id"] == agent_id and ids == [agent_id, agent_id]
    assert len(world.agents) == 1


async def test_a_creation_cancelled_after_it_reached_cursor_is_returned_not_paid_again(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14: the call is cancelled mid-answer (the agent exists); the same creation asked again returns that
    agent: its id re-sent once, answered 409, one agent."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.drip(200)), state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST)
        again = await h.call("cursor_create_agent", REQUEST)
        ids = posted_ids(h)
    assert not again.is_error and again.data["resumed"] is True
    assert again.data["agent_id"] == next(iter(world.agents)) == ids[0]
    assert ids == [ids[0]] * 2 and len(world.agents) == 1


async def test_a_creation_that_never_reached_cursor_is_sent_with_the_same_id_when_asked_again(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-14: the earlier POST never reached Cursor, so the same id is sent again and creates the agent now."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.slow(float("inf"))), state_dir=tmp_path) as h:
        await lose_the_answer(h, REQUEST, applied=False)
        again = await h.call("cursor_create_agent", REQUEST)
        ids = posted_ids(h)
    assert not again.is_error and "resumed" not in again.data
    assert list(world.agents) == [again.data["agent_id"]] == [ids[0]] and ids == [ids[0]] * 2


RECONCILE_TRIALS = 60
"""Each trial is one of two cases, decided by a seeded coin (Cursor created the agent before the cut, or a 502
came before it did); 60 take each about 30 times, in a store holding up to 60 counted creations."""


async def test_asking_again_after_an_unknown_outcome_never_answers_not_created_wrongly(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-09: after outcome-unknown creations that Cursor did or did not carry out at random (seeded), the
    same creation asked again ends with exactly one agent each, under the first minted id: 0 false
    "not created" answers, since a re-sent id is either created now (201) or found (409)."""
    rng = random.Random(9)
    world = World(ManualClock())
    faults = Faults()
    resumed = 0
    async with harness_factory(world, faults=faults, state_dir=tmp_path, max_new_agents=RECONCILE_TRIALS) as h:
        for trial in range(RECONCILE_TRIALS):
            created = rng.random() < 0.5  # a cut after Cursor applied it, or a 502 before it did
            resumed += created
            faults.inject("POST", "/v1/agents", Fault.cut_after_request() if created else Fault.server_error(502))
            arguments = {"prompt": f"Task {trial}"}
            first = await h.call("cursor_create_agent", arguments)
            again = await h.call("cursor_create_agent", arguments)
            assert first.code == "MUTATION_OUTCOME_UNKNOWN"
            assert again.data["agent_id"] == first.data["agent_id"]
            assert again.data.get("resumed", False) is created
    assert len(world.agents) == RECONCILE_TRIALS
    assert 0.3 * RECONCILE_TRIALS < resumed < 0.7 * RECONCILE_TRIALS  # both cases, many times each


ENV_REQUEST = REQUEST | {"name": "nightly build", "env_vars": {"DB_PASSWORD": SECRET_VALUE}}


async def test_a_creation_with_env_vars_in_flight_sends_nothing_and_is_found_by_name_once_it_lands(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """Issue 9: with env_vars the API allows no id; inside API_CREATION_SECONDS a name not found yet answers
    CREATION_IN_FLIGHT (when it was sent, the name to look for, when asking again is safe) and sends nothing."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as h:
        sent_at = h.clock.now()
        await lose_the_answer(h, ENV_REQUEST)
        during = await h.call("cursor_create_agent", ENV_REQUEST)
        h.clock.advance(CREATE_SECONDS)
        after = await h.call("cursor_create_agent", ENV_REQUEST)
        posts = len(h.requests("POST"))
    assert during.code == "CREATION_IN_FLIGHT" and during.data["name"] == "nightly build"
    assert during.data["sent_at"] == iso(sent_at)
    assert during.data["retry_after_seconds"] == API_CREATION_SECONDS
    assert after.data["resumed"] is True and after.data["name"] == "nightly build"
    assert posts == 1 and len(world.agents) == 1


async def test_a_creation_with_env_vars_not_found_after_the_creation_window_is_sent_again(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """Issue 9: after API_CREATION_SECONDS, a name still not found means the earlier POST created nothing."""
    world = World(ManualClock())
    async with harness_factory(world, faults=slow_answers(Fault.slow(float("inf"))), state_dir=tmp_path) as h:
        await lose_the_answer(h, ENV_REQUEST, applied=False)
        inside = await h.call("cursor_create_agent", ENV_REQUEST)
        h.clock.advance(API_CREATION_SECONDS)
        after = await h.call("cursor_create_agent", ENV_REQUEST)
        posts = len(h.requests("POST"))
    assert inside.code == "CREATION_IN_FLIGHT"
    assert not after.is_error and "resumed" not in after.data
    assert posts == 2 and len(world.agents) == 1


async def test_a_settled_creation_is_not_resumed_and_may_be_asked_again(harness_factory: OpenHarness) -> None:
    """A creation whose answer arrived is done: an identical one later is a new, deliberate agent."""
    async with harness_factory() as h:
        first = await h.call("cursor_create_agent", REQUEST)
        second = await h.call("cursor_create_agent", REQUEST)
    assert first.data["agent_id"] != second.data["agent_id"]
    assert "resumed" not in second.data


async def test_the_journal_holds_no_prompt_nor_secret_and_only_its_owner_can_read_it(tmp_path: Path) -> None:
    """docs/reliability.md §2.5: files the server writes carry no secret; the store of paid acts is private (0600)."""
    body = {"prompt": {"text": "deploy with hunter2"}, "envVars": {"DB_PASSWORD": SECRET_VALUE}, "agentId": "bc-x"}
    await Store(tmp_path).write(sent(1000.0, fingerprint(body), "bc-x", "deploy"), now=1000.0)
    path = tmp_path / FILE_NAME
    text = path.read_text()
    assert SECRET_VALUE not in text and "hunter2" not in text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_fingerprint_ignores_the_minted_id_and_env_var_values_but_not_the_prompt() -> None:
    """Two attempts of one creation differ only by their minted ids; a secret's value never enters the digest."""
    body = {"prompt": {"text": "a"}, "envVars": {"K": "v1"}, "agentId": "bc-1"}
    assert fingerprint(body) == fingerprint(body | {"agentId": "bc-2", "envVars": {"K": "v2"}})
    assert fingerprint(body) != fingerprint(body | {"prompt": {"text": "b"}})


async def test_a_torn_last_line_counts_as_a_creation_made_now_and_old_entries_are_dropped(tmp_path: Path) -> None:
    """F-40: after a crash mid-write, the lines before still count and the torn one counts as a creation made
    when it was found (never skipped: the limits fail closed); the rewrite that repairs the file drops what
    no rule reads any more, so the file never grows without bound."""
    late = KEPT_SECONDS["create"] + 10
    store = Store(tmp_path)
    await store.write(sent(0.0, "old", "bc-o"), sent(late, "new", "bc-n"), now=late)
    with (tmp_path / FILE_NAME).open("a") as handle:
        handle.write('{"at": 1, "finger')
    reading = await Store(tmp_path).read(late + 10)
    assert unsettled(reading, "create", "new", late + 10) is not None
    assert unsettled(reading, "create", "old", late + 10) is None
    assert use_of(reading, late + 10)[0] == 2
    text = (tmp_path / FILE_NAME).read_text()
    assert '"finger' not in text.replace('"fingerprint"', "") and "bc-o" not in text


async def test_an_ambiguous_match_by_name_is_unknown_never_a_guess(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-09: two agents carry the lost creation's name (created around its time): the answer is
    MUTATION_OUTCOME_UNKNOWN naming the name, and nothing is sent."""
    world = slow_world()
    async with harness_factory(world, state_dir=tmp_path) as h:
        await lose_the_answer(h, ENV_REQUEST)
        world.add_agent(name="nightly build")
        h.clock.advance(CREATE_SECONDS)
        again = await h.call("cursor_create_agent", ENV_REQUEST)
        posts = len(h.requests("POST"))
    assert again.code == "MUTATION_OUTCOME_UNKNOWN" and again.data["name"] == "nightly build"
    assert posts == 1


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe not utf-8 \x80\n",
        b'{"id": "a", "kind": "create", "at": "yesterday", "state": "sent", "fingerprint": "f"}\n',
    ],
    ids=["invalid-utf8", "mistyped-field"],
)
async def test_a_corrupt_journal_does_not_stop_the_server_and_its_lines_count(tmp_path: Path, content: bytes) -> None:
    """Issue 13 and F-40: a store line with invalid UTF-8 or a mistyped field crashed start-up once; now it is
    read as a creation made now (counted, never resumed)."""
    (tmp_path / FILE_NAME).write_bytes(content)
    reading = await Store(tmp_path).read(1000.0)
    assert unsettled(reading, "create", "f", 1000.0) is None
    assert use_of(reading, 1000.0)[0] == 1


async def test_a_state_directory_that_refuses_the_compaction_keeps_the_store_usable(tmp_path: Path) -> None:
    """Issue 13: a rewrite that cannot be made leaves the old file whole, and the store goes on appending.
    (The refusal is made by a read-only folder for the file written aside: it holds even for root.)"""
    store = Store(tmp_path)
    await store.write(sent(WINDOW_SECONDS + 10, "new", "bc-n"), now=WINDOW_SECONDS + 10)
    with (tmp_path / FILE_NAME).open("a") as handle:
        handle.write("garbage that forces a rewrite\n")
    (tmp_path / f".{FILE_NAME}.{os.getpid()}.{threading.get_ident()}.tmp").mkdir()
    store = Store(tmp_path)
    await store.write(sent(WINDOW_SECONDS + 20, "more", "bc-m"), now=WINDOW_SECONDS + 20)
    reading = await store.read(WINDOW_SECONDS + 20)
    assert unsettled(reading, "create", "new", WINDOW_SECONDS + 20) is not None
    assert unsettled(reading, "create", "more", WINDOW_SECONDS + 20) is not None


async def test_a_state_directory_that_is_a_file_refuses_paid_acts(tmp_path: Path) -> None:
    """F-41: whatever the state directory is, the server starts; a store it cannot use refuses the paid act
    (StoreUnusable, answered CONFIGURATION) instead of counting in memory behind the user's back."""
    blocked = tmp_path / "state"
    blocked.write_text("not a directory")
    with pytest.raises(StoreUnusable, match="cannot be opened"):
        await Store(blocked).write(sent(1.0, "f", "bc-x"), now=2.0)


def test_images_count_in_the_fingerprint_by_their_digest() -> None:
    """Issue 12: the same prompt with another image is another creation; the same image is the same one."""

    def body(data: str) -> dict[str, object]:
        return {"prompt": {"text": "Fix it", "images": [{"data": data, "mimeType": "image/png"}]}}

    assert fingerprint(body("aaaa")) == fingerprint(body("aaaa"))
    assert fingerprint(body("aaaa")) != fingerprint(body("bbbb"))
