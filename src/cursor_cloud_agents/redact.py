"""Masking of secrets in every text that leaves the process: log lines, tracebacks, errors and results.

The redactor knows the actual secret values (the API key, forwarded values, and the `env_vars`
values passed during the life of the process) and masks each in every form of `ENCODINGS`: raw, base64
(standard and URL-safe), Basic-auth (`base64(value + ":")`), URL-encoded, JSON-escaped and hex. It
also masks whatever follows `Bearer ` or `Basic ` in an Authorization header, known or not. A value shorter than 8
characters is masked only as a whole word, so that a short value (`en`) does not mangle the text
around it (`agent`). Any run of PARTIAL_RUN or more characters of a permanent secret (the key, the
forwarded values) is masked too: an upstream error that quotes the first 24 characters of the key must
not leak them. Only for secrets up to PARTIAL_MAX_CHARS long, and not for the per-call values, of
which there can be thousands: the pattern grows with the square of a secret's length. So the permanent
secrets and the per-call values have a pattern each, and adding a per-call value never compiles the
large one again; where matches of the two overlap, their union is masked.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import quote, quote_plus

from cursor_cloud_agents.logtext import shown, shown_arguments, without_inputs

MASK = "***"
SHORT_VALUE = 8
RECENT_VALUES = 4096
PARTIAL_RUN = 12
PARTIAL_MAX_CHARS = 256

_AUTH_HEADER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}")


@dataclass(frozen=True)
class Encoding:
    """One form a secret travels in: `family` as docs/safety.md lists it, `variant` to tell forms of a family apart."""

    family: str
    variant: str
    encode: Callable[[str], str]


def _base64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


ENCODINGS: tuple[Encoding, ...] = (
    Encoding("raw", "raw", lambda value: value),
    Encoding("base64", "standard", lambda value: _base64(value.encode())),
    Encoding("base64", "URL-safe", lambda value: base64.urlsafe_b64encode(value.encode()).decode()),
    Encoding("Basic auth", "base64 of value:", lambda value: _base64(value.encode() + b":")),
    Encoding("URL-encoded", "percent", lambda value: quote(value, safe="")),
    Encoding("URL-encoded", "form", quote_plus),
    Encoding("JSON-escaped", "ASCII", lambda value: json.dumps(value)[1:-1]),
    # As JSON written with ensure_ascii=False (recordings, terminal JSON): escapes, but non-ASCII kept raw.
    Encoding("JSON-escaped", "non-ASCII kept", lambda value: json.dumps(value, ensure_ascii=False)[1:-1]),
    Encoding("hex", "lower case", lambda value: value.encode().hex()),
    Encoding("hex", "upper case", lambda value: value.encode().hex().upper()),
)
"""Every form in which a secret is masked: the masker's list, and the tests' and docs/safety.md's."""


def _forms(value: str) -> set[str]:
    """The encodings a secret travels in; each is masked wherever it appears."""
    forms = {encoding.encode(value) for encoding in ENCODINGS}
    # Each form as a JSON string spells it: a body quoting a form is written as JSON again (a recording, an answer).
    forms |= {json.dumps(form, ensure_ascii=ascii_only)[1:-1] for form in list(forms) for ascii_only in (True, False)}
    # base64 of a value may appear without its padding (e.g. in a URL-safe token).
    forms |= {form.rstrip("=") for form in list(forms) if len(form.rstrip("=")) >= SHORT_VALUE}
    return {form for form in forms if form}


