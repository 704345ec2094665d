"""The model check shared by creation and follow-up, and the repository/environment/variable checks."""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.api import Model
from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.core import creation
from cursor_cloud_agents.core import models as model_check
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.request.creation import RepoInput
from cursor_cloud_agents.server.views.choices import ModelChoice, ModelDetail, ModelRow


def variant(params: dict[str, str], *, default: bool = False) -> dict[str, Any]:
    return {"params": [{"id": k, "value": v} for k, v in params.items()], "displayName": "v", "isDefault": default}


def parameter(pid: str, values: list[str]) -> dict[str, Any]:
    return {"id": pid, "values": [{"value": value} for value in values]}


MODELS = [
    Model.model_validate(raw)
    for raw in [
        {
            "id": "opus-a",
            "displayName": "Opus A",
            "aliases": ["opus", "big"],
            "parameters": [parameter("effort", ["low", "high"]), parameter("fast", ["false", "true"])],
            "variants": [
                variant({"effort": "high", "fast": "false"}, default=True),
                variant({"effort": "low", "fast": "false"}),
                variant({"effort": "low", "fast": "true"}),
            ],
        },
        {"id": "opus-b", "aliases": ["opus"]},
        {
            "id": "gpt",
            "parameters": [parameter("reasoning_effort", ["low", "xhigh"])],
            "variants": [variant({"reasoning_effort": "low"}, default=True), variant({"reasoning_effort": "xhigh"})],
        },
        {"id": "plain", "displayName": "plain"},
    ]
]


def refusal(exc: pytest.ExceptionInfo[ToolFailure]) -> str:
    assert exc.value.code == "VALIDATION"
    assert "Nothing was sent" in exc.value.message
    return exc.value.message


def test_an_alias_naming_one_model_resolves_and_one_naming_several_is_refused() -> None:
    """Reference: model_id accepts an id or an alias that designates only one model (`opus` is refused)."""
    assert model_check.find_model(MODELS, "big").id == "opus-a"
    assert model_check.find_model(MODELS, "opus-b").id == "opus-b"
    with pytest.raises(ToolFailure) as several:
        model_check.find_model(MODELS, "opus")
    assert "opus-a, opus-b" in refusal(several)
    with pytest.raises(ToolFailure) as unknown:
        model_check.find_model(MODELS, "nope")
    assert unknown.value.advice is not None and unknown.value.advice.step == "list_models"


def test_the_compact_view_names_the_reasoning_param_defaults_and_restricted_combinations() -> None:
    """Reference: params, defaults (the default variant), reasoning_param, aliases, restricted_combinations."""
    assert ModelRow.of(MODELS[0]).model_dump() == {
        "id": "opus-a",
        "name": "Opus A",
        "aliases": ["opus", "big"],
        "params": {"effort": ["low", "high"], "fast": ["false", "true"]},
        "defaults": {"effort": "high", "fast": "false"},
        "reasoning_param": "effort",
        "restricted_combinations": True,
    }
    assert ModelRow.of(MODELS[2]).restricted_combinations is None
    assert ModelRow.of(MODELS[2]).reasoning_param == "reasoning_effort"
    assert ModelRow.of(MODELS[3]).model_dump() == {
        "id": "plain",
        "name": None,
        "aliases": None,
        "params": None,
        "defaults": None,
        "reasoning_param": None,
        "restricted_combinations": None,
    }
    assert len(ModelDetail.of(MODELS[0]).variants or []) == 3


def test_a_published_combination_is_sent_whole_with_the_defaults_filled_in() -> None:
    """Reference: checked against the variants before sending; ours: the full variant is sent, no silent default."""
    chosen = model_check.select(MODELS, "big", "low", {"fast": "true"})
    assert chosen.wire() == {
        "id": "opus-a",
        "params": [{"id": "effort", "value": "low"}, {"id": "fast", "value": "true"}],
    }
    only_effort = model_check.select(MODELS, "opus-a", "low", {})
    assert ModelChoice.of(only_effort) == ModelChoice(id="opus-a", params={"effort": "low", "fast": "false"})
    assert model_check.select(MODELS, "gpt", None, {}).wire() == {"id": "gpt"}


@pytest.mark.parametrize(
    ("model_id", "reasoning", "params", "expected"),
    [
        ("opus-a", None, {"fast": "true"}, "no variant"),
        ("opus-a", "medium", {}, "not a value"),
        ("opus-a", None, {"turbo": "true"}, "no parameter"),
        ("opus-a", "low", {"effort": "high"}, "disagree"),
        ("plain", "high", {}, "no reasoning level"),
        ("gpt", "extra-high", {}, "not a value"),
    ],
    ids=["absent-combination", "unknown-level", "unknown-param", "conflict", "no-reasoning", "not-normalised"],
)
def test_a_choice_absent_from_the_published_variants_is_refused(
    model_id: str, reasoning: str | None, params: dict[str, str], expected: str
) -> None:
    """Reference: a combination absent from the published variants is refused without a POST."""
    with pytest.raises(ToolFailure) as refused:
        model_check.select(MODELS, model_id, reasoning, params)
    assert expected in refusal(refused)


