"""The one place a request for a paid run is built: a new agent's, a follow-up's, for every face.

The MCP tools, the terminal's `run` and `followup`, the SDK and `verify --spend` all build through here, so the
rules for text sent upstream (`core/request/texts.py`: the prompt's size cap and control characters, the
name's one-line rule and its limit of `texts.NAME_MAX_CHARS`) hold for each of them with the same words, and
nothing is sent when one is broken. Two levels:
- `agent_request` and `follow_up_request` assemble a request from parts already chosen (a checked model, the
  repositories as specs): the SDK, whose options arrive already shaped, and verify use them;
- `new_agent_request` takes what a person or a model asked for as given (`AgentAsked`): it checks the
  repositories, environment, variables and identity (`core/request/creation.py`), picks the model
  (`core/request/models.py`), mints the agent id, then assembles through `agent_request`.
A face resolves the images itself (a model's under the client's roots, a person's anywhere they can read).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from cursor_cloud_agents.api import (
    CreateAgentRequest,
    CreateRunRequest,
    EnvSpec,
    ModelSelection,
    Prompt,
    PromptImage,
    RepoSpec,
    ids,
)
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.request import creation, texts
from cursor_cloud_agents.core.request import models as model_check
from cursor_cloud_agents.core.request.creation import RepoInput
from cursor_cloud_agents.core.state import CoreState


def prompt_of(text: str, images: list[PromptImage] | None = None) -> Prompt:
    """The prompt sent, under the prompt rule of `core.texts`; VALIDATION in its words, nothing sent."""
    try:
        texts.prompt(text)
    except ValueError as exc:
        raise ToolFailure(failures.VALIDATION, f"{exc}. Nothing was sent.") from None
    return Prompt(text=text, images=images or None)


def agent_request(
    prompt: Prompt,
    *,
    agent_id: str | None,
    name: str | None = None,
    model: ModelSelection | None = None,
    env: EnvSpec | None = None,
    repos: Sequence[RepoSpec] = (),
    auto_create_pr: bool = False,
    env_vars: Mapping[str, str] | None = None,
) -> CreateAgentRequest:
    """A new agent's request from parts already checked, the name under the one-line rule. Never on the starting
    branch: a follow-up then never pushes onto it."""
    return CreateAgentRequest(
        prompt=prompt,
        agent_id=agent_id,
        name=creation.agent_name(name),
        model=model,
        env=env,
        repos=list(repos) or None,
        work_on_current_branch=False,
        auto_create_pr=auto_create_pr,
        env_vars=dict(env_vars) if env_vars else None,
    )


def follow_up_request(
    text: str, images: list[PromptImage] | None = None, model: ModelSelection | None = None
) -> CreateRunRequest:
    """A follow-up's request, its prompt under the prompt rule."""
    return run_request(prompt_of(text, images), model)


def run_request(prompt: Prompt, model: ModelSelection | None = None) -> CreateRunRequest:
    """A follow-up's request from a prompt already made by `prompt_of` (the SDK makes it before it waits)."""
    return CreateRunRequest(prompt=prompt, model=model)


@dataclass(frozen=True)
class AgentAsked:
    """A new agent as asked for, before any check: what the tool's arguments or `run`'s options say."""

    prompt: str
    images: list[PromptImage] | None = None
    model_id: str | None = None
    reasoning_level: str | None = None
    model_params: Mapping[str, str] | None = None
    repository: str | None = None
    starting_ref: str | None = None
    repositories: Sequence[RepoInput] | None = None
    env_type: str | None = None
    env_name: str | None = None
    name: str | None = None
    agent_id: str | None = None
    auto_create_pr: bool = False
    env_vars: Mapping[str, str] | None = None
    forward_env: Sequence[str] | None = None

    def with_model(self, model_id: str | None) -> AgentAsked:
        return replace(self, model_id=model_id)


def check_before_opening(asked: AgentAsked) -> None:
    """The checks of `new_agent_request` that need no API and no state (the prompt, the name, the repositories
    and the environment), for a face to make before it opens anything: a refused `run` starts no simulated world
    and opens no connection. `new_agent_request` makes them again, with the rest.

    Raises:
        ToolFailure: VALIDATION naming what to change; nothing was sent.
    """
    prompt_of(asked.prompt, asked.images)
    creation.agent_name(asked.name)
    repos = creation.repos(asked.repository, asked.starting_ref, asked.repositories)
    creation.environment(asked.env_type, asked.env_name, len(repos))


async def new_agent_request(state: CoreState, asked: AgentAsked, *, for_set: bool = False) -> CreateAgentRequest:
    """The request `asked` makes, checked whole before anything is sent: the prompt and name, the repositories,
    environment and variables, then the model (a read of the published list). A single agent gets its id
    minted here (or the caller's), none when variables forbid one; `for_set`, the shared request of a set of
    attempts, keeps the caller's id (the set refuses it) and no name (each attempt is named after the group).

    Raises:
        ToolFailure: VALIDATION naming what to change; nothing was sent.
    """
    for value in (asked.env_vars or {}).values():
        state.redactor.add(value, permanent=False)  # masked before anything can echo it
    prompt = prompt_of(asked.prompt, asked.images)
    name = creation.agent_name(asked.name)
    repos = creation.repos(asked.repository, asked.starting_ref, asked.repositories)
    env = creation.environment(asked.env_type, asked.env_name, len(repos))
    variables = creation.variables(asked.env_vars, asked.forward_env, state.settings.forward_env)
    creation.identity(asked.agent_id, name, variables)
    model = await model_check.selection(
        state.api, state.models, asked.model_id, asked.reasoning_level, asked.model_params
    )
    if for_set:
        agent_id, name = asked.agent_id, None
    else:
        agent_id = None if variables.given else (asked.agent_id or ids.mint_agent_id())
    return agent_request(
        prompt,
        agent_id=agent_id,
        name=name,
        model=model,
        env=env,
        repos=repos,
        auto_create_pr=asked.auto_create_pr,
        env_vars=variables.values,
    )
