"""Issue 12, asking the person (MCP elicitation) before a delete, a replacing cancel or (when set) a creation.

Both handshakes Claude Code uses: `initialize` at 2025-11-25 (the question is an `elicitation/create`
request during the call) and `server/discover` at 2026-07-28 (the call answers `input_required` and the
client calls again with the answer). Nothing is sent unless the person accepts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client.context import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult, ListRootsResult, Root

from cursor_cloud_agents.server.pipeline import toolcall
from cursor_cloud_agents.server.protocol.asking import Consent, InputNeeded, Question, RoundTripPeer, Seal
from cursor_cloud_agents.simulator import Fault, Faults, ManualClock, World
from cursor_cloud_agents.simulator.images import png
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

ERAS = ["legacy", "auto"]  # auto negotiates 2026-07-28 with this server: the multi-round-trip path
Elicit = Callable[[ClientRequestContext, ElicitRequestParams], Awaitable[ElicitResult]]


class Person:
    """An elicitation callback that answers `action` (and remembers what it was asked)."""

    def __init__(self, action: str, content: dict[str, Any] | None = None) -> None:
        self.action = action
        self.content = content
        self.asked: list[str] = []

    async def __call__(self, _context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.asked.append(params.message)
        content = self.content if self.action != "accept" or self.content is not None else {"confirm": True}
        return ElicitResult(action=self.action, content=content)  # pyright: ignore[reportArgumentType]


def sent(h: Harness, method: str) -> int:
    return len(h.requests(method))


async def finished_agent(h: Harness) -> str:
    created = await h.call("cursor_create_agent", {"prompt": "Refactor the parser", "name": "parser refactor"})
    h.clock.advance(40)
    return created.data["agent_id"]


def asking(person: Elicit, mode: str, **settings: Any) -> dict[str, Any]:
    return {"client_options": {"mode": mode, "elicitation_callback": person}, "allow_delete": True} | settings


@pytest.mark.parametrize("mode", ERAS)
async def test_a_delete_accepted_by_the_person_is_sent_without_confirm_agent_id(
    harness_factory: OpenHarness, mode: str
) -> None:
    """The question names the agent (name, id, status, age, pull request); accepted, the delete is sent."""
    person = Person("accept")
    async with harness_factory(**asking(person, mode)) as h:
        agent_id = await finished_agent(h)
        reply = await h.call("cursor_delete_agent", {"agent_id": agent_id})
        deletes = sent(h, "DELETE")
    assert not reply.is_error, reply.data
    assert deletes == 1
    assert len(person.asked) == 1
    assert "parser refactor" in person.asked[0] and agent_id in person.asked[0]
    assert "pull request" in person.asked[0] and "created 0 h ago" in person.asked[0]


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(("action", "consent"), [("decline", "declined"), ("cancel", "cancelled")])
async def test_a_delete_declined_or_dismissed_answers_declined_and_sends_nothing(
    harness_factory: OpenHarness, mode: str, action: str, consent: str
) -> None:
    person = Person(action)
    async with harness_factory(**asking(person, mode)) as h:
        agent_id = await finished_agent(h)
        reply = await h.call("cursor_delete_agent", {"agent_id": agent_id, "confirm_agent_id": agent_id})
        deletes = sent(h, "DELETE")
    assert reply.code == "DECLINED" and reply.data["consent"] == consent
    assert deletes == 0


async def test_an_accepted_form_that_says_no_is_a_decline(harness_factory: OpenHarness) -> None:
    person = Person("accept", {"confirm": False})
    async with harness_factory(**asking(person, "legacy")) as h:
        agent_id = await finished_agent(h)
        reply = await h.call("cursor_delete_agent", {"agent_id": agent_id})
        deletes = sent(h, "DELETE")
    assert reply.code == "DECLINED" and deletes == 0


async def test_a_question_never_answered_times_out_inside_the_calls_deadline_as_declined(
    harness_factory: OpenHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that declares elicitation but never answers: DECLINED with the reason, before the deadline."""
    monkeypatch.setattr(toolcall, "ASK_RESERVE", 9.7)  # a 10 s call leaves the question 0.3 s

    async def silent(_context: ClientRequestContext, _params: ElicitRequestParams) -> ElicitResult:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    async with harness_factory(**asking(silent, "legacy", max_call_seconds=10)) as h:
        agent_id = await finished_agent(h)
        with anyio.fail_after(5):
            reply = await h.call("cursor_delete_agent", {"agent_id": agent_id})
        deletes = sent(h, "DELETE")
    assert reply.code == "DECLINED" and reply.data["consent"] == "unanswered"
    assert "did not answer" in reply.data["message"]
    assert deletes == 0


