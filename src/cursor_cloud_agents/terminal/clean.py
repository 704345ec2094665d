"""Agent text made safe for a terminal: escape sequences removed, then hidden and control characters.

A terminal obeys escape sequences: an agent could move the cursor over earlier lines, set the window
title, write a hyperlink whose target differs from its text, or hide text. So every whole sequence
goes first (CSI, OSC, DCS/SOS/PM/APC strings, other two-byte escapes, and their one-byte C1 forms),
then `untrusted.strip_hidden` removes the hidden, bidi and control characters left (an ESC or C1
byte not part of a whole sequence included). A string sequence counts only with its terminator: an
unterminated one loses its introducing byte, and the text after it stays on screen. Nothing else is
rewritten: the Markdown and HTML neutralising of `untrusted.clean` is for clients that render
Markdown, and a terminal shows `<img>` as written. Agent text reaches the screen only as a rich
`Text` built from the result (`agent_text`), never through rich markup, so `[red]` in an agent's
answer is shown as written.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from cursor_cloud_agents.core import clean_data, strip_hidden

_ESCAPE_SEQUENCE = re.compile(
    r"""
      \x1b\[[0-?]*[ -/]*[@-~]?              # CSI: cursor moves, colours, erasing
    | \x9b[0-?]*[ -/]*[@-~]?                # CSI, one-byte C1 form
    | \x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)    # OSC: window title, hyperlinks, clipboard
    | \x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)      # OSC, one-byte C1 form
    | \x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)         # DCS, SOS, PM, APC strings
    | [\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c) # the same, one-byte C1 forms
    | \x1b[ -/]*[0-OQ-WY-\\`-~]?            # any other escape (charset, keypad, reset); not a string's start
    """,
    re.VERBOSE,
)


def for_terminal(text: str) -> str:
    """`text` without terminal escape sequences, hidden or control characters (newlines and tabs kept)."""
    return strip_hidden(_ESCAPE_SEQUENCE.sub("", text))


def agent_text(text: str, style: str = "") -> Text:
    """Agent-produced `text` as rich `Text`: cleaned, and never parsed as markup."""
    return Text(for_terminal(text), style=style)


def for_terminal_data(data: Any) -> Any:
    """A copy of a JSON-like structure with every string (keys included) cleaned for the terminal."""
    return clean_data(data, for_terminal)
