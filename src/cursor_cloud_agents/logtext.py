"""What a log line may show of the values it is given: never request or response content the masker has not seen.

The masker knows the secrets it was told (the key, forwarded values, the `env_vars` values of the calls it
judged); content that was never parsed as a call (a message the SDK dropped, a notification, an upstream
body) may hold values it was never told. Such content reaches a log line in two ways only, and both are
closed here, for every logger (ours, the SDK's, the libraries'):

- as an argument of the message: only scalars (text, numbers, booleans, None), paths and URLs are shown as
  they are; an exception is shown as its type and its message; any other object (an SDK message, a model,
  a dict, bytes) as its type alone;
- inside an exception's text, in an argument or a traceback: pydantic quotes the value it refused
  (`input_value=...`, cut to its two ends); that quotation is removed, the field and the rule are kept.
"""

from __future__ import annotations

import enum
import os
import re
from collections.abc import Mapping
from typing import Any, cast

_PYDANTIC_INPUT = re.compile(r", input_value=.*, input_type=[\w.]+\]$", re.MULTILINE)
_SCALARS = (str, int, float, bool, type(None), os.PathLike, enum.Enum)
_URL_MODULES = ("httpx2", "httpcore2")
"""URLs the HTTP libraries log (built by us from parsed, masked parameters): shown as they are."""


class _Shown:
    """A value as a log line shows it (the same text for `%s` and `%r`)."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __str__(self) -> str:
        return self._text

    __repr__ = __str__


def without_inputs(text: str) -> str:
    """`text` (an exception's message, a traceback) without the input values pydantic quotes in it."""
    return _PYDANTIC_INPUT.sub("]", text)


def exception_text(exc: BaseException) -> str:
    """An exception as a log line shows it: its type and its message, without quoted inputs (never its repr,
    which holds every argument: a UnicodeDecodeError's repr holds the whole undecodable text)."""
    message = without_inputs(str(exc))
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def shown(value: object) -> object:
    """`value` as a log line may show it (see the module's docstring)."""
    if isinstance(value, (*_SCALARS, _Shown)):
        return cast(object, value)  # narrowed to PathLike[Unknown]: any path is shown
    if isinstance(value, BaseException):
        return _Shown(exception_text(value))
    kind = type(value)
    if kind.__name__ == "URL" and kind.__module__.split(".")[0] in _URL_MODULES:
        return value
    return _Shown(f"<{kind.__name__}>")


def shown_arguments(message: object, args: Any) -> Any:
    """A log record's `args` with each value as `shown` gives it.

    Logging takes a lone mapping argument for named placeholders (`%(name)s`); given to a message without any
    (`"params: %r", params`), it is one value, the whole mapping, and is shown as such: by its type."""
    if isinstance(args, Mapping):
        mapping = cast(Mapping[Any, object], args)
        if isinstance(message, str) and "%(" in message:
            return {key: shown(value) for key, value in mapping.items()}
        return (shown(mapping),)
    if isinstance(args, tuple):
        return tuple(shown(value) for value in cast(tuple[object, ...], args))
    return args
