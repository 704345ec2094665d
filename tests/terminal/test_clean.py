"""Agent text on the terminal: escape sequences, hidden and control characters removed; rich markup shown as written."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.terminal.clean import agent_text, for_terminal, for_terminal_data
from tests.terminal.conftest import recording_console


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("\x1b[31mred\x1b[0m text", "red text"),  # SGR colour
        ("line\x1b[2J\x1b[H\x1b[1A over", "line over"),  # erase screen, home, cursor up
        ("\x1b[8mhidden\x1b[28m shown", "hidden shown"),  # conceal: the text stays, visible
        ("\x1b]0;pwned title\x07after", "after"),  # OSC 0: window title (BEL)
        ("\x1b]2;title\x1b\\after", "after"),  # OSC 2 ended by ST
        ("\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\", "click"),  # OSC 8 hyperlink
        ("\x1b]52;c;aGVsbG8=\x07copied", "copied"),  # OSC 52: write to the clipboard
        ("\x9b31mC1 CSI\x9b0m", "C1 CSI"),  # one-byte CSI
        ("\x9d0;title\x9cC1 OSC", "C1 OSC"),  # one-byte OSC ended by one-byte ST
        ("\x90qsixel\x9cDCS", "DCS"),  # one-byte DCS string
        ("\x1bPq#0;2;0;0;0\x1b\\sixel", "sixel"),  # DCS (sixel graphics)
        ("\x1b_apc\x1b\\\x1b^pm\x1b\\APC PM", "APC PM"),
        ("\x1bcreset\x1b(0charset", "resetcharset"),  # RIS and a charset switch
        ("tab\tand\nnewline kept\r", "tab\tand\nnewline kept"),
        ("zero\u200bwidth \u202eevil", "zerowidth evil"),  # the server's cleaning still applies
        ("a lone \x1b", "a lone "),
    ],
)
def test_escape_sequences_in_agent_text_are_removed_whole(hostile: str, shown: str) -> None:
    """Issue 14: an agent cannot move the cursor, set the title, link elsewhere or hide text in the terminal."""
    assert for_terminal(hostile) == shown


def test_rich_markup_in_agent_text_is_shown_literally() -> None:
    """Issue 14: agent text is rich `Text`, never markup: `[red]` and `:smile:` appear as written."""
    console = recording_console()
    console.print(agent_text("[red]alarm[/red] [link=https://x.example]y[/link] :smile:"))
    assert console.export_text().strip() == "[red]alarm[/red] [link=https://x.example]y[/link] :smile:"


def test_the_cleaning_is_idempotent_and_reaches_nested_json() -> None:
    """JSON output carries agent text too: every string of a document is cleaned, keys included."""
    dirty = {"a\x1b[1m": ["\x1b]0;t\x07x", {"k": "\x9b2Jy"}], "n": 3}
    cleaned = for_terminal_data(dirty)
    assert cleaned == {"a": ["x", {"k": "y"}], "n": 3}
    assert for_terminal_data(cleaned) == cleaned


@pytest.mark.parametrize(
    ("hostile", "shown"),
    [
        ("shown \x1bPnever ended, still shown", "shown Pnever ended, still shown"),  # DCS without its ST
        ("\x1b]0;no terminator, then the answer", "]0;no terminator, then the answer"),  # OSC without BEL/ST
        ("\x9d0;C1 OSC, unterminated", "0;C1 OSC, unterminated"),
        ("before \x1b_APC, unterminated", "before _APC, unterminated"),
        ("\x98SOS, unterminated", "SOS, unterminated"),
    ],
)
def test_an_unterminated_string_sequence_hides_nothing_after_it(hostile: str, shown: str) -> None:
    """Regression: a string sequence (OSC, DCS, SOS, PM, APC) counts only with its terminator; without it only
    the introducing byte goes, so an agent cannot hide the rest of its text behind a lone `ESC P`."""
    assert for_terminal(hostile) == shown


def test_markdown_and_html_in_agent_text_reach_the_terminal_as_written() -> None:
    """Regression: the Markdown/HTML neutralising is for clients that render Markdown; a terminal shows the
    text as the agent wrote it (`<img>` stays `<img>`, an image link stays a link)."""
    written = "See <img src=x> and ![chart](https://x.example/c.png) or [run](javascript:go())."
    assert for_terminal(written) == written
