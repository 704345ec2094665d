"""Usage wire models: tokens and cost per agent and per run."""

from __future__ import annotations

from cursor_cloud_agents.api.models.common import WireModel


class TokenUsage(WireModel):
    """Token counts; `total_tokens` is the sum of the four."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    total_tokens: int = 0


class Cost(WireModel):
    """Cost in cents (floats); eventually consistent, may lag after a run ends."""

    raw_cost_cents: float | None = None
    charged_cents: float | None = None


class RunUsage(WireModel):
    """Usage of one run (zeros until usage exists; `usage_uuid` omitted until then)."""

    id: str
    usage_uuid: str | None = None
    usage: TokenUsage | None = None
    cost: Cost | None = None


class Usage(WireModel):
    """The answer of `GET /v1/agents/{id}/usage`."""

    total_usage: TokenUsage | None = None
    cost: Cost | None = None
    runs: list[RunUsage] = []
