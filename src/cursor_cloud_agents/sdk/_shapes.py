"""The call shapes of Cursor's Python SDK (`cursor-sdk` 1.1.0), read into this SDK's checked arguments.

A program written for Cursor's SDK passes its options as one mapping (or dataclass), positionally or by keyword:
`Agent.create({"model": {"id": "composer-2"}, "cloud": {...}})`, `Agent.prompt("...", {"model": "..."})`,
`agent.send({"text": "..."}, {"model": ...})`. Keys come snake_case or camelCase, as Cursor's SDK takes them; the
keyword arguments of the same call win over the mapping's. `model` is an id, a mapping `{"id": ..., "params":
[{"id": ..., "value": ...}]}` or a `ModelSelection`. What only local agents (or only Cursor's bridge) have is
refused before anything is sent, with a message naming what to use instead.

A prompt obeys the rules of every text sent upstream (`core.texts.prompt`: not blank, at most 256 KiB, no
control character but newlines and tabs, no lone surrogate), refused whole before anything is sent.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, TypedDict, cast

from cursor_cloud_agents.api import ModelParam, ModelSelection
from cursor_cloud_agents.core import texts
from cursor_cloud_agents.sdk._errors import BadRequestError, refused

ModelChoice = str | Mapping[str, Any] | ModelSelection
"""A model as Cursor's SDK takes it: an id (or alias), `{"id": ..., "params": [...]}`, or a `ModelSelection`."""

LOCAL_ONLY = (
    "Local agents run in Cursor's own runtime on this machine, which this SDK (over Cursor's REST API) cannot reach"
)


@dataclass(frozen=True)
class UserMessage:
    """A message to an agent as Cursor's SDK shapes it: its text (images are not sent by this SDK)."""

    text: str
    images: Sequence[Any] | None = None


@dataclass(frozen=True)
class AgentOptions:
    """A new agent's options with the names of Cursor's SDK (a mapping with these keys works the same).

    `model`, `name`, `cloud`, `agent_id`, `idempotency_key` and `api_key` are used; the others exist so that
    code written for Cursor's SDK builds, and are refused when set (local agents' and the bridge's options)."""

    model: ModelChoice | None = None
    api_key: str | None = None
    name: str | None = None
    local: Any = None
    cloud: Any = None
    mcp_servers: Mapping[str, Any] | None = None
    agents: Mapping[str, Any] | None = None
    agent_id: str | None = None
    idempotency_key: str | None = None
    mode: str | None = None
    tools: Sequence[str] | None = None
    disallowed_tools: Sequence[str] | None = None
    model_params: Mapping[str, str] | None = None


@dataclass(frozen=True)
class SendOptions:
    """A send's options with the names of Cursor's SDK: `model` is used (and stays for later sends); the others
    are refused when set."""

    model: ModelChoice | None = None
    mcp_servers: Mapping[str, Any] | None = None
    local: Any = None
    idempotency_key: str | None = None
    on_step: Any = None
    on_delta: Any = None
    mode: str | None = None
    cloud: Any = None
    model_params: Mapping[str, str] | None = None


class LocalAgentOptions:
    """Kept so that code written for Cursor's SDK imports: a local agent's options, refused when passed (local agents
    run in Cursor's own runtime, which this SDK cannot reach)."""

    def __init__(self, **options: Any) -> None:
        self.options = options

    def __bool__(self) -> bool:
        return True  # given at all, it asks for a local agent


class LocalSendOptions(LocalAgentOptions):
    """Kept for Cursor's SDK's code: a local agent's send options, refused when passed."""


@dataclass(frozen=True)
class CloudSendOptions:
    """A send's cloud options in Cursor's SDK (environment variables for one run): refused when set."""

    env_vars: Mapping[str, str] | None = None


class ModelSelectionDict(TypedDict, total=False):
    """`model` as a mapping, for type hints: `{"id": ..., "params": [{"id": ..., "value": ...}]}`."""

    id: str
    params: Sequence[Mapping[str, str]]


class CloudRepositoryDict(TypedDict, total=False):
    """A repository as a mapping, for type hints."""

    url: str
    starting_ref: str


class CloudAgentOptionsDict(TypedDict, total=False):
    """`cloud` as a mapping, for type hints (the keys used here)."""

    env: Mapping[str, Any]
    repos: Sequence[CloudRepositoryDict | Mapping[str, Any]]
    work_on_current_branch: bool


