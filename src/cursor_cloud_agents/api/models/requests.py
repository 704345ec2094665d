"""Request bodies: only the fields set are sent, unknown keywords are refused."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from cursor_cloud_agents.api.models.common import AutoCreatePR, RequestModel


class ImageDimension(RequestModel):
    """Pixel size of a prompt image."""

    width: int = Field(ge=1)
    height: int = Field(ge=1)


ImageType = Literal["image/png", "image/jpeg", "image/gif", "image/webp"]
"""The image types a prompt accepts (docs/api-contract.md §3.6)."""


class PromptImage(RequestModel):
    """An image attached to a prompt: inline base64 `data` with its `mime_type`, or a `url` (not both)."""

    data: str | None = None
    mime_type: ImageType | None = None
    url: str | None = None
    dimension: ImageDimension | None = None

    @model_validator(mode="after")
    def _inline_or_linked(self) -> PromptImage:
        half_inline = (self.data is None) != (self.mime_type is None)
        inline = self.data is not None and self.mime_type is not None
        if half_inline or inline == (self.url is not None):
            raise ValueError("an image is either data with mime_type, or a url")
        return self


class Prompt(RequestModel):
    """The prompt of a run."""

    text: str = Field(min_length=1)
    images: list[PromptImage] | None = Field(default=None, max_length=5)


class ModelParam(RequestModel):
    """One model parameter (`fast`, `effort`...); values are strings on the wire."""

    id: str
    value: str


class ModelSelection(RequestModel):
    """The model to run with; omitted means the account default."""

    id: str
    params: list[ModelParam] | None = None


class RepoSpec(RequestModel):
    """A repository for a new agent."""

    url: str
    starting_ref: str | None = None
    pr_url: str | None = None


class EnvSpec(RequestModel):
    """Where a new agent runs."""

    type: Literal["cloud", "pool", "machine"]
    name: str | None = None


class McpServerSpec(RequestModel):
    """An MCP server made available to the agent."""

    name: str
    type: Literal["http", "sse", "stdio"] | None = None
    url: str | None = None
    headers: dict[str, str] | None = None
    auth: dict[str, str] | None = None
    command: str | None = None
    args: list[str] | None = None
    env: dict[str, str] | None = None


class CustomSubagent(RequestModel):
    """A custom subagent definition."""

    name: str
    description: str
    prompt: str
    model: str | None = None


class CreateAgentRequest(RequestModel):
    """Body of `POST /v1/agents`. Only the fields set are sent."""

    prompt: Prompt
    agent_id: str | None = None
    """Client-minted `bc-<uuid>`: the key to resolve an unknown outcome (forbidden with `env_vars`)."""
    name: str | None = Field(default=None, max_length=100)
    model: ModelSelection | None = None
    env: EnvSpec | None = None
    repos: list[RepoSpec] | None = Field(default=None, max_length=20)
    work_on_current_branch: bool | None = None
    auto_create_pr: AutoCreatePR = None
    skip_reviewer_request: bool | None = None
    env_vars: dict[str, str] | None = None
    mcp_servers: list[McpServerSpec] | None = Field(default=None, max_length=50)
    custom_subagents: list[CustomSubagent] | None = Field(default=None, max_length=20)
    mode: Literal["agent", "plan"] | None = None


class CreateRunRequest(RequestModel):
    """Body of `POST /v1/agents/{id}/runs` (a follow-up). Only the fields set are sent."""

    prompt: Prompt
    mode: Literal["agent", "plan"] | None = None
    model: ModelSelection | None = None
    """Not documented, honoured live: changes the model for this and later runs."""
    mcp_servers: list[McpServerSpec] | None = None