@pytest.mark.parametrize(
    ("ref", "sent"),
    [
        ("main", "main"),
        ("feature/login-fix", "feature/login-fix"),
        ("A" * 40, "a" * 40),
        ("b" * 64, "b" * 64),
    ],
)
def test_a_branch_name_or_a_full_sha_is_a_valid_starting_ref(ref: str, sent: str) -> None:
    """Issue 5 / docs/api-contract.md quirk 1: a full SHA was accepted on 2026-10-19, so SHAs are no longer refused."""
    assert creation.starting_ref(ref) == sent


@pytest.mark.parametrize("ref", ["has space", "a..b", "-x", "x.lock", "a~1", "", "x/"])
def test_a_starting_ref_git_would_refuse_is_refused_locally(ref: str) -> None:
    """Ours: a ref git would refuse never costs a round trip."""
    with pytest.raises(ToolFailure) as refused:
        creation.starting_ref(ref)
    refusal(refused)


@pytest.mark.parametrize(
    ("env_type", "env_name", "repos", "expected"),
    [
        ("cloud", "web-env-1", 1, "brings its own repositories"),
        ("machine", None, 2, "one repository"),
        ("pool", None, 2, "one repository"),
        (None, "web-env-1", 0, "needs env_type"),
    ],
)
def test_documented_environment_combinations_are_refused_before_sending(
    env_type: str | None, env_name: str | None, repos: int, expected: str
) -> None:
    """docs/api-contract.md §3.6: named cloud env + repos; several repos on a machine or the default pool."""
    with pytest.raises(ToolFailure) as refused:
        creation.environment(env_type, env_name, repos)
    assert expected in refusal(refused)


def test_allowed_environment_combinations_pass() -> None:
    """docs/api-contract.md §3.6: a named any-repo pool takes several repos; a hosted VM took two on 2026-10-19."""
    assert creation.environment("pool", "any-repo", 3) is not None
    assert creation.environment(None, None, 2) is None
    env = creation.environment("cloud", None, 2)
    assert env is not None and env.wire() == {"type": "cloud"}


def test_repositories_are_one_form_or_the_other_each_listed_once() -> None:
    """Reference: `repository` + `starting_ref`, or `repositories` of {url, starting_ref}."""
    repos = creation.repos(None, None, [RepoInput(url="https://github.com/a/b", starting_ref="dev")])
    assert [repo.wire() for repo in repos] == [{"url": "https://github.com/a/b", "startingRef": "dev"}]
    for args in [
        ("https://github.com/a/b", None, [RepoInput(url="https://github.com/a/c")]),
        (None, "main", None),
        (None, None, [RepoInput(url="https://github.com/a/b"), RepoInput(url="https://github.com/a/b")]),
    ]:
        with pytest.raises(ToolFailure) as refused:
            creation.repos(*args)
        refusal(refused)


def test_forward_env_takes_values_from_the_settings_and_refuses_other_names_without_quoting_values() -> None:
    """Reference: forward_env names must be in CURSOR_MCP_FORWARD_ENV; values never pass through arguments."""
    forwardable = {"DEPLOY_TOKEN": Secret("fwd-value-0123456789")}
    merged = creation.variables({"PLAIN": "visible"}, ["DEPLOY_TOKEN"], forwardable)
    assert merged.values == {"PLAIN": "visible", "DEPLOY_TOKEN": "fwd-value-0123456789"}
    with pytest.raises(ToolFailure) as refused:
        creation.variables({}, ["HOME"], forwardable)
    assert "DEPLOY_TOKEN" in refusal(refused)
    with pytest.raises(ToolFailure) as reserved:
        creation.variables({"CURSOR_X": "secret-never-quoted"}, None, {})
    assert "secret-never-quoted" not in refusal(reserved)


def test_variables_need_a_name_and_forbid_a_caller_agent_id() -> None:
    """docs/api-contract.md §3.6: the API forbids agentId with envVars, so `name` is the lookup key instead."""
    given = creation.Variables({"A": "b"})
    creation.identity(None, "nightly export", given)
    creation.identity("bc-00000000-0000-4000-8000-000000000001", None, creation.Variables({}))
    for agent_id, name in [(None, None), (None, "  "), ("bc-00000000-0000-4000-8000-000000000001", "x")]:
        with pytest.raises(ToolFailure) as refused:
            creation.identity(agent_id, name, given)
        refusal(refused)
