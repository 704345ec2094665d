"""Base classes of the wire models: lenient answers, exact requests, pages.

Answers accept unknown fields (the vendor adds fields in a beta) and keep optional fields absent
(None) rather than inventing values. Requests serialise only the keys that were set, never a null.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, TypeVar

from pydantic import AliasChoices, BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

T = TypeVar("T")


class WireModel(BaseModel):
    """An object the API sends: camelCase on the wire, snake_case in Python, unknown fields kept."""

    # defer_build: validators are built on first use, so start-up does not pay for models not yet needed.
    model_config = ConfigDict(extra="allow", alias_generator=to_camel, populate_by_name=True, defer_build=True)


class RequestModel(BaseModel):
    """An object we send: unknown keywords refused (a typo fails here, not on a paid call)."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True, defer_build=True)

    def wire(self) -> dict[str, Any]:
        """The JSON body: camelCase keys, only the fields that were set, never a null."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True, exclude_none=True)


class Page(WireModel, Generic[T]):
    """One page of a list: `items`, and `next_cursor` when there are more (omitted at the end)."""

    items: list[T]
    """The items of this page (may be fewer than the limit even when more pages follow)."""
    next_cursor: str | None = None
    """Opaque cursor of the next page; None at the end."""


AutoCreatePR = Annotated[
    bool | None,
    Field(
        validation_alias=AliasChoices("autoCreatePR", "auto_create_pr"),
        serialization_alias="autoCreatePR",
    ),
]
"""`autoCreatePR`: the one field whose acronym the camelCase alias generator would spell `autoCreatePr`."""