async def test_without_elicitation_the_confirm_agent_id_rule_stays(harness_factory: OpenHarness) -> None:
    async with harness_factory(allow_delete=True) as h:
        agent_id = await finished_agent(h)
        missing = await h.call("cursor_delete_agent", {"agent_id": agent_id})
        confirmed = await h.call("cursor_delete_agent", {"agent_id": agent_id, "confirm_agent_id": agent_id})
    assert missing.code == "CONFIRMATION_REQUIRED"
    assert not confirmed.is_error


async def test_the_switches_apply_before_any_question(harness_factory: OpenHarness) -> None:
    person = Person("accept")
    async with harness_factory(**asking(person, "legacy", allow_delete=False)) as h:
        agent_id = await finished_agent(h)
        reply = await h.call("cursor_delete_agent", {"agent_id": agent_id})
    assert reply.code == "DELETE_DISABLED" and person.asked == []


@pytest.mark.parametrize("mode", ERAS)
async def test_replace_active_asks_before_cancelling_a_running_run(harness_factory: OpenHarness, mode: str) -> None:
    """With `replace` in CURSOR_MCP_ASK; declined: the running run is not cancelled and no follow-up is sent."""
    person = Person("decline")
    async with harness_factory(**asking(person, mode, ask=frozenset({"replace"}))) as h:
        created = await h.call("cursor_create_agent", {"prompt": "Long task [sim:seconds=600]"})
        h.clock.advance(5)
        reply = await h.call(
            "cursor_create_run",
            {"agent_id": created.data["agent_id"], "prompt": "Do this instead", "replace_active": True},
        )
        cancels = [r for r in h.requests("POST") if r.path.endswith("/cancel")]
        runs = [r for r in h.requests("POST") if r.path.endswith("/runs")]
    assert reply.code == "DECLINED"
    assert "running run" in person.asked[0] and cancels == [] and runs == []


@pytest.mark.parametrize("mode", ERAS)
async def test_with_confirm_creates_each_paid_creation_asks_first(harness_factory: OpenHarness, mode: str) -> None:
    """CURSOR_MCP_CONFIRM_CREATES=1: the question shows the prompt's first line, the repositories, the model
    and the limits' use; declined, no POST leaves."""
    person = Person("decline")
    async with harness_factory(**asking(person, mode, ask=frozenset({"delete", "create"}))) as h:
        reply = await h.call(
            "cursor_create_agent",
            {"prompt": "Fix the flaky test\nDetails follow", "repository": "https://github.com/acme/app"},
        )
        posts = sent(h, "POST")
    assert reply.code == "DECLINED" and posts == 0
    question = person.asked[0]
    assert "Fix the flaky test" in question and "Details follow" not in question
    assert "github.com/acme/app" in question and "0 of 25 new agents in 24 h" in question


async def test_with_confirm_creates_an_accepted_creation_is_sent_once(harness_factory: OpenHarness) -> None:
    person = Person("accept")
    async with harness_factory(**asking(person, "auto", ask=frozenset({"delete", "create"}))) as h:
        reply = await h.call("cursor_create_agent", {"prompt": "Fix the flaky test"})
        posts = sent(h, "POST")
    assert not reply.is_error and posts == 1


async def test_with_confirm_creates_a_client_that_cannot_ask_is_refused(harness_factory: OpenHarness) -> None:
    async with harness_factory(ask=frozenset({"delete", "create"})) as h:
        reply = await h.call("cursor_create_agent", {"prompt": "Fix the flaky test"})
        posts = sent(h, "POST")
    assert reply.code == "DECLINED" and "CURSOR_MCP_CONFIRM_CREATES" in reply.data["message"] and posts == 0


class Capabilities:
    elicitation = type("Elicitation", (), {"form": {}, "url": None})()
    roots = None


async def test_an_answer_to_a_question_never_asked_does_not_count() -> None:
    """A 2026-07-28 retry's answers count only for questions sealed in requestState by this server: an
    answer sent with no state, a forged state or another question's state is asked again."""
    seal = Seal()
    question = Question("confirm_delete", "Delete agent X?")
    accept = ElicitResult(action="accept", content={"confirm": True})
    capabilities: Any = Capabilities()

    async def consent(responses: dict[str, Any] | None, state: str | None, asked: Question = question) -> Any:
        peer = RoundTripPeer(capabilities, responses, state, seal)
        try:
            return (await peer.ask(asked, 1.0)).consent
        except InputNeeded as needed:
            return needed.result.request_state

    state = await consent(None, None)
    assert isinstance(state, str)
    assert await consent({"confirm_delete": accept}, state) is Consent.ACCEPTED
    assert isinstance(await consent({"confirm_delete": accept}, None), str)  # no state: asked again
    assert isinstance(await consent({"confirm_delete": accept}, state[:-2] + "00"), str)  # altered
    other = Question("confirm_delete", "Delete agent Y?")
    assert isinstance(await consent({"confirm_delete": accept}, state, other), str)  # another question


