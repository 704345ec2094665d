"""The client's checks of free text before it goes into a request (`api.text`, issue 23): defence in depth
under the MCP layer's VALIDATION, so a caller of the client alone cannot send a control character either."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import text
from tests.api.helpers import AGENT, Recorder, json_response, make_client

HIDING = ["\x00", "\r", "\n", "\x1b", "\x7f", "\x85", "\u202e", "\u2066", "\u200b", "\ufeff", "\u2028", "\ud800"]


@pytest.mark.parametrize("char", HIDING, ids=[f"U+{ord(c):04X}" for c in HIDING])
def test_one_line_refuses_every_control_format_separator_and_surrogate(char: str) -> None:
    """P-10: Unicode's categories Cc, Cf, Zl, Zp and Cs; the message names the character by its code point."""
    with pytest.raises(ValueError, match=f"U\\+{ord(char):04X}"):
        text.one_line(f"ab{char}cd", "name")


def test_one_line_keeps_every_script_and_a_token_is_visible_ascii() -> None:
    """P-10: names may be in any script (and keep spaces); tokens may not hold a space or leave ASCII."""
    assert text.one_line("Corriger le café 修正 ✓", "name") == "Corriger le café 修正 ✓"
    assert text.token("https://github.com/o/r/pull/1?x=%20", "pr_url")
    for bad in ("a b", "café", "a\tb"):
        with pytest.raises(ValueError, match="visible ASCII"):
            text.token(bad, "cursor")


@pytest.mark.parametrize(
    "path",
    [
        "artifacts/../secret",
        "artifacts/./a",
        "artifacts//a",
        "artifacts/",
        "artifacts/a\\b",
        "artifacts/a\u202egnp.exe",
        "artifacts/a\x1b[2Jb",
        "/opt/cursor/artifacts/a",
        "artifacts/" + "a" * 1100,
    ],
)
def test_an_artifact_path_is_a_file_under_artifacts_and_one_line(path: str) -> None:
    """P-12: one rule for the tool, the terminal and the client: no step up or aside, no hidden characters."""
    with pytest.raises(ValueError, match="artifact path"):
        text.artifact_path(path)


@pytest.mark.anyio
async def test_the_client_refuses_a_query_value_outside_visible_ascii_before_sending() -> None:
    """P-10: `list_agents(cursor=..., pr_url=...)` with CR LF or a bidi override raises, and nothing is sent."""
    recorder = Recorder(json_response(200, {"items": []}))
    async with make_client(recorder) as client:
        with pytest.raises(ValueError, match="query parameter cursor"):
            await client.list_agents(cursor="c\r\nX: y")
        with pytest.raises(ValueError, match="query parameter prUrl"):
            await client.list_agents(pr_url="https://github.com/o/r/pull/1\u202e")
        with pytest.raises(ValueError, match="artifact path"):
            await client.artifact_download(AGENT, "artifacts/a\x00b")
        await client.list_agents(cursor="c-1", pr_url="https://github.com/o/r/pull/1")
    assert len(recorder.requests) == 1
