"""JSON read from the API as JSON is: without the `NaN` and `Infinity` that Python's parser accepts."""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | bytes) -> Any:
    """`json.loads`, with `NaN`, `Infinity` and `-Infinity` read as null (absent).

    They are not JSON, and kept they would do harm: a cost of `NaN` passes every comparison with a spend
    limit, and our own answers, written with it, would no longer be JSON.

    Raises:
        ValueError: the text is not JSON, or nests deeper than the parser reads (it recurses once per level:
            past the recursion limit it raised RecursionError, which no caller expects from a body).
    """
    try:
        return json.loads(text, parse_constant=lambda _constant: None)
    except RecursionError:
        raise ValueError("the JSON nests deeper than it can be read") from None