class AgentOptionsDict(TypedDict, total=False):
    """A new agent's options as a mapping, for type hints (the keys used here)."""

    model: str | ModelSelectionDict | ModelSelection | Mapping[str, Any]
    api_key: str
    name: str
    cloud: CloudAgentOptionsDict | Mapping[str, Any]
    agent_id: str
    idempotency_key: str
    model_params: Mapping[str, str]


class SendOptionsDict(TypedDict, total=False):
    """A send's options as a mapping, for type hints (the keys used here)."""

    model: str | ModelSelectionDict | ModelSelection | Mapping[str, Any]
    idempotency_key: str
    model_params: Mapping[str, str]


class UserMessageDict(TypedDict, total=False):
    """A message as a mapping, for type hints."""

    text: str


_CAMEL = {
    "apiKey": "api_key",
    "agentId": "agent_id",
    "idempotencyKey": "idempotency_key",
    "mcpServers": "mcp_servers",
    "disallowedTools": "disallowed_tools",
    "modelParams": "model_params",
    "onStep": "on_step",
    "onDelta": "on_delta",
}

_ABSENT: Mapping[str, str] = {
    "local": f"{LOCAL_ONLY}: pass cloud=... (or nothing) for a cloud agent.",
    "tools": "tools= restricts a local agent's built-in tools; cloud agents have theirs: leave it out.",
    "disallowed_tools": "disallowed_tools= is for local agents; cloud agents have their tools: leave it out.",
    "agents": "agents= (subagent definitions) is not available over Cursor's REST API: leave it out.",
    "mcp_servers": "mcp_servers= is not passed by this SDK (Cursor's REST API has no such field): leave it out.",
    "on_step": "on_step= is not available: iterate run.stream() for the run's steps as they come.",
    "on_delta": "on_delta= is not available: iterate run.stream() (or run.iter_text()) for the text as it comes.",
    "cloud": "cloud= on a send (environment variables per run) is not available: leave it out.",
}


def _given(options: object, what: str) -> dict[str, Any]:
    """The set keys of an options mapping or dataclass, snake_case."""
    if options is None:
        return {}
    if isinstance(options, LocalAgentOptions):
        raise refused(_ABSENT["local"])
    if is_dataclass(options) and not isinstance(options, type):
        pairs = {item.name: getattr(options, item.name) for item in fields(options)}
    elif isinstance(options, Mapping):
        pairs = {str(key): value for key, value in cast(Mapping[object, Any], options).items()}
    else:
        raise refused(f"{what} is a mapping (or {what[0].upper()}{what[1:]}) of options, not {type(options).__name__}.")
    return {_CAMEL.get(key, key): value for key, value in pairs.items() if value is not None}


def _checked_keys(given: Mapping[str, Any], known: set[str], what: str) -> None:
    for key, value in given.items():
        if key in known or (key == "mode" and value == "agent"):  # "agent" is how cloud agents run anyway
            continue
        if key == "mode":
            raise refused(f"mode={value!r} is not available over Cursor's REST API (cloud agents run as 'agent').")
        if key not in _ABSENT:
            raise refused(f"{what} has an unknown option {key!r}; known: {sorted(known)}.")
        asks = bool(value.env_vars) if isinstance(value, CloudSendOptions) else bool(value)
        if asks:  # an empty list or mapping, or False, asks for nothing
            raise refused(_ABSENT[key])


_AGENT_KEYS = {"model", "model_params", "api_key", "name", "cloud", "agent_id", "idempotency_key"}
_SEND_KEYS = {"model", "model_params", "idempotency_key"}


def agent_options(options: object, keywords: Mapping[str, Any]) -> dict[str, Any]:
    """A new agent's options: the mapping (or `AgentOptions`) with the call's keywords over it, checked (the keys
    of `_AGENT_KEYS` that were set; a local agent's options refused, naming what to use)."""
    merged = _given(options, "the options") | {key: value for key, value in keywords.items() if value is not None}
    _checked_keys(merged, _AGENT_KEYS, "the options")
    return merged


def send_options(options: object, keywords: Mapping[str, Any]) -> dict[str, Any]:
    """A send's options: the mapping (or `SendOptions`) with the call's keywords over it, checked."""
    merged = _given(options, "send's options") | {key: value for key, value in keywords.items() if value is not None}
    _checked_keys(merged, _SEND_KEYS, "send's options")
    return merged


