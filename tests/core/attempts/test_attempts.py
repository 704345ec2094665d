"""Several attempts at one task (issue 31): one paid act for the set, all or none, each attempt paid once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cursor_cloud_agents.core import find_group
from cursor_cloud_agents.core.spend.ledger import use_of
from cursor_cloud_agents.core.store import Store
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from tests.server.protocol.test_asking import Person, asking
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

MODELS = ["composer-2", "gpt-5.2", "claude-4.6-opus"]
TASK: dict[str, Any] = {
    "prompt": "Make the parser twice as fast",
    "repository": "https://github.com/acme/app",
    "starting_ref": "main",
    "name": "parser speed",
    "attempts": [{"model_id": model} for model in MODELS],
}


def creations(h: Harness) -> list[Any]:
    return [record.json() for record in h.requests("POST") if record.path == "/v1/agents"]


async def test_three_models_in_one_call_make_exactly_three_agents_with_those_models(harness: Harness) -> None:
    """Issue 31 acceptance: three attempts, three creations, each with the model asked, one group id."""
    reply = await harness.call("cursor_create_agent", TASK)
    sent = creations(harness)
    assert not reply.is_error, reply.data
    assert [body["model"]["id"] for body in sent] == MODELS or sorted(b["model"]["id"] for b in sent) == sorted(MODELS)
    assert len(sent) == 3 and len({body["agentId"] for body in sent}) == 3
    assert {body["prompt"]["text"] for body in sent} == {TASK["prompt"]}
    rows = reply.data["attempts"]
    assert reply.data["group_id"].startswith("grp-") and [row["model"] for row in rows] == MODELS
    assert {row["agent_id"] for row in rows} == {body["agentId"] for body in sent}
    assert len(harness.world.agents) == 3


async def test_two_attempts_with_one_model_are_two_agents(harness: Harness) -> None:
    """Best of N on one model: each attempt is its own act (its own fingerprint), never a re-send of another."""
    reply = await harness.call("cursor_create_agent", TASK | {"attempts": [{"model_id": "gpt-5.2"}] * 2})
    assert not reply.is_error and len(harness.world.agents) == 2


async def test_a_creation_limit_with_fewer_places_than_attempts_refuses_the_whole_set(
    harness_factory: OpenHarness,
) -> None:
    """F-57 (issue 31 acceptance): CURSOR_MCP_MAX_NEW_AGENTS=2 and three attempts: LIMIT_REACHED, no POST."""
    async with harness_factory(max_new_agents=2) as h:
        reply = await h.call("cursor_create_agent", TASK)
        posts = len(h.requests("POST"))
        agents = len(h.world.agents)
    assert reply.code == "LIMIT_REACHED" and posts == 0 and agents == 0
    assert reply.data["asked"] == 3 and "whole or not at all" in reply.data["message"]


async def test_a_slot_limit_with_fewer_places_than_attempts_refuses_the_whole_set(harness_factory: OpenHarness) -> None:
    """F-57: CURSOR_MCP_MAX_ACTIVE_AGENTS=2 and three attempts: CAPACITY, nothing sent."""
    async with harness_factory(max_active_agents=2) as h:
        reply = await h.call("cursor_create_agent", TASK)
        posts = len(h.requests("POST"))
    assert reply.code == "CAPACITY" and posts == 0 and "3 more were asked for at once" in reply.data["message"]


async def test_one_unknown_model_refuses_the_set_before_any_post(harness: Harness) -> None:
    """F-58: every model is checked first; the refusal names the attempt to change."""
    task = TASK | {"attempts": [{"model_id": "gpt-5.2"}, {"model_id": "no-such-model"}]}
    reply = await harness.call("cursor_create_agent", task)
    assert reply.code == "VALIDATION" and "attempts[2]" in reply.data["message"]
    assert harness.requests("POST") == []


async def test_attempts_refuse_a_model_id_agent_id_or_variables_beside_them(harness: Harness) -> None:
    for extra in ({"model_id": "gpt-5.2"}, {"env_vars": {"TOKEN": "x"}}):
        reply = await harness.call("cursor_create_agent", TASK | extra)
        assert reply.code == "VALIDATION", extra
    assert harness.requests("POST") == []


async def test_an_attempt_whose_answer_was_cut_is_settled_on_asking_again_without_a_second_agent(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """F-59: the second POST of the set is cut after Cursor took it; the set answers MUTATION_OUTCOME_UNKNOWN
    with the group and every id; asked again, the lost attempt is re-sent with its id (Cursor makes no second
    agent), the others are answered as made, and the creation count holds three."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault())  # the first POST goes through untouched
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    world = World(ManualClock())
    async with harness_factory(world, faults=faults, state_dir=tmp_path) as h:
        lost = await h.call("cursor_create_agent", TASK)
        again = await h.call("cursor_create_agent", TASK)
        posts = len(creations(h))
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN", lost.data
    outcomes = {row["outcome"] for row in lost.data["attempts"]}
    assert outcomes == {"made", "unknown"} and lost.data["group_id"] == again.data["group_id"]
    assert not again.is_error, again.data
    assert len(world.agents) == 3 and posts == 4  # three, and one re-send of the lost id
    unknown = next(row for row in lost.data["attempts"] if row["outcome"] == "unknown")
    resent = next(row for row in again.data["attempts"] if row["attempt"] == unknown["attempt"])
    assert resent["agent_id"] == unknown["agent_id"] and resent["resumed"] is True
    group = await find_group(Store(tmp_path), again.data["group_id"], world.clock.now())
    assert [attempt.state for attempt in group.attempts] == ["done"] * 3


