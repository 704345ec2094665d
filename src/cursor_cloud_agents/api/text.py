"""Checks of free text before it goes into a request: one line of visible text, a token, an artifact path.

A value that goes into a URL, a query or a header is refused whole, never escaped, when it holds a control
character (NUL, CR, LF and the rest of C0 and C1), an invisible format character (bidi embeddings,
overrides and isolates, zero-width characters, tag characters), a line or paragraph separator, or a lone
surrogate. Escaped, such a value costs a request and comes back as a confusing upstream error; shown, it
can hide what it says. Unicode's own categories decide (the stdlib's `unicodedata`), not a list of ours:
Cc, Cf, Cs, Zl and Zp. A token (a page cursor, a URL, a model id) is narrower still: visible ASCII only.
These raise `ValueError` naming the value and the first character at fault; the MCP layer checks the same
rules first and answers VALIDATION.
"""

from __future__ import annotations

import unicodedata

_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
ARTIFACT_PATH_MAX_CHARS = 1024


def unsafe_character(text: str) -> str | None:
    """The first character that has no place in one line of text, described (`a control character U+000A`), or
    None when there is none."""
    for char in text:
        kind = _REFUSED.get(unicodedata.category(char))
        if kind is not None:
            return _described(kind, char)
    return None


def _described(kind: str, char: str) -> str:
    return f"{kind} (U+{ord(char):04X})"


def one_line(value: str, what: str) -> str:
    """`value` when it is one line of visible text (any script).

    Raises:
        ValueError: it holds a control, format or separator character, or a lone surrogate.
    """
    found = unsafe_character(value)
    if found is not None:
        raise ValueError(f"{what} holds {found}; pass it without control, invisible or bidi characters")
    return value


def is_token(value: str) -> bool:
    """Whether `value` is visible ASCII only (U+0021 to U+007E)."""
    return all("!" <= char <= "~" for char in value)


def token(value: str, what: str) -> str:
    """`value` when it is visible ASCII only (U+0021 to U+007E), as page cursors, URLs and model ids are.

    Raises:
        ValueError: it holds a space, a control character or a character outside ASCII.
    """
    for char in value:
        if not "!" <= char <= "~":
            kind = _REFUSED.get(unicodedata.category(char)) or ("a space" if char == " " else "a non-ASCII character")
            raise ValueError(f"{what} holds {_described(kind, char)}; it is visible ASCII only")
    return value


def artifact_path(value: str) -> str:
    """`value` when it is a file path under `artifacts/` as the API lists them: relative, no empty, `.` or `..`
    step, no backslash, one line of visible text, at most 1024 characters.

    Raises:
        ValueError: any of these does not hold.
    """
    parts = value.split("/")
    if (
        len(value) > ARTIFACT_PATH_MAX_CHARS
        or parts[0] != "artifacts"
        or len(parts) < 2
        or any(part in ("", ".", "..") for part in parts)
        or "\\" in value
        or unsafe_character(value) is not None
    ):
        raise ValueError(
            "an artifact path is a file path under artifacts/ (as the artifact list shows it), without empty, "
            f"'.' or '..' steps, backslashes, control or invisible characters, at most {ARTIFACT_PATH_MAX_CHARS} "
            "characters"
        )
    return value
