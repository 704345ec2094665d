"""Agent tools end to end against the simulator: list, get, create (paid), archive and delete."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from cursor_cloud_agents.config import Secret
from cursor_cloud_agents.simulator import Fault, ManualClock, World
from tests.tool_harness import Harness, OpenHarness

pytestmark = pytest.mark.anyio

AGENT_ID = "bc-00000000-0000-4000-8000-0000000000aa"
FORWARDED = "fwd-secret-value-8472615"
INLINE_SECRET = "inline-secret-value-5519"
SOCKET_FAULTS = [Fault.cut_after_request(), Fault.reset(), Fault.cut_mid_body()]
SOCKET_FAULT_IDS = ["cut-after-request", "reset", "headers-then-cut-mid-body"]


def posts(h: Harness, path: str = "/v1/agents") -> list[Any]:
    return [record for record in h.requests("POST") if record.path == path]


async def create(h: Harness, **arguments: Any) -> Any:
    return await h.call("cursor_create_agent", {"prompt": "Add a README"} | arguments)


# --- list and get -------------------------------------------------------------------------------


async def test_list_agents_returns_one_page_with_web_urls_and_an_exact_cursor(harness_factory: OpenHarness) -> None:
    """Reference: one page, each agent with its url; next_cursor resumes exactly, archived hidden by default."""
    world = World(ManualClock())
    created = [world.add_agent(f"task {n}", created_ago=3600) for n in range(7)]
    world.add_agent("old", archived=True, created_ago=7200)
    async with harness_factory(world) as h:
        first = await h.call("cursor_list_agents", {"limit": 4})
        second = await h.call("cursor_list_agents", {"limit": 4, "cursor": first.data["next_cursor"]})
        everything = await h.call("cursor_list_agents", {"limit": 20, "include_archived": True})
    ids = [agent["id"] for agent in first.data["agents"] + second.data["agents"]]
    assert sorted(ids) == sorted(agent.id for agent in created)
    assert second.data["has_more"] is False and "next_cursor" not in second.data
    one = first.data["agents"][0]
    assert one["url"] == f"https://cursor.com/agents/{one['id']}"
    assert set(one) == {"id", "name", "status", "url", "latest_run_id", "updated_at"}
    assert len(everything.data["agents"]) == 8
    assert "scanned" not in first.data


async def test_list_agents_name_filter_is_local_case_insensitive_and_reports_scanned(
    harness_factory: OpenHarness,
) -> None:
    """Reference: `name` walks up to five pages of 100, filters by substring and reports `scanned`."""
    world = World(ManualClock())
    for n in range(230):
        world.add_agent(f"task {n}", name=f"{'Nightly Export' if n % 50 == 0 else 'other'} {n}", created_ago=3600)
    async with harness_factory(world) as h:
        first = await h.call("cursor_list_agents", {"name": "nightly EXPORT", "limit": 3})
        rest = await h.call(
            "cursor_list_agents", {"name": "nightly EXPORT", "limit": 3, "cursor": first.data["next_cursor"]}
        )
        other_filter = await h.call("cursor_list_agents", {"name": "other", "cursor": first.data["next_cursor"]})
    names = [agent["name"] for agent in first.data["agents"] + rest.data["agents"]]
    assert sorted(names) == sorted(f"Nightly Export {n}" for n in (0, 50, 100, 150, 200))
    assert first.data["scanned"] > 0 and "next_cursor" not in rest.data
    assert other_filter.code == "VALIDATION"
    assert all(record.query.count("limit=100") for record in h.requests("GET"))


async def test_list_agents_by_pull_request_uses_the_api_filter(harness_factory: OpenHarness) -> None:
    """Reference: `pr_url` is an API filter returning the agent linked to that pull request."""
    world = World(ManualClock())
    linked = world.add_agent("fix it", auto_create_pr=True, created_ago=3600)
    world.add_agent("other", created_ago=3600)
    pr_url = linked.branches[0]["prUrl"]
    async with harness_factory(world) as h:
        reply = await h.call("cursor_list_agents", {"pr_url": pr_url})
    assert [agent["id"] for agent in reply.data["agents"]] == [linked.id]
    assert "prUrl=" in h.requests("GET")[0].query


async def test_get_agent_shows_the_full_record_and_unknown_ids_answer_not_found(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.5: the full agent; 404 agent_not_found becomes NOT_FOUND; a malformed id sends
    nothing."""
    world = World(ManualClock())
    agent = world.add_agent("task", created_ago=3600)
    async with harness_factory(world) as h:
        reply = await h.call("cursor_get_agent", {"agent_id": agent.id.upper().replace("BC-", "bc-")})
        missing = await h.call("cursor_get_agent", {"agent_id": AGENT_ID})
        before = len(h.requests())
        malformed = await h.call("cursor_get_agent", {"agent_id": "bc-../../v1/me"})
        assert len(h.requests()) == before
    assert reply.data["id"] == agent.id
    assert reply.data["status"] == "IDLE"
    assert reply.data["work_on_current_branch"] is False
    assert reply.data["repos"] == [{"url": "https://github.com/your-org/your-repo", "starting_ref": "main"}]
    assert missing.code == "NOT_FOUND"
    assert malformed.code == "VALIDATION"


