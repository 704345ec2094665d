"""Hostile values are judged before any request (issue 13, first cases): VALIDATION naming the field and the
rule, never INTERNAL, and nothing sent, least of all to the paid `POST /v1/agents`.

Each case was measured sending a paid POST, or answering INTERNAL, before these checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

AGENT = "bc-00000000-0000-4000-8000-000000000001"
RUN = "run-00000000-0000-4000-8000-000000000002"
NAMED = {"prompt": "Fix the failing test", "name": "nightly"}

CASES: list[tuple[str, dict[str, Any], str]] = [
    ("cursor_list_environments", {"cursor": "x" * 1_000_000}, "cursor"),
    ("cursor_list_runs", {"agent_id": AGENT, "cursor": "x" * 1_000_000}, "cursor"),
    ("cursor_list_agents", {"pr_url": "x" * 1_000_000}, "pr_url"),
    ("cursor_read_run_events", {"agent_id": AGENT, "run_id": RUN, "after_event_id": "1-1\r\nX: y"}, "event id"),
    ("cursor_read_run_events", {"agent_id": AGENT, "run_id": RUN, "after_event_id": "1-1\x00"}, "event id"),
    ("cursor_read_run_events", {"agent_id": AGENT, "run_id": RUN, "after_event_id": "é-1"}, "event id"),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://github.com/a/b\x00"}, "repository"),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://github.com/a/b\r\nX: y"}, "repository"),
    ("cursor_create_agent", {"prompt": "x", "repository": "file:///etc/passwd"}, "repository"),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://github.com/" + "x" * 1_000_000}, "repository"),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://token@github.com/a/b"}, "repository"),
    ("cursor_create_agent", NAMED | {"env_vars": {"A\r\nB": "v"}}, "variable name"),
    ("cursor_create_agent", NAMED | {"env_vars": {"A=B": "v"}}, "variable name"),
    ("cursor_create_agent", NAMED | {"env_vars": {"A\x00": "v"}}, "variable name"),
    ("cursor_create_agent", {"prompt": "   \n\t "}, "blank"),
    ("cursor_create_agent", {"prompt": "x" * 1_000_000}, "bytes"),
    ("cursor_create_agent", {"prompt": "x", "name": "bad\r\nname"}, "control characters"),
    ("cursor_create_run", {"agent_id": AGENT, "prompt": "  "}, "blank"),
    # P-10 (issue 23): the same class on the paid side, bidi and zero-width characters and lone surrogates too.
    ("cursor_create_agent", {"prompt": "x", "name": "fix\u202egnp.exe"}, "control characters"),
    ("cursor_create_agent", {"prompt": "x", "name": "fix\ud800"}, "name"),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://github.com/a/b\u200b"}, "repository"),
    (
        "cursor_create_agent",
        {"prompt": "x", "repository": "https://github.com/a/b", "starting_ref": "ma\u2066in"},
        "ref",
    ),
    ("cursor_create_agent", {"prompt": "x", "repository": "https://github.com/a/b", "starting_ref": "ma\x85in"}, "ref"),
    ("cursor_create_agent", {"prompt": "x", "env_type": "pool", "env_name": "gpu\r\nX: y"}, "env_name"),
]


@pytest.mark.parametrize(("tool", "arguments", "rule"), CASES, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(CASES)])
async def test_a_hostile_value_is_refused_before_anything_is_sent(
    harness_factory: OpenHarness, tool: str, arguments: dict[str, Any], rule: str
) -> None:
    """B-07 (issue 13): judged before the first request; the message names the field or the rule."""
    async with harness_factory() as h:
        reply = await h.call(tool, arguments)
        sent = h.requests()
    assert reply.code == "VALIDATION" and rule in reply.data["message"]
    assert sent == []


async def test_a_forge_url_of_github_enterprise_or_gitlab_is_accepted(harness_factory: OpenHarness) -> None:
    """The repository rule refuses shapes, not forges: self-hosted hosts pass."""
    async with harness_factory() as h:
        for url in ("https://github.example.com/team/service", "https://gitlab.example.org/group/sub/project"):
            reply = await h.call("cursor_create_agent", {"prompt": "Fix it", "repository": url})
            assert not reply.is_error, reply.data
