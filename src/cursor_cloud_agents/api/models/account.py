"""Account-level wire models: the key (`/v1/me`), models and repositories."""

from __future__ import annotations

from typing import Any

from pydantic import field_validator

from cursor_cloud_agents.api.models.common import WireModel


class Me(WireModel):
    """What `GET /v1/me` says about the API key (service-account keys omit the user fields)."""

    api_key_name: str | None = None
    created_at: str | None = None
    user_id: int | str | None = None
    user_email: str | None = None
    user_first_name: str | None = None
    user_last_name: str | None = None


class _Shown(WireModel):
    """What Cursor shows people under a display name: a model, a variant, a parameter and its values."""

    display_name: str | None = None


class ModelParameterValue(_Shown):
    """One allowed value of a model parameter (always a string on the wire)."""

    value: str


class ModelParameter(_Shown):
    """A tunable parameter of a model, e.g. `fast`."""

    id: str
    values: list[ModelParameterValue] = []


class VariantParam(WireModel):
    """A parameter setting inside a variant."""

    id: str
    value: str


class ModelVariant(_Shown):
    """A named combination of parameter values; `is_default` may silently turn on a costly one."""

    params: list[VariantParam] = []
    description: str | None = None
    is_default: bool | None = None


class Model(_Shown):
    """A model usable on create (`GET /v1/models`)."""

    id: str
    description: str | None = None
    aliases: list[str] | None = None
    parameters: list[ModelParameter] | None = None
    variants: list[ModelVariant] | None = None


class ModelList(WireModel):
    """The answer of `GET /v1/models`; the April 2026 shape (a list of ids) is still accepted."""

    items: list[Model]

    @field_validator("items", mode="before")
    @classmethod
    def _accept_bare_ids(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"id": item} if isinstance(item, str) else item for item in value]  # pyright: ignore[reportUnknownVariableType] -- raw JSON
        return value


class Repository(WireModel):
    """A GitHub repository the key can use."""

    url: str


class RepositoryList(WireModel):
    """The answer of `GET /v1/repositories`."""

    items: list[Repository]