class Redactor:
    """Masks known secret values, in all their encodings, in text and in JSON-like structures."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._permanent: set[str] = set()
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._permanent_pattern: re.Pattern[str] | None = None
        self._recent_pattern: re.Pattern[str] | None = None
        self._permanent_changed = False
        self._recent_changed = False
        for secret in secrets:
            self.add(secret)

    def add(self, value: str, *, permanent: bool = True) -> None:
        """Mask `value` from now on; a non-permanent value is forgotten after RECENT_VALUES newer ones."""
        if not value:
            return
        if permanent:
            self._permanent.add(value)
            self._permanent_changed = True
            return
        self._recent[value] = None
        self._recent.move_to_end(value)
        while len(self._recent) > RECENT_VALUES:
            self._recent.popitem(last=False)
        self._recent_changed = True

    def mask(self, text: str) -> str:
        """`text` with every known secret form and every Authorization credential replaced by ***."""
        text = _AUTH_HEADER.sub(lambda match: f"{match.group(1)} {MASK}", text)
        patterns = self._compiled()
        if len(patterns) == 1:
            return patterns[0].sub(MASK, text)
        return _mask_spans(text, patterns) if patterns else text

    def mask_data(self, data: Any) -> Any:
        """A copy of a JSON-like structure with every string (keys included) masked."""
        if isinstance(data, str):
            return self.mask(data)
        if isinstance(data, dict):
            items = cast(dict[Any, Any], data).items()
            return {self.mask(str(key)): self.mask_data(value) for key, value in items}
        if isinstance(data, list | tuple):
            return [self.mask_data(item) for item in cast(list[Any], data)]
        return data

    def _compiled(self) -> list[re.Pattern[str]]:
        """The patterns in use, each compiled again only when its own values changed since."""
        if self._permanent_changed:
            self._permanent_pattern = _build_pattern(self._permanent, partial=True)
            self._permanent_changed = False
        if self._recent_changed:
            self._recent_pattern = _build_pattern(self._recent, partial=False)
            self._recent_changed = False
        return [pattern for pattern in (self._permanent_pattern, self._recent_pattern) if pattern is not None]


def _mask_spans(text: str, patterns: Iterable[re.Pattern[str]]) -> str:
    """`text` with the matches of every pattern masked: overlapping matches become one mask (as one pattern
    over all the values would match the longest), matches side by side one mask each."""
    pieces: list[str] = []
    end = 0
    for start, stop in sorted(match.span() for pattern in patterns for match in pattern.finditer(text)):
        if start < end:
            end = max(end, stop)
            continue
        pieces += [text[end:start], MASK]
        end = stop
    return "".join(pieces) + text[end:]


def _partial(value: str) -> list[str]:
    """Patterns for every run of PARTIAL_RUN or more characters of `value`: each start's first PARTIAL_RUN
    characters, then as many of the following ones as are there."""
    if not PARTIAL_RUN < len(value) <= PARTIAL_MAX_CHARS:
        return []
    patterns: list[str] = []
    for start in range(len(value) - PARTIAL_RUN + 1):
        rest = value[start + PARTIAL_RUN :]
        tail = "".join(f"(?:{re.escape(char)}" for char in rest) + ")?" * len(rest)
        patterns.append(re.escape(value[start : start + PARTIAL_RUN]) + tail)
    return patterns


def _build_pattern(values: Iterable[str], *, partial: bool) -> re.Pattern[str] | None:
    long_forms: set[str] = set()
    short_forms: set[str] = set()
    runs = [pattern for value in values for pattern in _partial(value)] if partial else []
    for value in values:
        for form in _forms(value):
            (long_forms if len(form) >= SHORT_VALUE else short_forms).add(form)
    # Longest first, so a form that contains another is replaced whole; runs of a secret after whole forms.
    alternatives = [re.escape(form) for form in sorted(long_forms, key=len, reverse=True)]
    alternatives += runs
    alternatives += [rf"(?<!\w){re.escape(form)}(?!\w)" for form in sorted(short_forms, key=len, reverse=True)]
    return re.compile("|".join(alternatives)) if alternatives else None


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def escape_line(text: str) -> str:
    """`text` on one line: control, line-separator and bidi characters written as escapes, so a value
    cannot forge a log line or hide its own text."""
    return _UNPRINTABLE.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)


class RedactingFormatter(logging.Formatter):
    """A log formatter whose whole output goes through the redactor, each message kept on its one line, and
    that shows of the values it is given only what `logtext` allows (no content the redactor has not seen)."""

    def __init__(self, redactor: Redactor, fmt: str | None = None) -> None:
        super().__init__(fmt or "%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._redactor = redactor

    def formatMessage(self, record: logging.LogRecord) -> str:
        # Only the message is escaped: a traceback added after it keeps its own lines.
        record.message = escape_line(record.message)
        return super().formatMessage(record)

    def format(self, record: logging.LogRecord) -> str:
        # The record itself is changed (not a copy): were formatting to fail, logging would print its arguments.
        record.args = shown_arguments(record.msg, record.args)
        if not isinstance(record.msg, str):
            record.msg = shown(record.msg)
        # Over the whole text: a traceback another formatter cached on the record is cleaned too.
        return self._redactor.mask(without_inputs(super().format(record)))
