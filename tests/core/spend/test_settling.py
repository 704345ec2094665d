"""`core/spend/settling.py`: a paid act whose answer was lost is asked again until settled, within the API's
creation time."""

from __future__ import annotations

import pytest

from cursor_cloud_agents.api import MutationContext, MutationOutcomeUnknownError
from cursor_cloud_agents.core import failures
from cursor_cloud_agents.core.failures import ToolFailure
from cursor_cloud_agents.core.spend.settling import settled
from cursor_cloud_agents.core.timing import API_CREATION_SECONDS, SETTLE_SECONDS, Clock

pytestmark = pytest.mark.anyio


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    async def sleep(self, seconds: float) -> None:
        self.now += seconds

    def clock(self) -> Clock:
        return Clock(now=lambda: self.now, sleep=self.sleep)


def unknown() -> MutationOutcomeUnknownError:
    return MutationOutcomeUnknownError("cut", context=MutationContext(method="POST", path="/v1/agents"))


async def test_an_unknown_outcome_is_asked_again_until_the_act_answers() -> None:
    time = FakeTime()
    answers: list[BaseException | str] = [unknown(), ToolFailure(failures.CREATION_IN_FLIGHT, "landing"), "made"]

    async def ask() -> str:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return answer

    assert await settled(ask, time.clock()) == "made"
    assert time.now == 1000.0 + 2 * SETTLE_SECONDS


async def test_a_definite_refusal_is_raised_at_once() -> None:
    time = FakeTime()
    asked: list[int] = []

    async def ask() -> str:
        asked.append(1)
        raise ToolFailure(failures.LIMIT_REACHED, "full")

    with pytest.raises(ToolFailure, match="full"):
        await settled(ask, time.clock())
    assert asked == [1] and time.now == 1000.0


async def test_an_outcome_still_unknown_after_the_creation_time_is_raised_as_it_was() -> None:
    time = FakeTime()

    async def ask() -> str:
        raise unknown()

    with pytest.raises(MutationOutcomeUnknownError):
        await settled(ask, time.clock())
    assert time.now - 1000.0 <= API_CREATION_SECONDS
