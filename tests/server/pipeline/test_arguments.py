"""Every bound a schema states holds without the schema (issue 36): Codex strips `minimum`, `maximum`, `default`
and the length keywords from the schemas its model sees (docs/clients.md), so the server is what enforces them,
and the bounds that change what a model should send are named in the parameter's description too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import pytest
from pydantic import Field

from cursor_cloud_agents.config import Settings
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.app import build_toolkit
from cursor_cloud_agents.server.pipeline.arguments import StrictArguments, enforced_schema

SNAPSHOT = Path(__file__).parents[2] / "snapshots" / "tools_list.json"
AGENT = "bc-00000000-0000-4000-8000-000000000000"
VALID_ITEMS: dict[str, Any] = {"repositories": "https://github.com/org/repo", "runs": {"agent_id": AGENT}}
"""A valid element of each array parameter, so that only the number of elements is wrong."""
VALID_REQUIRED: dict[str, Any] = {
    "agent_id": AGENT,
    "run_id": "run-00000000-0000-4000-8000-000000000000",
    "runs": [{"agent_id": AGENT}],
    "prompt": "Fix the test",
    "path": "artifacts/notes.txt",
}
"""A valid value of each required parameter, so that only the bound under test is wrong."""
NAMED = {
    ("cursor_get_run", "wait_seconds"): ("0-50",),
    ("cursor_wait", "wait_seconds"): ("0-50",),
    ("cursor_get_run", "result_limit"): ("1-20000",),
    ("cursor_read_artifact", "limit"): ("1-20000",),
    ("cursor_read_conversation", "limit"): ("1-50",),
    ("cursor_read_run_events", "max_wait_seconds"): ("1-50", "default 20"),
    ("cursor_read_run_events", "tail"): ("1-100",),
    ("cursor_supervise", "limit"): ("1-100",),
    ("cursor_supervise", "stale_after_minutes"): ("default 30",),
    ("cursor_create_agent", "name"): ("100",),
    ("cursor_create_agent", "repositories"): ("20",),
    ("cursor_list_agents", "limit"): ("1-100",),
    ("cursor_list_runs", "limit"): ("1-100",),
    ("cursor_list_environments", "limit"): ("1-100",),
    ("cursor_list_repositories", "limit"): ("1-300",),
}
"""The parameters whose bounds change what a model should send (a page size, a wait, a slice, a name), and
what their descriptions must say; a cursor or a path is handed back unchanged, and an offset starts at 0."""


def tools() -> list[dict[str, Any]]:
    return json.loads(SNAPSHOT.read_text())


def enforced() -> dict[str, dict[str, Any]]:
    """Each tool's schema with every rule its strict model checks, including the length guards the catalogue
    leaves out (K-61)."""
    specs = build_toolkit(Settings(), Redactor()).specs
    return {name: enforced_schema(spec.arguments.model().model_json_schema()) for name, spec in specs.items()}


ENFORCED = enforced()


def past_bounds(name: str, schema: dict[str, Any]) -> list[tuple[str, Any]]:
    """(keyword, a value just past it) for every bound keyword of a parameter's schema."""
    item = VALID_ITEMS.get(name, "x")
    found: list[tuple[str, Any]] = []
    if "minimum" in schema:
        found.append(("minimum", schema["minimum"] - 1))
    if "maximum" in schema:
        found.append(("maximum", schema["maximum"] + 1))
    if schema.get("minLength", 0) > 0:
        found.append(("minLength", ""))
    if "maxLength" in schema:
        found.append(("maxLength", "a" * (schema["maxLength"] + 1)))
    if schema.get("minItems", 0) > 0:
        found.append(("minItems", []))
    if "maxItems" in schema:
        found.append(("maxItems", [item] * (schema["maxItems"] + 1)))
    return found


def required(tool: str) -> dict[str, Any]:
    [listed] = [listed for listed in tools() if listed["name"] == tool]
    return {name: VALID_REQUIRED[name] for name in listed["inputSchema"].get("required", [])}