# --- create -------------------------------------------------------------------------------------


async def test_create_agent_mints_the_id_once_and_answers_ids_and_url_without_waiting(harness: Harness) -> None:
    """Reference: id minted before sending; workOnCurrentBranch false; autoCreatePR false; no wait."""
    reply = await create(harness)
    assert not reply.is_error
    (sent,) = posts(harness)
    body = sent.json()
    assert body["agentId"] == reply.data["agent_id"]
    assert reply.data["agent_id"].startswith("bc-")
    assert body["workOnCurrentBranch"] is False and body["autoCreatePR"] is False
    assert "repos" not in body and "env" not in body and "model" not in body
    assert reply.data["run_id"] == harness.world.agent(reply.data["agent_id"]).runs[0].id
    assert reply.data["url"] == f"https://cursor.com/agents/{reply.data['agent_id']}"
    assert reply.data["run_status"] == "CREATING"


async def test_create_agent_uses_the_callers_id_and_a_repeat_is_a_conflict_not_a_second_agent(
    harness: Harness,
) -> None:
    """Reference: the caller's bc-<uuid> is used; docs/api-contract.md §3.6: re-POST of an existing id is 409, nothing
    new."""
    first = await create(harness, agent_id=AGENT_ID, auto_create_pr=True)
    again = await create(harness, agent_id=AGENT_ID)
    assert first.data["agent_id"] == AGENT_ID
    assert posts(harness)[0].json()["autoCreatePR"] is True
    assert again.code == "CONFLICT"
    assert again.data["agent_id"] == AGENT_ID
    assert "nothing new was created" in again.data["message"]
    assert len(harness.world.agents) == 1


@pytest.mark.parametrize("ref", ["main", "0123456789abcdef0123456789abcdef01234567"], ids=["branch", "full-sha"])
async def test_create_agent_with_one_repository_sends_its_starting_ref(harness: Harness, ref: str) -> None:
    """Issue 5: a branch name or a full SHA as starting_ref (the API accepted SHAs on 2026-10-19)."""
    reply = await create(harness, repository="https://github.com/acme/web", starting_ref=ref)
    assert not reply.is_error
    assert posts(harness)[0].json()["repos"] == [{"url": "https://github.com/acme/web", "startingRef": ref}]


async def test_create_agent_with_several_repositories_on_an_any_repo_pool(harness: Harness) -> None:
    """docs/api-contract.md §3.6: several repositories need an any-repo pool (or a hosted VM)."""
    repositories = [
        {"url": "https://github.com/acme/web", "starting_ref": "dev"},
        {"url": "https://github.com/acme/api"},
    ]
    reply = await create(harness, repositories=repositories, env_type="pool", env_name="acme-any-repo")
    assert not reply.is_error
    body = posts(harness)[0].json()
    assert body["env"] == {"type": "pool", "name": "acme-any-repo"}
    assert body["repos"] == [
        {"url": "https://github.com/acme/web", "startingRef": "dev"},
        {"url": "https://github.com/acme/api"},
    ]


