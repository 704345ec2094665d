"""The text of an answer laid out in lines of at most 2,000 characters, still the same JSON.

A client that finds an answer too long for its model saves it to a file and lets the model read that
file line by line: OpenCode past its `tool_output.max_bytes` (51,200 bytes by default), cutting each line
read at 2,000 characters (docs/clients.md). Compact JSON is one line, so all but its first 2,000
characters would be lost. So an answer longer than one line is broken between JSON tokens (where
whitespace is allowed), each line filled up to `LINE_CHARS`: `json.loads` of the text gives exactly the
`structuredContent` object, it costs one byte per line (0.05%), and an answer of a single line is
unchanged. The one line that can be longer is a single JSON string over 2,000 characters (an agent's
text); the tools that return long text page it (`result_limit`, `limit`, with the offset to read on).
"""

from __future__ import annotations

import json
from typing import Any

LINE_CHARS = 2_000
"""The longest line of an answer's text (but for one JSON string longer than that)."""
_TOKENS = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""Its `iterencode` (the pure-Python encoder) yields whole tokens, so a break between two pieces is legal JSON."""


def text_lines(data: Any) -> str:
    """`data` as compact JSON, broken into lines of at most LINE_CHARS characters between tokens."""
    compact = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if len(compact) <= LINE_CHARS:
        return compact
    lines: list[str] = []
    line: list[str] = []
    length = 0
    for piece in _TOKENS.iterencode(data):
        if length and length + len(piece) > LINE_CHARS:
            lines.append("".join(line))
            line, length = [], 0
        line.append(piece)
        length += len(piece)
    lines.append("".join(line))
    return "\n".join(lines)
