"""How deep a JSON text nests, and the top-level members of one too deep to parse, both without recursion.

A message is judged here before it is parsed: Python's JSON parser recurses once per level (a message
nested 1,000 levels raises `RecursionError`), and the SDK's parser refuses past 200 levels without a
word. Both reads walk the text with regular expressions, one step per string or per run of brackets,
so neither the depth nor the length of a line can exhaust the stack.
"""

from __future__ import annotations

import json
import re

MAX_DEPTH = 64
"""The deepest nesting a message may have (the message object is level 1). The deepest the tools read is 5
(arguments, a list of repositories, one repository); 64 leaves any client's `_meta` room, and keeps every
later step (parsing, cleaning, validation) far under Python's recursion limit and under the 200 levels
past which the SDK's own parser (pydantic-core) drops a line unanswered."""

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_RUN = re.compile(r"[\[{]+|[\]}]+")
# At the top level, each key, colon and comma matters; inside a nested value, only strings and bracket runs do.
_TOP_TOKEN = re.compile(_STRING.pattern + r"|[\[{]+|[\]}]|[:,]")
_INNER_TOKEN = re.compile(_STRING.pattern + r"|[\[{]+|[\]}]+")
NESTED = object()
"""The value of a top-level member that is an array or an object (not read: it may be what is too deep)."""


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON `text` nests deeper than `limit` levels (brackets inside strings do not count).

    Text that is not JSON may be judged too deep where a parser would stop at its first error; it is
    refused either way. Never judged shallower than a parser would find it before its first error."""
    if text.count("[") + text.count("{") <= limit:  # the common case, at the speed of `str.count`
        return False
    skeleton = _outside_strings(text)
    if skeleton.count("[") + skeleton.count("{") <= limit:
        return False
    level = 0
    for run in _RUN.finditer(skeleton):
        brackets = run.group()
        level += len(brackets) if brackets[0] in "[{" else -len(brackets)
        if level > limit:
            return True
    return False


def _outside_strings(text: str) -> str:
    """What of the JSON `text` lies outside its strings, with `str` methods only (a regular expression walks a
    long prompt ten times slower): escaped backslashes, then escaped quotes, go first, and then every other
    piece between quotes is outside."""
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    return "".join(unescaped.split('"')[0::2])


def top_level_members(text: str) -> dict[str, object]:
    """The members of the JSON object `text` holds, read without descending into its values: a scalar value
    parsed, an array or object as NESTED. Reading stops at the first thing that is not JSON (what was read
    so far is returned); a text that is not an object gives {}."""
    members: dict[str, object] = {}
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        return members
    position = len(text) - len(stripped) + 1
    while (key := _key_at(text, position)) is not None:
        name, position = key
        value = _value_at(text, position)
        if value is None:
            return members
        members[name], position = value
        separator = _TOP_TOKEN.search(text, position)
        if separator is None or separator.group() != ",":
            return members
        position = separator.end()
    return members


def _key_at(text: str, position: int) -> tuple[str, int] | None:
    """The member name at `position` and where its value starts (after the colon), or None."""
    key = _TOP_TOKEN.search(text, position)
    if key is None or not key.group().startswith('"') or text[position : key.start()].strip():
        return None
    colon = _TOP_TOKEN.search(text, key.end())
    if colon is None or colon.group() != ":" or text[key.end() : colon.start()].strip():
        return None
    return json.loads(key.group()), colon.end()


def _value_at(text: str, position: int) -> tuple[object, int] | None:
    """The value at `position` (parsed when scalar, NESTED when a container) and where it ends, or None."""
    token = _TOP_TOKEN.search(text, position)
    if token is None:
        return None
    if token.group()[0] in "[{":
        end = _end_of_nested(text, token)
        return None if end is None else (NESTED, end)
    # A scalar: everything up to the next comma or closing brace of the top level.
    while token is not None and token.group() not in (",", "}"):
        token = _TOP_TOKEN.search(text, token.end())
    if token is None:
        return None
    try:
        return json.loads(text[position : token.start()]), token.start()
    except ValueError:
        return None


def _end_of_nested(text: str, opening: re.Match[str]) -> int | None:
    """Where the array or object whose opening brackets `opening` matched ends (None: it never does)."""
    level = len(opening.group())
    position = opening.end()
    while level > 0:
        token = _INNER_TOKEN.search(text, position)
        if token is None:
            return None
        brackets = token.group()
        if brackets[0] in "[{":
            level += len(brackets)
        elif brackets[0] in "]}":
            if len(brackets) > level:  # the run closes this value, then more: where this value ends is inside it
                return token.start() + level
            level -= len(brackets)
        position = token.end()
    return position
