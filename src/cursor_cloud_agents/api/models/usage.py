"""Usage wire models: tokens and cost per agent and per run."""

from __future__ import annotations

import math
from typing import Annotated, cast

from pydantic import BeforeValidator

from cursor_cloud_agents.api.models.common import WireModel


def _number_or_absent(value: object) -> float | None:
    """A JSON number, as a float; anything else (a string, a boolean, an object, a number too large for a
    float) as absent. A cost that is not a number says nothing of what was charged: read as a number, `"12"`
    and `true` would be invented values, and a model refusing it would make the whole usage unreadable."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer past a float's range
        return None
    return number if math.isfinite(number) else None


Cents = Annotated[float | None, BeforeValidator(_number_or_absent)]
"""Cents as the API reports them: a finite number, or None (absent, or not a number). A negative value is
kept as sent: what it means for a limit is the limit's rule (core/spend/limits.py counts it as unknown)."""


class TokenUsage(WireModel):
    """Token counts; `total_tokens` is the sum of the four."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    total_tokens: int = 0


class Cost(WireModel):
    """Cost in cents (floats); eventually consistent, may lag after a run ends."""

    raw_cost_cents: Cents = None
    charged_cents: Cents = None


def _object_or_absent(value: object) -> object:
    # A cost that is not an object (a number, a string) says no charge: absent, not a usage answer refused whole.
    return None if not isinstance(value, dict | Cost) else cast(object, value)


CostField = Annotated[Cost | None, BeforeValidator(_object_or_absent)]


class RunUsage(WireModel):
    """Usage of one run (zeros until usage exists; `usage_uuid` omitted until then)."""

    id: str
    usage_uuid: str | None = None
    usage: TokenUsage | None = None
    cost: CostField = None


class Usage(WireModel):
    """The answer of `GET /v1/agents/{id}/usage`."""

    total_usage: TokenUsage | None = None
    cost: CostField = None
    runs: list[RunUsage] = []
