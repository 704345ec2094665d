"""The base of every tool answer: a strict model, so that a field built under a wrong name fails in the tests."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class View(BaseModel):
    """A tool's answer, or a part of one (unknown fields refused).

    A field the view's constructor (`of`) sets has no default, so that one forgotten there is a type error;
    only the fields the answer builder fills after fitting (a slice's continuation, rows left out) default
    to None."""

    model_config = ConfigDict(extra="forbid")