BOUNDS = [
    (tool, name, keyword, value)
    for tool, schema in ENFORCED.items()
    for name, prop in schema["properties"].items()
    for keyword, value in past_bounds(name, prop)
]


def test_the_catalogue_states_bounds_this_check_covers() -> None:
    """The walk below finds the bounds (at least one of each kind), so it cannot pass on an empty list."""
    assert {keyword for _, _, keyword, _ in BOUNDS} >= {"minimum", "maximum", "minLength", "maxLength", "minItems"}


@pytest.mark.parametrize(("tool", "name", "keyword", "value"), BOUNDS, ids=[f"{t}.{n}.{k}" for t, n, k, _ in BOUNDS])
def test_every_bound_is_enforced_by_the_server_with_an_error_naming_the_parameter(
    tool: str, name: str, keyword: str, value: Any
) -> None:
    """S-93: a value past a bound the model may never have seen is refused `VALIDATION` naming the parameter
    (nothing sent), or, for a wait, brought down to its maximum, which the answer says (`clamped`)."""
    spec = build_toolkit(Settings(), Redactor()).specs[tool]
    try:
        judged = spec.arguments.judge(required(tool) | {name: value})
    except ToolFailure as refused:
        assert refused.code == "VALIDATION" and f"{name}: " in refused.message, refused.message
        return
    assert keyword == "maximum" and judged.clamped == {name: value - 1}, (tool, name, keyword)


@pytest.mark.parametrize(("tool", "name"), sorted(NAMED))
def test_the_bounds_that_change_what_a_model_sends_are_named_in_the_description(tool: str, name: str) -> None:
    """S-93: Codex's model reads descriptions but not the bound keywords: the page sizes, waits, slices and
    name length are said in words, matching the schema."""
    [listed] = [listed for listed in tools() if listed["name"] == tool]
    description = listed["inputSchema"]["properties"][name].get("description", "")
    schema = ENFORCED[tool]["properties"][name]
    assert all(words in description for words in NAMED[(tool, name)]), (tool, name, description)
    for words in NAMED[(tool, name)]:  # a range named is the schema's, and so is a length or a count
        low, _, high = words.partition("-")
        if high:
            assert (int(low), int(high)) == (schema["minimum"], schema["maximum"]), (tool, name)
        elif words.isdigit():
            assert int(words) == schema.get("maxLength", schema.get("maxItems")), (tool, name)


async def _sample(
    flag: bool = False,
    offset: Annotated[int, Field(ge=0)] = 0,
    name: Annotated[str | None, Field(max_length=100)] = None,
    title: Annotated[str, Field(min_length=1)] = "x",
    default: int = 7,
) -> None:
    """A tool with every kind of schema noise, and parameters named like schema keywords."""


def test_the_catalogue_schema_drops_noise_while_the_guard_still_enforces_it_k_61() -> None:
    """K-61: the listed schema shows no implied default, length guard or `additionalProperties: false`, keeps
    parameters named `title` or `default` and a default that says something; the strict model still refuses
    an unknown name and a name over its length, naming them."""
    arguments = StrictArguments(_sample)
    listed = arguments.schema()
    assert "additionalProperties" not in listed
    assert listed["properties"]["flag"] == {"type": "boolean"}
    assert listed["properties"]["offset"] == {"minimum": 0, "type": "integer"}
    assert listed["properties"]["name"] == {"type": "string"}
    assert listed["properties"]["title"] == {"default": "x", "type": "string"}
    assert listed["properties"]["default"] == {"default": 7, "type": "integer"}
    assert enforced_schema(arguments.model().model_json_schema())["properties"]["name"]["maxLength"] == 100
    for bad, named in (({"unknown": 1}, "unknown: unknown argument"), ({"name": "a" * 101}, "name: ")):
        with pytest.raises(ToolFailure) as refused:
            arguments.judge(bad)
        assert refused.value.code == "VALIDATION" and named in refused.value.message
