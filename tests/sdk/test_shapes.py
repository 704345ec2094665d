"""Cursor's SDK's call shapes (`sdk/_shapes.py`, `sdk/_options.py`): options mappings, models, messages, refusals."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from cursor_cloud_agents.api import Prompt
from cursor_cloud_agents.core import texts
from cursor_cloud_agents.sdk import (
    Agent,
    AgentOptions,
    BadRequestError,
    CloudAgentOptions,
    CloudSendOptions,
    Cursor,
    LocalAgentOptions,
    LocalSendOptions,
    ModelParameterValue,
    ModelSelection,
    SendOptions,
    UserMessage,
)
from tests.sdk.conftest import ProgramEnvironment
from tests.sdk.mockapi import RESULT_TEXT, MockApi, mock_api

REPOSITORY = "https://github.com/acme/widgets"


def _bodies(api: MockApi) -> int:
    return api.count("POST *")


@pytest.fixture
def mocked(program_environment: ProgramEnvironment) -> Any:
    with mock_api() as api:
        program_environment(api.base_url)
        with Cursor(state_dir="memory") as cursor:
            yield api, cursor


def test_the_options_come_as_one_mapping_positional_or_as_keywords_k_41(mocked: tuple[MockApi, Cursor]) -> None:
    """K-41: `Agent.create(options)` takes the options as one mapping (snake_case or camelCase keys) or as
    `AgentOptions`, positionally; a keyword of the same call wins over the mapping's key."""
    _, cursor = mocked
    by_mapping = Agent.create(
        {"name": "From a mapping", "agentId": "bc-11111111-1111-4111-8111-111111111111"}, client=cursor
    )
    assert (by_mapping.aio.name, by_mapping.agent_id) == ("From a mapping", "bc-11111111-1111-4111-8111-111111111111")
    by_dataclass = Agent.create(AgentOptions(name="From a dataclass"), client=cursor)
    assert by_dataclass.aio.name == "From a dataclass"
    overridden = Agent.create({"name": "In the mapping"}, client=cursor, name="The keyword's")
    assert overridden.aio.name == "The keyword's"
    result = Agent.prompt("Do the work", {"name": "One shot"}, client=cursor)
    assert (result.status, result.result) == ("finished", RESULT_TEXT)


@dataclass(frozen=True)
class TheirModelSelection:
    """A model selection of another SDK's shape (Cursor's dataclass: `id`, `params` of `id`/`value`)."""

    id: str
    params: tuple[ModelParameterValue, ...] = ()


@pytest.mark.parametrize(
    "model",
    ["composer-2", {"id": "composer-2"}, ModelSelection(id="composer-2"), TheirModelSelection("composer-2")],
    ids=["id", "mapping", "ModelSelection", "their dataclass"],
)
def test_a_model_is_an_id_a_mapping_or_a_model_selection_k_42(mocked: tuple[MockApi, Cursor], model: Any) -> None:
    """K-42: `model` is taken as an id, `{"id": ...}` or a `ModelSelection` (ours or one shaped as Cursor's), checked
    against the published models."""
    _, cursor = mocked
    assert Agent.create({"model": model}, client=cursor).model == ModelSelection(id="composer-2")


@pytest.mark.parametrize(
    ("model", "says"),
    [
        ({"id": "no-such-model"}, "Unknown model 'no-such-model'"),
        ({"name": "composer-2"}, "unknown keys ['name']"),
        ({"id": "composer-2", "params": [{"id": "effort"}]}, "a model parameter is"),
        (42, "model is an id"),
    ],
)
def test_a_model_of_no_known_shape_or_name_is_refused_before_anything_is_sent_k_42(
    mocked: tuple[MockApi, Cursor], model: object, says: str
) -> None:
    api, cursor = mocked
    with pytest.raises(BadRequestError) as refused:
        Agent.create({"model": model}, client=cursor).send("Work")
    assert says in refused.value.message and "cursor_" not in refused.value.message
    assert _bodies(api) == 0


