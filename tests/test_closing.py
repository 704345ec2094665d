"""`async with` closes (`closing.py`): `aclose()` is awaited however the block ended."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.closing import ClosedOnExit

pytestmark = pytest.mark.anyio


class Counted(ClosedOnExit):
    def __init__(self) -> None:
        self.closed = 0

    async def __aenter__(self) -> Counted:
        return self

    async def aclose(self) -> None:
        self.closed += 1


async def test_leaving_the_block_normally_closes_once() -> None:
    async with Counted() as held:
        pass
    assert held.closed == 1


async def test_leaving_the_block_by_an_error_closes_and_lets_the_error_through() -> None:
    held = Counted()
    with pytest.raises(RuntimeError, match="boom"):
        async with held:
            raise RuntimeError("boom")
    assert held.closed == 1
