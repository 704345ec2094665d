"""Objects that `async with` closes: `__aexit__` awaits `aclose()`, however the block ended.

One definition for the API client and the SDK's connection, which both own connections to release on the
way out of a block, and an `aclose()` that says what that means for each.
"""

from __future__ import annotations

from types import TracebackType


class ClosedOnExit:
    """Leaving an `async with` block awaits `aclose()`."""

    async def aclose(self) -> None:
        """Release what this object holds."""
        raise NotImplementedError

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
