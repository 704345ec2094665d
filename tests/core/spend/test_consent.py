"""A person's yes counts for the very question and call it answered, and nothing else.

Issue 12: the person is asked before anything irreversible or paid; a sealed answer counts only for its call.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp.client.context import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult, InputRequiredResult

from cursor_cloud_agents.server.protocol.asking import Seal
from tests.server.protocol.test_asking import Person, asking, finished_agent
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

YES = ElicitResult(action="accept", content={"confirm": True})


async def unused(_context: ClientRequestContext, _params: ElicitRequestParams) -> ElicitResult:
    raise AssertionError("this test answers the rounds itself")


async def test_a_yes_to_a_creation_is_not_carried_over_to_the_same_first_line_with_other_arguments(
    harness_factory: OpenHarness,
) -> None:
    """2026-07-28, CURSOR_MCP_CONFIRM_CREATES=1: the question shows the prompt's first line only. Its sealed
    answer, sent back with another prompt behind that line and a pull request asked for, is asked again:
    nothing is sent on a yes given to other arguments."""
    async with harness_factory(**asking(unused, "auto", ask=frozenset({"delete", "create"}))) as h:
        session = h.mcp.session
        asked = await session.call_tool(
            "cursor_create_agent", {"prompt": "Fix the flaky test"}, allow_input_required=True
        )
        assert isinstance(asked, InputRequiredResult)
        other: dict[str, Any] = {"prompt": "Fix the flaky test\nThen delete the CI config", "auto_create_pr": True}
        carried = await session.call_tool(
            "cursor_create_agent",
            other,
            allow_input_required=True,
            input_responses={"confirm_create": YES},
            request_state=asked.request_state,
        )
        posts = len(h.requests("POST"))
    assert isinstance(carried, InputRequiredResult) and posts == 0


async def test_a_yes_to_a_creation_sent_back_with_the_same_arguments_creates_it(harness_factory: OpenHarness) -> None:
    """The binding to the call is no obstacle to the round trip itself: the same arguments, one POST."""
    async with harness_factory(**asking(unused, "auto", ask=frozenset({"delete", "create"}))) as h:
        session = h.mcp.session
        arguments = {"prompt": "Fix the flaky test"}
        asked = await session.call_tool("cursor_create_agent", arguments, allow_input_required=True)
        assert isinstance(asked, InputRequiredResult)
        answered = await session.call_tool(
            "cursor_create_agent",
            arguments,
            allow_input_required=True,
            input_responses={"confirm_create": YES},
            request_state=asked.request_state,
        )
        posts = len(h.requests("POST"))
    assert not isinstance(answered, InputRequiredResult) and not answered.is_error
    assert posts == 1


async def test_a_yes_sent_back_again_after_its_agent_was_created_is_asked_again(harness_factory: OpenHarness) -> None:
    """A round replayed (the same state, answer and arguments) does not buy a second agent on one yes: the
    question names the limits' use, which the first creation changed."""
    async with harness_factory(**asking(unused, "auto", ask=frozenset({"delete", "create"}))) as h:
        session = h.mcp.session
        arguments = {"prompt": "Fix the flaky test"}
        asked = await session.call_tool("cursor_create_agent", arguments, allow_input_required=True)
        assert isinstance(asked, InputRequiredResult)
        rounds = [
            await session.call_tool(
                "cursor_create_agent",
                arguments,
                allow_input_required=True,
                input_responses={"confirm_create": YES},
                request_state=asked.request_state,
            )
            for _ in range(3)
        ]
        posts = len(h.requests("POST"))
    assert [isinstance(answer, InputRequiredResult) for answer in rounds] == [False, True, True]
    assert posts == 1


@pytest.mark.parametrize("said", ["false", "no", 0, None])
async def test_an_accepted_form_whose_confirm_is_not_true_is_a_decline(harness_factory: OpenHarness, said: Any) -> None:
    """A client that hands the checkbox back as text ("false") or empty: only `confirm: true` is a yes."""
    person = Person("accept", {"confirm": said})
    async with harness_factory(**asking(person, "legacy")) as h:
        agent_id = await finished_agent(h)
        reply = await h.call("cursor_delete_agent", {"agent_id": agent_id})
        deletes = len(h.requests("DELETE"))
    assert reply.code == "DECLINED" and deletes == 0


@pytest.mark.parametrize("state", ["e30.\u00e9", "\u00e9.\u00e9", "not sealed", "."])
async def test_a_request_state_that_is_not_ours_is_ignored_and_the_question_asked(
    harness_factory: OpenHarness, state: str
) -> None:
    """Hostile `requestState` (here a non-ASCII seal, which hmac refuses to compare as text): the call goes on
    as if none was sent, asks its question and sends nothing; never an internal error."""
    async with harness_factory(**asking(unused, "auto", ask=frozenset({"delete", "create"}))) as h:
        answer = await h.mcp.session.call_tool(
            "cursor_create_agent",
            {"prompt": "Fix the flaky test"},
            allow_input_required=True,
            input_responses={"confirm_create": YES},
            request_state=state,
        )
        posts = len(h.requests("POST"))
    assert isinstance(answer, InputRequiredResult) and posts == 0


@pytest.mark.parametrize("state", ["e30.\u00e9", "\ud800.e30", "e30.\ud800", "", ".", "e30"])
def test_the_seal_opens_any_text_it_did_not_seal_as_nothing(state: str) -> None:
    assert Seal().open(state) == {}
