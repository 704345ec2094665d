"""Every free text sent upstream under the prompt's rule set (issue 34): P-85.

A lone surrogate reaches a tool two ways: as a JSON escape the strict argument model refuses (the in-memory
transport), or, on stdio, as the U+FFFD the wire writes in its place so the SDK can read the message
(`server/protocol/wire.py`). Before, the second way sent a name, an environment name or a branch holding U+FFFD
upstream in the paid POST, and `cursor_list_repositories` took a 1 MB query. Each call here goes through the
wire's own admission first, then the server over the MCP client, against the simulator's request log.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cursor_cloud_agents.core import texts
from cursor_cloud_agents.server.protocol.wire import admit
from tests.tool_harness import open_harness

pytestmark = pytest.mark.anyio

REPO = "https://github.com/acme/service"
NAMED = {"prompt": "Fix the failing test", "name": "nightly"}


def through_the_wire(tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The arguments as the server's stdio wire hands them to the SDK (lone surrogate escapes as U+FFFD)."""
    line = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
    )
    forwarded, answered = admit(line.encode())
    assert forwarded is not None and answered == []
    return json.loads(forwarded)["params"]["arguments"]


CASES: list[tuple[str, dict[str, Any], str]] = [
    ("cursor_create_agent", {"prompt": "Fix the failing test", "name": "fix\ud800"}, "name"),
    ("cursor_create_agent", {"prompt": "Fix it", "env_type": "pool", "env_name": "gpu\udfff"}, "env_name"),
    ("cursor_create_agent", {"prompt": "Fix it", "env_type": "pool", "env_name": "g" * 1_000_000}, "env_name"),
    ("cursor_create_agent", {"prompt": "Fix it", "repository": REPO, "starting_ref": "ma\ud83din"}, "starting_ref"),
    ("cursor_create_agent", {"prompt": "Fix it", "repository": REPO + "\ud800"}, "repository"),
    ("cursor_create_agent", {"prompt": "Fix it", "repositories": [{"url": REPO, "starting_ref": "b\udc00"}]}, "ref"),
    ("cursor_create_agent", {"prompt": "Fix\x00 the test"}, "control character"),
    ("cursor_create_agent", {"prompt": "Fix \x1b[31mthe test"}, "control character"),
    ("cursor_create_agent", NAMED | {"env_vars": {"TOKEN": "abc\x00def"}}, "value of TOKEN"),
    ("cursor_create_run", {"agent_id": "bc-00000000-0000-4000-8000-000000000001", "prompt": "Go\x07 on"}, "control"),
    ("cursor_list_repositories", {"query": "acme\ud800"}, "query"),
    ("cursor_list_repositories", {"query": "x" * 1_000_000}, "query"),
    ("cursor_list_agents", {"name": "night\udbff"}, "name"),
]


@pytest.mark.parametrize(("tool", "arguments", "rule"), CASES, ids=[f"{t}-{i}" for i, (t, _, _) in enumerate(CASES)])
async def test_a_text_field_breaking_the_rule_set_is_refused_before_any_request(
    tool: str, arguments: dict[str, Any], rule: str
) -> None:
    """P-85 (issue 34): VALIDATION naming the field or the rule, and the simulator received nothing."""
    async with open_harness() as h:
        reply = await h.call(tool, through_the_wire(tool, arguments))
        sent = h.requests()
    assert reply.code == "VALIDATION", reply.data
    assert rule in reply.data["message"] and sent == []


async def test_a_name_with_a_lone_surrogate_sent_on_stdio_creates_nothing() -> None:
    """P-85, the issue's acceptance: cursor_create_agent with a lone surrogate in `name` answers VALIDATION and
    no POST leaves (before: the POST left with U+FFFD in the name)."""
    arguments = through_the_wire("cursor_create_agent", {"prompt": "Fix the failing test", "name": "nightly \ud83d"})
    async with open_harness() as h:
        reply = await h.call("cursor_create_agent", arguments)
        posted = h.requests("POST")
    assert reply.code == "VALIDATION" and "name" in reply.data["message"] and posted == []


async def test_whole_characters_of_any_script_pass_the_rule_set() -> None:
    """P-85, the other side: a name in any script with an emoji (a surrogate pair on the wire, one character
    here), and a prompt with newlines, tabs and U+FFFD pasted from a log, are sent."""
    arguments = through_the_wire(
        "cursor_create_agent",
        {"prompt": "Fix it:\n\tlog: caf\ufffd\r\n", "name": "nuit \U0001f319 \u65e5\u672c", "repository": REPO},
    )
    async with open_harness() as h:
        reply = await h.call("cursor_create_agent", arguments)
        posted = [record.json() for record in h.requests("POST")]
    assert not reply.is_error, reply.data
    assert posted[0]["name"] == "nuit \U0001f319 \u65e5\u672c" and "caf\ufffd" in posted[0]["prompt"]["text"]


@pytest.mark.parametrize(
    ("value", "problem"),
    [("", "blank"), (" \n", "blank"), ("a\x00", "U+0000"), ("a\ud800", "lone surrogate"), ("a" * 300_000, "bytes")],
)
def test_the_prompt_rule_names_what_is_wrong(value: str, problem: str) -> None:
    """P-85: one function for every prompt (the tools' and the terminal's), each refusal saying why."""
    with pytest.raises(ValueError, match=re.escape(problem)):
        texts.prompt(value)


@pytest.mark.parametrize(
    ("value", "passes"),
    [
        ("a" * texts.PROMPT_MAX_BYTES, True),
        ("a" * (texts.PROMPT_MAX_BYTES + 1), False),
        ("\u00e9" * (texts.PROMPT_MAX_BYTES // 2), True),  # two bytes each: the cap is bytes, not characters
        ("\u00e9" * (texts.PROMPT_MAX_BYTES // 2) + "a", False),
        ("line\r\n\tindented", True),
        ("a\x7f", False),  # DEL is a control character too
        ("a\x1b[2J", False),
        ("a\x85", False),  # C1 controls as well
    ],
    ids=["at the cap", "one over", "multi-byte at the cap", "multi-byte one over", "cr lf tab", "del", "esc", "c1"],
)
def test_the_prompt_cap_is_in_utf8_bytes_and_only_tab_and_line_breaks_pass_among_controls_p_85(
    value: str, passes: bool
) -> None:
    """P-85 at its edges: exactly PROMPT_MAX_BYTES of UTF-8 passes and one byte more does not, counted in bytes
    for any script; tab, CR and LF are the only control characters a prompt may hold."""
    if passes:
        assert texts.prompt(value) == value
    else:
        with pytest.raises(ValueError, match="bytes|control character"):
            texts.prompt(value)


@pytest.mark.parametrize(("length", "passes"), [(100, True), (101, False)])
def test_a_one_line_text_at_its_limit_passes_and_one_character_more_does_not_p_85(length: int, passes: bool) -> None:
    """P-85: `one_line`'s limit counts characters and includes the limit itself; U+FFFD (a character lost on the
    way) is refused whatever the length."""
    value = "\u65e5" * length
    if passes:
        assert texts.one_line(value, "the name", 100) == value
    else:
        with pytest.raises(ValueError, match="over 100 characters"):
            texts.one_line(value, "the name", 100)
    with pytest.raises(ValueError, match="U\\+FFFD"):
        texts.one_line("caf\ufffd", "the name", 100)
