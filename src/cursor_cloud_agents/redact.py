"""Masking of secrets in every text that leaves the process: log lines, tracebacks, errors and results.

The redactor knows the actual secret values (the API key, forwarded values, and the `env_vars`
values passed during the life of the process) and masks each in the forms it travels in: raw,
base64, Basic-auth (`base64(value + ":")`), URL-encoded and JSON-escaped. It also masks whatever
follows `Bearer ` or `Basic ` in an Authorization header, known or not. A value shorter than 8
characters is masked only as a whole word, so that a short value (`en`) does not mangle the text
around it (`agent`).
"""

from __future__ import annotations

import base64
import json
import logging
import re
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any, cast
from urllib.parse import quote, quote_plus

MASK = "***"
SHORT_VALUE = 8
RECENT_VALUES = 4096

_AUTH_HEADER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}")


def _forms(value: str) -> set[str]:
    """The encodings a secret travels in; each is masked wherever it appears."""
    raw = value.encode()
    forms = {
        value,
        base64.b64encode(raw).decode(),
        base64.b64encode(raw + b":").decode(),
        quote(value, safe=""),
        quote_plus(value),
        json.dumps(value)[1:-1],
    }
    # base64 of a value may appear without its padding (e.g. in a URL-safe token).
    forms |= {form.rstrip("=") for form in list(forms) if len(form.rstrip("=")) >= SHORT_VALUE}
    return {form for form in forms if form}


class Redactor:
    """Masks known secret values, in all their encodings, in text and in JSON-like structures."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._permanent: set[str] = set()
        self._recent: OrderedDict[str, None] = OrderedDict()
        self._pattern: re.Pattern[str] | None = None
        for secret in secrets:
            self.add(secret)

    def add(self, value: str, *, permanent: bool = True) -> None:
        """Mask `value` from now on; a non-permanent value is forgotten after RECENT_VALUES newer ones."""
        if not value:
            return
        if permanent:
            self._permanent.add(value)
        else:
            self._recent[value] = None
            self._recent.move_to_end(value)
            while len(self._recent) > RECENT_VALUES:
                self._recent.popitem(last=False)
        self._pattern = None

    def mask(self, text: str) -> str:
        """`text` with every known secret form and every Authorization credential replaced by ***."""
        text = _AUTH_HEADER.sub(lambda match: f"{match.group(1)} {MASK}", text)
        pattern = self._compiled()
        return text if pattern is None else pattern.sub(MASK, text)

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

    def _compiled(self) -> re.Pattern[str] | None:
        if self._pattern is None:
            self._pattern = _build_pattern([*self._permanent, *self._recent])
        return self._pattern


def _build_pattern(values: Iterable[str]) -> re.Pattern[str] | None:
    long_forms: set[str] = set()
    short_forms: set[str] = set()
    for value in values:
        for form in _forms(value):
            (long_forms if len(form) >= SHORT_VALUE else short_forms).add(form)
    # Longest first, so a form that contains another is replaced whole.
    alternatives = [re.escape(form) for form in sorted(long_forms, key=len, reverse=True)]
    alternatives += [rf"(?<!\w){re.escape(form)}(?!\w)" for form in sorted(short_forms, key=len, reverse=True)]
    return re.compile("|".join(alternatives)) if alternatives else None


class RedactingFormatter(logging.Formatter):
    """A log formatter whose whole output (message, arguments and traceback) goes through the redactor."""

    def __init__(self, redactor: Redactor, fmt: str | None = None) -> None:
        super().__init__(fmt or "%(asctime)s %(levelname)s %(name)s: %(message)s")
        self._redactor = redactor

    def format(self, record: logging.LogRecord) -> str:
        return self._redactor.mask(super().format(record))