async def test_a_sealed_state_opens_once_so_a_replayed_yes_is_asked_again() -> None:
    """Issue 12: a round answered once cannot be sent again to repeat the act its yes allowed (a second delete,
    a second paid creation), whatever the question's words."""
    seal = Seal()
    question = Question("confirm_delete", "Delete agent X?")
    accept = ElicitResult(action="accept", content={"confirm": True})
    capabilities: Any = Capabilities()

    async def consent(state: str | None) -> Any:
        try:
            return (
                await RoundTripPeer(capabilities, {"confirm_delete": accept}, state, seal).ask(question, 1.0)
            ).consent
        except InputNeeded as needed:
            return needed.result.request_state

    state = await consent(None)
    assert await consent(state) is Consent.ACCEPTED
    assert isinstance(await consent(state), str)  # the same state again: asked again


async def test_a_round_trip_client_answers_the_roots_then_the_confirmation_and_the_creation_is_sent_once(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """2026-07-28: an image needs the client's roots and CURSOR_MCP_CONFIRM_CREATES a yes: two rounds, each
    answer carried in the sealed state to the next, so neither is asked twice and one POST leaves."""
    (tmp_path / "ui.png").write_bytes(png(6, 4))
    person = Person("accept")
    roots_asked: list[str] = []

    async def list_roots(_context: Any) -> ListRootsResult:
        roots_asked.append("roots")
        return ListRootsResult(roots=[Root.model_validate({"uri": tmp_path.as_uri()})])

    options = asking(person, "auto", ask=frozenset({"delete", "create"}))
    options["client_options"]["list_roots_callback"] = list_roots
    async with harness_factory(**options) as h:
        reply = await h.call("cursor_create_agent", {"prompt": "Fix the layout", "images": [str(tmp_path / "ui.png")]})
        posts = sent(h, "POST")
    assert not reply.is_error, reply.data
    assert roots_asked == ["roots"] and len(person.asked) == 1 and posts == 1


@pytest.mark.parametrize("mode", ERAS)
@pytest.mark.parametrize(("action", "cancels"), [("accept", 1), ("decline", 0)])
async def test_cancelling_a_running_run_asks_the_person_first(
    harness_factory: OpenHarness, mode: str, action: str, cancels: int
) -> None:
    """A cancel cannot be undone (the run's work stops and cannot be resumed): with `cancel` in CURSOR_MCP_ASK,
    asked when the client can ask."""
    person = Person(action)
    async with harness_factory(**asking(person, mode, ask=frozenset({"cancel"}))) as h:
        created = await h.call("cursor_create_agent", {"prompt": "Long task [sim:seconds=600]", "name": "long job"})
        h.clock.advance(5)
        reply = await h.call(
            "cursor_cancel_run", {"agent_id": created.data["agent_id"], "run_id": created.data["run_id"]}
        )
        sent_cancels = [r for r in h.requests("POST") if r.path.endswith("/cancel")]
    assert len(person.asked) == 1 and "long job" in person.asked[0] and "RUNNING" in person.asked[0]
    assert len(sent_cancels) == cancels
    assert (reply.code == "DECLINED") is (action == "decline")


@pytest.mark.parametrize("limit", ["max_new_agents", "max_active_agents"])
async def test_with_confirm_creates_a_creation_over_a_limit_is_refused_before_the_person_is_asked(
    harness_factory: OpenHarness, limit: str
) -> None:
    """Issue 12: a yes would be wasted on LIMIT_REACHED or CAPACITY, so the limits speak first."""
    person = Person("accept")
    async with harness_factory(**asking(person, "auto", ask=frozenset({"delete", "create"}), **{limit: 1})) as h:
        first = await h.call("cursor_create_agent", {"prompt": "Fix the flaky test"})
        second = await h.call("cursor_create_agent", {"prompt": "Fix the other flaky test"})
        posts = sent(h, "POST")
    assert not first.is_error and second.code in ("LIMIT_REACHED", "CAPACITY")
    assert len(person.asked) == 1 and posts == 1


async def test_with_confirm_creates_a_lost_creation_asked_again_at_the_limit_is_asked_and_found(
    harness_factory: OpenHarness, tmp_path: Path
) -> None:
    """The limits spoken before asking hold before a new agent only: a creation whose answer was lost (its
    agent now takes the last slot) is asked again and found, not refused."""
    world, faults, person = World(ManualClock()), Faults(), Person("accept")
    faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    options = asking(person, "auto", ask=frozenset({"delete", "create"}), max_active_agents=1, state_dir=tmp_path)
    async with harness_factory(world, faults=faults, **options) as h:
        lost = await h.call("cursor_create_agent", {"prompt": "Task one"})
        again = await h.call("cursor_create_agent", {"prompt": "Task one"})
    assert lost.code == "MUTATION_OUTCOME_UNKNOWN"
    assert again.data.get("resumed") is True and again.data["agent_id"] == lost.data["agent_id"]
    assert len(person.asked) == 2 and len(world.agents) == 1
