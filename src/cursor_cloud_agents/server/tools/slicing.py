"""Fitting long agent text (a result, an artifact, a message) into an answer under the byte cap.

The toolkit cleans, masks and serialises every answer, then refuses one over
`max_result_bytes`. These helpers do the same preparation first and measure it, so that a tool can
give its text exactly the room the rest of the answer leaves. Text is cleaned and masked whole
before it is cut: a secret can never be split across two slices and escape the mask, and offsets
stay stable from one call to the next.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, cast

from cursor_cloud_agents.server import failures
from cursor_cloud_agents.server.failures import ToolFailure
from cursor_cloud_agents.server.toolkit import Toolkit, encoded_size
from cursor_cloud_agents.server.untrusted import clean_data

# Bytes kept free for what measuring cannot foresee (a short secret masked anew inside a slice).
SAFETY_BYTES = 64
# Below this much room for a text, a window stops rather than return slivers.
MIN_TEXT_BYTES = 200
_SURROGATE = re.compile(r"[\ud800-\udfff]")
_ESCAPED = {'"': 2, "\\": 2, "\n": 2, "\r": 2, "\t": 2, "\b": 2, "\f": 2}


def prepare(kit: Toolkit, data: Any) -> Any:
    """`data` as the toolkit will send it: cleaned of hidden characters and masked (idempotent).

    Lone surrogates (a JSON `\\ud800` escape decodes to one) cannot be encoded as UTF-8 and would
    break the answer: they become U+FFFD first.
    """
    return kit.redactor.mask_data(clean_data(_encodable(data)))


def prepare_text(kit: Toolkit, text: str) -> str:
    """One text prepared as `prepare` does."""
    return cast(str, prepare(kit, text))


def _encodable(data: Any) -> Any:
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:
            return _SURROGATE.sub("\N{REPLACEMENT CHARACTER}", data)
        return data
    if isinstance(data, dict):
        items = cast(dict[str, Any], data).items()
        return {_encodable(key): _encodable(value) for key, value in items}
    if isinstance(data, list | tuple):
        return [_encodable(item) for item in cast(list[Any], data)]
    return data


def size_of(data: Any) -> int:
    """Bytes of `data` once serialised as the toolkit does (compact, UTF-8, nulls dropped)."""
    return encoded_size(data)


def char_cost(char: str) -> int:
    """Bytes one character takes inside a JSON string (escapes included)."""
    if char in _ESCAPED:
        return _ESCAPED[char]
    code = ord(char)
    if code < 0x20:
        return 6
    if code < 0x80:
        return 1
    if code < 0x800:
        return 2
    return 3 if code < 0x10000 else 4


def fit_chars(text: str, start: int, max_chars: int, room: int) -> int:
    """How many characters of `text` from `start` (at most `max_chars`) fit in `room` bytes of JSON string."""
    used = count = 0
    for char in text[start : start + max_chars]:
        used += char_cost(char)
        if used > room:
            break
        count += 1
    return count


def room_for(kit: Toolkit, answer: Mapping[str, Any]) -> int:
    """Bytes left for one more text in `answer` (already prepared, placeholders in place)."""
    return kit.settings.max_result_bytes - size_of(answer) - SAFETY_BYTES


def slice_text(
    kit: Toolkit, answer: dict[str, Any], key: str, text: str, *, offset: int, limit: int, next_key: str
) -> dict[str, Any]:
    """`answer` (prepared) with `text[offset:]` under `key`, as much as `limit` and the cap allow.

    `text` must be prepared already. Adds `<key>_chars` (the total) and, when text remains,
    `next_key` with the offset to pass back.

    Raises:
        ToolFailure: VALIDATION when `offset` is past the end; RESULT_TOO_LARGE when the rest of the
            answer leaves no room for any text.
    """
    if offset > len(text):
        raise ToolFailure(failures.VALIDATION, f"Offset {offset} is past the end ({len(text)} characters).")
    total_key = f"{key}_chars"
    probe = answer | {key: "", total_key: len(text), next_key: len(text)}
    taken = fit_chars(text, offset, limit, room_for(kit, probe))
    end = offset + taken
    if taken == 0 and end < len(text):
        raise ToolFailure(
            failures.RESULT_TOO_LARGE, "The rest of the answer leaves no room for the text under the "
            "CURSOR_MCP_MAX_RESULT_BYTES cap; ask for less of the rest (e.g. activity=false).",
        )  # fmt: skip
    answer |= {key: text[offset:end], total_key: len(text)}
    if end < len(text):
        answer[next_key] = end
    return answer


def fit_rows(kit: Toolkit, answer: dict[str, Any], key: str, rows: list[Any], *, omitted_key: str) -> dict[str, Any]:
    """`answer` (prepared) with as many of `rows` (prepared), in order, as fit under `key`.

    Rows that do not fit are counted under `omitted_key` rather than cut silently.
    """
    room = room_for(kit, answer | {key: [], omitted_key: len(rows)})
    kept: list[Any] = []
    for row in rows:
        room -= size_of(row) + 1
        if room < 0:
            break
        kept.append(row)
    answer[key] = kept
    if len(kept) < len(rows):
        answer[omitted_key] = len(rows) - len(kept)
    return answer
