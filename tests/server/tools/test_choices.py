"""cursor_list_models, cursor_list_repositories and cursor_list_environments end to end against the simulator."""

from __future__ import annotations

import anyio
import pytest

from cursor_cloud_agents.simulator import Fault
from tests.tool_harness import Harness

pytestmark = pytest.mark.anyio


async def test_list_models_gives_a_compact_catalogue_without_variants(harness: Harness) -> None:
    """Reference: params, defaults of the default variant, reasoning_param, aliases, restricted_combinations."""
    reply = await harness.call("cursor_list_models")
    assert not reply.is_error
    models = {model["id"]: model for model in reply.data["models"]}
    assert reply.data["count"] == len(models) == 5
    assert models["composer-2"] == {
        "id": "composer-2",
        "name": "Composer 2",
        "aliases": ["composer-latest", "composer"],
        "params": {"fast": ["false", "true"]},
        "defaults": {"fast": "true"},
    }
    assert models["gpt-5.2"]["reasoning_param"] == "reasoning_effort"
    assert models["claude-4.6-opus"]["reasoning_param"] == "effort"
    assert models["claude-4.6-opus"]["restricted_combinations"] is True
    assert "variants" not in reply.data["models"][0]


async def test_list_models_is_cached_ten_minutes(harness: Harness) -> None:
    """Reference: the catalogue is cached for ten minutes (on the server's clock)."""
    await harness.call("cursor_list_models")
    harness.clock.advance(590)
    await harness.call("cursor_list_models", {"model_id": "composer"})
    assert len([r for r in harness.requests("GET") if r.path == "/v1/models"]) == 1
    harness.clock.advance(20)
    await harness.call("cursor_list_models")
    assert len([r for r in harness.requests("GET") if r.path == "/v1/models"]) == 2


async def test_list_models_with_an_alias_shows_that_model_and_its_valid_variants(harness: Harness) -> None:
    """Reference: with model_id, only that model, with its valid variants."""
    reply = await harness.call("cursor_list_models", {"model_id": "opus"})
    model = reply.data["model"]
    assert model["id"] == "claude-4.6-opus"
    assert {"params": {"effort": "low", "thinking": "false", "fast": "true"}, "name": "Opus Fast"} in model["variants"]
    assert [variant.get("default") for variant in model["variants"]].count(True) == 1


async def test_list_models_with_an_unknown_model_is_refused_with_a_pointer(harness: Harness) -> None:
    """Reference: model_id must name a model; the message says where ids come from."""
    reply = await harness.call("cursor_list_models", {"model_id": "gpt-9"})
    assert reply.code == "VALIDATION"
    assert "cursor_list_models" in reply.data["message"]


async def test_list_repositories_filters_locally_and_reports_the_total(harness: Harness) -> None:
    """Reference: `query` is a local filter on URLs; `total_count` counts every repository."""
    reply = await harness.call("cursor_list_repositories", {"query": "ACME/"})
    assert reply.data == {
        "repositories": [
            "https://github.com/acme/web",
            "https://github.com/acme/api",
            "https://github.com/acme/infra",
            "https://github.com/acme/docs",
        ],
        "total_count": 5,
        "matched": 4,
    }


async def test_list_repositories_is_served_from_the_clients_five_minute_cache(harness: Harness) -> None:
    """docs/api-contract.md §3.3: 1 call per minute; the client's 5-minute cache answers the next calls without a
    request."""
    first = await harness.call("cursor_list_repositories", {"limit": 2})
    assert first.data["repositories"] == ["https://github.com/your-org/your-repo", "https://github.com/acme/web"]
    assert first.data["next_offset"] == 2
    second = await harness.call("cursor_list_repositories", {"limit": 2, "offset": 4})
    assert second.data == {"repositories": ["https://github.com/acme/docs"], "total_count": 5}
    assert len(harness.requests("GET")) == 1


async def test_a_rate_limited_repository_list_answers_quota_at_once_with_the_wait(harness: Harness) -> None:
    """Reference: a rate limit answers QUOTA with retry_after_seconds, never a hang (docs/reliability.md F-21)."""
    harness.sim.faults.inject("GET", "/v1/repositories", Fault.rate_limited(42))
    with anyio.fail_after(5):
        reply = await harness.call("cursor_list_repositories")
        again = await harness.call("cursor_list_repositories")
    assert reply.code == "QUOTA"
    assert reply.data["retry_after_seconds"] == 42
    assert again.code == "QUOTA"
    assert again.data["retry_after_seconds"] > 0
    assert len(harness.requests("GET")) == 1


async def test_list_environments_pages_with_an_exact_cursor(harness: Harness) -> None:
    """Reference: one page per call; next_cursor resumes exactly; has_more is false at the end."""
    seen: list[str] = []
    cursor: str | None = None
    for _ in range(5):
        arguments: dict[str, object] = {"limit": 10}
        if cursor:
            arguments["cursor"] = cursor
        reply = await harness.call("cursor_list_environments", arguments)
        seen += [environment["name"] for environment in reply.data["environments"]]
        cursor = reply.data.get("next_cursor")
        assert reply.data["has_more"] is (cursor is not None)
        if cursor is None:
            break
    assert len(seen) == len(set(seen)) == 25
    first = (await harness.call("cursor_list_environments", {"limit": 1})).data["environments"][0]
    assert set(first) == {"id", "name", "owner", "repos"}
    assert first["repos"][0].startswith("https://github.com/")