def test_a_message_is_a_string_a_text_mapping_or_a_user_message_k_49(mocked: tuple[MockApi, Cursor]) -> None:
    """K-49: `send({"text": ...})` and `send(UserMessage(...))` send the text (no "The message is empty"), and
    `send(message, options)` takes the model in the options."""
    api, cursor = mocked
    agent = Agent.create(client=cursor)
    assert agent.send({"text": "Fix the typos"}).wait().status == "finished"
    assert agent.send(UserMessage(text="Then the docs"), {"model": {"id": "gpt-5"}}).wait().status == "finished"
    assert agent.model == ModelSelection(id="gpt-5")  # kept for later sends, as Cursor's SDK keeps it
    assert agent.send("And the tests", SendOptions(idempotency_key="k-1")).wait().status == "finished"
    assert api.count("POST /v1/agents") == 1 and api.count("POST /v1/agents/*") == 2


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ({"text": "  "}, "the prompt is blank"),  # the rule's own words, the tool's and `run`'s too (N-05)
        ("x" * (texts.PROMPT_MAX_BYTES + 1), f"over {texts.PROMPT_MAX_BYTES} bytes"),
        ("Fix it\x1b[2J", "a control character (U+001B)"),
        ("Fix it \ud800", "a lone surrogate"),
        ({"text": "Look", "images": [{"url": "https://example.com/a.png"}]}, "images are not sent"),
        ({"prompt": "Fix it"}, "unknown keys ['prompt']"),
        (None, "the message is a string"),
    ],
    ids=["blank", "too long", "escape", "surrogate", "images", "unknown key", "none"],
)
def test_a_message_the_prompt_rules_refuse_is_refused_before_anything_is_sent_k_50(
    mocked: tuple[MockApi, Cursor], message: object, says: str
) -> None:
    """K-50: a prompt obeys the rules of every text sent upstream (`core.texts.prompt`: not blank, at most 256 KiB,
    no control character but newlines and tabs, no lone surrogate), refused whole before any request."""
    api, cursor = mocked
    with pytest.raises(BadRequestError) as refused:
        Agent.create(client=cursor).send(message)
    assert says in refused.value.message and refused.value.message.endswith("Nothing was sent.")
    with pytest.raises(BadRequestError):
        Agent.prompt(message, client=cursor)
    assert _bodies(api) == 0


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"local": {"cwd": "/tmp"}}, "Local agents run in Cursor's own runtime"),
        ({"tools": ["Shell"]}, "tools= restricts a local agent"),
        ({"mcp_servers": {"docs": {"url": "https://example.com"}}}, "mcp_servers= is not passed"),
        ({"mode": "plan"}, "mode='plan' is not available"),
        ({"agents": {"reviewer": {}}}, "agents= (subagent definitions)"),
        ({"colour": "blue"}, "unknown option 'colour'"),
    ],
)
def test_what_only_local_agents_have_is_refused_naming_what_to_use_k_51(
    mocked: tuple[MockApi, Cursor], options: dict[str, Any], says: str
) -> None:
    """K-51: an option of local agents (or of Cursor's bridge) is refused before anything is sent, saying what to
    use instead; an empty one (or `mode="agent"`, how cloud agents run) asks for nothing and passes."""
    api, cursor = mocked
    with pytest.raises(BadRequestError) as refused:
        Agent.create(options, client=cursor)
    assert says in refused.value.message
    assert Agent.create({"tools": [], "mcp_servers": {}, "mode": "agent", "local": None}, client=cursor)
    with pytest.raises(BadRequestError, match="on_delta= is not available"):
        Agent.create(client=cursor).send("Work", {"on_delta": print})
    local_options: list[Any] = [LocalAgentOptions(cwd="."), {"local": LocalAgentOptions()}]  # positional, in a mapping
    for local in local_options:
        with pytest.raises(BadRequestError, match="Local agents run in Cursor's own runtime"):
            Agent.create(local, client=cursor)
    with pytest.raises(BadRequestError, match="cloud= on a send"):
        Agent.create(client=cursor).send("Work", SendOptions(cloud=CloudSendOptions(env_vars={"A": "1"})))
    with pytest.raises(BadRequestError, match="Local agents run in Cursor's own runtime"):
        Agent.create(client=cursor).send("Work", {"local": LocalSendOptions(force=True)})
    assert _bodies(api) == 0
    assert Agent.create(client=cursor).send("Work", SendOptions(cloud=CloudSendOptions())).wait().status == "finished"


def test_one_idempotency_key_is_one_agent_never_made_twice_k_55(mocked: tuple[MockApi, Cursor]) -> None:
    """K-55: `idempotency_key` stands for the agent: the same key gives the same agent id, so a program run again
    asks for the same agent, which the API never makes twice (the second creation is refused as existing, naming
    how to read it); a key and another `agent_id` at once are refused."""
    _, cursor = mocked
    first = Agent.create({"idempotency_key": "nightly-2026-12-04"}, client=cursor)
    again = Agent.create({"idempotencyKey": "nightly-2026-12-04"}, client=cursor)
    other = Agent.create({"idempotency_key": "nightly-2026-12-05"}, client=cursor)
    assert first.agent_id == again.agent_id != other.agent_id
    with pytest.raises(BadRequestError, match="name two agents"):
        Agent.create({"idempotency_key": "a", "agent_id": "bc-11111111-1111-4111-8111-111111111111"}, client=cursor)
    with Cursor(simulated=True) as simulated:
        Agent.create({"idempotency_key": "nightly"}, client=simulated).send("Work").wait()
        with pytest.raises(BadRequestError) as exists:
            Agent.create({"idempotency_key": "nightly"}, client=simulated).send("Work")
        assert exists.value.code == "CONFLICT" and "Agent.get(" in exists.value.message
        assert len(Agent.list(client=simulated).items) == 1


def test_cloud_options_take_cursors_spellings_and_refuse_what_is_absent_k_58(mocked: tuple[MockApi, Cursor]) -> None:
    """K-58: `cloud` takes Cursor's camelCase spellings and its `CloudAgentOptions`; an option this SDK has not
    (`env_vars`, `auto_create_pr`, `work_on_current_branch=True`...) is refused with why, and False passes."""
    api, cursor = mocked
    repo = {"url": REPOSITORY, "startingRef": "main"}
    agent = Agent.create({"cloud": {"repos": [repo], "workOnCurrentBranch": False}}, client=cursor)
    request = agent.aio.creation(Prompt(text="Work"))
    assert [(spec.url, spec.starting_ref) for spec in request.repos or []] == [(REPOSITORY, "main")]
    assert Agent.create(cloud=CloudAgentOptions(repos=[repo], auto_create_pr=False), client=cursor)
    for refused_option, says in [
        ({"env_vars": {"A": "1"}}, "env_vars is not available"),
        ({"autoCreatePR": True}, "auto_create_pr is not available"),
        ({"work_on_current_branch": True}, "work_on_current_branch=True is not available"),
        ({"repos": [{"url": REPOSITORY, "prUrl": "https://github.com/acme/widgets/pull/1"}]}, "pr_url"),
    ]:
        with pytest.raises(BadRequestError) as refused:
            Agent.create({"cloud": refused_option}, client=cursor)
        assert says in refused.value.message
    assert _bodies(api) == 0
