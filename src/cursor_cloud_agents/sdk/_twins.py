"""How a synchronous twin takes the very arguments of its async original, declared once on the original.

The sync `Cursor` is built from the same arguments as `AsyncCursor`; writing the list twice let the two drift
(a new limit added to one only). `takes_arguments_of` gives the twin's `__init__` the original's parameters
for type checkers (a `ParamSpec`) and for `help()` and editors at run time (`__signature__`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

P = ParamSpec("P")
S = TypeVar("S")


def takes_arguments_of(
    original: Callable[Concatenate[Any, P], object],
) -> Callable[[Callable[Concatenate[S, ...], None]], Callable[Concatenate[S, P], None]]:
    """Declare a method as taking `original`'s parameters (after `self`)."""

    def same(twin: Callable[Concatenate[S, ...], None]) -> Callable[Concatenate[S, P], None]:
        twin.__signature__ = inspect.signature(original)  # type: ignore[attr-defined]  # read by help()
        return twin

    return same