@pytest.mark.parametrize(
    "arguments",
    [
        {"repository": "https://github.com/acme/web", "env_type": "cloud", "env_name": "web-env-4"},
        {"repositories": [{"url": "https://github.com/a/b"}, {"url": "https://github.com/a/c"}], "env_type": "machine"},
        {"repositories": [{"url": "https://github.com/a/b"}, {"url": "https://github.com/a/c"}], "env_type": "pool"},
        {"repository": "https://github.com/a/b", "repositories": [{"url": "https://github.com/a/c"}]},
        {"repository": "https://github.com/a/b", "starting_ref": "bad ref"},
        {"repositories": [{"url": f"https://github.com/a/r{n}"} for n in range(21)]},
        {"model_id": "gpt-9"},
        {"model_id": "claude-4.6-opus", "model_params": {"fast": "true"}},
        {"model_id": "composer-2", "reasoning_level": "high"},
        {"model_id": "gpt-5.2", "reasoning_level": "extra-high"},
        {"reasoning_level": "high"},
        {"env_vars": {"TOKEN": INLINE_SECRET}},
        {"env_vars": {"TOKEN": INLINE_SECRET}, "name": "n", "agent_id": AGENT_ID},
        {"forward_env": ["HOME"], "name": "n"},
    ],
    ids=[
        "named-cloud-env-with-repo",
        "machine-several-repos",
        "default-pool-several-repos",
        "both-repo-forms",
        "bad-ref",
        "21-repos",
        "unknown-model",
        "absent-combination",
        "no-reasoning-param",
        "unknown-level",
        "reasoning-without-model",
        "env-vars-without-name",
        "env-vars-with-agent-id",
        "forward-env-not-allowed",
    ],
)
async def test_create_agent_refuses_bad_combinations_with_zero_posts(
    harness: Harness, arguments: dict[str, Any]
) -> None:
    """Reference and docs/api-contract.md §3.6: documented combinations and the model's variants are checked before any
    POST."""
    reply = await create(harness, **arguments)
    assert reply.code == "VALIDATION"
    assert posts(harness) == []
    assert INLINE_SECRET not in json.dumps(reply.data)


async def test_create_agent_sends_a_published_model_combination_whole(harness: Harness) -> None:
    """Reference: model_id as an alias naming one model; reasoning_level mapped onto the model's own parameter."""
    await create(harness, model_id="composer", model_params={"fast": "false"})
    reply = await create(
        harness, model_id="opus", reasoning_level="low", model_params={"thinking": "false", "fast": "true"}
    )
    assert not reply.is_error
    models = [record.json()["model"] for record in posts(harness)]
    assert models[0] == {"id": "composer-2", "params": [{"id": "fast", "value": "false"}]}
    assert {p["id"]: p["value"] for p in models[1]["params"]} == {"effort": "low", "thinking": "false", "fast": "true"}
    assert reply.data["model"] == {
        "id": "claude-4.6-opus",
        "params": {"effort": "low", "thinking": "false", "fast": "true"},
    }


async def test_create_agent_with_writes_off_is_read_only_and_reaches_nothing(harness_factory: OpenHarness) -> None:
    """Tool contract 2: CURSOR_MCP_ALLOW_WRITES gates creation; zero requests reach the simulator."""
    async with harness_factory(allow_writes=False) as h:
        reply = await create(h, model_id="composer-2")
        assert reply.code == "READ_ONLY"
        assert h.requests() == []


@pytest.mark.parametrize("fault", SOCKET_FAULTS, ids=SOCKET_FAULT_IDS)
async def test_a_lost_create_answer_is_outcome_unknown_with_the_minted_id_and_one_post(
    harness: Harness, fault: Fault
) -> None:
    """docs/reliability.md F-01/F-02/F-03: exactly one POST; MUTATION_OUTCOME_UNKNOWN carries the id; reading it finds
    it."""
    harness.sim.faults.inject("POST", "/v1/agents", fault)
    reply = await create(harness)
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert len(posts(harness)) == 1
    agent_id = reply.data["agent_id"]
    assert posts(harness)[0].json()["agentId"] == agent_id
    assert "cursor_get_agent" in reply.data["message"]
    found = await harness.call("cursor_get_agent", {"agent_id": agent_id})
    assert found.data["id"] == agent_id


async def test_a_create_failing_with_5xx_is_outcome_unknown_never_retried(harness: Harness) -> None:
    """docs/reliability.md F-10: a 5xx on create is outcome unknown; one POST, no automatic retry."""
    harness.sim.faults.inject("POST", "/v1/agents", Fault.server_error(502, "upstream_error"))
    reply = await create(harness, agent_id=AGENT_ID)
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert reply.data["agent_id"] == AGENT_ID
    assert len(posts(harness)) == 1


async def test_exhausted_usage_on_create_answers_quota_at_once_with_one_post(harness: Harness) -> None:
    """docs/reliability.md F-08 / docs/api-contract.md quirk 11: usage exhausted (a 429) is QUOTA, not retried, with the
    minted id."""
    harness.world.usage_exhausted = True
    reply = await create(harness)
    assert reply.code == "QUOTA"
    assert "included" in reply.data["message"]
    assert reply.data["agent_id"] == posts(harness)[0].json()["agentId"]
    assert len(posts(harness)) == 1
    assert harness.world.agents == {}


