"""`Status`: a run's status as Cursor's Python SDK spells it (lowercase), still equal to the API's spelling.

Cursor's `cursor-sdk` types a status as plain lowercase string literals (`"running"`, `"finished"`, `"error"`,
`"cancelled"`, `"expired"`; the API's `CREATING` reads as `"running"` there), so a program written for it tests
`result.status == "finished"`. This SDK answered the API's uppercase words (`"FINISHED"`), so such a test was
silently false. A `Status` is the lowercase word (what it prints, what `str()` and JSON give, its hash), and it
compares equal, ignoring case, to that word and to the API's own word: `"finished"`, `"FINISHED"`; a creating
run equals `"running"` and `"CREATING"`. Programs written either way keep working. Only a dict or set keyed by
an uppercase word misses it (hashing is by the lowercase word): compare with `==` or `in` a tuple.
"""

from __future__ import annotations

from typing import Self

_AS_CURSOR_SDK = {"creating": "running"}
"""The API's words Cursor's SDK folds into another (it has no `creating`)."""


class Status(str):
    """A status: the lowercase word, equal (ignoring case) to it and to the API's word it came from."""

    __slots__ = ("api",)
    api: str

    def __new__(cls, api_status: str) -> Self:
        lowered = api_status.lower()
        made = super().__new__(cls, _AS_CURSOR_SDK.get(lowered, lowered))
        made.api = api_status.upper()
        return made

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, str):
            return NotImplemented
        wanted = other.lower()
        return wanted == str.lower(self) or wanted == self.api.lower()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return str.__hash__(self)

    def __repr__(self) -> str:
        return str.__repr__(str(self))

    def __reduce__(self) -> tuple[type[Status], tuple[str]]:
        return (Status, (self.api,))


def status(api_status: str | None) -> Status | None:
    """The `Status` of an API status word (None stays None)."""
    return None if api_status is None else Status(api_status)
