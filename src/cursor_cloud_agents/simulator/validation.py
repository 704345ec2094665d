"""Validation of create-agent and follow-up bodies, with the documented limits (docs/api-contract.md §3.6, §3.7).

Pure functions over the decoded JSON: they return normalised values or raise `ApiError`.
Account-dependent checks (key kind, quirks, pools, environments) live in the world.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from .catalog import resolve_model
from .errors import ApiError, bad_request
from .wire import AGENT_ID_RE, as_array, as_object, normalise_id

MAX_REPOS = 20
MAX_IMAGES = 5
MAX_IMAGE_BYTES = 15 * 1024 * 1024
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
FULL_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
ONE_REPO_MESSAGE = (
    "My Machines and repo-bound pools accept one repo in repos. "
    "To start an agent with several repos, set env.name to an any-repo pool."
)


@dataclass(frozen=True)
class CreateRequest:
    """A validated `POST /v1/agents` body."""

    prompt: str
    model: dict[str, Any] | None
    name: str | None
    env: dict[str, Any] | None
    repos: list[dict[str, Any]]
    agent_id: str | None
    work_on_current_branch: bool
    auto_create_pr: bool
    extra: dict[str, Any]


@dataclass(frozen=True)
class Creation:
    """A creation Cursor accepted: its agent id is taken now, the agent exists from `ready_at` on."""

    agent_id: str
    request: CreateRequest
    ready_at: float


def _obj(body: Any) -> dict[str, Any]:
    if body is None:
        raise bad_request("Request body is required", code="missing_body")
    data = as_object(body)
    if data is None:
        raise bad_request("Request body must be a JSON object")
    return data


def prompt_text(body: dict[str, Any]) -> str:
    """`prompt.text` (required, non-empty) after checking `prompt.images`."""
    prompt = as_object(body.get("prompt")) or {}
    text = prompt.get("text")
    if not isinstance(text, str) or not text.strip():
        raise bad_request("prompt.text is required")
    images = as_array(prompt.get("images", []))
    if images is None or len(images) > MAX_IMAGES:
        raise bad_request(f"prompt.images accepts at most {MAX_IMAGES} images")
    for image in images:
        _check_image(as_object(image))
    return text


def _check_image(image: dict[str, Any] | None) -> None:
    if image is None:
        raise bad_request("each image must be an object")
    url, data = image.get("url"), image.get("data")
    if "url" in image:
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise bad_request("image.url must be an http(s) URL")
    elif image.get("mimeType") not in IMAGE_TYPES or not isinstance(data, str):
        raise bad_request("image needs base64 data and a mimeType among png, jpeg, gif, webp")
    else:
        _check_image_data(data)
    dimension = image.get("dimension")
    if dimension is not None and not _is_dimension(dimension):
        raise bad_request("image.dimension needs integer width and height >= 1")


def _check_image_data(data: str) -> None:
    if not data:  # `Image.data` has `minLength: 1` in the OpenAPI
        raise bad_request("image.data must be non-empty base64")
    try:
        size = len(base64.b64decode(data, validate=True))
    except binascii.Error:
        raise bad_request("image.data must be base64") from None
    if size > MAX_IMAGE_BYTES:
        raise bad_request("each image must be at most 15 MB")


def _is_dimension(value: Any) -> bool:
    box = as_object(value)
    if box is None:
        return False
    sides = [box.get("width"), box.get("height")]
    return all(isinstance(s, int) and not isinstance(s, bool) and s >= 1 for s in sides)


def _check_env_vars(raw: Any) -> None:
    env_vars = as_object(raw)
    if env_vars is None or len(env_vars) > 50:
        raise bad_request("envVars must be an object with at most 50 entries")
    for name, value in env_vars.items():
        if not isinstance(value, str) or len(value.encode()) > 4096:
            raise bad_request(f"envVars value of {name} must be a string of at most 4096 bytes")
        if len(name.encode()) > 255 or name.upper().startswith("CURSOR_"):
            raise bad_request(f"envVars name {name} is not allowed (reserved CURSOR_ prefix or too long)")


def _check_list(body: dict[str, Any], key: str, limit: int) -> None:
    if body.get(key) is None:
        return
    value = as_array(body[key])
    if value is None or len(value) > limit:
        raise bad_request(f"{key} accepts at most {limit} entries")
    names = [(as_object(item) or {}).get("name") for item in value]
    if not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
        raise bad_request(f"{key} entries need unique names")


def _bool(body: dict[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise bad_request(f"{key} must be a boolean")
    return value


def _repos(raw: Any, accept_sha: bool) -> list[dict[str, Any]]:
    if raw is None:
        return []
    items = as_array(raw)
    if items is None or len(items) > MAX_REPOS:
        raise bad_request(f"repos accepts at most {MAX_REPOS} repositories")
    return [_repo(as_object(item) or {}, accept_sha) for item in items]


def _repo(item: dict[str, Any], accept_sha: bool) -> dict[str, Any]:
    url = item.get("url")
    if not isinstance(url, str) or not url:
        raise bad_request("each repos entry needs a url", code="repository_required")
    repo: dict[str, Any] = {"url": url}
    ref = item.get("startingRef")
    if ref is not None:
        if not isinstance(ref, str) or not ref or " " in ref:
            raise bad_request(f"Invalid startingRef {ref!r}", code="invalid_branch_name")
        if FULL_SHA.match(ref) and not accept_sha:
            raise bad_request("startingRef must be a branch name, not a commit SHA", code="invalid_branch_name")
        repo["startingRef"] = ref
    if isinstance(item.get("prUrl"), str):
        repo["prUrl"] = item["prUrl"]
    return repo


def _env(raw: Any, repos: list[dict[str, Any]]) -> dict[str, Any] | None:
    if raw is None:
        return None
    given = as_object(raw) or {}
    if given.get("type") not in ("cloud", "pool", "machine"):
        raise bad_request("env.type must be cloud, pool or machine")
    env: dict[str, Any] = {"type": given["type"]}
    name = given.get("name")
    if name is not None:
        if not isinstance(name, str):
            raise bad_request("env.name must be a string")
        env["name"] = name
    if env["type"] == "cloud" and "name" in env and repos:
        raise bad_request("A named cloud environment brings its own repositories: omit repos or env.name")
    if env["type"] == "machine" and len(repos) > 1:
        raise bad_request(ONE_REPO_MESSAGE)
    return env


def _agent_id(body: dict[str, Any]) -> str | None:
    raw = body.get("agentId")
    if raw is None:
        return None
    if not isinstance(raw, str) or not AGENT_ID_RE.match(raw):
        raise bad_request("agentId must look like bc-<uuid>")
    if "envVars" in body:
        raise bad_request("agentId cannot be combined with envVars")
    return normalise_id(raw)


def parse_create(body: Any, *, accept_sha: bool) -> CreateRequest:
    """Validate a create-agent body (docs/api-contract.md §3.6)."""
    data = _obj(body)
    text = prompt_text(data)
    agent_id = _agent_id(data)
    if "envVars" in data:
        _check_env_vars(data["envVars"])
    _check_list(data, "mcpServers", 50)
    _check_list(data, "customSubagents", 20)
    _check_mode(data)
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > 100):
        raise bad_request("name must be a string of at most 100 characters")
    repos = _repos(data.get("repos"), accept_sha)
    model = resolve_model(data["model"]) if "model" in data else None
    extra: dict[str, Any] = {k: _bool(data, k) for k in ("skipReviewerRequest", "openAsCursorGithubApp") if k in data}
    if (metadata := as_object(data.get("metadata"))) is not None:
        extra["metadata"] = metadata
    wocb, auto_pr = _bool(data, "workOnCurrentBranch"), _bool(data, "autoCreatePR")
    env = _env(data.get("env"), repos)
    return CreateRequest(text, model, name, env, repos, agent_id, wocb, auto_pr, extra)


def _check_mode(data: dict[str, Any]) -> None:
    if data.get("mode", "agent") not in ("agent", "plan"):
        raise bad_request("mode must be agent or plan")


def parse_follow_up(body: Any) -> tuple[str, dict[str, Any] | None]:
    """Validate a follow-up body (docs/api-contract.md §3.7): the prompt text and the optional new model."""
    data = _obj(body)
    text = prompt_text(data)
    _check_mode(data)
    _check_list(data, "mcpServers", 50)
    if "envVars" in data:
        _check_env_vars(data["envVars"])
    return text, resolve_model(data["model"]) if "model" in data else None


def check_pool(env: dict[str, Any] | None, repos: list[dict[str, Any]], pools: dict[str, bool]) -> None:
    """The default pool and repo-bound pools take exactly one repo; unknown pools are refused."""
    if env is None or env["type"] != "pool":
        return
    name = env.get("name", "default")
    if name not in pools:
        raise ApiError(400, "validation_error", f"Unknown pool: {name}")
    if not pools[name] and len(repos) > 1:
        raise bad_request(ONE_REPO_MESSAGE)
