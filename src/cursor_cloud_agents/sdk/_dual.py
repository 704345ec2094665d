"""`either`: one name for a class method and an instance method, as Cursor's SDK has some (`Agent.list_runs`).

Cursor's SDK calls `Agent.list_runs(agent_id)` on the class; this SDK had `agent.list_runs()` on an agent. The
descriptor gives the class form when the name is read on the class and the instance form when it is read on an
instance, so both programs run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, overload

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")
S = TypeVar("S")


class either(Generic[P, R, Q, S]):
    """A class form (a plain function, read on the class) and an instance form (a method, read on an instance)."""

    def __init__(self, on_class: Callable[P, R], on_instance: Callable[Concatenate[Any, Q], S]) -> None:
        self._on_class = on_class
        self._on_instance = on_instance
        self.__doc__ = on_class.__doc__ or on_instance.__doc__

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> Callable[P, R]: ...
    @overload
    def __get__(self, instance: object, owner: type[Any]) -> Callable[Q, S]: ...
    def __get__(self, instance: object | None, owner: type[Any]) -> Callable[P, R] | Callable[Q, S]:
        if instance is None:
            return self._on_class
        return self._on_instance.__get__(instance, owner)
