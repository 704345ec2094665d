"""The answer builder: every answer cleaned and masked once, measured once, and fitted under the byte cap.

An answer is a typed view (a pydantic model) or plain JSON data. `render` turns it into what is sent:
nulls dropped, agent text cleaned of hidden characters, secrets masked, compact JSON. `size` is the
one measure of an answer, in bytes of that JSON. A tool whose answer can grow uses the fitting here:
a text sliced with its continuation offset (`slice_text`), rows kept while they fit with the rest
counted (`fit_rows`), or the page size whose worst-case rows always fit (`page_size`). Text is
prepared whole before it is cut, so a secret can never be split across two slices and escape the
mask, and offsets stay stable from one call to the next. Every reserve is named here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from cursor_cloud_agents.core import ToolFailure, clean, clean_data, failures
from cursor_cloud_agents.redact import Redactor
from cursor_cloud_agents.server.pipeline.lines import text_lines

V = TypeVar("V")

SAFETY_BYTES = 64
"""Kept free for what measuring cannot foresee (a short secret masked anew inside a slice)."""
MIN_TEXT_BYTES = 200
"""Below this much room for a text, a window of texts stops rather than return slivers."""
ROW_SEPARATOR_BYTES = 1
"""The comma between two rows of a JSON array."""
_FAILURE_KEPT = ("code", "message", "omitted")
"""The fields of a failure never left out to fit it under the cap."""
CUT_BACKOFF_CHARS = 64
"""How far back a slice's end may move to leave a word whole (beyond this, a long word is cut anyway)."""
_ESCAPED = {'"': 2, "\\": 2, "\n": 2, "\r": 2, "\t": 2, "\b": 2, "\f": 2}
_WORD = re.compile(r"\w")


def plain(data: Any) -> Any:
    """`data` as JSON values: views dumped, nulls dropped (an absent field says "none" for fewer bytes)."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json", exclude_none=True)
    if isinstance(data, dict):
        items = cast(dict[str, Any], data).items()
        return {key: plain(value) for key, value in items if value is not None}
    if isinstance(data, list | tuple):
        return [plain(item) for item in cast(list[Any], data)]
    return data


def dumps(data: Any) -> str:
    """Compact JSON, as answers are sent."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def size(data: Any) -> int:
    """Bytes of `data` as an answer carries it: nulls dropped, compact JSON, UTF-8 (a lone surrogate,
    which preparing replaces, counted without raising)."""
    return len(dumps(plain(data)).encode("utf-8", "surrogatepass"))


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
    """How many characters of `text` from `start` (at most `max_chars`) fit in `room` bytes of JSON string,
    ending between words when the text goes on (`word_cut`)."""
    used = count = 0
    for char in text[start : start + max_chars]:
        used += char_cost(char)
        if used > room:
            break
        count += 1
    return word_cut(text, start, start + count) - start


def word_cut(text: str, start: int, end: int) -> int:
    """`end`, or the nearest point before it (after `start`) that is not inside a word, when `text` goes on.

    A slice is prepared again as it is sent, and masking and cleaning look at word boundaries (a short secret
    is masked as a whole word, `<img` is made inert only before a non-word character): a slice ending or
    starting inside a word could come out differently from the whole text, and the slices would not
    reassemble into it (`<ImageView` cut after `<Image` would read `&lt;ImageView`)."""
    if end >= len(text) or end <= start:
        return end
    for cut in range(end, max(start, end - CUT_BACKOFF_CHARS), -1):
        if not (_WORD.match(text, cut - 1) and _WORD.match(text, cut)):
            return cut
    return end


def with_fields(view: V, **fields: Any) -> V:
    """`view` with `fields` set: a copy of a typed view, or the same dict updated."""
    if isinstance(view, BaseModel):
        return cast(V, view.model_copy(update=fields))
    cast(dict[str, Any], view).update(fields)
    return view