async def test_forwarded_values_reach_the_agent_but_never_the_model_or_the_log(
    harness_factory: OpenHarness, caplog: pytest.LogCaptureFixture
) -> None:
    """Reference: forward_env values come from CURSOR_MCP_FORWARD_ENV and are masked; name replaces agentId."""
    async with harness_factory(forward_env={"DEPLOY_TOKEN": Secret(FORWARDED)}) as h:
        h.sim.faults.inject(
            "POST",
            "/v1/agents",
            Fault.error(400, "validation_error", f"bad envVars value {FORWARDED} ({INLINE_SECRET})"),
        )
        arguments = {"forward_env": ["DEPLOY_TOKEN"], "env_vars": {"TOKEN": INLINE_SECRET}, "name": "nightly export"}
        with caplog.at_level(logging.DEBUG):
            refused = await create(h, **arguments)
            reply = await create(h, **arguments)
        sent = posts(h)[-1].json()
    assert sent["envVars"] == {"TOKEN": INLINE_SECRET, "DEPLOY_TOKEN": FORWARDED}
    assert "agentId" not in sent and sent["name"] == "nightly export"
    assert refused.code == "VALIDATION" and "***" in refused.data["message"]
    assert not reply.is_error and reply.data["name"] == "nightly export"
    for text in (json.dumps(refused.data), json.dumps(reply.data), caplog.text):
        assert FORWARDED not in text and INLINE_SECRET not in text


async def test_a_lost_create_with_variables_is_resolved_by_name(harness: Harness) -> None:
    """Reference: with env_vars the API forbids agentId; the unknown outcome names the agent, found by name."""
    harness.sim.faults.inject("POST", "/v1/agents", Fault.cut_after_request())
    reply = await create(harness, env_vars={"TOKEN": INLINE_SECRET}, name="export 2026-11")
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert reply.data["name"] == "export 2026-11" and "agent_id" not in reply.data
    assert "cursor_list_agents" in reply.data["message"]
    found = await harness.call("cursor_list_agents", {"name": "export 2026-11"})
    assert [agent["name"] for agent in found.data["agents"]] == ["export 2026-11"]
    assert len(posts(harness)) == 1


# --- archive and delete -------------------------------------------------------------------------


async def test_archive_is_reversible_and_hides_the_agent_from_lists(harness_factory: OpenHarness) -> None:
    """docs/api-contract.md §3.15: archive and unarchive are idempotent; archived agents are hidden from lists."""
    world = World(ManualClock())
    agent = world.add_agent("task", created_ago=3600)
    async with harness_factory(world) as h:
        archived = await h.call("cursor_archive_agent", {"agent_id": agent.id})
        again = await h.call("cursor_archive_agent", {"agent_id": agent.id})
        listed = await h.call("cursor_list_agents")
        restored = await h.call("cursor_archive_agent", {"agent_id": agent.id, "unarchive": True})
        status = (await h.call("cursor_get_agent", {"agent_id": agent.id})).data["status"]
    assert archived.data == again.data == {"agent_id": agent.id, "archived": True}
    assert listed.data["agents"] == []
    assert restored.data == {"agent_id": agent.id, "archived": False}
    assert status == "IDLE"


async def test_a_lost_archive_answer_is_resolved_by_reading_the_agent(harness_factory: OpenHarness) -> None:
    """docs/reliability.md F-24: archive is idempotent in effect; a read that shows ARCHIVED confirms it."""
    world = World(ManualClock())
    agent = world.add_agent("task", created_ago=3600)
    async with harness_factory(world) as h:
        h.sim.faults.inject("POST", "/v1/agents/{id}/archive", Fault.reset())
        reply = await h.call("cursor_archive_agent", {"agent_id": agent.id})
    assert reply.data == {"agent_id": agent.id, "archived": True}


async def test_archive_with_writes_off_is_read_only_and_reaches_nothing(harness_factory: OpenHarness) -> None:
    """Tool contract 2: archiving is a mutation."""
    async with harness_factory(allow_writes=False) as h:
        reply = await h.call("cursor_archive_agent", {"agent_id": AGENT_ID})
        assert reply.code == "READ_ONLY"
        assert h.requests() == []


