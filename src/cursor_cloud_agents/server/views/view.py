"""The base of every tool answer: a strict model, so that a field built under a wrong name fails in the tests."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class View(BaseModel):
    """A tool's answer, or a part of one (unknown fields refused)."""

    model_config = ConfigDict(extra="forbid")