async def test_an_attempt_cursor_refused_gives_its_place_back_and_asking_again_creates_only_that_one(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """A 400 on one POST of the set: the others are made, the refused one's place is given back; the same set
    asked again creates that attempt alone, with a new id, in the same group."""
    faults = Faults()
    faults.inject("POST", "/v1/agents", Fault())
    faults.inject("POST", "/v1/agents", Fault.error(400, "bad_request", "Simulated refusal"))
    world = World(ManualClock())
    async with harness_factory(world, faults=faults, state_dir=tmp_path) as h:
        refused = await h.call("cursor_create_agent", TASK)
        completed = await h.call("cursor_create_agent", TASK)
        posts = len(creations(h))
    assert refused.is_error and {row["outcome"] for row in refused.data["attempts"]} == {"made", "refused"}
    assert not completed.is_error and completed.data["group_id"] == refused.data["group_id"]
    assert len(world.agents) == 3 and posts == 4
    group = await find_group(Store(tmp_path), completed.data["group_id"], world.clock.now())
    assert len({attempt.agent_id for attempt in group.attempts}) == 3
    used, _ = use_of(await Store(tmp_path).read(world.clock.now()), world.clock.now())
    assert used == 3  # the refused one gave its place back


async def test_the_group_is_read_back_by_another_process(harness_factory: OpenHarness, tmp_path: Path) -> None:
    """F-60: the group (name, prompt digest, attempts with their agents and models, when) is in the store on
    disk: a new reader of the state directory finds it."""
    world = World(ManualClock())
    async with harness_factory(world, state_dir=tmp_path) as h:
        reply = await h.call("cursor_create_agent", TASK)
    group = await find_group(Store(tmp_path), reply.data["group_id"], world.clock.now())
    assert group.name == "parser speed" and len(group.prompt_digest) == 16
    assert [attempt.model for attempt in group.attempts] == MODELS
    assert [attempt.agent_id for attempt in group.attempts] == [row["agent_id"] for row in reply.data["attempts"]]
    assert all(attempt.run_id for attempt in group.attempts) and group.at == world.clock.now()
    assert TASK["prompt"] not in (tmp_path / "acts.jsonl").read_text()


async def test_asking_puts_one_question_naming_the_count_and_the_models(harness_factory: OpenHarness) -> None:
    """F-61: where the user asks to be asked, the set is one question; declined, nothing is sent."""
    person = Person("decline")
    async with harness_factory(**asking(person, "auto", ask=frozenset({"create"}))) as h:
        reply = await h.call("cursor_create_agent", TASK)
        posts = len(h.requests("POST"))
    assert reply.code == "DECLINED" and posts == 0 and len(person.asked) == 1
    assert "Start 3 paid Cursor Cloud Agents" in person.asked[0]
    assert all(model in person.asked[0] for model in MODELS)