def model_wanted(choice: object, params: Mapping[str, str] | None) -> tuple[str | None, dict[str, str] | None]:
    """The model id and parameters of a model given in any of Cursor's SDK's shapes (`model_params` adds to them).

    Raises:
        BadRequestError: a shape that is none of an id, `{"id": ..., "params": [...]}` or a `ModelSelection`.
    """
    if choice is None:
        return None, dict(params) if params else None
    if isinstance(choice, str):
        return choice, dict(params) if params else None
    if isinstance(choice, ModelSelection):
        pairs = [(param.id, param.value) for param in choice.params or []]
        model_id: object = choice.id
    elif isinstance(choice, Mapping):
        given = cast(Mapping[str, Any], choice)
        unknown = sorted(set(given) - {"id", "params"})
        if unknown:
            raise refused(f"model has unknown keys {unknown}: it is {{'id': ..., 'params': [{{'id', 'value'}}]}}.")
        model_id = given.get("id")
        pairs = [_param(param) for param in cast(Sequence[object], given.get("params") or [])]
    elif hasattr(choice, "id"):  # another SDK's ModelSelection dataclass (id, params of id/value)
        model_id = cast(object, getattr(choice, "id", None))
        pairs = [_param(param) for param in cast(Sequence[object], getattr(choice, "params", None) or [])]
    else:
        raise refused(f"model is an id, {{'id': ...}} or a ModelSelection, not {type(choice).__name__}.")
    if not isinstance(model_id, str) or not model_id:
        raise refused("model needs its id: {'id': 'composer-2'} (Cursor.models.list() lists the ids).")
    merged = dict(pairs) | dict(params or {})
    return model_id, merged or None


def _param(value: object) -> tuple[str, str]:
    if isinstance(value, ModelParam):
        return value.id, value.value
    if isinstance(value, Mapping):
        given = cast(Mapping[str, Any], value)
        key, setting = given.get("id"), given.get("value")
    else:
        key, setting = getattr(value, "id", None), getattr(value, "value", None)
    if not isinstance(key, str) or not isinstance(setting, str):
        raise refused("a model parameter is {'id': str, 'value': str}.")
    return key, setting


def message_text(message: object) -> str:
    """The text of a message given as a string, `{"text": ...}` or `UserMessage`, under the prompt rules.

    Raises:
        BadRequestError: no text, images (not sent by this SDK), or a text the prompt rules refuse.
    """
    if isinstance(message, str):
        text, images = message, None
    elif isinstance(message, UserMessage):
        text, images = message.text, message.images
    elif isinstance(message, Mapping):
        given = cast(Mapping[str, Any], message)
        unknown = sorted(set(given) - {"text", "images"})
        if unknown:
            raise refused(f"the message has unknown keys {unknown}: it is a string or {{'text': ...}}.")
        text, images = given.get("text"), given.get("images")
    elif isinstance(getattr(message, "text", None), str):  # another SDK's UserMessage
        text, images = cast(object, getattr(message, "text", None)), cast(object, getattr(message, "images", None))
    else:
        raise refused(f"the message is a string or {{'text': ...}}, not {type(message).__name__}.")
    if images:
        raise refused("images are not sent by this SDK: describe them in the text, or put them in the repository.")
    if not isinstance(text, str):
        raise refused("the message's text is a string: {'text': 'Fix the typos in README.md'}.")
    try:
        return texts.prompt(text)
    except ValueError as bad:  # the rule's own words, as the tool and `run` say them (N-05)
        raise refused(f"{bad}.") from None


_IDEMPOTENT_AGENTS = uuid.UUID("6f1f7a52-3f0c-4c51-9b47-2b1f1c0a4d11")
"""The namespace of agent ids made from an idempotency key (any fixed UUID: the ids only need to be stable)."""


def agent_id_of_key(idempotency_key: str) -> str:
    """The agent id an idempotency key stands for: the same key, the same id, so the API never makes it twice."""
    if not isinstance(idempotency_key, str) or not idempotency_key.strip():  # pyright: ignore[reportUnnecessaryIsInstance] -- a program may pass anything
        raise refused("idempotency_key is a non-empty string.")
    return f"bc-{uuid.uuid5(_IDEMPOTENT_AGENTS, idempotency_key)}"


__all__ = [
    "AgentOptions",
    "BadRequestError",
    "ModelChoice",
    "SendOptions",
    "UserMessage",
    "agent_id_of_key",
    "agent_options",
    "message_text",
    "model_wanted",
    "send_options",
]