async def test_delete_needs_both_switches_and_the_confirmation_then_removes_the_agent(
    harness_factory: OpenHarness,
) -> None:
    """Reference: delete needs CURSOR_MCP_ALLOW_DELETE=1, writes on, and confirm_agent_id == agent_id."""
    world = World(ManualClock())
    agent = world.add_agent("task", created_ago=3600)
    confirm = {"agent_id": agent.id, "confirm_agent_id": agent.id.upper().replace("BC-", "bc-")}
    async with harness_factory(world, allow_writes=False, allow_delete=True) as h:
        assert (await h.call("cursor_delete_agent", confirm)).code == "READ_ONLY"
    async with harness_factory(world) as h:
        assert (await h.call("cursor_delete_agent", confirm)).code == "DELETE_DISABLED"
    async with harness_factory(world, allow_delete=True) as h:
        mismatch = await h.call("cursor_delete_agent", {"agent_id": agent.id, "confirm_agent_id": AGENT_ID})
        assert mismatch.code == "CONFIRMATION_REQUIRED"
        assert h.requests() == []
        deleted = await h.call("cursor_delete_agent", confirm)
        gone = await h.call("cursor_get_agent", {"agent_id": agent.id})
    assert deleted.data == {"agent_id": agent.id, "deleted": True}
    assert gone.code == "NOT_FOUND"


async def test_a_lost_delete_answer_is_confirmed_by_the_agent_being_gone(harness_factory: OpenHarness) -> None:
    """docs/reliability.md F-23: a cut DELETE whose agent reads 404 is reported deleted (confirmed absent)."""
    world = World(ManualClock())
    agent = world.add_agent("task", created_ago=3600)
    async with harness_factory(world, allow_delete=True) as h:
        h.sim.faults.inject("DELETE", "/v1/agents/{id}", Fault.cut_after_request())
        reply = await h.call("cursor_delete_agent", {"agent_id": agent.id, "confirm_agent_id": agent.id})
        assert len(h.requests("DELETE")) == 1
    assert reply.data == {"agent_id": agent.id, "deleted": True}


async def test_a_lost_delete_answer_with_the_agent_still_there_stays_unknown(harness_factory: OpenHarness) -> None:
    """Paid mutations, never guessed: when the read does not confirm, the outcome stays unknown."""
    async with harness_factory(allow_delete=True) as h:
        agent = h.world.add_agent("task", created_ago=3600)
        h.sim.faults.inject("DELETE", "/v1/agents/{id}", Fault.server_error(503))
        reply = await h.call("cursor_delete_agent", {"agent_id": agent.id, "confirm_agent_id": agent.id})
    assert reply.code == "MUTATION_OUTCOME_UNKNOWN"
    assert reply.data["agent_id"] == agent.id


async def test_agent_tools_declare_their_access_in_the_annotations(harness: Harness) -> None:
    """docs/reliability.md D-02: create not idempotent; archive destructive and idempotent; delete destructive."""
    tools = {tool.name: tool.annotations for tool in (await harness.mcp.list_tools()).tools}
    hints = {
        name: (a.read_only_hint, a.destructive_hint, a.idempotent_hint)
        for name, a in tools.items()
        if a is not None
        and name
        in (
            "cursor_create_agent",
            "cursor_archive_agent",
            "cursor_delete_agent",
            "cursor_get_agent",
            "cursor_list_agents",
            "cursor_create_run",
        )
    }
    assert hints == {
        "cursor_list_agents": (True, False, True),
        "cursor_get_agent": (True, False, True),
        "cursor_create_agent": (False, False, False),
        "cursor_archive_agent": (False, True, True),
        "cursor_delete_agent": (False, True, True),
        "cursor_create_run": (False, True, False),
    }


async def test_a_page_of_agents_with_the_longest_names_is_shortened_to_fit_and_resumes_exactly(
    harness_factory: OpenHarness,
) -> None:
    """Tool contract 6: 100 agents with 100-character names would pass the result cap; the page is cut before
    the cap, never silently: next_cursor resumes right after the last agent shown."""
    world = World(ManualClock())
    for n in range(100):
        agent = world.add_agent(f"task {n}", name=f"{n:03d} " + "x" * 96, created_ago=3600)
        agent.env = {"type": "pool", "name": "acme-any-repo"}
    async with harness_factory(world) as h:
        first = await h.call("cursor_list_agents", {"limit": 100})
        rest = await h.call("cursor_list_agents", {"limit": 100, "cursor": first.data["next_cursor"]})
    assert not first.is_error and first.size < 38_000
    assert 80 < len(first.data["agents"]) < 100
    names = [agent["name"] for agent in first.data["agents"] + rest.data["agents"]]
    assert sorted(names) == sorted(agent.name for agent in world.agents.values())
    assert "next_cursor" not in rest.data
