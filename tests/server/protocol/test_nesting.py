"""Depth judged without recursion (issue 23, B-14): `too_deep` and `top_level_members` called directly; the wire's
answer to a message too deep is in `test_wire.py`."""

from __future__ import annotations

import json

from cursor_cloud_agents.server.protocol.nesting import MAX_DEPTH, NESTED, too_deep, top_level_members
from tests.server.protocol.test_wire import nested


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    """B-14: a prompt full of brackets is text, not nesting."""
    text = json.dumps({"prompt": "[" * 10_000 + "{" * 10_000 + '\\"['})
    assert not too_deep(text)
    assert too_deep("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert not too_deep("[" * MAX_DEPTH + "]" * MAX_DEPTH)


def test_the_top_level_members_of_a_deep_object_are_read_without_descending() -> None:
    """B-14: the id, method and shape of a message too deep to parse are read from its top level only."""
    deep = nested(100_000, "[")
    text = '{"a": ' + deep + ', "method": "tools/call", "params": {"id": 7}, "id": 12, "b": "x,}"}'
    assert top_level_members(text) == {"a": NESTED, "method": "tools/call", "params": NESTED, "id": 12, "b": "x,}"}
    assert top_level_members("[1]") == {}
    assert top_level_members('{"id": 3, "x": [[1]], "y": [') == {"id": 3, "x": NESTED}