class Answers:
    """Prepares, measures and fits the answers of one server under its byte cap."""

    def __init__(self, redactor: Redactor, max_bytes: int) -> None:
        self.redactor = redactor
        self.max_bytes = max_bytes

    def prepare(self, data: Any) -> Any:
        """`data` as it will be sent: JSON values, cleaned of hidden characters (lone surrogates included,
        which UTF-8 cannot carry), masked. Idempotent."""
        return self.redactor.mask_data(clean_data(plain(data), self._clean_masked))

    def _clean_masked(self, text: str) -> str:
        """`text` cleaned; masked first when the cleaning changes it, since a secret holding a character the
        cleaning drops (the CRs of a key saved with CRLF) is no longer itself once cleaned. The mask after the
        cleaning still catches a secret that hidden characters were splitting."""
        cleaned = clean(text)
        return cleaned if cleaned == text else clean(self.redactor.mask(text))

    def text(self, text: str) -> str:
        """One agent text prepared as `prepare` does: cut it only after this."""
        return cast(str, self.prepare(text))

    def render(self, answer: Any) -> tuple[Any, str]:
        """The prepared answer and its compact JSON text, in lines of at most 2,000 characters for clients that
        read a long answer from a file line by line (`lines.py`); the two channels carry the same object."""
        data = self.prepare(answer)
        return data, text_lines(data)

    def capped(self, max_bytes: int) -> Answers:
        """These answers under a lower cap (a page sized for a client); never above this cap."""
        return Answers(self.redactor, min(max_bytes, self.max_bytes))

    def room(self, answer: Any) -> int:
        """Bytes left under the cap for one more text in `answer` (placeholders in place)."""
        return self.max_bytes - size(self.prepare(answer)) - SAFETY_BYTES

    def page_size(self, wanted: int, row_max_bytes: int, envelope_bytes: int) -> int:
        """The largest page, up to `wanted`, whose rows are sure to fit: for lists whose cursor comes from
        the API, where a row left out could not be resumed from."""
        fitting = (self.max_bytes - envelope_bytes) // (row_max_bytes + ROW_SEPARATOR_BYTES)
        return max(1, min(wanted, fitting))

    def fit_failure(self, payload: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """A failure rendered under the cap like every answer: a context field Cursor filled (an upstream code
        can be any length) is left out, largest first, and named under `omitted`; then the message is cut."""
        data: dict[str, Any] = self.render(payload)[0]
        omitted: list[str] = []
        while size(data) > self.max_bytes and (context := [k for k in data if k not in _FAILURE_KEPT]):
            largest = max(context, key=lambda key: size(data[key]))
            omitted.append(largest)
            data = {key: value for key, value in data.items() if key != largest} | {"omitted": omitted}
        if size(data) > self.max_bytes:
            message = str(data["message"])
            room = self.max_bytes - size(data | {"message": ""}) - SAFETY_BYTES
            data["message"] = message[: fit_chars(message, 0, len(message), room)]
        return self.render(data)

    def rows_in_answer(self, count: int, answer: Callable[[int], Any]) -> int:
        """The most rows, up to `count` and at least one, whose answer fits under the cap. `answer(k)` is the
        answer made of the first k rows and of everything that follows from them (counts, lists of ids),
        which is why it is built again for each k tried (halving: a handful of builds for a hundred rows)."""
        if count == 0 or self.room(answer(count)) >= 0:
            return count
        low, high = 1, count - 1
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if self.room(answer(middle)) >= 0 else (low, middle - 1)
        return low

    def rows_that_fit(self, rows: Sequence[Any], room: int) -> int:
        """How many of `rows`, in order, fit in `room` bytes of a JSON array."""
        for count, row in enumerate(rows):
            room -= size(self.prepare(row)) + ROW_SEPARATOR_BYTES
            if room < 0:
                return count
        return len(rows)

    def fit_rows(self, answer: V, key: str, rows: Sequence[Any], *, omitted_key: str) -> V:
        """`answer` with as many of `rows`, in order, as fit under `key`; the others counted under
        `omitted_key`, never cut silently."""
        room = self.room(with_fields(answer, **{key: [], omitted_key: len(rows)})) + SAFETY_BYTES
        kept = self.rows_that_fit(rows, room)
        omitted = len(rows) - kept if kept < len(rows) else None
        return with_fields(answer, **{key: list(rows[:kept]), omitted_key: omitted})

    def share_texts(self, answer: Any, texts: Sequence[str]) -> list[int]:
        """How many characters of each (prepared) text fit when the room `answer` leaves is shared fairly:
        the shortest texts are served first, and a share a text does not use passes to those after it.

        `answer` holds every text's row with its fields set and its text empty."""
        room = self.room(answer)
        taken = [0] * len(texts)
        for served, index in enumerate(sorted(range(len(texts)), key=lambda i: len(texts[i]))):
            share = max(0, room) // (len(texts) - served)
            taken[index] = fit_chars(texts[index], 0, len(texts[index]), share)
            room -= size(texts[index][: taken[index]]) - 2  # its bytes inside the string that was empty
        return taken

    def slice_window(self, answer: V, key: str, window: str, *, offset: int, total: int, next_key: str) -> V:
        """`answer` with as much of `window` (the prepared text from `offset`, of `total` characters in all) as the
        cap allows: `slice_text` for a text that is never held whole (a diff of any size).

        Raises:
            ToolFailure: RESULT_TOO_LARGE when the rest of the answer leaves no room for any text.
        """
        total_key = f"{key}_chars"
        probe = with_fields(answer, **{key: "", total_key: total, next_key: total})
        taken = fit_chars(window, 0, len(window), self.room(probe))
        end = offset + taken
        if taken == 0 and end < total:
            raise ToolFailure(
                failures.RESULT_TOO_LARGE,
                "The rest of the answer leaves no room for the text under the CURSOR_MCP_MAX_RESULT_BYTES cap.",
            )
        return with_fields(answer, **{key: window[:taken], total_key: total, next_key: end if end < total else None})

    def slice_text(self, answer: V, key: str, text: str, *, offset: int, limit: int, next_key: str) -> V:
        """`answer` with `text[offset:]` under `key`, as much as `limit` and the cap allow; `<key>_chars`
        holds the whole length and `next_key` the offset to pass back while text remains.

        `text` must be prepared (`text()`).

        Raises:
            ToolFailure: VALIDATION when `offset` is past the end; RESULT_TOO_LARGE when the rest of the
                answer leaves no room for any text.
        """
        if offset > len(text):
            raise ToolFailure(failures.VALIDATION, f"Offset {offset} is past the end ({len(text)} characters).")
        total_key = f"{key}_chars"
        probe = with_fields(answer, **{key: "", total_key: len(text), next_key: len(text)})
        taken = fit_chars(text, offset, limit, self.room(probe))
        end = offset + taken
        if taken == 0 and end < len(text):
            raise ToolFailure(
                failures.RESULT_TOO_LARGE,
                "The rest of the answer leaves no room for the text under the "
                "CURSOR_MCP_MAX_RESULT_BYTES cap; ask for less of the rest (e.g. activity=false).",
            )
        return with_fields(
            answer, **{key: text[offset:end], total_key: len(text), next_key: end if end < len(text) else None}
        )
