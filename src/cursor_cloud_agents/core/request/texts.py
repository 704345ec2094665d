"""Every free text sent upstream, under one rule set, checked before the first request.

A text field is refused whole (never cleaned, never cut) when it holds what has no place in it, with a
message naming the field and the rule; nothing is sent. Two shapes:

- a prompt (a new agent's, a follow-up's): prose of any length up to PROMPT_MAX_BYTES of UTF-8, lines and tabs
  allowed; not blank; no lone surrogate (half of a UTF-16 pair, which a JSON escape or a terminal's undecodable
  argument can carry) and no other control character (NUL, ESC, the rest of C0 and C1);
- one line (an agent's name, a cloud environment or pool name, a branch, a repository URL or query, a filter):
  the `api.text` rule (no control, invisible format, bidi or separator character, no lone surrogate), no
  U+FFFD, and a bound per field.

U+FFFD is refused in one line because it is what a lone surrogate becomes on the stdio wire (which writes
each as U+FFFD so the SDK can read the message; `server/protocol/wire.py`) and what undecodable bytes become: in a
name or a branch it stands for a character lost on the way, and the agent would be found again under
another name. A prompt keeps it: prose pasted from a log holds U+FFFD honestly, and Cursor reads it as text.

The MCP face checks these in its argument types (`server/pipeline/params.py`) and in
`core/request/creation.py`; the terminal
in its argument types (`terminal/options.py`); and every face's request, the SDK's too, is built through
`core/request/builder.py`, which applies them again: the same functions, the same messages.
"""

from __future__ import annotations

import unicodedata

from cursor_cloud_agents.api import text

PROMPT_MAX_BYTES = 256 * 1024
"""The largest prompt sent (the API documents none): generous for instructions, far below a pasted dump."""
NAME_MAX_CHARS = 100
"""An agent's name: it is shown in every listing and matched by `name` filters."""
ENV_NAME_MAX_CHARS = 255
"""A cloud environment or pool name (the API's own are a few dozen characters)."""
QUERY_MAX_CHARS = 500
"""A filter over repositories or agents, matched locally: a URL or a name is far shorter."""
LOST = "\N{REPLACEMENT CHARACTER}"
_PROSE_CONTROLS = frozenset("\t\n\r")


def prompt(value: str, what: str = "the prompt") -> str:
    """`value` when it is a prompt worth paying for.

    Raises:
        ValueError: blank, over PROMPT_MAX_BYTES, or holding a lone surrogate or a control character other
            than tab, newline and carriage return.
    """
    if not value.strip():
        raise ValueError(f"{what} is blank")
    if len(value.encode("utf-8", "surrogatepass")) > PROMPT_MAX_BYTES:
        raise ValueError(f"{what} is over {PROMPT_MAX_BYTES} bytes; put long material in the repository instead")
    for char in value:
        kind = unicodedata.category(char)
        if kind == "Cs" or (kind == "Cc" and char not in _PROSE_CONTROLS):
            described = "a lone surrogate" if kind == "Cs" else "a control character"
            raise ValueError(
                f"{what} holds {described} (U+{ord(char):04X}); send whole characters, without control characters "
                "other than newlines and tabs"
            )
    return value


def one_line(value: str, what: str, max_chars: int) -> str:
    """`value` when it is one line of visible text (any script) of at most `max_chars` characters.

    Raises:
        ValueError: too long, or holding a control, invisible format, bidi or separator character, a lone
            surrogate, or U+FFFD.
    """
    if len(value) > max_chars:
        raise ValueError(f"{what} is over {max_chars} characters")
    text.one_line(value, what)
    if LOST in value:
        raise ValueError(
            f"{what} holds U+FFFD, a character lost on the way (a lone surrogate or bytes that were not UTF-8); "
            "send whole characters"
        )
    return value
