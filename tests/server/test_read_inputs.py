"""Free text a tool reads with is judged by its alphabet before any request (issue 23): a control character,
an invisible or bidi character, a line separator or a lone surrogate in a cursor, a URL, a name, a model id
or an artifact path is a local VALIDATION naming the field, and the simulator hears nothing. Before, each
was URL-encoded and sent, costing a request and a confusing upstream error."""

from __future__ import annotations

from typing import Any

import pytest

from cursor_cloud_agents.core import scan
from cursor_cloud_agents.simulator import ManualClock, World
from tests.tool_harness import OpenHarness

pytestmark = pytest.mark.anyio

AGENT = "bc-00000000-0000-4000-8000-000000000001"
PR = "https://github.com/org/repo/pull/7"
# One of each kind the rule refuses: C0 (NUL, CR LF), C1 (NEL), bidi override, zero-width space, BOM,
# line separator, and a lone surrogate.
BAD = {
    "nul": "\x00",
    "crlf": "\r\nX-Injected: 1",
    "c1": "\x85",
    "bidi": "\u202e",
    "zero-width": "\u200b",
    "bom": "\ufeff",
    "line-separator": "\u2028",
    "lone-surrogate": "\ud800",
}
# (tool, arguments around the field, the field, a valid value to spoil)
FIELDS: list[tuple[str, dict[str, Any], str, str]] = [
    ("cursor_list_agents", {}, "cursor", "bc-00000000-0000-4000-8000-000000000002"),
    ("cursor_list_agents", {}, "name", "nightly"),
    ("cursor_list_agents", {}, "pr_url", PR),
    ("cursor_supervise", {}, "cursor", "eyJhIjoxfQ"),
    ("cursor_supervise", {}, "name", "nightly"),
    ("cursor_supervise", {}, "pr_url", PR),
    ("cursor_list_runs", {"agent_id": AGENT}, "cursor", "run-cursor"),
    ("cursor_list_environments", {}, "cursor", "env-cursor"),
    ("cursor_list_models", {}, "model_id", "composer-2"),
    ("cursor_list_repositories", {}, "query", "github.com/org"),
    ("cursor_read_artifact", {"agent_id": AGENT}, "path", "artifacts/report.md"),
    ("cursor_create_agent", {"prompt": "Fix it"}, "model_id", "composer-2"),
    ("cursor_create_agent", {"prompt": "Fix it", "model_id": "composer-2"}, "reasoning_level", "high"),
    ("cursor_create_run", {"agent_id": AGENT, "prompt": "Again"}, "model_id", "composer-2"),
]


@pytest.mark.parametrize("bad", list(BAD), ids=list(BAD))
@pytest.mark.parametrize(
    ("tool", "around", "field", "value"), FIELDS, ids=[f"{tool}.{field}" for tool, _, field, _ in FIELDS]
)
async def test_a_read_parameter_with_a_character_outside_its_alphabet_sends_nothing(
    harness_factory: OpenHarness, tool: str, around: dict[str, Any], field: str, value: str, bad: str
) -> None:
    """P-10: every refused kind of character, in every free-text read parameter: VALIDATION naming the field."""
    spoiled = value[:3] + BAD[bad] + value[3:]
    async with harness_factory() as h:
        reply = await h.call(tool, around | {field: spoiled})
        sent = h.requests()
    assert reply.code == "VALIDATION", reply.data
    assert f"{field}:" in reply.data["message"]
    assert sent == []


async def test_model_parameters_outside_visible_ascii_send_nothing(harness_factory: OpenHarness) -> None:
    """P-10: a model parameter name or value with a control character is refused before the model list is read."""
    async with harness_factory() as h:
        for params in ({"fast\r\n": "true"}, {"fast": "tr\u202eue"}):
            reply = await h.call("cursor_create_agent", {"prompt": "Fix it", "model_id": "x", "model_params": params})
            assert reply.code == "VALIDATION" and "model_params:" in reply.data["message"]
        assert h.requests() == []


async def test_a_filter_in_any_script_is_still_read(harness_factory: OpenHarness) -> None:
    """P-10: the rule refuses characters that hide or break a line, not scripts: a Japanese name and an accented
    one filter as before."""
    world = World(ManualClock())
    world.add_agent("修正 nightly", created_ago=60)
    world.add_agent("café fix", created_ago=30)
    async with harness_factory(world) as h:
        japanese = await h.call("cursor_list_agents", {"name": "修正"})
        accented = await h.call("cursor_list_agents", {"name": "CAFÉ"})
    assert [row["name"] for row in japanese.data["agents"]] == ["修正 nightly"]
    assert [row["name"] for row in accented.data["agents"]] == ["café fix"]


async def test_an_edited_cursor_carrying_a_control_character_for_the_api_sends_nothing(
    harness_factory: OpenHarness,
) -> None:
    """P-11: our filtered-scan cursor is base64 (visible ASCII) of the API's cursor and a position; one edited to
    carry CR LF in the API's cursor passed every check and was sent. Now refused, nothing sent."""
    mark = scan.fingerprint("x", None, False)
    forged = scan.encode(scan.Position("bc-1\r\nX-Injected: 1", scan.FILTERED_PAGE_SIZE, 0, mark))
    honest = scan.encode(scan.Position("bc-1", scan.FILTERED_PAGE_SIZE, 0, mark))
    async with harness_factory() as h:
        reply = await h.call("cursor_list_agents", {"name": "x", "cursor": forged})
        sent = h.requests()
        await h.call("cursor_list_agents", {"name": "x", "cursor": honest})
        sent_honest = h.requests()
    assert reply.code == "VALIDATION" and "cursor" in reply.data["message"]
    assert sent == [] and len(sent_honest) == 1  # the same cursor without the CR LF goes to the API
