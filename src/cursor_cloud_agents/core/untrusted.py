"""Cleaning of text the remote agent produced before it reaches the calling model.

A Cloud Agent's result, events, branch names and artifacts are data, not instructions. Text can
hide instructions from a human reviewer with invisible or direction-changing characters, so they
are removed: zero-width and format characters, bidi overrides and isolates, Unicode tag characters
(used to smuggle ASCII), variation selectors, lone surrogates, and C0/C1 control characters other than newline and
tab (ANSI escapes start with one). Text that a client rendering Markdown would turn into a request
or a script is neutralised but kept readable (docs/reliability.md P-03): a Markdown image `![alt](url)`
becomes `image alt: url` (an image is fetched on sight, and its URL can carry data out), a link whose
scheme is not http(s) or mailto becomes `text (target)`, and the `<` of an HTML tag that fetches or
runs something (`img`, `script`, `iframe`, `svg`, ...) becomes `&lt;`. Plain https links stay links:
rendering one fetches nothing. Where an image's syntax is bent past what the patterns take whole (nested,
bracketed or broken across lines), every `](` becomes `] (`: no inline image or link is left at all. The
cleaning is idempotent: `clean(clean(x)) == clean(x)`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

_HIDDEN = re.compile(
    "["
    "\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 and C1 controls except \t and \n (\r is dropped too)
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb"
    "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U000e0000-\U000e007f\U000e0100-\U000e01ef"
    "\ud800-\udfff"  # lone surrogates (a JSON escape can carry one): they cannot even be encoded as UTF-8
    "]"
)


_IMAGE = re.compile(r"!\[([^\]\n]{0,500})\]\(([^)\s]{0,2000})[^)\n]{0,500}\)")
_LINK = re.compile(r"\[([^\]\n]{0,500})\]\((?!\s*(?:https?://|mailto:|#|/))([^)\n]{0,2000})\)", re.IGNORECASE)
_ACTIVE_TAG = re.compile(
    r"<(?=\s*/?\s*(?:img|image|script|iframe|frame|object|embed|svg|math|video|audio|source|track|link|style"
    r"|meta|base|form|input|button|body|details|marquee)\b)",
    re.IGNORECASE,
)


def strip_hidden(text: str) -> str:
    """`text` without invisible, bidi-control, tag or control characters (newlines and tabs kept)."""
    return _HIDDEN.sub("", text)


def clean(text: str) -> str:
    """`text` without invisible, bidi-control, tag or control characters (newlines and tabs kept), with its
    Markdown images, non-web links and active HTML tags made inert."""
    text = strip_hidden(text)
    if "](" in text:
        text = _inert_markdown(text)
        if ("![" in text and "](" in text) or _inert_markdown(text) != text:
            # Syntax the patterns do not take whole (an image inside an image's text, brackets or a line break in
            # an alt, an alt past 500 characters) may still be an image, or become one: then no `](` is left at
            # all, so no inline image or link survives in any form, and cleaning again changes nothing.
            text = text.replace("](", "] (")
    return _ACTIVE_TAG.sub("&lt;", text) if "<" in text else text


def _inert_markdown(text: str) -> str:
    """`text` with its Markdown images written as plain text and its links to other than the web unlinked."""
    text = _IMAGE.sub(lambda m: f"image {m.group(1)}: {m.group(2)}", text)
    return _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)


def clean_data(data: Any, cleaner: Callable[[str], str] = clean) -> Any:
    """A copy of a JSON-like structure with every string (keys included) cleaned by `cleaner`."""
    if isinstance(data, str):
        return cleaner(data)
    if isinstance(data, dict):
        items = cast(dict[Any, Any], data).items()
        return {cleaner(str(key)): clean_data(value, cleaner) for key, value in items}
    if isinstance(data, list | tuple):
        return [clean_data(item, cleaner) for item in cast(list[Any], data)]
    return data


CLIP_CHARS = 500
"""A single agent text fragment (or a result text) longer than this is clipped and flagged."""


def clip(text: str, limit: int = CLIP_CHARS) -> tuple[str, bool]:
    """`text` cut to `limit` characters, and whether it was cut."""
    return (text, False) if len(text) <= limit else (text[:limit] + "…", True)
