"""One request builder for every face (issue 45; docs/reliability.md §2.29, N-05 to N-08): the tool, the
terminal's `run` and the SDK refuse the same prompts with the same words and send nothing; every request for a
paid run is built in `core/request/builder.py`; the name's limit is one constant; a creation put to the person
is serialised once by the core."""

from __future__ import annotations

import ast
from functools import partial
from pathlib import Path
from typing import get_type_hints

import pytest

from cursor_cloud_agents.api import CreateAgentRequest
from cursor_cloud_agents.core import ToolFailure
from cursor_cloud_agents.core.attempts.attempts import GROUP_NAME_CHARS, MAX_ATTEMPTS
from cursor_cloud_agents.core.request import texts
from cursor_cloud_agents.sdk import AsyncAgent
from cursor_cloud_agents.server.tools.agents import cursor_create_agent
from cursor_cloud_agents.terminal import paid
from cursor_cloud_agents.terminal.dispatch import execute
from cursor_cloud_agents.terminal.exits import USAGE
from tests.sdk.rig import sdk_rig
from tests.server.protocol.test_asking import ERAS, Person
from tests.terminal.conftest import open_rig
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio

SRC = Path(__file__).resolve().parents[3] / "src" / "cursor_cloud_agents"
BUILDER = SRC / "core" / "request" / "builder.py"
PROMPTS = {
    "control": "Fix the login test\x1b[2J and wipe the screen",
    "over the cap": "x" * (texts.PROMPT_MAX_BYTES + 1),
}


def rule_of(prompt: str) -> str:
    """The words of `core.texts` for this prompt: what every face must say."""
    with pytest.raises(ValueError, match=".") as broken:
        texts.prompt(prompt)
    return str(broken.value)


def flat(text: str) -> str:
    return " ".join(text.split())  # a console wraps long lines


@pytest.mark.parametrize("kind", list(PROMPTS))
async def test_the_tool_run_and_the_sdk_refuse_a_bad_prompt_with_the_same_words_and_send_nothing_n_05(
    kind: str, tmp_path: Path
) -> None:
    """N-05: a prompt with a control character, and one over the cap: the MCP tool, the terminal's `run` (past its
    argument parser, through the builder) and the SDK each refuse it with the rule's own words, and the loopback
    stand-in of the API receives no request at all."""
    prompt = PROMPTS[kind]
    rule = rule_of(prompt)
    async with open_harness() as harness:
        reply = await harness.call("cursor_create_agent", {"prompt": prompt})
        tool_sent = harness.requests()
    async with open_rig() as rig:
        order = paid.Order(prompt, None, None, None, (), confirmed=True)
        code = await execute(rig.term, partial(paid.run, order=order, then=None))
        run_sent = rig.requests()
        run_said = rig.errors()
    async with sdk_rig(state_dir=tmp_path) as sdk:
        agent = await AsyncAgent.create(client=sdk.cursor)
        with pytest.raises(ToolFailure) as refused:
            await agent.send(prompt)
        sdk_sent = sdk.sim.faults.count("POST", "/v1/agents") + sdk.sim.faults.count("GET", "/v1/agents")
    assert reply.code == "VALIDATION" and rule in reply.data["message"]
    assert code == USAGE and rule in flat(run_said)
    assert refused.value.code == "VALIDATION" and rule in refused.value.message
    assert tool_sent == [] and run_sent == [] and sdk_sent == 0


def _constructions(source: str, where: str) -> list[str]:
    """Where `source` constructs a request for a paid run itself."""
    return [
        f"{where}:{node.lineno}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("CreateAgentRequest", "CreateRunRequest")
    ]


def test_every_request_for_a_paid_run_is_built_by_the_one_builder_n_06() -> None:
    """N-06: outside the API client and the simulator, `CreateAgentRequest(...)` and `CreateRunRequest(...)` are
    constructed only in `core/request/builder.py`; a construction planted in a face is caught."""
    found = [
        place
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).parts[0] not in ("api", "simulator") and path != BUILDER
        for place in _constructions(path.read_text(encoding="utf-8"), str(path.relative_to(SRC)))
    ]
    assert found == []
    assert len(_constructions(BUILDER.read_text(encoding="utf-8"), "builder")) == 2
    planted = "request = CreateRunRequest(prompt=Prompt(text=prompt))\n"
    assert _constructions(planted, "terminal/paid.py") == ["terminal/paid.py:1"]


def test_the_name_limit_is_one_constant_n_07() -> None:
    """N-07: the tool's schema, the builder's check and a group's attempt names all follow `texts.NAME_MAX_CHARS`."""
    from cursor_cloud_agents.core import AgentAsked, agent_request, prompt_of

    hints = get_type_hints(cursor_create_agent, include_extras=True)
    assert f"max_length={texts.NAME_MAX_CHARS}" in repr(hints["name"])
    assert GROUP_NAME_CHARS + len(f" ({MAX_ATTEMPTS}/{MAX_ATTEMPTS})") == texts.NAME_MAX_CHARS
    agent_request(prompt_of("Fix it"), agent_id=None, name="n" * texts.NAME_MAX_CHARS)
    with pytest.raises(ToolFailure, match=f"over {texts.NAME_MAX_CHARS} characters"):
        agent_request(prompt_of("Fix it"), agent_id=None, name="n" * (texts.NAME_MAX_CHARS + 1))
    assert AgentAsked("Fix it").name is None


async def test_a_creation_put_to_the_person_is_serialised_once_by_the_core_n_08(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """N-08: the tool asks the person (CURSOR_MCP_ASK lists `create`, the client can ask) and the agent is created:
    the core turned the request into its wire form once (before: three times, the check before asking, the
    creation, the body); the API client's body is the other."""
    calls: list[int] = []
    wire = CreateAgentRequest.wire

    def counted(self: CreateAgentRequest) -> dict[str, object]:
        calls.append(1)
        return wire(self)

    monkeypatch.setattr(CreateAgentRequest, "wire", counted)
    person = Person("accept")
    options = {"mode": ERAS[0], "elicitation_callback": person}
    async with open_harness(ask=frozenset({"create"}), client_options=options) as harness:
        reply = await harness.call("cursor_create_agent", {"prompt": "Fix the login test"})
    assert not reply.is_error, reply.data
    assert len(person.asked) == 1 and len(calls) == 2
